import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

/// In the store: import, backup, merge.
@Suite("Import, backup and merge")
struct ImportBackupMergeTests {
    static let header = "tag,name,type,wll_kg,length_m,location,interval_months,lifts_persons,status,uuid\n"

    @Test("a spreadsheet with BOM, CRLF, quoted commas and newlines and formula guards reads as typed")
    func spreadsheetReads() throws {
        let text = "\u{FEFF}tag,name,type,wll_kg,location,serial_number\r\n"
            + "SL-1,\"2 t sling, blue\",web-sling,2000,\"Bay 1\nrack 2\",'-SN0\r\n"
            + "'=SH-2,Shackle,Shackle,'+500,Quay,\r\n"
        let rows = try AssetImport.parse(text, today: testToday).get()
        #expect(rows.map(\.asset.tag) == ["SL-1", "=SH-2"])
        #expect(rows[0].asset.name == "2 t sling, blue")
        #expect(rows[0].asset.location == "Bay 1 rack 2", "a line break in a one-line field is a space, as pasted")
        #expect(rows[0].asset.serialNumber == "-SN0")
        #expect(rows[1].asset.type == .shackle && rows[1].asset.wllKg == 500)
        #expect(rows.map(\.line) == [2, 4], "a record's line is where it starts")
    }

    @Test("problems are reported per line and column; unknown columns by name")
    func problemsPerLine() throws {
        let bad = Self.header + "SL-1,ok,web-sling,2000,,,,,ok,\nSL-2,,web-sling,heavy,,,,,,\nsl-1,dup,hook,5,,,,,,\n"
        guard case .failure(let problems) = AssetImport.parse(bad, today: testToday) else {
            Issue.record("accepted a bad file"); return
        }
        let text = problems.items.map(\.description)
        #expect(text.contains("line 3, name: The name must not be empty."))
        #expect(text.contains { $0.hasPrefix("line 3, wll_kg: ") })
        #expect(text.contains("line 4, tag: sl-1 is also on line 2"))
        guard case .failure(let unknown) = AssetImport.parse("tag,name,type,wll_kg,colour,size\n", today: testToday)
        else { Issue.record("accepted unknown columns"); return }
        #expect(unknown.items.map(\.description) == ["line 1: unknown columns 'colour', 'size'; the columns are"
                                                     + " those of `rigbook asset list --format csv`"])
    }

    @Test("an import goes in whole or not at all; a tag already in the register refuses it all")
    func importIsAllOrNothing() throws {
        try withRegister(holding: makeAsset(tag: "SL-9")) { register, _ in
            let rows = try AssetImport.parse(Self.header + "SL-1,a,web-sling,2000,,,,,,\nSL-9,b,hook,5,,,,,,\n",
                                             today: testToday).get()
            #expect(throws: RegisterError.importRefused(
                ["line 3, tag: an asset tagged SL-9 is already in the register"])) {
                try register.importAssets(rows)
            }
            #expect(try register.assetCount() == 1)
            let good = try AssetImport.parse(Self.header + "SL-1,a,web-sling,2000,,,,,,\n", today: testToday).get()
            #expect(try register.importAssets(good, dryRun: true) == 1)
            #expect(try register.assetCount() == 1, "a dry run keeps nothing")
            #expect(try register.importAssets(good) == 1)
            #expect(try register.assetCount() == 2)
            #expect(try register.verifyChain().problem == nil)
        }
    }

    @Test("a uuid column is the asset's identity")
    func uuidColumnIsIdentity() throws {
        try withRegister(holding: makeAsset(tag: "SL-9")) { register, _ in
            let uuid = UUID()
            let rows = try AssetImport.parse(Self.header
                                             + "SL-1,a,web-sling,2000,,,,,,\(uuid.uuidString.lowercased())\n",
                                             today: testToday).get()
            try register.importAssets(rows)
            #expect(try register.asset(uuid: uuid)?.asset.tag == "SL-1")
        }
    }

    @Test("a backup is a whole register in one private file; an existing file is not replaced without force")
    func backupIsWholeAndPrivate() throws {
        try withRegister(holding: makeAsset()) { register, asset in
            try register.insert(try validated(passingValues(on: "2026-03-01"), for: asset), saved: testStamp)
            // Beside Documents, not in it: Documents holds only Rigbook's own files.
            let folder = ((register.path as NSString).deletingLastPathComponent as NSString)
                .deletingLastPathComponent + "/Backups"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let target = folder + "/backup.sqlite"
            let report = try register.backup(to: target)
            #expect(report.assets == 1 && report.records == 1)
            #expect(permissions(target) == 0o600)
            #expect(!FileManager.default.fileExists(atPath: target + "-wal"))
            do {
                let copy = try Register.open(path: target)
                #expect(try copy.recordCount() == 1)
                #expect(try copy.verifyChain() == (try register.verifyChain()))
                // Open in a session: never replaced, not even with force (it would corrupt under the session).
                let refused = #expect(throws: RegisterError.self) { try register.backup(to: target, replacing: true) }
                #expect(refused?.description.contains("open") == true, "\(String(describing: refused))")
                // Hostile testing: the refusal said why but not what to do, and nothing against deleting the -wal.
                #expect(refused?.description.contains("Close that session, or back up to another FILE; "
                                                      + "do not delete backup.sqlite-wal") == true,
                        "\(String(describing: refused))")
            }
            #expect(throws: RegisterError.self) { try register.backup(to: target) }
            #expect(try register.backup(to: target, replacing: true).records == 1)
            // Another register is somebody's evidence, not an earlier backup: never replaced.
            let other = folder + "/other.sqlite"
            do { _ = try Register.open(path: other) }
            let otherBytes = try Data(contentsOf: URL(fileURLWithPath: other))
            let another = #expect(throws: RegisterError.self) { try register.backup(to: other, replacing: true) }
            #expect(another?.description.contains("another register") == true, "\(String(describing: another))")
            #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBytes)
            let foreign = folder + "/notes.txt"
            try Data("not a register".utf8).write(to: URL(fileURLWithPath: foreign))
            #expect(throws: RegisterError.self) { try register.backup(to: foreign, replacing: true) }
            #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "not a register")
            #expect(throws: RegisterError.self) { try register.backup(to: register.path, replacing: true) }
            #expect(folderListing(folder).filter { $0.contains(".backup-") }.isEmpty, "no temp file left")
        }
    }
}

/// Two laptops' registers brought together.
@Suite("Merging registers")
struct MergeTests {
    /// Two registers in one folder: A with `SL-1` and a record, B made from A by a merge.
    private func laptops(_ folder: URL) throws -> (a: Register, b: Register, asset: Asset) {
        let a = try Register.open(path: folder.appendingPathComponent("a.sqlite").path)
        let b = try Register.open(path: folder.appendingPathComponent("b.sqlite").path)
        let asset = makeAsset(tag: "SL-1", commissioned: "2024-01-10")
        try a.addAsset(asset)
        try a.insert(try validated(passingValues(on: "2026-01-10"), for: asset), saved: testStamp)
        try b.merge(from: try Register.openForMerging(path: a.path))
        return (a, b, asset)
    }

    private func snapshot(_ register: Register) throws -> [String] {
        let assets = try register.rows(includingRetired: true).map { row in
            "\(row.asset) \(row.status(on: testToday))"
        }
        var records: [String] = []
        try register.forEachRecord { records.append("\($0.recordUUID) \($0.recordHash ?? "")") }
        return assets.sorted() + records.sorted()
    }

    @Test("a merge brings assets, records and changes with their hashes; verify passes; twice changes nothing")
    func mergeIsWholeAndIdempotent() throws {
        try withTemporaryDirectory { folder in
            let (a, b, asset) = try laptops(folder)
            #expect(try b.history(assetUUID: asset.uuid).count == 1)
            #expect(try b.verifyChain().problem == nil)
            try b.insert(try validated(passingValues(on: "2026-03-01"), for: asset), saved: testStamp)
            var moved = asset
            moved.location = "Quay 2"
            try b.change(assetUUID: asset.uuid, to: moved, reason: "moved", stamp: testStamp)
            let report = try a.merge(from: try Register.openForMerging(path: b.path))
            #expect(report.records == 1 && report.assetChanges == 1 && report.assets == 0)
            #expect(try a.asset(uuid: asset.uuid)?.asset.location == "Quay 2")
            #expect(try a.verifyChain().problem == nil)
            let before = try snapshot(a)
            let again = try a.merge(from: try Register.openForMerging(path: b.path))
            #expect(again.entries == 0)
            #expect(try snapshot(a) == before)
        }
    }

    @Test("a new laptop's blank main employer and site never replace the office's addresses")
    func freshRegisterKeepsTheOfficesParticulars() throws {
        try withTemporaryDirectory { folder in
            let office = try Register.open(path: folder.appendingPathComponent("office.sqlite").path)
            for change in TestParticulars.changes { try office.record(change) }
            let laptop = try Register.open(path: folder.appendingPathComponent("laptop.sqlite").path)
            try laptop.addAsset(makeAsset(tag: "LAP-1"))
            try office.merge(from: try Register.openForMerging(path: laptop.path))
            let particulars = try office.particulars()
            #expect(particulars.employers[Particulars.mainEmployerUUID]?.address
                    == "Quay Office, Harbour Road, Testport")
            #expect(particulars.sites[Particulars.mainSiteUUID]?.address == "Harbour Road, Testport")
            // And the other way: the laptop takes the office's later versions.
            try laptop.merge(from: try Register.openForMerging(path: office.path))
            #expect(try laptop.particulars() == particulars)
        }
    }

    @Test("merging A into B and B into A gives the same assets, records and statuses")
    func mergeIsSymmetric() throws {
        try withTemporaryDirectory { folder in
            let (a, b, asset) = try laptops(folder)
            try a.addAsset(makeAsset(tag: "SL-2"))
            try b.addAsset(makeAsset(tag: "SL-3"))
            var heavier = asset
            heavier.wllKg = 2500
            try a.change(assetUUID: asset.uuid, to: heavier, reason: "a",
                         stamp: SaveStamp(savedAt: "2026-03-10T10:00:00.000Z", operatorName: "ann"))
            var lighter = asset
            lighter.wllKg = 1500
            try b.change(assetUUID: asset.uuid, to: lighter, reason: "b",
                         stamp: SaveStamp(savedAt: "2026-03-11T10:00:00.000Z", operatorName: "bob"))
            try b.insert(try validated(failingValues(on: "2026-03-02"), for: asset), saved: testStamp)
            let copyOfA = folder.appendingPathComponent("a-copy.sqlite").path
            try a.backup(to: copyOfA)
            let intoA = try a.merge(from: try Register.openForMerging(path: b.path))
            #expect(intoA.fieldConflicts.count == 1)
            #expect(intoA.fieldConflicts.first?.contains("1500 holds") == true, "\(intoA.fieldConflicts)")
            try b.merge(from: try Register.openForMerging(path: copyOfA))
            #expect(try snapshot(a) == (try snapshot(b)))
            #expect(try a.asset(uuid: asset.uuid)?.asset.wllKg == 1500)
            #expect(try a.assetChanges(assetUUID: asset.uuid).count == 2, "both changes stay in the history")
            #expect(try a.verifyChain().problem == nil)
            #expect(try b.verifyChain().problem == nil)
        }
    }

    @Test("the same tag on two assets stops the merge before anything is written")
    func tagClashStops() throws {
        try withTemporaryDirectory { folder in
            let (a, b, _) = try laptops(folder)
            try a.addAsset(makeAsset(tag: "SH-7"))
            try b.addAsset(makeAsset(tag: "sh-7"))
            let before = try FileState(path: a.path)
            #expect {
                try a.merge(from: try Register.openForMerging(path: b.path))
            } throws: { error in
                guard case RegisterError.mergeRefused(let problems) = error else { return false }
                return problems.count == 1 && problems[0].contains("SH-7") && problems[0].contains("sh-7")
            }
            #expect(try FileState(path: a.path).bytes == before.bytes)
            #expect(try a.assetCount() == 2)
        }
    }

    @Test("the same report number on two records (registers cloned from one file) stops the merge, saying why")
    func reportNumberClashStops() throws {
        try withTemporaryDirectory { folder in
            let (a, _, asset) = try laptops(folder)
            let clone = folder.appendingPathComponent("clone.sqlite").path
            try a.backup(to: clone)
            let c = try Register.open(path: clone)
            try a.insert(try validated(passingValues(on: "2026-03-01"), for: asset), saved: testStamp)
            try c.insert(try validated(passingValues(on: "2026-03-02"), for: asset), saved: testStamp)
            #expect {
                try a.merge(from: try Register.openForMerging(path: clone))
            } throws: { error in
                guard case RegisterError.mergeRefused(let problems) = error else { return false }
                // First what the clashes come from (the clone is a copy) and what to do, then each clash.
                return problems.first?.hasPrefix("\(clone) is a copy of this register (same identity ") == true
                    && problems.count > 1 && problems.dropFirst().allSatisfy { $0.hasPrefix("report number ") }
            }
            #expect(try a.recordCount() == 2)
        }
    }

    @Test("two amendments of one record made apart are both kept and flag the asset")
    func conflictingAmendmentsAreFlagged() throws {
        try withTemporaryDirectory { folder in
            let (a, b, asset) = try laptops(folder)
            let original = try #require(try a.history(assetUUID: asset.uuid).first)
            var fix = passingValues(on: "2026-01-10")
            fix.notes = "amended on A"
            try a.insert(try validated(fix, for: asset, amending: original), saved: testStamp)
            let onB = try #require(try b.history(assetUUID: asset.uuid).first)
            fix.notes = "amended on B"
            try b.insert(try validated(fix, for: asset, amending: onB), saved: testStamp)
            let report = try a.merge(from: try Register.openForMerging(path: b.path))
            #expect(report.conflictingAmendments == ["SL-1"])
            #expect(try a.hasConflictingAmendments(asset.uuid))
            #expect(try a.history(assetUUID: asset.uuid).count == 3)
            #expect(try a.verifyChain().problem == nil)
        }
    }

    /// The issue: each register chose its "current" amendment by its own row ids, so after merging both ways the
    /// two registers' statuses and certificates differed. Saved at the same instant, the uuid decides, alike.
    @Test("conflicting amendments: both registers, merged either way, stand by the same amendment")
    func conflictingAmendmentsStandAlikeOnBothRegisters() throws {
        try withTemporaryDirectory { folder in
            let (a, b, asset) = try laptops(folder)
            let original = try #require(try a.history(assetUUID: asset.uuid).first)
            var passed = passingValues(on: "2026-01-10")
            passed.notes = "amended on A"
            try a.insert(try validated(passed, for: asset, amending: original), saved: testStamp)
            var dangerous = failingValues(on: "2026-01-10", action: .withdraw)
            dangerous.notes = "amended on B"
            try b.insert(try validated(dangerous, for: asset, amending: original), saved: testStamp)
            let copyOfA = folder.appendingPathComponent("a-copy.sqlite").path
            try a.backup(to: copyOfA)
            try a.merge(from: try Register.openForMerging(path: b.path))
            try b.merge(from: try Register.openForMerging(path: copyOfA))

            // Both amendments are kept on both, the conflict is flagged on both, and one of them stands on both.
            for register in [a, b] {
                #expect(try register.history(assetUUID: asset.uuid).count == 3)
                #expect(try register.hasConflictingAmendments(asset.uuid))
            }
            func standing(_ register: Register) throws -> [String] {
                try register.history(assetUUID: asset.uuid).map { record in
                    let by: UUID? = record.supersededByUUID ?? record.outrankedByUUID
                    return "\(record.recordUUID) counts \(record.counts) by \(by?.uuidString ?? "-")"
                }.sorted()
            }
            #expect(try standing(a) == standing(b))
            let history = try a.history(assetUUID: asset.uuid)
            let heads = history.filter { $0.amends != nil }
            let stands = try #require(heads.max { $0.recordUUID.uuidString < $1.recordUUID.uuidString })
            #expect(history.filter(\.counts).map(\.recordUUID) == [stands.recordUUID])
            #expect(history.first { $0.id == original.id }?.supersededByUUID == stands.recordUUID)
            // The status folds only the amendment that stands, so it is the same on both.
            let row = try #require(try a.asset(uuid: asset.uuid))
            #expect(row.summary.recordCount == 1)
            #expect(row.summary.latestResult == stands.values.result)
            #expect(try snapshot(a) == snapshot(b))
            // The certificate of the asset (its latest thorough examination that counts) is the same record.
            #expect(try a.latestThoroughExaminations()[asset.uuid]?.recordUUID == stands.recordUUID)
            #expect(try b.latestThoroughExaminations()[asset.uuid]?.recordUUID == stands.recordUUID)
            for register in [a, b] {
                var exported: [UUID: UUID?] = [:]
                try register.forEachRecord { record in
                    let standsInstead: UUID? = record.supersededByUUID ?? record.outrankedByUUID
                    exported[record.recordUUID] = standsInstead
                }
                #expect(exported[stands.recordUUID] == .some(nil))
                #expect(exported.values.filter { $0 == stands.recordUUID }.count == 2, "the original and the other")
            }
        }
    }

    @Test("an amendment of either conflicting amendment supersedes both, on both registers once merged")
    func amendingOneHeadSettlesTheConflict() throws {
        try withTemporaryDirectory { folder in
            let (a, b, asset) = try laptops(folder)
            let original = try #require(try a.history(assetUUID: asset.uuid).first)
            var fix = passingValues(on: "2026-01-10")
            fix.notes = "amended on A"
            try a.insert(try validated(fix, for: asset, amending: original), saved: testStamp)
            let onB = try #require(try b.history(assetUUID: asset.uuid).first)
            var dangerous = failingValues(on: "2026-01-10")
            dangerous.notes = "amended on B"
            try b.insert(try validated(dangerous, for: asset, amending: onB), saved: testStamp)
            try a.merge(from: try Register.openForMerging(path: b.path))
            #expect(try a.hasConflictingAmendments(asset.uuid))

            // The examiner settles it on A: amends A's amendment, which supersedes B's too.
            let heads = try a.history(assetUUID: asset.uuid).filter { $0.amends != nil && $0.supersededBy == nil }
            #expect(heads.count == 2)
            let mine = try #require(heads.first { $0.values.notes == "amended on A" })
            let theirs = try #require(heads.first { $0.values.notes == "amended on B" })
            var settled = passingValues(on: "2026-01-10")
            settled.notes = "settled: the sling passed"
            let id = try a.insert(try validated(settled, for: asset, amending: mine), saved: testStamp)
            #expect(!(try a.hasConflictingAmendments(asset.uuid)))
            let history = try a.history(assetUUID: asset.uuid)
            let settling = try #require(history.first { $0.id == id })
            #expect(settling.alsoAmendsUUIDs == [theirs.recordUUID])
            #expect(settling.alsoAmends == [theirs.id])
            #expect(history.first { $0.id == theirs.id }?.supersededBy == id)
            // Only the settling record counts: B's dangerous fail no longer holds the asset out of use.
            let row = try #require(try a.rows().first { $0.asset.uuid == asset.uuid })
            #expect(row.summary.recordCount == 1 && row.summary.latestResult == .pass)
            #expect(try a.verifyChain().problem == nil)
            // Amending a superseded head again is refused, as for any superseded record.
            #expect(throws: RegisterError.self) {
                try a.insert(try validated(passingValues(on: "2026-01-10"), for: asset, amending: theirs),
                             saved: testStamp)
            }

            // Merged back, B is settled too, with the same status.
            try b.merge(from: try Register.openForMerging(path: a.path))
            #expect(!(try b.hasConflictingAmendments(asset.uuid)))
            #expect(try b.verifyChain().problem == nil)
            #expect(try snapshot(a) == snapshot(b))
        }
    }

    @Test("particulars changed at the same instant on two registers read alike on both once merged")
    func particularsTiesGoByEntryUUID() throws {
        try withTemporaryDirectory { folder in
            let (a, b, _) = try laptops(folder)
            let stamp = SaveStamp(savedAt: "2026-06-01T09:00:00.000Z", appVersion: "0.1.0-test", operatorName: "t")
            try a.record(.employer(Employer(uuid: Particulars.mainEmployerUUID, name: "Quay Ltd")), stamp: stamp)
            try b.record(.employer(Employer(uuid: Particulars.mainEmployerUUID, name: "Harbour plc")), stamp: stamp)
            try a.merge(from: try Register.openForMerging(path: b.path))
            try b.merge(from: try Register.openForMerging(path: a.path))
            let onA = try a.particulars().employers[Particulars.mainEmployerUUID]?.name
            #expect(onA == (try b.particulars().employers[Particulars.mainEmployerUUID]?.name))
            #expect(["Quay Ltd", "Harbour plc"].contains(onA ?? ""))
            // One register's own versions of one instant: the later one holds (it is kept a millisecond later).
            try a.record(.employer(Employer(uuid: Particulars.mainEmployerUUID, name: "First")), stamp: stamp)
            try a.record(.employer(Employer(uuid: Particulars.mainEmployerUUID, name: "Second")), stamp: stamp)
            #expect(try a.particulars().employers[Particulars.mainEmployerUUID]?.name == "Second")
            #expect(try a.particularsHistory(subject: Particulars.mainEmployerUUID).last?.changedAt
                    == "2026-06-01T09:00:00.002Z")
            #expect(try a.verifyChain().problem == nil)
        }
    }

    @Test("electrical tests and their attachments come across with a merge, both ways, once")
    func electricalTestsAreMerged() throws {
        try withTemporaryDirectory { folder in
            let (a, b, _) = try laptops(folder)
            let drill = Asset.electrical(tag: "EL-1", name: "Drill", site: "Workshop",
                                         particulars: ElectricalParticulars(equipmentClass: .classI,
                                                                            environment: .factory),
                                         commissioned: CalendarDate(iso: "2025-01-10"))
            try b.addAsset(drill)
            try b.insert(test: try ElectricalTestStoreTests.validated(drill, date: "2026-11-20", earth: "2.5",
                                                                      notes: "earth open"))
            let report = try a.merge(from: try Register.openForMerging(path: b.path))
            #expect(report.electricalTests == 1 && report.attachments == 1, "\(report)")
            let tests = try a.tests(assetUUID: drill.uuid)
            #expect(tests.count == 1 && tests.first?.passed == false)
            #expect(try a.attachments(recordUUID: try #require(tests.first).testUUID).count == 1)
            let row = try #require(try a.asset(uuid: drill.uuid))
            #expect(row.status(on: testToday).status == .doNotUse, "the failed test holds on the merged register")
            #expect(try a.verifyChain().problem == nil)
            #expect(try a.merge(from: try Register.openForMerging(path: b.path)).entries == 0)
            try b.merge(from: try Register.openForMerging(path: a.path))
            #expect(try snapshot(a) == snapshot(b))
            #expect(try b.verifyChain().problem == nil)
        }
    }

    @Test("an entry changed after it was made (its hash no longer matching) stops the merge, and nothing comes in")
    func tamperedEntriesAreRefused() throws {
        try withTemporaryDirectory { folder in
            let (a, b, asset) = try laptops(folder)
            try b.insert(try validated(failingValues(on: "2026-03-02"), for: asset), saved: testStamp)
            let raw = try Database(path: b.path, mode: .readWrite)
            try raw.execute("DROP TRIGGER inspections_are_never_updated")
            try raw.execute("UPDATE inspections SET result = 'pass' WHERE result = 'fail_dangerous'")
            let before = try snapshot(a)
            #expect(throws: RegisterError.self) { try a.merge(from: try Register.openForMerging(path: b.path)) }
            do {
                _ = try a.merge(from: try Register.openForMerging(path: b.path))
            } catch {
                #expect("\(error)".contains("does not match its hash"), "\(error)")
            }
            #expect(try snapshot(a) == before)
            #expect(try a.verifyChain().problem == nil)
        }
    }

    @Test("merging back and forth settles: once both hold everything, neither merge brings or writes anything")
    func mergingBackAndForthSettles() throws {
        try withTemporaryDirectory { folder in
            let (a, b, asset) = try laptops(folder)
            try b.insert(try validated(failingValues(on: "2026-03-02"), for: asset), saved: testStamp)
            for _ in 0..<2 {
                try a.merge(from: try Register.openForMerging(path: b.path))
                try b.merge(from: try Register.openForMerging(path: a.path))
            }
            #expect(try a.merge(from: try Register.openForMerging(path: b.path)).entries == 0)
            #expect(try b.merge(from: try Register.openForMerging(path: a.path)).entries == 0)
            #expect(try a.verifyChain().problem == nil && (try b.verifyChain().problem) == nil)
        }
    }

    @Test("removing what a merge brought in is found by verify")
    func mergeHeadIsCovered() throws {
        try withTemporaryDirectory { folder in
            let (_, b, asset) = try laptops(folder)
            let raw = try Database(path: b.path, mode: .readWrite)
            // A's newest entries (the notices its thorough examination opened) are the head B's merge names.
            try raw.execute("DROP TRIGGER notices_are_never_deleted; DELETE FROM notices")
            _ = asset
            let problem = try b.verifyChain().problem
            #expect(problem?.contains("names a head") == true, "\(problem ?? "none")")
        }
    }
}
