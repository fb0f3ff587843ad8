import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// Attachments in the register: a record's attachments (hash, name, size) in their own append-only table,
/// entered in the record's transaction, chained; cleanup that never takes a file a draft or record names.
@Suite("Attachments in the register")
struct AttachmentRecordTests {
    static let photo = RigbookCore.Attachment(sha256: String(repeating: "a", count: 64), name: "hook.jpg", size: 2048)
    static let pdf = RigbookCore.Attachment(sha256: String(repeating: "c", count: 64), name: "cert.pdf", size: 99)

    static func withAttachments(_ date: String) -> InspectionValues {
        var v = passingValues(on: date)
        v.attachments = [photo, pdf]
        return v
    }

    @Test("a record's attachments are rows of their own, in order, read back with it; the chain verifies")
    func storedWithRecord() throws {
        try withRegister(holding: makeAsset()) { register, asset in
            let gated = try validated(Self.withAttachments("2026-03-01"), for: asset)
            let id = try register.insert(gated, saved: testStamp)
            let record = try #require(try register.inspection(id: id))
            #expect(record.values.attachments == [Self.photo, Self.pdf])
            #expect(try register.attachments(recordUUID: record.recordUUID) == [Self.photo, Self.pdf])
            #expect(try register.history(assetUUID: asset.uuid).first?.values.attachments == [Self.photo, Self.pdf])
            var exported: [StoredInspection] = []
            try register.forEachRecord { exported.append($0) }
            #expect(exported.first?.values.attachments == [Self.photo, Self.pdf])
            let kinds = try register.db.scalar("SELECT group_concat(record_kind) FROM attachments")
            #expect(kinds == .text("inspection,inspection"))
            let verification = try register.verifyChain()
            #expect(verification.problem == nil)
            #expect(verification.entries >= 3)
            #expect(try register.referencedAttachmentHashes() == [Self.photo.sha256, Self.pdf.sha256])
        }
    }

    @Test("rows refuse UPDATE, DELETE and REPLACE; an altered row breaks verify")
    func appendOnly() throws {
        try withRegister(holding: makeAsset()) { register, asset in
            try register.insert(try validated(Self.withAttachments("2026-03-01"), for: asset), saved: testStamp)
            #expect(throws: (any Error).self) { try register.db.execute("UPDATE attachments SET name = 'x'") }
            #expect(throws: (any Error).self) { try register.db.execute("DELETE FROM attachments") }
            #expect(throws: (any Error).self) {
                try register.db.execute("INSERT OR REPLACE INTO attachments SELECT * FROM attachments")
            }
            try register.db.execute("DROP TRIGGER attachments_are_never_updated")
            try register.db.execute("UPDATE attachments SET size = 1 WHERE position = 0")
            #expect(try register.verifyChain().problem?.contains("attachment") == true)
        }
    }

    @Test("a record without attachments adds no row and keeps reading as before")
    func none() throws {
        try withRegister(holding: makeAsset()) { register, asset in
            let id = try register.insert(try validated(passingValues(on: "2026-03-01"), for: asset), saved: testStamp)
            #expect(try register.inspection(id: id)?.values.attachments == [])
            #expect(try register.db.scalar("SELECT count(*) FROM attachments") == .integer(0))
        }
    }

    @Test("an electrical test's attachments go into the same table, named by its kind and uuid")
    func electricalTest() throws {
        try withRegister(holding: ElectricalAssetStoreTests.drill()) { register, drill in
            try register.insert(test: try ElectricalTestStoreTests.validated(drill, date: "2026-11-02", earth: "0.2"))
            let test = try #require(try register.tests(assetUUID: drill.uuid).first)
            #expect(try register.attachments(recordUUID: test.testUUID).map(\.name) == ["plug.jpg"])
            #expect(try register.db.scalar("SELECT record_kind FROM attachments") == .text("electrical_test"))
            #expect(try register.verifyChain().problem == nil)
        }
    }

    @Test("a register of the build before upgrades: 011 applies, old hashes stand, new records take attachments")
    func upgrade() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: UpgradeFromPreviousBuildTests.fixture.path, toPath: path)
            let register = try Register.open(path: path)
            #expect(try RegisterSchema.appliedNames(register.db).contains("012-attachments"))
            #expect(try register.verifyChain().problem == nil)
            let asset = makeAsset(tag: "NEW-1")
            try register.addAsset(asset)
            try register.insert(try validated(Self.withAttachments("2026-03-01"), for: asset), saved: testStamp)
            #expect(try register.verifyChain().problem == nil)
        }
    }

    @Test("drafts without attachments (older builds) read as none; with them, they round-trip")
    func draftField() throws {
        var v = passingValues(on: "2026-03-01")
        let old = try JSONEncoder().encode(v)
        #expect(!String(decoding: old, as: UTF8.self).contains("attachments"))
        #expect(try JSONDecoder().decode(InspectionValues.self, from: old).attachments == [])
        v.attachments = [Self.photo]
        #expect(try JSONDecoder().decode(InspectionValues.self, from: try JSONEncoder().encode(v)) == v)
    }

    // MARK: Cleanup, with real files

    /// A home with a register, two attached files, and a draft of each kind naming some of them.
    static func home(_ body: (DataHome, Register, [RigbookCore.Attachment]) throws -> Void) throws {
        try withTemporaryDirectory { folder in
            let home = DataHome(root: folder.path)
            let register = try Register.open(path: home.registerPath)
            let store = AttachmentStore(home: home)
            var files: [RigbookCore.Attachment] = []
            for (index, name) in ["a.png", "b.png", "c.png", "d.png"].enumerated() {
                let source = folder.path + "/" + name
                try Data(AttachmentStoreTests.png + [UInt8(index)]).write(to: URL(fileURLWithPath: source))
                files.append(try store.attach(source))
            }
            try body(home, register, files)
        }
    }

    static func writeDraft(_ home: DataHome, name: String, naming hashes: [String],
                           format: String = "inspection") throws {
        try FileManager.default.createDirectory(atPath: home.draftsFolder, withIntermediateDirectories: true)
        // Drafts of every kind, as other builds may write them: only the hashes matter.
        let json = "{\"form_kind\":\"\(format)\",\"values\":{\"attachments\":["
            + hashes.map { "{\"sha256\":\"\($0)\",\"name\":\"x\",\"size\":1}" }.joined(separator: ",") + "]}}"
        try Data(json.utf8).write(to: URL(fileURLWithPath: home.draftsFolder + "/" + name))
    }

    @Test("discard removes the draft's files that no other draft and no record names")
    func discardRemovesOnlyUnshared() throws {
        try Self.home { home, register, files in
            let asset = makeAsset()
            try register.addAsset(asset)
            var values = passingValues(on: "2026-03-01")
            values.attachments = [files[0]]
            try register.insert(try validated(values, for: asset), saved: testStamp)
            let id = "inspection-\(UUID().uuidString.lowercased())"
            try Self.writeDraft(home, name: id + ".json", naming: files.prefix(3).map(\.sha256))
            try Self.writeDraft(home, name: "batch-\(UUID().uuidString.lowercased()).json", naming: [files[1].sha256],
                                format: "batch")
            let store = AttachmentStore(home: home), drafts = DraftStore(home: home)
            let named = AttachmentHousekeeping.hashes(ofDraft: id, in: drafts)
            #expect(named == Set(files.prefix(3).map(\.sha256)))
            try drafts.delete(id: id)
            #expect(AttachmentHousekeeping.release(named, home: home, register: register) == 1)
            #expect(store.contains(files[0]))   // a record names it
            #expect(store.contains(files[1]))   // the batch draft names it
            #expect(!store.contains(files[2]))  // only the discarded draft did
            #expect(store.contains(files[3]))   // never named by the draft: the sweep's
        }
    }

    @Test("the start-up sweep takes files nothing names once an hour old, never one a draft of any kind names")
    func sweep() throws {
        try Self.home { home, register, files in
            try Self.writeDraft(home, name: "test-\(UUID().uuidString.lowercased()).json", naming: [files[0].sha256],
                                format: "test")
            try Self.writeDraft(home, name: "asset-x.journal", naming: [files[1].sha256], format: "asset")
            try FileManager.default.createDirectory(atPath: home.draftsFolder + "/Corrupt",
                                                    withIntermediateDirectories: true)
            try Data("not json \(files[2].sha256)".utf8)
                .write(to: URL(fileURLWithPath: home.draftsFolder + "/Corrupt/broken.json"))
            let store = AttachmentStore(home: home)
            #expect(AttachmentHousekeeping.sweep(home: home, register: register) == 0)  // all younger than an hour
            #expect(AttachmentHousekeeping.sweep(home: home, register: register, now: Date() + 7200) == 1)
            #expect(files.prefix(3).allSatisfy(store.contains))
            #expect(!store.contains(files[3]))
        }
    }

    @Test("backup carries the files beside FILE and merge brings the ones it lacks, verified by SHA-256")
    func carried() throws {
        try Self.home { home, register, files in
            let asset = makeAsset()
            try register.addAsset(asset)
            var values = passingValues(on: "2026-03-01")
            values.attachments = [files[0], files[1]]
            try register.insert(try validated(values, for: asset), saved: testStamp)
            let backupFolder = home.root + "/backup/Documents"
            try FileManager.default.createDirectory(atPath: backupFolder, withIntermediateDirectories: true)
            _ = try register.backup(to: backupFolder + "/register.sqlite")
            let carried = Register.backupAttachments(of: register, to: backupFolder + "/register.sqlite")
            #expect(carried.copied == 2 && carried.problems.isEmpty)
            #expect(AttachmentStore(folder: backupFolder + "/Attachments").contains(files[1]))
            #expect(permissions(backupFolder + "/Attachments/" + files[1].sha256) == 0o600)
            // Damage one in the other home: merge copies the good one and leaves the damaged one out.
            let other = try Register.openForMerging(path: backupFolder + "/register.sqlite")
            let empty = DataHome(root: home.root + "/empty")
            let here = try Register.open(path: empty.registerPath)
            try Data("tampered".utf8).write(to: URL(fileURLWithPath: backupFolder + "/Attachments/" + files[1].sha256))
            let report = try here.merge(from: other)
            #expect(report.attachments == 2)
            let copied = here.mergeAttachments(from: other)
            #expect(copied.copied == 1 && copied.damaged == [files[1].sha256])
            #expect(AttachmentStore(home: empty).contains(files[0]) && !AttachmentStore(home: empty).contains(files[1]))
            #expect(try here.verifyChain().problem == nil)
        }
    }
}
