import Foundation
import Testing
import RigbookCore

// Electrical items' labels and test certificates printed for real: headless Chromium renders
// the test tags and DANGER tags to PNG, zbarimg decodes every QR code, pdftotext finds the words of the PDF print
// and pdfinfo counts its A4 pages; the test certificate prints on one A4 page with its fields and readings.

extension RigbookCLITests {
    @Suite("Electrical labels and certificates in a browser", .serialized) struct ElectricalInBrowser {
        /// Each tag's payload, its due date as `asset list --format json` gives it.
        static func payloads(_ home: CertificateHome, _ tags: [String]) -> [String] {
            let assets = e2eJSONArray(home.run(["asset", "list", "--format", "json"]).stdout)
            return tags.map { tag in
                let due = assets.first { string($0, "tag") == tag }.flatMap { string($0, "next_due") }
                return LabelPayload(tag: tag, due: due.flatMap(CalendarDate.init(iso:))).text
            }.sorted()
        }

        static func pdf(_ tools: LabelTools, html: String, pdf: String) throws -> (pages: Int, text: String,
                                                                                     info: String) {
            let scratch = TempDir("rigbook-chromium")
            defer { scratch.remove() }
            let log = try runChromium(tools.chromium, ["--no-pdf-header-footer", "--print-to-pdf=\(pdf)",
                                                       URL(fileURLWithPath: html).absoluteString],
                                      output: pdf, scratch: scratch) { environment in
                (try? runProcess(tools.pdfinfo, [pdf], environment: environment, timeout: 60))?.status == 0
            }
            let environment = ProcessInfo.processInfo.environment
            let info = try runProcess(tools.pdfinfo, [pdf], environment: environment, timeout: 60).stdout
            let pages = info.firstMatch(of: /Pages:\s+(\d+)/).flatMap { Int($0.output.1) } ?? 0
            let size = info.firstMatch(of: /Page size:\s+([\d.]+) x ([\d.]+) pts/)
            let width = size.flatMap { Double($0.output.1) } ?? 0, height = size.flatMap { Double($0.output.2) } ?? 0
            #expect(abs(width - 595) <= 1 && abs(height - 842) <= 1, "not A4: \(info)\n\(log.suffix(1000))")
            let text = try runProcess(tools.pdftotext, ["-raw", pdf, "-"], environment: environment, timeout: 60).stdout
            return (pages, text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "), info)
        }

        @Test("test tags and DANGER tags: every QR decodes to its payload, the PDF is A4 with the words", arguments: [
            "2x7", "2x4",
        ])
        func tags(sheet: String) throws {
            let tools = try LabelTools.find()
            let home = CertificateHome(); defer { home.remove() }
            _ = try ElectricalRegister.make(home)
            // Nine labels: more than one 2x4 sheet.
            let tags = ["TT-PASS", "TT-FAIL", "TT-OVER", "TT-RCD", "PASS-1", "REM-1", "FAIL-1", "PRE-1"]
            home.addElectrical("TT-KETTLE", "Kettle", class: "class-2", environment: "health-care")
            let all = tags + ["TT-KETTLE"]
            let html = home.sub("labels.html"), png = home.sub("labels.png")
            let result = home.run(["labels"] + all + ["--sheet", sheet, "--out", html])
            #expect(result.status == 0, "\(result)")
            let sheets = sheet == "2x7" ? 1 : 2
            let scratch = TempDir("rigbook-chromium")
            defer { scratch.remove() }
            let log = try tools.screenshot(html, png: png, sheets: sheets, scratch: scratch)
            let decoded = try tools.decode(png)
            #expect(decoded == Self.payloads(home, all), "chromium:\n\(log.suffix(2000))")
            #expect(decoded.contains { $0.hasPrefix("/RB1:TT-PASS:2027") }, "the DUE segment holds the retest date")

            let printed = try Self.pdf(tools, html: html, pdf: home.sub("labels.pdf"))
            #expect(printed.pages == sheets, "\(printed.info)")
            let text = printed.text
            for words in ["RETEST DATE", "20 FEB 2027", "Tested 2026-11-20 by Ana Reyes", "Lic. EL-204518",
                          "TT-PASS · Class I", "DANGER — DO NOT USE", "Failed test 2026-11-21", "Polarity",
                          "Tagged by Ana Reyes", "NOT TESTED", "Test Quay Ltd", "TT-KETTLE · Class II"] {
                #expect(text.contains(words), "\(words) not in the PDF: \(text.prefix(3000))")
            }
            #expect(!text.contains("0 kg") && !text.contains("WLL 0"))
        }

        @Test("a test certificate prints on one A4 page with the 16 fields, the readings, the result and the licence")
        func certificate() throws {
            let tools = try LabelTools.find()
            let home = CertificateHome(); defer { home.remove() }
            let ids = try ElectricalRegister.make(home)
            let html = home.sub("test.html")
            #expect(home.run(["certificate", "--test", String(ids.fail), "--out", html]).status == 0)
            let printed = try Self.pdf(tools, html: html, pdf: home.sub("test.pdf"))
            #expect(printed.pages == 1, "\(printed.info)")
            let text = printed.text
            for field in TestCertificate.fields {
                #expect(text.contains("\(field.number) \(field.label)"), "field \(field.number) not in: \(text)")
            }
            for words in ["Electrical test certificate", "AS/NZS 3760", "FAIL", "DANGER — DO NOT USE",
                          "Readings against their limits", "Earth continuity (Ω) 0.3 Ω ≤ 1 Ω Pass",
                          "Polarity Fail correct Fail", "Ana Reyes", "EL-204518", "Seaward PrimeTest 250+",
                          "Polarity reversed at the socket end", "Test Quay Ltd", "rigbook verify"] {
                #expect(text.contains(words), "\(words) not in the PDF: \(text)")
            }
        }
    }
}
