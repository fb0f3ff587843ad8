import Foundation
import Testing
import RigbookCore
import RigbookTestSupport

extension RigbookCLITests {
    /// `certificate … --format pdf`: the record's report of thorough examination drawn as PDF, read back with
    /// poppler: every Schedule 1 item, A4, fonts embedded, the record's own dates, the same bytes when reissued.
    @Suite("Certificates: PDF") struct CertificatePDF {
        func pdf(_ home: CertificateHome, _ arguments: [String], name: String,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
            let path = home.sub(name)
            let result = home.run(["certificate"] + arguments + ["--out", path])
            #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        }

        @Test func everyScheduleOneItemOnAnA4PageWithItsFontsEmbedded() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let bytes = try pdf(home, ["REM-1"], name: "rem.pdf")
            let info = try Poppler.info(bytes)
            #expect(info["Page size"] == "595.276 x 841.89 pts (A4)", "\(info)")
            #expect(info["Pages"] == "1", "an ordinary record fits one page")
            #expect(info["Title"]?.hasPrefix("Report of thorough examination") == true)
            let record = try home.record(ids.remedy)
            #expect(info["Author"] == record.values.inspectorName)
            #expect(info["CreationDate"]?.contains(String(record.savedAt.prefix(4))) == true, "\(info)")
            let fonts = try Poppler.fonts(bytes)
            #expect(!fonts.isEmpty && fonts.allSatisfy(\.embeddedSubset), "\(fonts)")
            // pdftotext without -layout keeps each label's words in reading order.
            let text = try Poppler.run("pdftotext", [], bytes).split(whereSeparator: \.isWhitespace)
                .joined(separator: " ")
            for item in Certificate.items {
                #expect(text.contains("\(item.number) " + item.heading.split(separator: " ").prefix(4)
                    .joined(separator: " ")), "item \(item.number) missing")
            }
            for expected in [try #require(record.reportNumber), "REM-1", "Stitching cut at the label",
                             "page 1 of 1", try #require(record.recordHash)] {
                #expect(text.contains(expected), "\(expected) missing from: \(text)")
            }
        }

        @Test func aReissueIsTheSameFileAfterOtherSavesAndAPipeTakesIt() throws {
            let home = CertificateHome()
            defer { home.remove() }
            _ = try VisitRegister.make(home)
            let first = try pdf(home, ["PASS-1", "--format", "pdf"], name: "first.pdf")
            home.addAsset("LATER-1", "2 t chain sling", type: "chain-sling")
            try home.addRecord("LATER-1", CertificateValues.pass(on: "2026-11-25"))
            let again = try pdf(home, ["PASS-1"], name: "again.pdf")
            #expect(first == again, "the same record, the same bytes")
            let piped = home.run(["certificate", "PASS-1", "--format", "pdf", "--out", "-"])
            #expect(piped.status == 0 && piped.stdout.hasPrefix("%PDF-"), "\(piped.status) \(piped.stderr)")
        }

        @Test func aVisitIsItsCoverThenAPageARecord() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let bytes = try pdf(home, ["--site", "Main site", "--from", "2026-11-20", "--to", "2026-11-21",
                                       "--format", "pdf"], name: "visit.pdf")
            let pages = try #require(Int(try Poppler.info(bytes)["Pages"] ?? ""))
            #expect(pages == 4, "the cover and one page for each of the three thorough examinations")
            let cover = try Poppler.run("pdftotext", ["-l", "1"], bytes)
            #expect(cover.contains("Schedule of thorough examinations") && cover.contains("FAIL-1"), "\(cover)")
            for id in [ids.pass, ids.remedy, ids.fail] {
                let number = try #require(try home.record(id).reportNumber)
                #expect(try Poppler.run("pdftotext", [], bytes).contains(number))
            }
            let again = try pdf(home, ["--site", "Main site", "--from", "2026-11-20", "--to", "2026-11-21"],
                                name: "again.pdf")
            #expect(again == bytes, "an --out name ending .pdf is a PDF; the same visit, the same bytes")
        }

        @Test func anElectricalItemsTestCertificateHoldsEveryFieldAndReading() throws {
            let home = CertificateHome()
            defer { home.remove() }
            home.addElectrical("EL-1", "Drill charger")
            try home.addTest("EL-1", ElectricalTests.classI("2026-11-28", earth: "0.4"))
            let bytes = try pdf(home, ["EL-1"], name: "el.pdf")
            let text = try Poppler.run("pdftotext", [], bytes).split(whereSeparator: \.isWhitespace)
                .joined(separator: " ")
            #expect(text.contains("Electrical test certificate") && text.contains("PASS"), "\(text)")
            for field in TestCertificate.fields {
                #expect(text.contains("\(field.number) \(field.label)"), "field \(field.number) missing: \(text)")
            }
            #expect(text.contains("Readings against their limits") && text.contains("0.4 Ω"), "\(text)")
        }
    }
}
