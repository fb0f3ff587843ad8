import Foundation
import Testing
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// Setting up a register in one screen: from the welcome, from Settings and from the inspection form's warning.
@Suite struct SetUpTests {
    func setUp(_ h: Harness) -> SetUpState? { h.state.screens.last as? SetUpState }

    /// Types the employer, the site and the examiner, a self-employed one with an address, over what the
    /// harness's register holds (Ctrl-E Ctrl-U empties a one-line value).
    func fill(_ h: Harness) {
        h.press(.ctrl("g"))
        h.type("emp")
        h.press(.enter)
        for (index, text) in ["Harbour Lifting Ltd", "1 Quay Road", "North Quay", "North Quay, Dock Street, Testport",
                              "Ann Smith", "LEEA-4411"].enumerated() {
            if index > 0 { h.press(.tab) }
            h.press(.ctrl("e"), .ctrl("u"))
            h.type(text)
            if index == 1 {
                h.press(.enter)
                h.type("Testport TP1 1AA")
            }
        }
        h.press(.tab, .char(" "), .tab)
        h.type("2 Mill Lane, Testport")
    }

    @Test func theWelcomeOffersItAndOneScreenSetsTheEmployerSiteAndExaminer() throws {
        let h = try Harness(.empty)
        #expect(h.line(containing: "Press u to set up this register") != nil, "\(h.dump)")
        h.press(.char("u"))
        #expect(h.screen[0].contains("Set up this register"), "\(h.dump)")
        #expect(h.line(containing: "Whom the examinations are made for") != nil, "each field says why: \(h.dump)")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "A site needs a name.") != nil, "\(h.dump)")
        fill(h)
        h.press(.ctrl("s"))
        #expect(setUp(h) == nil, "\(h.dump)")
        #expect(h.line(containing: "Set up: reports will name Harbour Lifting Ltd at North Quay.") != nil)
        let saved = try h.register.particulars()
        let employer = try #require(saved.employers[Particulars.mainEmployerUUID])
        #expect(employer.name == "Harbour Lifting Ltd" && employer.address == "1 Quay Road\nTestport TP1 1AA")
        let site = try #require(saved.sites[Particulars.mainSiteUUID])
        #expect(site.name == "North Quay" && site.address == "North Quay, Dock Street, Testport")
        let examiner = try #require(saved.examinerList.first)
        #expect(examiner.name == "Ann Smith" && examiner.qualification == "LEEA-4411" && examiner.selfEmployed)
        #expect(examiner.address == "2 Mill Lane, Testport")
        #expect(saved.report(assetUUID: UUID(), examinerName: "Ann Smith").missingForReport == nil)
        #expect(Profile.load(from: h.home.profilePath).inspectorName == "Ann Smith", "the form starts with them")
    }

    @Test func itIsSkippableAndSettingsBringsItBack() throws {
        let h = try Harness(.empty)
        h.press(.char("u"))
        h.press(.escape)
        #expect(setUp(h) == nil, "nothing typed: Esc skips at once")
        h.press(.char(","))
        h.press(.char("u"))
        #expect(setUp(h) != nil, "\(h.dump)")
        h.type("Harbour")
        h.press(.escape)
        #expect(h.line(containing: "Leave without saving?") != nil, "what was typed is not dropped unasked")
    }

    @Test func theInspectionFormsWarningOpensItWithF3AndTheFormSavesAfter() throws {
        let asset = makeAsset(tag: "SL-0042", name: "2 t web sling", commissioned: "2026-06-01", intervalMonths: 6)
        // A register whose employer has no address yet.
        let h = try Harness(.assets([asset]), prepare: { register in
            try register.record(.employer(Employer(uuid: Particulars.mainEmployerUUID, name: "Test Quay Ltd")))
        })
        h.press(.char("i"))
        #expect(h.line(containing: "F3 sets up the employer, the site and the") != nil, "\(h.dump)")
        h.press(.function(3))
        #expect(setUp(h) != nil, "\(h.dump)")
        fill(h)
        h.press(.ctrl("s"))
        let form = try #require(h.state.screens.last as? FormState, "back on the form: \(h.dump)")
        #expect(!form.offersSetUp)
        #expect(h.line(containing: "F3 sets up") == nil)
        #expect(!form.problems.contains { $0.message.contains("employer's address") }, "\(form.problems)")
    }

    @Test func twoTerminalsSettingUpKeepEachOthersFieldsAndANewExaminerIsAdded() throws {
        let h = try Harness(.empty, prepare: { register in
            try register.record(.examiner(Examiner(name: "Alan Hughes", qualification: "LEEA-1")))
            try register.record(.site(Site(uuid: Particulars.mainSiteUUID, employerUUID: Particulars.mainEmployerUUID,
                                           name: "Dock Gate", address: "Harbour Road, Testport")))
        })
        let other = try Harness(sharingHomeOf: h)
        h.press(.char("u"))
        other.press(.char("u"))
        h.press(.ctrl("g"))
        h.type("employer's")
        h.press(.enter, .ctrl("e"), .ctrl("u"))
        h.type("ADDRESS FROM A")
        h.press(.ctrl("s"))
        #expect(setUp(h) == nil, "\(h.dump)")
        other.press(.ctrl("g"))
        other.type("site")
        other.press(.enter, .ctrl("e"), .ctrl("u"))
        other.type("North Quay")
        other.press(.ctrl("s"))
        var saved = try h.register.particulars()
        #expect(saved.employers[Particulars.mainEmployerUUID]?.address == "ADDRESS FROM A",
                "the second save did not write back the address it opened with: \(other.dump)")
        #expect(saved.sites[Particulars.mainSiteUUID]?.name == "North Quay")

        // Another name over the examiner offered is another examiner; self-employed needs an address.
        h.press(.char("u"))
        h.press(.ctrl("g"))
        h.type("examiner")
        h.press(.enter, .ctrl("e"), .ctrl("u"))
        h.type("Bea New")
        h.press(.tab, .ctrl("e"), .ctrl("u"))
        h.type("Q-2")
        h.press(.tab, .char(" "))
        h.press(.ctrl("s"))
        #expect(FormHarness.collapse(h.screen.joined(separator: " ")).contains("A self-employed examiner's address"),
                "\(h.dump)")
        #expect(setUp(h)?.focus == .examinerAddress, "the refused save goes to the field to fill")
        h.type("3 Mill Lane")
        h.press(.ctrl("s"))
        saved = try h.register.particulars()
        #expect(Set(saved.examinerList.map(\.name)) == ["Alan Hughes", "Bea New"], "\(saved.examinerList)")
    }

    @Test func sampleDataKeepsWhatWasSetUp() throws {
        let h = try Harness(.empty)
        h.press(.char("u"))
        fill(h)
        h.press(.ctrl("s"))
        #expect(setUp(h) == nil, "\(h.dump)")
        h.press(.char("S"))
        let kept = try h.register.particulars()
        #expect(kept.employers[Particulars.mainEmployerUUID]?.name == "Harbour Lifting Ltd", "\(kept.employerList)")
        #expect(kept.sites[Particulars.mainSiteUUID]?.name == "North Quay")
        #expect(try h.register.assetCount() > 0, "the sample went in beside them")
    }
}

