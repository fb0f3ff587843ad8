import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// The inspection form driven by keys through a real Session (register, draft store, profile) on a
/// virtual clock, at 80×24. Every step also checks that the frame diff reproduces the screen.
@Suite("Inspection form on screen")
struct FormTests {
    static let profile = Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1")

    /// No control character (C0, DEL, C1) anywhere in the text.
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    static func draftFiles(_ h: FormHarness) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: h.home.draftsFolder)) ?? [])
            .filter { $0.hasSuffix(".json") }
    }

    // MARK: Opening

    @Test("i opens the form: title, profile prefill, today, periodic; Esc closes at once, no dialog, no draft")
    func openPrefilledAndCloseUntouched() throws {
        let h = try FormHarness(profile: FormTests.profile)
        #expect(h.form == nil)
        h.press(.char("i"))
        let form = try #require(h.form)

        let title = h.screen[0]
        #expect(title.contains(" Inspection · SL-0042 · 2 t web sling · Web sling · WLL 2 t"))
        #expect(form.values.inspectionType == .thoroughPeriodic)
        #expect(form.values.inspectorName == "Ann Smith")
        #expect(form.values.certificationNumber == "LEEA-1")
        #expect(form.values.inspectionDate == "2026-11-30")
        #expect(form.values.result == nil)
        #expect(!form.values.confirmed)
        #expect(h.shows("‹ Thorough examination (periodic) ›"))
        #expect(h.shows("Ann Smith"))
        #expect(h.shows("LEEA-1"))
        #expect(h.shows("‹ — choose — ›"))
        #expect(!form.hasUnsavedInput)
        // The profile names the inspector, so the first field that needs the inspector is the first check.
        #expect(form.focus == .checkMarking)
        // The dates sit below the first screenful: moving to the inspection date scrolls to today's date.
        h.focus(.inspectionDate)
        #expect(h.form?.focus == .inspectionDate)
        let dateLine = try #require(h.line(containing: "Inspection date"))
        #expect(dateLine.contains("2026-11-30"))
        #expect(h.form?.hasUnsavedInput == false, "moving around is not input")

        h.press(.escape)
        #expect(h.form == nil)
        #expect(h.session.state.screens.isEmpty)
        #expect(!h.shows("Leave this inspection?"))
        #expect(h.shows("SL-0042"))
        h.advance(2)
        #expect(!h.draftExists)
        #expect(FormTests.draftFiles(h).isEmpty)
    }

    // MARK: Filling every field by keys

    @Test("all 17 fields by keys, Tab order = SPEC §4 order, Ctrl-S saves exactly the trimmed values")
    func fillAllFieldsAndSave() throws {
        let h = try FormHarness(profile: Profile(inspectorName: "Old Inspector", certificationNumber: "OLD-0001"))
        h.press(.char("i"))
        // The 17, with the report particulars a defect to be remedied has before the confirmation.
        let all = FormField.inspectionFields.dropLast()
            + [.examinationBasis, .testParticulars, .repairParticulars, .remedyParticulars, .nextExaminationBy,
               .attachments, .confirmed]
        var expectedFocus = 0
        func tab(sourceLocation: SourceLocation = #_sourceLocation) {
            h.press(.tab, sourceLocation: sourceLocation)
            expectedFocus += 1
            #expect(h.form?.focus == all[expectedFocus], sourceLocation: sourceLocation)
        }

        func space(sourceLocation: SourceLocation = #_sourceLocation) {
            h.press(.char(" "), sourceLocation: sourceLocation)
            expectedFocus += 1
            #expect(h.form?.focus == all[expectedFocus], "Space ticks a check and moves on",
                    sourceLocation: sourceLocation)
        }

        // The form opens on the first check (the profile names the inspector); back to the top for the order.
        #expect(h.form?.focus == .checkMarking)
        h.press(.backTab, .backTab, .backTab)
        // 1 Inspection type: → from periodic is "per examination scheme".
        #expect(h.form?.focus == .inspectionType)
        h.press(.right)
        #expect(h.form?.values.inspectionType == .thoroughScheme)
        #expect(h.shows("‹ Thorough examination (per examination scheme) ›"))
        // 2 Inspector name (Chinese), 3 certification number; the profile's prefill is cleared first.
        tab()
        h.press(.ctrl("u"))
        h.type(" 王建国 ")
        tab()
        h.press(.ctrl("u"))
        h.type("LEEA-12345 ")
        // 4–8 the checks: Space ticks one and moves on (one toggled three times, Shift-Tab back each time).
        tab()
        space(); space(); space()
        h.press(.char(" "), .backTab, .char(" "), .backTab)
        #expect(h.form?.values.checkFittings == false && h.form?.focus == .checkFittings)
        space(); space()
        #expect(h.form?.values.allChecksTicked == true)
        #expect(h.form?.focus == .result)
        expectedFocus -= 1
        #expect(h.screen.filter { $0.contains("[x]") }.count >= 5)
        // 9 Result: → takes the first option, then Enter opens the list, ↓ ↓ Enter takes the third.
        expectedFocus += 1
        h.press(.right)
        #expect(h.form?.values.result == .pass)
        #expect(h.shows("‹ Pass ›"))
        h.press(.enter)
        #expect(h.form?.popup?.selection == 0)
        #expect(h.shows("› Pass"))
        #expect(h.frame.cursor == nil)
        h.press(.down, .down)
        #expect(h.form?.popup?.selection == 2)
        #expect(h.shows("› Defect to be remedied"))
        #expect(h.form?.values.result == .pass, "moving in the list changes nothing until Enter")
        h.press(.enter)
        #expect(h.form?.popup == nil)
        #expect(h.form?.values.result == .defectToBeRemedied)
        #expect(h.shows("‹ Defect to be remedied ›"))
        // 10 Notes: two lines, Chinese first.
        tab()
        h.type("吊带有轻微磨损")
        h.press(.enter)
        h.type("Stitching intact  ")
        #expect(h.form?.focus == .notes)
        #expect(h.form?.values.notes == "吊带有轻微磨损\nStitching intact  ")
        // 11 Scheme reference, 12 defect description.
        tab()
        h.type("LEEA 036 §4.2")
        tab()
        h.type("Edge abrasion, 300 mm from eye")
        // 13 Action with ← and →.
        tab()
        h.press(.left)
        #expect(h.form?.values.action == .withdraw)
        h.press(.right)
        #expect(h.form?.values.action == InspectionAction.none)
        h.press(.right, .right)
        #expect(h.form?.values.action == .repair)
        #expect(h.shows("‹ Repair / renew / alter ›"))
        // 14 Remedy deadline set, 15 the deadline.
        tab()
        h.press(.char(" "))
        #expect(h.form?.values.remedyDeadlineSet == true)
        #expect(h.shows("[x] yes"))
        tab()
        h.type("2026-12-31")
        // 16 Inspection date: today, retyped as two days ago.
        tab()
        h.press(.ctrl("u"))
        h.type("2026-11-28")
        // Report particulars: the basis follows the type; the test, the repair and the remedy are typed;
        // the next examination is left to the interval.
        tab()
        #expect(h.shows("Per examination scheme (from the type)"))
        tab()
        h.type("Proof load 2.5 t (1.25 × WLL)")
        tab()
        h.type("Renew the sleeve")
        tab()
        h.type("Sleeve renewed by the maker")
        tab()
        // The attachments line, with none.
        tab()
        // 17 Confirmation: a thorough examination is authenticated by its examiner, by name.
        tab()
        #expect(h.shows("2027-05-28 (interval)"), "the empty next examination stands for the interval's date")
        #expect(h.shows("I, 王建国, authenticate this report"))
        h.press(.char(" "))
        #expect(h.form?.values.confirmed == true)
        #expect(expectedFocus == 22)

        // Shift-Tab goes back through the same order.
        for field in all.reversed().dropFirst() {
            h.press(.backTab)
            #expect(h.form?.focus == field)
        }
        #expect(h.form?.problems == [])

        h.press(.ctrl("s"))
        // A defect: reg 10's questions first, then the save.
        #expect(h.form?.noticeDialog != nil)
        #expect(try h.register.recordCount() == 0)
        h.type("Dock foreman")
        h.press(.ctrl("s"))
        #expect(h.form == nil)
        #expect(h.session.state.screens.isEmpty)
        #expect(h.session.state.notice?.text == "Saved inspection for SL-0042 · status now REMEDY BY")
        #expect(h.shows("Saved inspection for SL-0042"))
        let row = h.screen[3]
        #expect(row.contains("SL-0042"))
        #expect(row.contains("REMEDY BY"))
        #expect(row.contains("2026-12-31"))
        #expect(h.screen[1].contains("1 REMEDY BY"))

        let records = try h.history()
        #expect(records.count == 1)
        let expected = InspectionValues(
            inspectionType: .thoroughScheme, inspectorName: "王建国", certificationNumber: "LEEA-12345",
            checkMarking: true, checkCuts: true, checkDeformation: true, checkFittings: true, checkCorrosion: true,
            result: .defectToBeRemedied, notes: "吊带有轻微磨损\nStitching intact",
            schemeReference: "LEEA 036 §4.2", defectDescription: "Edge abrasion, 300 mm from eye", action: .repair,
            remedyDeadlineSet: true, remedyDeadline: "2026-12-31", inspectionDate: "2026-11-28", confirmed: true,
            examinationBasis: .examinationScheme, testParticulars: "Proof load 2.5 t (1.25 × WLL)",
            repairParticulars: "Renew the sleeve", remedyParticulars: "Sleeve renewed by the maker",
            nextExaminationBy: "2027-05-28")
        #expect(records.first?.values == expected)
        let notices = try h.register.notices(recordUUID: try #require(records.first?.recordUUID))
        #expect(notices.map(\.duty) == [.employerTold, .reportToEmployer])
        #expect(notices.first?.recipient == "Dock foreman" && notices.first?.doneOn == FormHarness.today)
        #expect(notices.first?.seriousRisk == false)
        #expect(records.first?.amends == nil)
        #expect(records.first?.sessionID.hasPrefix(h.draftID + ":") == true)

        let profile = Profile.load(from: h.home.profilePath)
        #expect(profile.inspectorName == "王建国")
        #expect(profile.certificationNumber == "LEEA-12345")
        #expect(!h.draftExists)
    }

    @Test("after a save the list shows what a fresh start would show, the selection on the next asset to do")
    func listAfterSaveMatchesFreshStart() throws {
        let extras = [
            Asset(tag: "CH-0007", name: "Chain sling 2-leg", type: .chainSling, wllKg: 3150, intervalMonths: 6),
            Asset(tag: "SL-0001", name: "1 t web sling", type: .webSling, wllKg: 1000,
                  commissioned: CalendarDate(iso: "2026-11-01"), intervalMonths: 6),
            Asset(tag: "SL-0100", name: "5 t round sling", type: .roundSling, wllKg: 5000,
                  commissioned: CalendarDate(iso: "2026-06-15"), intervalMonths: 6),
            Asset(tag: "SH-0003", name: "Bow shackle", type: .shackle, wllKg: 3250,
                  commissioned: CalendarDate(iso: "2025-01-10"), intervalMonths: 6),
        ]
        let h = try FormHarness(profile: FormTests.profile, extraAssets: extras)
        // Attention order: the two overdue first (tag order), so SL-0042 is the second row.
        #expect(h.screen[3].contains("SH-0003") && h.screen[3].contains("OVERDUE"))
        #expect(h.screen[4].contains("SL-0042") && h.screen[4].contains("OVERDUE"))
        h.press(.down)
        #expect(h.session.state.list.selectedRow?.asset.tag == "SL-0042")
        h.press(.char("i"))
        #expect(h.screen[0].contains("SL-0042"))
        h.fillCompletePass()
        h.press(.ctrl("s"))
        #expect(h.session.state.notice?.text == "Saved inspection for SL-0042 · status now OK")
        // The worklist keeps its place: the asset that followed SL-0042 (DUE SOON), not the saved one.
        #expect(h.session.state.list.selectedRow?.asset.tag == "SL-0100")
        #expect(h.session.state.list.selection == 1)

        let fresh = try FormHarness(sharingHomeOf: h)
        // Everything but the notice line matches a session started on the saved register.
        #expect(Array(h.screen.dropLast()) == Array(fresh.screen.dropLast()))
        #expect(h.session.state.list.counts == fresh.session.state.list.counts)
        let okRow = try #require(h.screen.first { $0.contains("SL-0042") })
        #expect(okRow.contains("OK"))
        #expect(okRow.contains("2027-05-30"))

        // A second save moves another asset the other way: from OK to the top (DO NOT USE).
        h.press(.end, .up)
        #expect(h.session.state.list.selectedRow?.asset.tag == "SL-0001")
        h.press(.char("i"))
        #expect(h.screen[0].contains("SL-0001"))
        h.focus(.result)
        h.press(.left) // Fail – dangerous
        h.focus(.defectDescription)
        h.type("Hook latch missing")
        h.focus(.action)
        h.press(.right, .right, .right) // Quarantine
        #expect(h.form?.values.action == .quarantine)
        h.focus(.repairParticulars)
        h.type("Fit a new latch")
        h.focus(.confirmed)
        h.press(.char(" "))
        h.press(.ctrl("s"))
        h.type("Yard foreman")
        h.press(.ctrl("s"))
        #expect(h.session.state.notice?.text == "Saved inspection for SL-0001 · status now DO NOT USE")
        // What followed it (SL-0042) was examined today: nothing after it is left to do, so the selection stays
        // at the same position, now CH-0007, though the saved one moved up the list.
        #expect(h.session.state.list.selectedRow?.asset.tag == "CH-0007")
        #expect(h.session.state.list.selection == 3)
        #expect(h.screen[3].contains("SL-0001") && h.screen[3].contains("DO NOT USE"))
        let fresh2 = try FormHarness(sharingHomeOf: h)
        #expect(Array(h.screen.dropLast()) == Array(fresh2.screen.dropLast()))
        #expect(h.session.state.list.counts == fresh2.session.state.list.counts)
    }

    // MARK: Text

    @Test("wide characters: the cursor moves 6 columns for 王建国 and the line shows it once")
    func wideCharacters() throws {
        let h = try FormHarness()
        h.openFormOnInspectorName()
        #expect(h.form?.focus == .inspectorName)
        let start = try #require(h.frame.cursor)
        #expect(start.x == 24, "the value column starts after the 22-column label and a gap")
        h.type("王建国")
        #expect(h.form?.values.inspectorName == "王建国")
        let after = try #require(h.frame.cursor)
        #expect(after.y == start.y)
        #expect(after.x - start.x == 6)
        let line = h.screen[after.y]
        #expect(line.components(separatedBy: "王建国").count == 2, "shown exactly once on its line: \(line)")
        #expect(h.screenText.components(separatedBy: "王").count == 2)
        #expect(line.displayWidth == 80)
        h.press(.left)
        #expect(h.frame.cursor?.x == start.x + 4)
        h.press(.home)
        #expect(h.frame.cursor?.x == start.x)
        // Unfocused, it still shows once.
        h.press(.tab)
        #expect(h.screen[start.y].components(separatedBy: "王建国").count == 2)
    }

    @Test("a 5,000-character paste into notes keeps 4,000 and says the rest was not taken")
    func hugePasteIntoNotes() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.press(.char("i"))
        h.focus(.notes)
        let paste = String(repeating: "abcdefghi ", count: 500)
        #expect(paste.count == 5000)
        h.type(paste)
        let form = try #require(h.form)
        #expect(form.values.notes.count == 4000)
        #expect(form.values.notes == String(paste.prefix(4000)))
        #expect(form.notice == "Notes holds at most 4000 characters; the rest was not taken.")
        #expect(h.shows("Notes holds at most 4000 characters; the rest was not taken."))
        #expect(h.frame.width == 80)
        #expect(h.screen.count == 24)
        #expect(h.screen.allSatisfy { $0.displayWidth == 80 })
        // The form still works: Tab leaves, the text is kept.
        h.press(.tab)
        #expect(h.form?.focus == .schemeReference)
        #expect(h.form?.values.notes.count == 4000)
    }

    @Test("control characters typed as keys are dropped, in single- and multi-line fields")
    func controlCharactersDropped() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.openFormOnInspectorName()
        #expect(h.form?.focus == .inspectorName)
        h.press(.char("\u{1b}"), .char("["), .char("3"), .char("1"), .char("m"))
        let name = try #require(h.form?.values.inspectorName)
        #expect(!FormTests.hasControl(name))
        #expect(name == "Ann Smith[31m")
        h.press(.char("\u{07}"), .char("\u{9b}"), .char("\t"), .char("\u{7f}"), .char("\r\n"))
        #expect(h.form?.values.inspectorName == "Ann Smith[31m")

        h.focus(.notes)
        h.press(.char("\u{1b}"), .char("["), .char("2"), .char("J"), .char("\u{07}"), .char("\u{9b}"), .char("x"))
        let notes = try #require(h.form?.values.notes)
        #expect(!FormTests.hasControl(notes))
        #expect(notes == "[2Jx")
        #expect(!h.screenText.contains("^["))
        #expect(!FormTests.hasControl(h.screenText.replacingOccurrences(of: "\n", with: "")))
    }

    // MARK: Dates

    @Test("2026-02-30 is refused with a message, listed by the gate, and Ctrl-S saves nothing; letters are not taken")
    func invalidDatesRefused() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.press(.char("i"))
        h.focus(.inspectionDate)
        h.press(.ctrl("u"))
        #expect(h.form?.values.inspectionDate == "")
        h.type("2026-02-30")
        #expect(h.form?.values.inspectionDate == "2026-02-30")
        #expect(h.form?.dateMessages[.inspectionDate] == "2026-02-30 is not a real date.")
        #expect(h.shows("2026-02-30 is not a real date."))
        #expect(h.form?.problems.contains { $0.field == .inspectionDate } == true)
        #expect(h.flatScreen.contains("Enter the inspection date as YYYY-MM-DD (a real date)."))

        // A form otherwise complete, so the date is what stops the save.
        h.fillCompletePass()
        #expect(h.form?.problems.map(\.field) == [.inspectionDate])
        h.press(.ctrl("s"))
        #expect(h.form != nil)
        #expect(h.form?.focus == .inspectionDate)
        #expect(h.shows("Not saved: 1 rule is unmet"))
        #expect(try h.register.recordCount() == 0)
        #expect(try h.history().isEmpty)

        // Characters no date can hold are not taken in a date field, and the footer says what it takes.
        h.press(.ctrl("u"))
        h.type("2026-1")
        h.press(.char("x"))
        #expect(h.form?.values.inspectionDate == "2026-1")
        #expect(h.shows("“x” is not part of a date: write YYYY-MM-DD, today, +14, +2w, +6m or +1y."))
        h.type("1q-3 0")
        #expect(h.form?.values.inspectionDate == "2026-11-30")
        #expect(h.form?.dateMessages[.inspectionDate] == nil)
        #expect(!h.shows("is not a real date"))
        #expect(h.form?.problems == [])
        // Now it saves.
        h.press(.ctrl("s"))
        #expect(h.form == nil)
        #expect(try h.register.recordCount() == 1)
    }

    // MARK: Focus

    @Test("↓/↑ move between fields outside multi-line text; inside notes they move between lines; Tab leaves")
    func focusOrderWithArrows() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.press(.char("i"))
        h.focus(.inspectionType)
        // The 17 with a periodic examination's report particulars and the attachments line before the confirmation.
        let all = FormField.inspectionFields.dropLast() + [.examinationBasis, .testParticulars, .nextExaminationBy,
                                                           .attachments, .confirmed]
        // ↓ through the whole untouched form (empty multi-line fields are left at once), then ↑ back.
        for field in all.dropFirst() {
            h.press(.down)
            #expect(h.form?.focus == field)
        }
        for field in all.reversed().dropFirst() {
            h.press(.up)
            #expect(h.form?.focus == field)
        }
        #expect(h.form?.focus == .inspectionType)

        h.focus(.notes)
        h.type("line one")
        h.press(.enter)
        h.type("line two")
        #expect(h.form?.values.notes == "line one\nline two")
        let second = try #require(h.frame.cursor)
        h.press(.up)
        #expect(h.form?.focus == .notes)
        let first = try #require(h.frame.cursor)
        #expect(first.y == second.y - 1)
        #expect(first.x == second.x, "the column is kept: both lines are 8 columns")
        h.press(.down)
        #expect(h.form?.focus == .notes)
        #expect(h.frame.cursor?.y == second.y)
        h.press(.down)
        #expect(h.form?.focus == .schemeReference, "↓ on the last line leaves to the next field")
        h.press(.up)
        #expect(h.form?.focus == .notes)
        h.press(.up, .up)
        #expect(h.form?.focus == .result, "↑ on the first line leaves to the previous field")
        h.press(.down)
        #expect(h.form?.focus == .notes)
        h.press(.tab)
        #expect(h.form?.focus == .schemeReference, "Tab leaves a multi-line field")
        h.press(.backTab)
        #expect(h.form?.focus == .notes)
        h.press(.enter)
        #expect(h.form?.focus == .notes, "Enter in notes is a new line")
        #expect(h.form?.values.notes == "line one\nline two\n")
        // Enter in a single-line field moves on.
        h.focus(.schemeReference)
        h.press(.enter)
        #expect(h.form?.focus == .defectDescription)
    }

    // MARK: The gate

    @Test("Ctrl-S with unmet rules saves nothing, counts them and shows every sentence; focus on the first")
    func unmetRulesListed() throws {
        let h = try FormHarness()
        h.press(.char("i"))
        #expect(h.form?.focus == .inspectorName, "no profile: the name is the first field that needs the inspector")
        h.focus(.inspectionType)
        h.press(.right) // per examination scheme: needs a scheme reference
        h.focus(.result)
        h.press(.left) // nothing chosen → the last option: Fail – dangerous
        #expect(h.form?.values.result == .failDangerous)
        h.press(.ctrl("s"))

        let expected: [(FormField, String)] = [
            (.inspectorName, "Enter the inspector's name."),
            (.certificationNumber, "A thorough examination needs the inspector's certification number."),
            (.schemeReference, "An examination per scheme needs the scheme reference."),
            (.defectDescription, "Describe the defect (part and defect) for a result other than Pass."),
            (.action, "A dangerous fail needs an action other than None or Monitor."),
            (.repairParticulars, "Give the repair, renewal or alteration the defect requires."),
            (.confirmed, "Tick to authenticate this report as its examiner."),
        ]
        let form = try #require(h.form)
        #expect(form.problems.map(\.field) == expected.map(\.0))
        #expect(form.problems.map(\.message) == expected.map(\.1))
        #expect(h.shows("Not saved: 7 rules are unmet"))
        #expect(form.focus == .inspectorName)
        #expect(try h.register.recordCount() == 0)

        for (field, sentence) in expected {
            h.focus(field)
            #expect(h.flatScreen.contains(sentence), "not on screen with focus on \(field): \(sentence)")
        }
        #expect(try h.register.recordCount() == 0)
        #expect(!h.draftExists)
    }

    @Test("a rule about a multi-line field is on screen when Ctrl-S moves the focus to that field")
    func multilineRuleVisibleAfterRefusedSave() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.press(.char("i"))
        h.focus(.result)
        h.press(.left) // Fail – dangerous
        h.focus(.action)
        h.press(.left) // Withdraw from service
        h.focus(.repairParticulars)
        h.type("Replace the sling")
        h.focus(.confirmed)
        h.press(.char(" "))
        // Six lines of notes above push the defect field down to the last body row.
        h.focus(.notes)
        h.type("one\ntwo\nthree\nfour\nfive\nsix")
        // The only unmet rule is the defect description's.
        let sentence = "Describe the defect (part and defect) for a result other than Pass."
        #expect(h.form?.problems.map(\.message) == [sentence])
        h.focus(.inspectionType) // back to the top
        h.press(.ctrl("s"))
        #expect(h.form?.focus == .defectDescription)
        #expect(h.shows("Not saved: 1 rule is unmet"))
        let field = try #require(h.frame.cursor).y
        // Both rows of the widget and the sentence under it must be inside the form's body.
        let lastBodyRow = FormHarness.height - 3 // title, then the body, then the preview and the footer
        #expect(field + 2 <= lastBodyRow,
                "the field's second row and its rule are below the visible body (field row \(field))")
        #expect(h.flatScreen.contains(sentence), "the unmet rule is not on screen:\n\(h.screenText)")
    }

    @Test("a single-line field scrolls sideways with wide characters, cursor inside the field")
    func wideTextScrollsInsideField() throws {
        let h = try FormHarness()
        h.openFormOnInspectorName()
        let start = try #require(h.frame.cursor)
        h.type(String(repeating: "王", count: 40))
        #expect(h.form?.values.inspectorName.count == 40)
        let cursor = try #require(h.frame.cursor)
        #expect(cursor.y == start.y)
        #expect(cursor.x > start.x && cursor.x < FormHarness.width)
        #expect(h.screen.allSatisfy { $0.displayWidth == 80 })
        h.press(.home)
        #expect(h.frame.cursor?.x == start.x)
        #expect(h.screen[start.y].hasSuffix(String(repeating: "王", count: 28)))
    }

    // MARK: Editing keys

    @Test("editing keys in a single-line field: arrows, Home/End, Ctrl-A/E, Backspace, Delete, Ctrl-K/U/W")
    func editingKeys() throws {
        let h = try FormHarness()
        h.openFormOnInspectorName()
        func value() -> String? { h.form?.values.inspectorName }
        let x0 = try #require(h.frame.cursor).x

        h.type("hello world")
        #expect(value() == "hello world")
        #expect(h.frame.cursor?.x == x0 + 11)
        h.press(.home)
        #expect(h.frame.cursor?.x == x0)
        h.type("A")
        #expect(value() == "Ahello world")
        h.press(.end)
        #expect(h.frame.cursor?.x == x0 + 12)
        h.type("Z")
        #expect(value() == "Ahello worldZ")
        h.press(.ctrl("a"), .delete)
        #expect(value() == "hello worldZ")
        h.press(.ctrl("e"), .backspace)
        #expect(value() == "hello world")
        h.press(.left, .left, .left, .left, .left)
        h.type("big ")
        #expect(value() == "hello big world")
        h.press(.right, .right, .ctrl("k"))
        #expect(value() == "hello big wo")
        h.press(.ctrl("k"))
        #expect(value() == "hello big wo", "Ctrl-K at the end of a single line does nothing")
        h.press(.left, .left, .ctrl("u"))
        #expect(value() == "wo")
        #expect(h.frame.cursor?.x == x0)
        h.press(.backspace)
        #expect(value() == "wo", "Backspace at the start does nothing")
        h.press(.delete)
        #expect(value() == "o")
        h.press(.end, .delete)
        #expect(value() == "o", "Delete at the end does nothing")
        h.type(" and more")
        #expect(value() == "o and more")
        h.press(.ctrl("w"))
        #expect(value() == "o and ")
        h.press(.ctrl("w"))
        #expect(value() == "o ")
        h.press(.ctrl("w"))
        #expect(value() == "")
        #expect(h.frame.cursor?.x == x0)
        #expect(h.form?.hasUnsavedInput == false, "no profile: an empty name is the baseline")
    }

    // MARK: Leaving

    @Test("Esc after typing asks; Esc in the dialog keeps editing; typing then undoing closes at once")
    func escapeDialog() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.openFormOnInspectorName()
        h.type("x")
        #expect(h.form?.values.inspectorName == "Ann Smithx")
        #expect(h.form?.hasUnsavedInput == true)
        h.press(.escape)
        let dialog = try #require(h.form?.dialog)
        #expect(dialog.answers == [.keepEditing, .keepDraft, .discard])
        #expect(h.shows("Leave this inspection?"))
        #expect(h.shows("[ Keep editing ]"))
        #expect(h.shows("[ Close and keep draft ]"))
        #expect(h.shows("[ Discard ]"))
        #expect(h.frame.cursor == nil)

        h.press(.escape)
        #expect(h.form != nil)
        #expect(h.form?.dialog == nil)
        #expect(!h.shows("Leave this inspection?"))
        #expect(h.form?.values.inspectorName == "Ann Smithx")
        #expect(h.form?.focus == .inspectorName)

        h.press(.backspace)
        #expect(h.form?.hasUnsavedInput == false)
        h.press(.escape)
        #expect(h.form == nil)
        #expect(h.session.state.screens.isEmpty)
        #expect(!h.shows("Leave this inspection?"))
        h.advance(1)
        #expect(!h.draftExists)
    }

    @Test("Ctrl-C in the form asks like Esc when something was typed")
    func ctrlCAsksToo() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.press(.char("i"))
        h.focus(.checkCuts)
        h.press(.char(" "))
        h.press(.ctrl("c"))
        #expect(h.form?.dialog != nil)
        #expect(h.shows("[ Keep editing ]"))
        h.press(.enter) // Keep editing is selected first
        #expect(h.form?.dialog == nil)
        #expect(h.form?.values.checkCuts == true)
    }

    // MARK: Preview

    @Test("the preview: pending after an edit, the answer 0.3 s of virtual time after the last edit")
    func previewAfterQuietPeriod() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.press(.char("i"))
        let previewRow = FormHarness.height - 2
        #expect(h.screen[previewRow].contains("If saved: — needs a result and a valid inspection date."))

        h.fillCompletePass()
        guard case .pending = h.form?.preview else {
            Issue.record("preview should be pending after an edit, is \(String(describing: h.form?.preview))")
            return
        }
        #expect(h.screen[previewRow].trimmingCharacters(in: .whitespaces) == "If saved: …")
        h.advance(0.29)
        #expect(h.screen[previewRow].trimmingCharacters(in: .whitespaces) == "If saved: …")
        h.advance(0.01)
        let answer = "If saved: status OK, next thorough examination due 2027-05-30."
        #expect(h.form?.preview == .ready(answer))
        #expect(h.screen[previewRow].trimmingCharacters(in: .whitespaces) == answer)

        // A further edit clears it; edits keep restarting the quiet period.
        h.focus(.result)
        h.press(.left) // Pass → Fail – dangerous
        #expect(h.screen[previewRow].trimmingCharacters(in: .whitespaces) == "If saved: …")
        h.advance(0.2)
        h.press(.right, .left) // two edits that come back to Fail, 0.2 s later
        h.advance(0.2)
        #expect(h.screen[previewRow].trimmingCharacters(in: .whitespaces) == "If saved: …",
                "0.2 s after the last edit is still inside the quiet period")
        h.advance(0.1)
        // Fail – dangerous with action None is refused by the gate: no status is promised.
        #expect(h.screen[previewRow].trimmingCharacters(in: .whitespaces)
                == "If saved: — not until the dates and choices marked ⚠ are accepted.")
    }
}

/// History, records and amendments.
@Suite("History and amendments")
struct FormHistoryTests {
    static let newer = FormHarness.passValues(name: "Ann Smith", certificate: "LEEA-1", date: "2026-11-30",
                                              notes: "Newer record")
    static let older = FormHarness.passValues(name: "Bob Jones", certificate: "LEEA-2", date: "2026-05-01",
                                              notes: "Older record")

    /// Every line shown on the record screen, scrolling down with j until nothing changes.
    static func recordLines(_ h: FormHarness) -> [String] {
        var seen = h.screen
        for _ in 0..<200 {
            let before = h.screen
            h.press(.char("j"))
            if h.screen == before { break }
            seen += h.screen
        }
        return seen
    }

    @Test("Enter shows the records newest first; Enter on one shows all 17 fields, saved-at and operator")
    func historyAndRecord() throws {
        // The newer record is inserted first, so date order and id order disagree.
        let h = try FormHarness(profile: FormTests.profile, records: [FormHistoryTests.newer, FormHistoryTests.older])
        h.press(.enter)
        #expect(h.shows("2 records, newest first"))
        #expect(h.screen[7].contains("2026-11-30") && h.screen[7].contains("Ann Smith"))
        #expect(h.screen[8].contains("2026-05-01") && h.screen[8].contains("Bob Jones"))

        h.press(.enter)
        #expect(h.screen[0].contains("Record #1 · SL-0042 · 2026-11-30"))
        let lines = FormHistoryTests.recordLines(h)
        let pairs: [(String, String)] = [
            ("Inspection type", "Thorough examination (periodic)"),
            ("Inspector name", "Ann Smith"),
            ("Certification no.", "LEEA-1"),
            ("Check: marking legible", "yes"),
            ("Check: no cuts or wear", "yes"),
            ("Check: no deformation", "yes"),
            ("Check: fittings secure", "yes"),
            ("Check: no corrosion", "yes"),
            ("Result", "Pass"),
            ("Notes", "Newer record"),
            ("Scheme reference", "—"),
            ("Defect (part, defect)", "—"),
            ("Action", "None"),
            ("Remedy deadline set", "no"),
            ("Remedy deadline", "—"),
            ("Inspection date", "2026-11-30"),
            ("Confirmed accurate", "yes"),
            ("Saved at", "2026-11-30T09:15:00.000Z"),
            ("Saved by (operator)", "rigger7"),
        ]
        for (label, value) in pairs {
            #expect(lines.contains { $0.hasPrefix(" " + label) && $0.contains(value) }, "no line \(label) … \(value)")
        }
        #expect(Set(FormField.inspectionFields.map(\.briefLabel)).allSatisfy { label in
            lines.contains { $0.hasPrefix(" " + label) }
        })
    }

    @Test("A on a record opens the form prefilled (Amending record #N); saving adds a record that amends it")
    func amendFromRecord() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHistoryTests.newer, FormHistoryTests.older])
        let original = try #require(try h.register.inspection(id: 1))
        h.press(.enter, .enter)
        h.press(.char("A"))
        let form = try #require(h.form)
        #expect(h.screen[0].contains("Amending record #1 · SL-0042"))
        #expect(form.amends == 1)
        // As saved: the basis and the next examination resolved by the gate.
        var prefilled = original.values
        #expect(prefilled.examinationBasis == .within6Months && !prefilled.nextExaminationBy.isEmpty)
        prefilled.confirmed = false
        #expect(form.values == prefilled)
        #expect(!form.hasUnsavedInput)

        h.focus(.notes)
        h.type(" (corrected)")
        h.focus(.amendmentReason)
        h.type("Notes were incomplete")
        h.focus(.confirmed)
        h.press(.char(" "))
        h.press(.ctrl("s"))
        #expect(h.form == nil)
        #expect(h.flatScreen.contains("Saved an amendment of record #"), "\(h.screenText)")

        let records = try h.history()
        #expect(records.count == 3)
        let amendment = try #require(records.first { $0.id == 3 })
        #expect(amendment.amends == 1)
        #expect(amendment.values.notes == "Newer record (corrected)")
        #expect(amendment.values.amendmentReason == "Notes were incomplete")
        #expect(amendment.values.confirmed)
        // The original is as it was, now superseded by the amendment.
        var superseded = original
        superseded.supersededBy = 3
        superseded.supersededByUUID = amendment.recordUUID
        #expect(try h.register.inspection(id: 1) == superseded)
    }

    @Test("A on the history's selected record amends that one")
    func amendFromHistory() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHistoryTests.newer, FormHistoryTests.older])
        let original = try #require(try h.register.inspection(id: 2))
        h.press(.enter, .down)
        h.press(.char("A"))
        #expect(h.screen[0].contains("Amending record #2"))
        #expect(h.form?.values.inspectorName == "Bob Jones")
        #expect(h.form?.values.inspectionDate == "2026-05-01")
        // An amendment must change something and say why.
        h.focus(.notes)
        h.type(" (corrected)")
        h.focus(.amendmentReason)
        h.type("Notes were incomplete")
        h.focus(.confirmed)
        h.press(.char(" "))
        h.press(.ctrl("s"))
        #expect(h.form == nil)
        let amendment = try #require(try h.history().first { $0.amends == 2 })
        #expect(amendment.values.inspectorName == "Bob Jones")
        #expect(try h.register.inspection(id: 2)?.values == original.values)
        #expect(try h.register.inspection(id: 2)?.supersededBy == amendment.id)
        #expect(try h.register.recordCount() == 3)
    }
}
