import Foundation
import Synchronization
import Testing
import RigbookCore
import RigbookStore

/// Drafts: files in `Drafts/` that are not what a draft can be (too big, a symbolic link),
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

    /// Writes a real draft, lets `plant` put something else in its place (given the draft's path and bytes),
    /// then expects `read` to refuse it and the start-up pass to set it aside, alone, with the usual message.
    /// Returns the reason given, the draft's path and where it was moved.
    private func setAsideAtStart(_ t: TempHome, planting plant: (String, Data) -> Void,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (reason: String, path: String, moved: String) {
        let (register, draft, bytes) = try homeWithDraft(t)
        let path = t.store.path(for: draft.draftID)
        plant(path, bytes)
        #expect(throws: DraftStoreError.self, sourceLocation: sourceLocation) { try t.store.read(id: draft.draftID) }
        let report = t.store.housekeeping(register: register, retentionDays: 30)
        #expect(report.setAside.map(\.file) == [draft.draftID + ".json"], sourceLocation: sourceLocation)
        #expect(report.summary?.hasPrefix("Moved 1 unreadable draft to Drafts/Corrupt/") == true,
                sourceLocation: sourceLocation)
        return (report.setAside.first?.reason ?? "", path, t.store.corruptFolder + "/" + draft.draftID + ".json")
    }

    /// A new draft id, with the Drafts folder made.
    private func idInFolder(_ t: TempHome) throws -> String {
        try DataHome.makePrivateDirectory(t.store.folder)
        return DraftIdentity.draftID(assetUUID: UUID())
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
        var size = 0
        let (reason, path, moved) = try setAsideAtStart(t) { path, bytes in
            // Trailing spaces keep it valid JSON: only its size says it is not ours.
            let padded = bytes + Data(repeating: 0x20, count: 50 * 1024 * 1024)
            size = padded.count
            #expect(support.writeRaw(padded, to: path))
        }
        #expect(reason.contains("MB"), "the reason does not say it is too big: \(reason)")
        // Moved, not copied or cut: the same size lies in Corrupt/.
        #expect((try FileManager.default.attributesOfItem(atPath: moved)[.size] as? NSNumber)?.intValue == size)
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
        let target = t.root + "/elsewhere.json"
        var original = Data()
        let (reason, path, moved) = try setAsideAtStart(t) { path, bytes in
            // The real file elsewhere, and a link to it where the draft should be.
            original = bytes
            #expect(rename(path, target) == 0)
            #expect(symlink(target, path) == 0)
        }
        #expect(reason.contains("symbolic link"), "reason: \(reason)")
        #expect(fileType(moved) == S_IFLNK, "Corrupt/ should hold the link itself")
        #expect(support.fileBytes(target) == original, "the link's target is untouched")
        #expect(fileType(path) == nil)
    }

    @Test("a dangling symbolic link and a FIFO named like drafts are set aside, never followed or opened for reading")
    func otherNonFilesInDrafts() throws {
        let t = TempHome()
        defer { t.remove() }
        let link = try idInFolder(t)
        let fifo = DraftIdentity.draftID(assetUUID: UUID())
        #expect(symlink(t.root + "/nowhere.json", t.store.path(for: link)) == 0)
        // Opened for reading without O_NONBLOCK, a FIFO with no writer would block the program for good.
        #expect(mkfifo(t.store.path(for: fifo), 0o600) == 0)

        let (drafts, setAside) = t.store.entries()
        #expect(drafts.isEmpty)
        #expect(setAside.map(\.file).sorted() == [link + ".json", fifo + ".json"].sorted())
        #expect(setAside.first { $0.file == fifo + ".json" }?.reason.contains("not a regular file") == true)
        #expect(fileType(t.store.corruptFolder + "/" + link + ".json") == S_IFLNK)
        #expect(fileType(t.store.corruptFolder + "/" + fifo + ".json") == S_IFIFO)
        #expect(!FileManager.default.fileExists(atPath: t.root + "/nowhere.json"), "nothing was created at the target")
    }

    @Test("a lock file that is a symbolic link is refused: the file it points at is not truncated")
    func symlinkedLockFileIsNotWrittenThrough() throws {
        let t = TempHome()
        defer { t.remove() }
        let id = try idInFolder(t)
        let victim = t.root + "/victim.txt"
        let victimBytes = Data("precious".utf8)
        #expect(support.writeRaw(victimBytes, to: victim))
        #expect(symlink(victim, t.store.folder + "/" + id + ".lock") == 0)

        if case .acquired(let lock) = t.store.lock(id: id) {
            lock.release()
            Issue.record("a lock was taken through a symbolic link")
        }
        #expect(support.fileBytes(victim) == victimBytes)
    }

    // MARK: Lock files

    @Test("releasing a lock removes its file: lock files no longer pile up, one per asset ever opened")
    func releasedLockLeavesNoFile() throws {
        let t = TempHome()
        defer { t.remove() }
        for _ in 0..<5 {
            let id = DraftIdentity.draftID(assetUUID: UUID())
            guard let lock = support.acquire(t.store, id) else { return }
            #expect(lockFiles(t) == [id + ".lock"])
            lock.release()
        }
        #expect(lockFiles(t).isEmpty, "left behind: \(lockFiles(t))")
    }

    @Test("start-up housekeeping removes lock files nobody holds and keeps those held, here or elsewhere")
    func housekeepingRemovesStaleLockFiles() async throws {
        let t = TempHome()
        defer { t.remove() }
        // Lock files an earlier build left behind (it never removed them), one of them with a draft.
        let (register, draft, bytes) = try homeWithDraft(t)
        let stale = (0..<3).map { _ in DraftIdentity.draftID(assetUUID: UUID()) } + [draft.draftID]
        for id in stale { #expect(support.writeRaw(Data("{}".utf8), to: t.store.folder + "/" + id + ".lock")) }
        // One held by another DraftStore in this process, one by another process.
        let heldHere = DraftIdentity.draftID(assetUUID: UUID())
        guard let lock = support.acquire(DraftStore(home: t.home), heldHere) else { return }
        defer { lock.release() }
        let heldElsewhere = DraftIdentity.draftID(assetUUID: UUID())
        let child = try DraftStoreTests.ChildProcess("/usr/bin/flock",
                                                     [t.store.folder + "/" + heldElsewhere + ".lock", "-c", "sleep 30"])
        defer { child.kill() }
        let held = await support.waitUntil { t.store.isLockedElsewhere(id: heldElsewhere) }
        try #require(held, "the child never took its lock")

        _ = t.store.housekeeping(register: register, retentionDays: 30)
        #expect(lockFiles(t) == [heldHere + ".lock", heldElsewhere + ".lock"].sorted())
        #expect(support.fileBytes(t.store.path(for: draft.draftID)) == bytes, "the draft itself stays")
        #expect(t.store.isLockedElsewhere(id: heldHere) && t.store.isLockedElsewhere(id: heldElsewhere))
    }

    @Test("the old holder never removes a lock file that is no longer the one it locked")
    func releaseLeavesAReplacedLockFile() throws {
        let t = TempHome()
        defer { t.remove() }
        let id = DraftIdentity.draftID(assetUUID: UUID())
        guard let lock = support.acquire(t.store, id) else { return }
        let file = t.store.folder + "/" + id + ".lock"
        // Someone put another file at the path (by hand, or an older Rigbook after a restore).
        #expect(support.writeRaw(Data("other".utf8), to: file + ".new"))
        #expect(rename(file + ".new", file) == 0)
        lock.release()
        #expect(support.fileBytes(file) == Data("other".utf8))
    }

    @Test("two sessions locking, releasing and tidying the same draft at once never both hold it")
    func twoSessionsRace() throws {
        let t = TempHome()
        defer { t.remove() }
        let id = try idInFolder(t)
        _ = try t.openRegister()
        let registerPath = t.home.registerPath
        let home = t.home
        let holders = Mutex(0)
        let overlaps = Mutex(0)
        let acquired = Mutex([0, 0])
        let errors = runOnThreads(2) { index in
            // Each thread is a session: its own store, and in turn its own register connection.
            let store = DraftStore(home: home)
            let own = try Register.open(path: registerPath)
            for round in 0..<1_500 {
                if index == 1, round % 10 == 0 { _ = store.housekeeping(register: own, retentionDays: 30) }
                guard case .acquired(let lock) = store.lock(id: id) else { continue }
                acquired.withLock { $0[index] += 1 }
                if holders.withLock({ $0 += 1; return $0 }) > 1 { overlaps.withLock { $0 += 1 } }
                sched_yield()
                holders.withLock { $0 -= 1 }
                lock.release()
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        #expect(overlaps.withLock { $0 } == 0, "both sessions held the lock at once")
        let counts = acquired.withLock { $0 }
        #expect(counts.allSatisfy { $0 > 0 }, "a session never got the lock: \(counts)")
        #expect(lockFiles(t).isEmpty, "left behind: \(lockFiles(t))")
    }
}
