import Foundation
import RigbookCore

/// What the register list's keys do.
public enum ListAction: Sendable {
    case up, down, pageUp, pageDown, top, bottom, filter, clearFilter, help, quit, loadSample
    case openHistory, inspect, drafts
}

/// The register list (SPEC §7): every asset, most urgent first, filtered as you type.
public struct ListState: Sendable {
    public private(set) var rows: [RegisterRow] = []
    public private(set) var reports: [StatusReport] = []
    public private(set) var counts: [AssetStatus: Int] = [:]
    public private(set) var draftCount = 0
    /// Columns the widest tag needs (tags are short codes; the name gets what is left).
    public private(set) var tagWidth = 7
    public var loaded = false

    public private(set) var query = ""
    /// Row indexes matching the query; nil when there is no filter.
    private(set) var matches: [Int32]?
    private var searchIndex: SearchIndex?
    public var editingFilter = false

    /// Index into the visible rows, and the first visible row on screen.
    public var selection = 0
    public var top = 0

    public init() {}

    /// Takes a fresh load of the register: sorts into attention order in one pass per status,
    /// keeping the register's tag order inside each status.
    public mutating func load(_ register: [RegisterRow], today: CalendarDate, keepSelectionOn uuid: UUID? = nil) {
        let previous = uuid ?? selectedRow?.asset.uuid
        var buckets = Array(repeating: [Int](), count: AssetStatus.allCases.count)
        var computed: [StatusReport] = []
        computed.reserveCapacity(register.count)
        for (index, row) in register.enumerated() {
            let report = row.status(on: today)
            computed.append(report)
            buckets[report.status.attentionRank].append(index)
        }
        rows.removeAll(keepingCapacity: true)
        reports.removeAll(keepingCapacity: true)
        rows.reserveCapacity(register.count)
        reports.reserveCapacity(register.count)
        counts = [:]
        draftCount = 0
        tagWidth = min(12, max(3, register.lazy.map { $0.asset.tag.utf8.count }.max() ?? 0))
        for (rank, bucket) in buckets.enumerated() {
            counts[AssetStatus.allCases[rank]] = bucket.count
            for index in bucket {
                rows.append(register[index])
                reports.append(computed[index])
                if register[index].hasDraft { draftCount += 1 }
            }
        }
        loaded = true
        searchIndex = nil
        matches = nil
        if !query.isEmpty { applyQuery(query, narrowing: false) }
        if let previous, let position = visibleIndex(of: previous) { selection = position }
        clampSelection()
    }

    public var visibleCount: Int { matches?.count ?? rows.count }

    /// The row index behind a visible position.
    public func rowIndex(visible position: Int) -> Int {
        matches.map { Int($0[position]) } ?? position
    }

    public var selectedRow: RegisterRow? {
        visibleCount == 0 ? nil : rows[rowIndex(visible: min(selection, visibleCount - 1))]
    }

    func visibleIndex(of uuid: UUID) -> Int? {
        guard let row = rows.firstIndex(where: { $0.asset.uuid == uuid }) else { return nil }
        if let matches { return matches.firstIndex(of: Int32(row)) }
        return row
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
            searchIndex = SearchIndex(rows.map { [$0.asset.tag, $0.asset.name, $0.asset.type.label, $0.asset.location].joined(separator: "\u{1F}") })
        }
        matches = searchIndex!.matches(lower.lowercased(), among: narrowing ? matches : nil)
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

    public static let keymap = Keymap<ListAction>(title: "Register list", [
        KeyBinding([.up, .char("k")], label: "↑ k", help: "Move up", action: .up),
        KeyBinding([.down, .char("j")], label: "↓ j", help: "Move down", footer: "move", action: .down),
        KeyBinding([.pageUp], help: "Page up", action: .pageUp),
        KeyBinding([.pageDown, .char(" ")], label: "PgDn Space", help: "Page down", action: .pageDown),
        KeyBinding([.home, .char("g")], label: "Home g", help: "First asset", action: .top),
        KeyBinding([.end, .char("G")], label: "End G", help: "Last asset", action: .bottom),
        KeyBinding([.char("/")], help: "Filter by tag, name, type or location as you type (Enter keeps it, Esc clears)",
                   footer: "filter", action: .filter),
        KeyBinding([.enter], help: "Asset details and inspection history", footer: "history", action: .openHistory),
        KeyBinding([.char("i")], help: "Record an inspection of the selected asset", footer: "inspect", action: .inspect),
        KeyBinding([.char("D")], help: "Unsubmitted drafts", footer: "drafts", action: .drafts),
        KeyBinding([.escape], help: "Clear the filter", action: .clearFilter),
        KeyBinding([.char("S")], help: "Load sample data (only into an empty register)", action: .loadSample),
        KeyBinding([.char("?"), .function(1)], label: "? F1", help: "This help", footer: "help", action: .help),
        KeyBinding([.char("q")], help: "Quit", footer: "quit", action: .quit),
    ])
}

