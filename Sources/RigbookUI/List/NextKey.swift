/// Work for the next key, done while the loop waits for it with the frame on the terminal: what the likeliest keys
/// will need is made ready, and nothing is drawn before its key's state.
extension App {
    /// In the list, the rows a ↑ or ↓ would bring into view, formatted into the row memo.
    public static func prepareNextKey(_ state: AppState) {
        guard state.screens.isEmpty else { return }
        ListView.prepareRowsAround(state.list, area: Rect(x: 0, y: 0, width: state.width, height: state.height))
    }
}

extension ListView {
    /// Formats into the row memo the rows just outside the list's window, above its first row and below its last,
    /// when the memo lacks them: the rows a ↑ or ↓ brings into view, ready for its frame to copy.
    static func prepareRowsAround(_ list: ListState, area: Rect) {
        let page = ListState.pageSize(area)
        guard list.loaded, area.height > ListView.chromeHeight, list.visibleCount > page else { return }
        let columns = list.memos.columns.columns(width: area.width, tagWidth: list.tagWidth,
                                                 content: list.contentWidths)
        let hasSite = columns.contains { $0.id == .site }
        for position in [list.top - 1, list.top + page] where list.holdsRow(visible: position) {
            // Found in the memo, a row costs a look-up; else it is formatted on a blank line and kept.
            var scratch = Frame(width: area.width, height: area.height)
            drawListRow(list, position: position, y: 3, columns: columns, hasSite: hasSite,
                        scheme: list.particulars.organisation.colourCode, area: area, memo: list.memos, into: &scratch)
        }
    }
}
