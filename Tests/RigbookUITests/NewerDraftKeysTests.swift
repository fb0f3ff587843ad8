import Foundation
import Testing
import RigbookApp
import RigbookCore
import RigbookStore
import RigbookTestSupport
import RigbookUI

/// A draft a newer build wrote, recovered in the form: the keys this build does not know travel with the form
/// (`DraftFileMeta`) and every write of the draft puts them back as they were.
@Suite("A newer build's draft in the form", .serialized)
struct NewerDraftKeysTests {
    @Test("recovered, typed into and kept: the newer build's keys are still in the draft file, as written")
    func recoveredDraftKeepsNewerKeys() throws {
        let h = try FormHarness(profile: HardeningDraftFlowTests.profile)
        _ = try HardeningDraftFlowTests.earlierDraft(h, notes: "written by a newer build")
        try NewerDraftKeys.add(at: h.draftPath)
        h.press(.char("i"))
        #expect(h.shows("Unsubmitted draft for SL-0042"), "\(h.screenText)")
        h.press(.char("r"))
        h.focus(.notes)
        h.press(.end)
        h.type(", typed here")
        h.advance(0.6)
        #expect(try h.readDraft()?.values.notes == "written by a newer build, typed here")
        #expect(try NewerDraftKeys.missing(at: h.draftPath).isEmpty, "lost by the debounced write")
        h.type("!")
        h.press(.escape)
        h.press(.char("c"))
        #expect(h.form == nil)
        #expect(try h.readDraft()?.values.notes == "written by a newer build, typed here!")
        #expect(try NewerDraftKeys.missing(at: h.draftPath).isEmpty, "lost by close and keep draft")
    }
}
