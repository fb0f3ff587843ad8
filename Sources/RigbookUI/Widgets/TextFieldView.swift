/// A single-line text widget on screen: an underlined area that scrolls sideways to keep the cursor
/// in view while focused, shows a dim placeholder when empty, and places the terminal cursor.
enum TextFieldView {
    /// Draws in the first row of `area`.
    static func draw(_ characters: [Character], cursor: Int?, placeholder: String? = nil, in area: Rect,
                     into frame: inout Frame) {
        let underline = Style(underline: true)
        let width = area.width
        frame.fill(y: 0, in: area, style: underline)
        let start = cursor.map { scrollStart(characters, cursor: $0, width: width - 1) } ?? 0
        var shown = String(characters[start...])
        if cursor == nil && DisplayWidth.of(shown) > width { shown = shown.truncated(toWidth: width) }
        frame.put(shown, x: 0, y: 0, in: area, style: underline)
        if let placeholder, characters.isEmpty, cursor == nil {
            frame.put(placeholder, x: 0, y: 0, in: area, style: Style(dim: true, underline: true))
        }
        if let cursor { frame.cursor = (area.x + DisplayWidth.of(String(characters[start..<cursor])), area.y) }
    }

    /// Row `row` of a multi-line text wrapped into `rows`, drawn in the first row of `area`; the terminal cursor
    /// placed there when `cursor` (a character index) falls on that row.
    static func drawWrapped(_ characters: [Character], rows: [WrappedText.Row], row: Int, cursor: Int?, in area: Rect,
                            into frame: inout Frame) {
        frame.fill(y: 0, in: area, style: Style(underline: true))
        if row < rows.count {
            frame.put(characters: characters[rows[row].start..<rows[row].end], x: 0, y: 0, in: area,
                      style: Style(underline: true))
        }
        if let cursor, WrappedText.row(of: cursor, in: rows) == row {
            let r = rows[row]
            let before = characters[r.start..<min(cursor, r.end)].reduce(0) { $0 + DisplayWidth.of($1) }
            frame.cursor = (area.x + before, area.y)
        }
    }

    /// First character shown so the cursor stays inside `width` columns.
    static func scrollStart(_ text: [Character], cursor: Int, width: Int) -> Int {
        var start = cursor
        var used = 0
        while start > 0 {
            let w = DisplayWidth.of(text[start - 1])
            if used + w > width { break }
            used += w
            start -= 1
        }
        return start
    }
}
