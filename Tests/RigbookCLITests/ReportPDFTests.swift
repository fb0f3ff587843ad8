import Foundation
import Testing
import RigbookCore
import RigbookTestSupport

extension RigbookCLITests {
    /// `report --format pdf`: the register report drawn page by page from the same document as its HTML page, read
    /// back with poppler.
    @Suite("Report: PDF") struct ReportPDF {
        static let today = ["RIGBOOK_TODAY": "2026-11-30"]

        static func sampleHome() -> CertificateHome {
            let home = CertificateHome()
            let sample = home.run(["sample", "--assets", "200", "--seed", "42"], env: today)
            #expect(sample.status == 0, "\(sample)")
            return home
        }

        static func pdf(_ home: CertificateHome, _ arguments: [String] = [], name: String = "report.pdf",
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
            let path = home.sub(name)
            let result = home.run(["report", "--out", path] + arguments, env: today)
            #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        }

        @Test func theSampleRegistersReportFitsTwelveA4PagesEachSayingOfHowMany() throws {
            let home = Self.sampleHome()
            defer { home.remove() }
            let bytes = try Self.pdf(home)
            let info = try Poppler.info(bytes)
            let pages = try #require(Int(info["Pages"] ?? ""))
            #expect(pages <= 12, "\(pages) pages")
            #expect(info["Page size"] == "595.276 x 841.89 pts (A4)")
            #expect(info["Title"] == "Lifting equipment register — 2026-11-30")
            let fonts = try Poppler.fonts(bytes)
            #expect(!fonts.isEmpty && fonts.allSatisfy(\.embeddedSubset), "\(fonts)")
            for page in 1...pages {
                let text = try Poppler.run("pdftotext", ["-f", "\(page)", "-l", "\(page)"], bytes)
                #expect(text.contains("page \(page) of \(pages)"), "page \(page)")
                #expect(text.contains("status as of 2026-11-30"), "the footer on page \(page)")
            }
            let text = try Poppler.run("pdftotext", [], bytes)
            for section in ["Summary", "Falling due in the next 12 weeks", "Needs attention",
                            "Reports of thorough examination: what was found", "Electrical tests: what failed",
                            "仓库 2"] {
                #expect(text.contains(section), "\(section) missing")
            }
        }

        @Test func theHTMLPageAndThePDFListTheSameAssetsInTheSameOrder() throws {
            let home = Self.sampleHome()
            defer { home.remove() }
            let html = home.run(["report"], env: Self.today).stdout
            let attention = try #require(html.components(separatedBy: "<section id=\"attention\">").last?
                .components(separatedBy: "</section>").first)
            let tags = attention.matches(of: /<tr><td><\/td><td>([^<]+)<\/td>/).map { String($0.output.1) }
            #expect(tags.count > 20)
            let text = try Poppler.run("pdftotext", ["-layout"], try Self.pdf(home))
            var position = text.startIndex
            for tag in tags {
                let found = text.range(of: tag, range: position..<text.endIndex)
                #expect(found != nil, "\(tag) missing or out of order")
                if let found { position = found.upperBound }
            }
        }

        @Test func theWholeBookRepeatsEachTablesHeaderOnEveryPageItRunsOnto() throws {
            let home = Self.sampleHome()
            defer { home.remove() }
            let bytes = try Self.pdf(home, ["--all-particulars", "--site", "Alexandra Dock"], name: "book.pdf")
            let pages = try #require(Int(try Poppler.info(bytes)["Pages"] ?? ""))
            #expect(pages > 2)
            let text = try Poppler.run("pdftotext", [], bytes).split(whereSeparator: \.isWhitespace)
                .joined(separator: " ")
            #expect(text.contains("Site: Alexandra Dock") && text.contains("Register by location")
                    && text.contains("Person making the report"))
            // Every page that carries a register row carries the header row above it.
            for page in 1...pages {
                let onPage = try Poppler.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", "-layout"], bytes)
                if onPage.contains("Last thorough examination") || !onPage.contains(" OK ") { continue }
                Issue.record("page \(page) has register rows without their header: \(onPage)")
            }
        }

        @Test func aPDFGoesToAPipeNeverToATerminalAndAFormatItsNameContradictsIsRefused() throws {
            let home = Self.sampleHome()
            defer { home.remove() }
            let piped = home.run(["report", "--format", "pdf", "--out", "-"], env: Self.today)
            #expect(piped.status == 0 && piped.stdout.hasPrefix("%PDF-"), "\(piped.status) \(piped.stderr)")
            let contradicted = home.run(["report", "--format", "pdf", "--out", home.sub("report.html")])
            #expect(contradicted.status == 64 && contradicted.stderr.contains("disagree"), "\(contradicted)")
            #expect(!FileManager.default.fileExists(atPath: home.sub("report.html")))
            let labels = home.run(["labels", "--site", "Alexandra Dock", "--format", "html", "--out", home.sub("l.pdf")])
            #expect(labels.status == 64, "\(labels)")
            // A full disk: a clear failure, and the file already there is left as it was.
            let full = home.run(["report", "--format", "pdf", "--out", "/dev/full"], env: Self.today)
            #expect(full.status == 1 && full.stderr.contains("No space left on device"), "\(full)")
            let kept = home.sub("kept.pdf")
            try Data("an earlier report".utf8).write(to: URL(fileURLWithPath: kept))
            let unreadable = home.run(["report", "--out", kept, "--as-of", "not-a-date"])
            #expect(unreadable.status == 64)
            #expect(try String(contentsOfFile: kept, encoding: .utf8) == "an earlier report")
        }
    }
}
