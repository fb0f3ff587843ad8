/// Text from data or files made safe to show on a terminal: every control character becomes visible
/// caret notation (ESC → `^[`, DEL → `^?`, C1 → `<9b>`), so no stored string can send an escape sequence
/// to the terminal; invisible format characters (bidi overrides and isolates, zero-width spaces, the BOM,
/// line and paragraph separators) show as their code (`<202e>`), so none can reorder or hide what is shown
/// or make the screen's idea of a width differ from the terminal's. The joiners that emoji and scripts
/// need (U+200C, U+200D) pass. The screen draws through `make`; the command line writes everything bound for a
/// terminal through `keepingLineEnds`. Files and pipes get the bytes as they are.
public enum VisibleText {
    public static func make(_ text: String) -> String {
        guard hasControl(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { appendVisible(scalar, to: &out) }
        return String(out)
    }

    /// `make` for lines of output: `\n` and `\r\n` stay line ends; a `\r` anywhere else is `^M`.
    public static func keepingLineEnds(_ text: String) -> String {
        guard hasControl(text, sparingNewlines: true) else { return text }
        var out = String.UnicodeScalarView()
        var pendingReturn = false
        for scalar in text.unicodeScalars {
            if pendingReturn {
                pendingReturn = false
                if scalar == "\n" { out.append("\r") } else { appendVisible("\r", to: &out) }
            }
            if scalar == "\r" { pendingReturn = true }
            else if scalar == "\n" { out.append(scalar) }
            else { appendVisible(scalar, to: &out) }
        }
        if pendingReturn { appendVisible("\r", to: &out) }
        return String(out)
    }

    private static func appendVisible(_ scalar: Unicode.Scalar, to out: inout String.UnicodeScalarView) {
        if scalar.value < 0x20 || scalar.value == 0x7F {
            out.append("^")
            out.append(Unicode.Scalar(scalar.value == 0x7F ? 0x3F : scalar.value + 0x40)!)
        } else if (0x80..<0xA0).contains(scalar.value) || isHiddenFormat(scalar) {
            out.append(contentsOf: "<\(String(scalar.value, radix: 16))>".unicodeScalars)
        } else {
            out.append(scalar)
        }
    }

    /// An invisible format character that could disguise text: category Cf (bidi controls, zero-width
    /// space, BOM, …) other than the two joiners, and the line and paragraph separators.
    public static func isHiddenFormat(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C, 0x200D: return false
        case 0x2028, 0x2029: return true
        // Ranges that hold no format character (Cf), so the property lookup is skipped for the text most
        // typed: Latin, Greek, Cyrillic, and CJK.
        case 0..<0x600: return scalar.value == 0xAD
        case 0x2070..<0xFEFF: return false
        default: return scalar.properties.generalCategory == .format
        }
    }

    /// Scans the UTF-8 bytes: C0 and DEL are single bytes, C1 (U+0080–U+009F) is 0xC2 then 0x80–0x9F.
    /// Text with other non-ASCII bytes is checked scalar by scalar for hidden format characters.
    static func hasControl(_ text: String, sparingNewlines: Bool = false) -> Bool {
        var previous: UInt8 = 0
        var ascii = true
        for byte in text.utf8 {
            if byte < 0x20 && !(sparingNewlines && byte == 0x0A) { return true }
            if byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { return true }
            if byte >= 0x80 { ascii = false }
            previous = byte
        }
        return !ascii && text.unicodeScalars.contains(where: isHiddenFormat)
    }
}
