import Foundation
import Synchronization
import Testing
import RigbookCore
import RigbookStore

/// Issue 11, "Drafts": files in `Drafts/` that are not what a draft can be (too big, a symbolic link),
/// and lock files that are removed without ever letting two sessions hold the same lock.
@Suite("Hardening: drafts", .serialized)
struct HardeningDraftTests {
    typealias TempHome = DraftStoreTests.TempHome
    let support = DraftStoreTests()

    /// A register with one asset and a draft for it written by the store: the draft's bytes.
    private func homeWithDraft(_ t: TempHome, tag: String = "SL-0042") throws -> (Register, DraftFile, Data) {
        let register = try t.openRegister()
        let asset = support.makeAsset(tag: tag)
        try register.addAsset(asset)
        let draft = support.makeDraft(assetUUID: asset.uuid, tag: tag, updatedAt: Date())
        try t.store.write(draft)
        return (register, draft, try #require(support.fileBytes(t.store.path(for: draft.draftID))))
    }

    private func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    private func lockFiles(_ t: TempHome) -> [String] {
        t.names(in: t.store.folder).filter { $0.hasSuffix(".lock") }
    }

    // MARK: Size

    @Test("a 50 MB draft (a real draft padded with spaces) is set aside, not read whole")
    func oversizedDraftIsSetAside() throws {
        let t = TempHome()
        defer { t.remove() }
        let (register, draft, bytes) = try homeWithDraft(t)
        let path = t.store.path(for: draft.draftID)
        // Trailing spaces keep it valid JSON: only its size says it is not ours.
        let padded = bytes + Data(repeating: 0x20, count: 50 * 1024 * 1024)
        #expect(support.writeRaw(padded, to: path))

        #expect(throws: DraftStoreError.self) { try t.store.read(id: draft.draftID) }
        let report = t.store.housekeeping(register: register, retentionDays: 30)
        #expect(report.setAside.map(\.file) == [draft.draftID + ".json"])
        let reason = report.setAside.first?.reason ?? ""
        #expect(reason.contains("MB"), "the reason does not say it is too big: \(reason)")
        #expect(report.summary?.hasPrefix("Moved 1 unreadable draft to Drafts/Corrupt/") == true)
        // Moved, not copied or cut: the same size lies in Corrupt/.
        let movedPath = t.store.corruptFolder + "/" + draft.draftID + ".json"
        let moved = try FileManager.default.attributesOfItem(atPath: movedPath)
        #expect((moved[.size] as? NSNumber)?.intValue == padded.count)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a draft with notes at their 4,000-character bound, in 4-byte characters, is far under the cap")
    func largestRealDraftIsRead() throws {
        let t = TempHome()
        defer { t.remove() }
        var values = support.richValues()
        values.notes = String(repeating: "🔧", count: 4_000)
        values.defectDescription = String(repeating: "\"\\\n", count: 1_300)
        let draft = support.makeDraft(assetUUID: UUID(), values: values)
        try t.store.write(draft)
        #expect(try t.store.read(id: draft.draftID) == draft)
    }

    // MARK: Symbolic links

    @Test("a draft that is a symbolic link is set aside as the link, its target neither read nor moved")
    func symlinkedDraftIsSetAside() throws {
        let t = TempHome()
        defer { t.remove() }
        let (register, draft, bytes) = try homeWithDraft(t)
        let path = t.store.path(for: draft.draftID)
        // The real file elsewhere, and a link to it where the draft should be.
        let target = t.root + "/elsewhere.json"
        #expect(rename(path, target) == 0)
        #expect(symlink(target, path) == 0)

        #expect(throws: DraftStoreError.self) { try t.store.read(id: draft.draftID) }
        let report = t.store.housekeeping(register: register, retentionDays: 30)
        #expect(report.setAside.map(\.file) == [draft.draftID + ".json"])
        let reason = report.setAside.first?.reason ?? ""
        #expect(reason.contains("symbolic link"), "reason: \(reason)")
        let moved = t.store.corruptFolder + "/" + draft.draftID + ".json"
        #expect(fileType(moved) == S_IFLNK, "Corrupt/ should hold the link itself")
        #expect(support.fileBytes(target) == bytes, "the link's target is untouched")
        #expect(fileType(path) == nil)
    }

    @Test("a dangling symbolic link named like a draft is set aside, never followed")
    func otherNonFilesInDrafts() throws {
        let t = TempHome()
        defer { t.remove() }
        let register = try t.openRegister()
        let asset = support.makeAsset(tag: "SL-0001")
        try register.addAsset(asset)
        let id = DraftIdentity.draftID(assetUUID: asset.uuid)
        try DataHome.makePrivateDirectory(t.store.folder)
        #expect(symlink(t.root + "/nowhere.json", t.store.path(for: id)) == 0)

        let (drafts, setAside) = t.store.entries()
        #expect(drafts.isEmpty)
        #expect(setAside.map(\.file) == [id + ".json"])
        #expect(fileType(t.store.corruptFolder + "/" + id + ".json") == S_IFLNK)
        #expect(!FileManager.default.fileExists(atPath: t.root + "/nowhere.json"), "nothing was created at the target")
    }

    // MARK: Lock files
}
