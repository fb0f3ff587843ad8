import Foundation

/// Dates typed the quick way in a date field: `today`, `+14` (days), `+2w`, `+6m`, `+1y`, and the same
/// with `-` (`-1` for yesterday). They are expanded to `YYYY-MM-DD` when the field is left, so the
/// register, the draft's readers and the gate only ever see calendar dates.
public enum RelativeDate {
    /// The characters a date field takes: digits and `-` for `YYYY-MM-DD`, `+`, the units `d w m y` and
    /// the letters of `today`. Anything else cannot be part of a date the field understands.
    public static func isAllowed(_ character: Character) -> Bool {
        guard character.isASCII else { return false }
        if character.isNumber || character == "-" || character == "+" { return true }
        return "todaywmyTODAYWMY".contains(character)
    }

    /// What a date field says it expects, for notes and messages.
    public static let expected = "YYYY-MM-DD, today, or +14 (days), +2w, +6m, +1y"
    /// The same, short enough for a footer.
    public static let short = "YYYY-MM-DD, today, +14, +2w, +6m or +1y"

    /// True when `text` is written the quick way (not as `YYYY-MM-DD`), whether or not it makes sense.
    public static func isRelative(_ text: String) -> Bool {
        let trimmed = text.trimmingWhitespace.lowercased()
        return trimmed == "today" || trimmed.hasPrefix("+") || (trimmed.hasPrefix("-") && trimmed.count > 1)
    }

    /// The date `text` stands for: `today` is `today`; `+N` with an optional unit counts from `base`.
    /// Nil when `text` is not written the quick way or does not make sense (`+`, `+6q`).
    public static func resolve(_ text: String, from base: CalendarDate, today: CalendarDate) -> CalendarDate? {
        let trimmed = text.trimmingWhitespace.lowercased()
        if trimmed == "today" { return today }
        guard let sign = trimmed.first, sign == "+" || sign == "-" else { return nil }
        var body = trimmed.dropFirst()
        var unit: Character = "d"
        if let last = body.last, "dwmy".contains(last) {
            unit = last
            body = body.dropLast()
        }
        // Four digits at most: +9999 days is already 27 years.
        guard !body.isEmpty, body.count <= 4, body.allSatisfy({ $0.isASCII && $0.isNumber }),
              let magnitude = Int(body) else { return nil }
        let amount = sign == "-" ? -magnitude : magnitude
        switch unit {
        case "w": return base.addingDays(7 * amount)
        case "m": return base.addingMonths(amount)
        case "y": return base.addingMonths(12 * amount)
        default: return base.addingDays(amount)
        }
    }
}
