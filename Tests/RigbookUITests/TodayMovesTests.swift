import Foundation
import Synchronization
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// The status rules' parts on screen: today moves at midnight; a form on an asset out of use says so;
/// the *If saved* preview never promises a status the gate would refuse.
@Suite struct TodayMovesTests {
    @Test func aSessionOpenPastMidnightWorksEveryStatusOutAgain() throws {
        // SL-1 was examined on 2026-05-30 every 6 months: due 2026-11-30, so OK today and OVERDUE tomorrow.
        let day = Mutex(harnessToday)
        let asset = makeAsset(tag: "SL-1", name: "sling", commissioned: "2026-05-30", intervalMonths: 6)
        let h = try Harness(.assets([asset]), calendar: { day.withLock { $0 } })
        #expect(h.shownRows.first?.status == .dueSoon, "\(h.dump)")
        day.withLock { $0 = CalendarDate(iso: "2026-12-01")! }
        h.advance(1)
        #expect(h.shownRows.first?.status == .overdue, "\(h.dump)")
        #expect(h.state.today.iso == "2026-12-01")
        #expect(h.line(containing: "It is 2026-12-01 now") != nil, "\(h.dump)")
        // A form opened now is dated today.
        h.press(.char("i"))
        #expect(h.state.form?.values.inspectionDate == "2026-12-01")
    }

    @Test func theFormWarnsOnAWithdrawnAsset() throws {
        var withdrawn = FormHarness.passValues()
        withdrawn.result = .failDangerous
        withdrawn.checkCuts = false
        withdrawn.defectDescription = "Webbing cut through"
        withdrawn.repairParticulars = "Replace the sling"
        withdrawn.action = .withdraw
        let h = try FormHarness(profile: PasteTests.profile, records: [withdrawn])
        h.press(.char("i"))
        #expect(h.flatScreen.contains("This asset is WITHDRAWN. Only a thorough examination brings it back into use"),
                "\(h.screenText)")
    }

    @Test func thePreviewShowsNoStatusForADateTheGateRefuses() throws {
        let h = try FormHarness(profile: PasteTests.profile)
        h.press(.char("i"))
        h.fillCompletePass()
        h.advance(0.3)
        #expect(h.shows("If saved: status OK"), "\(h.screenText)")
        h.focus(.inspectionDate)
        for _ in 0..<10 { h.press(.backspace) }
        h.type("2027-01-01")
        h.advance(0.31) // past the quiet period (0.3 s after the last key, in floating point)
        #expect(!h.shows("If saved: status"), "a future date is refused by the gate:\n\(h.screenText)")
        #expect(h.shows("If saved: — not until the dates and choices marked ⚠ are accepted."), "\(h.screenText)")
    }
}

/// Assets already in a register with an interval LOLER reg 9(3) does not allow are flagged, not refused.
@Suite struct LongIntervalFlagTests {
    @Test func theListAndTheHistoryFlagAnIntervalLongerThanLOLERAllows() throws {
        // The register does not refuse such an asset (an older register may hold one); the list marks it.
        let long = makeAsset(tag: "SL-9", name: "old sling", intervalMonths: 12)
        let fine = makeAsset(tag: "SL-1", name: "new sling", intervalMonths: 6)
        let h = try Harness(.assets([long, fine]))
        let row = try #require(h.line(containing: "SL-9"))
        #expect(row.text.hasPrefix("SL-9!"), "\(h.dump)")
        #expect(h.line(containing: "SL-1")?.text.hasPrefix("SL-1 ") == true)
        #expect(h.line(containing: "! 1 interval over LOLER 9(3)") != nil, "\(h.dump)")
        h.press(.char("/"))
        h.type("SL-9")
        h.press(.enter, .enter)
        #expect(h.line(containing: "LOLER regulation 9(3)") != nil, "\(h.dump)")
    }
}
