/// A manual page written in roff with the man(7) macros, line by line. Text is escaped as it goes in, so what the
/// command table, keymaps and formats say reaches the page as written: a leading `.` or `'` cannot become a request,
/// a dash that starts an option is a minus sign (copied as `-`), other characters beyond ASCII are named by code
/// point (`\[u2192]`), and a `quoted` span becomes bold, as the help writes commands.
struct Roff {
    private(set) var lines: [String]

    /// The page's title line: `RIGBOOK 1`.
    init(title: String, section: Int, version: String) {
        // Left-aligned and unhyphenated: a page of option names and identifiers (installed_correctly) is read
        // and copied whole.
        lines = [".TH \(title) \(section) \"\" \"rigbook \(version)\" \"Rigbook manual\"", ".nh", ".ad l"]
    }

    /// The page, each character beyond ASCII given a fallback where the output device has no glyph for it (groff's
    /// PostScript fonts have no ⚠, its terminals no CJK): its Unicode name, never a warning or a blank.
    var text: String {
        let body = lines.dropFirst().joined(separator: "\n")
        // The fallbacks go right after the title: before any text needs them.
        var seen = Set<String>()
        let fallbacks = body.matches(of: /\\\[u([0-9A-F]{4,6})\]/).compactMap { match -> String? in
            let code = String(match.1)
            guard seen.insert(code).inserted, let value = UInt32(code, radix: 16),
                  let name = Unicode.Scalar(value)?.properties.name else { return nil }
            return ".if !c\\[u\(code)] .char \\[u\(code)] (\(name.lowercased()))"
        }
        return ([lines[0]] + fallbacks + [body]).joined(separator: "\n")
    }

    /// One line of text, escaped.
    mutating func line(_ text: String) { lines.append(Roff.escape(text)) }

    mutating func section(_ name: String) { lines.append(".SH \(Roff.argument(name))") }

    mutating func subsection(_ name: String) { lines.append(".SS \(Roff.argument(name))") }

    /// A paragraph of filled text; each blank line in it starts a new one.
    mutating func paragraph(_ text: String) {
        lines.append(".PP")
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(line.isEmpty ? ".PP" : Roff.escape(String(line)))
        }
    }

    /// Lines as they are, unfilled: a usage, an example.
    mutating func verbatim(_ text: String) {
        lines.append(".PP")
        lines.append(".nf")
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).map { Roff.escape(String($0)) }
        lines.append(".fi")
    }

    /// A tagged paragraph: `tag` (already marked up, see `bold` and `italic`) and its text indented under it.
    mutating func item(_ tag: String, _ text: String) {
        lines += [".TP", tag, Roff.escape(text)]
    }

    /// Tagged lines with no space between them, each tag in a column `indent` wide: a list to scan (keys).
    mutating func list(_ items: [(tag: String, text: String)], indent: Int) {
        lines.append(".PD 0")
        for (tag, text) in items { lines += [".TP \(indent)n", tag, Roff.escape(text)] }
        lines.append(".PD")
    }

    static func bold(_ text: String) -> String { "\\fB\(escape(text))\\fR" }

    static func italic(_ text: String) -> String { "\\fI\(escape(text))\\fR" }

    /// A macro's argument: quoted, its own quotes doubled as groff reads them.
    private static func argument(_ text: String) -> String {
        "\"" + escape(text).replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Text for a line of the page: see the type's comment.
    static func escape(_ text: String) -> String {
        var out = ""
        var previous: Character = " "
        var inCode = false
        for character in text {
            switch character {
            case "\\": out += "\\e"
            case "-" where !(previous.isLetter || previous.isNumber): out += "\\-"
            case "`":
                out += inCode ? "\\fR" : "\\fB"
                inCode.toggle()
            default:
                if character.isASCII {
                    out.append(character)
                } else {
                    for scalar in character.unicodeScalars {
                        let hex = String(scalar.value, radix: 16, uppercase: true)
                        out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                    }
                }
            }
            previous = character
        }
        if inCode { out += "\\fR" }
        return out.first == "." || out.first == "'" ? "\\&" + out : out
    }
}
