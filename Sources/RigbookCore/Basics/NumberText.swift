/// Numbers typed by a person (readings, a working load limit, a length, a limit) or imported from a spreadsheet:
/// plain decimal digits with "." as the decimal point, and nothing else guessed at. `Double(String)` also reads
/// hexadecimal (`0x10` is 16, `0x1p10` is 1024), exponents (`1e3`; `1e400` is infinity), `inf` and `nan`: a
/// register's figures must mean what a person reading the text sees, so every place a number is typed or
/// imported parses it here. A comma may be a European decimal comma (0,5) or a thousands separator (1,000), a
/// space a thousands separator or a slip: reading either would change the value without anyone seeing it, so
/// the text is kept as typed and refused with a sentence (DECISIONS: "A comma in a number").
public enum NumberText {
    /// What a number must look like, for messages.
    public static let expected = "digits with “.” as the decimal point (1000, 0.5)"

    /// The value of `text` (spaces at either end aside) when it is a plain decimal number: digits with at most
    /// one "." and an optional leading sign ("12", "0.5", ".5", "-3", "+500", as a spreadsheet writes it), finite.
    /// Nil for anything else. A minus is taken so that a negative number is refused for its size, in the words of
    /// the field's range.
    public static func decimal(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard isDecimal(t), let value = Double(t), value.isFinite else { return nil }
        return value
    }

    /// The sentence refusing `text`, which `decimal` did not take. `what` names what was typed ("a reading").
    public static func problem(_ text: String, what: String = "a number") -> String {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let separator = separatorProblem(t, what: what) { return separator }
        if isDecimal(t) { return "“\(VisibleText.make(t))” is too large to be \(what)." }
        return "“\(VisibleText.make(t))” is not \(what): write \(expected)."
    }

    /// The sentence refusing `text` when it holds a comma or an inner space; nil when it holds neither. `what`
    /// names what was typed ("a reading", "a number").
    public static func separatorProblem(_ text: String, what: String = "a number") -> String? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard let separator = t.first(where: { $0 == "," || $0 == " " }) else { return nil }
        return "“\(VisibleText.make(t))” is not \(what): “\(separator)” is not part of a number; "
            + "write the decimal point as “.” and no thousands separator (0.5, 1000)."
    }

    /// An optional "-" or "+", then ASCII digits with at most one "." among them, at least one digit.
    private static func isDecimal(_ text: String) -> Bool {
        var digits = 0, points = 0
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "-") where index == 0, UInt8(ascii: "+") where index == 0: break
            default: return false
            }
        }
        return digits > 0 && points <= 1
    }
}
