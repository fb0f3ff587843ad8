/// Text from data or files made safe to show on a terminal: every control character becomes visible
/// caret notation (ESC → `^[`, DEL → `^?`, C1 → `<9b>`), so no stored string can send an escape sequence
/// to the terminal. The screen draws through `make`; the command line writes everything bound for a
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
        } else if (0x80..<0xA0).contains(scalar.value) {
            out.append(contentsOf: "<\(String(scalar.value, radix: 16))>".unicodeScalars)
        } else {
            out.append(scalar)
        }
    }

    /// Scans the UTF-8 bytes: C0 and DEL are single bytes, C1 (U+0080–U+009F) is 0xC2 then 0x80–0x9F.
    static func hasControl(_ text: String, sparingNewlines: Bool = false) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 && !(sparingNewlines && byte == 0x0A) { return true }
            if byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { return true }
            previous = byte
        }
        return false
    }
}
