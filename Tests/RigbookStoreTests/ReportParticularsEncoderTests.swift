import Foundation
import Testing
import RigbookCore
@testable import RigbookStore

/// A batch save encodes each record's particulars with `ReportParticularsEncoder`, which keeps the text of
/// the parts the records share: the text must be what `ParticularsJSON.encode` writes, byte for byte.
@Suite struct ReportParticularsEncoderTests {
    static func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }

    static let base = ReportParticulars(
        employer: Employer(uuid: uuid(900), name: "Test Quay Ltd", address: "Quay Office\nHarbour Road\nTestport"),
        site: Site(uuid: uuid(901), employerUUID: uuid(900), name: "North Quay", address: "Harbour Road, Testport"),
        organisation: ExaminingOrganisation(name: "Test Examinations Ltd", address: "1 Test Street, Testby"),
        examiner: Examiner(uuid: uuid(902), name: "Jo Examiner", qualification: "LEEA-1"),
        asset: AssetParticulars(assetUUID: uuid(1), siteUUID: uuid(901), lessor: "Hire Co",
                                swlConfigurations: "2 legs at 45°: 2.8 t"),
        previousThoroughExamination: "2026-05-20")

    static let variants: [ReportParticulars] = {
        var noExaminer = base
        noExaminer.examiner = nil
        var noPrevious = base
        noPrevious.previousThoroughExamination = nil
        var awkward = base
        awkward.employer.name = "Quote \" backslash \\ slash / tab \t 仓库 \u{1F3D7}"
        awkward.site.address = "Line 1\nLine 2\r\n\u{0}end"
        awkward.asset.lessor = ""
        var otherAsset = base
        otherAsset.asset = AssetParticulars(assetUUID: UUID(), siteUUID: base.site.uuid)
        otherAsset.previousThoroughExamination = "2025-01-31"
        return [base, noExaminer, noPrevious, awkward, otherAsset]
    }()

    @Test func givesTheTextParticularsJSONGives() throws {
        let encoder = ReportParticularsEncoder()
        // Twice over, so the second round comes from the kept parts.
        for particulars in ReportParticularsEncoderTests.variants + ReportParticularsEncoderTests.variants {
            #expect(try encoder.encode(particulars) == ParticularsJSON.encode(particulars))
        }
    }

    @Test func readsBackAsTheSameParticulars() throws {
        for particulars in ReportParticularsEncoderTests.variants {
            let text = try ReportParticularsEncoder().encode(particulars)
            #expect(ParticularsJSON.decode(ReportParticulars.self, from: text) == particulars)
        }
    }
}
