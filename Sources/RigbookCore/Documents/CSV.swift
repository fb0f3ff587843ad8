import Foundation

/// CSV per RFC 4180 (CRLF, quotes doubled, fields quoted when needed), safe to open in a
/// spreadsheet: a cell that starts like a formula is neutralised with a leading apostrophe.
public enum CSV {
    public static func field(_ text: String) -> String {
        var value = text
        if let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
            value = "'" + value
        }
        // Scalars, not Characters: a comma or quote followed by a combining mark is one Character but
        // still a separator to every CSV reader.
        let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
        guard needsQuotes else { return value }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in value.unicodeScalars {
            if scalar == "\"" { quoted.append("\"") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }

    public static func row(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\r\n" }
}
