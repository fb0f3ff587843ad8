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
    /// What a field for a date already past (a retirement, when someone was told) expects.
    public static let pastExpected = "YYYY-MM-DD (a real date), today, or counted back: -14, -2w, -6m, -1y"
    /// The same, short enough for a footer.
    public static let short = "YYYY-MM-DD, today, +14, +2w, +6m or +1y"

    /// True when `text` is written the quick way (not as `YYYY-MM-DD`), whether or not it makes sense.
    public static func isRelative(_ text: String) -> Bool {
        let trimmed = text.trimmingWhitespace.lowercased()
        return trimmed == "today" || trimmed.hasPrefix("+") || (trimmed.hasPrefix("-") && trimmed.count > 1)
    }

    /// The date `text` stands for: `today` is `today`; `+N` with an optional unit counts from `base`.
    /// Nil when `text` is not written the quick way, does not make sense (`+`, `+6q`) or is out of range
    /// (`outOfRange` says so).
    public static func resolve(_ text: String, from base: CalendarDate, today: CalendarDate) -> CalendarDate? {
        let trimmed = text.trimmingWhitespace.lowercased()
        if trimmed == "today" { return today }
        guard let (amount, unit) = parts(trimmed), abs(amount) <= maxAmount else { return nil }
        let date: CalendarDate
        switch unit {
        case "w": date = base.addingDays(7 * amount)
        case "m", "y":
            // Months past the four-digit calendar would be clamped to its end: out of range, not 9999-12-31.
            let months = unit == "y" ? 12 * amount : amount
            let year = (base.year * 12 + base.month - 1 + months) / 12
            guard (1...9999).contains(year) else { return nil }
            date = base.addingMonths(months)
        default: date = base.addingDays(amount)
        }
        return (1...9999).contains(date.year) ? date : nil
    }

    /// Four digits at most: +9999 days is already 27 years.
    static let maxAmount = 9999

    /// The sentence for `text` written the quick way and well formed (`+99999d`, `+9999y`) that counts past
    /// what a date can be; nil for anything else, which other sentences explain.
    public static func outOfRange(_ text: String, from base: CalendarDate, today: CalendarDate) -> String? {
        let trimmed = text.trimmingWhitespace.lowercased()
        guard parts(trimmed) != nil, resolve(trimmed, from: base, today: today) == nil else { return nil }
        return "“\(VisibleText.make(text.trimmingWhitespace))” is out of range: count at most \(maxAmount) days, "
            + "weeks, months or years, to a date from 0001-01-01 to 9999-12-31."
    }

    /// The signed amount and unit of `+N[dwmy]` / `-N[dwmy]`, lower-cased and trimmed; nil when not of that form.
    private static func parts(_ trimmed: String) -> (amount: Int, unit: Character)? {
        guard let sign = trimmed.first, sign == "+" || sign == "-" else { return nil }
        var body = trimmed.dropFirst()
        var unit: Character = "d"
        if let last = body.last, "dwmy".contains(last) {
            unit = last
            body = body.dropLast()
        }
        // Digits only, and few enough to be a number (a longer run is out of range, not unreadable).
        guard !body.isEmpty, body.count <= 18, body.allSatisfy({ $0.isASCII && $0.isNumber }),
              let magnitude = Int(body) else { return nil }
        return (sign == "-" ? -magnitude : magnitude, unit)
    }
}
