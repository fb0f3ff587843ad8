import Foundation
import Testing
@testable import RigbookCore
import RigbookTestSupport

// MARK: - Reading back

/// What a value reads back as: a value starting with = + - @ tab or CR gains a leading apostrophe.
private func expectedCell(_ value: String) -> String {
    guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
    return "'" + value
}

// MARK: - Cases

struct CSVCase: Sendable, CustomTestStringConvertible {
    let input: String
    let output: String
    var testDescription: String { input.debugDescription }
}

private let plainValues: [String] = [
    "", "SL-0042", "2 t web sling 3 m", "12.5", "吊带 2 吨", "Crosby®",
    "a=b", "x+y", "1-2", "me@example", "it's", "tab\tinside", "trailing space ", " leading space", "🪝 hook",
    "Ünïcödé", "0", "true",
]

private let quotedValues: [CSVCase] = [
    CSVCase(input: "a,b", output: "\"a,b\""),
    CSVCase(input: ",", output: "\",\""),
    CSVCase(input: "say \"hi\"", output: "\"say \"\"hi\"\"\""),
    CSVCase(input: "\"", output: "\"\"\"\""),
    CSVCase(input: "\"\"", output: "\"\"\"\"\"\""),
    CSVCase(input: "line\nbreak", output: "\"line\nbreak\""),
    CSVCase(input: "cr\rhere", output: "\"cr\rhere\""),
    CSVCase(input: "crlf\r\nhere", output: "\"crlf\r\nhere\""),
    CSVCase(input: "end\n", output: "\"end\n\""),
    CSVCase(input: "吊带，蓝色, \"大\"", output: "\"吊带，蓝色, \"\"大\"\"\""),
]

private let neutralisedValues: [CSVCase] = [
    CSVCase(input: "=1+1", output: "'=1+1"),
    CSVCase(input: "=", output: "'="),
    CSVCase(input: "+44 20 7946 0000", output: "'+44 20 7946 0000"),
    CSVCase(input: "-5", output: "'-5"),
    CSVCase(input: "-", output: "'-"),
    CSVCase(input: "@SUM(A1)", output: "'@SUM(A1)"),
    CSVCase(input: "\tindented", output: "'\tindented"),
    CSVCase(input: "\t", output: "'\t"),
    // A leading CR: neutralised, and quoted because it holds a CR.
    CSVCase(input: "\rhidden", output: "\"'\rhidden\""),
    CSVCase(input: "\r\n", output: "\"'\r\n\""),
    // Neutralised and quoted.
    CSVCase(input: "=HYPERLINK(\"http://x\",\"y\")", output: "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
    CSVCase(input: "=cmd|' /C calc'!A0", output: "'=cmd|' /C calc'!A0"),
    CSVCase(input: "-1,5", output: "\"'-1,5\""),
    CSVCase(input: "@a\nb", output: "\"'@a\nb\""),
    // The formula character with a combining mark is still first.
    CSVCase(input: "=\u{301}1", output: "'=\u{301}1"),
]

/// A comma, quote or line break with a combining mark, joiner or variation selector right after it:
/// a grapheme cluster that is not equal to "," or "\"" though its first scalar is one.
private let clusteredSeparators: [CSVCase] = [
    CSVCase(input: "a,\u{301}b", output: "\"a,\u{301}b\""),
    CSVCase(input: "a\"\u{301}b", output: "\"a\"\"\u{301}b\""),
    CSVCase(input: "x,\u{200D}y", output: "\"x,\u{200D}y\""),
    CSVCase(input: "q\"\u{FE0F}", output: "\"q\"\"\u{FE0F}\""),
    CSVCase(input: "\"\u{301},", output: "\"\"\"\u{301},\""),
]

// MARK: - Tests

@Suite("CSVTests")
struct CSVTests {
    @Test("plain values are written as they are", arguments: plainValues)
    func plain(_ value: String) {
        #expect(CSV.field(value) == value)
    }

    @Test("commas, quotes, CR and LF make a quoted field with quotes doubled", arguments: quotedValues)
    func quoting(_ c: CSVCase) {
        #expect(CSV.field(c.input) == c.output)
        #expect((try? readCSV(CSV.row([c.input]))) == [[c.input]])
    }

    @Test("a cell that starts like a formula gets a leading apostrophe", arguments: neutralisedValues)
    func neutralisation(_ c: CSVCase) {
        #expect(CSV.field(c.input) == c.output)
        #expect((try? readCSV(CSV.row([c.input, "next"]))) == [["'" + c.input, "next"]])
    }

    @Test("only the first character counts: = + - @ later in the value are left alone")
    func notFirst() {
        for value in ["a=1", "1+1", "2026-11-30", "a@b", "x\t=y", " =1"] {
            #expect(CSV.field(value) == value, "\(value.debugDescription)")
        }
    }

    @Test("a separator carrying a combining mark is still quoted and doubled", arguments: clusteredSeparators)
    func clustered(_ c: CSVCase) {
        #expect(CSV.field(c.input) == c.output)
        do {
            let records = try readCSV(CSV.row([c.input, "next"]))
            #expect(records == [[c.input, "next"]])
        } catch {
            let written = CSV.row([c.input, "next"]).debugDescription
            Issue.record("CSV.row([\(c.input.debugDescription), \"next\"]) = \(written) is not RFC 4180: \(error)")
        }
    }

    @Test("a row joins fields with commas and ends with CRLF")
    func row() {
        #expect(CSV.row(["a", "b", "c"]) == "a,b,c\r\n")
        #expect(CSV.row(["a", "", "c"]) == "a,,c\r\n")
        #expect(CSV.row(["", ""]) == ",\r\n")
        #expect(CSV.row(["x,y", "say \"hi\"", "=1", "two\nlines"])
                == "\"x,y\",\"say \"\"hi\"\"\",'=1,\"two\nlines\"\r\n")
        #expect(CSV.row([]) == "\r\n")
        #expect(CSV.row(["吊带", "WLL 2 t"]) == "吊带,WLL 2 t\r\n")
    }

    @Test("many rows read back as written (formula cells with their apostrophe)")
    func roundTripTable() throws {
        let table = [
            ["tag", "name", "notes"],
            ["SL-1", "Sling, \"big\"", "line 1\r\nline 2\nline 3\rline 4"],
            ["=2+2", "+", "-"],
            ["@", "\t", "\r"],
            ["吊带", "🪝", ""],
        ]
        let text = table.map(CSV.row).joined()
        let back = try readCSV(text)
        #expect(back == table.map { $0.map(expectedCell) })
        #expect(text.hasSuffix("\r\n"))
    }

    @Test("random-ish strings round-trip through an RFC 4180 reader (fixed seed)")
    func roundTripRandom() throws {
        // No combining marks here: the clustered-separator cases above cover those on their own.
        let alphabet: [String] = ["a", "Z", "0", " ", ",", "\"", "\r", "\n", "\r\n", "\t", "=", "+", "-", "@", "'", ";",
                                  "吊", "带", "，", "é", "ß", "🪝", "👍🏽",
                                  "\\", "|", "!", "€", "\u{00A0}"]
        var random = SeededRandom(seed: 0x5EED_2026_1130)
        var rows: [[String]] = []
        for _ in 0..<400 {
            let fieldCount = 1 + random.below(6)
            rows.append((0..<fieldCount).map { _ in
                (0..<random.below(12)).map { _ in random.pick(alphabet) }.joined()
            })
        }
        let text = rows.map(CSV.row).joined()
        let back = try readCSV(text)
        #expect(back.count == rows.count)
        for (index, (written, read)) in zip(rows, back).enumerated() {
            #expect(read == written.map(expectedCell), "row \(index): \(written.map(\.debugDescription))")
        }
        // The test could fail: some rows needed quoting, doubling and neutralising.
        #expect(text.contains("\"\""))
        #expect(text.contains("'="))
        #expect(rows.joined().contains { $0.contains("\n") })
    }

    @Test("the tests' reader is strict: what RFC 4180 does not allow is an error", arguments: [
        "a\r\nb", "a\nb\r\n", "a\rb\r\n", "a\"b\r\n", "\"a\"b\r\n", "\"a\r\n", "\"\"", "a,",
    ])
    func readerIsStrict(_ text: String) {
        #expect(throws: CSVReadError.self, "\(text.debugDescription)") { try readCSV(text) }
    }

    @Test("the tests' reader reads quoted fields, empty fields and empty text")
    func readerReads() throws {
        #expect(try readCSV("") == [])
        #expect(try readCSV("\"a,\"\"b\"\"\r\nc\",,\r\n") == [["a,\"b\"\r\nc", "", ""]])
    }
}
