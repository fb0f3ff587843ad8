import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
import RigbookTestSupport
import RigbookUI

/// P on the history list and on a record writes the record's certificate as PDF into Documents/Certificates.
@Suite struct CertificateKeyTests {
    func certificates(_ h: FormHarness) -> [String] {
        let folder = CertificatePrinting.folder(h.harness.home)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func pWritesTheSelectedRecordsCertificateAndAReissueBesideIt() throws {
        let h = try FormHarness(profile: FormTests.profile, records: [FormHarness.passValues()])
        h.press(.enter)           // the history
        h.press(.char("P"))
        let written = certificates(h)
        #expect(written.count == 1 && written[0].hasPrefix("SL-0042-report-") && written[0].hasSuffix(".pdf"),
                "\(written) \(h.screenText)")
        #expect(h.flatScreen.contains("Wrote the certificate:"), "\(h.screenText)")
        let path = CertificatePrinting.folder(h.harness.home) + "/" + written[0]
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try Poppler.run("pdftotext", [], bytes).contains("Report of thorough examination"))
        var status = stat()
        #expect(stat(CertificatePrinting.folder(h.harness.home), &status) == 0 && status.st_mode & 0o077 == 0,
                "the folder is private")

        // On the record itself, P again: a second file beside the first, the same bytes.
        h.press(.enter, .char("P"))
        let both = certificates(h)
        #expect(both.count == 2 && both.contains { $0.hasSuffix("-2.pdf") }, "\(both)")
        let again = Array(try Data(contentsOf: URL(fileURLWithPath: CertificatePrinting.folder(h.harness.home)
                                                   + "/" + both.first { $0.hasSuffix("-2.pdf") }!)))
        #expect(again == bytes, "a reissue is the same file")
    }

    @Test func aPreUseCheckHasNoReportAndSaysSo() throws {
        var check = FormHarness.passValues()
        check.inspectionType = .preUse
        let h = try FormHarness(profile: FormTests.profile, records: [check])
        h.press(.enter, .char("P"))
        #expect(certificates(h).isEmpty)
        #expect(h.flatScreen.contains("only a thorough examination has a report"), "\(h.screenText)")
    }

    @Test func afterABatchPOnTheListWritesItsVisitCertificate() throws {
        let h = try Harness(.assets(BatchFormTests.assets(4)), profile: BatchFormTests.profile)
        h.press(.char("P"))
        #expect(FormHarness.collapse(h.screen.joined(separator: " ")).contains("none was saved in this session"),
                "\(h.dump)")
        let batch = BatchFormTests()
        _ = try batch.openBatch(h, marking: 3)
        batch.cleanPass(h)
        h.press(.ctrl("s"))
        #expect(h.line(containing: "P writes their visit certificate as PDF") != nil, "\(h.dump)")
        h.press(.char("P"))
        let folder = CertificatePrinting.folder(h.home)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        #expect(written.count == 1 && written[0].hasPrefix("visit-"), "\(written) \(h.dump)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + written[0])))
        #expect(try Poppler.info(bytes)["Pages"] == "4", "the cover, then one page for each of the three records")
    }

    @Test func aBatchOverTwoSitesGetsOneVisitCertificateASite() throws {
        let yard = Site(employerUUID: Particulars.mainEmployerUUID, name: "East Yard", address: "Yard Lane, Testport")
        let assets = BatchFormTests.assets(3)
        let h = try Harness(.assets(assets), profile: BatchFormTests.profile, prepare: { register in
            try register.record(.site(yard))
            try register.record(.asset(AssetParticulars(assetUUID: assets[2].uuid, siteUUID: yard.uuid)))
        })
        let batch = BatchFormTests()
        _ = try batch.openBatch(h, marking: 3)
        batch.cleanPass(h)
        h.press(.ctrl("s"))
        h.press(.char("P"))
        let folder = CertificatePrinting.folder(h.home)
        let written = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        #expect(written.count == 2 && written.contains { $0.hasPrefix("visit-East_Yard-") }, "\(written) \(h.dump)")
        #expect(FormHarness.collapse(h.screen.joined(separator: " ")).contains("Wrote 2 certificates, one a site"))
    }
}

