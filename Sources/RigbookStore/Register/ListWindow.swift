import Foundation
import RigbookCore

/// Each status on a given day as ranges of the status columns (`StatusColumns`): one arm a class, each arm a range
/// of one index, so a status's count is a few range counts and its rows in tag order a merge of sorted ranges.
enum StatusRanges {
    struct Arm {
        static let wholeClass = "?1 IS NOT NULL"
        let statusClass: StatusColumns.Class
        /// Over the status columns, with `?1` the day (ISO text). Every arm names the day, so each query binds it.
        let condition: String
        /// The index whose range it is, where SQLite would pick another: DUE SOON's rows are found from the
        /// start of their window (a short range), not from their due date (every asset due from today on).
        var index: String? = nil
    }

    static func arms(_ status: AssetStatus) -> [Arm] {
        switch status {
        case .doNotUse:
            [Arm(statusClass: .failed, condition: Arm.wholeClass),
             Arm(statusClass: .quarantined, condition: "status_remedy < ?1"),
             Arm(statusClass: .remedy, condition: "status_remedy < ?1")]
        case .overdue:
            [Arm(statusClass: .dated, condition: "status_due < ?1"),
             Arm(statusClass: .remedy, condition: "status_remedy >= ?1 AND status_due < ?1")]
        case .remedyBy:
            [Arm(statusClass: .remedy, condition: "status_remedy >= ?1 AND (status_due IS NULL OR status_due >= ?1)")]
        case .quarantined:
            [Arm(statusClass: .quarantined, condition: "(status_remedy IS NULL OR status_remedy >= ?1)")]
        case .dueSoon:
            [Arm(statusClass: .dated, condition: "status_due >= ?1 AND status_soon <= ?1",
                 index: "assets_by_status_soon")]
        case .untested: [Arm(statusClass: .untested, condition: Arm.wholeClass)]
        case .ok: [Arm(statusClass: .dated, condition: "status_soon > ?1")]
        case .withdrawn: [Arm(statusClass: .withdrawn, condition: Arm.wholeClass)]
        case .retired: [Arm(statusClass: .retired, condition: Arm.wholeClass)]
        }
    }

    static func sql(_ arm: Arm) -> String { "(status_class = \(arm.statusClass.rawValue) AND \(arm.condition))" }

    /// The table as an arm reads it: through its index, when it names one.
    static func from(_ arm: Arm) -> String { "assets" + (arm.index.map { " INDEXED BY \($0)" } ?? "") }

    /// How many rows the arm holds (and meet `also`).
    static func count(_ arm: Arm, also: String = "") -> String {
        "SELECT count(*) FROM \(from(arm)) WHERE \(sql(arm))\(also)"
    }

    /// The whole status as one condition.
    static func condition(_ status: AssetStatus) -> String {
        "(" + arms(status).map(sql).joined(separator: " OR ") + ")"
    }
}

/// The register list read a window at a time: statuses in attention order, tag order inside each, as the list
/// shows them. Counts come from range counts of the status indexes, rows by keyset from an anchor, never by
/// OFFSET: what a screen costs does not grow with the register.
extension Register {
    /// How many assets have each status on `today` (retired ones only when asked for). The most common status, OK,
    /// is what is left of the whole count: its range is most of the register.
    public func statusCounts(on today: CalendarDate,
                             includingRetired: Bool = false) throws(RegisterError) -> [AssetStatus: Int] {
        try perform { try db.reading {
            var counts: [AssetStatus: Int] = [:]
            var others = 0
            for status in AssetStatus.allCases where status != .ok {
                var count = 0
                for arm in StatusRanges.arms(status) {
                    if case .integer(let n)? = try db.scalar(StatusRanges.count(arm), [.text(today.iso)]) {
                        count += Int(n)
                    }
                }
                others += count
                if status != .retired || includingRetired { counts[status] = count }
            }
            guard case .integer(let total)? = try db.scalar("SELECT count(*) FROM assets") else { return counts }
            counts[.ok] = Int(total) - others
            return counts
        } }
    }

    /// Up to `limit` rows of the list of `statuses` (in attention order) that follow `anchor` (from the first row
    /// when nil), or that come before it when `backwards` (from the last row when nil), always given in list order.
    /// `counts` (from `statusCounts`) tells each status's read which index serves it best.
    public func listRows(on today: CalendarDate, statuses: [AssetStatus], counts: [AssetStatus: Int],
                         from anchor: ListAnchor?, backwards: Bool = false,
                         limit: Int) throws(RegisterError) -> [RegisterRow] {
        try perform { try db.reading {
            let ordered = statuses.sorted()
            let total = counts.values.reduce(0, +)
            var rows: [RegisterRow] = []
            var segments = backwards ? Array(ordered.reversed()) : ordered
            if let anchor {
                // The anchor's own status first (after or before its tag), then those beyond it.
                segments = segments.filter { backwards ? $0 <= anchor.status : $0 >= anchor.status }
            }
            for status in segments where rows.count < limit && (counts[status] ?? 0) > 0 {
                let bound = anchor?.status == status ? anchor?.tag : nil
                let tags = try listTags(status, on: today, dense: isDense(counts[status] ?? 0, of: total),
                                        beyond: bound, backwards: backwards, limit: limit - rows.count)
                for tag in tags {
                    let row = try db.withKept(Self.rowByTag, [.text(tag)]) {
                        try $0.step() ? AssetColumns.row($0) : nil
                    }
                    if let row { rows.append(row) }
                }
            }
            return backwards ? rows.reversed() : rows
        } }
    }

    /// The asset's place in the list of `statuses` on `today` (0 is the first row), nil when it is not shown.
    public func listPosition(of uuid: UUID, on today: CalendarDate, statuses: [AssetStatus],
                             counts: [AssetStatus: Int]) throws(RegisterError) -> Int? {
        guard let row = try asset(uuid: uuid) else { return nil }
        let status = row.status(on: today).status
        guard statuses.contains(status) else { return nil }
        return try perform { try db.reading {
            let before = statuses.filter { $0 < status }.reduce(0) { $0 + (counts[$1] ?? 0) }
            let total = counts.values.reduce(0, +)
            var inside = 0
            if isDense(counts[status] ?? 0, of: total) {
                let sql = "SELECT count(*) FROM assets INDEXED BY assets_in_list_order WHERE tag < ?2 AND "
                    + StatusRanges.condition(status)
                if case .integer(let n)? = try db.scalar(sql, [.text(today.iso), .text(row.asset.tag)]) {
                    inside = Int(n)
                }
            } else {
                for arm in StatusRanges.arms(status) {
                    let sql = StatusRanges.count(arm, also: " AND tag < ?2")
                    if case .integer(let n)? = try db.scalar(sql, [.text(today.iso), .text(row.asset.tag)]) {
                        inside += Int(n)
                    }
                }
            }
            return before + inside
        } }
    }

    /// Whether the status columns can place every asset: the triggers that keep them are all there and every row
    /// is of a class the list reads. Else (changed behind Rigbook's back) a list read by them would show an asset
    /// among the wrong status, or count it as OK and never show it: such a register's list reads every row.
    public func statusColumnsAreSound() throws(RegisterError) -> Bool {
        try perform {
            let names = StatusColumns.guards.map { "'\($0)'" }.joined(separator: ", ")
            let triggers = try db.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"
                                         + " AND name IN (\(names))")
            guard triggers == .integer(Int64(StatusColumns.guards.count)) else { return false }
            // Each arm of the OR is a range of the class index: a few steps, whatever the register's size.
            let highest = StatusColumns.Class.allCases.count - 1
            let unclassed = try db.scalar("SELECT count(*) FROM assets WHERE status_class IS NULL OR status_class < 0"
                                          + " OR status_class > \(highest)")
            return unclassed == .integer(0)
        }
    }

    /// How many assets (in service, or retired too) have an interval longer than LOLER reg 9(3) allows without an
    /// examination scheme (`Asset.intervalExceedsLOLER`), from the few the long-interval index holds.
    public func flaggedIntervalCount(includingRetired: Bool = false) throws(RegisterError) -> Int {
        try perform {
            let statement = try db.prepare("SELECT \(AssetColumns.select) FROM assets INDEXED BY"
                                           + " assets_with_long_intervals WHERE \(StatusColumns.longIntervals)")
            var count = 0
            while try statement.step() {
                let asset = AssetColumns.row(statement).asset
                if asset.intervalExceedsLOLER && (includingRetired || !asset.isRetired) { count += 1 }
            }
            return count
        }
    }

    /// The longest tags (by characters), for the width of the list's tag column.
    public func longestTags(limit: Int = 20) throws(RegisterError) -> [String] {
        try perform {
            let statement = try db.prepare(
                "SELECT tag FROM assets INDEXED BY assets_by_tag_length ORDER BY length(tag) DESC LIMIT ?")
            try statement.bind([.integer(Int64(limit))])
            var tags: [String] = []
            while try statement.step() { tags.append(statement.text(0)) }
            return tags
        }
    }

    private static let rowByTag = "SELECT \(AssetColumns.select) FROM assets WHERE tag = ?"

    /// Whether a status's rows are better found by walking every row in tag order (most rows have it: a screenful
    /// is met within a few thousand) than by sorting its own ranges (few rows have it: the sort is small).
    private func isDense(_ count: Int, of total: Int) -> Bool { count * 50 >= total }

    /// The tags of up to `limit` rows of `status` beyond `bound`, nearest first.
    private func listTags(_ status: AssetStatus, on today: CalendarDate, dense: Bool, beyond bound: String?,
                          backwards: Bool, limit: Int) throws -> [String] {
        let beyond = bound == nil ? "" : (backwards ? " AND tag < ?2" : " AND tag > ?2")
        let order = backwards ? "DESC" : "ASC"
        let sql = dense
            ? "SELECT tag FROM assets INDEXED BY assets_in_list_order WHERE \(StatusRanges.condition(status))"
                + beyond + " ORDER BY tag \(order) LIMIT ?3"
            : StatusRanges.arms(status)
                .map { "SELECT tag FROM \(StatusRanges.from($0)) WHERE \(StatusRanges.sql($0))\(beyond)" }
                .joined(separator: " UNION ALL ") + " ORDER BY tag \(order) LIMIT ?3"
        let statement = try db.prepare(sql)
        try statement.bind([.text(today.iso), bound.map(SQLValue.text) ?? .null, .integer(Int64(limit))])
        var tags: [String] = []
        while try statement.step() { tags.append(statement.text(0)) }
        return tags
    }
}
