import Foundation
import Testing
import RigbookApp
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
}

extension Optional where Wrapped == Bool {
    /// False when there is no verdict.
    var unsafelyUnwrappedOrFalse: Bool { self ?? false }
}
