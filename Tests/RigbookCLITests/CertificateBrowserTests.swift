import Foundation
import Testing
import RigbookCore

// Certificates printed by a real browser (issue 12 §7): headless Chromium prints the HTML to PDF, poppler's
// pdfinfo reads the page size and count, pdftotext the text. `.ci/run` installs Debian's `chromium` and
// `poppler-utils`; without them these tests fail and say so, rather than pass having checked nothing.

/// A program on PATH, the first of `names` found.
private func program(_ names: [String]) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for name in names {
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
    }
    return nil
}

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

/// Why a certificate could not be printed; thrown, it fails the test with this sentence.
private struct PrintFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
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

/// Prints `html` to `pdf` with headless Chromium in its own process group, with a private profile, home and
/// cache in `scratch`. Polls rather than sleeps: done when Chromium exits, or, should it linger after
/// writing, once pdfinfo reads the whole file. Generous deadlines for a busy 2-core machine. Returns
/// Chromium's log, for failure messages.
private func printToPDF(_ tools: PrintTools, html: String, pdf: String, scratch: TempDir) throws -> String {
    let log = scratch.sub("chromium.log")
    let arguments = ["--headless", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                     "--no-default-browser-check", "--disable-extensions", "--user-data-dir=\(scratch.sub("profile"))",
                     "--no-pdf-header-footer", "--print-to-pdf=\(pdf)", URL(fileURLWithPath: html).absoluteString]
    var environment = ProcessInfo.processInfo.environment
    for (key, folder) in [("HOME", "home"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"),
                          ("TMPDIR", "tmp")] {
        environment[key] = scratch.sub(folder)
        try FileManager.default.createDirectory(atPath: scratch.sub(folder), withIntermediateDirectories: true)
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    for fd in ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap(Int32.init)
        where fd > 2 {
        posix_spawn_file_actions_addclose(&actions, fd)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A group of its own, so its helper processes (zygote, renderer) go with it if it must be stopped.
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    let argv: [UnsafeMutablePointer<CChar>?] = ([tools.chromium] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, tools.chromium, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
        throw PrintFailure("cannot start \(tools.chromium): \(String(cString: strerror(spawned)))")
    }

    var status: Int32 = 0
    var exited = false
    let deadline = Date().addingTimeInterval(240)
    var printedAt: Date?
    var lastSize = -1
    while Date() < deadline {
        let done = waitpid(pid, &status, WNOHANG)
        if done == pid || (done < 0 && errno != EINTR) { exited = true; break }
        let size = (try? FileManager.default.attributesOfItem(atPath: pdf)[.size] as? Int) ?? -1
        if printedAt == nil, size > 0, size == lastSize,
           let info = try? runProcess(tools.pdfinfo, [pdf], environment: environment, timeout: 60),
           info.status == 0 {
            printedAt = Date()
        }
        lastSize = size
        // Printed, and still running well after: stop waiting for it to leave by itself.
        if let printedAt, Date().timeIntervalSince(printedAt) > 20 { break }
        usleep(200_000) // poll interval; the deadline above bounds the wait
    }
    // Its group: Chromium itself if it lingers, and any helper it left behind.
    kill(-pid, SIGKILL)
    if !exited { _ = waitpid(pid, &status, 0) }
    return readFile(log) ?? ""
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
