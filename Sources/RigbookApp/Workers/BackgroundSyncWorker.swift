import Foundation
import RigbookCore
import RigbookStore
import RigbookUI

/// Syncs the register with the organisation's server on a thread of its own, so the loop never
/// waits on the network. Each sync opens its own connection to the register: the session's connection
/// belongs to the loop, and SQLite's WAL lets the two work side by side (the pull's one short transaction is
/// written after the server has been read). The outcome waits in a mailbox the loop looks at.
public final class BackgroundSyncWorker: Sendable {
    public let url: String
    public let registerPath: String
    /// Seconds between periodic syncs.
    public let interval: Double
    private let job = BackgroundJob<SyncOutcome>()
    private let timeZone: TimeZone

    public init(url: String, registerPath: String, interval: Double = 180, timeZone: TimeZone = .current) {
        self.url = url
        self.registerPath = registerPath
        self.interval = interval
        self.timeZone = timeZone
    }

    /// A sync is running on the worker's thread.
    public var isRunning: Bool { job.isRunning }

    /// Starts a sync unless one is running (the state asks for one at a time).
    public func start() { job.start { [self] in syncOnce() } }

    /// The outcome of the sync that ended since the last call, if any.
    public func take() -> SyncOutcome? { job.take() }

    /// Returns when no sync is running (for tests: the loop never waits on the worker).
    func waitUntilDone() { job.waitUntilDone() }

    private func syncOnce() -> SyncOutcome {
        do {
            let register = try Register.open(path: registerPath)
            let report = try register.sync(url: url)
            let conflicts = report.received.fieldConflicts.map { "conflict resolved: \($0)" }
                + report.received.conflictingAmendments.map { "conflicting amendments on \($0): both kept" }
            return .synced(received: report.received.entries, sent: report.sentCount, conflicts: conflicts)
        } catch let error as ServerError {
            guard case .needsAction(let problem) = error.cause else { return failed(error.message) }
            return .needsAction(problem: problem, reason: error.message)
        } catch {
            return failed("\(error)")  // a RegisterError says its description
        }
    }

    private func failed(_ reason: String) -> SyncOutcome {
        let (day, clock) = SyncState.clock(Date(), timeZone: timeZone)
        return .failed(reason: reason, day: day, clock: clock)
    }
}

extension Session {
    /// Hands a finished sync's outcome to `update`, and has the register looked at at once: what the sync
    /// brought in shows in the list now, not a second later.
    func followTheSync() {
        guard let outcome = backgroundSync?.take() else { return }
        lookedAroundChanges += 1
        lookAtTheRegisterNow()
        update(with: .syncFinished(outcome))
    }
}
