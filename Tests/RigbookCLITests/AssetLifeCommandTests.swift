import Foundation
import RigbookCore
import RigbookStore
import Testing

/// Assets over their life on the built binary: asset edit and retire, import, backup, merge.
extension RigbookCLITests {
    @Suite struct AssetLifeCommandTests {
        private func addSling(_ home: String, _ tag: String = "SL-1", location: String = "Bay 4") {
            let add = runRigbookResult(["asset", "add", "--tag", tag, "--name", "2 t sling", "--type", "web-sling",
                                        "--wll", "2000", "--commissioned", "2026-01-10", "--location", location],
                                       home: home)
            #expect(add.status == 0, "\(add)")
        }

        private func assetJSON(_ home: String, retired: Bool = true) -> [[String: Any]] {
            let list = runRigbookResult(["asset", "list", "--format", "json"] + (retired ? ["--retired"] : []),
                                        home: home)
            #expect(list.status == 0, "\(list)")
            return parseAssetJSON(list.stdout)
        }

        /// Objects as comparable text: keys sorted (a dictionary's description is in no fixed order).
        private func canonical(_ objects: [[String: Any]]) -> [String] {
            objects.map { object in
                object.keys.sorted().map { "\($0)=\(object[$0]!)" }.joined(separator: ",")
            }.sorted()
        }

        private func verifies(_ home: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let verify = runRigbookResult(["verify"], home: home)
            #expect(verify.status == 0, "\(verify)", sourceLocation: sourceLocation)
        }

        @Test func editKeepsEveryChangeAndTheOldTagStillFindsTheAsset() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            addSling(home)
            let edit = runRigbookResult(["asset", "edit", "SL-1", "--location", "Bay 9", "--interval", "3",
                                         "--reason", "moved to site B"], home: home)
            #expect(edit.status == 0, "\(edit)")
            #expect(edit.stdout.contains("location Bay 4 → Bay 9; interval 6 → 3"))
            #expect(edit.stdout.contains("now due 2026-04-10 (was 2026-07-10)"), "the due date's move is said")
            let retag = runRigbookResult(["asset", "edit", "sl-1", "--tag", "SL-100", "--reason", "tag replaced"],
                                         home: home)
            #expect(retag.status == 0, "\(retag)")
            let history = runRigbookResult(["history", "SL-1", "--format", "json"], home: home)
            #expect(history.status == 0, "the old tag still finds the asset: \(history)")
            let entries = parseAssetJSON(history.stdout)
            // Newest first: the tag change, then the two fields of the first edit, in field order.
            #expect(entries.map { string($0, "field") } == ["tag", "location", "interval_months"])
            #expect(entries.allSatisfy { string($0, "kind") == "asset_change" && string($0, "asset_tag") == "SL-100" })
            let location = try #require(entries.first { string($0, "field") == "location" })
            #expect(string(location, "old_value") == "Bay 4" && string(location, "reason") == "moved to site B")
            verifies(home)
        }

        @Test func movingASlingToAnotherSiteChangesItsParticularsAndItsLocation() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            addSling(home)
            let register = try Register.open(path: DataHome(root: home).registerPath)
            let north = Site(employerUUID: Particulars.mainEmployerUUID, name: "North quay", address: "1 Quay Rd")
            try register.record(.site(north))
            let wrong = runRigbookResult(["asset", "edit", "SL-1", "--site", "South", "--location", "x",
                                          "--reason", "m"], home: home)
            #expect(wrong.status == 64 && wrong.stderr.contains("the register's sites: "), "\(wrong)")
            let move = runRigbookResult(["asset", "edit", "SL-1", "--site", "north QUAY", "--location", "Rack 3",
                                         "--reason", "moved for the refit"], home: home)
            #expect(move.status == 0, "\(move)")
            #expect(move.stdout.contains("location Bay 4 → Rack 3"))
            #expect(move.stdout.contains("Moved SL-1 from site Main site to site North quay."))
            let uuid = try #require(try register.asset(tag: "SL-1")?.asset.uuid)
            #expect(try register.particulars().asset(uuid).siteUUID == north.uuid)
            verifies(home)
        }

        @Test func siteNamesARegisterSiteWhenAddingEitherKindAndTheLocationIsFreeText() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            let lifting = ["asset", "add", "--tag", "SL-2", "--name", "1 t sling", "--type", "web-sling",
                           "--wll", "1000", "--location", "Rack 3"]
            let first = runRigbookResult(lifting + ["--site", "North quay"], home: home)
            #expect(first.status == 64 && first.stderr.contains("the register's sites: Main site"), "\(first)")
            #expect(!FileManager.default.fileExists(atPath: DataHome(root: home).registerPath),
                    "a refused name makes no register")
            addSling(home)
            let register = try Register.open(path: DataHome(root: home).registerPath)
            let north = Site(employerUUID: Particulars.mainEmployerUUID, name: "North quay", address: "1 Quay Rd")
            try register.record(.site(north))
            let sling = runRigbookResult(lifting + ["--site", "north QUAY"], home: home)
            #expect(sling.status == 0 && sling.stdout.contains("at site North quay."), "\(sling)")
            let electrical = ["asset", "add", "--kind", "electrical", "--name", "Drill", "--class", "class-1",
                              "--environment", "factory", "--location", "Site hut"]
            let drill = runRigbookResult(electrical + ["--tag", "TT-1", "--site", "North quay"], home: home)
            #expect(drill.status == 0 && drill.stdout.contains("at site North quay."), "\(drill)")
            // Free text where a site is named is no longer taken as the location: it is refused, nothing added.
            let freeText = runRigbookResult(electrical + ["--tag", "TT-2", "--site", "Site hut"], home: home)
            #expect(freeText.status == 64 && freeText.stderr.contains("the register's sites: Main site, North quay"),
                    "\(freeText)")
            #expect(try register.asset(tag: "TT-2") == nil)
            let particulars = try register.particulars()
            for (tag, location) in [("SL-2", "Rack 3"), ("TT-1", "Site hut")] {
                let row = try #require(try register.asset(tag: tag))
                #expect(particulars.asset(row.asset.uuid).siteUUID == north.uuid, "\(tag) is on the site named")
                #expect(row.asset.location == location, "\(tag) keeps --location as its location")
            }
            let main = try #require(try register.asset(tag: "SL-1"))
            #expect(particulars.asset(main.asset.uuid).siteUUID == Particulars.mainSiteUUID, "no --site: main site")
            verifies(home)
        }

        @Test func aBadEditIsBadUsageAndChangesNothing() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            addSling(home)
            addSling(home, "SL-2")
            let before = canonical(assetJSON(home))
            for arguments in [["--wll", "0", "--reason", "x"], ["--location", "Bay 1"],
                              ["--tag", "sl-2", "--reason", "x"],
                              ["--commissioned", "2030-01-01", "--reason", "x"]] {
                let edit = runRigbookResult(["asset", "edit", "SL-1"] + arguments, home: home)
                #expect(edit.status == 64, "\(arguments): \(edit)")
                #expect(edit.stderrIsOneLine)
            }
            #expect(runRigbookResult(["asset", "edit", "SL-9", "--name", "x", "--reason", "x"], home: home).status == 1)
            #expect(canonical(assetJSON(home)) == before)
        }

        @Test func aRetiredAssetLeavesTheListDueAndTheCalendarAndKeepsItsHistory() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            addSling(home, "SL-1")
            addSling(home, "SL-2")
            #expect(runRigbookResult(["asset", "edit", "SL-1", "--commissioned", "2024-01-01", "--reason", "x"],
                                     home: home).status == 0)
            #expect(runRigbookResult(["due"], home: home).stdout.contains("SL-1"), "overdue before")
            let retire = runRigbookResult(["asset", "retire", "SL-1", "--reason", "scrapped", "--note", "bent"],
                                          home: home)
            #expect(retire.status == 0, "\(retire)")
            #expect(assetJSON(home, retired: false).map { string($0, "tag") } == ["SL-2"])
            let all = assetJSON(home)
            #expect(all.first { string($0, "tag") == "SL-1" }.map { string($0, "status") } == "retired")
            #expect(!runRigbookResult(["due"], home: home).stdout.contains("SL-1"))
            #expect(!runRigbookResult(["calendar"], home: home).stdout.contains("SL-1"))
            let history = runRigbookResult(["history", "SL-1", "--format", "json"], home: home)
            #expect(parseAssetJSON(history.stdout).contains { string($0, "field") == "disposition" })
            #expect(runRigbookResult(["asset", "retire", "SL-1", "--reason", "melted"], home: home).status == 64)
            #expect(runRigbookResult(["asset", "retire", "SL-1", "--reason", "lost"], home: home).status == 1,
                    "retired already")
            verifies(home)
        }

        @Test func anImportWithBadRowsChangesNothing() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            addSling(home, "SL-1")
            let before = runRigbookResult(["verify"], home: home).stdout
            let file = dir.sub("client.csv")
            try Data(("\u{FEFF}tag,name,type,wll_kg,location,status\r\n"
                      + "SH-1,\"Shackle, 1 t\",shackle,1000,Quay,ok\r\n"
                      + "SH-2,bad,shackle,heavy,Quay,\r\n"
                      + "sl-1,dup,hook,5,,\r\n").utf8).write(to: URL(fileURLWithPath: file))
            let refused = runRigbookResult(["import", file], home: home)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("line 3, wll_kg: "))
            #expect(refused.stderr.contains("nothing was imported"))
            let clash = runRigbookResult(["import", file.replacingOccurrences(of: "client", with: "none")], home: home)
            #expect(clash.status == 1)
            try Data("tag,name,type,wll_kg\nSH-1,Shackle,shackle,1000\nsl-1,dup,hook,5\n".utf8)
                .write(to: URL(fileURLWithPath: file))
            let registered = runRigbookResult(["import", file], home: home)
            #expect(registered.status == 1 && registered.stderr.contains("line 3, tag: an asset tagged SL-1"))
            #expect(runRigbookResult(["verify"], home: home).stdout == before, "nothing was written")
            try Data("tag,name,type,wll_kg,colour\n".utf8).write(to: URL(fileURLWithPath: file))
            let unknown = runRigbookResult(["import", file], home: home)
            #expect(unknown.status == 1 && unknown.stderr.contains("unknown column 'colour'"))
        }

        @Test func aTagThatLooksLikeOneHeldIsRefusedByAddEditAndImportNamingIt() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            addSling(home, "SL-0042")
            addSling(home, "SL-0043")
            let cyrillic = "\u{405}L-0042", fullwidth = "\u{FF33}\u{FF2C}-0042"
            let lifting = runRigbookResult(["asset", "add", "--tag", cyrillic, "--name", "2 t sling", "--type",
                                            "web-sling", "--wll", "2000"], home: home)
            let electrical = runRigbookResult(["asset", "add", "--kind", "electrical", "--tag", fullwidth, "--name",
                                               "Drill", "--class", "class-1", "--environment", "factory"], home: home)
            let edit = runRigbookResult(["asset", "edit", "SL-0043", "--tag", cyrillic, "--reason", "relabelled"],
                                        home: home)
            for (refused, tag) in [(lifting, cyrillic), (electrical, fullwidth), (edit, cyrillic)] {
                #expect(refused.status == 64, "\(refused)")
                #expect(refused.stderr.contains("\(tag) looks like SL-0042, already in the register"), "\(refused)")
            }
            let file = dir.sub("client.csv")
            try Data("tag,name,type,wll_kg\nSH-1,Shackle,shackle,1000\n\(fullwidth),Sling,web-sling,5\n".utf8)
                .write(to: URL(fileURLWithPath: file))
            let imported = runRigbookResult(["import", file], home: home)
            #expect(imported.status == 1, "\(imported)")
            #expect(imported.stderr.contains("line 3, tag: \(fullwidth) looks like SL-0042, already in the register"),
                    "\(imported)")
            #expect(assetJSON(home).compactMap { string($0, "tag") }.sorted() == ["SL-0042", "SL-0043"])
        }

        @Test func anImportGoesInWholeAndADryRunWritesNothing() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            let file = dir.sub("client.csv")
            var text = "tag,name,type,wll_kg,commissioned,lifts_persons,interval_months\n"
            for i in 1...300 { text += "CS-\(i),Chain sling \(i),chain-sling,\(1000 + i),2026-02-01,false,\n" }
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let dry = runRigbookResult(["import", file, "--dry-run"], home: home)
            #expect(dry.status == 0, "\(dry)")
            #expect(dry.stdout.contains("Would import 300 assets"))
            #expect(!fileExists(home), "the dry run made the home (and a register) it reported on")
            let done = runRigbookResult(["import", file], home: home)
            #expect(done.status == 0 && done.stdout.contains("Imported 300 assets"), "\(done)")
            #expect(assetJSON(home).count == 300)
            verifies(home)
        }

        /// A dry run on a home that has no register yet made one (and its folders): it must make nothing on disk,
        /// and still say what it would do, and that a real run would make the register.
        @Test func dryRunsOnAHomeWithoutARegisterMakeNothing() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            let file = dir.sub("client.csv")
            try Data("tag,name,type,wll_kg\nSH-1,Shackle,shackle,1000\nHK-2,Hook,hook,500\n".utf8)
                .write(to: URL(fileURLWithPath: file))
            let laptop = dir.sub("laptop")
            addSling(laptop, "SL-1")
            let other = DataHome(root: laptop).registerPath
            for folderExists in [false, true] {
                if folderExists {
                    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
                }
                let imported = runRigbookResult(["import", file, "--dry-run"], home: home)
                #expect(imported.status == 0, "\(imported)")
                #expect(imported.stdout.hasPrefix("There is no register in \(home) yet: importing would make one"),
                        "\(imported)")
                #expect(imported.stdout.contains("line 3: would add HK-2"), "\(imported)")
                #expect(imported.stdout.contains("Would import 2 assets"), "\(imported)")
                let merged = runRigbookResult(["merge", other, "--dry-run"], home: home)
                #expect(merged.status == 0, "\(merged)")
                #expect(merged.stdout.hasPrefix("There is no register in \(home) yet: merging would make one"),
                        "\(merged)")
                #expect(merged.stdout.contains("Would merge 1 asset"), "\(merged)")
                #expect(merged.stdout.contains("nothing was written (dry run)"), "\(merged)")
                // Nothing made: no home where there was none, and nothing in the one that was there.
                if folderExists {
                    #expect(try FileManager.default.contentsOfDirectory(atPath: home).isEmpty)
                } else {
                    #expect(!fileExists(home), "a dry run made the data home")
                }
            }
            // The real runs make the register, as before.
            #expect(runRigbookResult(["import", file], home: home).status == 0)
            #expect(assetJSON(home).count == 2)
        }

        @Test func aBackupTakenWhileAnotherProcessSavesIsAWholeRegister() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            addSling(home, "SL-0")
            // Another process adds assets one transaction at a time while backups are taken.
            let binary = try Binary.path()
            let script = "for i in $(seq 1 60); do \"$0\" --home \"$1\" asset add --tag W-$i --name w "
                + "--type hook --wll 10 >/dev/null || exit 9; done; touch \"$1.done\""
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/bin/sh")
            writer.arguments = ["-c", script, binary, home]
            var environment = baseEnvironment(userHome: dir.sub("user-home"))
            environment["RIGBOOK_TODAY"] = fixedToday
            writer.environment = environment
            try writer.run()
            var backups: [String] = []
            repeat {
                let target = dir.sub("backup-\(backups.count).sqlite")
                let backup = runRigbookResult(["backup", target], home: home)
                #expect(backup.status == 0, "\(backup)")
                backups.append(target)
            } while !fileExists(home + ".done") && writer.isRunning && backups.count < 50
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
            for (index, backup) in backups.enumerated() {
                var info = stat()
                #expect(stat(backup, &info) == 0 && info.st_mode & 0o777 == 0o600)
                // Opened as a register like any other: one moment of it, whole, its chain whole.
                let copyHome = dir.sub("restored-\(index)")
                try FileManager.default.createDirectory(atPath: copyHome + "/Documents",
                                                        withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: backup, toPath: copyHome + "/Documents/register.sqlite")
                let count = assetJSON(copyHome).count
                #expect((1...61).contains(count))
                verifies(copyHome)
            }
            #expect(assetJSON(home).count == 61)
            let refused = runRigbookResult(["backup", backups[0]], home: home)
            #expect(refused.status == 1 && refused.stderr.contains("already exists"))
            #expect(runRigbookResult(["backup", backups[0], "--force"], home: home).status == 0)
        }

        @Test func mergingLaptopsBringsTheirWorkOnceAndEitherWayGivesTheSameRegister() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let office = dir.sub("office"), laptop = dir.sub("laptop")
            #expect(runRigbookResult(["sample", "--assets", "30", "--seed", "3"], home: office).status == 0)
            let officeFile = DataHome(root: office).registerPath, laptopFile = DataHome(root: laptop).registerPath
            let first = runRigbookResult(["merge", officeFile], home: laptop)
            #expect(first.status == 0, "\(first)")
            #expect(first.stdout.contains("30 assets"))
            let tags = assetJSON(office).compactMap { string($0, "tag") }
            // Both sides work apart: the same field changed on both, other assets added, one retired.
            #expect(runRigbookResult(["asset", "edit", tags[0], "--location", "Office yard", "--reason", "a"],
                                     home: office).status == 0)
            #expect(runRigbookResult(["asset", "edit", tags[0], "--location", "Laptop van", "--reason", "b"],
                                     home: laptop).status == 0)
            addSling(office, "OF-1")
            addSling(laptop, "LP-1")
            #expect(runRigbookResult(["asset", "retire", tags[1], "--reason", "lost"], home: laptop).status == 0)
            let officeCopy = dir.sub("office-copy.sqlite")
            #expect(runRigbookResult(["backup", officeCopy], home: office).status == 0)
            let intoOffice = runRigbookResult(["merge", laptopFile], home: office)
            #expect(intoOffice.status == 0, "\(intoOffice)")
            #expect(intoOffice.stdout.contains("changed on both: \(tags[0]) location"))
            #expect(intoOffice.stdout.contains("Laptop van holds"))
            let again = runRigbookResult(["merge", laptopFile], home: office)
            #expect(again.stdout.contains("Nothing to merge"), "\(again)")
            #expect(runRigbookResult(["merge", officeCopy], home: laptop).status == 0)
            #expect(canonical(assetJSON(office)) == canonical(assetJSON(laptop)))
            func records(_ home: String) -> [String] {
                let export = runRigbookResult(["export", "--format", "csv", "--table", "records"], home: home)
                return export.stdout.split(separator: "\r\n")
                    .map { String($0.split(separator: ",").dropFirst().joined()) }
                    .sorted()
            }
            #expect(records(office) == records(laptop), "the same records")
            verifies(office)
            verifies(laptop)
        }

        @Test func theSameTagOnTwoAssetsStopsTheMergeBeforeAnythingIsWritten() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let office = dir.sub("office"), laptop = dir.sub("laptop")
            addSling(office, "SL-7")
            addSling(laptop, "sl-7")
            addSling(laptop, "SL-8")
            let before = runRigbookResult(["verify"], home: office).stdout
            let merge = runRigbookResult(["merge", DataHome(root: laptop).registerPath], home: office)
            #expect(merge.status == 1, "\(merge)")
            #expect(merge.stderr.contains("the same tag would be on two assets: "))
            #expect(merge.stderr.contains("SL-7") && merge.stderr.contains("sl-7"))
            #expect(merge.stderr.contains("nothing was merged"))
            #expect(runRigbookResult(["verify"], home: office).stdout == before)
            #expect(assetJSON(office).count == 1)
            let missing = runRigbookResult(["merge", dir.sub("nowhere.sqlite")], home: office)
            #expect(missing.status == 1 && missing.stderrIsOneLine, "\(missing)")
        }

        /// A laptop given a byte copy of the office register gives out the office's report numbers: the merge is
        /// refused, and says that the file is a copy and what to do, not only which numbers clash.
        @Test func aMergeRefusedBecauseTheOtherIsACopySaysSoAndWhatToDo() throws {
            let office = CertificateHome(), laptop = CertificateHome()
            defer { office.remove(); laptop.remove() }
            office.addAsset("SL-1", "2 t web sling")
            try office.recordParticulars()
            try office.addRecord("SL-1", CertificateValues.pass(on: "2026-11-20"))
            try FileManager.default.createDirectory(atPath: laptop.path + "/Documents",
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: office.registerPath, toPath: laptop.registerPath)
            try office.addRecord("SL-1", CertificateValues.pass(on: "2026-11-25"))
            try laptop.addRecord("SL-1", CertificateValues.pass(on: "2026-11-26"))

            let merge = office.run(["merge", laptop.registerPath])
            #expect(merge.status == 1, "\(merge)")
            let lines = merge.stderr.split(separator: "\n").map(String.init)
            let why = try #require(lines.first, "\(merge)")
            #expect(why.hasPrefix("rigbook: \(laptop.registerPath) is a copy of this register (same identity "),
                    "\(merge)")
            #expect(why.contains("a register of its own") && why.contains("merge \(office.registerPath)"), "\(merge)")
            #expect(lines.contains { $0.hasPrefix("rigbook: report number ") }, "the clash is still named: \(merge)")
            #expect(lines.last == "rigbook: nothing was merged.", "\(merge)")
            #expect(merge.stdout.isEmpty, "\(merge)")
        }

        /// After a merge kept two amendments of one record, `history` heads the asset with the full-screen
        /// history's warning, in the table and in JSON, and the amendment that does not stand is not said to be
        /// superseded by the other (which amends the original, not it).
        @Test func historyWarnsOfConflictingAmendmentsAsTheFullScreenDoes() throws {
            let office = CertificateHome(), laptop = CertificateHome()
            defer { office.remove(); laptop.remove() }
            office.addAsset("SL-1", "2 t web sling")
            try office.recordParticulars()
            let originalID = try office.addRecord("SL-1", CertificateValues.pass(on: "2026-11-20"))
            let original = try office.record(originalID)
            // The laptop's register is its own (its own identity), with the office's record merged in.
            let first = laptop.run(["merge", office.registerPath])
            #expect(first.status == 0, "\(first)")
            func amendment(_ notes: String) -> InspectionValues {
                var values = CertificateValues.pass(on: "2026-11-20")
                values.notes = notes
                values.amendmentReason = "Corrected the notes"
                return values
            }
            try office.addRecord("SL-1", amendment("amended in the office"), amending: original)
            let onLaptop = try laptop.record(originalID)
            #expect(onLaptop.recordUUID == original.recordUUID)
            try laptop.addRecord("SL-1", amendment("amended on the laptop"), amending: onLaptop)
            let merge = office.run(["merge", laptop.registerPath])
            #expect(merge.status == 0 && merge.stdout.contains("conflicting amendments: SL-1"), "\(merge)")

            let json = office.run(["history", "SL-1", "--format", "json"])
            #expect(json.status == 0, "\(json)")
            let entries = e2eJSONArray(json.stdout)
            let records = entries.filter { $0["kind"] == nil }
            let heads = records.filter { $0["amends"] as? Int == Int(originalID) }
                .compactMap { $0["id"] as? Int }.sorted()
            #expect(heads.count == 2, "\(json.stdout)")
            let warning = "⚠ #\(heads[0]) and #\(heads[1]) both amend #\(originalID): A on one supersedes both"
            let conflict = try #require(entries.first, "\(json.stdout)")
            #expect(string(conflict, "kind") == "conflicting_amendments", "\(json.stdout)")
            #expect(string(conflict, "warning") == warning, "\(json.stdout)")
            #expect(conflict["heads"] as? [Int] == heads, "\(json.stdout)")
            let stands = try #require(conflict["stands"] as? Int, "\(json.stdout)")
            let loser = try #require(heads.first { $0 != stands })
            // The amendment that does not stand is outranked, not superseded: the one that stands amends another.
            let losing = try #require(entries.first { ($0["id"] as? Int) == loser && $0["kind"] == nil })
            #expect(losing["superseded_by"] is NSNull, "\(json.stdout)")
            #expect(losing["outranked_by"] as? Int == stands, "\(json.stdout)")

            let table = office.run(["history", "SL-1"])
            #expect(table.status == 0, "\(table)")
            let lines = table.stdout.split(separator: "\n").map(String.init)
            #expect(lines.dropFirst().first == warning, "\(table.stdout)")
            let loserRow = try #require(lines.first { $0.hasPrefix("#\(loser) ") }, "\(table.stdout)")
            let cells = loserRow.split(separator: /\s{2,}/).map(String.init)
            #expect(cells.last == "#\(stands) stands", "\(table.stdout)")
        }
    }
}
