import Foundation
import Testing
@testable import RigbookUI
@testable import RigbookApp
import RigbookStore
import RigbookCore

/// An asset retired in another session (`rigbook asset retire`, the asset editor in a second terminal) while its
/// form was open: the register reads it again under its write lock and refuses the save, naming the asset, and
/// the form keeps everything typed. Before, the record went in and the list said "status now unknown".
@Suite("Saving onto an asset retired meanwhile", .serialized) struct RetiredMeanwhileTests {
    /// Retires `tag` through a connection of its own, as another process would.
    static func retireElsewhere(_ home: DataHome, tag: String) throws {
        let other = try Register.open(path: home.registerPath)
        let row = try #require(try other.asset(tag: tag))
        try other.retire(assetUUID: row.asset.uuid, as: .scrapped, on: harnessToday, reason: "cut through")
    }

    @Test func aSingleFormIsRefusedNamingTheAssetAndKeepsTheDraft() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.press(.char("i"))
        h.fillCompletePass()
        h.focus(.notes)
        h.type("typed before the retirement")
        h.advance(0.6)
        try Self.retireElsewhere(h.home, tag: "SL-0042")
        h.press(.ctrl("s"))
        let form = try #require(h.form, "the form closed although the asset was retired:\n\(h.screenText)")
        let reason = try #require(form.saveError)
        #expect(reason.hasPrefix("SL-0042 was retired (scrapped, 2026-11-30); nothing was saved."), "\(reason)")
        #expect(reason.contains("What you typed is kept in the draft"), "\(reason)")
        #expect(h.flatScreen.contains("Not saved: " + reason), "the reason is not shown in full:\n\(h.screenText)")
        #expect(!h.flatScreen.contains("status now unknown"))
        #expect(try h.history().isEmpty, "a record of a retired asset was saved")
        h.advance(0.6)
        #expect(try h.readDraft()?.values.notes == "typed before the retirement", "the draft was lost")
    }

    @Test func aBatchSavesNothingNamesTheAssetAndSavesTheRestOnceItIsTakenOut() throws {
        let h = try Harness(.assets(BatchFormTests.assets(3)), profile: BatchFormTests.profile)
        for _ in 0..<3 { h.press(.char("m")) }
        h.press(.char("I"))
        var batch = try #require(h.state.screens.last as? BatchFormState, "\(h.dump)")
        h.press(.function(2))
        for _ in 0..<30 where (h.state.screens.last as? BatchFormState)?.form.focus != .confirmed { h.press(.down) }
        h.press(.char(" "))
        try Self.retireElsewhere(h.home, tag: "WS-0002")
        h.press(.ctrl("s"))
        batch = try #require(h.state.screens.last as? BatchFormState, "the batch closed:\n\(h.dump)")
        let reason = try #require(batch.form.saveError, "\(h.dump)")
        #expect(reason.hasPrefix("WS-0002 was retired (scrapped, 2026-11-30); nothing was saved."), "\(reason)")
        #expect(reason.contains("take WS-0002 out of the batch (Ctrl-X)"), "\(reason)")
        #expect(FormHarness.collapse(h.screen.joined(separator: " ")).contains("Not saved: " + reason), "\(h.dump)")
        #expect(try h.register.recordCount() == 0, "all or nothing")
        // The retired asset is selected: Ctrl-X takes it out, and the rest saves.
        #expect(batch.rows[batch.selection].asset.tag == "WS-0002")
        h.press(.ctrl("x"))
        h.press(.ctrl("s"))
        #expect(h.state.screens.last as? BatchFormState == nil, "the rest did not save:\n\(h.dump)")
        #expect(h.screen.last?.contains("Saved 2 inspections in one batch") == true, "\(h.dump)")
        #expect(try h.register.records(visit: batch.visit).map(\.assetUUID).count == 2)
    }
}
