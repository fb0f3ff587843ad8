import Foundation
import RigbookApp
import RigbookCore
import RigbookPDF
import RigbookStore

/// PDF drawn by Rigbook itself (cairo and pango), beside headless Chromium printing the same certificate's HTML
/// in the same run: one record's certificate, and a visit's of up to 300 records.
enum PDFBench {
    static func run(today: CalendarDate) throws {
        let home = DataHome(root: temporaryHome("pdf"))
        defer { try? FileManager.default.removeItem(atPath: home.root) }
        try FileManager.default.createDirectory(atPath: home.root, withIntermediateDirectories: true)
        let register = try Register.open(path: home.registerPath)
        try SampleData(count: 2_000, seed: 42, today: today).load(into: register)
        let records = try register.thoroughExaminations(atSite: Particulars.mainSiteUUID,
                                                        from: CalendarDate(iso: "1970-01-01")!, through: today)
        guard let first = records.first else { return progress("bench: no thorough examination to print") }

        var one = Samples(), bytes = 0
        for _ in 0..<31 {
            try one.time {
                bytes = try PDFRenderer.render(Certificate.document(try register.certificateEntry(for: first))).count
            }
        }
        let entries = try records.prefix(300).map { try register.certificateEntry(for: $0) }
        let visit = Certificate.Visit(site: try register.particulars().sites[Particulars.mainSiteUUID]!, employer: nil,
                                      from: CalendarDate(iso: "1970-01-01")!, through: today)
        var visitSamples = Samples(), visitBytes = 0
        for _ in 0..<3 {
            try visitSamples.time {
                let pdf = try PDFRenderer.render(Certificate.visitDocument(visit, entries: entries))
                visitBytes = pdf.count
            }
        }
        let rows = Array(try register.rows().prefix(1_000))
        let particulars = try register.particulars()
        var sheetSamples = Samples(), sheetBytes = 0
        for _ in 0..<3 {
            try sheetSamples.time {
                sheetBytes = try LabelPrinting.pdf(rows, register: register, particulars: particulars, today: today,
                                                   layout: nil, sheet: .small).count
            }
        }
        let html = Certificate.render(try register.certificateEntry(for: first))
        let chromium = chromiumPrint(html, home: home)

        print("## PDF drawn by Rigbook (cairo and pango), beside Chromium printing the same HTML")
        print("")
        print("| figure | Rigbook median / p99 | target | Chromium, same certificate |")
        print("|---|---|---|---|")
        let target = one.median < 50 ? "median < 50 ms ✓" : "median < 50 ms ✗"
        print("| one record's certificate (read, lay out, draw; \(bytes / 1024) KB) | \(format(one.median)) / "
              + "\(format(one.p99)) | \(target) | \(chromium) |")
        print("| a visit's certificate, \(entries.count) records (\(visitBytes / 1024) KB) | "
              + "\(format(visitSamples.median)) / \(format(visitSamples.p99)) | — | — |")
        print("| \(rows.count) labels on 2×7 sheets, vector QR codes (\(sheetBytes / 1024) KB) | "
              + "\(format(sheetSamples.median)) / \(format(sheetSamples.p99)) | — | — |")
        print("")
        print("Samples: one certificate 31, the visit and the labels 3; Chromium once (its start-up included, as a "
              + "person pays it).")
        print("")
        try reportAt(100_000, today: today)
    }

    /// `rigbook report --format pdf` on a register of `assets`, run as a person runs it (its own process: the
    /// time and the peak memory are the command's), beside Chromium printing the same report's HTML page.
    static func reportAt(_ assets: Int, today: CalendarDate) throws {
        let home = DataHome(root: temporaryHome("report-pdf"))
        defer { try? FileManager.default.removeItem(atPath: home.root) }
        try FileManager.default.createDirectory(atPath: home.root, withIntermediateDirectories: true)
        progress("bench: a register of \(assets) assets for the report")
        try SampleData(count: assets, seed: 42, today: today).load(into: try Register.open(path: home.registerPath))
        let rigbook = (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/rigbook"
        // Beside the data home: its own folders take only Rigbook's files.
        let out = temporaryHome("report-out")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let pdf = out + "/report.pdf", page = out + "/report.html"
        let environment = ["RIGBOOK_HOME=\(home.root)", "RIGBOOK_TODAY=\(today.iso)"]
        let measured = timed(environment + [rigbook, "report", "--out", pdf])
        _ = try? timed(environment + [rigbook, "report", "--out", page]).get()
        let html = (try? String(contentsOfFile: page, encoding: .utf8)) ?? ""
        let pages = PDFBench.pages(pdf)
        let chromium = html.isEmpty ? "— (no HTML page)" : chromiumPrint(html, home: home)
        print("| figure | Rigbook | target | Chromium, same report's HTML |")
        print("|---|---|---|---|")
        let figures: (seconds: Double, peakMB: Double)
        switch measured {
        case .success(let measured): figures = measured
        case .failure(let failure):
            print("| report at \(assets.formatted()) assets as PDF | — (\(failure.reason)) | < 60 s, < 200 MB ✗ | "
                  + "\(chromium) |")
            return
        }
        let met = figures.seconds < 60 && figures.peakMB < 200
        print("| report at \(assets.formatted()) assets as PDF, page by page (\(pages) pages) | "
              + "\(String(format: "%.1f", figures.seconds)) s, peak \(Int(figures.peakMB)) MB | "
              + "< 60 s, < 200 MB \(met ? "✓" : "✗") | \(chromium) |")
        print("")
    }

    /// The pages of the PDF at `path` as pdfinfo counts them, or "?".
    static func pages(_ path: String) -> String {
        output(of: ["pdfinfo", path], quiet: true).split(separator: "\n")
            .first { $0.hasPrefix("Pages:") }.map { $0.split(separator: " ").last.map(String.init) ?? "?" } ?? "?"
    }

    /// Why a timed command gave no figures.
    struct Failure: Error {
        let reason: String
    }

    /// A command's wall time and peak resident memory, as GNU time measures them, or what it said on failing.
    static func timed(_ command: [String]) -> Result<(seconds: Double, peakMB: Double), Failure> {
        let folder = temporaryHome("time"), report = folder + "/time.txt", errors = folder + "/stderr.txt"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // GNU time's figures to a file of their own; the command's complaints to another.
        process.arguments = ["-c", "f=$1; e=$2; shift 2; exec /usr/bin/time -f '%e %M' -o \"$f\" /usr/bin/env \"$@\" "
                             + "2>\"$e\"", "sh", report, errors] + command
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return .failure(Failure(reason: "\(error)")) }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = try? String(contentsOfFile: report, encoding: .utf8) else {
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            return .failure(Failure(reason: "exit \(process.terminationStatus): "
                                    + said.split(separator: "\n").prefix(2).joined(separator: " ")))
        }
        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard fields.count >= 2 else { return .failure(Failure(reason: "no figures from time")) }
        return .success((fields[fields.count - 2], fields[fields.count - 1] / 1024))
    }

    /// Headless Chromium printing `html` to PDF, timed once, or why it could not.
    static func chromiumPrint(_ html: String, home: DataHome) -> String {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return "— (no chromium)" }
        let page = home.root + "/certificate.html", pdf = home.root + "/certificate.pdf"
        guard (try? html.write(toFile: page, atomically: true, encoding: .utf8)) != nil else { return "— (no file)" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                             "--user-data-dir=\(home.root)/chromium", "--print-to-pdf=\(pdf)", "file://\(page)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = now()
        do { try process.run() } catch { return "— (\(error))" }
        // A browser that hangs is given 60 s.
        while process.isRunning && now() - start < 60 { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            return "— (no answer in 60 s)"
        }
        return FileManager.default.fileExists(atPath: pdf) ? format((now() - start) * 1000) : "— (no PDF written)"
    }
}
