import Foundation

/// The register report as one self-contained HTML page (`ReportDocument` drawn by `HTMLDocument`), and the escaping
/// every HTML page of Rigbook uses.
public enum HTMLReport {
    /// The page, every section in full, from rows in memory (the command writes from a register).
    public static func render(rows: [RegisterRow], latestThorough: [UUID: StoredInspection], today: CalendarDate,
                              generatedAt: String, title: String = "Lifting equipment register",
                              findings: [DangerFinding] = [], findingsSince: CalendarDate? = nil,
                              scope: ReportDocument.Scope = .everything,
                              latestTests: [UUID: StoredTest] = [:]) -> String {
        var page = ""
        page.reserveCapacity(4096 + rows.count * 700 + latestThorough.count * 1400)
        let source = ReportInMemory(rows: rows, latestThorough: latestThorough, latestTests: latestTests)
        let report = ReportDocument(today: today, generatedAt: generatedAt, title: title, findings: findings,
                                    findingsSince: findingsSince, scope: scope)
        // Rows in memory throw nothing, and the page only gathers.
        try? HTMLDocument.write(report.cover, content: { try report.write(from: source, to: $0) }, to: { page += $0 })
        return page
    }

    /// "3 m", "2.5 m": as entered, never rounded.
    static func lengthText(_ metres: Double) -> String {
        if metres == metres.rounded(), abs(metres) < 1e15 { return "\(Int(metres)) m" }
        return "\(metres) m"
    }

    /// Makes text safe in HTML element content and in quoted attribute values: `&`, `<`, `>`, `"`
    /// and `'` become character references; control characters (C0, DEL, C1) become visible
    /// symbols, except newline and tab, which HTML treats as plain white space. Works on Unicode
    /// scalars, so a `<` carrying a combining mark is still escaped.
    static func escape(_ text: String) -> String {
        // Fast path: most register text needs nothing. C1 controls are U+0080…U+009F, i.e. 0xC2 0x80…0x9F.
        var needs = false
        var previous: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0x7F:
                needs = true
            case 0x00...0x1F where byte != 0x0A && byte != 0x09:
                needs = true
            case 0x80...0x9F where previous == 0xC2:
                needs = true
            default:
                break
            }
            if needs { break }
            previous = byte
        }
        guard needs else { return text }

        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: result += "&amp;"
            case 0x3C: result += "&lt;"
            case 0x3E: result += "&gt;"
            case 0x22: result += "&quot;"
            case 0x27: result += "&#39;"
            case 0x0A, 0x09: result.unicodeScalars.append(scalar)
            case 0x00...0x1F: result.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!) // ␀…␟
            case 0x7F: result += "\u{2421}" // ␡
            case 0x80...0x9F: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
