import Foundation
import RigbookCore

/// How one background sync ended, as the worker reports it to the loop.
public enum SyncOutcome: Sendable, Equatable {
    /// `received`: entries brought in; `conflicts`: the report's lines on fields changed on both sides.
    case synced(received: Int, sent: Int, conflicts: [String])
    /// The server could not be reached or refused: `day` and `clock` ("09:12") are when, in local time.
    case failed(reason: String, day: CalendarDate, clock: String)
    /// The server refused for a reason someone must put right first (a password, a database, a role): `problem`
    /// names it in a few words ("wrong password"), `reason` says what to do. Waiting will not mend it.
    case needsAction(problem: String, reason: String)
}

/// When the full-screen program syncs with the organisation's server, and what its header says about it.
/// Pure: the loop's monotonic `now` comes in, `.sync` effects go out; the worker's answer is `.syncFinished`.
/// A sync runs at start, after each save, and every `interval` seconds after the last one ended; a save
/// while one runs asks for another as soon as it ends, so what was saved is never left waiting an interval.
public struct SyncState: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        /// No sync has ended in this session yet.
        case unknown
        /// The last sync ended well, at this time on the loop's clock.
        case synced(at: Double)
        /// Syncs have failed since this time (the first failure after the last success), for `reason`.
        case offline(day: CalendarDate, clock: String, reason: String)
        /// The server refuses until someone puts `problem` right, as `reason` says.
        case needsAction(problem: String, reason: String)
    }

    /// The program has a server to sync with (a remembered one, or RIGBOOK_SERVER).
    public private(set) var enabled = false
    /// A worker is syncing now.
    public private(set) var running = false
    /// Something was saved while the worker ran: sync again once it ends.
    public private(set) var wantedAgain = false
    public private(set) var status = Status.unknown
    /// When the next periodic sync is due, on the loop's clock.
    public private(set) var nextAt: Double?
    public private(set) var interval: Double = 180

    public init() {}

    /// The events that start a sync: the program's own saves (the register has something new to send).
    static func isSave(_ event: Event) -> Bool {
        switch event {
        case .saved, .batchSaved, .assetChanged, .assetAdded, .sampleLoaded: true
        case .particularsRecorded(_, let kept, _, _): kept
        default: false
        }
    }

    /// Follows one event; returns `.sync` when a sync should start now.
    public mutating func follow(_ event: Event, now: Double) -> [Effect] {
        switch event {
        case .syncEnabled(let seconds):
            enabled = true
            interval = max(1, seconds)
            return start(now: now)
        case .syncFinished(let outcome):
            running = false
            switch outcome {
            case .synced: status = .synced(at: now)
            case .failed(let reason, let day, let clock):
                // "Offline since" the first failure: later ones only bring a newer reason.
                if case .offline(let since, let at, _) = status {
                    status = .offline(day: since, clock: at, reason: reason)
                } else {
                    status = .offline(day: day, clock: clock, reason: reason)
                }
            case .needsAction(let problem, let reason): status = .needsAction(problem: problem, reason: reason)
            }
            nextAt = now + interval
            if wantedAgain { return start(now: now) }
            return []
        default:
            guard enabled else { return [] }
            if Self.isSave(event) {
                if running { wantedAgain = true; return [] }
                return start(now: now)
            }
            if let nextAt, now >= nextAt, !running { return start(now: now) }
            return []
        }
    }

    private mutating func start(now: Double) -> [Effect] {
        guard enabled, !running else { return [] }
        running = true
        wantedAgain = false
        nextAt = nil
        return [.sync]
    }

    /// The header's words: "syncing…", "synced just now", "synced 2 min ago", "offline since 09:12" (an earlier
    /// day: its date), "sync needs you: wrong password"; nil without a server. Short, so it fits 80 columns beside
    /// the counts.
    public func header(now: Double, today: CalendarDate) -> String? {
        guard enabled else { return nil }
        if running { return "syncing…" }
        switch status {
        case .unknown: return "syncing…"
        case .synced(let at):
            let seconds = now - at
            return seconds < 60 ? "synced just now" : "synced \(Elapsed.text(seconds)) ago"
        case .offline(let day, let clock, _):
            return "offline since " + (day == today ? clock : day.iso)
        case .needsAction(let problem, _):
            return "sync needs you: " + problem
        }
    }

    /// Why the last syncs failed, while offline.
    public var offlineReason: String? {
        if case .offline(_, _, let reason) = status { reason } else { nil }
    }

    /// A field changed on both sides is worth a line at the bottom (the later change holds; both stay in the
    /// history), and so is a refusal someone must put right, with what to do: once, when it starts or changes
    /// (`before`: the status before `event`), as every later sync meets it again. Nothing else a sync does is:
    /// records arriving show in the list, a failure to reach the server only in the header.
    static func notice(for event: Event, before: Status) -> Notice? {
        guard case .syncFinished(let outcome) = event else { return nil }
        switch outcome {
        case .synced(_, _, let conflicts):
            guard let first = conflicts.first else { return nil }
            let more = conflicts.count > 1 ? " (and \(conflicts.count - 1) more)" : ""
            return .info("Sync: " + first + more)
        case .needsAction(let problem, let reason):
            if before == .needsAction(problem: problem, reason: reason) { return nil }
            return .error("Sync needs you: " + reason)
        case .failed:
            return nil
        }
    }

    /// "09:12": a time of day as the header shows it, in `timeZone`.
    public static func clock(_ date: Date, timeZone: TimeZone) -> (day: CalendarDate, clock: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let day = CalendarDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
        let two = { (value: Int?) in String(format: "%02d", value ?? 0) }
        return (day ?? CalendarDate(dayNumber: 0), two(parts.hour) + ":" + two(parts.minute))
    }
}
