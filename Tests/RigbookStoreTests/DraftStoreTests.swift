import Foundation
import Testing
import RigbookTestSupport
import RigbookCore
import RigbookStore

/// The draft store (SPEC §2 and §5): draft files, their atomic writes, locks and start-up housekeeping.
/// Every test has its own data home under the temporary directory, removed at the end.
@Suite("DraftStore", .serialized)
struct DraftStoreTests {

    // MARK: File format

    @Test("A draft written before the report particulars reads back whole: never set aside as corrupt")
    func draftFromBeforeReportParticulars() throws {
        let t = TempHome()
        defer { t.remove() }
        let draft = makeDraft(assetUUID: UUID())
        try t.store.write(draft)
        // The file as a build before the report particulars wrote it: the 17 fields, none of the report particulars.
        let path = t.store.path(for: draft.draftID)
        let data = try #require(fileBytes(path))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var values = try #require(object["values"] as? [String: Any])
        for field in FormField.reportFields { values.removeValue(forKey: field.key) }
        #expect(values.count == 17)
        object["values"] = values
        #expect(writeRaw(try JSONSerialization.data(withJSONObject: object), to: path))

        let back = try #require(try t.store.read(id: draft.draftID))
        #expect(back.values == draft.values)
        #expect(back.values.examinationBasis == nil && back.values.nextExaminationBy.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: t.store.corruptFolder))
    }

    @Test("A draft with every field, CJK text and newlines reads back equal")
    func roundTrip() throws {
        let t = TempHome()
        defer { t.remove() }
        let uuid = UUID()
        var draft = makeDraft(assetUUID: uuid, tag: "吊-0042", revision: 7)
        draft.amends = 17
        draft.appVersion = "9.9.9-test"
        draft.osUser = "inspector"
        draft.host = "主机-depot-01"
        draft.pid = 4242
        try t.store.write(draft)

        let back = try #require(try t.store.read(id: draft.draftID))
        #expect(back == draft)
        #expect(back.values == richValues())
        #expect(back.values.notes.contains("\n"))
        #expect(back.values.notes.hasPrefix("第一行"))
        #expect(back.values.defectDescription == "Stitching:\n缝线断裂 2 cm")
        #expect(back.values.inspectionDate == "2026-01-1")
        #expect(back.assetTag == "吊-0042")
        #expect(back.operatorName == "王小明")
        #expect(back.amends == 17)
        #expect(back.revision == 7)
        #expect(back.pid == 4242)
        #expect(back.appVersion == "9.9.9-test")
        #expect(back.schemaVersion == 1)
        #expect(back.formKind == "inspection")

        // A draft that is not there is nil, not an error.
        #expect(try t.store.read(id: DraftIdentity.draftID(assetUUID: UUID())) == nil)
    }

    @Test("The JSON file has schema_version 1, snake_case keys and the 17 field names")
    func jsonLayout() throws {
        let t = TempHome()
        defer { t.remove() }
        let uuid = UUID()
        let draft = makeDraft(assetUUID: uuid)
        try t.store.write(draft)
        let data = try #require(fileBytes(t.store.path(for: draft.draftID)))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])

        let required: Set<String> = [
            "schema_version", "draft_id", "session_id", "form_kind", "asset_uuid", "asset_tag", "values",
            "created_at", "updated_at", "app_version", "operator", "os_user", "host", "pid", "revision",
            "focused_field",
        ]
        let keys = Set(object.keys)
        #expect(required.subtracting(keys).isEmpty, "missing keys: \(required.subtracting(keys).sorted())")
        #expect(keys.subtracting(required).subtracting(["amends"]).isEmpty,
                "unexpected keys: \(keys.subtracting(required).sorted())")
        for key in keys {
            #expect(key.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "not snake_case: \(key)")
        }

        #expect((object["schema_version"] as? Int) == 1)
        #expect((object["draft_id"] as? String) == "inspection-" + uuid.uuidString.lowercased())
        #expect((object["session_id"] as? String) == draft.sessionID)
        #expect((object["form_kind"] as? String) == "inspection")
        #expect((object["asset_uuid"] as? String) == uuid.uuidString.lowercased())
        #expect((object["asset_tag"] as? String) == "SL-0042")
        #expect((object["operator"] as? String) == "王小明")
        #expect((object["os_user"] as? String) == draft.osUser)
        #expect((object["host"] as? String) == draft.host)
        #expect((object["pid"] as? Int) == Int(getpid()))
        #expect((object["revision"] as? Int) == 1)
        #expect((object["created_at"] as? String) == draft.createdAt)
        #expect((object["updated_at"] as? String) == draft.updatedAt)
        #expect(Timestamp.parse(try #require(object["updated_at"] as? String)) == fixedNow)

        let values = try #require(object["values"] as? [String: Any])
        let fieldNames: Set<String> = [
            "inspection_type", "inspector_name", "certification_number", "check_marking", "check_cuts",
            "check_deformation", "check_fittings", "check_corrosion", "result", "notes", "scheme_reference",
            "defect_description", "action", "remedy_deadline_set", "remedy_deadline", "inspection_date",
            "confirmed",
        ]
        #expect(fieldNames.count == 17)
        // The 17 and the report particulars of Schedule 1, which older drafts lack.
        let reportNames: Set<String> = ["examination_basis", "installed_correctly", "test_particulars",
                                        "repair_particulars", "remedy_particulars", "next_examination_by"]
        #expect(Set(FormField.reportFields.map(\.key)) == reportNames)
        #expect(Set(values.keys) == fieldNames.union(reportNames))
        #expect(Set(FormField.inspectionFields.map(\.key)) == fieldNames)
        #expect((values["notes"] as? String) == richValues().notes)
        #expect((values["result"] as? String) == InspectionResult.defectToBeRemedied.rawValue)
        #expect((values["remedy_deadline_set"] as? Bool) == true)
        #expect((values["inspection_date"] as? String) == "2026-01-1")

        // "None chosen" is written as an explicit null, not left out.
        let blank = makeDraft(assetUUID: UUID(), values: InspectionValues())
        try t.store.write(blank)
        let blankData = try #require(fileBytes(t.store.path(for: blank.draftID)))
        let blankObject = try #require(try JSONSerialization.jsonObject(with: blankData) as? [String: Any])
        let blankValues = try #require(blankObject["values"] as? [String: Any])
        #expect(Set(blankValues.keys) == fieldNames.union(reportNames))
        #expect(blankValues["examination_basis"] is NSNull)
        #expect(blankValues["result"] is NSNull)
    }

    @Test("Draft files are 0600, the folders 0700, also after a rewrite")
    func permissions() throws {
        let t = TempHome()
        defer { t.remove() }
        let draft = makeDraft(assetUUID: UUID())
        try t.store.write(draft)
        let file = t.store.path(for: draft.draftID)
        #expect(octal(posixPermissions(file)) == "0600")
        #expect(octal(posixPermissions(t.home.draftsFolder)) == "0700")
        #expect(octal(posixPermissions(t.home.documents)) == "0700")

        // A rewrite replaces the file, so a loosened mode does not survive it.
        chmod(file, 0o644)
        var second = draft
        second.revision = 2
        try t.store.write(second)
        #expect(octal(posixPermissions(file)) == "0600")

        guard let lock = acquire(t.store, draft.draftID) else { return }
        defer { lock.release() }
        #expect(octal(posixPermissions(t.store.folder + "/" + draft.draftID + ".lock")) == "0600")

        #expect(writeRaw(Data("junk".utf8), to: t.store.folder + "/junk.json"))
        try t.store.setAside(fileName: "junk.json")
        #expect(octal(posixPermissions(t.store.corruptFolder)) == "0700")
    }

    // MARK: Atomic writes

    struct SimulatedCrash: Error {}

    @Test("A crash between the temp write and the rename leaves the old revision whole and no temp file")
    func atomicity() throws {
        let t = TempHome()
        defer { t.remove() }
        let uuid = UUID()
        let first = makeDraft(assetUUID: uuid, revision: 1)
        try t.store.write(first)
        let path = t.store.path(for: first.draftID)
        let revisionOneBytes = try #require(fileBytes(path))

        var second = first
        second.revision = 2
        second.values.notes = "revision two: 第二版"
        second.updatedAt = Timestamp.string(fixedNow.addingTimeInterval(5))

        var tempPath: String?
        var tempBytes: Data?
        var tempMode: Int?
        #expect(throws: DraftStoreError.self) {
            try t.store.write(second, beforeRename: { temp in
                tempPath = temp
                tempBytes = fileBytes(temp)
                tempMode = posixPermissions(temp)
                throw SimulatedCrash()
            })
        }

        // The hook ran with a complete, private temp file in the same folder.
        let temp = try #require(tempPath)
        #expect((temp as NSString).deletingLastPathComponent == t.store.folder)
        #expect(temp != path)
        #expect(octal(tempMode) == "0600")
        let tempDraft = try JSONDecoder().decode(DraftFile.self, from: try #require(tempBytes))
        #expect(tempDraft == second)

        // On disk: exactly revision 1, and nothing else in the folder.
        #expect(fileBytes(path) == revisionOneBytes)
        let onDisk = try #require(try t.store.read(id: first.draftID))
        #expect(onDisk.revision == 1)
        #expect(onDisk == first)
        #expect(!FileManager.default.fileExists(atPath: temp))
        #expect(t.names(in: t.store.folder) == [first.draftID + ".json"])

        // A normal write then lands revision 2.
        try t.store.write(second)
        let now = try #require(try t.store.read(id: first.draftID))
        #expect(now.revision == 2)
        #expect(now.values.notes == "revision two: 第二版")
        #expect(t.names(in: t.store.folder) == [first.draftID + ".json"])
    }

    // MARK: Housekeeping

    @Test("Unreadable drafts and drafts for a missing asset are moved to Corrupt/, byte for byte, once")
    func corruptDraftsAreSetAside() throws {
        let t = TempHome()
        defer { t.remove() }
        let register = try t.openRegister()
        let kept = makeAsset(tag: "SL-0001")
        try register.addAsset(kept)
        let keptDraft = makeDraft(assetUUID: kept.uuid, tag: kept.tag)
        try t.store.write(keptDraft)

        // name -> (bytes, a word the reason should hold, or nil for any reason)
        var planted: [String: (bytes: Data, reason: String?)] = [:]

        let truncatedUUID = UUID()
        let truncatedDraft = makeDraft(assetUUID: truncatedUUID)
        try t.store.write(truncatedDraft)
        let whole = try #require(fileBytes(t.store.path(for: truncatedDraft.draftID)))
        let half = whole.prefix(whole.count / 2)
        planted[truncatedDraft.draftID + ".json"] = (Data(half), nil)

        planted[DraftIdentity.draftID(assetUUID: UUID()) + ".json"] = (Data("not json".utf8), nil)
        let futureID = DraftIdentity.draftID(assetUUID: UUID())
        let future = #"{"schema_version": 99, "draft_id": "\#(futureID)", "hologram": true}"#
        planted[futureID + ".json"] = (Data(future.utf8), "99")
        planted[DraftIdentity.draftID(assetUUID: UUID()) + ".json"] = (Data(), "empty")
        planted["junk.json"] = (Data(#"{"hello": "world"}"#.utf8), nil)
        for (name, content) in planted {
            #expect(writeRaw(content.bytes, to: t.store.folder + "/" + name), "could not plant \(name)")
        }

        let goneUUID = UUID()
        let goneDraft = makeDraft(assetUUID: goneUUID, tag: "SL-GONE")
        try t.store.write(goneDraft)
        let goneBytes = try #require(fileBytes(t.store.path(for: goneDraft.draftID)))
        planted[goneDraft.draftID + ".json"] = (goneBytes, "SL-GONE")

        let report = t.store.housekeeping(register: register, retentionDays: 30, now: fixedNow)

        #expect(report.setAside.map(\.file).sorted() == planted.keys.sorted())
        #expect(report.alreadySaved.isEmpty)
        #expect(report.expired.isEmpty)
        for entry in report.setAside {
            #expect(!entry.reason.isEmpty, "no reason for \(entry.file)")
            if let word = planted[entry.file]?.reason {
                #expect(entry.reason.contains(word), "reason for \(entry.file): \(entry.reason)")
            }
        }
        for (name, content) in planted {
            #expect(!FileManager.default.fileExists(atPath: t.store.folder + "/" + name), "\(name) still in Drafts/")
            #expect(fileBytes(t.store.corruptFolder + "/" + name) == content.bytes, "\(name) not identical in Corrupt/")
        }
        #expect(report.summary?.contains("Corrupt") == true)

        // The good draft is untouched and the only draft left.
        #expect(try t.store.read(id: keptDraft.draftID) == keptDraft)
        #expect(t.store.ids() == [keptDraft.draftID])

        // A second start has nothing to say and leaves Corrupt/ as it was.
        let again = t.store.housekeeping(register: register, retentionDays: 30, now: fixedNow)
        #expect(again.isEmpty)
        #expect(again.summary == nil)
        #expect(t.names(in: t.store.corruptFolder) == planted.keys.sorted())
        #expect(try t.store.read(id: keptDraft.draftID) == keptDraft)
    }

    @Test("A draft whose session is already in the register is removed; other sessions stay")
    func alreadySavedDraftsAreRemoved() throws {
        let t = TempHome()
        defer { t.remove() }
        let register = try t.openRegister()
        let assetA = makeAsset(tag: "SL-0001")
        let assetB = makeAsset(tag: "SL-0002")
        try register.addAsset(assetA)
        try register.addAsset(assetB)

        let today = try #require(CalendarDate(iso: "2026-01-15"))
        let savedSession = DraftIdentity.sessionID(assetUUID: assetA.uuid)
        let context = SaveGate.Context(asset: assetA, today: today, sessionID: savedSession,
                                       particulars: TestParticulars.report(for: assetA.uuid))
        let record = try SaveGate.validate(passingValues(today: today), context: context).get()
        try register.insert(record, saved: SaveStamp())
        #expect(try register.containsSession(id: savedSession))

        // A's draft from a later session, and B's draft: neither is saved.
        let laterA = makeDraft(assetUUID: assetA.uuid, tag: assetA.tag,
                               sessionID: DraftIdentity.sessionID(assetUUID: assetA.uuid))
        let draftB = makeDraft(assetUUID: assetB.uuid, tag: assetB.tag,
                               sessionID: DraftIdentity.sessionID(assetUUID: assetB.uuid))
        try t.store.write(laterA)
        try t.store.write(draftB)
        let first = t.store.housekeeping(register: register, retentionDays: 30, now: fixedNow)
        #expect(first.isEmpty)
        #expect(try t.store.read(id: laterA.draftID) == laterA)

        // The draft of the saved session (a crash between commit and delete) goes.
        let savedA = makeDraft(assetUUID: assetA.uuid, tag: assetA.tag, sessionID: savedSession, revision: 3)
        try t.store.write(savedA)
        let report = t.store.housekeeping(register: register, retentionDays: 30, now: fixedNow)
        #expect(report.alreadySaved == [savedA.draftID])
        #expect(report.expired.isEmpty)
        #expect(report.setAside.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: t.store.path(for: savedA.draftID)))
        #expect(try t.store.read(id: draftB.draftID) == draftB)
        #expect(t.store.ids() == [draftB.draftID])
        #expect(t.names(in: t.store.corruptFolder).isEmpty)
        #expect(try register.recordCount() == 1)
    }

    @Test("Drafts last edited 31 days ago are purged with a 30-day retention; 29 days stay")
    func retentionPurge() throws {
        let t = TempHome()
        defer { t.remove() }
        let register = try t.openRegister()
        let old = makeAsset(tag: "SL-0031")
        let recent = makeAsset(tag: "SL-0029")
        try register.addAsset(old)
        try register.addAsset(recent)
        let oldDraft = makeDraft(assetUUID: old.uuid, tag: old.tag,
                                 updatedAt: fixedNow.addingTimeInterval(-31 * dayInSeconds))
        let recentDraft = makeDraft(assetUUID: recent.uuid, tag: recent.tag,
                                    updatedAt: fixedNow.addingTimeInterval(-29 * dayInSeconds))
        try t.store.write(oldDraft)
        try t.store.write(recentDraft)

        let report = t.store.housekeeping(register: register, retentionDays: 30, now: fixedNow)
        #expect(report.expired == [oldDraft.draftID])
        #expect(report.alreadySaved.isEmpty)
        #expect(report.setAside.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: t.store.path(for: oldDraft.draftID)))
        #expect(try t.store.read(id: recentDraft.draftID) == recentDraft)
        #expect(t.names(in: t.store.corruptFolder).isEmpty, "a purged draft is deleted, not set aside")

        // Same draft, shorter retention: now it is past it.
        let shorter = t.store.housekeeping(register: register, retentionDays: 28, now: fixedNow)
        #expect(shorter.expired == [recentDraft.draftID])
        #expect(t.store.ids().isEmpty)
    }

    @Test("Stale temp files from a cut-short write are removed quietly; a fresh one is left")
    func staleTempFiles() throws {
        let t = TempHome()
        defer { t.remove() }
        let register = try t.openRegister()
        try DataHome.makePrivateDirectory(t.store.folder)
        let now = Date()
        let stale = t.store.folder + "/." + DraftIdentity.draftID(assetUUID: UUID()) + ".json.tmp-AbC123"
        let fresh = t.store.folder + "/." + DraftIdentity.draftID(assetUUID: UUID()) + ".json.tmp-XyZ789"
        #expect(writeRaw(Data("{".utf8), to: stale))
        #expect(writeRaw(Data("{".utf8), to: fresh))
        try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-120)], ofItemAtPath: stale)
        try FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: fresh)

        let report = t.store.housekeeping(register: register, retentionDays: 30, now: now)
        #expect(report.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: fresh))
        #expect(t.names(in: t.store.corruptFolder).isEmpty)
    }

    @Test("A valid draft is not set aside when the register cannot be read")
    func registerFailureDoesNotSetAsideValidDrafts() throws {
        let t = TempHome()
        defer { t.remove() }
        let register = try t.openRegister()
        let asset = makeAsset(tag: "SL-0042")
        try register.addAsset(asset)
        let draft = makeDraft(assetUUID: asset.uuid, tag: asset.tag)
        try t.store.write(draft)
        let bytes = try #require(fileBytes(t.store.path(for: draft.draftID)))

        // Another connection changes the file under the register: asset look-ups now fail (they do not
        // answer "no such asset"). The asset was never removed.
        let other = try Database(path: t.home.registerPath)
        try other.execute("ALTER TABLE assets RENAME TO assets_elsewhere")
        #expect(throws: RegisterError.self) { _ = try register.asset(uuid: asset.uuid) }

        let report = t.store.housekeeping(register: register, retentionDays: 30, now: fixedNow)
        let setAside = report.setAside.map { "\($0.file): \($0.reason)" }
        #expect(report.setAside.isEmpty, "a readable draft was set aside because the register failed: \(setAside)")
        #expect(report.expired.isEmpty)
        #expect(report.alreadySaved.isEmpty)
        #expect(fileBytes(t.store.path(for: draft.draftID)) == bytes)
    }

    // MARK: Locks

    @Test("A second lock in the same process is refused and names this process; release frees it")
    func lockInProcess() throws {
        let t = TempHome()
        defer { t.remove() }
        let id = DraftIdentity.draftID(assetUUID: UUID())
        guard let first = acquire(t.store, id) else { return }

        switch t.store.lock(id: id) {
        case .heldBy(let holder?):
            #expect(holder.pid == getpid())
            #expect(holder.user == SystemIdentity.userName)
            #expect(holder.host == SystemIdentity.hostName)
            #expect(Timestamp.parse(holder.since) != nil, "since is not a timestamp: \(holder.since)")
            #expect(holder.description.contains("pid \(getpid())"))
        case .heldBy(nil):
            Issue.record("the holder is not named")
        case .acquired(let second):
            second.release()
            Issue.record("a second lock on another descriptor was granted")
        case .failed(let reason):
            Issue.record("lock failed: \(reason)")
        }
        #expect(t.store.isLockedElsewhere(id: id))
        #expect(t.store.holder(id: id)?.pid == getpid())

        first.release()
        #expect(!t.store.isLockedElsewhere(id: id))
        guard let again = acquire(t.store, id) else { return }
        again.release()
        again.release() // releasing twice is harmless

        // A lock that is dropped without release() is released too.
        do {
            let scoped = acquire(t.store, id)
            #expect(scoped != nil)
            #expect(t.store.isLockedElsewhere(id: id))
        }
        guard let afterScope = acquire(t.store, id) else { return }
        afterScope.release()
    }

    @Test("Another process sees the lock: flock -n fails while it is held, succeeds after release")
    func lockSeenFromAnotherProcess() throws {
        let t = TempHome()
        defer { t.remove() }
        let id = DraftIdentity.draftID(assetUUID: UUID())
        let lockFile = t.store.folder + "/" + id + ".lock"
        guard let lock = acquire(t.store, id) else { return }
        #expect(FileManager.default.fileExists(atPath: lockFile))
        #expect(try runProgram("/usr/bin/flock", ["-n", lockFile, "-c", "true"]) == 1)
        lock.release()
        #expect(try runProgram("/usr/bin/flock", ["-n", lockFile, "-c", "true"]) == 0)
    }

    @Test("A lock held by another process is reported, and vanishes when that process dies")
    func lockHeldByAnotherProcess() async throws {
        let t = TempHome()
        defer { t.remove() }
        let id = DraftIdentity.draftID(assetUUID: UUID())
        try DataHome.makePrivateDirectory(t.store.folder)
        let lockFile = t.store.folder + "/" + id + ".lock"
        #expect(!t.store.isLockedElsewhere(id: id), "no lock file yet: nobody holds it")

        let child = try ChildProcess("/usr/bin/flock", [lockFile, "-c", "sleep 30"])
        defer { child.kill() }
        let held = await waitUntil { t.store.isLockedElsewhere(id: id) }
        try #require(held, "the child never took the lock")

        switch t.store.lock(id: id) {
        case .heldBy: break
        case .acquired(let lock):
            lock.release()
            Issue.record("the lock was granted while another process holds it")
        case .failed(let reason):
            Issue.record("lock failed: \(reason)")
        }

        // A crash: the holder and everything it started die at once.
        child.kill(SIGKILL)
        var acquired: DraftLock?
        let freed = await waitUntil {
            if case .acquired(let lock) = t.store.lock(id: id) { acquired = lock; return true }
            return false
        }
        #expect(freed, "the dead holder's lock did not go away")
        if let acquired {
            #expect(t.store.holder(id: id)?.pid == getpid())
            acquired.release()
        }
        #expect(!t.store.isLockedElsewhere(id: id))
    }

    @Test("Housekeeping leaves a locked draft alone, even unreadable or past retention")
    func housekeepingSkipsLockedDrafts() async throws {
        let t = TempHome()
        defer { t.remove() }
        let register = try t.openRegister()
        let assetA = makeAsset(tag: "SL-000A")
        let assetB = makeAsset(tag: "SL-000B")
        try register.addAsset(assetA)
        try register.addAsset(assetB)

        // A: unreadable, locked by this process (the open form).
        let idA = DraftIdentity.draftID(assetUUID: assetA.uuid)
        try DataHome.makePrivateDirectory(t.store.folder)
        let garbage = Data("{\"schema_version\": 1, \"draft_id\": \"cut".utf8)
        #expect(writeRaw(garbage, to: t.store.path(for: idA)))
        guard let lockA = acquire(t.store, idA) else { return }

        // B: 90 days old, locked by another process.
        let draftB = makeDraft(assetUUID: assetB.uuid, tag: assetB.tag,
                               updatedAt: fixedNow.addingTimeInterval(-90 * dayInSeconds))
        try t.store.write(draftB)
        let bytesB = try #require(fileBytes(t.store.path(for: draftB.draftID)))
        let lockFile = t.store.folder + "/" + draftB.draftID + ".lock"
        let child = try ChildProcess("/usr/bin/flock", [lockFile, "-c", "sleep 30"])
        defer { child.kill() }
        let held = await waitUntil { t.store.isLockedElsewhere(id: draftB.draftID) }
        try #require(held, "the child never took B's lock")

        let report = t.store.housekeeping(register: register, retentionDays: 30, now: fixedNow)
        #expect(report.isEmpty)
        #expect(fileBytes(t.store.path(for: idA)) == garbage)
        #expect(fileBytes(t.store.path(for: draftB.draftID)) == bytesB)
        #expect(t.names(in: t.store.corruptFolder).isEmpty)

        // Once nobody holds them, the same pass does its work: the locks were the only reason.
        lockA.release()
        child.kill(SIGKILL)
        let freed = await waitUntil { !t.store.isLockedElsewhere(id: draftB.draftID) }
        try #require(freed)
        let after = t.store.housekeeping(register: register, retentionDays: 30, now: fixedNow)
        #expect(after.setAside.map(\.file) == [idA + ".json"])
        #expect(after.expired == [draftB.draftID])
        #expect(fileBytes(t.store.corruptFolder + "/" + idA + ".json") == garbage)
    }

    // MARK: Names

    @Test("ids() lists drafts from file names alone; ids map to asset UUIDs and refuse anything else")
    func idsAndIdentity() throws {
        let t = TempHome()
        defer { t.remove() }
        #expect(t.store.ids().isEmpty, "no folder yet")

        let good = makeDraft(assetUUID: UUID())
        try t.store.write(good)
        let garbageID = DraftIdentity.draftID(assetUUID: UUID())
        #expect(writeRaw(Data([0xFF, 0x00, 0x13, 0x37]), to: t.store.path(for: garbageID)))
        // Not drafts: a lock file, a temp file, the Corrupt folder and what it holds.
        let lockedID = DraftIdentity.draftID(assetUUID: UUID())
        guard let lock = acquire(t.store, lockedID) else { return }
        defer { lock.release() }
        #expect(writeRaw(Data("{".utf8), to: t.store.folder + "/." + good.draftID + ".json.tmp-AbC123"))
        let setAsideName = DraftIdentity.draftID(assetUUID: UUID()) + ".json"
        #expect(writeRaw(Data("x".utf8), to: t.store.folder + "/" + setAsideName))
        try t.store.setAside(fileName: setAsideName)
        #expect(FileManager.default.fileExists(atPath: t.store.corruptFolder + "/" + setAsideName))

        #expect(t.store.ids() == [good.draftID, garbageID].sorted())

        let uuid = UUID()
        let id = DraftIdentity.draftID(assetUUID: uuid)
        #expect(id == "inspection-" + uuid.uuidString.lowercased())
        #expect(DraftStore.isDraftID(id))
        #expect(DraftStore.assetUUID(ofDraftID: id) == uuid)
        #expect(DraftIdentity.draftID(ofSession: DraftIdentity.sessionID(assetUUID: uuid)) == id)
        #expect(t.store.path(for: id) == t.home.draftsFolder + "/" + id + ".json")

        let refused = [
            "../x", "inspection-notauuid", "", "inspection-", uuid.uuidString,
            "inspection-" + uuid.uuidString.lowercased() + ".json",
            "inspection-../../../../../../../../etc/passwd.",
            "inspection-" + uuid.uuidString.lowercased() + ":" + UUID().uuidString.lowercased(),
            "record-" + uuid.uuidString.lowercased(),
        ]
        for text in refused {
            #expect(!DraftStore.isDraftID(text), "accepted \(text.debugDescription)")
            #expect(DraftStore.assetUUID(ofDraftID: text) == nil, "gave a UUID for \(text.debugDescription)")
        }
    }

    // MARK: Failures

    @Test("A write that cannot reach the Drafts folder throws .io with a readable reason; the register is untouched")
    func writeFailureDraftsIsAFile() throws {
        let t = TempHome()
        defer { t.remove() }
        let register = try t.openRegister()
        let asset = makeAsset(tag: "SL-0042")
        try register.addAsset(asset)
        // Tests run as root, where chmod 0500 does not stop a write: a regular file where the folder
        // should be does.
        let blocker = Data("I am a file, not a folder".utf8)
        #expect(writeRaw(blocker, to: t.home.draftsFolder))
        let registerBefore = fileBytes(t.home.registerPath)
        let documentsBefore = t.names(in: t.home.documents)

        do {
            try t.store.write(makeDraft(assetUUID: asset.uuid, tag: asset.tag))
            Issue.record("the write succeeded")
        } catch {
            guard let error = error as? DraftStoreError, case .io(let reason) = error else {
                Issue.record("expected .io, got \(error)")
                return
            }
            #expect(error.description == reason)
            #expect(looksReadable(reason), "not a readable reason: \(reason)")
            #expect(reason.contains("Drafts"), "does not say where: \(reason)")
        }

        #expect(fileBytes(t.home.draftsFolder) == blocker)
        #expect(fileBytes(t.home.registerPath) == registerBefore)
        #expect(t.names(in: t.home.documents) == documentsBefore)
        #expect(try register.assetCount() == 1)
        #expect(try register.recordCount() == 0)
        #expect(try Register.open(path: t.home.registerPath).assetCount() == 1)
    }

    @Test("A write under a Documents that is a file throws .io with a readable reason")
    func writeFailureDocumentsIsAFile() throws {
        let t = TempHome()
        defer { t.remove() }
        try FileManager.default.createDirectory(atPath: t.root, withIntermediateDirectories: true)
        let blocker = Data("not a folder".utf8)
        #expect(writeRaw(blocker, to: t.home.documents))

        do {
            try t.store.write(makeDraft(assetUUID: UUID()))
            Issue.record("the write succeeded")
        } catch {
            guard let error = error as? DraftStoreError, case .io(let reason) = error else {
                Issue.record("expected .io, got \(error)")
                return
            }
            #expect(looksReadable(reason), "not a readable reason: \(reason)")
            #expect(reason.contains("Documents"), "does not say where: \(reason)")
        }
        #expect(fileBytes(t.home.documents) == blocker)
        #expect(t.names(in: t.root) == ["Documents"])
    }

    @Test("Deleting a missing draft is not an error; setting aside the same name twice keeps both")
    func deleteAndSetAside() throws {
        let t = TempHome()
        defer { t.remove() }
        let id = DraftIdentity.draftID(assetUUID: UUID())
        #expect(throws: Never.self) { try t.store.delete(id: id) } // no folder at all
        let draft = makeDraft(assetUUID: UUID())
        try t.store.write(draft)
        #expect(throws: Never.self) { try t.store.delete(id: id) } // folder, no such file
        try t.store.delete(id: draft.draftID)
        #expect(!FileManager.default.fileExists(atPath: t.store.path(for: draft.draftID)))
        #expect(try t.store.read(id: draft.draftID) == nil)
        #expect(throws: Never.self) { try t.store.delete(id: draft.draftID) } // deleted twice

        let name = DraftIdentity.draftID(assetUUID: UUID()) + ".json"
        let firstBytes = Data("first broken draft".utf8)
        let secondBytes = Data("second broken draft".utf8)
        #expect(writeRaw(firstBytes, to: t.store.folder + "/" + name))
        let firstPath = try t.store.setAside(fileName: name)
        #expect(writeRaw(secondBytes, to: t.store.folder + "/" + name))
        let secondPath = try t.store.setAside(fileName: name)

        #expect(firstPath != secondPath)
        #expect((firstPath as NSString).deletingLastPathComponent == t.store.corruptFolder)
        #expect((secondPath as NSString).deletingLastPathComponent == t.store.corruptFolder)
        #expect(fileBytes(firstPath) == firstBytes)
        #expect(fileBytes(secondPath) == secondBytes)
        #expect(t.names(in: t.store.corruptFolder).count == 2)
        #expect(!FileManager.default.fileExists(atPath: t.store.folder + "/" + name))

        // Setting aside a file that is not there is an error, not a silent success.
        #expect(throws: DraftStoreError.self) { try t.store.setAside(fileName: "missing.json") }
    }

    @Test("Setting aside never replaces a file already in Corrupt/, even within the same millisecond")
    func setAsideNeverReplaces() async throws {
        let t = TempHome()
        defer { t.remove() }
        let name = DraftIdentity.draftID(assetUUID: UUID()) + ".json"
        let firstBytes = Data("first broken draft".utf8)
        try DataHome.makePrivateDirectory(t.store.folder)
        #expect(writeRaw(firstBytes, to: t.store.folder + "/" + name))
        let firstPath = try t.store.setAside(fileName: name)

        // Earlier set-asides of the same name, one for each millisecond of a window that opens shortly,
        // under the name the store gives a further copy (`<timestamp without colons>-<name>`). A set-aside
        // inside the window then shares its millisecond with an earlier one, as it does by chance when
        // several broken drafts of one asset are set aside in a quick start-up: certain, not timing luck.
        // On a busy machine planting can outlast the lead: then the window is tried again further ahead, sized
        // by what planting took (the claim is about a set-aside inside the window, so only such a run counts).
        var lead: Int64 = 500
        var landed: (path: String, bytes: Data, planted: [String: Data], countBefore: Int)?
        for _ in 0..<5 where landed == nil {
            let plantingStarted = Date()
            let windowStart = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) + lead
            let windowLength: Int64 = 1_000
            let middle = Date(timeIntervalSince1970: (Double(windowStart) + 0.5) / 1000)
            #expect(millisecondStamp(windowStart, separator: ":") == Timestamp.string(middle),
                    "the planted names do not follow Timestamp.string")
            var planted: [String: Data] = [:]
            var plantFailures = 0
            for ms in windowStart..<(windowStart + windowLength) {
                let earlier = millisecondStamp(ms, separator: "") + "-" + name
                let bytes = Data("earlier set-aside \(ms)".utf8)
                planted[earlier] = bytes
                if !writeRaw(bytes, to: t.store.corruptFolder + "/" + earlier) { plantFailures += 1 }
            }
            #expect(plantFailures == 0)
            let opensAt = Date(timeIntervalSince1970: Double(windowStart) / 1000)
            let closesAt = Date(timeIntervalSince1970: Double(windowStart + windowLength) / 1000)
            let open = await waitUntil(timeout: .seconds(30)) { Date() >= opensAt }
            try #require(open)

            let countBefore = t.names(in: t.store.corruptFolder).count
            let laterBytes = Data("later broken draft".utf8)
            #expect(writeRaw(laterBytes, to: t.store.folder + "/" + name))
            let before = Date()
            let laterPath = try t.store.setAside(fileName: name)
            let after = Date()
            if before >= opensAt && after < closesAt {
                landed = (laterPath, laterBytes, planted, countBefore)
            } else {
                // Missed: the later draft is in Corrupt/ under some name; the next try plants a fresh window.
                lead = max(lead, Int64(Date().timeIntervalSince(plantingStarted) * 1000) * 2)
                try? FileManager.default.removeItem(atPath: laterPath)
            }
        }
        let run = try #require(landed, "five set-asides missed their planted windows: the test proves nothing")
        let (laterPath, laterBytes, planted, countBefore) = run
        #expect(fileBytes(laterPath) == laterBytes)
        #expect(fileBytes(firstPath) == firstBytes)
        #expect(t.names(in: t.store.corruptFolder).count == countBefore + 1, "a file already in Corrupt/ was replaced")
        let overwritten = planted.filter { fileBytes(t.store.corruptFolder + "/" + $0.key) != $0.value }.map(\.key)
        #expect(overwritten.isEmpty, "set-aside drafts lost: \(overwritten)")
    }
}

/// An amendment's draft names the amended record by uuid and keeps the reason; drafts
/// written before that still read.
extension DraftStoreTests {
    private func jsonObject(at path: String) throws -> [String: Any] {
        let data = try #require(fileBytes(path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A draft amending record #4, written to the store.
    private func writeAmendmentDraft(_ t: TempHome, amendsUUID: String?, reason: String) throws -> DraftFile {
        var draft = makeDraft(assetUUID: UUID())
        draft.amends = 4
        draft.amendsUUID = amendsUUID
        draft.values.amendmentReason = reason
        try t.store.write(draft)
        return draft
    }

    @Test("an amendment's draft keeps the amended record's uuid and the reason; a fresh one writes neither")
    func amendmentFields() throws {
        let t = TempHome()
        defer { t.remove() }
        let draft = try writeAmendmentDraft(t, amendsUUID: "6f1c2a9e-7d4b-4c1a-9f0e-3b2a1c0d9e8f",
                                            reason: "Result entered on the wrong sling")
        #expect(try t.store.read(id: draft.draftID) == draft)
        let object = try jsonObject(at: t.store.path(for: draft.draftID))
        #expect((object["amends_uuid"] as? String) == "6f1c2a9e-7d4b-4c1a-9f0e-3b2a1c0d9e8f")
        let values = try #require(object["values"] as? [String: Any])
        #expect((values["amendment_reason"] as? String) == "Result entered on the wrong sling")

        let fresh = makeDraft(assetUUID: UUID())
        try t.store.write(fresh)
        let freshObject = try jsonObject(at: t.store.path(for: fresh.draftID))
        #expect(freshObject["amends_uuid"] == nil)
        #expect((freshObject["values"] as? [String: Any])?["amendment_reason"] == nil)
    }

    @Test("a draft written before amends_uuid and amendment_reason existed is read, not set aside")
    func olderDraftReads() throws {
        let t = TempHome()
        defer { t.remove() }
        // Without a uuid or a reason the file is what an older Rigbook wrote: no new key at all.
        let draft = try writeAmendmentDraft(t, amendsUUID: nil, reason: "")
        let object = try jsonObject(at: t.store.path(for: draft.draftID))
        #expect(object["amends_uuid"] == nil)
        #expect((object["values"] as? [String: Any])?["amendment_reason"] == nil)

        let (entries, setAside) = t.store.entries()
        #expect(setAside.isEmpty)
        #expect(entries.map(\.draft) == [draft])
        let back = try #require(try t.store.read(id: draft.draftID))
        #expect(back.amends == 4)
        #expect(back.amendsUUID == nil)
        #expect(back.isAmendment)
        #expect(back.values.amendmentReason == "")
    }
}
