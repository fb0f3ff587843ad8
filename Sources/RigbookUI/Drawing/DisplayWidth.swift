import RigbookCore

/// Terminal column widths, computed here rather than with the C library's `wcwidth` so that screens
/// lay out identically in tests, in any locale: East Asian wide and fullwidth characters and emoji
/// take 2 columns, combining marks and other zero-width characters 0, the rest 1.
public enum DisplayWidth {
    public static func of(_ character: Character) -> Int {
        // Most text is ASCII: one byte, one column (controls never reach here, they are made visible).
        if let ascii = character.singleByte { return ascii < 0x20 || ascii == 0x7F ? 0 : 1 }
        // A cluster that starts with a zero-width scalar takes the width of its first visible one.
        return character.unicodeScalars.lazy.map(of).first { $0 > 0 } ?? 0
    }

    public static func of(_ text: some StringProtocol) -> Int {
        // Printable ASCII is one column a byte: no need to split into graphemes.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return v < 0x20 || (0x7F..<0xA0).contains(v) ? 0 : 1 }
        // CJK ideographs and Hangul syllables: wide, no marks among them; skips the property lookups.
        if (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v) { return 2 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B || (0x1160...0x11FF).contains(v) { return 0 }
        if isWide(v) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    // East Asian Wide (W) and Fullwidth (F) blocks, after Unicode's EastAsianWidth.txt.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ v: UInt32) -> Bool { v >= 0x1100 && wideRanges.contains { $0.contains(v) } }
}

extension Character {
    /// The byte of a character that is one byte of UTF-8 (ASCII), else nil. `asciiValue` first compares the
    /// character with "\r\n" (a string comparison): a tenth of a typed key went there, character by character.
    @inline(__always)
    public var singleByte: UInt8? {
        let utf8 = self.utf8
        return utf8.count == 1 ? utf8.first : nil
    }
}

extension String {
    public var displayWidth: Int { DisplayWidth.of(self) }

    /// The longest prefix that fits in `width` columns, with `…` when something was cut. Measured on what is
    /// drawn: control characters come back in the caret notation `Frame.put` shows them in (ESC as `^[`), so
    /// text padded to a column (an operator's name from a draft file) keeps the columns after it in line.
    public func truncated(toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        let visible = VisibleText.make(self)
        if visible.displayWidth <= width { return visible }
        var used = 0
        var out = ""
        for character in visible {
            let w = DisplayWidth.of(character)
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

    /// The text in `width` columns as a one-line field shows it: whole when it fits, else cut after the last
    /// whole word that leaves room for `…` (mid-word only when a single word is wider than the field).
    /// Measured on what is drawn: control characters count as their caret notation.
    public func ellipsized(toWidth width: Int) -> String {
        let visible = VisibleText.make(self)
        guard width > 0, visible.displayWidth > width else { return width > 0 ? visible : "" }
        let cut = visible.truncated(toWidth: width)
        let kept = String(cut.dropLast())
        func trimmed(_ text: Substring) -> String {
            var text = text
            while text.last == " " { text.removeLast() }
            return String(text)
        }
        // A cut inside a word goes back to the word's start, unless that leaves less than half the field.
        if visible.dropFirst(kept.count).first == " " { return trimmed(kept[...]) + "…" }
        guard let space = kept.lastIndex(of: " "), DisplayWidth.of(kept[..<space]) >= width / 2 else { return cut }
        return trimmed(kept[..<space]) + "…"
    }

    /// The text in lines of at most `width` columns, broken at spaces (a word wider than a line is cut, with
    /// nothing lost); past `maxLines`, the last line kept ends in `…` instead. Control characters are measured
    /// as the caret notation they are drawn in, so every line fits the columns it is drawn in.
    public func wrapped(toWidth width: Int, maxLines: Int = .max) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        let characters = Array(VisibleText.make(self))
        let rows = WrappedText.layout(characters, width: width)
        func text(_ range: Range<Int>) -> String {
            var line = String(characters[range])
            while line.last == " " { line.removeLast() }
            return line
        }
        guard rows.count > maxLines else { return rows.map { text($0.start..<$0.end) } }
        let kept = rows.prefix(maxLines - 1).map { text($0.start..<$0.end) }
        // The rest of the text on the last line, so `…` stands for what could not be shown.
        let rest = String(characters[rows[maxLines - 1].start...]).replacingOccurrences(of: "\n", with: " ")
        return kept + [rest.ellipsized(toWidth: width)]
    }

    /// A file's name shown in `width` columns: made visible (a U+202E that would reverse `gnp.exe` into
    /// `exe.png` shows as `<202e>`), and when too long cut in the middle, so its extension always shows
    /// (`invoice-2026-…<202e>gnp.exe`).
    public func fileNameFitting(width: Int) -> String {
        let visible = VisibleText.make(self)
        guard visible.displayWidth > width else { return visible }
        let dot = visible.lastIndex(of: ".")
        let ending = dot.map { String(visible[$0...]) } ?? ""
        // The extension and what comes just before it (the escaped character hiding it, say) stay.
        let tailWidth = min(max(ending.displayWidth, (width - 1) / 2), width - 2)
        var tail = ""
        for character in visible.reversed() {
            if tail.displayWidth + DisplayWidth.of(character) > tailWidth { break }
            tail.insert(character, at: tail.startIndex)
        }
        let head = visible.truncated(toWidth: max(1, width - tail.displayWidth))
        return head.hasSuffix("…") ? head + tail : String(head.dropLast()) + "…" + tail
    }

    /// Pads with spaces (or truncates) to exactly `width` columns.
    public func padded(toWidth width: Int, alignRight: Bool = false) -> String {
        let cut = truncated(toWidth: width)
        let pad = String(repeating: " ", count: max(0, width - cut.displayWidth))
        return alignRight ? pad + cut : cut + pad
    }
}
