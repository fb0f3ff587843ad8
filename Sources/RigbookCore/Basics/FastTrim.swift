/// Trimming without Foundation's bridge: `trimmingCharacters(in:)` goes through NSString and was an eighth
/// of a form keystroke (the gate trims every text field, notes of a thousand characters included, on each
/// key). The sets are exactly swift-corelibs-foundation's, listed scalar by scalar (FastTrimTests compares
/// them with Foundation's): `.whitespaces` is Unicode's Zs, tab and U+200B; `.whitespacesAndNewlines` adds
/// U+000A–U+000D, U+0085, U+2028 and U+2029.
public enum FastTrim {
    /// Foundation's `CharacterSet.whitespacesAndNewlines`.
    @inlinable
    public static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: isWhitespace(scalar)
        }
    }

    /// Foundation's `CharacterSet.whitespaces`: no line breaks.
    @inlinable
    public static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// `text` without the scalars `drop` accepts at either end; the same string, uncopied, when there are none.
    @inlinable
    public static func trim(_ text: String, _ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return text }
        if !drop(first) && !drop(last) { return text }
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, drop(scalars[start]) { start = scalars.index(after: start) }
        while end > start, drop(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }
}

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without Foundation.
    public var trimmingWhitespaceAndNewlines: String { FastTrim.trim(self, FastTrim.isWhitespaceOrNewline) }
    /// `trimmingCharacters(in: .whitespaces)`, without Foundation.
    public var trimmingWhitespace: String { FastTrim.trim(self, FastTrim.isWhitespace) }

    /// `count > limit` without counting graphemes when the bytes already say no: a Character is at least a byte.
    @inlinable
    public func hasMoreCharacters(than limit: Int) -> Bool { utf8.count > limit && count > limit }
}
