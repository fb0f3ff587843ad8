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

    public var isEmpty: Bool { count == 0 }
    /// Every item added, also once `forEachItem` has let their keys go.
    public var count: Int { counts.values.reduce(0, +) }

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

    /// The items in `DueReport.items`' order, each made again from its row as `source` reads it now. The list
    /// is read once: once sorted, only the uuids are kept, in order (16 bytes an item, where a key is 48), and the
    /// keys are let go before the first item is made. At 1,000,000 assets the keys were 12 MB, held while a PDF
    /// drew the list beside cairo's copy of a CJK font (15 MB, on the first page that has a CJK character).
    public mutating func forEachItem(from source: some RowSource, _ body: (DueItem) throws -> Void) throws {
        if !sorted {
            order.sort()
            sorted = true
        }
        let uuids = Array(order.orderedKeys.lazy.map(\.uuid))
        order = RowOrder()
        try source.forEachRow(uuids: uuids) { row in
            if let item = DueReport.item(row, today: today, within: within) { try body(item) }
        }
    }
}
