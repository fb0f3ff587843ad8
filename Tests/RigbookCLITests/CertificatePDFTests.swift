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

        @Test func anElectricalItemsTestCertificateSaysItIsHTMLSoFar() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let result = home.run(["asset", "add", "--kind", "electrical", "--tag", "EL-1", "--name", "Drill",
                                   "--class", "class-1", "--environment", "factory"])
            #expect(result.status == 0, "\(result)")
            let refused = home.run(["certificate", "EL-1", "--out", home.sub("el.pdf")])
            #expect(refused.status == 64 && refused.stderr.contains("prints as HTML"), "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: home.sub("el.pdf")))
        }
    }
}
