import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// Drafts as a person meets them: debounced writes on the virtual clock, undo, discard, keep,
/// recovery, the Drafts screen, separation from the register, and a second session.
@Suite("Draft flow")
struct DraftFlowTests {
    static let profile = Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1")

    /// Opens the form on SL-0042 and types into the inspector name (after the prefilled text).
    static func openAndType(_ h: FormHarness, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        h.openFormOnInspectorName(sourceLocation: sourceLocation)
        h.type(text, sourceLocation: sourceLocation)
    }

    /// Every one of the 17 fields away from its default, by keys, from a freshly opened form.
    /// Returns the values the form should then hold.
    static func fillEveryField(_ h: FormHarness,
                               sourceLocation: SourceLocation = #_sourceLocation) -> InspectionValues {
        func at(_ field: FormField, _ keys: Key...) {
            h.focus(field, sourceLocation: sourceLocation)
            h.press(keys, sourceLocation: sourceLocation)
        }
        at(.inspectionType, .left) // periodic → after installation
        at(.inspectorName, .ctrl("u"))
        h.type("王建国", sourceLocation: sourceLocation)
        at(.certificationNumber, .ctrl("u"))
        h.type("CERT-9", sourceLocation: sourceLocation)
        at(.checkMarking, .char(" "))
        at(.checkCuts, .char(" "))
        at(.checkDeformation, .char(" "))
        at(.checkFittings, .char(" "))
        at(.checkCorrosion, .char(" "))
        at(.result, .left) // Fail – dangerous
        at(.notes)
        h.type("吊带有轻微磨损", sourceLocation: sourceLocation)
        h.press(.enter, sourceLocation: sourceLocation)
        h.type("second line", sourceLocation: sourceLocation)
        at(.schemeReference)
        h.type("SCH-7", sourceLocation: sourceLocation)
        at(.defectDescription)
        h.type("Cut through the edge", sourceLocation: sourceLocation)
        at(.action, .left) // Withdraw from service
        at(.remedyDeadlineSet, .char(" "))
        at(.remedyDeadline)
        h.type("2026-12-15", sourceLocation: sourceLocation)
        at(.inspectionDate, .ctrl("u"))
        h.type("2026-11-2", sourceLocation: sourceLocation) // half a date is still typed text
        at(.confirmed, .char(" "))
        return InspectionValues(
            inspectionType: .thoroughAfterInstallation, inspectorName: "王建国", certificationNumber: "CERT-9",
            checkMarking: true, checkCuts: true, checkDeformation: true, checkFittings: true, checkCorrosion: true,
            result: .failDangerous, notes: "吊带有轻微磨损\nsecond line", schemeReference: "SCH-7",
            defectDescription: "Cut through the edge", action: .withdraw, remedyDeadlineSet: true,
            remedyDeadline: "2026-12-15", inspectionDate: "2026-11-2", confirmed: true)
    }

    // MARK: Debounce

    @Test("no draft file until 0.5 s after the last edit; then it holds the typed values")
    func debouncedFirstWrite() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        DraftFlowTests.openAndType(h, " Jr")
        #expect(!h.draftExists)
        #expect(h.screen[0].contains("draft …"), "the title says a write is pending")
        h.advance(0.4)
        #expect(!h.draftExists)
        h.advance(0.1)
        #expect(h.draftExists)
        #expect(h.draftPath.hasSuffix("/Documents/Drafts/inspection-\(h.asset.uuid.uuidString.lowercased()).json"))
        let draft = try #require(try h.readDraft())
        #expect(draft.values.inspectorName == "Ann Smith Jr")
        #expect(draft.values.certificationNumber == "LEEA-1")
        #expect(draft.assetTag == "SL-0042")
        #expect(draft.assetUUID == h.asset.uuid.uuidString.lowercased())
        #expect(draft.revision == 1)
        #expect(h.form?.draftOnDisk == true)
        #expect(h.screen[0].contains("✎ draft saved"))
        // Nothing reached the register.
        #expect(try h.register.recordCount() == 0)
    }

    @Test("typing every 0.1 s for 2 s still writes within 1 s of the first edit")
    func continuousTypingWritesWithinOneSecond() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        h.openFormOnInspectorName()
        let start = h.clock.milliseconds
        h.type("a")
        var firstWrite: Int?
        var typed = "a"
        for _ in 0..<20 {
            h.advance(0.1)
            if firstWrite == nil, h.draftExists { firstWrite = h.clock.milliseconds }
            h.type("b")
            typed += "b"
        }
        let written = try #require(firstWrite, "no draft was written during 2 s of typing")
        #expect(written - start <= 1000)
        let draft = try #require(try h.readDraft())
        #expect(draft.revision >= 2, "a second write came within the next second")
        #expect(draft.values.inspectorName.hasPrefix("Ann Smith" + "a"))
        #expect(("Ann Smith" + typed).hasPrefix(draft.values.inspectorName))
        // And once typing stops, the last keystrokes follow within 0.5 s.
        h.advance(0.5)
        #expect(try h.readDraft()?.values.inspectorName == "Ann Smith" + typed)
    }

    @Test("typing then undoing leaves no draft, and removes one already written")
    func undoRemovesDraft() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        DraftFlowTests.openAndType(h, "x")
        h.press(.backspace)
        h.advance(1)
        #expect(!h.draftExists, "undone before the debounce: never written")

        h.type("y")
        h.advance(0.5)
        #expect(h.draftExists)
        h.press(.backspace)
        #expect(h.form?.hasUnsavedInput == false)
        h.advance(0.5)
        #expect(!h.draftExists, "back to the baseline: the draft file goes")
        #expect(h.form?.draftOnDisk == false)
        h.press(.escape)
        #expect(h.form == nil, "no unsaved input: Esc closes at once")
        h.advance(1)
        #expect(!h.draftExists)

        // Undone after a write and closed before the debounce: the close removes the file.
        h.openFormOnInspectorName()
        h.type("z")
        h.advance(0.5)
        #expect(h.draftExists)
        h.press(.backspace, .escape)
        #expect(h.form == nil, "undone: Esc closes at once")
        #expect(!h.draftExists)
        #expect(!h.screen[0].contains("draft"))
    }

    // MARK: Leaving

    @Test("Discard in the dialog deletes the draft and nothing is written afterwards")
    func discardDeletesDraft() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        DraftFlowTests.openAndType(h, "x")
        h.advance(0.5)
        #expect(h.draftExists)
        h.type("y") // a write is pending again
        h.press(.escape)
        #expect(h.form?.dialog != nil)
        h.press(.right, .right)
        #expect(h.form?.dialog?.selection == 2)
        h.press(.enter)
        #expect(h.form == nil)
        #expect(!h.draftExists)
        #expect(h.shows("Discarded the inspection of SL-0042."))
        h.advance(0.5)
        h.advance(2)
        #expect(!h.draftExists)
        #expect(!h.screen[0].contains("draft"))
        #expect(!h.screen[3].contains("✎"))
    }

    @Test("Close and keep draft writes at once; the list counts the draft and marks the row")
    func keepDraftWritesAtOnce() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        DraftFlowTests.openAndType(h, " Jr")
        #expect(!h.draftExists)
        h.press(.escape, .right)
        #expect(h.form?.dialog?.selection == 1)
        #expect(h.draftExists, "written as the question opened, so that it knows the draft is on disk")
        h.press(.enter)
        #expect(h.form == nil)
        #expect(h.draftExists, "written at once, no wait")
        #expect(try h.readDraft()?.values.inspectorName == "Ann Smith Jr")
        #expect(h.screen[0].contains("1 draft"))
        let row = try #require(h.line(containing: "SL-0042"))
        #expect(row.contains("SL-0042✎"))
        #expect(h.session.state.list.draftCount == 1)
        h.advance(2)
        #expect(h.draftExists)
    }

    @Test("Close and keep draft by its letter c, after a draft was already written")
    func keepDraftWithLetter() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        DraftFlowTests.openAndType(h, " Jr")
        h.advance(0.5)
        h.press(.escape, .char("c"))
        #expect(h.form == nil)
        #expect(try h.readDraft()?.values.inspectorName == "Ann Smith Jr")
        #expect(h.screen[0].contains("1 draft"))
    }

    // MARK: Recovery

    @Test("reopening asks Recover · Discard · Back with a preview; Recover restores every field")
    func recoverRestoresEveryField() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        h.press(.char("i"))
        let typed = DraftFlowTests.fillEveryField(h)
        #expect(h.form?.values == typed)
        h.press(.escape, .char("c"))
        #expect(h.form == nil)
        #expect(try h.readDraft()?.values == typed)

        h.press(.char("i"))
        #expect(h.form == nil, "never applied silently")
        #expect(h.shows("Unsubmitted draft for SL-0042"))
        #expect(h.shows("[ Recover ]  [ Discard ]  [ Back ]"))
        #expect(h.shows("It holds:"))
        #expect(h.shows("Inspection type: Thorough examination (after installation)"))
        #expect(h.shows("Inspector name: “王建国”"))
        #expect(h.shows("Notes: “吊带有轻微磨损 ⏎ second line”"))
        #expect(h.shows("This draft was started by another operator (王建国)."))
        // 16 fields differ (the confirmation is not recovered, so not offered); at 24 rows the box shows 14
        // and says how many more.
        #expect(h.shows("… and 2 more"))
        #expect(!h.shows("Confirmed accurate"), "Recover does not bring the tick back")
        #expect(!h.shows("Certification no.: “LEEA-1”"), "only what differs from a blank form")

        h.press(.enter) // Recover is selected first
        let form = try #require(h.form)
        var recovered = typed
        recovered.confirmed = false // a recovered draft is confirmed again by a person
        #expect(form.values == recovered)
        #expect(form.focus == .confirmed, "where the focus was when the draft was kept")
        #expect(form.hasUnsavedInput)
        #expect(form.draftOnDisk)
        h.focus(.inspectorName)
        #expect(h.shows("王建国"))
        #expect(h.screen[0].contains("✎ draft saved"))
    }

    @Test("Back returns to the list with the draft kept; Discard deletes it and opens a blank form")
    func backKeepsDiscardDeletes() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        DraftFlowTests.openAndType(h, " Jr")
        h.press(.escape, .char("c"))
        h.press(.char("i"))
        #expect(h.shows("Unsubmitted draft for SL-0042"))
        h.press(.right, .right)
        h.press(.enter) // Back
        #expect(h.session.state.screens.isEmpty)
        #expect(h.draftExists)
        #expect(h.screen[0].contains("1 draft"))
        #expect(h.line(containing: "SL-0042")?.contains("✎") == true)

        // Asked again (the lock was given back), then Esc is Back too.
        h.press(.char("i"))
        #expect(h.shows("Unsubmitted draft for SL-0042"))
        h.press(.escape)
        #expect(h.session.state.screens.isEmpty)
        #expect(h.draftExists)

        h.press(.char("i"), .char("d"))
        #expect(!h.draftExists)
        let form = try #require(h.form)
        #expect(!form.hasUnsavedInput)
        #expect(form.values.inspectorName == "Ann Smith")
        #expect(form.values == form.baseline)
        h.advance(2)
        #expect(!h.draftExists)
        h.press(.escape)
        #expect(h.form == nil, "a blank form closes at once")
        #expect(!h.screen[0].contains("draft"))
    }

    // MARK: Save

    @Test("a save removes the draft and a pending write never brings it back")
    func saveRemovesDraft() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        h.press(.char("i"))
        h.fillCompletePass()
        h.advance(0.5)
        #expect(h.draftExists)
        h.focus(.notes)
        h.type("Checked on the bench") // a write is pending
        #expect(h.form?.draftWrites.isPending == true)
        h.press(.ctrl("s"))
        #expect(h.form == nil)
        #expect(!h.draftExists)
        #expect(try h.history().first?.values.notes == "Checked on the bench")
        h.advance(0.5)
        h.advance(2)
        #expect(!h.draftExists)
        #expect(!h.screen[0].contains("draft"))
        #expect(h.line(containing: "SL-0042")?.contains("OK") == true)
    }

    @Test("flushDrafts writes a pending draft at once")
    func flushWritesAtOnce() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        DraftFlowTests.openAndType(h, " Jr")
        #expect(!h.draftExists)
        h.session.flushDrafts()
        h.checkScreen()
        #expect(h.draftExists)
        #expect(try h.readDraft()?.values.inspectorName == "Ann Smith Jr")
        #expect(h.form?.draftWrites.isPending == false)
    }

    @Test("Ctrl-Z flushes the draft, then the terminal is given back and the job stops")
    func suspendFlushes() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        DraftFlowTests.openAndType(h, " Jr")
        h.press(.ctrl("z"))
        #expect(h.harness.terminal.suspensions == 1)
        #expect(try h.readDraft()?.values.inspectorName == "Ann Smith Jr")
    }

    // MARK: Drafts screen

    @Test("the Drafts screen lists the draft; x then d discards it after asking")
    func draftsScreenDiscard() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        DraftFlowTests.openAndType(h, " Jr")
        h.press(.escape, .char("c"))
        h.press(.char("D"))
        #expect(h.shows("Drafts · 1 unsubmitted"))
        let row = try #require(h.line(containing: "SL-0042"))
        #expect(row.contains("inspection"))
        #expect(row.contains("Ann Smith Jr"))

        h.press(.char("x"))
        #expect(h.shows("Discard the draft for SL-0042?"))
        #expect(h.draftExists)
        h.press(.escape)
        #expect(!h.shows("Discard the draft for SL-0042?"))
        #expect(h.draftExists, "Esc keeps it")

        h.press(.char("x"), .char("d"))
        #expect(!h.draftExists)
        #expect(h.shows("No drafts."))
        #expect(h.shows("Discarded the draft for SL-0042."))
        h.press(.escape)
        #expect(h.session.state.screens.isEmpty)
        #expect(!h.screen[0].contains("draft"))
        #expect(h.line(containing: "SL-0042")?.contains("✎") == false)
    }

    @Test("Enter on the Drafts screen recovers without asking")
    func draftsScreenRecover() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        DraftFlowTests.openAndType(h, " Jr")
        h.press(.escape, .char("c"))
        h.press(.char("D"), .enter)
        #expect(h.form?.values.inspectorName == "Ann Smith Jr")
        #expect(!h.shows("Unsubmitted draft for"))
    }

    // MARK: Separation

    @Test("a draft whose result is Fail changes no status, count or summary")
    func failDraftChangesNothing() throws {
        let h = try FormHarness(profile: DraftFlowTests.profile)
        let rowsBefore = try h.register.rows()
        let countsLine = h.screen[1]
        #expect(countsLine.contains("1 OVERDUE"))
        #expect(h.screen[3].contains("OVERDUE"))

        h.press(.char("i"))
        h.focus(.result)
        h.press(.left) // Fail – dangerous
        h.focus(.defectDescription)
        h.type("Cut through")
        h.focus(.action)
        h.press(.left) // Withdraw from service
        h.advance(0.5)
        #expect(try h.readDraft()?.values.result == .failDangerous)
        h.press(.escape, .char("c"))
        #expect(h.form == nil)

        #expect(h.screen[1] == countsLine)
        #expect(h.screen[3].contains("OVERDUE"))
        #expect(!h.screenText.contains("DO NOT USE"))
        #expect(!h.screenText.contains("WITHDRAWN"))
        #expect(h.session.state.list.counts[.overdue] == 1)
        #expect(h.session.state.list.counts[.doNotUse, default: 0] == 0)
        let rowsAfter = try h.register.rows()
        #expect(rowsAfter.map(\.summary) == rowsBefore.map(\.summary))
        #expect(rowsAfter.map(\.asset) == rowsBefore.map(\.asset))
        #expect(try h.register.recordCount() == 0)

        // A fresh start reads no draft either.
        let fresh = try FormHarness(sharingHomeOf: h)
        #expect(fresh.screen[1] == countsLine)
        #expect(fresh.screen[3].contains("OVERDUE"))
        #expect(fresh.screen[3].contains("✎"))
    }

    // MARK: Two sessions

    @Test("a second session opening the same asset is told it is open in another session")
    func secondSessionIsRefused() throws {
        let first = try FormHarness(profile: DraftFlowTests.profile)
        DraftFlowTests.openAndType(first, " Jr")
        first.advance(0.5)
        #expect(first.draftExists)

        let second = try FormHarness(sharingHomeOf: first)
        #expect(first.draftExists, "the second start leaves a draft someone has open alone")
        second.press(.char("i"))
        #expect(second.form == nil)
        // A message box explains who holds it; no recovery question either.
        guard let message = second.session.state.screens.last as? MessageScreen else {
            Issue.record("expected the 'open in another session' message, got \(second.session.state.screens)")
            return
        }
        #expect(second.session.state.screens.count == 1)
        #expect(message.title.contains("open in another session"))
        #expect(message.lines.joined(separator: " ").contains("pid \(getpid())"))
        #expect(second.shows("SL-0042 is open in another session"))
        second.press(.escape)
        #expect(second.session.state.screens.isEmpty, "any key closes the message")

        // Its Drafts screen shows who has it and will not discard it.
        second.press(.char("D"))
        #expect(second.shows("Drafts · 1 unsubmitted"))
        guard let listed = second.session.state.screens.last as? DraftsState else {
            Issue.record("D did not open the Drafts screen")
            return
        }
        #expect(listed.drafts.first?.lockedBy?.contains("pid \(getpid())") == true)
        second.press(.char("x"), .char("d"))
        #expect(first.draftExists)
        #expect(second.session.state.notice?.text.contains("open in another session") == true)
        second.press(.escape)

        // The first keeps typing undisturbed; once it closes, the second may open the form.
        first.type("!")
        #expect(first.form?.values.inspectorName == "Ann Smith Jr!")
        first.press(.escape, .char("c"))
        #expect(first.form == nil)
        second.press(.char("i"))
        #expect(second.shows("Unsubmitted draft for SL-0042"))
        second.press(.char("r"))
        #expect(second.form?.values.inspectorName == "Ann Smith Jr!")
    }
}
