import Foundation
import Testing
import RigbookCore

// Certificates printed by a real browser: headless Chromium prints the HTML to PDF, poppler's
// pdfinfo reads the page size and count, pdftotext the text. `.ci/run` installs Debian's `chromium` and
// `poppler-utils`; without them these tests fail and say so, rather than pass having checked nothing.

/// The tools, or a failed test naming what is missing and how to get it.
private struct PrintTools {
    let chromium: String
    let pdfinfo: String
    let pdftotext: String

    static func find() throws -> PrintTools {
        let chromium = program(["chromium", "chromium-browser"])
        let pdfinfo = program(["pdfinfo"]), pdftotext = program(["pdftotext"])
        guard let chromium, let pdfinfo, let pdftotext else {
            let missing = [chromium == nil ? "chromium (Debian package chromium)" : nil,
                           pdfinfo == nil || pdftotext == nil ? "pdfinfo and pdftotext (Debian package poppler-utils)"
                               : nil].compactMap { $0 }
            throw PrintFailure("cannot print certificates in a browser: \(missing.joined(separator: " and ")) "
                               + "not on PATH. .ci/run installs them; by hand: apt-get install chromium poppler-utils")
        }
        return PrintTools(chromium: chromium, pdfinfo: pdfinfo, pdftotext: pdftotext)
    }
}

/// What pdfinfo says of a PDF.
private struct PDFFacts {
    var pages: Int
    var width: Double
    var height: Double

    var isA4: Bool { abs(width - 595) <= 1 && abs(height - 842) <= 1 }

    /// `Pages: 4` and `Page size: 594.96 x 841.92 pts (A4)`.
    init?(_ info: String) {
        guard let pages = info.firstMatch(of: /Pages:\s+(\d+)/).flatMap({ Int($0.output.1) }),
              let size = info.firstMatch(of: /Page size:\s+([\d.]+) x ([\d.]+) pts/),
              let width = Double(size.output.1), let height = Double(size.output.2) else { return nil }
        self.pages = pages
        self.width = width
        self.height = height
    }
}

/// Prints `html` to `pdf` with headless Chromium (`runChromium`): done once pdfinfo reads the whole file.
/// Returns Chromium's log, for failure messages.
private func printToPDF(_ tools: PrintTools, html: String, pdf: String, scratch: TempDir) throws -> String {
    try runChromium(tools.chromium, ["--no-pdf-header-footer", "--print-to-pdf=\(pdf)",
                                     URL(fileURLWithPath: html).absoluteString],
                    output: pdf, scratch: scratch) { environment in
        (try? runProcess(tools.pdfinfo, [pdf], environment: environment, timeout: 60))?.status == 0
    }
}

/// Text with every run of white space made one space: a heading wrapped over lines reads whole. The text is
/// read with `pdftotext -raw`, in the order Chromium drew it (a cell's lines together): the default layout
/// analysis interleaves the lines of a heading with those of the value beside it.
private func flattened(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}

/// Each Schedule 1 item as the page shows it: its number, then its heading.
private let numberedHeadings = Certificate.items.map { "\($0.number) \($0.heading)" }

extension RigbookCLITests {
    @Suite("Certificates in a browser", .serialized) struct CertificateInBrowser {
        @Test("one record prints on one A4 page carrying every Schedule 1 item with its number")
        func oneRecord() throws {
            let tools = try PrintTools.find()
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let html = home.sub("rem-1.html"), pdf = home.sub("rem-1.pdf")
            let result = home.run(["certificate", "#\(ids.remedy)", "--out", html])
            #expect(result.status == 0, "\(result)")
            let scratch = TempDir("rigbook-chromium")
            defer { scratch.remove() }
            let log = try printToPDF(tools, html: html, pdf: pdf, scratch: scratch)
            let info = try runProcess(tools.pdfinfo, [pdf], environment: ProcessInfo.processInfo.environment,
                                      timeout: 60)
            let facts = try #require(PDFFacts(info.stdout), "pdfinfo: \(info)\nchromium:\n\(log.suffix(3000))")
            #expect(facts.isA4, "page size \(facts.width) x \(facts.height) pts")
            #expect(facts.pages == 1)
            let text = try runProcess(tools.pdftotext, ["-raw", pdf, "-"],
                                      environment: ProcessInfo.processInfo.environment, timeout: 60)
            #expect(text.status == 0, "\(text)")
            let flat = flattened(text.stdout)
            for heading in numberedHeadings { #expect(flat.contains(heading), "missing: \(heading)") }
            #expect(flat.contains("Stitching cut at the label"))
            #expect(flat.contains(try #require(try home.record(ids.remedy).reportNumber)))
        }

        @Test("a visit of three prints a cover and one A4 page a record, defects first, each with every item")
        func visit() throws {
            let tools = try PrintTools.find()
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let html = home.sub("visit.html"), pdf = home.sub("visit.pdf")
            let result = home.run(["certificate", "--site", "Main site", "--from", "2026-11-01", "--to", "2026-11-30",
                                   "--out", html])
            #expect(result.status == 0, "\(result)")
            let scratch = TempDir("rigbook-chromium")
            defer { scratch.remove() }
            let log = try printToPDF(tools, html: html, pdf: pdf, scratch: scratch)
            let environment = ProcessInfo.processInfo.environment
            let info = try runProcess(tools.pdfinfo, [pdf], environment: environment, timeout: 60)
            let facts = try #require(PDFFacts(info.stdout), "pdfinfo: \(info)\nchromium:\n\(log.suffix(3000))")
            #expect(facts.isA4, "page size \(facts.width) x \(facts.height) pts")
            #expect(facts.pages == 4, "the cover, then one page for each of the three records")
            let order = try [ids.fail, ids.remedy, ids.pass].map { try #require(try home.record($0).reportNumber) }
            for page in 1...max(1, facts.pages) {
                let text = try runProcess(tools.pdftotext, ["-raw", "-f", "\(page)", "-l", "\(page)", pdf, "-"],
                                          environment: environment, timeout: 60)
                let flat = flattened(text.stdout)
                if page == 1 {
                    #expect(flat.contains("Schedule of thorough examinations"))
                    continue
                }
                for heading in numberedHeadings { #expect(flat.contains(heading), "page \(page) lacks: \(heading)") }
                if page - 2 < order.count { #expect(flat.contains(order[page - 2]), "page \(page)") }
            }
        }
    }
}
