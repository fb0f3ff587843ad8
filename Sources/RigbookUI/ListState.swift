import Foundation
import RigbookCore

/// What the register list's keys do.
/// The register list (SPEC §7): every asset, most urgent first, filtered as you type.
///
/// Rows stay in the register's tag order; `order` is the attention order over them. The search index
/// and a row's position never depend on statuses, so a saved inspection re-files one row without
/// rebuilding anything that grows with the register.
public struct ListState: Sendable {
    /// Every asset, in tag order, with its status on `today`.
    public private(set) var rows: [RegisterRow] = []
    public private(set) var reports: [StatusReport] = []
    /// Row indexes in attention order (status rank, then tag).
    private(set) var order: [Int32] = []
    public private(set) var counts: [AssetStatus: Int] = [:]
    public private(set) var draftCount = 0
    /// Assets whose interval is longer than LOLER reg 9(3) allows without an examination scheme.
    public private(set) var flaggedIntervals = 0
    /// Columns the widest tag needs (tags are short codes; the name gets what is left).
    public private(set) var tagWidth = 7
    public var loaded = false

    public private(set) var query = ""
    /// Row indexes matching the query, in attention order; nil when there is no filter.
    private(set) var matches: [Int32]?
    private var searchIndex: SearchIndex?
    public var editingFilter = false

    /// Index into the visible rows, and the first visible row on screen.
    public var selection = 0
    public var top = 0
    /// The date statuses are worked out for.
    public private(set) var today: CalendarDate
    /// How many sample assets `S` loads.
    public var sampleSize = 200
    /// Retired assets are listed too (`R`); the session loads them only then.
    public var showRetired = false
    /// After a save: the asset whose new status the list reports once it is re-read.
    var savedAsset: UUID?
    /// Assets marked for a batch inspection (`m`, `*`; `I` opens them).
    public internal(set) var marks = Marks()

    public init(today: CalendarDate) { self.today = today }

    /// Rows on screen at once in `area`: the area less the title, counts, headings and footer.
    static func pageSize(_ area: Rect) -> Int { max(1, area.height - ListView.chromeHeight) }

    /// Takes a fresh load of the register (in tag order) and files it into attention order, one
    /// bucket per status, keeping tag order inside each.
    public mutating func load(_ register: [RegisterRow], today: CalendarDate, keepSelectionOn uuid: UUID? = nil) {
        let previous = uuid ?? selectedRow?.asset.uuid
        self.today = today
        rows = register
        reports = register.map { $0.status(on: today) }
        draftCount = register.reduce(0) { $0 + ($1.hasDraft ? 1 : 0) }
        flaggedIntervals = register.reduce(0) { $0 + ($1.asset.intervalExceedsLOLER ? 1 : 0) }
        tagWidth = min(12, max(3, register.lazy.map { VisibleText.make($0.asset.tag).displayWidth }.max() ?? 0))
        rebuildOrder()
        loaded = true
        searchIndex = nil
        matches = nil
        if !query.isEmpty { applyQuery(query.lowercased(), narrowing: false) }
        if let previous, let position = visibleIndex(of: previous) { selection = position }
        clampSelection()
    }

    private mutating func rebuildOrder() {
        var buckets = Array(repeating: [Int32](), count: AssetStatus.allCases.count)
        for (index, report) in reports.enumerated() { buckets[report.status.attentionRank].append(Int32(index)) }
        order = buckets.flatMap { $0 }
        counts = [:]
        for (rank, bucket) in buckets.enumerated() { counts[AssetStatus.allCases[rank]] = bucket.count }
    }

    /// Replaces one asset's row (after a save, a draft kept or discarded) and re-files it; the
    /// selection stays on the same asset. Returns false when the asset is not in the list.
    @discardableResult
    public mutating func update(_ row: RegisterRow, today: CalendarDate) -> Bool {
        guard let index = rows.firstIndex(where: { $0.asset.uuid == row.asset.uuid }) else { return false }
        let selected = selectedRow?.asset.uuid
        let old = reports[index].status
        let report = row.status(on: today)
        if rows[index].hasDraft != row.hasDraft { draftCount += row.hasDraft ? 1 : -1 }
        if rows[index].asset.intervalExceedsLOLER != row.asset.intervalExceedsLOLER {
            flaggedIntervals += row.asset.intervalExceedsLOLER ? 1 : -1
        }
        rows[index] = row
        reports[index] = report
        if old != report.status {
            counts[old, default: 0] -= 1
            counts[report.status, default: 0] += 1
            if let position = order.firstIndex(of: Int32(index)) { order.remove(at: position) }
            // Its bucket starts after every row of a more urgent status; inside, tag order is row order.
            let start = AssetStatus.allCases.prefix(report.status.attentionRank).reduce(0) { $0 + (counts[$1] ?? 0) }
            let end = start + (counts[report.status] ?? 1) - 1
            var low = start, high = end
            while low < high {
                let middle = (low + high) / 2
                if order[middle] < Int32(index) { low = middle + 1 } else { high = middle }
            }
            order.insert(Int32(index), at: low)
            if !query.isEmpty { applyQuery(query.lowercased(), narrowing: false) }
        }
        if let selected, let position = visibleIndex(of: selected) { selection = position }
        clampSelection()
        return true
    }

    public var visibleCount: Int { matches?.count ?? order.count }

    /// The row index behind a visible position.
    public func rowIndex(visible position: Int) -> Int {
        Int(matches?[position] ?? order[position])
    }

    public var selectedRow: RegisterRow? {
        visibleCount == 0 ? nil : rows[rowIndex(visible: min(selection, visibleCount - 1))]
    }

    func visibleIndex(of uuid: UUID) -> Int? {
        guard let row = rows.firstIndex(where: { $0.asset.uuid == uuid }) else { return nil }
        return (matches ?? order).firstIndex(of: Int32(row))
    }

    public mutating func setQuery(_ newQuery: String) {
        let lower = newQuery.lowercased()
        // Typing one more character can only narrow the result: filter the previous matches.
        let narrowing = !query.isEmpty && lower.hasPrefix(query.lowercased()) && matches != nil
        query = newQuery
        applyQuery(lower, narrowing: narrowing)
        selection = 0
        top = 0
    }

    private mutating func applyQuery(_ lower: String, narrowing: Bool) {
        if lower.isEmpty { matches = nil; return }
        if searchIndex == nil {
            searchIndex = SearchIndex(rows.map {
                [$0.asset.tag, $0.asset.name, $0.asset.type.label, $0.asset.location].joined(separator: "\u{1F}")
            })
        }
        matches = searchIndex!.matches(lower, among: narrowing ? matches! : order)
    }

    mutating func move(by delta: Int, pageSize: Int) {
        selection += delta
        clampSelection()
        scrollToSelection(pageSize: pageSize)
    }

    mutating func clampSelection() {
        selection = max(0, min(selection, visibleCount - 1))
        top = max(0, min(top, max(0, visibleCount - 1)))
    }

    mutating func scrollToSelection(pageSize: Int) {
        let page = max(1, pageSize)
        if selection < top { top = selection }
        if selection >= top + page { top = selection - page + 1 }
    }
}
