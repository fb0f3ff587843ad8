import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookUI
@testable import RigbookApp
import RigbookStore
import RigbookCore

/// The form's section "Report particulars (LOLER Schedule 1)", the examiner's authentication and reg 10's
/// questions at the save of a defect.
@Suite("Report particulars on the form")
struct ReportParticularsFormTests {
    static let profile = Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1")

    /// A form with a dangerous fail filled in, ready to save but for the repair particulars.
    private func dangerousFail() throws -> FormHarness {
        let h = try FormHarness(profile: ReportParticularsFormTests.profile)
        h.press(.char("i"))
        h.focus(.result)
        h.press(.left) // Fail – dangerous
        h.focus(.defectDescription)
        h.type("Hook latch missing")
        h.focus(.action)
        h.press(.left) // Withdraw
        return h
    }

    /// The dangerous fail with its repair, confirmed and Ctrl-S pressed: reg 10's questions are open.
    private func dangerousFailAtReg10() throws -> FormHarness {
        let h = try dangerousFail()
        h.focus(.repairParticulars)
        h.type("Fit a new latch")
        h.focus(.confirmed)
        h.press(.char(" "))
        h.press(.ctrl("s"))
        return h
    }

    @Test("the section shows only what applies: a pass, a defect, a defect to remedy, after installation, a check")
    func fieldsShownWhereTheyApply() throws {
        let h = try FormHarness(profile: ReportParticularsFormTests.profile)
        h.press(.char("i"))
        func shown() -> [FormField] { FormField.reportFields.filter { h.form?.fields.contains($0) == true } }
        #expect(shown() == [.examinationBasis, .testParticulars, .nextExaminationBy])
        h.focus(.result)
        h.press(.left) // Fail – dangerous
        #expect(shown() == [.examinationBasis, .testParticulars, .repairParticulars, .nextExaminationBy])
        h.press(.left) // Defect to be remedied
        #expect(shown() == [.examinationBasis, .testParticulars, .repairParticulars, .remedyParticulars,
                            .nextExaminationBy])
        h.focus(.inspectionType)
        h.press(.left) // after installation
        #expect(h.form?.values.inspectionType == .thoroughAfterInstallation)
        #expect(shown().contains(.installedCorrectly))
        h.press(.left, .left, .left) // pre-use check: not a report of thorough examination
        #expect(h.form?.values.inspectionType == .preUse)
        #expect(shown().isEmpty)
        h.focus(.confirmed)
        #expect(!h.shows("REPORT PARTICULARS"))
        #expect(h.shows("I confirm this record is accurate"), "a check is confirmed, not authenticated")
    }

    @Test("basis and next examination are prefilled from the type and the interval, and follow them")
    func prefilledAndFollowing() throws {
        let h = try FormHarness(profile: ReportParticularsFormTests.profile)
        h.press(.char("i"))
        h.focus(.confirmed)
        #expect(h.shows("‹ Within 6 months (from the type) ›"), "SL-0042 is examined every 6 months")
        #expect(h.shows("2027-05-30 (interval)"))
        h.focus(.inspectionDate)
        h.press(.ctrl("u"))
        h.type("2026-11-01")
        h.focus(.confirmed)
        #expect(h.shows("2027-05-01 (interval)"), "the interval's date follows the inspection date")
        // The basis offers only what fits the type: a periodic examination is within 6 or 12 months.
        h.focus(.examinationBasis)
        h.press(.enter)
        #expect(h.form?.popup?.options.map(\.label) == ["Within 6 months", "Within 12 months"])
        h.press(.escape)
        // Brought forward: accepted; put off past the interval: refused, saying the latest date.
        h.focus(.nextExaminationBy)
        h.type("2027-06-01")
        #expect(h.flatScreen.contains("never put off: the 6-month interval makes 2027-05-01 the latest"),
                "\(h.screenText)")
        h.press(.ctrl("u"))
        h.type("2027-03-01")
        #expect(h.form?.problems.contains { $0.field == .nextExaminationBy } == false)
    }

    @Test("the confirmation names the examiner; the record's next examination becomes the asset's due date")
    func authenticatedAndDue() throws {
        let h = try FormHarness(profile: ReportParticularsFormTests.profile)
        h.press(.char("i"))
        h.fillCompletePass()
        #expect(h.shows("[x] I, Ann Smith, authenticate this report"))
        h.focus(.testParticulars)
        h.type("Proof load 2.5 t (1.25 × WLL), cert. PL-77")
        h.focus(.nextExaminationBy)
        h.type("2027-02-28")
        h.press(.ctrl("s"))
        #expect(h.form == nil, "a pass is saved at once: no reg 10 questions")
        let record = try #require(try h.history().first)
        #expect(record.values.nextExaminationBy == "2027-02-28")
        #expect(record.values.testParticulars == "Proof load 2.5 t (1.25 × WLL), cert. PL-77")
        #expect(record.particulars?.employer.name == "Test Quay Ltd")
        #expect(record.particulars?.examiner?.name == "Ann Smith", "a new examiner is added at save")
        #expect(try h.register.particulars().examiner(named: "Ann Smith")?.qualification == "LEEA-1")
        let row = try #require(h.screen.first { $0.contains("SL-0042") })
        #expect(row.contains("2027-02-28"), "the examiner's date is the due date: \(row)")
    }

    @Test("F4 picks one of the register's examiners: name and certificate number")
    func pickAnExaminer() throws {
        let h = try FormHarness(profile: ReportParticularsFormTests.profile)
        try h.register.record(.examiner(Examiner(name: "Priya Natarajan", qualification: "LEEA-118870")))
        try h.register.record(.examiner(Examiner(name: "Tom Okafor", qualification: "IMechE-5521")))
        h.press(.char("i"))
        h.focus(.inspectorName)
        h.press(.function(4))
        let popup = try #require(h.form?.popup)
        #expect(popup.options.map(\.label) == ["Priya Natarajan · LEEA-118870", "Tom Okafor · IMechE-5521"])
        h.press(.down, .enter)
        #expect(h.form?.values.inspectorName == "Tom Okafor")
        #expect(h.form?.values.certificationNumber == "IMechE-5521")
        #expect(h.form?.focus == .inspectorName)
        h.press(.end)
        h.type(" Jr")
        #expect(h.form?.values.inspectorName == "Tom Okafor Jr", "the field edits what was picked")
    }

    @Test("a defect asks reg 10's questions before saving; Esc goes back with nothing saved")
    func defectAsksRegulation10() throws {
        let h = try dangerousFailAtReg10()
        #expect(h.form?.noticeDialog != nil)
        #expect(h.flatScreen.contains("Who at Test Quay Ltd was told"), "\(h.screenText)")
        #expect(try h.register.recordCount() == 0)
        h.press(.escape)
        #expect(h.form?.noticeDialog == nil)
        #expect(h.shows("Not saved: the record waits for reg 10's answers"))
        #expect(try h.register.recordCount() == 0)

        // Nobody named: refused, with the reason.
        h.press(.ctrl("s"))
        h.press(.ctrl("s"))
        #expect(h.flatScreen.contains("Say who at Test Quay Ltd was told of the defect."), "\(h.screenText)")
        h.type("Dock foreman")
        h.press(.tab)
        #expect(h.form?.noticeDialog?.focus == .toldOn)
        h.press(.ctrl("u"))
        h.type("2026-12-01")
        h.press(.tab, .char(" "))   // a serious risk
        #expect(h.form?.noticeDialog?.seriousRisk == true)
        #expect(h.flatScreen.contains("Copy to the enforcing authority on"))
        h.press(.ctrl("s"))
        #expect(h.flatScreen.contains("2026-12-01 is in the future."), "\(h.screenText)")
        #expect(h.form?.noticeDialog?.focus == .toldOn)
        h.press(.ctrl("u"))
        h.type("2026-11-30")
        h.press(.ctrl("s"))   // the authority's copy left empty: not yet sent
        #expect(h.form == nil)
        let record = try #require(try h.history().first)
        let notices = try h.register.notices(recordUUID: record.recordUUID)
        #expect(notices.map(\.duty) == [.employerTold, .enforcingAuthority, .reportToEmployer])
        #expect(notices[0].recipient == "Dock foreman" && notices[0].seriousRisk == true)
        #expect(notices[1].doneOn == nil, "not yet sent")
        #expect(try h.register.openNotices().map(\.notice.duty) == [.enforcingAuthority, .reportToEmployer])
    }

    @Test("an amendment keeping the defect and its danger keeps reg 10's answers; a changed defect asks, prefilled")
    func amendmentsKeepTheNoticesGiven() throws {
        let h = try dangerousFailAtReg10()
        h.type("Dock foreman")
        h.press(.ctrl("s"))
        #expect(h.form == nil, "\(h.screenText)")

        // The repair's wording corrected: the defect told of is the same, nothing is asked.
        h.press(.enter, .char("A"))
        #expect(h.form?.amending != nil, "\(h.screenText)")
        h.type("Part number added")
        h.focus(.repairParticulars)
        h.press(.end)
        h.type(" (part 7731)")
        h.focus(.confirmed)
        h.press(.char(" "))
        h.press(.ctrl("s"))
        #expect(h.form == nil, "no reg 10 questions for the same defect: \(h.screenText)")
        let amendment = try #require(try h.history().first)
        #expect(amendment.values.repairParticulars == "Fit a new latch (part 7731)")
        let kept = try h.register.notices(recordUUID: amendment.recordUUID)
        #expect(kept.first?.duty == .employerTold && kept.first?.recipient == "Dock foreman", "\(kept)")
        #expect(kept.first?.doneOn == FormHarness.today)
        // The amended record's own open duty (the report to the employer) is the amendment's now, listed once.
        let open = try h.register.openNotices()
        #expect(open.allSatisfy { $0.record.recordUUID == amendment.recordUUID }, "\(open.map(\.record.id))")

        // The defect itself changes: the questions come back, answered as the amended record's notices say.
        h.press(.escape, .enter, .char("A"))
        h.type("Second defect found")
        h.focus(.defectDescription)
        h.press(.end)
        h.type("; hook throat stretched")
        h.focus(.confirmed)
        h.press(.char(" "))
        h.press(.ctrl("s"))
        let dialog = try #require(h.form?.noticeDialog, "\(h.screenText)")
        #expect(dialog.answers.contact == "Dock foreman")
        #expect(dialog.answers.toldOn == FormHarness.today.iso)
    }

    @Test("reg 10's answers are in the draft: Esc back keeps them, and a session killed in the dialog loses none")
    func answersAreKeptWithTheDraft() throws {
        let h = try dangerousFailAtReg10()
        h.type("Dock foreman")
        h.press(.tab, .tab, .char(" "))   // told today; a serious risk
        h.press(.escape)
        h.press(.ctrl("s"))
        #expect(h.form?.noticeDialog?.answers.contact == "Dock foreman", "Esc back kept what was typed")
        #expect(h.form?.noticeDialog?.seriousRisk == true)
        h.type(" Bo")  // no time passes: only the journal has these
        let id = DraftIdentity.draftID(assetUUID: h.asset.uuid)
        h.session.releaseLock(id)
        let later = try FormHarness(sharingHomeOf: h)
        later.press(.char("i"))
        later.press(.char("r"))
        #expect(later.form?.noticeAnswers?.contact == "Dock foreman Bo", "\(later.harness.dump)")
        later.focus(.confirmed)
        later.press(.char(" "))
        later.press(.ctrl("s"))
        #expect(later.form?.noticeDialog?.answers
                == DefectNoticeAnswers(contact: "Dock foreman Bo", toldOn: "2026-11-30", seriousRisk: true),
                "\(later.harness.dump)")
    }

    @Test("keys typed ahead with the Ctrl-S cannot answer the reg 10 questions")
    func burstCannotAnswer() throws {
        let h = try dangerousFail()
        h.focus(.repairParticulars)
        h.type("Fit a new latch")
        h.focus(.confirmed)
        h.press(.char(" "))
        h.harness.burst([.ctrl("s")] + Key.typing("x") + [.ctrl("s")])
        #expect(h.form?.noticeDialog != nil)
        #expect(try h.register.recordCount() == 0)
    }

    @Test("the section and the reg 10 box fit at 80×24 and at 40×12 without losing a question", arguments: [
        (80, 24), (40, 12),
    ])
    func smallTerminals(size: (Int, Int)) throws {
        let h = try dangerousFail()
        h.harness.resize(width: size.0, height: size.1)
        h.focus(.repairParticulars)
        h.type("Fit a new latch")
        h.focus(.confirmed)
        h.press(.char(" "))
        h.press(.ctrl("s"))
        #expect(h.form?.noticeDialog != nil)
        #expect(h.flatScreen.contains("Reg 10 notice"))
        h.type("Dock foreman")
        #expect(h.flatScreen.contains("Dock foreman"), "\(h.screenText)")
        h.press(.ctrl("s"))
        #expect(h.form == nil)
    }
}

/// Hostile testing: the reg 10 box's "When" dropped the letters of `today` without a word.
extension ReportParticularsFormTests {
    @Test("the reg 10 box's dates take today and counted dates, as the form's date fields do")
    func regulation10DatesTakeRelativeDates() throws {
        let h = try dangerousFailAtReg10()
        h.type("Dock foreman")
        h.press(.tab, .ctrl("u"))
        h.type("+99999d")
        h.press(.ctrl("s"))
        #expect(h.flatScreen.contains("“+99999d” is out of range"), "\(h.screenText)")
        #expect(h.form?.noticeDialog?.focus == .toldOn)
        h.press(.ctrl("u"))
        h.type("today")
        #expect(h.form?.noticeDialog?.answers.toldOn == "today", "the letters of today are taken")
        h.press(.tab)
        #expect(h.form?.noticeDialog?.answers.toldOn == "2026-11-30", "written out as the field is left")
        h.press(.ctrl("s"))
        #expect(h.form == nil, "\(h.screenText)")
        let record = try #require(try h.history().first)
        let told = try h.register.notices(recordUUID: record.recordUUID).first { $0.duty == .employerTold }
        #expect(told?.doneOn?.iso == "2026-11-30")
    }
}
