import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// What a hostile tester typed into the test form: a reading never changes value silently.
@Suite("Test form: hostile input")
struct TestFormHostileTests {
    typealias TestHarness = TestFormTests.TestHarness

    @Test("a comma or a space in a reading is kept as typed and refused under the field, never dropped into 05",
          arguments: [(TestField.insulation, "0,5"), (.insulation, "0 5"), (.earthContinuity, ",5"),
                      (.earthContinuity, "1 000")])
    func separatorsAreRefusedNotDropped(field: TestField, typed: String) throws {
        let h = try TestHarness()
        h.openAndFill(earth: "0.4")
        h.set(field, typed)
        let form = try #require(h.form)
        let kept = field == .insulation ? form.values.insulationMOhm : form.values.earthContinuityOhm
        #expect(kept == typed, "\(h.harness.dump)")
        #expect(!form.verdict(field).map { $0.outcome == .pass }.unsafelyUnwrappedOrFalse, "\(h.harness.dump)")
        #expect(form.problems.contains { $0.field == field && $0.message.contains("is not a reading") })
        h.harness.advance(0.6)
        #expect(h.flat.contains("is not a reading"), "\(h.harness.dump)")
        h.press(.ctrl("s"))
        #expect(h.form != nil && h.form?.authenticationQuestion == nil)
        #expect(try h.tests().isEmpty)
    }

    @Test("a pasted reading keeps its comma too")
    func pastedComma() throws {
        let h = try TestHarness()
        h.openAndFill(earth: "0.4")
        h.focus(.insulation)
        h.press(.ctrl("e"), .ctrl("u"))
        h.press(.paste("0,5"))
        #expect(h.form?.values.insulationMOhm == "0,5", "\(h.harness.dump)")
    }

    static let payload = "/RB1:AIQSGDR:20270301"

    @Test("a label scanned into a reading, a text field or a choice changes nothing and says it is a scan",
          arguments: [TestField.insulation, .earthContinuity, .technician, .procedureReference, .visual, .testType])
    func scanIntoAField(field: TestField) throws {
        let h = try TestHarness()
        h.openAndFill(earth: "0.4")
        h.focus(field)
        let before = try #require(h.form?.values)
        h.type(Self.payload)
        h.press(.enter)
        #expect(h.form?.values == before, "\(h.harness.dump)")
        #expect(h.form?.focus == field)
        #expect(h.flat.contains("That is a label scan: close the form (Esc) to go to that asset"), "\(h.harness.dump)")
        // In one burst, as a fast scanner sends it.
        h.harness.burst(Key.typing(Self.payload) + [.enter])
        #expect(h.form?.values == before && h.form?.focus == field)
    }

    @Test("a / that starts no label is typed as before: AS/NZS in a text field, refused in a reading")
    func slashesThatAreNotScans() throws {
        let h = try TestHarness()
        h.openAndFill(earth: "0.4")
        h.set(.procedureReference, "AS/NZS 3760")
        #expect(h.form?.values.procedureReference == "AS/NZS 3760")
        h.set(.insulation, "/5")
        #expect(h.form?.values.insulationMOhm == "5")
        h.set(.technician, "R/RB")
        h.press(.tab)
        #expect(h.form?.values.technician == "R/RB", "a held / is let through by the next key, Tab included")
    }

    @Test("the inspection form takes no value from a scan either")
    func scanIntoTheInspectionForm() throws {
        let h = try FormHarness()
        h.openFormOnInspectorName()
        let before = try #require(h.form?.values)
        h.type(Self.payload)
        h.press(.enter)
        #expect(h.form?.values == before, "\(h.harness.dump)")
        #expect(h.form?.focus == .inspectorName)
        #expect(h.flatScreen.contains("That is a label scan"), "\(h.harness.dump)")
    }
}

extension Optional where Wrapped == Bool {
    /// False when there is no verdict.
    var unsafelyUnwrappedOrFalse: Bool { self ?? false }
}
