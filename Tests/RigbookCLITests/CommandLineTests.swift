import Foundation
import Testing
import RigbookTestSupport

/// A valid `asset add` to start variations from.
private let validAdd = ["asset", "add", "--tag", "WS-0900", "--name", "Web sling 1 t", "--type", "web-sling",
                        "--wll", "1000"]

/// `validAdd` with `option`'s value replaced (or the option appended when absent).
private func addWith(_ option: String, _ value: String) -> [String] {
    var args = validAdd
    if let index = args.firstIndex(of: option) { args[index + 1] = value } else { args += [option, value] }
    return args
}

/// `validAdd` with several options' values replaced or appended.
private func addWith(_ values: KeyValuePairs<String, String>) -> [String] {
    values.reduce(validAdd) { args, pair in
        var args = args
        if let index = args.firstIndex(of: pair.key) {
            args[index + 1] = pair.value
        } else {
            args += [pair.key, pair.value]
        }
        return args
    }
}

struct BadAdd: CustomTestStringConvertible, Sendable {
    let label: String
    let args: [String]
    /// A word the one-line reason must mention.
    let mentions: String
    var testDescription: String { label }
}

private let badAdds: [BadAdd] = [
    BadAdd(label: "unknown type", args: addWith("--type", "sling-of-doom"), mentions: "--type"),
    BadAdd(label: "--wll 0", args: addWith("--wll", "0"), mentions: "--wll"),
    BadAdd(label: "--wll -5", args: addWith("--wll", "-5"), mentions: "--wll"),
    BadAdd(label: "--wll not a number", args: addWith("--wll", "heavy"), mentions: "--wll"),
    // Hostile testing: Double(String) read these as 16, 1024, 1000 and infinity.
    BadAdd(label: "--wll in hexadecimal", args: addWith("--wll", "0x10"), mentions: "decimal number"),
    BadAdd(label: "--wll a hexadecimal float", args: addWith("--wll", "0x1p10"), mentions: "decimal number"),
    BadAdd(label: "--wll with an exponent", args: addWith("--wll", "1e3"), mentions: "decimal number"),
    BadAdd(label: "--length inf", args: addWith("--length", "inf"), mentions: "--length"),
    BadAdd(label: "--interval 0", args: addWith("--interval", "0"), mentions: "--interval"),
    BadAdd(label: "--interval 61", args: addWith("--interval", "61"), mentions: "--interval"),
    BadAdd(label: "--interval 6.5", args: addWith("--interval", "6.5"), mentions: "--interval"),
    BadAdd(label: "--commissioned 2026-02-30", args: addWith("--commissioned", "2026-02-30"),
           mentions: "--commissioned"),
    BadAdd(label: "--manufactured 2026-13-01", args: addWith("--manufactured", "2026-13-01"),
           mentions: "--manufactured"),
    BadAdd(label: "commissioned before manufactured",
           args: addWith("--manufactured", "2025-06-01") + ["--commissioned", "2025-01-01"], mentions: "commission"),
    BadAdd(label: "unknown option", args: validAdd + ["--colour", "red"], mentions: "--colour"),
    BadAdd(label: "stray argument", args: validAdd + ["extra"], mentions: "extra"),
    BadAdd(label: "missing --tag", args: Array(validAdd[0..<2] + validAdd[4...]), mentions: "--tag"),
    BadAdd(label: "missing --wll", args: Array(validAdd.dropLast(2)), mentions: "--wll"),
    BadAdd(label: "--tag without a value",
           args: ["asset", "add", "--name", "N", "--type", "hook", "--wll", "5", "--tag"], mentions: "--tag"),
    BadAdd(label: "empty name", args: addWith("--name", "  "), mentions: "name"),
    BadAdd(label: "tag with spaces around", args: addWith("--tag", " WS-1 "), mentions: "tag"),
    BadAdd(label: "tag with a control character", args: addWith("--tag", "WS-\u{1B}[31m"), mentions: "control"),
    BadAdd(label: "tag with a right-to-left override", args: addWith("--tag", "EV-\u{202E}0011"), mentions: "U+202E"),
    BadAdd(label: "tag with a zero-width space", args: addWith("--tag", "WS-\u{200B}0900"), mentions: "U+200B"),
    BadAdd(label: "commissioned after today", args: addWith("--commissioned", "2026-12-01"), mentions: "commission"),
    BadAdd(label: "manufactured after today", args: addWith("--manufactured", "2027-01-01"), mentions: "manufacture"),
    // A longer interval than LOLER reg 9(3) allows needs an examination scheme.
    BadAdd(label: "a 12-month web sling without a scheme", args: addWith("--interval", "12"),
           mentions: "LOLER regulation 9(3)"),
    BadAdd(label: "a 7-month chain block lifting persons without a scheme",
           args: addWith(["--type": "chain-block", "--interval": "7"]) + ["--lifts-persons"], mentions: "9(3)"),
    BadAdd(label: "a 13-month chain block with a blank scheme",
           args: addWith(["--type": "chain-block", "--interval": "13", "--scheme": "  "]), mentions: "9(3)"),
    BadAdd(label: "a scheme with a control character", args: addWith("--scheme", "ES\u{7}"), mentions: "control"),
]

extension RigbookCLITests {
    @Suite struct Help {
        @Test func versionPrintsTheVersion() throws {
            let dir = TempDir(); defer { dir.remove() }
            let (status, stdout, stderr) = runRigbook(["--version"], home: dir.sub("home"))
            #expect(status == 0)
            #expect(stdout == "rigbook 0.1.0\n")
            #expect(stderr.isEmpty, "stderr: \(stderr)")
            #expect(!fileExists(dir.sub("home")), "--version must not create the data home")
        }

        @Test func helpListsTheCommands() throws {
            let dir = TempDir(); defer { dir.remove() }
            let result = runRigbookResult(["help"], home: dir.sub("home"))
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            for command in ["asset add", "asset list", "sample", "help"] {
                #expect(lines.contains { $0.hasPrefix(command + " ") },
                        "help does not list `\(command)`:\n\(result.stdout)")
            }
            #expect(result.stdout.contains("USAGE:"))
            #expect(result.stdout.contains("RIGBOOK_TODAY"))
            #expect(result.stderr.isEmpty)
        }

        @Test func aLongerIntervalIsAddedWithItsExaminationScheme() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let result = runRigbookResult(addWith(["--interval": "12", "--scheme": "ES-2026-07 (Acme)"]), home: home)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("every 12 months"), "\(result)")
            let asset = try #require(listAssets(home: home).first)
            #expect(string(asset, "examination_scheme") == "ES-2026-07 (Acme)")
            #expect((asset["interval_months"] as? NSNumber)?.intValue == 12)
            let chainBlock = runRigbookResult(["asset", "add", "--tag", "CB-1", "--name", "Chain block",
                                               "--type", "chain-block", "--wll", "1000", "--interval", "12"],
                                              home: home)
            #expect(chainBlock.status == 0, "12 months is the limit for a machine: \(chainBlock)")
        }

        @Test func helpForAssetAddShowsUsageAndTypes() throws {
            let dir = TempDir(); defer { dir.remove() }
            let result = runRigbookResult(["help", "asset", "add"], home: dir.sub("home"))
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("USAGE: rigbook asset add"), "\(result)")
            for type in ["web-sling", "round-sling", "chain-sling", "wire-rope-sling", "shackle", "eyebolt", "hook",
                         "chain-block", "lever-hoist", "beam-clamp", "spreader-beam", "other"] {
                #expect(result.stdout.contains(type), "help asset add does not list type \(type)")
            }
            for option in ["--tag", "--name", "--type", "--wll", "--interval", "--commissioned", "--lifts-persons",
                           "--scheme"] {
                #expect(result.stdout.contains(option), "help asset add does not mention \(option)")
            }
        }

        @Test func helpForAnUnknownCommandIsAUsageError() throws {
            let dir = TempDir(); defer { dir.remove() }
            let result = runRigbookResult(["help", "nope"], home: dir.sub("home"))
            #expect(result.status == 64, "\(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("nope"), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }

        @Test func dashDashHelpAndDashHShowTheOverview() throws {
            let dir = TempDir(); defer { dir.remove() }
            let overview = runRigbookResult(["help"], home: dir.sub("home"))
            for flag in ["--help", "-h"] {
                let result = runRigbookResult([flag], home: dir.sub("home"))
                #expect(result.status == 0, "\(flag): \(result)")
                #expect(result.stdout == overview.stdout, "\(flag) differs from `help`")
            }
            let commandHelp = runRigbookResult(["asset", "add", "--help"], home: dir.sub("home"))
            #expect(commandHelp.status == 0, "\(commandHelp)")
            #expect(commandHelp.stdout.contains("USAGE: rigbook asset add"), "\(commandHelp)")
            #expect(!fileExists(dir.sub("home")), "help must not create the data home")
        }

        /// `--home=DIR` is accepted everywhere else; `--help` must not turn it into an error.
        @Test func dashDashHelpWorksWithHomeEqualsForm() throws {
            let dir = TempDir(); defer { dir.remove() }
            let result = runRigbookResult(["--home=\(dir.sub("home"))", "--help"], home: dir.sub("home"),
                                          homeOption: false)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("USAGE: rigbook"), "\(result)")
        }

        @Test func unknownCommandIsAUsageError() throws {
            let dir = TempDir(); defer { dir.remove() }
            let result = runRigbookResult(["frobnicate"], home: dir.sub("home"))
            #expect(result.status == 64, "\(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(!fileExists(dir.sub("home")))
        }
    }

    @Suite struct AssetAdd {
        @Test func addsAnAssetThatTheListShows() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let result = runRigbookResult([
                "asset", "add", "--tag", "CS-0001", "--name", "4-leg chain sling", "--type", "chain-sling",
                "--wll", "3150",
                "--length", "2.5", "--location", "Quay 1", "--manufacturer", "Acme", "--serial", "SN-77",
                "--manufactured", "2025-01-10", "--commissioned", "2025-02-01", "--interval", "6",
            ], home: home)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("CS-0001"), "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(fileExists(home + "/Documents/register.sqlite"))

            let assets = listAssets(home: home)
            try #require(assets.count == 1)
            let asset = assets[0]
            #expect(string(asset, "tag") == "CS-0001")
            #expect(string(asset, "name") == "4-leg chain sling")
            #expect(string(asset, "type") == "chain-sling")
            #expect((asset["wll_kg"] as? NSNumber)?.doubleValue == 3150)
            #expect((asset["length_m"] as? NSNumber)?.doubleValue == 2.5)
            #expect(string(asset, "location") == "Quay 1")
            #expect(string(asset, "manufacturer") == "Acme")
            #expect(string(asset, "serial_number") == "SN-77")
            #expect(string(asset, "manufactured") == "2025-01-10")
            #expect(string(asset, "commissioned") == "2025-02-01")
            #expect((asset["interval_months"] as? NSNumber)?.intValue == 6)
            #expect(isNull(asset["last_thorough_examination"]))
            // Never examined: due = commission date + interval = 2025-08-01, long past on 2026-11-30.
            #expect(string(asset, "next_due") == "2025-08-01")
            #expect(string(asset, "status") == "overdue")
        }

        @Test func statusesOfNewAssetsFollowTheCommissionDate() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let adds: [[String]] = [
                ["--tag", "A-1", "--type", "hook"],                                  // no dates: untested
                ["--tag", "A-2", "--type", "hook", "--commissioned", "2026-06-15"],  // due 2026-12-15: due soon
                ["--tag", "A-3", "--type", "hook", "--commissioned", "2026-08-31"],  // due 2027-02-28 (clamped): ok
                ["--tag", "A-4", "--type", "hook", "--commissioned", "2026-05-30"],  // due 2026-11-30, today: due soon
                ["--tag", "A-5", "--type", "hook", "--commissioned", "2026-05-29"],  // due 2026-11-29: overdue
            ]
            for add in adds {
                let result = runRigbookResult(["asset", "add", "--name", "Hook", "--wll", "500"] + add, home: home)
                #expect(result.status == 0, "\(add): \(result)")
            }
            let byTag = Dictionary(uniqueKeysWithValues: listAssets(home: home).map { (string($0, "tag") ?? "?", $0) })
            #expect(byTag["A-1"].map { string($0, "status") } == "untested")
            #expect(byTag["A-1"].map { isNull($0["next_due"]) } == true)
            #expect(byTag["A-2"].map { string($0, "next_due") } == "2026-12-15")
            #expect(byTag["A-2"].map { string($0, "status") } == "due_soon")
            #expect(byTag["A-3"].map { string($0, "next_due") } == "2027-02-28")
            #expect(byTag["A-3"].map { string($0, "status") } == "ok")
            #expect(byTag["A-4"].map { string($0, "next_due") } == "2026-11-30")
            #expect(byTag["A-4"].map { string($0, "status") } == "due_soon")
            #expect(byTag["A-5"].map { string($0, "next_due") } == "2026-11-29")
            #expect(byTag["A-5"].map { string($0, "status") } == "overdue")
        }

        @Test(arguments: badAdds)
        func badInputOnAFreshHomeWritesNothing(_ bad: BadAdd) throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let result = runRigbookResult(bad.args, home: home)
            #expect(result.status == 64, "\(bad.label): \(result)")
            #expect(result.stderrIsOneLine, "\(bad.label): reason is not one line: \(result)")
            #expect(result.stderr.contains(bad.mentions),
                    "\(bad.label): reason does not mention \(bad.mentions): \(result)")
            #expect(result.stdout.isEmpty, "\(bad.label): \(result)")
            #expect(!fileExists(home), "\(bad.label): a refused command created the data home")
        }

        @Test(arguments: badAdds)
        func badInputOnAnExistingRegisterAddsNothing(_ bad: BadAdd) throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let first = runRigbookResult(["asset", "add", "--tag", "HK-1", "--name", "Hook", "--type", "hook",
                                          "--wll", "250"], home: home)
            try #require(first.status == 0, "\(first)")
            let result = runRigbookResult(bad.args, home: home)
            #expect(result.status == 64, "\(bad.label): \(result)")
            #expect(result.stderrIsOneLine, "\(bad.label): \(result)")
            #expect(listAssets(home: home).compactMap { string($0, "tag") } == ["HK-1"],
                    "\(bad.label) changed the register")
        }

        @Test func duplicateTagIsRefused() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let first = runRigbookResult(validAdd, home: home)
            try #require(first.status == 0, "\(first)")
            let before = listAssets(home: home)
            let again = runRigbookResult(["asset", "add", "--tag", "WS-0900", "--name", "Other", "--type", "hook",
                                          "--wll", "5"], home: home)
            #expect(again.status == 64, "\(again)")
            #expect(again.stderrIsOneLine, "\(again)")
            #expect(again.stderr.contains("WS-0900"), "\(again)")
            #expect(again.stdout.isEmpty)
            let after = listAssets(home: home)
            #expect(after.count == 1)
            #expect(after.first.map { string($0, "name") } == before.first.map { string($0, "name") })
        }

        @Test func tagsAreOneTagUnderFullCaseFoldingAndHistoryFindsThem() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let first = runRigbookResult(addWith("--tag", "SL-SS"), home: home)
            try #require(first.status == 0, "\(first)")
            for other in ["SL-ß", "sl-ss", "SL-ẞ"] {
                let again = runRigbookResult(addWith("--tag", other), home: home)
                #expect(again.status == 64, "\(other): \(again)")
                #expect(again.stderr.contains("already in the register"), "\(other): \(again)")
            }
            // A decomposed tag is stored composed (NFC).
            let decomposed = runRigbookResult(addWith("--tag", "E\u{301}V-1"), home: home)
            try #require(decomposed.status == 0, "\(decomposed)")
            let tags = listAssets(home: home).compactMap { string($0, "tag") }
            #expect(tags.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                    == ["SL-SS", "\u{C9}V-1"].map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
            for typed in ["sl-ß", "Sl-Ss", "SL-SS"] {
                let history = runRigbookResult(["history", typed], home: home)
                #expect(history.status == 0, "\(typed): \(history)")
                #expect(history.stdout.hasPrefix("SL-SS · "), "\(typed): \(history)")
            }
            let accented = runRigbookResult(["history", "év-1"], home: home)
            #expect(accented.status == 0 && accented.stdout.hasPrefix("\u{C9}V-1 · "), "\(accented)")
            let posing = runRigbookResult(["history", "SL-\u{202E}SS"], home: home)
            #expect(posing.status == 1, "\(posing)")
            #expect(posing.stderr.contains("U+202E"), "\(posing)")
            #expect(!posing.stderr.unicodeScalars.contains("\u{202E}"), "the override is named, never echoed")
        }

        @Test(arguments: [
            (["--type", "web-sling"], 6),
            (["--type", "chain-block"], 12),
            (["--type", "chain-block", "--lifts-persons"], 6),
            (["--type", "lever-hoist"], 12),
            (["--type", "shackle"], 6),
            (["--type", "chain-block", "--interval", "3"], 3),
        ])
        func defaultInterval(_ extra: [String], _ months: Int) throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let result = runRigbookResult(["asset", "add", "--tag", "T-1", "--name", "Thing", "--wll", "1000"] + extra,
                                          home: home)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("every \(months) months"), "\(result)")
            let assets = listAssets(home: home)
            #expect(assets.count == 1)
            #expect(assets.first.flatMap { ($0["interval_months"] as? NSNumber)?.intValue } == months)
            #expect(assets.first.flatMap { ($0["lifts_persons"] as? Bool) } == extra.contains("--lifts-persons"))
        }
    }

    @Suite struct AssetList {
        /// A home holding the default sample register (200 assets, seed 42, made on the fixed day).
        static func sampleHome(_ dir: TempDir) throws -> String {
            let home = dir.sub("home")
            let made = runRigbookResult(["sample"], home: home)
            try #require(made.status == 0, "\(made)")
            return home
        }

        @Test func jsonHasTheDocumentedShape() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = try Self.sampleHome(dir)
            let result = runRigbookResult(["asset", "list", "--format", "json"], home: home)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            let assets = parseAssetJSON(result.stdout)
            #expect(assets.count == 200)
            var seenStatuses = Set<String>()
            for (index, asset) in assets.enumerated() {
                for key in ["tag", "name", "type", "wll_kg", "location", "last_thorough_examination", "next_due",
                            "status"] {
                    #expect(asset.keys.contains(key), "asset \(index) has no key \(key)")
                }
                #expect(Set(asset.keys) == Set(documentedColumns), "asset \(index) keys: \(asset.keys.sorted())")
                let status = string(asset, "status") ?? "<missing>"
                #expect(statusValues.contains(status), "asset \(index) has status \(status)")
                seenStatuses.insert(status)
                for key in ["last_thorough_examination", "next_due", "manufactured", "commissioned",
                            "remedy_deadline"] {
                    #expect(isDateOrNull(asset[key]), "asset \(index) \(key) = \(String(describing: asset[key]))")
                }
                // An electrical item has no working load limit: null.
                let electrical = string(asset, "kind") == "electrical"
                #expect(electrical ? asset["wll_kg"] is NSNull : asset["wll_kg"] is NSNumber,
                        "asset \(index) wll_kg is not a number")
                #expect(!(string(asset, "tag") ?? "").isEmpty)
            }
            // A sample register is meant to show several statuses.
            #expect(seenStatuses.count >= 4, "statuses seen: \(seenStatuses.sorted())")
            let tags = assets.compactMap { string($0, "tag") }
            #expect(tags == tags.sorted(), "assets are not in tag order")
            #expect(Set(tags).count == tags.count, "tags are not unique")
        }

        @Test func csvParsesWithCRLFAndMatchesTheJSON() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = try Self.sampleHome(dir)
            let result = runRigbookResult(["asset", "list", "--format", "csv"], home: home)
            #expect(result.status == 0, "\(result)")
            let records = try readCSV(result.stdout)
            try #require(records.count == 201, "expected a header and 200 rows, got \(records.count) records")
            #expect(records[0] == documentedColumns, "header: \(records[0])")
            for (index, record) in records.enumerated() {
                #expect(record.count == records[0].count, "record \(index) has \(record.count) fields")
            }
            let json = listAssets(home: home)
            #expect(records.dropFirst().map { $0[0] } == json.compactMap { string($0, "tag") },
                    "CSV and JSON list different tags")
            let statusColumn = try #require(records[0].firstIndex(of: "status"))
            #expect(records.dropFirst().map { $0[statusColumn] } == json.compactMap { string($0, "status") })
        }

        @Test func tableHasTheColumnHeadings() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = try Self.sampleHome(dir)
            let result = runRigbookResult(["asset", "list"], home: home)
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            let header = try #require(lines.first).split(separator: " ", omittingEmptySubsequences: true)
                .joined(separator: " ")
            #expect(header == "TAG NAME TYPE WLL LOCATION LAST EXAM NEXT DUE STATUS", "header: \(lines.first ?? "")")
            #expect(lines.filter { !$0.isEmpty }.count == 201, "expected a header and 200 rows")
            let explicit = runRigbookResult(["asset", "list", "--format", "table"], home: home)
            #expect(explicit.stdout == result.stdout, "--format table differs from the default")
        }

        @Test func csvAndJSONKeepQuotesCommasAndCJK() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let name = "Sling, \"blue\" 吊带"
            let location = "仓库 2; bay \"C\""
            let added = runRigbookResult(addWith(["--name": name, "--location": location, "--wll": "1000.5"]),
                                         home: home)
            try #require(added.status == 0, "\(added)")
            let json = listAssets(home: home)
            #expect(json.first.map { string($0, "name") } == name)
            #expect(json.first.map { string($0, "location") } == location)
            #expect(json.first.flatMap { ($0["wll_kg"] as? NSNumber)?.doubleValue } == 1000.5)
            let csv = runRigbookResult(["asset", "list", "--format", "csv"], home: home)
            let records = try readCSV(csv.stdout)
            try #require(records.count == 2)
            let row = Dictionary(uniqueKeysWithValues: zip(records[0], records[1]))
            #expect(row["name"] == name)
            #expect(row["location"] == location)
            #expect(row["wll_kg"] == "1000.5")
        }

        @Test func tableAlignsColumnsByDisplayWidth() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            for (tag, name) in [("A-1", "吊带 张张张"), ("A-2", "Plain web sling"),
                                ("A-3", "é combining e\u{301}")] {
                let added = runRigbookResult(addWith(["--tag": tag, "--name": name, "--location": "仓库 2"]),
                                             home: home)
                try #require(added.status == 0, "\(added)")
            }
            let table = runRigbookResult(["asset", "list"], home: home).stdout
            let lines = table.split(separator: "\n").map(String.init)
            try #require(lines.count == 4, "\(table)")
            func statusColumn(_ line: String) -> Int? {
                guard let range = line.range(of: line == lines[0] ? "STATUS" : "UNTESTED") else { return nil }
                return displayWidth(String(line[..<range.lowerBound]))
            }
            let header = try #require(statusColumn(lines[0]))
            for line in lines.dropFirst() {
                #expect(statusColumn(line) == header, "STATUS column misaligned:\n\(table)")
            }
        }

        /// A working load limit must never be shown higher than it is: 1960 kg is not "2.0 t".
        @Test(arguments: [1960.0, 1999.0, 2950.0, 1050.0, 999.9])
        func tableNeverRoundsAWorkingLoadLimitUp(_ kg: Double) throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let text = kg == kg.rounded() ? String(Int(kg)) : String(kg)
            try #require(runRigbookResult(addWith(["--wll": text, "--name": "Sling"]), home: home).status == 0)
            let table = runRigbookResult(["asset", "list"], home: home).stdout
            let row = try #require(table.split(separator: "\n").dropFirst().first.map(String.init), "\(table)")
            let match = try #require(row.firstMatch(of: /\s(\d+(?:\.\d+)?) (kg|t)\s/), "no WLL in: \(row)")
            let shown = (Double(match.1) ?? 0) * (match.2 == "t" ? 1000 : 1)
            #expect(shown <= kg + 1e-9, "WLL \(text) kg is shown as \(match.1) \(match.2) (\(shown) kg): \(row)")
        }

        @Test func emptyRegisterListsAnEmptyArray() throws {
            let dir = TempDir(); defer { dir.remove() }
            makeEmptyRegister(home: dir.sub("home"))
            let result = runRigbookResult(["asset", "list", "--format", "json"], home: dir.sub("home"))
            #expect(result.status == 0, "\(result)")
            #expect(parseAssetJSON(result.stdout).isEmpty)
            let csv = runRigbookResult(["asset", "list", "--format", "csv"], home: dir.sub("home"))
            #expect(csv.stdout == documentedColumns.joined(separator: ",") + "\r\n", "\(csv)")
        }

        @Test func unknownFormatIsAUsageError() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let result = runRigbookResult(["asset", "list", "--format", "xml"], home: home)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("xml"), "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(!fileExists(home), "a refused command created the data home")
        }
    }

    @Suite struct Sample {
        @Test func sampleFillsAnEmptyRegisterWith200Assets() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let result = runRigbookResult(["sample"], home: home)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("200 assets"), "\(result)")
            #expect(listAssets(home: home).count == 200)
        }

        @Test func sameSeedGivesTheSameRegister() throws {
            let dir = TempDir(); defer { dir.remove() }
            var outputs: [String] = []
            var csvs: [String] = []
            for name in ["one", "two"] {
                let home = dir.sub(name)
                let made = runRigbookResult(["sample", "--assets", "1000", "--seed", "7"], home: home)
                try #require(made.status == 0, "\(made)")
                let json = runRigbookResult(["asset", "list", "--format", "json"], home: home)
                try #require(json.status == 0, "\(json)")
                outputs.append(json.stdout)
                csvs.append(runRigbookResult(["asset", "list", "--format", "csv"], home: home).stdout)
            }
            #expect(parseAssetJSON(outputs[0]).count == 1000)
            #expect(outputs[0] == outputs[1], "two registers from seed 7 differ (uuids are seeded too)")
            #expect(csvs[0] == csvs[1])
            #expect(parseAssetJSON(outputs[0]).allSatisfy { !(string($0, "uuid") ?? "").isEmpty })

            let other = dir.sub("three")
            #expect(runRigbookResult(["sample", "--assets", "1000", "--seed", "8"], home: other).status == 0)
            #expect(runRigbookResult(["asset", "list", "--format", "json"], home: other).stdout != outputs[0],
                    "seed 8 made the same register as seed 7")
        }

        @Test func sampleRefusesANonEmptyRegister() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            try #require(runRigbookResult(validAdd, home: home).status == 0)
            let result = runRigbookResult(["sample"], home: home)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(listAssets(home: home).compactMap { string($0, "tag") } == ["WS-0900"],
                    "sample added to a non-empty register")
        }

        @Test(arguments: [["--assets", "0"], ["--assets", "-3"], ["--assets", "many"], ["--assets", "1000001"],
                          ["--seed", "-1"], ["--bogus"]])
        func badSampleOptionsAreUsageErrors(_ extra: [String]) throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let result = runRigbookResult(["sample"] + extra, home: home)
            #expect(result.status == 64, "\(extra): \(result)")
            #expect(result.stderrIsOneLine, "\(extra): \(result)")
            #expect(!fileExists(home), "\(extra): a refused sample created the data home")
        }
    }

    @Suite struct Refusals {
        @Test func aTextFileAtTheRegisterPathIsRefusedUntouched() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let documents = home + "/Documents"
            try FileManager.default.createDirectory(atPath: documents, withIntermediateDirectories: true)
            let register = documents + "/register.sqlite"
            try Data("hello".utf8).write(to: URL(fileURLWithPath: register))
            for args in [["asset", "list"], ["asset", "list", "--format", "json"], validAdd, ["sample"]] {
                let result = runRigbookResult(args, home: home)
                #expect(result.status == 1, "\(args): \(result)")
                #expect(result.stderrIsOneLine, "\(args): \(result)")
                #expect(result.stderr.contains("not a Rigbook register"), "\(args): \(result)")
                #expect(result.stdout.isEmpty, "\(args): \(result)")
                #expect(FileManager.default.contents(atPath: register) == Data("hello".utf8),
                        "\(args) changed the file")
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: documents)
            #expect(left == ["register.sqlite"], "files appeared next to the foreign file: \(left)")
        }

        @Test func anSQLiteFileOfAnotherApplicationIsRefusedUntouched() throws {
            let dir = TempDir(); defer { dir.remove() }
            let source = dir.sub("source")
            try #require(runRigbookResult(validAdd, home: source).status == 0)
            let home = dir.sub("home")
            try FileManager.default.createDirectory(atPath: home + "/Documents", withIntermediateDirectories: true)
            let register = home + "/Documents/register.sqlite"
            var bytes = try #require(FileManager.default.contents(atPath: source + "/Documents/register.sqlite"))
            try #require(bytes.count >= 100)
            // Another application's id in the header (offset 68, big-endian).
            bytes.replaceSubrange(68..<72, with: [0x12, 0x34, 0x56, 0x78])
            try bytes.write(to: URL(fileURLWithPath: register))
            let result = runRigbookResult(["asset", "list"], home: home)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("not a Rigbook register"), "\(result)")
            #expect(FileManager.default.contents(atPath: register) == bytes, "the foreign file was changed")
        }

        @Test func anImpossibleRigbookTodayIsAUsageError() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            for today in ["2026-02-30", "tomorrow", "2026-1-5"] {
                let result = runRigbookResult(["asset", "list"], home: home, env: ["RIGBOOK_TODAY": today])
                #expect(result.status == 64, "RIGBOOK_TODAY=\(today): \(result)")
                #expect(result.stderrIsOneLine, "\(result)")
                #expect(result.stderr.contains("RIGBOOK_TODAY"), "\(result)")
            }
            #expect(!fileExists(home), "a refused command created the data home")
        }

        @Test func rigbookTodayChangesStatuses() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            try #require(runRigbookResult(addWith("--commissioned", "2026-06-15"), home: home).status == 0)
            // Web sling, 6 months: due 2026-12-15.
            let statuses = ["2026-06-20": "ok", "2026-11-20": "due_soon", "2026-12-15": "due_soon",
                            "2026-12-16": "overdue"]
            for (today, expected) in statuses {
                let assets = listAssets(home: home, env: ["RIGBOOK_TODAY": today])
                #expect(assets.first.map { string($0, "status") } == expected, "on \(today)")
            }
        }

        @Test func homeOptionBeatsRigbookHomeWhichBeatsXDG() throws {
            let dir = TempDir(); defer { dir.remove() }
            let optionHome = dir.sub("option-home"), envHome = dir.sub("env-home"), xdg = dir.sub("xdg")
            try #require(runRigbookResult(addWith("--tag", "OPT-1"), home: optionHome).status == 0)
            try #require(runRigbookResult(addWith("--tag", "ENV-1"), home: envHome).status == 0)
            try #require(runRigbookResult(addWith("--tag", "XDG-1"), home: xdg + "/rigbook").status == 0)
            func tags(_ args: [String], _ env: [String: String]) -> [String] {
                let result = runRigbookResult(args + ["asset", "list", "--format", "json"], home: optionHome, env: env,
                                              homeOption: false)
                #expect(result.status == 0, "\(args) \(env): \(result)")
                return parseAssetJSON(result.stdout).compactMap { string($0, "tag") }
            }
            #expect(tags(["--home", optionHome], ["RIGBOOK_HOME": envHome, "XDG_DATA_HOME": xdg]) == ["OPT-1"])
            #expect(tags(["--home=\(optionHome)"], ["RIGBOOK_HOME": envHome]) == ["OPT-1"])
            #expect(tags([], ["RIGBOOK_HOME": envHome, "XDG_DATA_HOME": xdg]) == ["ENV-1"])
            #expect(tags([], ["XDG_DATA_HOME": xdg]) == ["XDG-1"])
            // The option may come after the command too.
            let after = runRigbookResult(["asset", "list", "--format", "json", "--home", optionHome], home: optionHome,
                                         env: ["RIGBOOK_HOME": envHome], homeOption: false)
            #expect(parseAssetJSON(after.stdout).compactMap { string($0, "tag") } == ["OPT-1"], "\(after)")
            // Nothing was ever written to the sandboxed user home.
            #expect(!fileExists(dir.sub("user-home") + "/.local/share/rigbook"))
        }

        /// `--home ""` (a script's unset variable) must not quietly fall back to the default home.
        @Test func anEmptyHomeOptionIsAUsageError() throws {
            let dir = TempDir(); defer { dir.remove() }
            let userHome = dir.sub("user-home")
            for args in [["--home", ""], ["--home="]] {
                let result = runRigbookResult(args + validAdd, home: dir.sub("home"), homeOption: false)
                #expect(result.status == 64, "\(args): \(result)")
                #expect(result.stderrIsOneLine, "\(args): \(result)")
            }
            #expect(!fileExists(userHome + "/.local/share/rigbook"),
                    "an empty --home wrote a register into the default home \(userHome)/.local/share/rigbook")
        }

        @Test func fullScreenRefusesPipes() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let result = runRigbookResult([], home: home, env: ["TERM": "xterm-256color"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("terminal"), "\(result)")
            #expect(result.stderr.contains("asset list"), "the refusal should point at a subcommand: \(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(!fileExists(home), "the refused full-screen mode created the data home")
        }
    }
}
