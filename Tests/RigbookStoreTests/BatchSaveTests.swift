import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

/// A batch inspection saves one record per asset in one transaction, linked by a visit id, and
/// keeps its own draft (`batch-<visit>.json`).
@Suite("Batch inspection: one transaction, a visit id, a batch draft", .serialized) struct BatchSaveTests {
    /// N assets in a new register (with the particulars a thorough examination needs).
    func withBatchRegister<T>(count: Int, _ body: (Register, [Asset]) throws -> T) throws -> T {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            for change in TestParticulars.changes { try register.record(change) }
            let assets = (1...count).map { makeAsset(tag: String(format: "SL-%04d", $0)) }
            for asset in assets { try register.addAsset(asset) }
            return try body(register, assets)
        }
    }

    func batch(_ values: InspectionValues, _ assets: [Asset], visit: UUID) throws -> [ValidatedInspection] {
        let members = assets.map { asset in
            BatchMember(tag: asset.tag, context: SaveGate.Context(
                asset: asset, today: testToday, sessionID: BatchIdentity.sessionID(visit: visit, assetUUID: asset.uuid),
                particulars: TestParticulars.report(for: asset.uuid)))
        }
        switch BatchGate.validate(values, members: members) {
        case .success(let records): return records
        case .failure(let failure):
            Issue.record("the batch gate refused: \(failure.problems.map(\.message))")
            throw failure
        }
    }

    @Test func aBatchSavesOneRecordPerAssetLinkedByItsVisit() throws {
        try withBatchRegister(count: 3) { register, assets in
            let visit = UUID()
            let records = try batch(passingValues(on: "2026-03-14"), assets, visit: visit)
            let ids = try register.insert(batch: records, visit: visit, saved: testStamp)
            #expect(ids.count == 3)
            let saved = try register.records(visit: visit)
            #expect(saved.map(\.assetUUID) == assets.map(\.uuid))
            #expect(Set(saved.map(\.sessionID)).count == 3, "each record has its own session id")
            #expect(saved.allSatisfy { $0.visitUUID == visit })
            #expect(Set(saved.compactMap(\.reportNumber)).count == 3, "each thorough examination its own number")
            for asset in assets { try expectSummaryFollowsHistory(register, asset.uuid) }
            let chain = try register.verifyChain()
            #expect(chain.problem == nil, "\(chain.problem ?? "")")
            // A single form's record carries no visit.
            let single = try validated(passingValues(on: "2026-03-15"), for: assets[0])
            let id = try register.insert(single, saved: testStamp)
            #expect(try register.inspection(id: id)?.visitUUID == nil)
        }
    }

    /// The batch commits without SQLite's automatic checkpoint (its pages wait in the WAL, durable), and the
    /// idle tick's checkpoint copies them into the file once; records and chain are the same either side of it.
    @Test func aBatchLeavesItsCheckpointForWhenNobodyWaits() throws {
        try withBatchRegister(count: 40) { register, assets in
            #expect(!register.checkpointIfDeferred(), "nothing deferred before a batch")
            let visit = UUID()
            try register.insert(batch: try batch(passingValues(on: "2026-03-14"), assets, visit: visit), visit: visit,
                                saved: testStamp)
            let wal = register.path + "-wal"
            let before = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            #expect(before > 0, "the batch's pages are in the WAL")
            #expect(try register.records(visit: visit).count == 40)
            #expect(register.checkpointIfDeferred(), "the idle tick copies them")
            #expect(!register.checkpointIfDeferred(), "once")
            #expect(try register.records(visit: visit).count == 40)
            #expect(Set(try register.records(visit: visit).map(\.recordUUID)).count == 40)
            let chain = try register.verifyChain()
            #expect(chain.problem == nil, "\(chain.problem ?? "")")
            // A single save after it checkpoints as SQLite always does.
            try register.insert(try validated(passingValues(on: "2026-03-15"), for: assets[0]), saved: testStamp)
            #expect(!register.checkpointIfDeferred())
        }
    }

    /// The chain's head is held in memory through a batch and written once at its end: it must end on the
    /// batch's newest entry, and the next save hang on it.
    @Test func aBatchLeavesTheChainsHeadOnItsNewestEntry() throws {
        try withBatchRegister(count: 5) { register, assets in
            let visit = UUID()
            try register.insert(batch: try batch(passingValues(on: "2026-03-14"), assets, visit: visit), visit: visit,
                                saved: testStamp)
            let db = try Database(path: register.path, mode: .readOnly)
            let newest = try db.scalar("SELECT entry_hash FROM notices ORDER BY id DESC LIMIT 1")
            #expect(newest != nil)
            #expect(try db.scalar("SELECT head_hash FROM register_chain") == newest)
            let id = try register.insert(try validated(passingValues(on: "2026-03-15"), for: assets[0]),
                                         saved: testStamp)
            #expect(try db.scalar("SELECT parent_hash FROM inspections WHERE id = ?", [.integer(id)]) == newest)
            let chain = try register.verifyChain()
            #expect(chain.problem == nil, "\(chain.problem ?? "")")
        }
    }

    @Test func aBatchThatFailsHalfWayLeavesNoRecord() throws {
        try withBatchRegister(count: 4) { register, assets in
            let visit = UUID()
            let records = try batch(passingValues(on: "2026-03-14"), assets, visit: visit)
            // The third asset's session is in the register already: its insert fails after two went in.
            try register.insert(records[2], saved: testStamp)
            let before = try register.recordCount()
            let head = try register.verifyChain().head
            #expect(throws: RegisterError.self) {
                try register.insert(batch: records, visit: visit, saved: testStamp)
            }
            #expect(try register.recordCount() == before, "a record of the failed batch stayed")
            #expect(try register.records(visit: visit).isEmpty)
            #expect(try register.verifyChain().head == head)
            #expect(try register.history(assetUUID: assets[0].uuid).isEmpty)
            try expectSummaryFollowsHistory(register, assets[0].uuid)
        }
    }

    /// All or nothing: an asset of the batch retired (in another session) since the batch opened refuses the
    /// whole save, naming every such asset; without it, the rest saves.
    @Test func aBatchHoldingAnAssetRetiredMeanwhileSavesNothing() throws {
        try withBatchRegister(count: 3) { register, assets in
            let visit = UUID()
            let records = try batch(passingValues(on: "2026-03-14"), assets, visit: visit)
            try register.retire(assetUUID: assets[1].uuid, as: .sold, on: day("2026-03-12"), reason: "sold",
                                stamp: testStamp)
            let error = #expect(throws: RegisterError.self) {
                try register.insert(batch: records, visit: visit, saved: testStamp)
            }
            guard case .retired(let retired)? = error else {
                Issue.record("refused for another reason: \(String(describing: error))")
                return
            }
            #expect(retired.map(\.uuid) == [assets[1].uuid])
            #expect(error?.description == "SL-0002 was retired (sold, 2026-03-12); nothing was saved.")
            #expect(try register.recordCount() == 0)
            #expect(try register.records(visit: visit).isEmpty)
            // Taken out of the batch, the others save.
            let rest = [records[0], records[2]]
            #expect(try register.insert(batch: rest, visit: visit, saved: testStamp).count == 2)
        }
    }

    @Test func aDefectsNoticesAreOpenedOnEveryRecord() throws {
        try withBatchRegister(count: 2) { register, assets in
            let visit = UUID()
            let records = try batch(failingValues(on: "2026-03-14"), assets, visit: visit)
            let answers = DefectNotices(employerContact: "Site manager", employerToldOn: day("2026-03-14"),
                                        seriousRisk: false)
            try register.insert(batch: records, visit: visit, saved: testStamp, defectNotices: answers)
            for record in try register.records(visit: visit) {
                let notices = try register.notices(recordUUID: record.recordUUID)
                #expect(notices.contains { $0.duty == .employerTold && $0.recipient == "Site manager" },
                        "\(notices)")
            }
        }
    }

    @Test func aBatchDraftRoundTripsAndHousekeepingKnowsIt() throws {
        try withBatchRegister(count: 2) { register, assets in
            let home = DataHome(root: (register.path as NSString).deletingLastPathComponent
                                    .replacingOccurrences(of: "/Documents", with: ""))
            let store = DraftStore(home: home)
            let visit = UUID()
            var values = passingValues(on: "2026-03-14")
            values.notes = "Quay 3, all clean"
            let draft = BatchDraftFile(visit: visit, assets: assets.map {
                BatchDraftFile.Member(assetUUID: $0.uuid.uuidString.lowercased(), assetTag: $0.tag)
            }, values: values, createdAt: Timestamp.now(), updatedAt: Timestamp.now(), operatorName: "Alan Hughes",
               revision: 1, focusedField: "notes")
            try store.write(batch: draft)
            #expect(try store.readBatch(id: draft.draftID) == draft)
            #expect(store.batchIDs() == [draft.draftID])
            #expect(store.ids().isEmpty, "a batch draft is no single form's draft")
            // Not saved yet: start-up keeps it (and never sets it aside).
            var report = store.housekeeping(register: register, retentionDays: 30)
            #expect(report.isEmpty, "\(report)")
            #expect(store.batchIDs() == [draft.draftID])
            // Held by an open batch: its lock can be taken only once.
            guard case .acquired(let lock) = store.lock(id: draft.draftID) else {
                Issue.record("the batch draft's lock was not taken")
                return
            }
            guard case .heldBy = store.lock(id: draft.draftID) else {
                Issue.record("a second lock on the batch draft was taken")
                return
            }
            lock.release()
            // Saved, then a crash before the file went: the next start removes it.
            try register.insert(batch: try batch(values, assets, visit: visit), visit: visit, saved: testStamp)
            report = store.housekeeping(register: register, retentionDays: 30)
            #expect(report.alreadySaved == [draft.draftID])
            #expect(store.batchIDs().isEmpty)
        }
    }

    @Test func anUnreadableBatchDraftIsSetAside() throws {
        try withBatchRegister(count: 1) { register, _ in
            let home = DataHome(root: (register.path as NSString).deletingLastPathComponent
                                    .replacingOccurrences(of: "/Documents", with: ""))
            let store = DraftStore(home: home)
            let id = BatchIdentity.draftID(visit: UUID())
            try DataHome.makePrivateDirectory(store.folder)
            try Data("{\"schema_version\": 1, \"draft_id\": ".utf8).write(to: URL(fileURLWithPath: store.path(for: id)))
            let report = store.housekeeping(register: register, retentionDays: 30)
            #expect(report.setAside.map(\.file) == [id + ".json"])
        }
    }

    @Test func aBatchDraftPastRetentionIsPurgedAtStartAndOneWithinItIsKept() throws {
        try withBatchRegister(count: 1) { register, assets in
            let home = DataHome(root: (register.path as NSString).deletingLastPathComponent
                                    .replacingOccurrences(of: "/Documents", with: ""))
            let store = DraftStore(home: home)
            let members = assets.map { BatchDraftFile.Member(assetUUID: $0.uuid.uuidString.lowercased(), assetTag: $0.tag) }
            let old = BatchDraftFile(visit: UUID(), assets: members, values: passingValues(on: "2026-03-14"),
                                     createdAt: "2026-01-01T08:00:00.000Z", updatedAt: "2026-01-02T08:00:00.000Z",
                                     operatorName: "Alan Hughes", revision: 3)
            var recent = old
            recent.draftID = BatchIdentity.draftID(visit: UUID())
            recent.visitUUID = String(recent.draftID.dropFirst(BatchIdentity.prefix.count))
            recent.updatedAt = "2026-02-20T08:00:00.000Z"
            try store.write(batch: old)
            try store.write(batch: recent)
            let report = store.housekeeping(register: register, retentionDays: 30,
                                            now: Timestamp.parse("2026-03-01T08:00:00.000Z")!)
            #expect(report.expired == [old.draftID])
            #expect(report.alreadySaved.isEmpty && report.setAside.isEmpty, "\(report)")
            #expect(store.batchIDs() == [recent.draftID])
        }
    }

    @Test func theBatchListLeavesANewerSchemasDraftWhereItIsAndSetsAsideAnUnreadableOne() throws {
        try withBatchRegister(count: 1) { register, assets in
            let home = DataHome(root: (register.path as NSString).deletingLastPathComponent
                                    .replacingOccurrences(of: "/Documents", with: ""))
            let store = DraftStore(home: home)
            let draft = BatchDraftFile(visit: UUID(), assets: assets.map {
                BatchDraftFile.Member(assetUUID: $0.uuid.uuidString.lowercased(), assetTag: $0.tag)
            }, values: passingValues(on: "2026-03-14"), createdAt: Timestamp.now(), updatedAt: Timestamp.now(),
               operatorName: "Alan Hughes", revision: 1)
            try store.write(batch: draft)
            let newer = BatchIdentity.draftID(visit: UUID())
            try Data(#"{"schema_version": 2, "draft_id": "\#(newer)"}"#.utf8)
                .write(to: URL(fileURLWithPath: store.path(for: newer)))
            let cut = BatchIdentity.draftID(visit: UUID())
            try Data("{\"schema_version\": 1, \"draft_id\": ".utf8).write(to: URL(fileURLWithPath: store.path(for: cut)))
            let listed = store.batchEntries()
            #expect(listed.drafts == [BatchDraftEntry(draft: draft, lockedBy: nil)])
            #expect(listed.setAside.map(\.file) == [cut + ".json"])
            #expect(listed.setAside.map(\.reason) == ["unreadable (not JSON, or cut short)"])
            #expect(Set(store.batchIDs()) == [draft.draftID, newer])
        }
    }
}
