import Foundation
import RigbookCore
import Synchronization

/// What the register list's keys do.
/// The register list (SPEC §7): every asset, most urgent first, filtered as you type.
///
/// Rows stay in the register's tag order; `order` is the attention order over them. The search index
/// and a row's position never depend on statuses, so a saved inspection re-files one row without
/// rebuilding anything that grows with the register.
public struct ListState: Sendable {
    /// Every asset, in tag order, with its status on `today`.
    public internal(set) var rows: [RegisterRow] = [] { didSet { rowsVersion = memos.newVersion() } }
    public internal(set) var reports: [StatusReport] = [] { didSet { rowsVersion = memos.newVersion() } }
    /// Set anew whenever `rows` or `reports` change, unique among the copies of this list that share its memos:
    /// two of them with one version hold the same rows and reports (the row memo then need not compare a row
    /// field by field). Zero is the empty list every copy starts from.
    private(set) var rowsVersion = 0
    /// Row indexes in attention order (status rank, then tag).
    internal(set) var order: [Int32] = []
    public internal(set) var counts: [AssetStatus: Int] = [:]
    public internal(set) var draftCount = 0
    /// The batch inspections' drafts on disk (their file names): counted in the header beside the assets'
    /// drafts, since a batch's file name names no asset to mark.
    var batchDrafts: Set<String> = []
    /// Assets whose interval is longer than LOLER reg 9(3) allows without an examination scheme.
    public internal(set) var flaggedIntervals = 0
    /// Columns the widest tag needs (tags are short codes; the name gets what is left).
    public internal(set) var tagWidth = 7
    /// What the widest value of each column needs, so spare room goes where text would be cut.
    internal(set) var contentWidths = ListColumn.ContentWidths()
    /// The rows' widths and counts as last measured: the columns are worked out from it.
    var survey = ListSurvey()
    /// Status rank of each row (`AssetStatus.attentionRank`), for the filter's `is:` words.
    var ranks: [UInt8] = []
    /// The register's particulars: each asset's site, by name.
    public private(set) var particulars = Particulars()
    public var loaded = false
    /// The background sync's state in words, for the header ("synced 2 min ago"); nil without a server.
    public var syncHeader: String?
    /// The register can only be read: the header says so, whatever else comes and goes at the bottom.
    public var readOnly = false

    public private(set) var query = ""
    /// Row indexes the filter shows, best match first (attention order among equals); nil when there is no filter.
    internal(set) var matches: [Int32]?
    /// The same rows in row (tag) order: what the next, longer query narrows, read front to back (nil: every row).
    var matchedRows: [Int32]?
    /// Whether a filter has run since the last load: only then can a longer query narrow its result.
    var filtered = false
    /// Counts per status of the rows the filter shows (nil: no filter, the whole register's counts hold).
    public internal(set) var shownCounts: [AssetStatus: Int]?
    /// `is:` words of the filter that name no status.
    public private(set) var unknownStatusWords: [String] = []
    var searchIndex: SearchIndex?
    /// A large register's filter index, made beside the loop (`RegisterSearchIndex`); nil until the first one comes.
    public internal(set) var registerIndex: RegisterSearchIndex?
    /// The filter has words but waits for the register's index, being made beside the loop: the list is unfiltered
    /// meanwhile, and says so.
    public internal(set) var filterWaiting = false
    /// The register's state when the window was last loaded: an index made from it is current.
    var windowStamp: RegisterStamp?
    public var editingFilter = false
    /// What drawing this list keeps from frame to frame (`ListView`).
    let memos = ListMemos()

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
    /// The record that save amended, when it was an amendment.
    var savedAmends: Int64?
    /// Assets marked for a batch inspection (`m`, `*`; `I` opens them).
    public internal(set) var marks = Marks()
    /// The scan prompt (`#`), when open.
    public internal(set) var scan: ScanPrompt?
    /// The assets the last save or batch saved in this session: `L` prints their labels.
    public internal(set) var lastSaved: [UUID] = []
    /// The visit of the last batch saved in this session: P writes its certificate.
    public internal(set) var lastVisit: UUID?
    /// Where the selection goes after that save: the asset that followed the saved one in the list as it was
    /// (the next item of the worklist), and the position it was at, for when that asset is gone.
    var afterSave: (next: UUID?, position: Int)?
    /// The save was Ctrl-N's: open the next asset's form once the list is re-read.
    var openNextAfterSave = false
    /// The next item to do that the last save moved the selection to, if there was one.
    var nextAfterSave: UUID?

    /// From how many assets a register's list is read a window at a time. Below it every row is read at once within
    /// the first frame's 150 ms on a two-core machine (about 75 ms at 100,000), and the filter, marks and dashboard
    /// need no read of their own.
    public static let windowFrom = 150_000

    /// A large register's list holds a window of its rows while nothing needs them all (nil: every row is loaded).
    public internal(set) var window: ListWindow?
    /// The register has so many assets that its list is read a window at a time whenever it can be.
    public internal(set) var largeRegister = false
    /// An action that needs every row (`*`, `I`, Tab on a large register), waiting for them to be read.
    var pendingAll: ListAction?
    /// A label scanned into a large register's filter, to jump to once every row is read (a payload names a tag,
    /// which the filter's answer does not hold).
    var pendingJump: String?
    /// A read of the window came back short: no more reads until the next load.
    var windowExhausted = false
    /// How many answers the filter of a large register has given: each names the rows its window reads.
    var filterAnswers = 0

    public init(today: CalendarDate) { self.today = today }

    /// Rows on screen at once in `area`: the area less the title, counts, headings and footer.
    public static func pageSize(_ area: Rect) -> Int { max(1, area.height - ListView.chromeHeight) }

    /// Takes a fresh load of the register (in tag order) and files it into attention order, one
    /// bucket per status, keeping tag order inside each.
    public mutating func load(_ register: [RegisterRow], today: CalendarDate, particulars: Particulars? = nil,
                              keepSelectionOn uuid: UUID? = nil) {
        let previous = uuid ?? selectedRow?.asset.uuid
        self.today = today
        if let particulars { self.particulars = particulars }
        window = nil
        rows = register
        (reports, survey) = ListSurvey.statuses(of: register, on: today)
        draftCount = survey.drafts
        flaggedIntervals = survey.flaggedIntervals
        tagWidth = min(12, max(3, survey.tag))
        measureColumns()
        rebuildOrder()
        loaded = true
        searchIndex = nil
        matches = nil
        matchedRows = nil
        filtered = false
        if !query.isEmpty { applyQuery(query, narrowing: false) }
        if let previous, let position = visibleIndex(of: previous) { selection = position }
        clampSelection()
    }

    /// New particulars (an asset moved to another site, a site renamed): the site column and the filter follow.
    public mutating func setParticulars(_ particulars: Particulars) {
        guard particulars != self.particulars else { return }
        self.particulars = particulars
        measureColumns()
        searchIndex = nil
        if !query.isEmpty { applyQuery(query, narrowing: false) }
        clampSelection()
    }

    /// The name of the site an asset is on (the main site unless its particulars say otherwise).
    func siteName(of asset: Asset) -> String {
        particulars.site(ofAsset: asset.uuid)?.name ?? ""
    }

    /// True when the register has sites to tell apart: only then is a site column worth its room.
    var showsSites: Bool { particulars.sites.count > 1 }

    /// The widest value of each column that can grow (from `survey`), up to what any column is given.
    mutating func measureColumns() {
        var widths = ListColumn.ContentWidths(name: survey.name, type: 0, location: survey.location, site: 0,
                                              serial: survey.serial, manufacturer: survey.manufacturer,
                                              wll: survey.wll, liftsPersons: survey.liftsPersons)
        func width(_ text: String) -> Int { text.utf8.count }
        widths.type = rows.isEmpty ? 0 : (EquipmentType.allCases.map(\.label.displayWidth)
            + ElectricalClass.allCases.map(\.label.displayWidth)).max() ?? 0
        widths.colourCode = particulars.organisation.colourCode != .none
        if showsSites {
            widths.site = min(ListColumn.ContentWidths.cap, particulars.sites.values.map { width($0.name) }.max() ?? 0)
        }
        contentWidths = widths
    }

    private mutating func rebuildOrder() {
        var buckets = Array(repeating: [Int32](), count: AssetStatus.allCases.count)
        ranks = reports.map { UInt8($0.status.attentionRank) }
        for (index, rank) in ranks.enumerated() { buckets[Int(rank)].append(Int32(index)) }
        order = buckets.flatMap { $0 }
        counts = [:]
        for (rank, bucket) in buckets.enumerated() { counts[AssetStatus.allCases[rank]] = bucket.count }
    }

    /// Replaces one asset's row (after a save, a draft kept or discarded) and re-files it; the
    /// selection stays on the same asset. Returns false when the asset is not in the list.
    @discardableResult
    public mutating func update(_ row: RegisterRow, today: CalendarDate) -> Bool {
        if window != nil { return updateInWindow(row, today: today) }
        guard let index = rows.firstIndex(where: { $0.asset.uuid == row.asset.uuid }) else { return false }
        let selected = selectedRow?.asset.uuid
        let old = reports[index].status
        let report = row.status(on: today)
        if rows[index].hasDraft != row.hasDraft { draftCount += row.hasDraft ? 1 : -1 }
        if rows[index].asset.intervalExceedsLOLER != row.asset.intervalExceedsLOLER {
            flaggedIntervals += row.asset.intervalExceedsLOLER ? 1 : -1
        }
        let textChanged = rows[index].asset != row.asset
        rows[index] = row
        if textChanged {
            // Another session edited the asset: the filter and the column widths read it again.
            searchIndex = nil
            survey = ListSurvey.of(rows)
            measureColumns()
        }
        reports[index] = report
        ranks[index] = UInt8(report.status.attentionRank)
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
        }
        if !query.isEmpty && (old != report.status || textChanged) { applyQuery(query, narrowing: false) }
        if let selected, let position = visibleIndex(of: selected) { selection = position }
        clampSelection()
        return true
    }

    public var visibleCount: Int { window?.total ?? matches?.count ?? order.count }

    /// The row index behind a visible position (one the list holds: `holdsRow`).
    public func rowIndex(visible position: Int) -> Int {
        if let window { return position - window.start }
        return Int(matches?[position] ?? order[position])
    }

    /// Whether the row at a visible position is read: always, unless the list is a window over a large register.
    public func holdsRow(visible position: Int) -> Bool {
        guard let window else { return position >= 0 && position < visibleCount }
        return position >= window.start && position < window.start + rows.count
    }

    public var selectedRow: RegisterRow? {
        guard visibleCount > 0 else { return nil }
        let position = min(selection, visibleCount - 1)
        return holdsRow(visible: position) ? rows[rowIndex(visible: position)] : nil
    }

    func visibleIndex(of uuid: UUID) -> Int? {
        guard let row = rows.firstIndex(where: { $0.asset.uuid == uuid }) else { return nil }
        if let window { return window.start + row }
        return (matches ?? order).firstIndex(of: Int32(row))
    }

    /// How many assets the list has (the retired among them when they are shown).
    public var assetCount: Int {
        // A filtered window's total is its answer's: the list's is the counts'.
        guard let window else { return rows.count }
        return window.filterAnswer == nil ? window.total : window.statuses.reduce(0) { $0 + (counts[$1] ?? 0) }
    }

    public mutating func setQuery(_ newQuery: String) {
        // Typing on can only narrow the result: filter the previous matches.
        let narrowing = filtered && FilterQuery.narrows(from: query, to: newQuery)
        query = newQuery
        applyQuery(newQuery, narrowing: narrowing)
        selection = 0
        top = 0
    }

    /// What the filter's words are matched against: each row's tag, serial number and client ref, and its name,
    /// type, site, location, manufacturer and kind, which repeat from row to row (`SearchIndex`, in the order of
    /// its `SharedField`).
    func makeSearchIndex() -> SearchIndex {
        let list = self
        return SearchIndex.build(count: rows.count) { row, builder in
            let asset = list.rows[row].asset
            builder.add(asset, particulars: list.particulars)
        }
    }

    /// From how many rows the filter's index is made ahead, beside the loop, once the register is loaded: a first
    /// filter key made it, half a second at a million assets; under this it takes a few milliseconds.
    static let indexAheadFrom = InHalves.threshold

    /// Whether the filter has its index (made on a filter key, or taken from one made ahead).
    var hasSearchIndex: Bool { searchIndex != nil }

    /// Whether the filter's index is worth making ahead now (`prepareSearchIndex`).
    var wantsIndexAhead: Bool { searchIndex == nil && rows.count >= ListState.indexAheadFrom }

    /// The filter's index made on another thread from a copy of the list (in two halves, as on a key: a filter
    /// key that comes while it is being made waits for it rather than making another beside it).
    public func prepareSearchIndex() -> PreparedSearchIndex {
        PreparedSearchIndex(index: makeSearchIndex(), list: memos, rowsVersion: rowsVersion, particulars: particulars)
    }

    /// Takes an index made ahead if the list still has the rows and particulars it was made from and has not made
    /// one itself meanwhile (a filter typed before it was ready); false when it is set aside.
    @discardableResult
    mutating func adopt(_ prepared: PreparedSearchIndex) -> Bool {
        guard searchIndex == nil, prepared.list === memos, prepared.rowsVersion == rowsVersion,
              prepared.particulars == particulars
        else { return false }
        searchIndex = prepared.index
        return true
    }

    mutating func applyQuery(_ text: String, narrowing: Bool) {
        let parsed = FilterQuery(text)
        unknownStatusWords = parsed.unknownStatuses
        // A window holds a few rows of a large register: its filter runs over the register's index.
        if window != nil { return applyQueryToWindow(parsed, text: text, narrowing: narrowing) }
        filtered = !text.isEmpty
        if parsed.isEmpty {
            // Only spaces, or "is:" still being typed: everything shows, but the filter is on.
            matches = text.isEmpty ? nil : order
            matchedRows = nil
            shownCounts = text.isEmpty ? nil : counts
            return
        }
        if searchIndex == nil && (!parsed.terms.isEmpty || !parsed.exact.isEmpty) { searchIndex = makeSearchIndex() }
        let rows = self.rows
        let answer = ListState.filter(parsed, index: searchIndex, ranks: ranks, among: narrowing ? matchedRows : nil,
                                      kind: { rows[Int($0)].asset.kind })
        (matches, matchedRows, shownCounts) = (answer.shown, answer.inRowOrder, answer.counts)
    }

    /// What a filter shows over an index of rows in tag order with their status ranks: the rows it keeps best
    /// first, the same in row order (what a longer query narrows), and how many it keeps of each status.
    struct FilterAnswer {
        var shown: [Int32]
        var inRowOrder: [Int32]
        var counts: [AssetStatus: Int]
    }

    /// The filter `parsed` over the rows of `index` (every row, or the `among` a shorter query kept), whose status
    /// ranks are `ranks` and kinds `kind`: the whole list's filter and a large register's are this one.
    static func filter(_ parsed: FilterQuery, index: SearchIndex?, ranks: [UInt8], among candidates: [Int32]?,
                       kind: @escaping @Sendable (Int32) -> AssetKind) -> FilterAnswer {
        var allowed = [Bool](repeating: parsed.statuses == nil, count: AssetStatus.allCases.count)
        for status in parsed.statuses ?? [] { allowed[status.attentionRank] = true }
        // `is:electrical` / `is:lifting` narrow by kind as well as by status. Words alone keep every
        // status and kind: no call a row to ask (a million calls a keystroke).
        let kinds = parsed.kinds, allowedRanks = allowed
        let keptRow: @Sendable (Int32) -> Bool = { row in
            allowedRanks[Int(ranks[Int(row)])] && (kinds.map { $0.contains(kind(row)) } ?? true)
        }
        let kept = parsed.statuses == nil && kinds == nil ? nil : keptRow
        let found: (rows: [Int32], scores: [Int32])
        if let index, !parsed.terms.isEmpty || !parsed.exact.isEmpty {
            // Nil candidates: every row, visited in row order, which reads the index's tables front to back.
            found = index.matches(parsed.terms, exact: parsed.exact, among: candidates, keep: kept)
        } else if let candidates {
            found = (kept.map { candidates.filter($0) } ?? candidates, [])
        } else if kinds == nil {
            // Statuses alone over every row (`is:` typed first): a pass over the ranks, no call a row.
            found = (ranks.withUnsafeBufferPointer { ranks in
                (0..<Int32(ranks.count)).filter { allowedRanks[Int(ranks[Int($0)])] }
            }, [])
        } else {
            let all = Array(0..<Int32(ranks.count))
            found = (kept.map { all.filter($0) } ?? all, [])
        }
        let shown = ListState.bestFirst(found.rows, scores: found.scores, ranks: ranks)
        var byStatus: [AssetStatus: Int] = [:]
        for (rank, count) in shown.perRank.enumerated() where count > 0 { byStatus[AssetStatus.allCases[rank]] = count }
        return FilterAnswer(shown: shown.rows, inRowOrder: found.rows, counts: byStatus)
    }

    /// Rows given in row order, put best first: by score, highest first (no scores: all equal), then in attention
    /// order (by status, then row order), with how many rows there are of each status. A counting sort on the
    /// pair, so a keystroke over a million matches costs a few passes, not a comparison sort; many rows are sorted
    /// in two halves on two threads, each counting its own and then placing them after the other half's of the
    /// same slot (the first key of a filter over a million assets).
    static func bestFirst(_ rows: [Int32], scores: [Int32], ranks: [UInt8]) -> (rows: [Int32], perRank: [Int]) {
        let rankCount = AssetStatus.allCases.count
        var perRank = [Int](repeating: 0, count: rankCount)
        guard !rows.isEmpty else { return ([], perRank) }
        let bounds = InHalves.map(count: scores.count) { range in
            scores[range].reduce((low: Int32.max, high: Int32.min)) { (min($0.low, $1), max($0.high, $1)) }
        }
        let low = scores.isEmpty ? 0 : bounds.map(\.result.low).min() ?? 0
        let high = scores.isEmpty ? 0 : bounds.map(\.result.high).max() ?? 0
        let levels = Int(min(4096, high - low + 1)), slots = levels * rankCount
        // A row's slot: the highest score level first, then the most urgent status.
        let slot: @Sendable (Int) -> Int = { position in
            let level = scores.isEmpty ? 0 : Int(min(Int32(levels - 1), scores[position] - low))
            return (levels - 1 - level) * rankCount + Int(ranks[Int(rows[position])])
        }
        let counted = InHalves.map(count: rows.count) { range in
            var counts = [Int](repeating: 0, count: slots)
            counts.withUnsafeMutableBufferPointer { counts in
                for position in range { counts[slot(position)] += 1 }
            }
            return counts
        }
        // Where each part's rows of each slot go: after every earlier slot's, and after the earlier part's own.
        var starts = counted.map { _ in [Int](repeating: 0, count: slots) }
        var next = 0
        for slot in 0..<slots {
            for part in counted.indices {
                starts[part][slot] = next
                next += counted[part].result[slot]
            }
            perRank[slot % rankCount] += (next - starts[0][slot])
        }
        let placeFrom = starts
        let sorted = [Int32](unsafeUninitializedCapacity: rows.count) { out, written in
            // The buffer's address crosses to the other thread as a number: each part writes only its own slots.
            let address = UInt(bitPattern: out.baseAddress)
            _ = InHalves.map(count: rows.count) { range in
                let out = UnsafeMutablePointer<Int32>(bitPattern: address)!
                var at = placeFrom[range.lowerBound == 0 ? 0 : placeFrom.count - 1]
                for position in range {
                    let key = slot(position)
                    out[at[key]] = rows[position]
                    at[key] += 1
                }
                return 0
            }
            written = rows.count
        }
        return (sorted, perRank)
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

/// The filter's index of a list, made beside the loop (`ListState.prepareSearchIndex`), with what it was made from:
/// the list takes it only while its rows and particulars are still those (`ListState.adopt`).
public struct PreparedSearchIndex: Sendable {
    let index: SearchIndex
    /// Which list, with `rowsVersion`: versions count per list (its copies share the memos).
    let list: ListMemos
    let rowsVersion: Int
    let particulars: Particulars
}

// MARK: A large register's window

extension ListState {
    /// Whether something the list shows needs every row: the scan prompt, or an action or a scan waiting for them
    /// (a filter runs over the register's index).
    public var needsAllRows: Bool { scan != nil || pendingAll != nil || pendingJump != nil }

    /// Takes a large register's counts and the window around the row to select. The selection keeps its place on
    /// the screen; the columns are as wide as the rows read so far need (until the next load).
    public mutating func loadWindow(_ load: ListWindowLoad, today: CalendarDate, pageSize: Int) {
        let offset = selection - top
        let selectedMatch = self.selectedMatch
        windowStamp = load.stamp
        let widths = window == nil ? ListSurvey() : survey
        self.today = today
        particulars = load.particulars
        batchDrafts = load.batchDrafts
        largeRegister = true
        windowExhausted = false
        window = ListWindow(start: load.start, total: load.statuses.reduce(0) { $0 + (load.counts[$1] ?? 0) },
                            statuses: load.statuses)
        rows = load.rows
        (reports, survey) = ListSurvey.statuses(of: rows, on: today)
        survey.merge(widths)
        survey.tag = max(survey.tag, load.longestTags.map(ListSurvey.displayWidth(ofTag:)).max() ?? 0)
        counts = load.counts
        draftCount = load.drafts
        flaggedIntervals = load.flaggedIntervals
        tagWidth = min(12, max(3, survey.tag))
        measureColumns()
        (order, ranks, matches, matchedRows, filtered, searchIndex, shownCounts) = ([], [], nil, nil, false, nil, nil)
        loaded = true
        if let selected = load.selected, let position = visibleIndex(of: selected) { selection = position }
        if !query.isEmpty { reapplyFilter(keeping: selectedMatch) }
        clampSelection()
        top = max(0, selection - offset)
        scrollToSelection(pageSize: pageSize)
    }

    /// The read the window needs for the screen (`pageSize` rows from `top`) to be held; nil when it is. `ahead`:
    /// also when the screen comes within a page of the window's edge (read while the loop waits for a key).
    public func windowRequest(pageSize: Int, ahead: Bool = false) -> ListWindowRequest? {
        guard let window, window.total > 0, !windowExhausted else { return nil }
        let spare = ahead ? pageSize : 0
        let first = max(0, top - spare), last = min(window.total, top + pageSize + spare)
        let start = window.start, end = window.start + rows.count
        if let answer = window.filterAnswer { return matchedRequest(answer, first: first, last: last) }
        func request(_ anchor: ListAnchor?, backwards: Bool, _ limit: Int) -> ListWindowRequest {
            ListWindowRequest(anchor: anchor, backwards: backwards, limit: max(1, limit), today: today,
                              statuses: window.statuses, counts: counts)
        }
        // Only what is missing: a key reads at most a screenful, and the read ahead a page beyond it.
        if rows.isEmpty || first >= end + ListWindow.walk || last <= start - ListWindow.walk {
            // Far from what is held (Home, End): read afresh from the nearer end of the list.
            if first < window.total - last { return request(nil, backwards: false, last) }
            return request(nil, backwards: true, window.total - first)
        }
        if first < start { return request(anchor(of: 0), backwards: true, start - first) }
        if last > end { return request(anchor(of: rows.count - 1), backwards: false, last - end) }
        return nil
    }

    private func anchor(of index: Int) -> ListAnchor {
        ListAnchor(status: reports[index].status, tag: rows[index].asset.tag)
    }

    /// Takes rows the window asked for. A read that no longer fits the window (another load came between) is set
    /// aside; a read that came back shorter than the counts promised (the register changed since they were
    /// counted) leaves the window as it is until the next load, which the change brings.
    public mutating func receiveWindow(_ page: ListWindowPage, pageSize: Int) {
        guard var window, page.request.today == today, page.request.statuses == window.statuses else { return }
        let request = page.request
        // Each row's status is worked out once, as it comes in.
        let read = page.rows.map { $0.status(on: today) }
        let available: Int
        if let matched = request.matched {
            guard matched.answer == window.filterAnswer else { return }
            available = receiveMatches(page, matched, reports: read, window: &window)
        } else {
            guard let keyset = receiveByKeyset(page, reports: read, window: &window) else { return }
            available = keyset
        }
        if page.rows.count < min(request.limit, available) { windowExhausted = true }
        // Keep the rows around the screen; those far from it go. What stays holds the screen and a page on each
        // side (the read ahead's): on a screen taller than the walk, a read trimmed off again was asked again.
        let before = max(ListWindow.walk, pageSize)
        let largest = max(ListWindow.largest, before + 2 * pageSize)
        if rows.count > largest {
            let keepFrom = max(0, min(top - window.start - before, rows.count - largest))
            let keepTo = min(rows.count, keepFrom + largest)
            rows = Array(rows[keepFrom..<keepTo])
            reports = Array(reports[keepFrom..<keepTo])
            window.start += keepFrom
        }
        // The columns keep the widths of the load: a read ahead, beside the screen, never moves what it shows.
        self.window = window
        clampSelection()
        scrollToSelection(pageSize: pageSize)
    }

    /// Files rows read by keyset at the window's edge they were read from (or afresh from an end of the list);
    /// returns how many rows the list had there to read, nil when the read no longer fits the window.
    private mutating func receiveByKeyset(_ page: ListWindowPage, reports read: [StatusReport],
                                          window: inout ListWindow) -> Int? {
        switch (page.request.anchor, page.request.backwards) {
        case (nil, false):
            window.start = 0
            (rows, reports) = (page.rows, read)
            return window.total
        case (nil, true):
            window.start = window.total - page.rows.count
            (rows, reports) = (page.rows, read)
            return window.total
        case (let anchor?, false):
            guard !rows.isEmpty, anchor == self.anchor(of: rows.count - 1) else { return nil }
            let available = window.total - window.start - rows.count
            rows += page.rows
            reports += read
            return available
        case (let anchor?, true):
            guard !rows.isEmpty, anchor == self.anchor(of: 0) else { return nil }
            let available = window.start
            window.start -= page.rows.count
            rows.insert(contentsOf: page.rows, at: 0)
            reports.insert(contentsOf: read, at: 0)
            return available
        }
    }

    /// One asset re-read into the window: kept in place when it keeps its status and tag (its place in the list);
    /// false when it moves, or is not in the window, and the list must be read again.
    mutating func updateInWindow(_ row: RegisterRow, today: CalendarDate) -> Bool {
        guard let index = rows.firstIndex(where: { $0.asset.uuid == row.asset.uuid }) else { return false }
        let report = row.status(on: today)
        // A changed asset (not only its history) may have changed what the filter's index holds of it: a load
        // brings the register's new state, from which another index is made.
        guard report.status == reports[index].status, row.asset == rows[index].asset else { return false }
        if rows[index].hasDraft != row.hasDraft { draftCount += row.hasDraft ? 1 : -1 }
        if rows[index].asset.intervalExceedsLOLER != row.asset.intervalExceedsLOLER {
            flaggedIntervals += row.asset.intervalExceedsLOLER ? 1 : -1
        }
        rows[index] = row
        reports[index] = report
        return true
    }
}

extension ListState {
    /// What a large register's list needs read after `event`: every row, or a window again, when what needs every
    /// row came or went (a key, or a load that did what waited for them); else the rows of the screen it now shows.
    /// Nothing beside a load already asked for: its result replaces the window.
    func windowEffects(after event: Event, alongside effects: [Effect], pageSize: Int) -> [Effect] {
        guard loaded, largeRegister else { return [] }
        if effects.contains(where: { if case .reloadRegister = $0 { true } else { false } }) { return [] }
        switch event {
        case .key, .registerLoaded, .registerWindowLoaded:
            if (window == nil) != needsAllRows { return [.reloadRegister] }
        case .failure:
            // A read that failed (a lock, a damaged file) is not asked again at once, which spun without end: the
            // next key or the second's tick asks again.
            return []
        default:
            break
        }
        // The filter was cleared: the whole list's window is read again around the selected row.
        if window?.filterAnswer != nil && matches == nil { return [.reloadRegister] }
        return windowRequest(pageSize: pageSize).map { [.readListWindow($0)] } ?? []
    }
}

extension ListState {
    /// The rows a new read of a large register's list keeps in view, best first: the one a save just saved, the
    /// selected one, then (it may be gone) the rows the window holds after it and before it.
    public var rowsToKeep: [UUID] {
        var uuids = [savedAsset, selectedRow?.asset.uuid].compactMap { $0 }
        if let window, !rows.isEmpty {
            let here = min(max(0, selection - window.start), rows.count - 1)
            uuids += rows[here...].prefix(20).map(\.asset.uuid) + rows[..<here].suffix(20).reversed().map(\.asset.uuid)
        }
        return uuids
    }
}
