import Foundation
import Testing
@testable import RigbookUI
@testable import RigbookApp
import RigbookStore
import RigbookCore

/// Batch inspection: marks on the list, one form for the marked assets, one transaction for their records.
@Suite("Batch inspection on screen", .serialized) struct BatchFormTests {
    static let profile = Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA 12345")

    static func assets(_ count: Int, commissioned: String = "2026-06-01") -> [Asset] {
        (1...count).map { makeAsset(tag: String(format: "WS-%04d", $0), name: "2 t web sling",
                                    location: "Quay 3", commissioned: commissioned) }
    }

    func batch(_ h: Harness) -> BatchFormState? { h.state.screens.last as? BatchFormState }

    /// Marks the first `count` rows with `m` and opens the batch with `I`.
    func openBatch(_ h: Harness, marking count: Int) throws -> BatchFormState {
        for _ in 0..<count { h.press(.char("m")) }
        #expect(h.screen[0].contains("• \(count) marked"), "\(h.dump)")
        h.press(.char("I"))
        return try #require(batch(h), "no batch form:\n\(h.dump)")
    }

    /// A clean pass on the batch form: F2 (the five checks and Pass), then the authentication ticked.
    func cleanPass(_ h: Harness) {
        h.press(.function(2))
        for _ in 0..<30 where batch(h)?.form.focus != .confirmed { h.press(.down) }
        h.press(.char(" "))
    }

    @Test func theTitleCountsTheMarkedAssetsByLocationSoAStrayMarkShows() throws {
        var assets = BatchFormTests.assets(10)
        assets[4].location = "Quay 2"
        let h = try Harness(.assets(assets), profile: BatchFormTests.profile)
        _ = try openBatch(h, marking: 10)
        #expect(h.screen[0].contains("10 assets: Quay 3 ×9, Quay 2 ×1"), "\(h.dump)")
    }

    @Test func marksOpenOneFormAndSaveOneRecordPerAssetUnderOneVisit() throws {
        let h = try Harness(.assets(BatchFormTests.assets(4)), profile: BatchFormTests.profile)
        let form = try openBatch(h, marking: 3)
        #expect(form.rows.map(\.asset.tag) == ["WS-0001", "WS-0002", "WS-0003"])
        #expect(form.form.focus == .checkMarking, "a remembered inspector: the form starts at the first check")
        #expect(h.screen[0].contains("Batch inspection · 3 assets: Quay 3 ×3"), "\(h.dump)")
        // Each asset shows what its own record would hold: its next examination date by its interval.
        #expect(h.screen.contains { $0.contains("WS-0002") && $0.contains("2027-11-30") }, "\(h.dump)")
        cleanPass(h)
        h.press(.ctrl("s"))
        #expect(batch(h) == nil, "the batch did not close after saving:\n\(h.dump)")
        #expect(h.screen.last?.contains("Saved 3 inspections in one batch") == true, "\(h.dump)")
        #expect(!h.screen[0].contains("marked"), "the saved assets are still marked:\n\(h.dump)")
        let visit = form.visit
        let records = try h.register.records(visit: visit)
        #expect(records.count == 3)
        #expect(Set(records.map(\.sessionID)).count == 3)
        #expect(records.allSatisfy { $0.values.result == .pass && $0.values.inspectorName == "Ann Smith" })
        let fourth = try #require(try h.register.asset(tag: "WS-0004"))
        #expect(try h.register.history(assetUUID: fourth.asset.uuid).isEmpty)
        #expect(h.session.drafts.batchIDs().isEmpty, "the batch draft is still there after the save")
    }

    @Test func theListHeaderCountsABatchDraftUntilItIsSaved() throws {
        let h = try Harness(.assets(BatchFormTests.assets(3)), profile: BatchFormTests.profile)
        _ = try openBatch(h, marking: 2)
        h.press(.char(" "))
        h.advance(1)
        h.press(.escape)
        h.press(.char("c"))  // close and keep the draft
        #expect(batch(h) == nil, "\(h.dump)")
        #expect(h.line(containing: "Kept the batch draft of 2 assets; D lists it to recover.") != nil, "\(h.dump)")
        #expect(h.screen[0].contains("✎ 1 draft"), "the batch's draft is not counted:\n\(h.dump)")
        h.press(.ctrl("l"))  // a reload counts it from the file names too
        #expect(h.screen[0].contains("✎ 1 draft"), "\(h.dump)")
        h.press(.char("D"), .char("x"), .char("d"))  // the Drafts screen: discard it
        h.press(.escape)
        #expect(h.session.drafts.batchIDs().isEmpty, "\(h.dump)")
        #expect(!h.screen[0].contains("draft"), "a discarded batch draft is still counted:\n\(h.dump)")
    }

    @Test func theGateNamesTheAssetThatBreaksARule() throws {
        var assets = BatchFormTests.assets(3)
        assets[1].commissioned = CalendarDate(iso: "2026-12-15")  // after today: no periodic examination yet
        let h = try Harness(.assets(assets), profile: BatchFormTests.profile)
        _ = try openBatch(h, marking: 3)
        cleanPass(h)
        h.press(.ctrl("s"))
        let form = try #require(batch(h))
        #expect(form.form.problems.contains { $0.message.hasPrefix("WS-0002: The inspection date is before") },
                "\(form.form.problems)")
        #expect(try h.register.recordCount() == 0, "a record was saved though one asset fails the gate")
        // Taken out of the batch, the others save.
        while batch(h)?.rows[batch(h)?.selection ?? 0].asset.tag != "WS-0002" { h.press(.pageDown) }
        h.press(.ctrl("x"))
        #expect(batch(h)?.rows.map(\.asset.tag) == ["WS-0001", "WS-0003"])
        h.press(.ctrl("s"))
        #expect(try h.register.recordCount() == 2, "\(h.dump)")
    }

    @Test func theBatchDraftBringsBackEveryAssetAndValue() throws {
        let h = try Harness(.assets(BatchFormTests.assets(5)), profile: BatchFormTests.profile)
        let form = try openBatch(h, marking: 4)
        h.press(.char(" "), .char(" "))  // Space ticks a check and moves on to the next
        h.advance(0.6)  // the draft's debounce
        let id = BatchIdentity.draftID(visit: form.visit)
        let written = try #require(try h.session.drafts.readBatch(id: id), "no batch draft on disk")
        #expect(written.assets.map(\.assetTag) == ["WS-0001", "WS-0002", "WS-0003", "WS-0004"])
        #expect(written.values.checkMarking && written.values.checkCuts)
        // A second terminal cannot take any of those assets while the batch is open.
        let other = try Harness(sharingHomeOf: h)
        other.press(.char("i"))
        #expect(other.screen.contains { $0.contains("open in another session") }, "\(other.dump)")
        other.press(.escape)
        // The first session dies without a word (kill -9: nothing is flushed, locks go with the process).
        for lockID in [id] + written.assets.map({ "inspection-" + $0.assetUUID }) { h.session.releaseLock(lockID) }
        let later = try Harness(sharingHomeOf: h)
        later.press(.char("D"))
        #expect(later.screen.contains { $0.contains("4 assets") && $0.contains("batch") }, "\(later.dump)")
        later.press(.enter)
        let recovered = try #require(later.state.screens.last as? BatchFormState, "\(later.dump)")
        #expect(recovered.visit == form.visit)
        #expect(recovered.rows.map(\.asset.tag) == ["WS-0001", "WS-0002", "WS-0003", "WS-0004"])
        #expect(recovered.form.values.checkMarking && recovered.form.values.checkCuts)
        #expect(!recovered.form.values.confirmed)
    }

    @Test func splittingOffOpensTheAssetsOwnFormAndComesBackToTheBatch() throws {
        let h = try Harness(.assets(BatchFormTests.assets(3)), profile: BatchFormTests.profile)
        _ = try openBatch(h, marking: 3)
        h.press(.char(" "))
        h.press(.pageDown)
        h.press(.ctrl("t"))
        let form = try #require(batch(h))
        let child = try #require(form.splitForm, "no split-off form:\n\(h.dump)")
        #expect(child.row.asset.tag == "WS-0002")
        #expect(child.values.checkMarking, "the split-off form is prefilled with the batch's values")
        #expect(form.rows.map(\.asset.tag) == ["WS-0001", "WS-0003"])
        #expect(h.screen[0].contains("Inspection · WS-0002"), "\(h.dump)")
        // Written at once, with no key since and no debounce: a kill now loses neither the asset nor the batch.
        let split = try #require(try h.register.asset(tag: "WS-0002"))
        #expect(try h.session.drafts.read(id: DraftIdentity.draftID(assetUUID: split.asset.uuid))?.values.checkMarking
                == true, "the split-off form's draft was not written at once")
        #expect(try h.session.drafts.readBatch(id: BatchIdentity.draftID(visit: form.visit))?.assets.count == 2,
                "the batch's draft still names the asset split off")
        h.press(.escape)
        h.press(.char("d"))
        #expect(batch(h)?.splitForm == nil, "\(h.dump)")
        #expect(h.screen[0].contains("Batch inspection · 2 assets"), "\(h.dump)")
    }

    @Test func aHangUpWritesTheBatchDraftAndTheSplitOffFormsDraft() throws {
        let h = try Harness(.assets(BatchFormTests.assets(3)), profile: BatchFormTests.profile)
        let form = try openBatch(h, marking: 3)
        h.press(.char(" "))
        h.press(.ctrl("t"))
        h.press(.right)  // the split-off form: a result chosen
        h.session.flushDrafts()
        #expect(try h.session.drafts.readBatch(id: BatchIdentity.draftID(visit: form.visit))?.assets.count == 2)
        let split = try #require(try h.register.asset(tag: "WS-0001"))
        #expect(try h.session.drafts.read(id: DraftIdentity.draftID(assetUUID: split.asset.uuid)) != nil,
                "the split-off form's draft was not written")
    }

    @Test func theMarksStopAtTheLimit() throws {
        var marks = Marks()
        #expect(marks.mark((0..<(Marks.limit + 3)).map { _ in UUID() }) == 3)
        #expect(marks.count == Marks.limit)
        let taken = marks.toggle(UUID())
        #expect(!taken)
    }
}

/// Hostile testing: a batch took assets that had inspection drafts of their own, leaving each draft behind to
/// be offered again over the batch's record.
extension BatchFormTests {
    /// An inspection draft for `asset`, as "Close and keep draft" leaves it.
    static func ownDraft(of asset: Asset, in h: Harness) throws {
        let values = InspectionValues.blank(inspectorName: "Bo Berg", certificationNumber: "C-7", today: harnessToday)
        let draft = DraftFile(draftID: DraftIdentity.draftID(assetUUID: asset.uuid),
                              sessionID: DraftIdentity.sessionID(assetUUID: asset.uuid),
                              assetUUID: asset.uuid.uuidString.lowercased(), assetTag: asset.tag, amends: nil,
                              values: values, createdAt: Timestamp.now(), updatedAt: Timestamp.now(),
                              operatorName: "Bo Berg", revision: 1)
        try DraftStore(home: h.home).write(draft)
    }

    @Test func anAssetWithADraftOfItsOwnIsNamedAndTheBatchNotOpened() throws {
        let assets = Self.assets(3)
        let h = try Harness(.assets(assets), profile: Self.profile)
        try Self.ownDraft(of: assets[0], in: h)
        h.press(.char("m"), .char("m"), .char("I"))
        #expect(batch(h) == nil, "the batch opened over WS-0001's own draft")
        #expect(h.flatScreen.contains("WS-0001 has a draft of its own"), "\(h.dump)")
        #expect(h.flatScreen.contains("Recover or discard it first"), "\(h.dump)")
        // Nothing stays locked: the others make a batch, and WS-0001's own form opens on its draft.
        h.press(.enter)
        h.press(.char("m"))                 // WS-0003 marked too
        h.press(.char("g"), .char("m"))     // WS-0001 unmarked
        h.press(.char("I"))
        #expect(batch(h)?.rows.map(\.asset.tag) == ["WS-0002", "WS-0003"], "\(h.dump)")
    }
}
