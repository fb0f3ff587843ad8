import Foundation
import Testing
import RigbookCore
@testable import RigbookUI

/// Every form's fields are reached by Tab, one by one and all of them, and by Ctrl-G then the first letters of a
/// label: the engine's, so each form has it without a line of its own.
@Suite struct FieldJumpTests {
    @Test func labelsAreMatchedByTheirStartThenByAWord() {
        let labels = ["Inspector name", "Notes", "Next examination by", "Instrument serial", "Certification no."]
        #expect(FieldJump.matches("no", in: labels) == [1], "a label's start before a word's")
        #expect(FieldJump.matches("N", in: labels) == [1, 2])
        #expect(FieldJump.matches("ins", in: labels) == [0, 3])
        #expect(FieldJump.matches("serial", in: labels) == [3], "a word, when no label starts so")
        #expect(FieldJump.matches("zz", in: labels).isEmpty)
    }

    @Test func tabReachesEveryFieldOfTheInspectionFormAttachmentsIncluded() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.press(.char("i"))
        let form = try #require(h.form)
        var reached: [FormField] = [form.focus]
        for _ in form.fields.dropFirst() {
            h.press(.tab)
            reached.append(try #require(h.form).focus)
        }
        #expect(reached.contains(.attachments), "\(reached)")
        #expect(Set(reached) == Set(form.fields), "Tab missed \(Set(form.fields).subtracting(reached))")
        h.press(.tab)
        #expect(h.form?.focus == reached.first, "round to the first")
    }

    @Test func ctrlGJumpsInTheInspectionForm() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.press(.char("i"))
        h.press(.ctrl("g"))
        #expect(h.flatScreen.contains("Go to field:"), "\(h.screenText)")
        h.type("not")
        #expect(h.flatScreen.contains("Enter → Notes"), "\(h.screenText)")
        #expect(h.form?.focus == .checkMarking, "Enter makes the jump, so no letter lands in a field")
        h.press(.enter)
        #expect(h.form?.focus == .notes, "\(h.screenText)")
        #expect(!h.flatScreen.contains("Go to field:"))
        h.type("Chain")
        #expect(h.form?.values.notes == "Chain", "the jump typed nothing into a field")

        // A letter no label has is refused and said; Esc goes nowhere.
        h.press(.ctrl("g"))
        h.type("q")
        #expect(h.flatScreen.contains("no field starts with “q”"), "\(h.screenText)")
        h.press(.escape)
        #expect(h.form?.focus == .notes && h.form != nil, "Esc closed the prompt, not the form")
        #expect(!h.flatScreen.contains("Go to field:"))
    }

    @Test func ctrlGJumpsInTheTestForm() throws {
        let h = try TestFormTests.TestHarness()
        h.press(.char("i"))
        h.press(.ctrl("g"))
        h.type("instrument")
        h.press(.enter)
        #expect(h.form?.focus == .instrumentModel, "Enter takes the first of two")
        h.press(.ctrl("g"))
        h.type("ser")
        h.press(.enter)
        #expect(h.form?.focus == .instrumentSerial, "a word of the label, when none starts so")
    }

    @Test func ctrlGJumpsInThePlainAssetForm() throws {
        let h = try Harness(.empty)
        h.press(.char("a"))
        h.press(.ctrl("g"))
        h.type("loc")
        h.press(.enter)
        h.type("Quay 7")
        h.press(.ctrl("g"))
        h.type("ta")
        h.press(.enter)
        h.type("SL-0099")
        let form = try #require(h.state.screens.last as? AssetFormState)
        #expect(form.draft.location == "Quay 7" && form.draft.tag == "SL-0099", "\(h.dump)")
    }
}
