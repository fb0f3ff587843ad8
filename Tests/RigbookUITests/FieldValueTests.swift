import Testing
@testable import RigbookUI
import RigbookCore

/// `InspectionValues[text:]` and `[flag:]` stand for what were key paths: each text or flag field is one stored
/// value of its own, and a field of another kind reads empty and is never written.
@Suite("A field's value by its field")
struct FieldValueTests {
    @Test func eachTextFieldIsAValueOfItsOwn() {
        var values = InspectionValues()
        let texts = FormField.allCases.filter(\.hasText)
        #expect(texts.count == 12)
        for field in texts { values[text: field] = "value of \(field)" }
        for field in texts { #expect(values[text: field] == "value of \(field)") }
        #expect(values.notes == "value of \(FormField.notes)")
        #expect(values.inspectionDate == "value of \(FormField.inspectionDate)")
        #expect(values.amendmentReason == "value of \(FormField.amendmentReason)")
    }

    @Test func eachFlagFieldIsAValueOfItsOwn() {
        let flags = FormField.allCases.filter(\.isFlag)
        #expect(flags.count == 8)
        for field in flags {
            var values = InspectionValues()
            for other in flags { values[flag: other] = false }
            values[flag: field] = true
            #expect(flags.filter { values[flag: $0] } == [field])
        }
        var values = InspectionValues()
        values[flag: .checkCuts] = true
        #expect(values.checkCuts)
        values[flag: .confirmed] = true
        #expect(values.confirmed)
    }

    @Test func otherFieldsReadEmptyAndAreNotWritten() {
        let blank = InspectionValues()
        for field in FormField.allCases where !field.hasText && !field.isFlag {
            var values = blank
            values[text: field] = "not a text field"
            values[flag: field] = true
            #expect(values == blank)
            #expect(values[text: field] == "")
            #expect(values[flag: field] == false)
        }
    }
}
