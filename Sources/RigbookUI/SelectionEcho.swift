/// A ↑ or ↓ in the register list, shown on the terminal before the frame is made (issue 17, key to screen), as a
/// character typed at the end of a field is (`TypedEcho`): the key goes through `update` as any other, then the frame
/// on the terminal is brought to show the selection's move — the list's rows scrolled by the row the list did, the
/// bar's reverse video turned back on the row it left, the row it reached turned over (or drawn, when it came into
/// view) — and that is written at once. The frame is made after it and diffed against the screen with the echo on
/// it, so anything else the key changed follows in the same turn of the loop and a wrong guess is put right there.
public struct SelectionEcho: Sendable, Equatable {
    /// Where the selection and the list's first row on screen were when the frame on the terminal was made.
    var selection: Int
    var top: Int
    /// The rows it was made from: the echo is drawn only over the same rows, filtered the same way.
    var rowsVersion: Int
    var visibleCount: Int
    /// The frames shown when the key came: the echo belongs to the next frame only.
    var batch: Int

    init(from list: ListState, batch: Int) {
        selection = list.selection
        top = list.top
        rowsVersion = list.rowsVersion
        visibleCount = list.visibleCount
        self.batch = batch
    }
}

extension ListView {
    /// Brings `frame`, the list as the terminal shows it, to the list's selection after `move`, and returns the
    /// update that does it on the terminal (rows moved with a scroll when `scrolling`). Nil, the frame untouched,
    /// unless `draw` would draw the list over the whole frame with the same rows, its window moved by at most a row.
    static func echo(_ list: ListState, from move: SelectionEcho, scrolling: Bool,
                     onto frame: inout Frame) -> ScreenUpdate? {
        let area = frame.bounds
        let page = ListState.pageSize(area)
        let shift = list.top - move.top
        let oldPlace = move.selection - list.top, newPlace = list.selection - list.top
        guard move.rowsVersion == list.rowsVersion, move.visibleCount == list.visibleCount, list.loaded,
              area.height > ListView.chromeHeight, abs(shift) <= 1, move.selection != list.selection,
              move.selection - move.top >= 0, move.selection - move.top < page, newPlace >= 0, newPlace < page,
              list.selection < list.visibleCount, move.selection < list.visibleCount,
              shift <= 0 || list.top + page - 1 < list.visibleCount else { return nil }
        let before = frame
        let first = 3, last = first + page - 1
        var drawn: Int?
        if shift > 0 {
            for y in first..<last { frame.rows[y] = before.rows[y + 1] }
            drawn = last
        } else if shift < 0 {
            for y in stride(from: last, to: first, by: -1) { frame.rows[y] = before.rows[y - 1] }
            drawn = first
        }
        if let y = drawn {
            // The row that came into view, drawn as `draw` draws it (from the memo, where `draw` will find it next).
            frame.rows[y] = Array(repeating: .blank, count: frame.width)
            let columns = columnsMemo.columns(width: area.width, tagWidth: list.tagWidth, content: list.contentWidths)
            drawListRow(list, position: list.top + y - first, y: y, columns: columns,
                        hasSite: columns.contains { $0.id == .site }, scheme: list.particulars.organisation.colourCode,
                        area: area, memo: .shared, into: &frame)
        }
        for place in [oldPlace, newPlace] where place >= 0 && place < page && first + place != drawn {
            frame.restyle(y: first + place, in: area) { $0.reverse.toggle() }
        }
        return scrolling ? FrameDiff.update(from: before, to: frame)
            : ScreenUpdate(scroll: nil, runs: FrameDiff.runs(from: before, to: frame))
    }

    /// Formats into the row memo the rows just outside the list's window, above its first row and below its last,
    /// when the memo lacks them: the rows a ↑ or ↓ brings into view, ready for its echo to copy. For after the frame
    /// is on the terminal, before the next key.
    static func prepareRowsAround(_ list: ListState, area: Rect) {
        let page = ListState.pageSize(area)
        guard list.loaded, area.height > ListView.chromeHeight, list.visibleCount > page else { return }
        let columns = columnsMemo.columns(width: area.width, tagWidth: list.tagWidth, content: list.contentWidths)
        let hasSite = columns.contains { $0.id == .site }
        for position in [list.top - 1, list.top + page] where position >= 0 && position < list.visibleCount {
            // Found in the memo, a row costs a look-up; else it is formatted on a blank line and kept.
            var scratch = Frame(width: area.width, height: area.height)
            drawListRow(list, position: position, y: 3, columns: columns, hasSite: hasSite,
                        scheme: list.particulars.organisation.colourCode, area: area, memo: .shared, into: &scratch)
        }
    }
}
