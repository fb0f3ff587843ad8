import Foundation
import Testing

/// `rigbook man PAGE` written to a file in `dir`.
private func writePage(_ name: String, _ dir: TempDir) throws -> (path: String, roff: String) {
    let result = runRigbookResult(["man", name], home: dir.sub("home"))
    try #require(result.status == 0 && result.stderr.isEmpty, "\(result)")
    let path = dir.sub(name)
    try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
    return (path, result.stdout)
}

/// The roff lines of `section` (`.SH "NAME"`), up to the next `.SH`.
private func section(_ name: String, of roff: String) -> [String] {
    let lines = roff.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: ".SH \"\(name)\"") else { return [] }
    return Array(lines[(start + 1)...].prefix { !$0.hasPrefix(".SH ") })
}

/// Roff's escapes undone, for finding plain words in a page: `\-` is `-`, `\[u2026]` is `…`, fonts go.
private func plain(_ roff: String) -> String {
    roff.replacing(/\\\[u([0-9A-F]+)\]/) { match in
        UInt32(match.1, radix: 16).flatMap(Unicode.Scalar.init).map { String($0) } ?? ""
    }
    .replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\fB", with: "")
    .replacingOccurrences(of: "\\fI", with: "").replacingOccurrences(of: "\\fR", with: "")
    .replacingOccurrences(of: "\\&", with: "").replacingOccurrences(of: "\\e", with: "\\")
}

extension RigbookCLITests {
    @Suite("Man pages: made from the command table") struct ManPages {
        @Test(arguments: ["rigbook.1", "rigbook-formats.5"])
        func aPageRendersWithoutAWarning(_ name: String) throws {
            let groff = try requiredProgram("groff", package: "groff")
            let man = try requiredProgram("man", package: "man-db")
            let dir = TempDir(); defer { dir.remove() }
            let (path, _) = try writePage(name, dir)
            // The default device (PostScript) and a terminal's: each has glyphs the other lacks.
            for device in [[], ["-Tutf8"], ["-Tascii"]] {
                let result = try runProcess(groff, ["-ww", "-z", "-man"] + device + [path],
                                            environment: ProcessInfo.processInfo.environment)
                #expect(result.status == 0 && result.stderr.isEmpty, "groff \(device) \(name): \(result)")
            }
            // `man ./rigbook.1`, as a reader would: man-db runs groff for the terminal.
            var environment = ProcessInfo.processInfo.environment
            environment["MANWIDTH"] = "80"
            environment["LANG"] = "C.UTF-8"
            let shown = try runProcess(man, ["-l", "--warnings", path], environment: environment)
            #expect(shown.status == 0 && shown.stderr.isEmpty, "man -l \(name): \(shown)")
            let title = name.split(separator: ".")[0].uppercased() + "(" + name.split(separator: ".")[1] + ")"
            #expect(shown.stdout.contains(title), "man -l \(name): \(shown)")
        }

        @Test func everyCommandAndOptionIsOnThePage() throws {
            let dir = TempDir(); defer { dir.remove() }
            let roff = try writePage("rigbook.1", dir).roff
            let commands = section("COMMANDS", of: roff).joined(separator: "\n")
                .components(separatedBy: ".SS ").dropFirst()
            let table = try HelpCommand.all()
            #expect(table.count >= 30, "\(table.map(\.name))")
            for command in table {
                let entry = try #require(commands.first { $0.hasPrefix("\"rigbook \(command.name)\"\n") },
                                         "rigbook.1 has no section for `\(command.name)`")
                let text = plain(entry)
                #expect(text.contains(command.usage.components(separatedBy: "\n")[0]), "\(command.name): \(text)")
                for option in command.options {
                    let tagged = ["\n\(option) ", "\n\(option)\n", "\n\(option), ", ", \(option)\n"]
                    #expect(tagged.contains { text.contains($0) }, "rigbook.1 lacks \(command.name) \(option)")
                }
            }
            for option in ["--home", "--server", "--version", "--help", "-h"] {
                #expect(plain(section("OPTIONS", of: roff).joined(separator: "\n")).contains(option), "\(option)")
            }
        }

        @Test func theExitCodesAreOnThePage() throws {
            let dir = TempDir(); defer { dir.remove() }
            let status = plain(section("EXIT STATUS", of: try writePage("rigbook.1", dir).roff).joined(separator: "\n"))
            for code in [0, 1, 3, 64, 75, 78] {
                let tagged = try Regex("\\.TP[^\\n]*\\n\(code)\\n")
                #expect(status.contains(tagged), "EXIT STATUS lacks \(code):\n\(status)")
            }
        }

        @Test func theEnvironmentIsEveryVariableTheSourcesRead() throws {
            let dir = TempDir(); defer { dir.remove() }
            let environment = section("ENVIRONMENT", of: try writePage("rigbook.1", dir).roff)
            var listed = Set<String>()
            for (index, line) in environment.enumerated() where line == ".TP" && index + 1 < environment.count {
                listed.insert(plain(environment[index + 1]))
            }
            let read = try environmentVariablesRead()
            #expect(read.isSuperset(of: ["RIGBOOK_HOME", "RIGBOOK_TODAY", "HOME", "USER", "TERM"]), "\(read)")
            #expect(listed == read, """
                read but not on the page: \(read.subtracting(listed).sorted()); \
                on the page but never read: \(listed.subtracting(read).sorted())
                """)
        }

        /// The KEYS section says what the README's key table says, which a UI test holds to the keymaps: each screen
        /// with each of its keys and what they do, in the same order.
        @Test func theKeysAreTheKeymaps() throws {
            let dir = TempDir(); defer { dir.remove() }
            let keys = plain(section("KEYS", of: try writePage("rigbook.1", dir).roff).joined(separator: "\n"))
            let readme = try String(contentsOf: sourcesFolder.deletingLastPathComponent().appendingPathComponent(
                "README.md"), encoding: .utf8)
            let table = readme.components(separatedBy: "<!-- keys")[1].components(separatedBy: "<!-- /keys -->")[0]
            // Past the heading: a row per screen, then the one that says where every key is explained.
            let rows = table.components(separatedBy: "\n").filter { $0.hasPrefix("| ") }.dropFirst().dropLast()
            #expect(rows.count >= 15, "\(table)")
            for row in rows {
                let cells = row.dropFirst(2).dropLast(2).components(separatedBy: " | ")
                let screen = cells[0]
                let entries = cells[1].replacingOccurrences(of: "\\|", with: "|").components(separatedBy: " · ")
                // Each entry as the page sets it: the keys as a tag, what they do under it; what other keys do is
                // a paragraph.
                let expected = entries.map { entry in
                    let parts = entry.split(separator: "`", maxSplits: 2, omittingEmptySubsequences: false)
                    return parts.count == 3 ? ".TP 14n\n\(parts[1])\n\(parts[2].dropFirst())\n" : ".PP\n\(entry)\n"
                }
                let start = try #require(keys.range(of: ".SS \"\(screen)\"\n"), "KEYS lacks \(screen)")
                let end = keys[start.upperBound...].range(of: "\n.SS ")?.lowerBound ?? keys.endIndex
                let screenKeys = keys[start.upperBound..<end] + "\n"
                var rest = screenKeys[...]
                for entry in expected {
                    let found = try #require(rest.range(of: entry), "KEYS under \(screen) lacks \(entry)")
                    rest = rest[found.upperBound...]
                }
            }
            #expect(keys.contains("\nCtrl-S\nsave\n"), "\(keys.prefix(2000))")
        }

        /// rigbook-formats(5) lists the columns the exports write, as they write them.
        @Test func theFormatsPageHasTheExportsColumns() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            makeEmptyRegister(home: home)
            let page = plain(try writePage("rigbook-formats.5", dir).roff).replacingOccurrences(of: "\n", with: " ")
            for table in ["assets", "records"] {
                let export = runRigbookResult(["export", "--table", table], home: home)
                try #require(export.status == 0, "\(export)")
                let header = export.stdout.trimmingCharacters(in: .newlines).replacingOccurrences(of: ",", with: ", ")
                #expect(page.contains(header), "rigbook-formats(5) lacks the \(table) columns: \(header)")
            }
            for word in ["/RB1:SL-0042:20270630", "card", "danger", "2x7", "2x4", "au-quarters", "schema_version"] {
                #expect(page.contains(word), "rigbook-formats(5) lacks \(word)")
            }
        }
    }
}
