import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
import RigbookUI

/// A recovered draft comes back with the confirmation unticked and the focus on the field
/// that had it when the draft was written.
@Suite("Recovered drafts: focus kept, confirmation given again")
struct DraftRecoveryFocusTests {
    static let profile = Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1")

    /// Ticks the confirmation, then types into the notes and lets the draft be written there.
    static func confirmThenTypeNotes(_ h: FormHarness) {
        h.press(.char("i"))
        h.focus(.confirmed)
        h.press(.char(" "))
        h.focus(.notes)
        h.type("Label worn")
        h.advance(0.6)
    }

    @Test("Recover puts the focus where the draft was written and leaves the confirmation unticked")
    func recoverRestoresFocusNotConfirmation() throws {
        let h = try FormHarness(profile: DraftRecoveryFocusTests.profile)
        DraftRecoveryFocusTests.confirmThenTypeNotes(h)
        let written = try #require(try h.readDraft())
        #expect(written.values.confirmed, "the file holds what was typed")
        #expect(written.focusedField == "notes")
        // Moving on writes nothing; closing with the draft kept writes it once more, with the focus of then.
        h.press(.tab)
        #expect(try h.readDraft()?.focusedField == "notes")
        h.press(.escape, .char("c"))
        #expect(h.form == nil)
        #expect(try h.readDraft()?.focusedField == "scheme_reference")

        h.press(.char("i"))
        #expect(h.shows("Unsubmitted draft for SL-0042"))
        h.press(.enter) // Recover
        let form = try #require(h.form)
        #expect(form.focus == .schemeReference)
        #expect(form.values.notes == "Label worn")
        #expect(!form.values.confirmed, "a recovered draft is confirmed again by a person, never by the file")
        // Typing goes where the focus was.
        h.type("SCH-7")
        #expect(h.form?.values.schemeReference == "SCH-7")
    }

    @Test("The Drafts screen's Recover does the same")
    func draftsScreenRecoverRestoresFocus() throws {
        let h = try FormHarness(profile: DraftRecoveryFocusTests.profile)
        DraftRecoveryFocusTests.confirmThenTypeNotes(h)
        h.press(.escape, .char("c"))
        h.press(.char("D"), .enter)
        #expect(h.form?.focus == .notes)
        #expect(h.form?.values.confirmed == false)
    }

    @Test("A draft without focused_field (an earlier build's) recovers on the first field that needs the inspector")
    func olderDraftRecoversAtTheTop() throws {
        let h = try FormHarness(profile: DraftRecoveryFocusTests.profile)
        DraftRecoveryFocusTests.confirmThenTypeNotes(h)
        h.press(.escape, .char("c"))
        var object = try #require(try JSONSerialization.jsonObject(
            with: try Data(contentsOf: URL(fileURLWithPath: h.draftPath))) as? [String: Any])
        object["focused_field"] = nil
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            .write(to: URL(fileURLWithPath: h.draftPath))
        h.press(.char("i"), .enter)
        let form = try #require(h.form, "the draft was read, not set aside")
        #expect(form.focus == .checkMarking, "as a new form opens: the first check not yet ticked")
        #expect(form.values.notes == "Label worn")
        #expect(!form.values.confirmed)
    }
}
