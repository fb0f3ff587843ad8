import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// The test limits on screen: edited in Settings' own section (each change a version of the organisation's
/// particulars), and judging the test form opened afterwards.
@Suite("Test limits on screen")
struct TestLimitsScreenTests {
    private var settings: (Harness) -> SettingsState? { { $0.state.screens.last as? SettingsState } }
    private var editor: (Harness) -> ParticularEditorState? { { $0.state.screens.last as? ParticularEditorState } }

    /// Settings, on the limits row (the row before the examiners' + line).
    private func openLimits(_ h: Harness) {
        h.press(.char(","), .end, .char("k"))
        #expect(settings(h)?.selectedRow == .testLimits, "\(h.dump)")
    }

    @Test func settingsShowsTheLimitsAndEditsThemAsAVersion() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]))
        openLimits(h)
        #expect(h.line(containing: "ELECTRICAL TEST LIMITS (AS/NZS 3760)") != nil, "\(h.dump)")
        #expect(h.line(containing: "earth ≤ 1 Ω · insulation ≥ 1 MΩ · leakage ≤ 5/1 mA") != nil, "\(h.dump)")
        #expect(h.line(containing: "These are the defaults") != nil, "the details say so\n\(h.dump)")
        h.press(.enter)
        #expect(h.screen[0].contains("Electrical test limits"), "\(h.dump)")
        #expect(editor(h)?.focus == .earthContinuityMaxOhm)
        for label in ["Earth continuity ≤ Ω", "Insulation ≥ MΩ", "RCD Type I trip ≤ ms",
                      "Calibration ≤ months"] {
            #expect(h.line(containing: label) != nil, "\(label)\n\(h.dump)")
        }
        // A letter is not taken; an absurd limit is refused at Ctrl-S with its sentence, and stays as typed.
        h.press(.ctrl("u"))
        h.type("x")
        #expect(h.line(containing: "A limit is a number") != nil, "\(h.dump)")
        h.type("20")
        h.press(.ctrl("s"))
        #expect(editor(h) != nil, "refused: still editing\n\(h.dump)")
        #expect(FormHarness.collapse(h.screen.joined(separator: " "))
                    .contains("must be at most 10 Ω: over 10 Ω an earth conductor"), "\(h.dump)")
        #expect(try h.register.particularsHistory(subject: Particulars.organisationUUID).count == 1)
        h.press(.ctrl("u"))
        h.type("0.5")
        h.press(.tab, .tab, .tab, .tab, .tab, .tab)
        #expect(editor(h)?.focus == .calibrationWarningMonths)
        h.press(.ctrl("u"))
        h.type("6")
        h.press(.ctrl("s"))
        #expect(settings(h) != nil, "saved: back on Settings\n\(h.dump)")
        #expect(h.line(containing: "Saved the electrical test limits.") != nil, "\(h.dump)")
        #expect(settings(h)?.selectedRow == .testLimits, "the selection stays on the limits")
        #expect(h.line(containing: "earth ≤ 0.5 Ω") != nil, "\(h.dump)")
        let limits = try h.register.particulars().organisation.testLimits
        #expect(limits.earthContinuityMaxOhm == 0.5)
        #expect(limits.calibrationWarningMonths == 6)
        #expect(try h.register.particulars().organisation.name == "Test Examinations Ltd", "the name stays")
        #expect(try h.register.particularsHistory(subject: Particulars.organisationUUID).count == 2)
        // Its history is the organisation's, and names the limit that changed.
        h.press(.char("h"))
        #expect(h.line(containing: "Earth continuity ≤ Ω: 1 → 0.5") != nil, "\(h.dump)")
        #expect(try h.register.verifyChain().problem == nil)
    }

    @Test func aStricterEarthLimitMakesA08OhmReadingFailOnTheForm() throws {
        let h = try TestFormTests.TestHarness()
        // The limit changes after the session started: the form judges by the limits in force when it opens.
        let organisation = try h.harness.register.particulars().organisation
        try h.harness.register.record(ParticularsChange.organisation(organisation)
            .setting(.earthContinuityMaxOhm, to: "0.5"))
        h.openAndFill(earth: "0.8")
        #expect(h.form?.limits.earthContinuityMaxOhm == 0.5)
        #expect(h.flat.contains("✗ FAIL 0.8 outside ≤ 0.5 Ω"), "\(h.harness.dump)")
        #expect(h.form?.evaluation.readingsPass == false)
        // Saved as a failure with notes, it keeps the limit it was judged by.
        h.set(.notes, "Earth 0.8 Ω over the register's 0.5 Ω; tagged out.")
        h.focus(.authenticated)
        h.press(.char(" "), .ctrl("s"))
        let test = try #require(try h.tests().first, "\(h.harness.dump)")
        #expect(!test.passed)
        #expect(test.limits?.earthContinuityMaxOhm == 0.5)
        // A later change of the register's limits leaves the record as it was judged.
        try h.harness.register.record(ParticularsChange.organisation(try h.harness.register.particulars().organisation)
            .setting(.earthContinuityMaxOhm, to: "1"))
        #expect(try h.tests().first?.limits?.earthContinuityMaxOhm == 0.5)
        // The record view shows the record's limits, not the register's today.
        h.press(.enter)
        h.press(.enter)
        #expect(h.harness.state.screens.last is TestRecordState, "\(h.harness.dump)")
        #expect(h.flat.contains("0.8 · FAIL (0.8 outside ≤ 0.5 Ω)"), "\(h.harness.dump)")
        #expect(h.flat.contains("Judged by the limits earth ≤ 0.5 Ω · insulation ≥ 1 MΩ"), "\(h.harness.dump)")
    }

    @Test func withTheDefaultsTheSameReadingPasses() throws {
        let h = try TestFormTests.TestHarness()
        h.openAndFill(earth: "0.8")
        #expect(h.flat.contains("✓ PASS 0.8 within ≤ 1 Ω"), "\(h.harness.dump)")
    }
}
