import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// The electrical test form through the one key harness: opening it, typing each kind of field,
/// the gate under its fields, a manual Pass refused over a failed earth reading, the save, the draft, recovery,
/// the exit guard and the lock.
@Suite("Test form")
struct TestFormTests {
    static func drill(_ cls: ElectricalClass = .classI, tag: String = "EL-0001") -> Asset {
        Asset.electrical(tag: tag, name: "Drill charger", site: "Workshop",
                         particulars: ElectricalParticulars(equipmentClass: cls, environment: .factory),
                         commissioned: CalendarDate(iso: "2025-01-10"))
    }

    final class TestHarness {
        let harness: Harness
        let asset: Asset

        init(_ cls: ElectricalClass = .classI, extra: [Asset] = [], profile: TestProfile? = nil) throws {
            asset = TestFormTests.drill(cls)
            harness = try Harness(.assets([asset] + extra), prepare: { register in
                if let profile { try profile.save(to: DataHome(root: URL(fileURLWithPath: register.path)
                    .deletingLastPathComponent().deletingLastPathComponent().path).testProfilePath) }
            })
        }

        init(sharingHomeOf other: TestHarness) throws {
            harness = try Harness(sharingHomeOf: other.harness)
            asset = other.asset
        }

        var form: TestFormState? { harness.state.screens.last as? TestFormState }
        var flat: String { FormHarness.collapse(harness.screen.joined(separator: " ")) }
        var draftID: String { DraftIdentity.testDraftID(assetUUID: asset.uuid) }
        var draftPath: String {
            harness.home.root + "/Documents/Drafts/test-" + asset.uuid.uuidString.lowercased() + ".json"
        }
        var draftExists: Bool { FileManager.default.fileExists(atPath: draftPath) }

        func press(_ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation) {
            harness.press(keys, sourceLocation: sourceLocation)
        }

        func type(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            harness.type(text, sourceLocation: sourceLocation)
        }

        /// Tab until `field` has the focus.
        func focus(_ field: TestField, sourceLocation: SourceLocation = #_sourceLocation) {
            for _ in 0..<TestField.allCases.count where form?.focus != field { press(.tab) }
            #expect(form?.focus == field, "Tab never reached \(field)", sourceLocation: sourceLocation)
        }

        /// Replaces the focused text field's contents.
        func set(_ field: TestField, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            focus(field, sourceLocation: sourceLocation)
            press(.ctrl("e"), .ctrl("u"))
            type(text, sourceLocation: sourceLocation)
        }

        /// Opens the form and fills a Class I test by keys: the technician, a pass visual, the readings given.
        func openAndFill(earth: String, insulation: String = "50") {
            press(.char("i"))
            set(.technician, "Ana Reyes")
            focus(.visual)
            press(.char("p"))
            set(.earthContinuity, earth)
            set(.insulation, insulation)
        }

        func tests() throws -> [StoredTest] { try harness.register.tests(assetUUID: asset.uuid) }
    }

    @Test("i on an electrical asset opens the test form, with the readings its class needs")
    func opensByClass() throws {
        let h = try TestHarness()
        h.press(.char("i"))
        let form = try #require(h.form)
        #expect(form.fields.contains(.earthContinuity))
        #expect(!form.fields.contains(.polarity) && !form.fields.contains(.rcdTripTime))
        #expect(h.harness.screen[0].contains("Test · EL-0001"))
        #expect(form.values.testDate == harnessToday.iso)

        let rcd = try TestHarness(.portableRCD)
        rcd.press(.char("i"))
        let rcdForm = try #require(rcd.form)
        #expect(rcdForm.fields.contains(.rcdTripTime) && rcdForm.fields.contains(.rcdPushButton))
        #expect(!rcdForm.fields.contains(.earthContinuity) && !rcdForm.fields.contains(.polarity))

        let cord = try TestHarness(.cordSet)
        cord.press(.char("i"))
        #expect(cord.form?.fields.contains(.polarity) == true)
    }

    @Test("A lifting asset still opens the inspection form")
    func liftingStillInspects() throws {
        let h = try FormHarness()
        h.press(.char("i"))
        #expect(h.form != nil)
        #expect(h.session.state.screens.last is FormState)
    }

    @Test("Readings show their verdict as they are typed; letters are refused in a reading")
    func verdicts() throws {
        let h = try TestHarness()
        h.openAndFill(earth: "2.5")
        #expect(h.flat.contains("✗ FAIL 2.5 outside ≤ 1 Ω"))
        #expect(h.flat.contains("✓ PASS 50 within ≥ 1 MΩ"))
        h.set(.earthContinuity, "0.4")
        #expect(h.flat.contains("✓ PASS 0.4 within ≤ 1 Ω"))
        h.type("x")
        #expect(h.form?.values.earthContinuityOhm == "0.4")
        #expect(h.flat.contains("is not part of a reading"))
        // A tester's over-range insulation is typed as it shows it; `>` is an insulation's only.
        h.set(.insulation, ">299")
        #expect(h.form?.values.insulationMOhm == ">299")
        #expect(h.flat.contains("✓ PASS over 299 within ≥ 1 MΩ"))
        h.set(.earthContinuity, ">0.4")
        #expect(h.form?.values.earthContinuityOhm == "0.4")
    }

    @Test("Every field takes its keys: choices by letter and arrows, text, dates, check boxes")
    func typingEachField() throws {
        let h = try TestHarness()
        h.press(.char("i"))
        h.focus(.testType)
        h.press(.char("r"))
        #expect(h.form?.values.testType == .retest)
        h.press(.right)
        #expect(h.form?.values.testType == .afterRepair)
        h.set(.testDate, "2026-11-29")
        h.set(.technician, "Ana Reyes")
        h.set(.licenceNumber, "TT-123")
        h.set(.instrumentModel, "Fluke 6500")
        h.set(.instrumentSerial, "SN42")
        h.set(.procedureReference, "AS/NZS 3760:2022")
        h.set(.calibrationDate, "2024-01-05")
        // An old calibration warns, and asks for an acknowledgement of its own.
        #expect(h.flat.contains("over 12 months before the test"))
        h.focus(.calibrationAcknowledged)
        h.press(.char(" "))
        #expect(h.form?.values.calibrationAcknowledged == true)
        h.focus(.visual)
        h.press(.char("f"))
        #expect(h.form?.values.visual == .fail)
        h.set(.earthContinuity, "0.2")
        h.set(.insulation, "200")
        h.set(.leakage, "0.3")
        h.set(.loadCurrent, "4.2")
        h.set(.notes, "Cord sheath cut near plug")
        h.focus(.result)
        h.press(.char("f"))
        #expect(h.form?.values.result == .fail)
        let v = try #require(h.form?.values)
        #expect(v.testDate == "2026-11-29" && v.licenceNumber == "TT-123" && v.instrumentSerial == "SN42")
        #expect(v.procedureReference == "AS/NZS 3760:2022" && v.leakageMA == "0.3" && v.loadCurrentA == "4.2")
        #expect(v.notes == "Cord sheath cut near plug")
        #expect(h.harness.screen.last?.isEmpty == false)
    }

    @Test("Dates take today and dates counted from today, written out as the field is left or at Ctrl-S")
    func quickDates() throws {
        let h = try TestHarness()
        h.press(.char("i"))
        h.set(.calibrationDate, "-3m")
        h.press(.tab)
        #expect(h.form?.values.calibrationDate == "2026-08-30", "\(h.harness.dump)")
        h.set(.testDate, "today")
        h.press(.ctrl("s"))  // saved from the field: written out before the gate reads it
        #expect(h.form?.values.testDate == "2026-11-30", "\(h.harness.dump)")
        h.set(.testDate, "+6q")  // q is not taken: the field says so
        #expect(h.form?.values.testDate == "+6" && h.flat.contains("“q” is not part of a date"),
                "\(h.harness.dump)")
        h.press(.backspace)
        h.press(.tab)
        #expect(h.form?.values.testDate == "+", "a quick date that means nothing is left for the gate to explain")
    }

    @Test("A manual Pass is refused over a failed earth reading, with a sentence under the result; nothing is saved")
    func manualPassRefused() throws {
        let h = try TestHarness()
        h.openAndFill(earth: "2.5")
        h.focus(.result)
        h.press(.char("p"))
        #expect(h.form?.values.result == .pass)
        #expect(h.flat.contains("A manual Pass cannot override a failed reading."))
        h.focus(.authenticated)
        h.harness.advance(0.1)
        h.press(.char(" "))
        h.press(.ctrl("s"))
        #expect(h.form != nil)
        #expect(h.flat.contains("Not saved:"))
        #expect(try h.tests().isEmpty)
        // F2 makes the observations pass, never a reading.
        h.press(.function(2))
        #expect(h.form?.values.earthContinuityOhm == "2.5")
    }

    @Test("Ctrl-S saves one test through the gate, asks to authenticate, removes the draft, writes the profile back")
    func saves() throws {
        let h = try TestHarness()
        h.openAndFill(earth: "0.4")
        h.harness.advance(0.6)
        #expect(h.draftExists)
        h.press(.ctrl("s"))
        let question = try #require(h.form?.authenticationQuestion)
        #expect(question.title == "Authenticate and save?")
        #expect(h.flat.contains("I, Ana Reyes, authenticate this test."))
        h.press(.char("y"))
        #expect(h.form == nil)
        let tests = try h.tests()
        #expect(tests.count == 1)
        #expect(tests.first?.passed == true && tests.first?.values.earthContinuityOhm == "0.4")
        #expect(!h.draftExists)
        #expect(TestProfile.load(from: h.harness.home.testProfilePath).technician == "Ana Reyes")
        #expect(h.harness.screen.last?.contains("Saved test for EL-0001") == true)
        // The next form is prefilled from it.
        h.press(.char("i"))
        #expect(h.form?.values.technician == "Ana Reyes")
        #expect(h.form?.hasUnsavedInput == false)
    }

    @Test("An empty licence or instrument warns under its field, the save goes on, and the instrument stays remembered")
    func instrumentWarnsAndIsRemembered() throws {
        let h = try TestHarness()
        h.openAndFill(earth: "0.4")
        h.focus(.instrumentModel)
        for warning in TestGate.recordedParticulars.map(\.why) {
            #expect(h.flat.contains(FormHarness.collapse(warning)), "\(warning) not shown: \(h.harness.dump)")
        }
        #expect(h.form?.warnings(for: .instrumentModel).isEmpty == false)
        h.type("Megger PAT420")
        #expect(h.form?.warnings(for: .instrumentModel).isEmpty == true, "the warning goes with the first letter")
        #expect(!h.flat.contains("No instrument:"))
        h.press(.ctrl("s"), .char("y"))
        #expect(h.form == nil, "a warning does not hold the save: \(h.harness.dump)")
        #expect(try h.tests().first?.values.instrumentModel == "Megger PAT420")

        // The next test is prefilled with it; left empty there, it is still remembered after.
        h.press(.char("i"))
        #expect(h.form?.values.instrumentModel == "Megger PAT420")
        h.set(.instrumentModel, "")
        h.focus(.visual)
        h.press(.char("p"))
        h.set(.earthContinuity, "0.3")
        h.set(.insulation, "40")
        h.press(.ctrl("s"), .char("y"))
        #expect(h.form == nil, "\(h.harness.dump)")
        #expect(TestProfile.load(from: h.harness.home.testProfilePath).instrumentModel == "Megger PAT420")
    }

    @Test("A date typed the quick way shows what it stands for, and no rule, until it is written out")
    func quickDateWhileTyping() throws {
        let h = try TestHarness()
        h.press(.char("i"))
        h.set(.testDate, "-1")
        #expect(h.flat.contains("= 2026-11-29, filled in when you leave the field"), "\(h.harness.dump)")
        #expect(!h.flat.contains("Write the test date"), "\(h.harness.dump)")
        h.press(.tab)
        #expect(h.form?.values.testDate == "2026-11-29")
    }

    @Test("F2 with the readings typed goes on to the authentication, and says nothing of typing the readings")
    func observationsPassWithReadingsTyped() throws {
        let h = try TestHarness()
        h.openAndFill(earth: "0.4")
        h.focus(.notes)
        h.harness.advance(0.6)
        h.press(.function(2))
        #expect(h.form?.focus == .authenticated, "\(h.harness.dump)")
        #expect(h.flat.contains("Visual inspection set to Pass."), "\(h.harness.dump)")
        #expect(!h.flat.contains("type the readings"), "\(h.harness.dump)")
        // A paste on the box names it as it reads on screen, in quotes.
        h.press(.paste("x"))
        #expect(h.flat.contains("Nothing pasted: “I, Ana Reyes, authenticate this test” is not a text field."),
                "\(h.harness.dump)")
    }

    @Test("Ctrl-O attaches a photo to the test: the draft names it at once, Delete removes it, the save keeps it")
    func attaches() throws {
        let h = try TestHarness()
        let photo = h.harness.home.root + "/plug burn.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 7, 7]).write(to: URL(fileURLWithPath: photo))
        h.openAndFill(earth: "0.4")
        h.press(.ctrl("o"))
        #expect(h.flat.contains("Attach a file"), "\(h.harness.dump)")
        h.type(photo)
        h.press(.enter)
        #expect(h.form?.values.attachments.map(\.name) == ["plug burn.jpg"], "\(h.harness.dump)")
        // No time has passed: the draft on disk names the file already.
        let draft = try #require(try DraftStore(home: h.harness.home).read(id: h.draftID))
        #expect(draft.testValues?.attachments.map(\.name) == ["plug burn.jpg"])
        h.focus(.attachments)
        #expect(h.flat.contains("plug burn.jpg · 6 bytes"), "\(h.harness.dump)")
        // What Delete does is a hint, as in the inspection form: no ⚠, which marks a rule unmet.
        #expect(h.flat.contains("Delete or x removes the selected file") && !h.flat.contains("⚠ Delete or x"),
                "\(h.harness.dump)")
        h.press(.delete)
        #expect(h.form?.values.attachments.isEmpty == true && h.form?.focus == .attachments, "the line stays")
        #expect(h.flat.contains("none (Ctrl-O attaches)"), "\(h.harness.dump)")
        h.press(.ctrl("o"))
        h.type(photo)
        h.press(.enter)
        h.press(.ctrl("s"))
        h.press(.char("y"))
        let test = try #require(try h.tests().first)
        #expect(test.values.attachments.map(\.name) == ["plug burn.jpg"])
        #expect(try h.harness.register.attachments(recordUUID: test.testUUID).map(\.name) == ["plug burn.jpg"])
    }

    @Test("The draft is written 500 ms after the last key, as a test draft; undoing the typing removes it")
    func draftAfterDebounce() throws {
        let h = try TestHarness()
        h.press(.char("i"))
        h.set(.technician, "Ana")
        h.harness.advance(0.3)
        #expect(!h.draftExists)
        h.harness.advance(0.3)
        #expect(h.draftExists)
        let draft = try #require(try DraftStore(home: h.harness.home).read(id: h.draftID))
        #expect(draft.formKind == "test" && draft.testValues?.technician == "Ana")
        #expect(draft.focusedField == "technician")
        h.press(.ctrl("u"))
        h.harness.advance(0.6)
        #expect(!h.draftExists)
    }

    @Test("After a crash the next opening offers the draft back; recovered, the authentication is asked again")
    func recovery() throws {
        let h = try TestHarness()
        h.openAndFill(earth: "2.5")
        h.focus(.authenticated)
        h.harness.advance(0.1)
        h.press(.char(" "))
        #expect(h.form?.values.authenticated == true)
        h.harness.advance(0.6)
        // A process killed: its lock goes with it, its draft stays.
        h.harness.session.releaseLock(h.draftID)

        let next = try TestHarness(sharingHomeOf: h)
        next.press(.char("i"))
        let recovery = try #require(next.harness.state.screens.last as? RecoveryState)
        #expect(recovery.draft.kind == "test")
        #expect(next.flat.contains("Earth continuity (Ω): “2.5”"))
        next.press(.char("r"))
        let form = try #require(next.form)
        #expect(form.values.earthContinuityOhm == "2.5" && form.values.technician == "Ana Reyes")
        #expect(form.values.authenticated == false)
        #expect(form.focus == .authenticated)
        next.set(.earthContinuity, "0.4")
        next.harness.advance(0.1)
        next.press(.ctrl("s"))
        next.press(.char("y"))
        #expect(try next.tests().count == 1)
        #expect(!next.draftExists)
    }

    @Test("Leaving with input asks: keep editing, close and keep the draft, or discard")
    func exitGuard() throws {
        let h = try TestHarness()
        h.press(.char("i"))
        h.set(.technician, "Ana")
        h.press(.escape)
        #expect(h.form?.leaveQuestion?.title == "Leave this test?")
        h.press(.char("k"))
        #expect(h.form?.leaveQuestion == nil && h.form != nil)
        h.press(.escape)
        h.press(.char("c"))
        #expect(h.form == nil)
        #expect(h.draftExists)
        h.press(.char("i"))
        #expect(h.harness.state.screens.last is RecoveryState)
        h.press(.char("r"))
        h.press(.escape)
        h.press(.char("d"))
        #expect(h.form == nil)
        #expect(!h.draftExists)
        // Nothing typed: Esc closes at once and leaves no draft.
        h.press(.char("i"))
        h.press(.escape)
        #expect(h.form == nil && !h.draftExists)
    }

    @Test("An asset whose test form is open in another session is refused, naming who holds it")
    func lockRefusal() throws {
        let h = try TestHarness()
        h.press(.char("i"))
        let other = try TestHarness(sharingHomeOf: h)
        other.press(.char("i"))
        #expect(other.form == nil)
        #expect(other.flat.contains("EL-0001 is open in another session"))
        #expect(other.flat.contains("pid \(getpid())"))
    }

    @Test("The Drafts screen lists a test draft and Enter reopens it in the test form")
    func draftsScreen() throws {
        let h = try TestHarness()
        h.press(.char("i"))
        h.set(.technician, "Ana")
        h.press(.escape)
        h.press(.char("c"))
        h.press(.char("D"))
        let drafts = try #require(h.harness.state.screens.last as? DraftsState)
        #expect(drafts.drafts.first?.kind == "test")
        h.press(.enter)
        #expect(h.form?.values.technician == "Ana")
    }

    @Test("Batch I refuses marked electrical assets, naming them")
    func batchRefusesElectrical() throws {
        let h = try TestHarness(extra: [makeAsset(tag: "SL-0001", name: "Sling")])
        h.press(.char("*"))
        h.press(.char("I"))
        #expect(!(h.harness.state.screens.last is BatchFormState))
        #expect(h.flat.contains("A batch cannot test electrical items (1 marked: EL-0001)"))
    }

    @Test("Enter on a test in the history opens its record: every field and the readings' verdicts")
    func recordView() throws {
        let h = try TestHarness()
        h.openAndFill(earth: "0.4")
        h.harness.advance(0.1)
        h.press(.ctrl("s"))
        h.press(.char("y"))
        h.press(.enter)
        #expect(h.flat.contains("1 test, newest first"))
        h.press(.enter)
        #expect(h.harness.state.screens.last is TestRecordState)
        #expect(h.flat.contains("Earth continuity (Ω) 0.4 · PASS (0.4 within ≤ 1 Ω)"))
        #expect(h.flat.contains("Recorded result PASS"))
    }
}
