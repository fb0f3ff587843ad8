import Foundation

/// What needs attention on a day, most urgent first: the `due` command, the report and the dashboard
/// all read this, and all of it comes from the one status function.
public struct DueItem: Sendable, Equatable {
    public var row: RegisterRow
    public var report: StatusReport
    /// The date that matters (`StatusReport.keyDate`).
    public var date: CalendarDate?
    /// Calendar days from today to `date` (negative: past).
    public var days: Int?

    public var status: AssetStatus { report.status }
}

/// The order `due` lists items in: attention rank, then date (none first), then tag. Small enough to keep
/// one per due asset of a million-asset register while the rows themselves are read again in this order
/// (`DueList`); the uuid is what they are read by, and plays no part in the order.
public struct DueOrder: Comparable, Sendable, RowKey {
    public var rank: Int
    public var day: Int
    public var tag: String
    public var uuid: UUID

    public init(_ item: DueItem) {
        rank = item.status.attentionRank
        day = item.date?.dayNumber ?? Int.min
        tag = item.row.asset.tag
        uuid = item.row.asset.uuid
    }

    public static func < (a: DueOrder, b: DueOrder) -> Bool { (a.rank, a.day, a.tag) < (b.rank, b.day, b.tag) }
}

public enum DueReport {
    /// Statuses that always need attention, whatever the horizon. UNTESTED is due now: never examined (or an
    /// electrical item never tested) with no date to count an interval from.
    public static let urgent: [AssetStatus] = [.doNotUse, .overdue, .remedyBy, .untested]

    /// DO NOT USE, OVERDUE, REMEDY BY and UNTESTED items, plus the DUE SOON ones (each asset's own window) or,
    /// given `within`, DUE SOON and OK items falling due within that many days; ordered by attention rank,
    /// then date, then tag.
    public static func items(_ rows: [RegisterRow], today: CalendarDate, within: Int? = nil) -> [DueItem] {
        rows.compactMap { item($0, today: today, within: within) }.sorted { DueOrder($0) < DueOrder($1) }
    }

    /// The row as a `DueItem` if it needs attention (as `items` chooses), else nil: `due` judges the register
    /// row by row with this, holding none of them.
    public static func item(_ row: RegisterRow, today: CalendarDate, within: Int? = nil) -> DueItem? {
        item(row, report: row.status(on: today), today: today, within: within)
    }

    /// As `item(_:today:within:)`, with the row's status already found (the report judges each row once).
    public static func item(_ row: RegisterRow, report: StatusReport, today: CalendarDate,
                            within: Int? = nil) -> DueItem? {
        let date = report.keyDate
        let days = date.map { today.days(until: $0) }
        // Given `within`, DUE SOON and OK items falling due in it; else the DUE SOON ones, by their own window.
        let soon = within.map { within in
            (report.status == .dueSoon || report.status == .ok) && days.map { $0 >= 0 && $0 <= within } == true
        } ?? (report.status == .dueSoon)
        guard urgent.contains(report.status) || soon else { return nil }
        return DueItem(row: row, report: report, date: date, days: days)
    }

    /// "3 DO NOT USE, 12 OVERDUE, … as of 2026-11-30" or "Nothing needs attention as of …".
    public static func summary(_ items: [DueItem], today: CalendarDate) -> String {
        summary(counts: counts(items), today: today)
    }

    public static func counts(_ items: [DueItem]) -> [AssetStatus: Int] {
        items.reduce(into: [:]) { $0[$1.status, default: 0] += 1 }
    }

    /// The summary from the counts alone, for a caller that does not hold the items.
    public static func summary(counts: [AssetStatus: Int], today: CalendarDate) -> String {
        if counts.values.allSatisfy({ $0 == 0 }) { return "Nothing needs attention as of \(today.iso)." }
        let parts = AssetStatus.allCases.compactMap { status in
            counts[status].flatMap { $0 > 0 ? "\($0) \(status.label)" : nil }
        }
        return parts.joined(separator: ", ") + " as of \(today.iso)."
    }

    /// "due in 12 days", "due today", "3 days overdue", "remedy deadline in 4 days"; for DO NOT USE,
    /// why ("remedy deadline 2026-11-20 passed"), never a date still ahead.
    public static func when(_ item: DueItem) -> String {
        if let reason = item.report.reason { return reason }
        guard let days = item.days else { return item.status == .untested ? item.row.asset.kind.neverDone : "—" }
        let what = item.report.deadlineMatters ? "remedy deadline" : "due"
        if days == 0 { return "\(what) today" }
        if days > 0 { return "\(what) in \(days) day\(days == 1 ? "" : "s")" }
        return "\(what) \(-days) day\(days == -1 ? "" : "s") ago"
    }
}

/// How many assets fall due in each of the coming weeks (week 0 starts today), counting only assets
/// that are in service: not withdrawn, not already overdue.
public enum DueForecast {
    public static func weeks(_ rows: [RegisterRow], today: CalendarDate, count: Int = 12) -> [Int] {
        var buckets = Array(repeating: 0, count: count)
        for row in rows {
            if let week = week(of: row.status(on: today), today: today, count: count) { buckets[week] += 1 }
        }
        return buckets
    }

    /// The week (0 ..< count) an asset of this status falls due in, if it does within them.
    public static func week(of report: StatusReport, today: CalendarDate, count: Int = 12) -> Int? {
        guard let due = report.examinationDue.date else { return nil }
        let days = today.days(until: due)
        guard days >= 0, days / 7 < count else { return nil }
        return days / 7
    }

    public static func weekStart(_ index: Int, today: CalendarDate) -> CalendarDate { today.addingDays(index * 7) }
}

/// A *Fail – dangerous* found, or a withdrawal, on one record. The report keeps every one of its period
/// in the attention list, so a client sees the sling failed today even once it is WITHDRAWN (not
/// otherwise listed) or has passed an examination since.
public struct DangerFinding: Sendable, Equatable {
    public var assetUUID: UUID
    public var recordID: Int64
    public var date: CalendarDate
    public var type: InspectionType
    public var failedDangerous: Bool
    public var withdrawn: Bool
    /// A failed electrical test, not an inspection record: `recordID` is the test's id.
    public var isTest = false

    /// Nil unless the record failed dangerous or withdrew the item.
    public init?(_ record: StoredInspection) {
        let facts = record.facts
        guard facts.result == .failDangerous || facts.action == .withdraw else { return nil }
        assetUUID = record.assetUUID
        recordID = record.id
        date = facts.inspectionDate
        type = facts.type
        failedDangerous = facts.result == .failDangerous
        withdrawn = facts.action == .withdraw
    }

    /// A failed electrical test: it stays listed for its period like a dangerous fail.
    public init?(failedTest test: StoredTest) {
        guard !test.passed, let date = CalendarDate(iso: test.values.testDate) else { return nil }
        assetUUID = test.assetUUID
        recordID = test.id
        self.date = date
        type = .thoroughPeriodic
        failedDangerous = true
        withdrawn = false
        isTest = true
    }

    /// "failed dangerous and withdrawn on 2026-11-30 · Pre-use check #12"; "failed its test on 2026-11-21 · test
    /// #3" for an electrical test.
    public var text: String {
        if isTest { return "failed its test on \(date.iso) · test #\(recordID)" }
        let what = [failedDangerous ? "failed dangerous" : nil, withdrawn ? "withdrawn" : nil].compactMap { $0 }
        return "\(what.joined(separator: " and ")) on \(date.iso) · \(type.label) #\(recordID)"
    }
}
