import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// Assets edited with their history kept, and retired.
@Suite("Assets over their life: changes and retirement")
struct AssetLifeTests {
    private func stamp(_ at: String, _ who: String = "ann") -> SaveStamp {
        SaveStamp(savedAt: at, appVersion: "0.1.0-test", operatorName: who)
    }

    private func entryHash(_ register: Register, _ uuid: UUID) throws -> SQLValue? {
        try register.db.scalar("SELECT entry_hash FROM assets WHERE uuid = ?", [.text(uuid.uuidString)])
    }

    @Test("an edit keeps one change per field, the asset's uuid and its hash; verify passes")
    func editKeepsHistory() throws {
        try withRegister(holding: makeAsset()) { register, asset in
            let hashBefore = try entryHash(register, asset.uuid)
            var edited = asset
            edited.location = "Bay 9"
            edited.wllKg = 1500
            let changes = try register.change(assetUUID: asset.uuid, to: edited, reason: "WLL misread",
                                              stamp: stamp("2026-03-16T08:00:00.000Z"), sessionID: "asset-x:1")
            #expect(changes.map(\.field) == [.wllKg, .location])
            let row = try #require(try register.asset(uuid: asset.uuid))
            #expect(row.asset.location == "Bay 9" && row.asset.wllKg == 1500)
            #expect(try entryHash(register, asset.uuid) == hashBefore, "the asset's hash covers what was added")
            let kept = try register.assetChanges(assetUUID: asset.uuid)
            #expect(kept.map(\.oldValue) == [.number(2000), .text("Bay 4")])
            #expect(kept.map(\.newValue) == [.number(1500), .text("Bay 9")])
            #expect(kept.allSatisfy { $0.reason == "WLL misread" && $0.operatorName == "ann" && $0.entryHash != nil })
            #expect(try register.containsSession(id: "asset-x:1"))
            let verification = try register.verifyChain()
            #expect(verification.problem == nil)
            #expect(verification.entries == 1 + 2 + 2, "the asset, the first particulars, the two changes")
        }
    }

    @Test("a tag change keeps the asset: the old tag still finds it, unless another asset has it now")
    func tagChangeKeepsIdentity() throws {
        try withRegister(holding: makeAsset(tag: "SL-0042")) { register, asset in
            var edited = asset
            edited.tag = "SL-0142"
            try register.change(assetUUID: asset.uuid, to: edited, reason: "tag replaced", stamp: testStamp)
            #expect(try register.asset(tag: "sl-0142")?.asset.uuid == asset.uuid)
            #expect(try register.asset(tag: "SL-0042")?.asset.uuid == asset.uuid, "the old tag still finds it")
            let newcomer = makeAsset(tag: "SL-0042")
            try register.addAsset(newcomer)
            #expect(try register.asset(tag: "SL-0042")?.asset.uuid == newcomer.uuid)
            #expect(try register.verifyChain().problem == nil)
        }
    }

    @Test("a change that breaks a rule, repeats a tag or gives no reason writes nothing")
    func refusedChangesWriteNothing() throws {
        try withRegister(holding: makeAsset(tag: "SL-1")) { register, asset in
            try register.addAsset(makeAsset(tag: "SL-2"))
            var clash = asset
            clash.tag = "sl-2"
            #expect(throws: RegisterError.duplicateTag("sl-2")) {
                try register.change(assetUUID: asset.uuid, to: clash, reason: "x", stamp: testStamp)
            }
            var moved = asset
            moved.location = "Bay 2"
            #expect(throws: RegisterError.self) { try register.change(assetUUID: asset.uuid, to: moved, reason: " ") }
            var broken = asset
            broken.wllKg = 0
            #expect(throws: RegisterError.self) { try register.change(assetUUID: asset.uuid, to: broken, reason: "x") }
            #expect(try register.assetChanges(assetUUID: asset.uuid).isEmpty)
            #expect(try register.asset(uuid: asset.uuid)?.asset == asset)
            #expect(try register.change(assetUUID: asset.uuid, to: asset, reason: "nothing").isEmpty)
        }
    }

    @Test("changes are evidence: UPDATE and DELETE are refused by triggers")
    func changesAreAppendOnly() throws {
        try withRegister(holding: makeAsset()) { register, asset in
            var edited = asset
            edited.location = "Bay 9"
            try register.change(assetUUID: asset.uuid, to: edited, reason: "moved", stamp: testStamp)
            #expect(throws: DatabaseError.self) { try register.db.execute("UPDATE asset_changes SET reason = 'x'") }
            #expect(throws: DatabaseError.self) { try register.db.execute("DELETE FROM asset_changes") }
            #expect(try register.assetChanges(assetUUID: asset.uuid).count == 1)
        }
    }

    @Test("an asset's columns changed behind Rigbook's back, or what it was added as: verify names it")
    func tamperingIsFound() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let register = try Register.open(path: path)
            let asset = makeAsset()
            try register.addAsset(asset)
            var edited = asset
            edited.location = "Bay 9"
            try register.change(assetUUID: asset.uuid, to: edited, reason: "moved", stamp: testStamp)
            let raw = try Database(path: path, mode: .readWrite)
            try raw.execute("UPDATE assets SET wll_kg = 5000")
            #expect(try register.verifyChain().problem?.contains("holds a wll_kg that none of its changes gave it")
                    == true)
            try raw.execute("UPDATE assets SET wll_kg = 2000, as_added = replace(as_added, 'Bay 4', 'Bay 5')")
            #expect(try register.verifyChain().problem?.contains("does not match its hash") == true)
        }
    }

    @Test("a new interval moves the due date at once")
    func intervalMovesDueDate() throws {
        try withRegister(holding: makeAsset(intervalMonths: 12)) { register, asset in
            try register.insert(try validated(passingValues(on: "2026-03-01"), for: asset), saved: testStamp)
            var edited = asset
            edited.intervalMonths = 6
            try register.change(assetUUID: asset.uuid, to: edited, reason: "accessory: 6 months", stamp: testStamp)
            let row = try #require(try register.asset(uuid: asset.uuid))
            #expect(row.status(on: testToday).nextDue == day("2026-09-01"))
            try expectSummaryFollowsHistory(register, asset.uuid)
        }
    }

    @Test("a retired asset leaves the active rows and due lists; its records stay")
    func retiredAssetLeaves() throws {
        try withRegister(holding: makeAsset(tag: "SL-1", commissioned: "2020-01-01")) { register, asset in
            try register.addAsset(makeAsset(tag: "SL-2"))
            try register.insert(try validated(passingValues(on: "2024-03-01"), for: asset), saved: testStamp)
            try register.retire(assetUUID: asset.uuid, as: .scrapped, on: day("2026-03-10"), reason: "cut and bent",
                                stamp: testStamp)
            #expect(try register.rows().map(\.asset.tag) == ["SL-2"])
            let all = try register.rows(includingRetired: true)
            let retired = try #require(all.first { $0.asset.tag == "SL-1" })
            #expect(retired.asset.disposition == .scrapped && retired.asset.retiredOn == day("2026-03-10"))
            #expect(retired.status(on: testToday).status == .retired)
            #expect(retired.status(on: testToday).nextDue == nil)
            #expect(try register.history(assetUUID: asset.uuid).count == 1)
            #expect(throws: RegisterError.self) {
                try register.retire(assetUUID: asset.uuid, as: .lost, on: testToday, reason: "again")
            }
            #expect(try register.verifyChain().problem == nil)
        }
    }

    /// The gate judged the asset as it was when the form opened; another session retired it meanwhile. The
    /// insert reads the asset again under the write lock and refuses, naming it; a correction still goes in.
    @Test("an inspection of an asset retired since its form opened is refused under the write lock")
    func retiredMeanwhileIsRefused() throws {
        try withRegister(holding: makeAsset(tag: "SL-1", commissioned: "2020-01-01")) { register, asset in
            try register.insert(try validated(passingValues(on: "2026-03-01"), for: asset), saved: testStamp)
            let original = try #require(try register.history(assetUUID: asset.uuid).first)
            // Validated against the asset in service, as a form opened before the retirement would.
            let fresh = try validated(passingValues(on: "2026-03-14"), for: asset)
            var corrected = passingValues(on: "2026-03-01")
            corrected.notes = "the label was missing"
            let correction = try validated(corrected, for: asset, amending: original)
            try register.retire(assetUUID: asset.uuid, as: .scrapped, on: day("2026-03-10"), reason: "cut",
                                stamp: testStamp)
            let head = try register.verifyChain().head
            let refused = #expect(throws: RegisterError.self) { try register.insert(fresh, saved: testStamp) }
            let retired = try #require(try register.asset(uuid: asset.uuid)).asset
            #expect(refused == .retired([try #require(RegisterError.RetiredAsset(retired))]))
            #expect(refused?.description == "SL-1 was retired (scrapped, 2026-03-10); nothing was saved.")
            #expect(try register.recordCount() == 1)
            #expect(try register.verifyChain().head == head)
            // Its records may still be corrected, as the gate allows.
            try register.insert(correction, saved: testStamp)
            #expect(try register.recordCount() == 2)
        }
    }

    @Test("a change made while the clock is behind the last one still holds")
    func laterChangeHoldsEvenWithAClockBehind() throws {
        try withRegister(holding: makeAsset()) { register, asset in
            var first = asset
            first.location = "Bay 9"
            try register.change(assetUUID: asset.uuid, to: first, reason: "a", stamp: stamp("2026-03-16T08:00:00.000Z"))
            var second = first
            second.location = "Bay 10"
            try register.change(assetUUID: asset.uuid, to: second, reason: "b",
                                stamp: stamp("2026-03-15T08:00:00.000Z"))
            #expect(try register.asset(uuid: asset.uuid)?.asset.location == "Bay 10")
            #expect(try register.verifyChain().problem == nil)
        }
    }
}
