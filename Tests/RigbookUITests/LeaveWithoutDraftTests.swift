import Foundation
import Testing
import RigbookApp
import RigbookCore
import RigbookStore
import RigbookUI

/// Esc in a form whose draft is not on disk (the Drafts folder unusable, a disk full): the leave question does not
/// offer to keep a draft it cannot keep, says why, and offers to keep editing, or to discard in words that say what
/// is lost; `c` does not close the form. Every form that asks it: the inspection form, the batch, the test form,
/// the asset editor. Once a draft write succeeds again, the usual question is back.
@Suite("Leaving a form whose draft is not on disk", .serialized)
struct LeaveWithoutDraftTests {
    /// Esc, then what the question must show and what `c` and `k` must do, while `isOpen` says whether the form is
    /// still on screen.
    static func expectNoDraftKeptOnLeaving(_ h: Harness, isOpen: () -> Bool,
                                           sourceLocation: SourceLocation = #_sourceLocation) {
        func screen() -> String { FormHarness.collapse(h.screen.joined(separator: " ")) }
        h.press(.escape, sourceLocation: sourceLocation)
        #expect(!screen().contains("Close and keep draft"), "keeping a draft not on disk offered:\n\(h.dump)",
                sourceLocation: sourceLocation)
        #expect(screen().contains("[ Keep editing ]") && screen().contains("[ Discard what I typed ]"),
                "\(h.dump)", sourceLocation: sourceLocation)
        #expect(screen().contains("The draft could not be written to disk:"), "no reason given:\n\(h.dump)",
                sourceLocation: sourceLocation)
        h.press(.char("c"), sourceLocation: sourceLocation)
        #expect(isOpen(), "c closed the form", sourceLocation: sourceLocation)
        #expect(screen().contains("[ Discard what I typed ]"), "c answered the question:\n\(h.dump)",
                sourceLocation: sourceLocation)
        h.press(.char("k"), sourceLocation: sourceLocation)
        #expect(isOpen() && !screen().contains("[ Keep editing ]"), "\(h.dump)", sourceLocation: sourceLocation)
    }

    @Test("the inspection form: no keeping offered while Drafts/ is unusable; once a write succeeds, it is again")
    func inspectionForm() throws {
        let h = try FormHarness(profile: HardeningDraftFlowTests.profile)
        try HardeningDraftFlowTests.typeWithoutDrafts(h, " Jr")
        #expect(h.shows("DRAFT NOT ON DISK"))
        Self.expectNoDraftKeptOnLeaving(h.harness) { h.form != nil }
        #expect(h.form?.values.inspectorName == "Ann Smith Jr", "the typing is still there")

        // The question open when the folder becomes usable: the retried write succeeds, and keeping is offered.
        h.press(.escape)
        try HardeningDraftFlowTests.unblockDrafts(h.home)
        h.advance(HardeningDraftFlowTests.retry)
        #expect(h.form?.draftWarning == nil)
        #expect(h.flatScreen.contains("[ Close and keep draft ]"), "\(h.screenText)")
        h.press(.char("c"))
        #expect(h.form == nil)
        #expect(try h.readDraft()?.values.inspectorName == "Ann Smith Jr")
    }

    @Test("the inspection form: a draft write that fails as the question opens takes keeping off it; d discards")
    func writeFailingAsTheQuestionOpens() throws {
        let h = try FormHarness(profile: HardeningDraftFlowTests.profile)
        h.openFormOnInspectorName()
        h.type(" Jr")
        // No write yet (the debounce has not fired): the folder goes before the first.
        try HardeningDraftFlowTests.blockDrafts(h.home)
        Self.expectNoDraftKeptOnLeaving(h.harness) { h.form != nil }
        h.press(.escape)
        h.press(.char("d"))
        #expect(h.form == nil)
        #expect(h.shows("Discarded the inspection of SL-0042"), "\(h.screenText)")
    }

    @Test("the batch form asks the same")
    func batchForm() throws {
        let h = try Harness(.assets(BatchFormTests.assets(2)), profile: BatchFormTests.profile)
        h.press(.char("m"))
        h.press(.char("m"))
        h.press(.char("I"))
        func batch() -> BatchFormState? { h.state.screens.last as? BatchFormState }
        #expect(batch() != nil, "no batch form:\n\(h.dump)")
        h.press(.char(" "))
        try HardeningDraftFlowTests.blockDrafts(h.home)
        h.advance(0.6)
        #expect(h.screen[0].contains("DRAFT NOT ON DISK"), "\(h.dump)")
        Self.expectNoDraftKeptOnLeaving(h) { batch() != nil }
    }

    @Test("the test form asks the same")
    func testForm() throws {
        let h = try TestFormTests.TestHarness()
        h.press(.char("i"))
        h.set(.technician, "Ana Reyes")
        try HardeningDraftFlowTests.blockDrafts(h.harness.home)
        h.harness.advance(0.6)
        #expect(h.form?.draft.warning != nil)
        Self.expectNoDraftKeptOnLeaving(h.harness) { h.form != nil }
        #expect(h.form?.values.technician == "Ana Reyes")
    }

    @Test("the asset editor asks the same")
    func assetEditor() throws {
        let h = try Harness(.assets([AssetEditorTests.sling]))
        h.press(.char("e"))
        #expect(h.line(containing: "Edit SL-0042") != nil, "\(h.dump)")
        h.type("X")
        try HardeningDraftFlowTests.blockDrafts(h.home)
        h.advance(0.6)
        #expect(h.line(containing: "DRAFT NOT ON DISK") != nil, "\(h.dump)")
        Self.expectNoDraftKeptOnLeaving(h) { h.state.screens.last is AssetFormState }
    }
}
