import Foundation
import RigbookCore

/// The filter of a large register, whose list holds a window of rows: it runs over the register's index
/// (`RegisterSearchIndex`), made beside the loop after the first frame, and the window then holds rows of its
/// answer, read by uuid a screen at a time. No key waits for the index: until it comes the list stays unfiltered
/// and says the filter is waiting.
extension ListState {
    /// What an index must be made from for the list as last loaded; nil when the list is not a window or its index
    /// is current.
    public var registerIndexWanted: RegisterSearchIndex.Basis? {
        guard window != nil, let windowStamp else { return nil }
        let basis = RegisterSearchIndex.Basis(stamp: windowStamp, today: today, includesRetired: showRetired,
                                              particulars: particulars)
        return registerIndex?.basis == basis ? nil : basis
    }

    /// The index, when it can answer for this list: made for its day and its rows (retired or not). One made from
    /// an older state of the register answers until the next comes.
    private var answeringIndex: RegisterSearchIndex? {
        guard let registerIndex, registerIndex.basis.today == today,
              registerIndex.basis.includesRetired == showRetired else { return nil }
        return registerIndex
    }

    /// Asks for an index when the list lacks a current one. An outdated one is let go first while no filter needs
    /// it: two of a million assets at once would double what the list holds.
    mutating func askForRegisterIndex() -> Outcome? {
        guard registerIndexWanted != nil else { return nil }
        if query.isEmpty { registerIndex = nil }
        return .effects([.prepareSearchIndex])
    }

    /// Takes an index made beside the loop, if it was made for this list's day and rows; a filter typed meanwhile
    /// runs on it, keeping the selected asset selected.
    public mutating func adopt(_ index: RegisterSearchIndex, pageSize: Int) {
        guard window != nil, index.basis.today == today, index.basis.includesRetired == showRetired else { return }
        let selected = selectedMatch
        registerIndex = index
        guard !query.isEmpty else { return }
        reapplyFilter(keeping: selected)
        clampSelection()
        scrollToSelection(pageSize: pageSize)
    }

    /// The filter run again over a new index or after a load: the match that was selected stays selected, else the
    /// best match is (as when the filter was typed).
    mutating func reapplyFilter(keeping selected: UUID?) {
        applyQuery(query, narrowing: false)
        guard window?.filterAnswer != nil else { return }
        (selection, top) = (0, 0)
        select(match: selected)
    }

    /// `applyQuery` for a window: the answer comes from the register's index, and the window holds its rows.
    mutating func applyQueryToWindow(_ parsed: FilterQuery, text: String, narrowing: Bool) {
        guard var window else { return }
        filterWaiting = false
        guard !parsed.isEmpty else {
            // Nothing to match yet ("is:" being typed): the whole list shows from its top, read again if it was
            // filtered (the rows of the answer go, so none of them is kept in view).
            (matches, matchedRows, shownCounts, filtered) = (nil, nil, text.isEmpty ? nil : counts, !text.isEmpty)
            if window.filterAnswer != nil { (rows, reports) = ([], []) }
            return
        }
        guard let index = answeringIndex else {
            filterWaiting = true
            (matches, matchedRows, shownCounts, filtered) = (nil, nil, nil, false)
            return
        }
        let answer = ListState.filter(parsed, index: index.index, ranks: index.ranks,
                                      among: narrowing ? matchedRows : nil, kind: { index.kind(of: $0) })
        (matches, matchedRows, shownCounts, filtered) = (answer.shown, answer.inRowOrder, answer.counts, true)
        filterAnswers += 1
        window.start = 0
        window.total = answer.shown.count
        window.filterAnswer = filterAnswers
        self.window = window
        (rows, reports, windowExhausted) = ([], [], false)
    }

    /// What the footer says while the filter waits for the register's index.
    static let waitingHint = "indexing the register for the filter; all assets show meanwhile"

    /// The selected asset of a filtered window, to find again in another answer.
    var selectedMatch: UUID? {
        window?.filterAnswer == nil ? nil : selectedRow?.asset.uuid
    }

    mutating func select(match: UUID?) {
        guard let match, window?.filterAnswer != nil, let matches, let registerIndex,
              let position = matches.firstIndex(where: { registerIndex.uuids[Int($0)] == match }) else { return }
        selection = position
    }

    /// The read a filtered window needs for positions `first..<last` of the answer: only what it lacks when that
    /// meets what it holds, else those positions afresh.
    func matchedRequest(_ answer: Int, first: Int, last: Int) -> ListWindowRequest? {
        guard let window, let matches, let registerIndex, first < last else { return nil }
        let start = window.start, end = window.start + rows.count
        var from = first, to = last
        if !rows.isEmpty {
            if first >= start && last <= end { return nil }
            if first < start && last >= start && last <= end {
                to = start
            } else if last > end && first >= start && first <= end {
                from = end
            }
        }
        let uuids = matches[from..<to].map { registerIndex.uuids[Int($0)] }
        return ListWindowRequest(anchor: nil, backwards: false, limit: uuids.count, today: today,
                                 statuses: window.statuses, counts: counts,
                                 matched: MatchedRead(answer: answer, from: from, uuids: uuids))
    }

    /// Files rows of a filtered window's answer where they belong: after or before what it holds, or in its place.
    /// Returns how many were asked for. A row gone since the index was made leaves the read short, and the window
    /// reads no more until the load the change brings.
    mutating func receiveMatches(_ page: ListWindowPage, _ matched: MatchedRead, reports read: [StatusReport],
                                 window: inout ListWindow) -> Int {
        let start = window.start, end = window.start + rows.count, complete = page.rows.count == matched.uuids.count
        if !rows.isEmpty && matched.from == end {
            rows += page.rows
            reports += read
        } else if !rows.isEmpty && complete && matched.from + matched.uuids.count == start {
            window.start = matched.from
            rows.insert(contentsOf: page.rows, at: 0)
            reports.insert(contentsOf: read, at: 0)
        } else {
            window.start = matched.from
            (rows, reports) = (page.rows, read)
        }
        return matched.uuids.count
    }
}
