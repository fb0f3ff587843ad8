/// Numbers typed by a person (readings, a working load limit, a length): "." is the decimal point and nothing
/// else is guessed at. A comma may be a European decimal comma (0,5) or a thousands separator (1,000), a space
/// a thousands separator or a slip: reading either would change the value without anyone seeing it, so the
/// text is kept as typed and refused with this sentence (DECISIONS: "A comma in a number").
public enum NumberText {
    /// The sentence refusing `text` when it holds a comma or an inner space; nil when it holds neither. `what`
    /// names what was typed ("a reading", "a number").
    public static func separatorProblem(_ text: String, what: String = "a number") -> String? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard let separator = t.first(where: { $0 == "," || $0 == " " }) else { return nil }
        return "“\(VisibleText.make(t))” is not \(what): “\(separator)” is not part of a number; "
            + "write the decimal point as “.” and no thousands separator (0.5, 1000)."
    }
}
