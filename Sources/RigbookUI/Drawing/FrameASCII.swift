extension Frame {
    /// Draws `text` in a column of `width` cells at (x, y) of `area` exactly as
    /// `put(VisibleText.make(text).truncated(toWidth:))` would, moved right by what it lacks of `width` when
    /// `alignRight`, without building a string: only for printable ASCII, which needs no control characters made
    /// visible, no grapheme breaking and no width table. Returns false, drawing nothing, for any other text.
    /// The cells it leaves are the caller's (the list fills a column with plain blanks first).
    /// The list draws every cell of 20 rows per key; this is most of them.
    mutating func putASCIIColumn(_ text: String, x: Int, y: Int, in area: Rect, width: Int, style: Style,
                                 alignRight: Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return false }
            guard y >= 0, y < area.height, width > 0 else { return true }
            // Cells drawn: the area's right edge cuts as `put` would.
            let room = min(width, area.width - x)
            let rowY = area.y + y
            let left = area.x + x
            if bytes.count > width {
                // Cut to width - 1 characters and "…" (not ASCII: through `put`).
                for index in 0..<min(width - 1, room) { setASCII(bytes[index], x: left + index, y: rowY, style: style) }
                if width - 1 < room { put("…", x: left + width - 1, y: rowY, style: style, maxWidth: 1) }
                return true
            }
            let start = alignRight ? width - bytes.count : 0
            for index in 0..<bytes.count where start + index < room {
                setASCII(bytes[index], x: left + start + index, y: rowY, style: style)
            }
            return true
        }
    }
}
