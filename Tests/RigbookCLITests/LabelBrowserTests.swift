import Foundation
import Testing
import RigbookCore
import RigbookTestSupport

// Labels printed for real: headless Chromium renders the labels page to PNG at a device scale
// factor of 2, zbar's zbarimg decodes every QR code on it, and each must be its asset's payload; the PDF print
// is A4 with the expected count of labels. Then the round trip: a decoded payload, typed into the running
// program in tmux as a scanner types it, makes the list jump to the asset. `.ci/run` installs Debian's
// `chromium`, `zbar-tools` and `poppler-utils`; without them these tests fail and say so.

/// The tools, or a failure naming what is missing.
struct LabelTools {
    let chromium: String
    let zbarimg: String
    let pdfinfo: String
    let pdftotext: String

    static func find() throws -> LabelTools {
        let chromium = program(["chromium", "chromium-browser"]), zbarimg = program(["zbarimg"])
        let pdfinfo = program(["pdfinfo"]), pdftotext = program(["pdftotext"])
        guard let chromium, let zbarimg, let pdfinfo, let pdftotext else {
            throw PrintFailure("cannot check labels: chromium, zbarimg (zbar-tools) and pdfinfo/pdftotext "
                               + "(poppler-utils) are needed. .ci/run installs them; by hand: apt-get install "
                               + "chromium zbar-tools poppler-utils")
        }
        return LabelTools(chromium: chromium, zbarimg: zbarimg, pdfinfo: pdfinfo, pdftotext: pdftotext)
    }

    /// A4 at 96 CSS pixels an inch: 794 × 1123, one sheet a screen.
    func screenshot(_ html: String, png: String, sheets: Int, scratch: TempDir) throws -> String {
        try runChromium(chromium, ["--hide-scrollbars", "--force-device-scale-factor=2",
                                   "--window-size=794,\(1123 * sheets)", "--screenshot=\(png)",
                                   URL(fileURLWithPath: html).absoluteString], output: png, scratch: scratch) { _ in
            // A whole PNG ends with its IEND chunk.
            (try? Data(contentsOf: URL(fileURLWithPath: png)))?.suffix(8).starts(with: Array("IEND".utf8)) == true
        }
    }

    /// Every QR code zbarimg finds in `png`, one payload each, sorted.
    func decode(_ png: String) throws -> [String] {
        let result = try runProcess(zbarimg, ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", png],
                                    environment: ProcessInfo.processInfo.environment, timeout: 120)
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }
}

/// A home with six assets on 2026-11-30 with ordinary and awkward tags, and the quarter colours chosen.
private struct LabelHome {
    let home = CertificateHome()
    static let tags = ["SL-0042", "sh-7", "CB 12/B", "RS-9;X", "仓-1", "WS-0005"]

    init() throws {
        for tag in LabelHome.tags { home.addAsset(tag, "2 t web sling") }
        try home.recordParticulars()
        try home.addRecord("SL-0042", CertificateValues.pass(on: "2026-11-20"))
        let set = home.run(["settings", "set", "organisation.colour_code", "au-quarters"])
        #expect(set.status == 0, "\(set)")
    }

    /// Each tag's payload, as `rigbook history --format json` gives its due date.
    func payloads() -> [String] {
        LabelHome.tags.map { tag in
            let listing = home.run(["asset", "list", "--format", "json"]).stdout
            let assets = e2eJSONArray(listing)
            let due = assets.first { string($0, "tag") == tag }.flatMap { string($0, "next_due") }
            return LabelPayload(tag: tag, due: due.flatMap(CalendarDate.init(iso:))).text
        }.sorted()
    }
}

extension RigbookCLITests {
    @Suite("Labels in a browser", .serialized) struct LabelsInBrowser {
        @Test("every QR code on both layouts and sheets decodes to its asset's payload", arguments: [
            ("card", "2x7"), ("due", "2x4"),
        ])
        func everyCodeDecodes(layout: String, sheet: String) throws {
            let tools = try LabelTools.find()
            let setUp = try LabelHome()
            let home = setUp.home
            defer { home.remove() }
            let html = home.sub("labels.html"), png = home.sub("labels.png")
            let result = home.run(["labels"] + LabelHome.tags + ["--layout", layout, "--sheet", sheet, "--out", html])
            #expect(result.status == 0, "\(result)")
            let sheets = sheet == "2x7" ? 1 : 1 + (LabelHome.tags.count - 1) / 8
            let scratch = TempDir("rigbook-chromium")
            defer { scratch.remove() }
            let log = try tools.screenshot(html, png: png, sheets: sheets, scratch: scratch)
            let decoded = try tools.decode(png)
            #expect(decoded == setUp.payloads(), "chromium:\n\(log.suffix(2000))")
            #expect(decoded.allSatisfy { $0.hasPrefix("/RB1:") && !$0.contains(";") })
        }

        @Test("the PDF print is A4, two sheets for 15 labels of 2x7, every label on it")
        func pdfCount() throws {
            let tools = try LabelTools.find()
            let home = CertificateHome()
            defer { home.remove() }
            let tags = (1...15).map { String(format: "SL-%04d", $0) }
            for tag in tags { home.addAsset(tag, "2 t web sling") }
            let html = home.sub("labels.html"), pdf = home.sub("labels.pdf")
            #expect(home.run(["labels"] + tags + ["--out", html]).status == 0)
            let scratch = TempDir("rigbook-chromium")
            defer { scratch.remove() }
            let log = try runChromium(tools.chromium, ["--no-pdf-header-footer", "--print-to-pdf=\(pdf)",
                                                       URL(fileURLWithPath: html).absoluteString],
                                      output: pdf, scratch: scratch) { environment in
                (try? runProcess(tools.pdfinfo, [pdf], environment: environment, timeout: 60))?.status == 0
            }
            let environment = ProcessInfo.processInfo.environment
            let info = try runProcess(tools.pdfinfo, [pdf], environment: environment, timeout: 60)
            let pages = info.stdout.firstMatch(of: /Pages:\s+(\d+)/).flatMap { Int($0.output.1) }
            let size = info.stdout.firstMatch(of: /Page size:\s+([\d.]+) x ([\d.]+) pts/)
            #expect(pages == 2, "\(info.stdout)\n\(log.suffix(2000))")
            let width = size.flatMap { Double($0.output.1) } ?? 0, height = size.flatMap { Double($0.output.2) } ?? 0
            #expect(abs(width - 595) <= 1 && abs(height - 842) <= 1, "page size \(width) x \(height)")
            for (page, expected) in [(1, Array(tags.prefix(14))), (2, Array(tags.suffix(1)))] {
                let text = try runProcess(tools.pdftotext, ["-f", "\(page)", "-l", "\(page)", pdf, "-"],
                                          environment: environment, timeout: 60).stdout
                let found = tags.filter { text.contains($0) }
                #expect(found == expected, "page \(page): \(found)")
            }
        }

        @Test("round trip: label → PNG → zbarimg → payload → scanned into the list, which jumps to the asset")
        func roundTrip() throws {
            let tools = try LabelTools.find()
            let env = try E2EHome()
            defer { env.finish() }
            // An asset from the middle of the register, away from where the list starts.
            let tag = try env.tag(at: 17)
            let html = env.dir.sub("label.html"), png = env.dir.sub("label.png")
            let printed = runRigbookResult(["labels", tag, "--layout", "due", "--out", html], home: env.home)
            #expect(printed.status == 0, "\(printed)")
            let scratch = TempDir("rigbook-chromium")
            defer { scratch.remove() }
            _ = try tools.screenshot(html, png: png, sheets: 1, scratch: scratch)
            let decoded = try tools.decode(png)
            let payload = try #require(decoded.first, "zbarimg found no QR code")
            #expect(decoded.count == 1)
            guard case .payload(let read) = LabelPayload.read(payload) else {
                Issue.record("not a payload: \(payload)")
                return
            }
            #expect(read.tag == tag)

            let pane = try env.launch("scan")
            let list = try pane.waitForList()
            #expect(!e2eLines(list).dropFirst(3).first!.hasPrefix(tag), "the asset is already selected")
            // As a scanner types: the payload's characters, then Enter, with no prompt opened first.
            try pane.tmux.sendLiteral(payload)
            try pane.tmux.sendKeys("Enter")
            let jumped = try pane.tmux.waitFor("the list to select \(tag)", escapes: true) { screen in
                let rows = reverseVideoRows(screen)
                let plain = screen.replacing(/\u{1B}\[[0-9;]*m/, with: "")
                let lines = e2eLines(plain)
                return rows.contains { $0 < lines.count && lines[$0].hasPrefix(tag) }
                    && lines.contains { $0.hasPrefix("\(tag) · ") }
            }
            #expect(!jumped.contains("RETIRED"), "a key of the scan acted on the list")
            // And with the scan prompt: # first, as a scanner set to send # before each scan does.
            try pane.tmux.sendKeys("End")
            try pane.tmux.sendKeys("#")
            try pane.tmux.waitFor(text: "# scan: ")
            try pane.tmux.sendLiteral(payload)
            try pane.tmux.sendKeys("Enter")
            try pane.tmux.waitFor("the list to select \(tag) again", escapes: true) { screen in
                let plain = screen.replacing(/\u{1B}\[[0-9;]*m/, with: "")
                let lines = e2eLines(plain)
                return reverseVideoRows(screen).contains { $0 < lines.count && lines[$0].hasPrefix(tag) }
                    && !plain.contains("# scan: ")
            }
        }
    }
}

extension RigbookCLITests {
    /// `labels --format pdf`: the sheets drawn by Rigbook itself at the stationery's geometry, read back at 300 dpi.
    @Suite("Labels as PDF") struct LabelsAsPDF {
        @Test("every QR code decodes to its asset's payload at 300 dpi, on A4, every font embedded", arguments: [
            ("card", "2x7"), ("due", "2x4"), ("danger", "2x7"), ("danger", "2x4"),
        ])
        func everyCodeDecodes(layout: String, sheet: String) throws {
            let labels = try LabelHome()
            defer { labels.home.remove() }
            let path = labels.home.sub("labels.pdf")
            let result = labels.home.run(["labels"] + LabelHome.tags + ["--layout", layout, "--sheet", sheet,
                                                                          "--out", path])
            #expect(result.status == 0, "\(result)")
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let info = try Poppler.info(bytes)
            #expect(info["Page size"] == "595.276 x 841.89 pts (A4)" && info["Pages"] == "1", "\(info)")
            #expect(try Poppler.fonts(bytes).allSatisfy(\.embeddedSubset))
            let png = labels.home.sub("page")
            let render = try runProcess("/usr/bin/pdftoppm", ["-r", "300", "-png", "-singlefile", path, png],
                                        environment: ProcessInfo.processInfo.environment, timeout: 120)
            #expect(render.status == 0, "\(render)")
            let decoded = try runProcess("/usr/bin/zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable",
                                                              png + ".png"],
                                         environment: ProcessInfo.processInfo.environment, timeout: 120)
            #expect(decoded.stdout.split(separator: "\n").map(String.init).sorted() == labels.payloads(),
                    "\(decoded)")
        }
    }
}

