import Foundation

/// A colour that marks lifting gear as examined in a period. No law fixes a colour code for
/// lifting gear: a scheme is the practice of a site, an operator or an examining organisation.
public enum LabelColour: String, CaseIterable, Sendable, Hashable {
    case red, yellow, green, blue

    /// The word printed with the colour, so NO_COLOR and colour-blind readers still read it.
    public var word: String { rawValue.uppercased() }

    /// The printed colour, and the text colour that reads on it.
    public var hex: String {
        switch self {
        case .red: "#d32f2f"
        case .yellow: "#ffd600"
        case .green: "#2e7d32"
        case .blue: "#1565c0"
        }
    }

    public var inkHex: String { self == .yellow ? "#000000" : "#ffffff" }
}

/// Which colour code labels and the list show: a register setting (the examining organisation's, see
/// docs/DECISIONS.md), `none` unless chosen.
public enum ColourCodeScheme: String, CaseIterable, Sendable, Hashable, Codable {
    /// No colour code.
    case none
    /// A new colour every six months, four colours repeating every two years: the shape of UK offshore
    /// operators' colour-coding procedures for lifting equipment (BP's UKCS-TI-013, PDO's PR-1708). The
    /// colours of each half-year are Rigbook's own table (`periodTable`); match them to the site's chart.
    case sixMonthly = "six-monthly"
    /// The Australian construction quarter colours: red Dec–Feb, green Mar–May, blue Jun–Aug, yellow Sep–Nov.
    case quarters = "au-quarters"

    /// How the Settings screen and help name it.
    public var label: String {
        switch self {
        case .none: "none"
        case .sixMonthly: "six-monthly (4 colours over 2 years)"
        case .quarters: "Australian quarters (red Dec–Feb, green Mar–May, blue Jun–Aug, yellow Sep–Nov)"
        }
    }

    /// The six-monthly table: the half-year that starts 1 January 2024 is red, then yellow, green, blue, and
    /// red again from 1 January 2026 (every two years).
    public static let periodTable: [LabelColour] = [.red, .yellow, .green, .blue]

    /// The colour of the period `date` falls in; nil for `none`.
    public func colour(on date: CalendarDate) -> LabelColour? {
        switch self {
        case .none:
            return nil
        case .sixMonthly:
            let half = (date.year - 2024) * 2 + (date.month <= 6 ? 0 : 1)
            let count = ColourCodeScheme.periodTable.count
            return ColourCodeScheme.periodTable[((half % count) + count) % count]
        case .quarters:
            switch date.month {
            case 12, 1, 2: return .red
            case 3, 4, 5: return .green
            case 6, 7, 8: return .blue
            default: return .yellow
            }
        }
    }

    /// What the period of `date` is called on a label ("Jan–Jun 2026", "Dec 2026–Feb 2027").
    public func period(of date: CalendarDate) -> String? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        switch self {
        case .none: return nil
        case .sixMonthly: return date.month <= 6 ? "Jan–Jun \(date.year)" : "Jul–Dec \(date.year)"
        case .quarters:
            let start = date.month == 12 ? 12 : ((date.month / 3) * 3)  // Dec, Mar, Jun, Sep
            switch start {
            case 12: return "Dec \(date.year)–Feb \(date.year + 1)"
            case 0: return "Dec \(date.year - 1)–Feb \(date.year)"
            default: return "\(months[start - 1])–\(months[start + 1]) \(date.year)"
            }
        }
    }

    /// The colour an asset carries: that of the period of its last thorough examination, while it is in
    /// use. An asset that is DO NOT USE, quarantined, withdrawn, retired or never examined carries none: a
    /// colour says "examined and fit for this period".
    public func colour(for row: RegisterRow, report: StatusReport) -> LabelColour? {
        switch report.status {
        case .doNotUse, .quarantined, .withdrawn, .retired, .untested: return nil
        default: break
        }
        return row.summary.lastThoroughDate.flatMap(colour(on:))
    }
}
