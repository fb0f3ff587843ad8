import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
import RigbookUI

/// Amendments on screen: one live amendment per record, the newest of a chain is the one
/// amended, and nothing already said is said again.
@Suite("Amendments on screen")
struct AmendmentTests {
    /// A Pass, then the amendment that corrected it to *Fail – dangerous, Withdraw*.
    static func failedAmendment() -> InspectionValues {
        var values = FormHarness.passValues()
        values.amendmentReason = "The sling was found cut"
        values.result = .failDangerous
        values.checkCuts = false
        values.action = .withdraw
        values.defectDescription = "Sling cut through at the eye"
        values.repairParticulars = "Replace the sling"
        return values
    }

    /// In an open amendment: a reason, the Pass made a Pass with observations, the observation, ticked and saved.
    static func amendToObservations(_ h: FormHarness) {
        h.type("Wrong result entered")
        h.focus(.result)
        h.press(.right)  // Pass → Pass with observations
        h.focus(.defectDescription)
        h.type("Label faded")
        h.focus(.confirmed)
        h.press(.char(" "))
        h.press(.ctrl("s"))
    }

    @Test("the issue's case: amending #1 again after #2 corrected it amends #2, and no change is refused")
    func amendingAgainAmendsTheNewest() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHarness.passValues()])
        try FormHarness.insertRecord(AmendmentTests.failedAmendment(), into: h.register, asset: h.asset,
                                     amending: h.register.inspection(id: 1))
        h.press(.enter)
        h.press(.down)  // #1, the Pass that #2 corrected
        h.press(.char("A"))
        #expect(h.screen[0].contains("Amending record #2 · SL-0042"), "\(h.screen[0])")
        #expect(h.flatScreen.contains("Record #1 was amended already: this amends #2, the newest record of its chain."),
                "\(h.screenText)")
        #expect(h.form?.values.result == .failDangerous)
        #expect(h.form?.values.amendmentReason == "", "the reason is this amendment's own")
        h.focus(.confirmed)
        h.press(.char(" "))
        h.press(.ctrl("s"))
        #expect(h.form != nil, "an amendment that changes nothing is not saved")
        #expect(h.form?.focus == .amendmentReason)
        #expect(h.flatScreen.contains("Give the reason for amending record #2."), "\(h.screenText)")
        #expect(h.flatScreen.contains("Nothing differs from record #2: change what was wrong"), "\(h.screenText)")
        #expect(try h.register.recordCount() == 2)
        #expect(try h.register.asset(uuid: h.asset.uuid)?.status(on: FormHarness.today).status == .withdrawn)

        // A reason alone is not a change.
        h.type("Checked again")
        h.press(.ctrl("s"))
        #expect(h.form != nil)
        #expect(!h.flatScreen.contains("Give the reason"))
        #expect(h.flatScreen.contains("Nothing differs from record #2"))
        #expect(try h.register.recordCount() == 2)
    }

    @Test("the reason shows only when amending: first in the form, focused, and saved with the record")
    func reasonOnlyWhenAmending() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHarness.passValues()])
        h.press(.char("i"))
        #expect(!h.shows("Reason for amendment") && !h.shows("AMENDMENT"))
        h.focus(.inspectionType)
        h.press(.tab)
        #expect(h.form?.focus == .inspectorName)
        // Round the 17 fields, the report particulars a periodic pass has (basis, test, next examination) and the
        // attachments line.
        for _ in 0..<FormField.inspectionFields.count + 4 - 1 { h.press(.tab) }
        #expect(h.form?.focus == .inspectionType, "Tab goes round the 17 fields and the report particulars")
        h.press(.escape)

        h.press(.enter, .char("A"))
        #expect(h.form?.focus == .amendmentReason)
        let reasonRow = try #require(h.harness.line(containing: "Reason for amendment"))
        #expect(reasonRow.y < (h.harness.line(containing: "Inspection type")?.y ?? 0))
        #expect(h.shows("AMENDMENT"))
        #expect(!h.flatScreen.contains("was amended already"), "#1 is the newest of its chain")
        AmendmentTests.amendToObservations(h)
        #expect(h.form == nil, "\(h.screenText)")
        let amendment = try #require(try h.history().first)
        #expect(amendment.id == 2)
        #expect(amendment.amends == 1)
        #expect(amendment.values.amendmentReason == "Wrong result entered")
        #expect(amendment.values.result == .passWithObservations)
    }

    @Test("a form left open while another session amended the same record: the save is refused, and says why")
    func staleFormRefused() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHarness.passValues()])
        h.press(.enter, .char("A"))
        h.type("Wrong result entered")
        h.focus(.notes)
        h.type("Re-examined")
        h.focus(.confirmed)
        h.press(.char(" "))
        // Meanwhile, on another machine's copy synchronised in (or another session): #2 amends #1.
        let original = try #require(try h.register.inspection(id: 1))
        try FormHarness.insertRecord(AmendmentTests.failedAmendment(), into: h.register, asset: h.asset,
                                     amending: original)
        h.press(.ctrl("s"))
        #expect(h.form != nil)
        #expect(h.flatScreen.contains("Not saved: record #1 has already been amended by #2; nothing was saved."),
                "\(h.screenText)")
        #expect(try h.register.recordCount() == 2)
    }
}

/// An amendment's draft: kept, recovered against the right record, and older drafts still understood.
@Suite("Amendments' drafts")
struct AmendmentDraftFlowTests {
    /// Opens an amendment of #1 from the history, gives a reason and a change, and closes keeping the draft.
    static func keepAmendmentDraft(_ h: FormHarness) {
        h.press(.enter)
        h.press(.char("A"))
        h.type("Wrong notes")
        h.focus(.notes)
        h.type("Re-examined")
        h.press(.escape, .char("c"))
        h.press(.escape)  // back to the list
    }

    @Test("the draft names the amended record by uuid and keeps the reason; recovering amends that record")
    func recoverByUUID() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHarness.passValues()])
        AmendmentDraftFlowTests.keepAmendmentDraft(h)
        let draft = try #require(try h.readDraft())
        let original = try #require(try h.register.inspection(id: 1))
        #expect(draft.amends == 1)
        #expect(draft.amendsUUID == original.recordUUID.uuidString.lowercased())
        #expect(draft.values.amendmentReason == "Wrong notes")

        h.press(.char("i"))  // the asset's one draft is the amendment's: recovering it amends #1
        #expect(h.shows("Unsubmitted draft for SL-0042"))
        h.press(.char("r"))
        #expect(h.form?.amending?.recordUUID == original.recordUUID)
        #expect(h.form?.values.amendmentReason == "Wrong notes")
        #expect(h.screen[0].contains("Amending record #1"))
    }

    @Test("a recovered draft whose record was amended meanwhile amends the newest record, and says so")
    func recoverAfterAnotherAmendment() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHarness.passValues()])
        AmendmentDraftFlowTests.keepAmendmentDraft(h)
        try FormHarness.insertRecord(AmendmentTests.failedAmendment(), into: h.register, asset: h.asset,
                                     amending: h.register.inspection(id: 1))
        h.press(.char("i"), .char("r"))
        #expect(h.screen[0].contains("Amending record #2"), "\(h.screen[0])")
        #expect(h.flatScreen.contains("Record #1 was amended already: this amends #2"))
    }

    @Test("a draft written before record uuids (amends by id only) is recovered as the amendment it was")
    func olderDraftRecovered() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHarness.passValues()])
        AmendmentDraftFlowTests.keepAmendmentDraft(h)
        var draft = try #require(try h.readDraft())
        draft.amendsUUID = nil
        try DraftStore(home: h.home).write(draft)
        h.press(.char("i"), .char("r"))
        #expect(h.form?.amends == 1)
        #expect(h.screen[0].contains("Amending record #1"))
    }
}

/// The history and the record view say which record amends which, by ids that are on screen.
@Suite("Amendments in the history and the record view")
struct AmendmentHistoryTests {
    /// #1 a pass; #2 amends it to a dangerous fail.
    static func amended() throws -> FormHarness {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHarness.passValues()])
        try FormHarness.insertRecord(AmendmentTests.failedAmendment(), into: h.register, asset: h.asset,
                                     amending: h.register.inspection(id: 1))
        return h
    }

    @Test("each row shows its id; an amendment says which record it amends, a superseded record by which")
    func historyRows() throws {
        let h = try AmendmentHistoryTests.amended()
        h.press(.enter)
        let header = try #require(h.harness.line(containing: "DATE"))
        #expect(header.text.hasPrefix("  ID  "), "\(header.text)")
        func row(_ id: String) -> (y: Int, text: String)? {
            h.screen.enumerated().first { $0.element.hasPrefix("  \(id)  ") }.map { ($0.offset, $0.element) }
        }
        let amendment = try #require(row("#2"))
        let original = try #require(row("#1"))
        #expect(amendment.y < original.y, "newest first")
        #expect(amendment.text.contains("amends #1"), "\(h.harness.dump)")
        #expect(original.text.contains("amended by #2"), "\(h.harness.dump)")
        #expect(h.frame[2, original.y].style.dim, "a superseded record is dimmed: it no longer counts")
        #expect(!h.frame[2, amendment.y].style.dim)
    }

    @Test("the record view shows the uuid, what the record amends and why, and what superseded it")
    func recordView() throws {
        let h = try AmendmentHistoryTests.amended()
        let original = try #require(try h.register.inspection(id: 1))
        let amendment = try #require(try h.register.inspection(id: 2))
        h.press(.enter, .enter)  // #2, the newest
        let lines = FormHistoryTests.recordLines(h).joined(separator: "\n")
        #expect(lines.contains(amendment.recordUUID.uuidString.lowercased()))
        let originalUUID = original.recordUUID.uuidString.lowercased()
        #expect(lines.contains("Amends record") && lines.contains("#1 · \(originalUUID)"), "\(lines)")
        #expect(lines.contains("Reason for amendment") && lines.contains("The sling was found cut"))
        #expect(!lines.contains("Superseded by"))

        h.press(.escape, .down, .enter)  // #1
        #expect(h.screen[0].contains("Record #1") && h.screen[0].contains("superseded by #2"), "\(h.screen[0])")
        let originalLines = FormHistoryTests.recordLines(h).joined(separator: "\n")
        #expect(originalLines.contains("Superseded by"), "\(originalLines)")
        #expect(originalLines.contains("#2 · \(amendment.recordUUID.uuidString.lowercased())"))
        #expect(!originalLines.contains("Reason for amendment"))
    }
}

/// Hostile testing: saving an amendment said "Saved inspection for …".
extension AmendmentTests {
    @Test("saving an amendment says it saved an amendment, and of which record")
    func theSaveMessageNamesTheAmendment() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHarness.passValues()])
        h.press(.enter, .char("A"))
        AmendmentTests.amendToObservations(h)
        #expect(h.form == nil, "\(h.screenText)")
        #expect(h.flatScreen.contains("Saved an amendment of record #1 for SL-0042"), "\(h.screenText)")
        #expect(!h.flatScreen.contains("Saved inspection"), "\(h.screenText)")
    }
}

/// `A` on a record of an asset that has an unsaved inspection draft (issue found by hostile testing: the box
/// asked about the draft and then opened a new inspection, the amendment forgotten). The box now says what
/// was asked and what the draft is; its answers open the draft or the amendment, or nothing.
@Suite("Amending while an inspection draft waits")
struct AmendOverInspectionDraftTests {
    /// An inspection typed and closed with its draft kept; the list is shown again.
    static func keepInspectionDraft(_ h: FormHarness) {
        h.press(.char("i"))
        h.focus(.notes)
        h.type("Half-way through the inspection")
        h.press(.escape, .char("c"))
        #expect(h.form == nil && h.draftExists, "\(h.screenText)")
    }

    @Test("the box says an inspection draft is there and that A asked to amend; d discards it and amends")
    func discardCarriesOnToAmend() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHarness.passValues()])
        AmendOverInspectionDraftTests.keepInspectionDraft(h)
        h.press(.enter, .char("A"))
        #expect(h.shows("Unsaved inspection draft for SL-0042"), "\(h.screenText)")
        #expect(h.flatScreen.contains("You asked to amend record #1, but SL-0042 has an unsaved inspection draft"),
                "\(h.screenText)")
        #expect(h.flatScreen.contains("[ Resume the draft ]") && h.flatScreen.contains("[ Discard it, amend #1 ]"),
                "\(h.screenText)")
        #expect(h.screen.allSatisfy { $0.displayWidth <= FormHarness.width })
        h.press(.char("d"))
        #expect(h.screen[0].contains("Amending record #1 · SL-0042"), "\(h.screenText)")
        #expect(h.form?.amending?.id == 1)
        #expect(h.form?.values.notes == "", "the amendment starts from #1, not from the discarded draft")
    }

    @Test("r resumes the inspection draft and says how to amend after it; Back opens nothing")
    func resumeKeepsTheDraftAndSaysSo() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHarness.passValues()])
        AmendOverInspectionDraftTests.keepInspectionDraft(h)
        h.press(.enter, .char("A"))
        h.press(.char("b"))
        #expect(h.form == nil && h.draftExists, "\(h.screenText)")
        h.press(.char("A"))
        h.press(.char("r"))
        #expect(h.form?.amending == nil)
        #expect(h.form?.values.notes == "Half-way through the inspection")
        #expect(h.flatScreen.contains("Resumed the inspection draft of SL-0042: save or discard it, then ask again."),
                "\(h.screenText)")
    }
}
