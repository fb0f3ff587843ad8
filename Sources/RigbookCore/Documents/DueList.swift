import Foundation

/// What needs attention, found in one read of a `RowSource` and kept as only each item's place in the order and
/// its uuid, with the counts; the items are made again, in order, from a second read (`forEachItem`). `due` and
/// the report's attention list both list this way: holding the due rows was 511 MB at 1,000,000 assets.
public struct DueList {
    public let today: CalendarDate
    public let within: Int?
    public private(set) var counts: [AssetStatus: Int] = [:]
    private var order: RowOrder<DueOrder>
    private var sorted = true

    /// `capacity`: room for this many items reserved up front (the source's row count bounds them).
    public init(today: CalendarDate, within: Int? = nil, reservingCapacity capacity: Int = 0) {
        self.today = today
        self.within = within
        order = RowOrder(reservingCapacity: capacity)
    }

    public var isEmpty: Bool { order.isEmpty }
    public var count: Int { order.count }

    /// Judges the row (as `DueReport.item`) and keeps it if it is due; returns its item, or nil.
    @discardableResult
    public mutating func add(_ row: RegisterRow, report: StatusReport? = nil) -> DueItem? {
        guard let item = DueReport.item(row, report: report ?? row.status(on: today), today: today, within: within)
        else { return nil }
        order.append(DueOrder(item))
        counts[item.status, default: 0] += 1
        sorted = false
        return item
    }

    /// The items in `DueReport.items`' order, each made again from its row as `source` reads it now.
    public mutating func forEachItem(from source: some RowSource, _ body: (DueItem) throws -> Void) throws {
        if !sorted {
            order.sort()
            sorted = true
        }
        try order.forEachRow(from: source) { _, row in
            if let item = DueReport.item(row, today: today, within: within) { try body(item) }
        }
    }
}
