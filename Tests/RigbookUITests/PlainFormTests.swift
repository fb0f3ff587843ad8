import Foundation
import RigbookCore
import RigbookStore
@testable import RigbookUI
import Testing

/// The plain form engine as the asset form and the asset editor use it: what a field refuses as it is typed, where
/// the focus goes after a refused Ctrl-S, and what a letter does on a choice or a yes / no.
@Suite struct PlainFormTests {
    private func form(_ h: Harness) -> AssetFormState? { h.state.screens.last as? AssetFormState }

    private func focus(_ field: AssetDraft.Field, _ h: Harness) {
        for _ in 0..<30 where form(h)?.focus != field { h.press(.tab) }
    }

    @Test func anIntervalAndADateRefuseLettersAsTheyAreTypedWithTheSentence() throws {
        let h = try Harness(.empty)
        h.press(.char("a"))
        focus(.interval, h)
        h.type("1x")
        #expect(h.line(containing: "The interval is a whole number of months") != nil, "\(h.dump)")
        h.type("2")
        #expect(form(h)?.draft.intervalMonths == "12")
        focus(.commissioned, h)
        h.type("2026-1q")
        #expect(form(h)?.draft.commissioned == "2026-1")
        #expect(h.line(containing: "Write dates as YYYY-MM-DD, today") != nil, "\(h.dump)")
    }

    @Test func aRefusedSaveFocusesTheFirstFieldToFixAsTheFormReads() throws {
        let h = try Harness(.empty)
        h.press(.char("a"))
        focus(.wll, h)
        h.type("heavy")
        h.press(.ctrl("s"))
        #expect(form(h)?.focus == .tag, "the tag is above the WLL: \(h.dump)")
    }

    @Test func aLetterOnAYesNoSaysItTakesYOrNAndALetterFindsARetirementByHowItLeft() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]))
        h.press(.char("a"))
        focus(.liftsPersons, h)
        h.press(.char("q"))
        #expect(h.line(containing: "Lifts persons takes y or n.") != nil, "\(h.dump)")
        h.press(.char("y"))
        #expect(form(h)?.draft.liftsPersons == true)
        h.press(.escape, .char("d"))
        h.press(.char("e"))
        focus(.disposition, h)
        h.press(.char("s"), .char("s"))
        #expect(form(h)?.draft.disposition == .scrapped, "s, then s again: sold, then scrapped")
        #expect(h.line(containing: "‹ Retired: scrapped ›") != nil, "\(h.dump)")
    }

    @Test func anUnreadableRetirementDateIsSaidOnceNotAlsoAsMissing() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]))
        h.press(.char("e"))
        focus(.disposition, h)
        h.press(.char("l"))                           // lost, dated today
        h.press(.tab, .ctrl("u"))
        h.type("2026-13")
        h.press(.tab)
        h.type("lost on the quay")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Give the date it left service") == nil, "\(h.dump)")
        #expect(h.screen.joined().contains("⚠"), "\(h.dump)")
    }

    @Test func aDeclarationOfConformityCannotBeDatedAfterToday() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]))
        h.press(.char("p"))
        let editor = { h.state.screens.last as? ParticularEditorState }
        for _ in 0..<10 where editor()?.focus != .declarationDate { h.press(.tab) }
        h.type("2099-01-01")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "The declaration date 2099-01-01 is in the future") != nil, "\(h.dump)")
        #expect(editor() != nil, "nothing saved: the editor stays")
    }

    @Test func aClientRefWithAnInvisibleCharacterIsRefusedAsATagIs() {
        var draft = AssetDraft()
        draft.tag = "SL-1"
        draft.name = "sling"
        draft.wllKg = "1000"
        draft.clientRef = "P-\u{202E}44"
        guard case .failure(let problems) = draft.validated(today: harnessToday) else {
            Issue.record("a client ref holding U+202E was taken")
            return
        }
        #expect(problems.items.contains { $0.0 == .clientRef && $0.1.contains("U+202E") })
    }
}

/// The test form below 60 columns puts each label on a row of its own above its value, as the inspection form
/// does; from 60 columns a label is whole beside its value.
@Suite struct TestFormNarrowTests {
    @Test func labelsStandAboveTheirValuesWhenNarrowAndWholeFromSixtyColumns() throws {
        let h = try Harness(.assets([TestFormTests.drill()]), width: 50, height: 20)
        h.press(.char("i"))
        #expect(h.state.screens.last is TestFormState, "\(h.dump)")
        let label = try #require(h.line(containing: "Technician"), "\(h.dump)")
        #expect(label.text.trimmingCharacters(in: .whitespaces).hasSuffix("Technician"), "\(h.dump)")
        h.resize(width: 60, height: 30)
        #expect(h.line(containing: "Earth continuity (Ω)") != nil, "\(h.dump)")
    }
}

/// A form's title gives way by the asset's name, then its type: the tag and the WLL with its unit are whole at
/// any width, with the draft's state beside them.
@Suite struct FormTitleTests {
    @Test(arguments: [44, 50, 60, 80])
    func theWLLAndTheTagAreNeverCut(width: Int) throws {
        let sling = makeAsset(tag: "SL-0042", name: "10 t round sling, endless, 6 m effective length, blue",
                              type: .roundSling, wllKg: 10_000)
        let h = try Harness(.assets([sling]), width: width, height: 24)
        h.press(.char("i"))
        h.press(.tab)
        h.type("Ann")                                  // the draft's state joins the title
        let title = h.screen[0]
        #expect(title.contains("SL-0042") && title.contains("WLL 10 t"), "\(width): \(title)")
        #expect(title.contains("draft"), "\(width): \(title)")
        let tight = FormTitle.text(lead: " Inspection · SL-0042", asset: sling, width: 30)
        #expect(tight.hasPrefix(" Inspection · SL-0042") && tight.hasSuffix(" · WLL 10 t"), "\(tight)")
    }
}

/// A batch larger than its strip says which rows show beside the heading, never over "REPORT NO.".
@Suite struct BatchHeadingTests {
    @Test(arguments: [80, 100])
    func thePagerLeavesTheHeadingWhole(width: Int) throws {
        let h = try Harness(.assets(BatchFormTests.assets(10)), width: width, height: 24,
                            profile: BatchFormTests.profile)
        for _ in 0..<10 { h.press(.char("m")) }
        h.press(.char("I"))
        let heading = h.screen[1]
        #expect(heading.contains("REPORT NO."), "\(width): \(heading)")
        #expect(heading.contains("/10") || heading.contains("of 10"), "\(width): \(heading)")
    }
}

/// After a save the list keeps its worklist: a new record moves on to the next item to do, an amendment stays on
/// the asset it corrected, and an asset inspected on its own is unmarked (a later `I` must not take it again).
@Suite struct AfterSaveTests {
    private func list(_ h: FormHarness) -> ListState? { h.harness.state.list }

    @Test func anAmendmentKeepsTheSelectionOnItsAsset() throws {
        let other = makeAsset(tag: "SL-0043", name: "2 t web sling")
        let h = try FormHarness(profile: FormTests.profile, extraAssets: [other], records: [FormHarness.passValues()])
        #expect(list(h)?.selectedRow?.asset.uuid == h.asset.uuid)
        h.press(.enter, .char("A"))
        AmendmentTests.amendToObservations(h)
        #expect(h.form == nil, "\(h.screenText)")
        h.press(.escape)                               // the history, back to the list
        #expect(list(h)?.selectedRow?.asset.uuid == h.asset.uuid, "\(h.screenText)")
    }

    @Test func anAssetInspectedOnItsOwnIsUnmarked() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.press(.char("m"))
        h.press(.up)
        #expect(list(h)?.marks.count == 1)
        h.press(.char("i"))
        h.focus(.checkMarking)
        h.press(.function(2))                          // a clean pass
        h.focus(.confirmed)
        h.press(.char(" "))
        h.press(.ctrl("s"))
        #expect(h.form == nil, "\(h.screenText)")
        #expect(list(h)?.marks.count == 0, "\(h.screenText)")
    }
}
