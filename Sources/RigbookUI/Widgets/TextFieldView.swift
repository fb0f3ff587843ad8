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
