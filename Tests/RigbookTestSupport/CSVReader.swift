/// Why a text is not RFC 4180 CSV, and where.
public struct CSVReadError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// The tests' one CSV reader, strict RFC 4180: records end with CRLF; a quoted field may hold commas,
/// CR, LF and doubled quotes. A quote inside an unquoted field, text after a closing quote, a bare CR
/// or LF outside quotes, an unterminated quote and a last record without its CRLF are errors. Reads
/// Unicode scalars, as a spreadsheet does (not grapheme clusters). Empty text is no records.
public func readCSV(_ text: String) throws(CSVReadError) -> [[String]] {
    let s = Array(text.unicodeScalars)
    var records: [[String]] = []
    var record: [String] = []
    var field = String.UnicodeScalarView()
    var i = 0
    var atFieldStart = true
    func place() -> String { "record \(records.count + 1), field \(record.count + 1)" }
    while i < s.count {
        let c = s[i]
        if atFieldStart && c == "\"" {
            // A quoted field runs to the closing quote; a doubled quote inside is one quote.
            i += 1
            var closed = false
            while i < s.count {
                if s[i] == "\"" {
                    if i + 1 < s.count && s[i + 1] == "\"" { field.append("\""); i += 2; continue }
                    closed = true; i += 1; break
                }
                field.append(s[i]); i += 1
            }
            guard closed else { throw CSVReadError("unterminated quoted field in \(place())") }
            guard i == s.count || s[i] == "," || s[i] == "\r" else {
                let after = String(String.UnicodeScalarView(s[i..<min(s.count, i + 10)]))
                throw CSVReadError("text after a closing quote in \(place()): \(after.debugDescription)")
            }
            atFieldStart = false
            continue
        }
        atFieldStart = false
        switch c {
        case ",":
            record.append(String(field)); field = String.UnicodeScalarView(); atFieldStart = true
            i += 1
        case "\r":
            guard i + 1 < s.count, s[i + 1] == "\n" else { throw CSVReadError("bare CR in \(place())") }
            record.append(String(field)); field = String.UnicodeScalarView()
            records.append(record); record = []
            atFieldStart = true
            i += 2
        case "\n":
            throw CSVReadError("bare LF in \(place())")
        case "\"":
            throw CSVReadError("a quote inside an unquoted field in \(place())")
        default:
            field.append(c); i += 1
        }
    }
    guard record.isEmpty, field.isEmpty, atFieldStart else {
        throw CSVReadError("the last record does not end with CRLF")
    }
    return records
}
