import Foundation
import RigbookCore
import RigbookStore
import Testing

/// A home with one asset (so a register exists), as `asset add` makes it.
private func homeWithAnAsset(_ dir: TempDir, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let home = dir.sub("home")
    let added = runRigbookResult(["asset", "add", "--tag", "SL-0042", "--name", "2 t web sling", "--type", "web-sling",
                                  "--wll", "2000"], home: home)
    #expect(added.status == 0, "\(added)", sourceLocation: sourceLocation)
    return home
}

/// The register of `home`, opened in this process to look at what the commands did.
private func particulars(_ home: String) throws -> Particulars {
    try Register.openForReading(path: DataHome(root: home).registerPath).particulars()
}

private func versions(_ home: String, of subject: UUID) throws -> Int {
    try Register.openForReading(path: DataHome(root: home).registerPath).particularsHistory(subject: subject).count
}

extension RigbookCLITests {
    @Suite("rigbook settings") struct SettingsCommand {
        @Test func getWithoutAKeyListsEveryParticular() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithAnAsset(dir)
            let result = runRigbookResult(["settings", "get"], home: home)
            #expect(result.status == 0, "\(result)")
            let expected = ["organisation.name = ", "organisation.address = ", "organisation.colour_code = none", "",
                            "[electrical test limits]  (the defaults)", "limits.earth_continuity_max_ohm = 1",
                            "limits.insulation_min_mohm = 1", "limits.leakage_max_ma_class_i = 5",
                            "limits.leakage_max_ma_other = 1", "limits.rcd_trip_max_ms_type_ii = 300",
                            "limits.rcd_trip_max_ms_type_i = 40", "limits.calibration_warning_months = 12", "",
                            "[employer \"Main employer\"]  (main: the default)", "employer.name = Main employer",
                            "employer.address = ", "",
                            "[site \"Main site\" of \"Main employer\"]  (main: the default)", "site.name = Main site",
                            "site.employer = Main employer", "site.address = ", ""]
            #expect(result.stdout == expected.joined(separator: "\n"), "\(result)")
            #expect(result.stderr.isEmpty)
        }

        @Test func setThenGetKeepsEveryVersionAndTheChainVerifies() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithAnAsset(dir)
            let name = runRigbookResult(["settings", "set", "employer.name", "  Harbour Lifting Ltd "], home: home)
            #expect(name.status == 0, "\(name)")
            #expect(name.stdout == "Set employer.name of employer Main employer (now Harbour Lifting Ltd).\n")
            let address = runRigbookResult(["settings", "set", "employer.address", "Quay Office\nHarbour Road\n"],
                                           home: home)
            #expect(address.status == 0, "\(address)")
            // One key prints its value as it is; the listing writes line breaks as \n.
            #expect(runRigbook(["settings", "get", "employer.address"], home: home).stdout
                    == "Quay Office\nHarbour Road\n")
            #expect(runRigbook(["settings", "get"], home: home).stdout
                        .contains("employer.address = Quay Office\\nHarbour Road\n"))
            // The same value again records nothing.
            let again = runRigbookResult(["settings", "set", "employer.name", "Harbour Lifting Ltd"], home: home)
            #expect(again.status == 0 && again.stdout.contains("already says that; nothing recorded"), "\(again)")
            #expect(try versions(home, of: Particulars.mainEmployerUUID) == 3)
            let verify = runRigbookResult(["verify"], home: home)
            #expect(verify.status == 0, "particulars are entries of the hash chain: \(verify)")
        }

        @Test func addingEmployersSitesAndExaminersAndPickingThemByName() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithAnAsset(dir)
            #expect(runRigbook(["settings", "add", "employer", "Bolt Hire Ltd", "--address", "Unit 4"], home: home)
                        .stdout == "Added employer Bolt Hire Ltd.\n")
            // Two employers now: a site must say whose.
            let unsaid = runRigbookResult(["settings", "add", "site", "Depot"], home: home)
            #expect(unsaid.status == 64 && unsaid.stderr.contains("--employer"), "\(unsaid)")
            let depot = runRigbookResult(["settings", "add", "site", "Depot", "--employer", "bolt hire ltd",
                                          "--address", "Dock Lane"], home: home)
            #expect(depot.status == 0 && depot.stdout == "Added site Depot for Bolt Hire Ltd.\n", "\(depot)")
            let examiner = runRigbookResult(["settings", "add", "examiner", "Ann Smith", "--qualification", "LEEA 1",
                                             "--self-employed", "--address", "3 Crane Row"], home: home)
            #expect(examiner.status == 0, "\(examiner)")
            for (args, expected) in [
                (["settings", "get", "site.address", "--site", "DEPOT"], "Dock Lane\n"),
                (["settings", "get", "site.employer", "--site", "Depot"], "Bolt Hire Ltd\n"),
                (["settings", "get", "site.name", "--employer", "Bolt Hire Ltd"], "Depot\n"),
                (["settings", "get", "examiner.self_employed", "--examiner", "ann smith"], "yes\n"),
                (["settings", "get", "employer.address", "--employer", "Bolt Hire Ltd"], "Unit 4\n"),
                (["settings", "get", "site.name"], "Main site\n"),
            ] {
                let result = runRigbookResult(args, home: home)
                #expect(result.status == 0 && result.stdout == expected, "\(args): \(result)")
            }
            let moved = runRigbookResult(["settings", "set", "asset.site", "Depot", "--asset", "sl-0042"], home: home)
            #expect(moved.status == 0, "\(moved)")
            let setDate = runRigbookResult(["settings", "set", "asset.declaration_date", "2025-03-01",
                                            "--asset", "SL-0042"], home: home)
            #expect(setDate.status == 0, "\(setDate)")
            let now = try particulars(home)
            let asset = try #require(now.assets.values.first)
            #expect(now.sites[asset.siteUUID]?.name == "Depot" && asset.declarationDate == "2025-03-01")
            #expect(runRigbook(["settings", "get", "asset.site", "--asset", "SL-0042"], home: home).stdout == "Depot\n")
            let listing = runRigbook(["settings", "get"], home: home).stdout
            for text in ["[employer \"Bolt Hire Ltd\"]", "[site \"Depot\" of \"Bolt Hire Ltd\"]",
                         "[examiner \"Ann Smith\"]", "examiner.qualification = LEEA 1", "[asset \"SL-0042\"]",
                         "asset.site = Depot"] {
                #expect(listing.contains(text), "\(text)\n\(listing)")
            }
            // The same in JSON, for scripts.
            let json = runRigbookResult(["settings", "get", "--format", "json"], home: home)
            #expect(json.status == 0, "\(json)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["organisation", "limits", "employers", "sites", "examiners", "assets"])
            let assets = try #require(object["assets"] as? [[String: Any]])
            #expect(assets.first?["tag"] as? String == "SL-0042")
            #expect((object["employers"] as? [Any])?.count == 2)
        }

        @Test func namesThatCollideAreRefusedAndSharedNamesAreNeverGuessed() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithAnAsset(dir)
            let twin = runRigbookResult(["settings", "add", "employer", " main EMPLOYER "], home: home)
            #expect(twin.status == 64 && twin.stderr.contains("Another employer is already named main EMPLOYER"),
                    "\(twin)")
            #expect(twin.stderrIsOneLine, "\(twin)")
            _ = runRigbook(["settings", "add", "employer", "Bolt Hire Ltd"], home: home)
            let rename = runRigbookResult(["settings", "set", "employer.name", "bolt hire ltd"], home: home)
            #expect(rename.status == 64, "renaming onto another's name: \(rename)")
            // Two employers may each have a Depot; a second Depot of the same employer is refused.
            for employer in ["Main employer", "Bolt Hire Ltd"] {
                let added = runRigbookResult(["settings", "add", "site", "Depot", "--employer", employer], home: home)
                #expect(added.status == 0, "\(added)")
            }
            let again = runRigbookResult(["settings", "add", "site", "depot", "--employer", "Bolt Hire Ltd"],
                                         home: home)
            #expect(again.status == 64 && again.stderr.contains("already has a site named depot"), "\(again)")
            // "Depot" alone names two sites: refused with both, and their uuids, never a guess.
            let ambiguous = runRigbookResult(["settings", "set", "asset.site", "Depot", "--asset", "SL-0042"],
                                             home: home)
            #expect(ambiguous.status == 1, "\(ambiguous)")
            #expect(ambiguous.stderr.contains("2 sites are named Depot"), "\(ambiguous)")
            #expect(ambiguous.stderr.contains("Depot of Main employer") && ambiguous.stderr.contains("Depot of Bolt"),
                    "\(ambiguous)")
            #expect(ambiguous.stderrIsOneLine)
            let sites = try particulars(home).siteList.filter { $0.name == "Depot" }
            let uuid = try #require(sites.first).uuid.uuidString
            #expect(ambiguous.stderr.contains(uuid))
            #expect(try particulars(home).assets.isEmpty, "nothing recorded")
            let byUUID = runRigbookResult(["settings", "set", "asset.site", uuid.lowercased(), "--asset", "SL-0042"],
                                          home: home)
            #expect(byUUID.status == 0, "a uuid picks one: \(byUUID)")
            let narrowed = runRigbookResult(["settings", "get", "site.address", "--site", "Depot",
                                             "--employer", "Bolt Hire Ltd"], home: home)
            #expect(narrowed.status == 0, "--employer narrows --site: \(narrowed)")
            let nobody = runRigbookResult(["settings", "get", "employer.name", "--employer", "Nobody"], home: home)
            #expect(nobody.status == 1 && nobody.stderr.contains("no employer named Nobody; the employers are: "),
                    "\(nobody)")
        }

        @Test(arguments: [
            (["settings", "get", "employer.colour"], "unknown settings key employer.colour"),
            (["settings", "set", "colour", "red"], "unknown settings key colour"),
            (["settings", "set", "employer.name"], "missing the VALUE"),
            (["settings", "set"], "missing the settings KEY"),
            (["settings", "get", "organisation.name", "--asset", "SL-0042"], "takes no --asset"),
            (["settings", "get", "examiner.qualification"], "needs --examiner"),
            (["settings", "set", "asset.lessor", "X"], "needs --asset"),
            (["settings", "get", "--asset", "X", "--examiner", "Y"], "give one of"),
            (["settings", "get", "--asset", "X", "--format", "json"], "--format json goes with settings get without"),
            (["settings", "get", "site.name", "--format", "json"], "--format goes with settings get without"),
            (["settings", "add", "client", "X"], "employer, site or examiner"),
            (["settings", "add", "employer"], "missing the NAME"),
            (["settings", "add", "employer", "X", "--qualification", "Q"], "--qualification"),
            (["settings", "set", "employer.name", "X", "--colour", "red"], "unknown option --colour"),
            (["settings", "remove"], "settings has no command 'remove'"),
        ] as [([String], String)])
        func badUsageIsOneLineAndExit64(_ args: [String], _ mentions: String) throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithAnAsset(dir)
            let result = runRigbookResult(args, home: home)
            #expect(result.status == 64, "\(args): \(result)")
            #expect(result.stderrIsOneLine && result.stderr.contains(mentions), "\(args): \(result)")
            #expect(result.stdout.isEmpty)
            if mentions.hasPrefix("unknown settings key") {
                for key in ["organisation.name", "employer.address", "site.employer", "examiner.self_employed",
                            "asset.swl_configurations", "asset.declaration_date"] {
                    #expect(result.stderr.contains(key), "the valid keys are listed: \(result)")
                }
            }
        }

        @Test(arguments: [
            ("employer.name", "Bad\u{1B}[31mName", "control characters"),
            ("employer.name", "Two\nLines", "control characters"),
            ("employer.address", "Tab\there", "control characters"),
            ("employer.address", String(repeating: "x", count: 10_000), "longer than 1000"),
            ("employer.name", String(repeating: "名", count: 10_000), "longer than 200"),
            ("employer.name", "   ", "needs a name"),
            ("site.name", "", "needs a name"),
            ("organisation.address", "1 Road\r\nTown", "control characters"),
            ("site.employer", "Nobody", "no employer named Nobody"),
        ] as [(String, String, String)])
        func hostileValuesAreRefusedAndNothingIsRecorded(_ key: String, _ value: String, _ mentions: String) throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithAnAsset(dir)
            let before = try particulars(home)
            let result = runRigbookResult(["settings", "set", key, value], home: home)
            #expect([1, 64].contains(result.status), "\(result)")
            #expect(result.stderrIsOneLine && result.stderr.contains(mentions), "\(result)")
            // A refusal never echoes a value it was refused for holding control characters.
            #expect(!result.stderr.contains("\u{1B}"))
            #expect(try particulars(home) == before)
        }

        @Test func yesNoAndDatesAreChecked() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithAnAsset(dir)
            _ = runRigbook(["settings", "add", "examiner", "Ann Smith"], home: home)
            let maybe = runRigbookResult(["settings", "set", "examiner.self_employed", "maybe",
                                          "--examiner", "Ann Smith"], home: home)
            #expect(maybe.status == 64 && maybe.stderr.contains("yes or no"), "\(maybe)")
            let yes = runRigbookResult(["settings", "set", "examiner.self_employed", "YES", "--examiner", "Ann Smith"],
                                       home: home)
            #expect(yes.status == 0, "\(yes)")
            let bad = runRigbookResult(["settings", "set", "asset.declaration_date", "2025-02-30",
                                        "--asset", "SL-0042"], home: home)
            #expect(bad.status == 64 && bad.stderr.contains("YYYY-MM-DD"), "\(bad)")
            let unknown = runRigbookResult(["settings", "get", "asset.site", "--asset", "XX-1"], home: home)
            #expect(unknown.status == 1 && unknown.stderr.contains("no asset tagged XX-1"), "\(unknown)")
        }

        @Test func helpForTheGroupAndEachCommand() throws {
            let dir = TempDir(); defer { dir.remove() }
            let group = runRigbookResult(["help", "settings"], home: dir.sub("home"))
            #expect(group.status == 0 && group.stdout.contains("USAGE: rigbook settings COMMAND"), "\(group)")
            for command in ["get", "set", "add"] { #expect(group.stdout.contains("\n  \(command) "), "\(group)") }
            let set = runRigbookResult(["help", "settings", "set"], home: dir.sub("home"))
            #expect(set.status == 0 && set.stdout.contains("USAGE: rigbook settings set KEY VALUE"), "\(set)")
            #expect(set.stdout.contains("asset.declaration_reference"), "the keys are listed: \(set)")
            let alone = runRigbookResult(["settings"], home: dir.sub("home"))
            #expect(alone.status == 64 && alone.stderr.contains("USAGE: rigbook settings COMMAND"), "\(alone)")
            let overview = runRigbook(["help"], home: dir.sub("home")).stdout
            for command in ["settings get", "settings set", "settings add"] {
                #expect(overview.contains("  \(command)  "), "\(command) in the overview:\n\(overview)")
            }
            #expect(!fileExists(dir.sub("home")), "help makes no home")
        }

        @Test func getWithOnlyAnOptionPrintsThatOneSubject() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithAnAsset(dir)
            _ = runRigbook(["settings", "set", "asset.lessor", "Hire Co", "--asset", "SL-0042"], home: home)
            let asset = runRigbookResult(["settings", "get", "--asset", "sl-0042"], home: home)
            #expect(asset.status == 0, "\(asset)")
            #expect(asset.stdout.hasPrefix("[asset SL-0042]\nasset.site = Main site\nasset.lessor = Hire Co\n"),
                    "\(asset.stdout)")
            let employer = runRigbookResult(["settings", "get", "--employer", "main employer"], home: home)
            #expect(employer.status == 0 && employer.stdout.contains("employer.name = Main employer"), "\(employer)")
            let missing = runRigbookResult(["settings", "get", "--asset", "NOPE-1"], home: home)
            #expect(missing.status == 1 && missing.stderr.contains("no asset tagged NOPE-1"), "\(missing)")
        }

        @Test func getReadsWithoutMakingARegisterAndSetMakesOne() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let get = runRigbookResult(["settings", "get"], home: home)
            #expect(get.status == 1 && get.stderr.contains("there is no register"), "\(get)")
            #expect(!fileExists(home + "/Documents/register.sqlite"))
            let set = runRigbookResult(["settings", "set", "organisation.name", "Crane Checks Ltd"], home: home)
            #expect(set.status == 0, "setting up a register's particulars first starts it: \(set)")
            #expect(runRigbook(["settings", "get", "organisation.name"], home: home).stdout == "Crane Checks Ltd\n")
        }

        /// A register in a folder this user may not write: `get` still reads it, `set` fails with one line and
        /// changes nothing.
        @Test func aReadOnlyRegisterIsReadAndNeverWritten() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithAnAsset(dir)
            _ = runRigbook(["settings", "set", "employer.address", "Quay Office"], home: home)
            let documents = home + "/Documents", register = documents + "/register.sqlite"
            let before = try #require(FileManager.default.contents(atPath: register))
            defer { chmod(documents, 0o700) }
            let get = try runWithoutWriting(["settings", "get", "employer.address"], home: home, folder: documents)
            #expect(get.status == 0 && get.stdout == "Quay Office\n", "\(get)")
            let set = try runWithoutWriting(["settings", "set", "employer.address", "Elsewhere"], home: home,
                                            folder: documents)
            #expect(set.status == 1, "\(set)")
            #expect(set.stderrIsOneLine && set.stderr.hasPrefix("rigbook: "), "\(set)")
            #expect(FileManager.default.contents(atPath: register) == before, "the register file is as it was")
            let add = try runWithoutWriting(["settings", "add", "examiner", "Ann"], home: home, folder: documents)
            #expect(add.status == 1 && add.stderrIsOneLine, "\(add)")
        }
    }
}

/// Runs rigbook so that it cannot write `folder`: the folder made read-only and, since root writes anywhere,
/// run as `nobody` (owning the home) when the tests run as root.
private func runWithoutWriting(_ arguments: [String], home: String, folder: String) throws -> RunResult {
    let binary = try Binary.path()
    let environment = baseEnvironment(userHome: (home as NSString).deletingLastPathComponent + "/user-home")
    guard geteuid() == 0 else {
        chmod(folder, 0o500)
        return try runProcess(binary, ["--home", home] + arguments, environment: environment)
    }
    let nobody: uid_t = 65_534
    let owner = try runProcess("/bin/chown", ["-R", "\(nobody):\(nobody)", home], environment: environment)
    try #require(owner.status == 0, "\(owner)")
    chmod(folder, 0o500)
    let drop = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"]
    return try runProcess("/usr/bin/setpriv", drop + [binary, "--home", home] + arguments, environment: environment)
}
