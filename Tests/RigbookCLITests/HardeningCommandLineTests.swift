import Foundation
import Testing

/// Every command `rigbook help` lists, and the groups two-word commands belong to.
private let commandNames = ["asset add", "asset list", "asset edit", "asset retire", "import", "history", "due",
                            "calendar", "export", "report", "certificate", "labels", "notices", "notices done",
                            "record", "tests import", "verify", "backup", "merge", "sync", "drafts list",
                            "drafts discard", "drafts purge", "settings get", "settings set", "settings add",
                            "keys list", "keys new", "keys export", "keys import", "keys retire", "sample", "help",
                            "completions", "man"]
private let groups = ["asset": ["add", "list", "edit", "retire"], "drafts": ["list", "discard", "purge"],
                      "settings": ["get", "set", "add"], "keys": ["list", "new", "export", "import", "retire"],
                      "tests": ["import"]]

/// The lines of the overview's COMMANDS section.
private func commandSection(_ overview: String) -> [String] {
    let lines = overview.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: "COMMANDS:") else { return [] }
    return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
}

private let validAdd = ["asset", "add", "--tag", "SH-1", "--name", "Shackle", "--type", "shackle", "--wll", "100"]

extension RigbookCLITests {
    @Suite("Hardening: command line") struct HardeningCommandLine {
        @Test func theOverviewKeepsLongCommandNamesApartFromTheirText() throws {
            let dir = TempDir(); defer { dir.remove() }
            let result = runRigbookResult(["--help"], home: dir.sub("home"))
            #expect(result.status == 0, "\(result)")
            let section = commandSection(result.stdout)
            var textColumn: Int?
            for name in commandNames {
                let line = try #require(section.first { $0.hasPrefix("  \(name) ") }, "no line for \(name)")
                let rest = line.dropFirst(2 + name.count)
                #expect(rest.hasPrefix("  "), "`\(name)` runs into its text: \(line)")
                let column = line.count - rest.drop { $0 == " " }.count
                #expect(textColumn == nil || textColumn == column, "the abstracts do not line up:\n\(result.stdout)")
                textColumn = textColumn ?? column
            }
            for line in section where !commandNames.contains(where: { line.hasPrefix("  \($0) ") }) {
                // A wrapped abstract goes on under its own text, never under the names.
                #expect(line.prefix { $0 == " " }.count == textColumn, "stray line: \(line)")
            }
            for line in result.stdout.components(separatedBy: "\n") {
                #expect(displayWidth(line) <= 80, "wider than 80 columns: \(line)")
            }
        }

        @Test(arguments: [["help", "drafts"], ["help", "asset"], ["drafts", "--help"], ["asset", "-h"],
                          ["help", "settings"]])
        func helpForAGroupListsItsCommands(_ arguments: [String]) throws {
            let dir = TempDir(); defer { dir.remove() }
            let group = arguments.first { $0 != "help" && !$0.hasPrefix("-") } ?? ""
            let result = runRigbookResult(arguments, home: dir.sub("home"))
            #expect(result.status == 0, "\(arguments): \(result)")
            #expect(result.stderr.isEmpty, "\(arguments): \(result)")
            #expect(result.stdout.contains("USAGE: rigbook \(group) COMMAND"), "\(arguments): \(result)")
            for command in groups[group] ?? [] {
                #expect(result.stdout.contains("\n  \(command) "), "\(arguments) does not list \(command): \(result)")
            }
            #expect(!fileExists(dir.sub("home")))
        }

        @Test(arguments: ["asset", "drafts", "settings"])
        func aGroupAloneShowsItsUsage(_ group: String) throws {
            let dir = TempDir(); defer { dir.remove() }
            let result = runRigbookResult([group], home: dir.sub("home"))
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(!result.stderr.contains("unknown command"), "\(result)")
            #expect(result.stderr.contains("USAGE: rigbook \(group) COMMAND"), "\(result)")
            for command in groups[group] ?? [] {
                #expect(result.stderr.contains("\n  \(command) "), "does not list \(command): \(result)")
            }
            #expect(!fileExists(dir.sub("home")))
        }

        @Test func anUnknownCommandOfAGroupIsNamedWithItsGroup() throws {
            let dir = TempDir(); defer { dir.remove() }
            let result = runRigbookResult(["asset", "remove", "SH-1"], home: dir.sub("home"))
            #expect(result.status == 64, "\(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("remove") && result.stderr.contains("rigbook help asset"), "\(result)")
        }

        @Test func exportWithoutFormatWritesCSV() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            try #require(runRigbookResult(validAdd, home: home).status == 0)
            let plain = runRigbookResult(["export"], home: home)
            #expect(plain.status == 0, "\(plain)")
            let csv = runRigbookResult(["export", "--format", "csv"], home: home)
            #expect(plain.stdout == csv.stdout && plain.stdout.contains("SH-1"), "\(plain)")
            let records = runRigbookResult(["export", "--table", "records"], home: home)
            #expect(records.status == 0 && records.stdout.hasPrefix("id,"), "\(records)")
        }

        /// Decided: a value that reads as an option (`--…`, or `-h`) is refused, naming the option and how to
        /// give it; `--tag -h` is far more often a slip than a tag.
        @Test(arguments: [["--tag", "-h"], ["--name", "--help"], ["--name", "-h"], ["--location", "--version"]])
        func anOptionValueThatLooksLikeAnOptionIsRefused(_ pair: [String]) throws {
            let dir = TempDir(); defer { dir.remove() }
            var arguments = validAdd
            if let index = arguments.firstIndex(of: pair[0]) {
                arguments[index + 1] = pair[1]
            } else {
                arguments += pair
            }
            let result = runRigbookResult(arguments, home: dir.sub("home"))
            #expect(result.status == 64, "\(pair): \(result)")
            #expect(result.stderrIsOneLine, "\(pair): \(result)")
            #expect(result.stderr.contains("\(pair[0]) needs a value"), "\(pair): \(result)")
            #expect(result.stderr.contains("\(pair[0])=\(pair[1])"), "\(pair) must say how to give it: \(result)")
            #expect(result.stdout.isEmpty, "\(pair): \(result)")
            #expect(!fileExists(dir.sub("home")), "\(pair) created the data home")
        }

        /// Only words that read as rigbook's options are refused: a serial such as -SN0 is a value.
        @Test func theEqualsFormGivesAnyValueAndOtherDashedWordsAreValues() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let added = runRigbookResult(validAdd + ["--location=--help", "--serial", "-SN0", "--manufacturer=-h"],
                                         home: home)
            #expect(added.status == 0, "\(added)")
            let asset = try #require(listAssets(home: home).first)
            #expect(string(asset, "location") == "--help")
            #expect(string(asset, "serial_number") == "-SN0")
            #expect(string(asset, "manufacturer") == "-h")
        }

        /// An option given twice is named as such, whichever it is (rigbook's own, a command's, a flag) and
        /// however it is written: "unknown option" would send the reader looking for a typo.
        @Test(arguments: [
            (validAdd + ["--tag", "SH-2"], "--tag"),
            (validAdd + ["--tag=SH-2"], "--tag"),
            (["--home", "/nowhere/else", "due"], "--home"),
            (["due", "--format", "json", "--format", "csv"], "--format"),
            (["calendar", "--redact", "--redact"], "--redact"),
            (validAdd + ["--lifts-persons", "--lifts-persons"], "--lifts-persons"),
        ])
        func anOptionGivenTwiceIsSaidToBe(_ arguments: [String], _ option: String) throws {
            let dir = TempDir(); defer { dir.remove() }
            let result = runRigbookResult(arguments, home: dir.sub("home"))
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stderr == "rigbook: \(option) given twice\n", "\(arguments): \(result)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result)")
            #expect(!fileExists(dir.sub("home")), "\(arguments) created the data home")
        }

        @Test(arguments: [["asset", "add", "--lifts-persons", "--help"], ["calendar", "--redact", "-h"],
                          ["asset", "add", "--tag", "SH-1", "--help"]])
        func helpAfterAFlagOrAValueIsStillHelp(_ arguments: [String]) throws {
            let dir = TempDir(); defer { dir.remove() }
            let result = runRigbookResult(arguments, home: dir.sub("home"))
            #expect(result.status == 0, "\(arguments): \(result)")
            #expect(result.stdout.contains("USAGE: rigbook \(arguments[0])"), "\(arguments): \(result)")
        }

        @Test(arguments: [["due"], validAdd, ["drafts", "list"]])
        func aHomeThatIsAFileIsOneSentence(_ command: [String]) throws {
            let dir = TempDir(); defer { dir.remove() }
            let file = dir.sub("not-a-folder")
            try Data("notes\n".utf8).write(to: URL(fileURLWithPath: file))
            let result = runRigbookResult(command, home: file)
            #expect([1, 64].contains(result.status), "\(command): \(result)")
            #expect(result.stderrIsOneLine, "\(command): \(result)")
            #expect(result.stderr.contains(file) && result.stderr.contains("not a folder"), "\(command): \(result)")
            #expect(!result.stderr.contains("Domain") && !result.stderr.contains("Error "), "\(command): \(result)")
            #expect(readFile(file) == "notes\n")
        }

        @Test func theHelpListsEveryEnvironmentVariableTheProgramReads() throws {
            let dir = TempDir(); defer { dir.remove() }
            let overview = runRigbookResult(["help"], home: dir.sub("home")).stdout
            let lines = overview.components(separatedBy: "\n")
            let start = try #require(lines.firstIndex(of: "ENVIRONMENT:"), "\(overview)")
            let section = lines[(start + 1)...].prefix { !$0.isEmpty }.joined(separator: "\n")
            let read = try environmentVariablesRead()
            #expect(read.isSuperset(of: ["RIGBOOK_HOME", "XDG_DATA_HOME", "HOME", "RIGBOOK_TODAY",
                                         "RIGBOOK_DRAFT_RETENTION_DAYS", "NO_COLOR", "TERM"]), "\(read)")
            for name in read {
                #expect(section.contains(name), "the help's ENVIRONMENT does not list \(name):\n\(section)")
            }
        }
    }
}
