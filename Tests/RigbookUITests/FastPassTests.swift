import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookUI
@testable import RigbookApp
import RigbookStore
import RigbookCore

/// A clean pass in a handful of keys, type-ahead in choices, relative dates.
@Suite("A fast single form")
struct FastPassTests {
    static let profile = Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1")

    // MARK: Where the form opens, Space and F2

    @Test("with a remembered inspector the form opens on the first check; without, on the name")
    func opensWhereTheInspectorIsNeeded() throws {
        let remembered = try FormHarness(profile: FastPassTests.profile)
        remembered.press(.char("i"))
        #expect(remembered.form?.focus == .checkMarking)
        #expect(remembered.line(containing: "▸ [ ] ID tag and WLL marking") != nil, "\(remembered.screenText)")
        let stranger = try FormHarness()
        stranger.press(.char("i"))
        #expect(stranger.form?.focus == .inspectorName)
    }

    @Test("Space on a check ticks it and moves on; on the confirmation it stays")
    func spaceMovesOn() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"))
        for field in FormField.checks {
            #expect(h.form?.focus == field)
            h.press(.char(" "))
            #expect(h.form?.values[flag: field] == true)
        }
        #expect(h.form?.focus == .result)
        h.focus(.confirmed)
        h.press(.char(" "))
        #expect(h.form?.focus == .confirmed && h.form?.values.confirmed == true)
    }

    @Test("F2 ticks the five checks, sets Pass and goes on to the confirmation; the footer shows it")
    func cleanPassKey() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"))
        #expect(h.screen[23].contains("F2 clean pass"), "\(h.screen[23])")
        h.press(.function(2))
        let form = try #require(h.form)
        #expect(form.values.allChecksTicked && form.values.result == .pass)
        #expect(form.focus == .confirmed)
        #expect(form.problems.map(\.field) == [.confirmed])
        #expect(h.shows("All five checks ticked and the result set to Pass."))
    }

    // MARK: Authenticate and save

    @Test("i F2 Ctrl-S y saves a clean pass: four keys from the list")
    func fourKeys() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"), .function(2), .ctrl("s"))
        let question = try #require(h.form?.authenticationQuestion, "\(h.screenText)")
        #expect(question.title == "Authenticate and save?")
        #expect(h.shows("I, Ann Smith, authenticate this report."))
        #expect(try h.register.recordCount() == 0, "nothing is saved before the answer")
        h.press(.char("y"))
        #expect(h.form == nil)
        let record = try #require(try h.history().first)
        #expect(record.values.confirmed && record.values.result == .pass && record.values.allChecksTicked)
        #expect(record.values.inspectorName == "Ann Smith")
    }

    @Test("a y in the same burst as the Ctrl-S, or pasted, does not authenticate")
    func burstAndPasteRefused() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"), .function(2))
        h.harness.burst([.ctrl("s"), .char("y")])
        #expect(h.form?.authenticationQuestion != nil, "the question is still asked")
        #expect(h.shows("That key came with the keys that opened this question"), "\(h.screenText)")
        #expect(h.form?.values.confirmed == false)
        h.press(.paste("y"))
        #expect(h.form?.authenticationQuestion != nil && h.form?.values.confirmed == false)
        #expect(h.shows("A paste does not answer a question: press a key."), "\(h.screenText)")
        #expect(try h.register.recordCount() == 0)
        h.press(.char("y"))
        #expect(h.form == nil)
        #expect(try h.register.recordCount() == 1)
    }

    @Test("n (or Esc) goes back to the confirmation, unticked; other unmet rules save nothing and ask nothing")
    func noGoesBack() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"), .function(2), .ctrl("s"), .char("n"))
        #expect(h.form?.authenticationQuestion == nil)
        #expect(h.form?.focus == .confirmed && h.form?.values.confirmed == false)
        // A rule besides the confirmation: the usual refusal, no question.
        h.focus(.inspectorName)
        h.press(.ctrl("u"))
        h.press(.ctrl("s"))
        #expect(h.form?.authenticationQuestion == nil)
        #expect(h.shows("Not saved: 2 rules are unmet"))
        #expect(try h.register.recordCount() == 0)
    }

    @Test("a defect: y leads on to the reg 10 box, as Ctrl-S does")
    func defectGoesOnToRegulation10() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"))
        h.focus(.result)
        h.press(.left) // Fail – dangerous
        h.focus(.defectDescription)
        h.type("Hook latch missing")
        h.focus(.action)
        h.press(.left) // Withdraw
        h.focus(.repairParticulars)
        h.type("New latch")
        h.press(.ctrl("s"))
        #expect(h.form?.authenticationQuestion != nil, "\(h.screenText)")
        h.press(.char("y"))
        #expect(h.form?.noticeDialog != nil)
        #expect(h.form?.values.confirmed == true)
        #expect(try h.register.recordCount() == 0)
    }

    @Test("a check (not a report) asks to confirm, not to authenticate")
    func aCheckIsConfirmed() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"), .function(2))
        h.focus(.inspectionType)
        h.press(.char("p")) // Pre-use check
        #expect(h.form?.values.inspectionType == .preUse)
        h.press(.ctrl("s"))
        #expect(h.form?.authenticationQuestion?.title == "Confirm and save?")
        #expect(h.shows("I confirm this record is accurate."))
    }

    // MARK: Type-ahead

    @Test("a letter on a choice jumps to the next option starting with it; again, the one after; no timer")
    func typeAheadInTheForm() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"))
        h.focus(.result)
        h.press(.char("p"))
        #expect(h.form?.values.result == .pass)
        h.press(.char("p"))
        #expect(h.form?.values.result == .passWithObservations)
        h.advance(5)
        h.press(.char("P"))
        #expect(h.form?.values.result == .pass, "upper case works, and waiting changes nothing")
        h.press(.char("d"))
        #expect(h.form?.values.result == .defectToBeRemedied)
        h.press(.char("z"))
        #expect(h.form?.values.result == .defectToBeRemedied)
        #expect(h.shows("No option of Result starts with “z”."))
        h.focus(.action)
        h.press(.char("w"))
        #expect(h.form?.values.action == .withdraw)
        h.focus(.inspectionType)
        h.press(.char("t"))
        #expect(h.form?.values.inspectionType == .thoroughScheme, "periodic → per scheme, the next T")
        h.press(.char("t"), .char("t"))
        #expect(h.form?.values.inspectionType == .thoroughInitial, "round past the last T to the first")
        // On a check box a letter does nothing.
        h.focus(.checkCuts)
        let before = h.form?.values
        h.press(.char("x"))
        #expect(h.form?.values == before)
    }

    @Test("type-ahead in the pop-up list moves the highlight; Enter takes it")
    func typeAheadInThePopup() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"))
        h.focus(.action)
        h.press(.enter)
        #expect(h.form?.popup != nil)
        h.press(.char("q"))
        #expect(h.shows("› Quarantine"))
        #expect(h.form?.values.action == InspectionAction.none, "moving changes nothing until Enter")
        h.press(.enter)
        #expect(h.form?.values.action == .quarantine)
    }

    @Test("the add-asset screen: a letter picks the type, y and n answer lifts persons")
    func typeAheadInTheAssetForm() throws {
        let h = try Harness()
        h.press(.char("a"))
        let form = { h.state.screens.last as? AssetFormState }
        while form()?.focus != .type { h.press(.tab) }
        h.press(.char("c"))
        #expect(form()?.draft.type == .chainSling)
        h.press(.char("c"))
        #expect(form()?.draft.type == .chainBlock)
        h.press(.char("s"))
        #expect(form()?.draft.type == .spreaderBeam, "the next S after chain block, in the list's order")
        h.press(.char("s"))
        #expect(form()?.draft.type == .shackle)
        while form()?.focus != .liftsPersons { h.press(.tab) }
        h.press(.char("y"))
        #expect(form()?.draft.liftsPersons == true)
        h.press(.char("n"))
        #expect(form()?.draft.liftsPersons == false)
    }

    // MARK: Relative dates

    @Test("+14 in the remedy deadline counts from the inspection date and becomes a date when the field is left")
    func relativeDeadline() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"))
        h.focus(.inspectionDate)
        h.press(.ctrl("u"))
        h.type("2026-11-20")
        h.focus(.remedyDeadline)
        h.type("+14")
        #expect(h.form?.values.remedyDeadline == "+14", "kept as typed while the field is focused")
        #expect(h.flatScreen.contains("= 2026-12-04 (from the inspection date), filled in when you leave the field"),
                "\(h.screenText)")
        h.press(.tab)
        #expect(h.form?.values.remedyDeadline == "2026-12-04")
        h.focus(.remedyDeadline)
        h.press(.ctrl("u"))
        h.type("+6m")
        h.press(.backTab)
        #expect(h.form?.values.remedyDeadline == "2027-05-20")
    }

    @Test("today and -1 in the inspection date count from today; a relative date that means nothing says so")
    func relativeInspectionDate() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"))
        h.focus(.inspectionDate)
        h.press(.ctrl("u"))
        h.type("-1")
        h.press(.tab)
        #expect(h.form?.values.inspectionDate == "2026-11-29")
        h.focus(.inspectionDate)
        h.press(.ctrl("u"))
        h.type("today")
        h.press(.tab)
        #expect(h.form?.values.inspectionDate == "2026-11-30")
        h.focus(.inspectionDate)
        h.press(.ctrl("u"))
        h.type("+6d")
        h.press(.backspace, .char("w"), .backspace)
        h.type("y")
        #expect(h.form?.values.inspectionDate == "+6y")
        h.press(.ctrl("u"))
        h.type("+")
        h.press(.tab)
        #expect(h.form?.values.inspectionDate == "+")
        #expect(h.flatScreen.contains("“+” is not a date: write YYYY-MM-DD, today, or +14 (days), +2w, +6m, +1y."),
                "\(h.screenText)")
    }

    @Test("Ctrl-S expands a relative date still in its field before the gate reads it")
    func saveExpands() throws {
        let h = try FormHarness(profile: FastPassTests.profile)
        h.press(.char("i"), .function(2))
        h.focus(.confirmed)
        h.press(.char(" "))
        h.focus(.inspectionDate)
        h.press(.ctrl("u"))
        h.type("-2")
        #expect(h.form?.problems.isEmpty == true, "the rules read -2 as the date it stands for")
        h.press(.ctrl("s"))
        #expect(h.form == nil)
        #expect(try h.history().first?.values.inspectionDate == "2026-11-28")
    }
}
