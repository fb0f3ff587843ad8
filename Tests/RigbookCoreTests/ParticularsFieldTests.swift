import Foundation
import Testing
@testable import RigbookCore

/// Particulars read and written one field at a time (the Settings editor, `rigbook settings`), and the
/// names that must stay distinct.
@Suite struct ParticularsFieldTests {
    private let acme = Employer(name: "ACME Lifting", address: "1 Quay Road")
    private var particulars: Particulars {
        var p = Particulars.initial
        p.apply(.employer(acme))
        p.apply(.site(Site(employerUUID: acme.uuid, name: "Depot")))
        p.apply(.examiner(Examiner(name: "Ann Smith")))
        return p
    }

    @Test func everyFieldOfEveryKindReadsBackWhatWasSet() {
        let changes: [ParticularsChange] = [.organisation(ExaminingOrganisation()), .employer(Employer(name: "")),
                                            .site(Site(employerUUID: UUID(), name: "")), .examiner(Examiner(name: "")),
                                            .asset(AssetParticulars(assetUUID: UUID()))]
        for change in changes {
            for field in change.fields {
                let value = field.isText ? "Line 1\nLine 2" : field == .selfEmployed ? "yes"
                    : field == .colourCode ? "au-quarters" : UUID().uuidString
                #expect(change.setting(field, to: value)[field] == value, "\(change.kind).\(field.rawValue)")
            }
            #expect(change.setting(.lessor, to: "x") == change || change.kind == "asset",
                    "a field the kind does not have changes nothing")
        }
        let site = ParticularsChange.site(Site(employerUUID: acme.uuid, name: "S"))
        #expect(site.setting(.employer, to: "not a uuid") == site)
    }

    @Test func trimmedTrimsEveryTextButKeepsInnerLineBreaks() {
        let change = ParticularsChange.employer(Employer(name: "  ACME \n", address: "\n 1 Quay Road\nPortsmouth \n"))
        #expect(change.trimmed[.name] == "ACME")
        #expect(change.trimmed[.address] == "1 Quay Road\nPortsmouth")
    }

    @Test(arguments: [
        (ParticularsChange.employer(Employer(name: " acme LIFTING ")), ParticularField.name, "Another employer"),
        (.examiner(Examiner(name: "ANN SMITH")), .name, "Another examiner"),
        (.employer(Employer(name: "")), .name, "needs a name"),
        (.employer(Employer(name: "X", address: String(repeating: "a", count: 1001))), .address, "longer than 1000"),
        (.employer(Employer(name: "X\u{7}")), .name, "control characters"),
        (.examiner(Examiner(name: "X", qualification: "Q\nQ")), .qualification, "control characters"),
        (.asset(AssetParticulars(assetUUID: UUID(), declarationDate: "2026-13-01")), .declarationDate, "YYYY-MM-DD"),
        (.asset(AssetParticulars(assetUUID: UUID(), siteUUID: UUID())), .site, "site is not in the register"),
        (.site(Site(employerUUID: UUID(), name: "S")), .employer, "employer is not in the register"),
    ] as [(ParticularsChange, ParticularField, String)])
    func problemsNameTheirField(_ change: ParticularsChange, _ field: ParticularField, _ mentions: String) {
        let problems = change.fieldProblems(in: particulars)
        #expect(problems.contains { $0.field == field && $0.message.contains(mentions) }, "\(problems)")
        #expect(change.problems(in: particulars) == problems.map(\.message))
    }

    @Test func sitesMayShareANameAcrossEmployersButNotWithinOne() throws {
        let p = particulars
        #expect(ParticularsChange.site(Site(employerUUID: Particulars.mainEmployerUUID, name: "depot"))
            .problems(in: p).isEmpty, "another employer's Depot")
        #expect(ParticularsChange.site(Site(employerUUID: acme.uuid, name: " DEPOT")).problems(in: p)
            == ["ACME Lifting already has a site named DEPOT."])
        // Saving a particular under its own name again is no collision.
        let depot = try #require(p.siteList.first { $0.name == "Depot" })
        #expect(ParticularsChange.site(depot).problems(in: p).isEmpty)
        #expect(ParticularsChange.employer(acme).problems(in: p).isEmpty)
    }
}
