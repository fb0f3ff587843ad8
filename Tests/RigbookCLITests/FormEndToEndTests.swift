import Foundation
import RigbookTestSupport
import Testing

// End-to-end tests of the inspection form in a real terminal: the built `rigbook` runs in
// tmux, keys go in through `send-keys`, and the outcome is read back from the screen and from the
// binary's own `history` / `asset list` output. The helpers below (prefixed `e2e` / `E2E`) are shared
// with DraftEndToEndTests.swift.

// MARK: - Shared helpers

/// Single-quotes a word for sh.
func e2eShellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// The screen's lines.
func e2eLines(_ screen: String) -> [String] {
    screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// The first line (the title bar).
func e2eTitle(_ screen: String) -> String { e2eLines(screen).first ?? "" }

/// The register list's row for `tag` (the line starting with it), trailing blanks trimmed.
func e2eRow(_ screen: String, tag: String) -> String? {
    e2eLines(screen).dropFirst(3).first { $0.hasPrefix(tag) }.map { line in
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}

/// The draft mark column: the character right after the tag in the list row.
func e2eRowHasDraftMark(_ screen: String, tag: String) -> Bool {
    guard let row = e2eRow(screen, tag: tag) else { return false }
    return row.dropFirst(tag.count).hasPrefix("✎")
}

/// A JSON object from a file, nil when the file is missing or not a JSON object.
func e2eJSONObject(atPath path: String) -> [String: Any]? {
    guard let data = FileManager.default.contents(atPath: path),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
    return object
}

/// A JSON array of objects from command output (fails the test when it is not one).
func e2eJSONArray(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
    guard let data = text.data(using: .utf8),
          let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
        Issue.record("not a JSON array of objects: \(text.prefix(600))", sourceLocation: sourceLocation)
        return []
    }
    return array
}

/// `YYYY-MM-DD` plus whole months, clamped to the month's end (31 Aug + 6 months = 28/29 Feb).
func e2eAddMonths(_ iso: String, _ months: Int) -> String? {
    let parts = iso.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3 else { return nil }
    let total = parts[0] * 12 + (parts[1] - 1) + months
    let year = total / 12, month = total % 12 + 1
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return String(format: "%04d-%02d-%02d", year, month, min(parts[2], lengths[month - 1]))
}

/// One test's data home (a temporary folder with a sample register) and the terminals opened on it.
/// `finish()` kills every tmux server it started, any rigbook it started that is still alive, and the folder.
final class E2EHome {
    let dir = TempDir("rigbook-e2e")
    let home: String
    private(set) var panes: [E2EPane] = []

    /// A home holding `rigbook sample --assets N` (N = 30 unless told).
    init(sampleAssets: Int = 30, sourceLocation: SourceLocation = #_sourceLocation) throws {
        home = dir.sub("home")
        let made = runRigbookResult(["sample", "--assets", "\(sampleAssets)"], home: home)
        try #require(made.status == 0, "rigbook sample failed: \(made)", sourceLocation: sourceLocation)
    }

    var draftsFolder: String { home + "/Documents/Drafts" }
    var corruptFolder: String { draftsFolder + "/Corrupt" }
    func draftID(uuid: String) -> String { "inspection-\(uuid)" }
    func draftPath(uuid: String) -> String { draftsFolder + "/" + draftID(uuid: uuid) + ".json" }

    /// `rigbook asset list --format json`.
    func assets(sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
        listAssets(home: home, sourceLocation: sourceLocation)
    }

    /// The asset with this tag in `asset list --format json`.
    func asset(_ tag: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(assets(sourceLocation: sourceLocation).first { string($0, "tag") == tag },
                     "no asset \(tag) in the register", sourceLocation: sourceLocation)
    }

    /// An asset's internal UUID (lowercase, as draft ids use it).
    func uuid(of tag: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let uuid = try #require(string(try asset(tag, sourceLocation: sourceLocation), "uuid"),
                                "asset \(tag) has no uuid", sourceLocation: sourceLocation)
        return uuid.lowercased()
    }

    /// The lifting equipment of `assets()`, what the inspection form and a batch take: a fifth of a sample's
    /// assets are electrical items, tested on a form of their own.
    func liftingAssets(sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
        assets(sourceLocation: sourceLocation).filter { string($0, "kind") != "electrical" }
    }

    /// The tag of the lifting asset at `index` in tag order. (The sample is the same for the same seed, count
    /// and day, but the tests do not depend on which tags it makes.)
    func tag(at index: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let all = liftingAssets(sourceLocation: sourceLocation)
        try #require(index < all.count, "the register has only \(all.count) assets", sourceLocation: sourceLocation)
        return try #require(string(all[index], "tag"), sourceLocation: sourceLocation)
    }

    /// The first lifting asset in tag order with this status word.
    func firstAsset(status: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(liftingAssets(sourceLocation: sourceLocation).first { string($0, "status") == status },
                     "the sample register has no asset with status \(status)", sourceLocation: sourceLocation)
    }

    /// Starts `rigbook --home HOME` in a new tmux server of its own (80×24 unless told), through a
    /// wrapper that records its pid and exit status.
    @discardableResult
    func launch(_ label: String, width: Int = 80, height: Int = 24,
                environment: [String: String] = [:]) throws -> E2EPane {
        let pane = try E2EPane(home: self, label: label)
        panes.append(pane)
        try pane.start(width: width, height: height, environment: environment)
        return pane
    }

    /// Starts an interactive bash (prompt `rbsh$ `) in a new tmux server, for job control.
    func launchShell(_ label: String) throws -> E2EPane {
        let pane = try E2EPane(home: self, label: label)
        panes.append(pane)
        try pane.tmux.start("env PS1='rbsh$ ' HOME=\(e2eShellQuote(dir.sub("user-home"))) bash --norc --noprofile -i")
        return pane
    }

    /// The command line that runs rigbook on this home with a fixed today, writing its pid to
    /// `pidFile` just before `exec` (so the pid is rigbook's own).
    func rigbookCommand(pidFile: String, environment: [String: String] = [:]) throws -> String {
        let binary = try Binary.path()
        let program = ["env", "-u", "NO_COLOR", "-u", "RIGBOOK_HOME", "-u", "XDG_DATA_HOME",
                       "-u", "RIGBOOK_DRAFT_RETENTION_DAYS",
                       "RIGBOOK_TODAY=\(fixedToday)", "HOME=\(dir.sub("user-home"))"]
            + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + [binary, "--home", home]
        let recordPID = "echo $$ > \(pidFile).tmp && mv \(pidFile).tmp \(pidFile) && exec \"$@\""
        return "sh -c \(e2eShellQuote(recordPID)) rigbook " + program.map(e2eShellQuote).joined(separator: " ")
    }

    func finish() {
        for pane in panes { pane.tmux.kill() }
        // The tmux servers are gone; a rigbook that outlived its terminal would be a bug, but must not linger.
        // A pane whose pid the test never asked for is looked up too: a rigbook still ending (a draft written on
        // the hang-up) would write into the folder after it was removed.
        for pane in panes {
            let written = readFile(pane.pidFile).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            let pid = pane.knownPID ?? written
            if let pid, processIsAlive(pid) {
                kill(pid, SIGKILL)
                poll(timeout: 5) { !processIsAlive(pid) }
            }
        }
        dir.remove()
    }
}

/// One terminal (a private tmux server) with rigbook run through a small sh wrapper:
/// `PID-<label>` holds rigbook's pid, `EXIT-<label>` its exit status, `DONE-<label>` appears once it ended.
final class E2EPane {
    let tmux: TmuxSession
    let label: String
    private unowned let owner: E2EHome
    private(set) var knownPID: pid_t?

    init(home: E2EHome, label: String) throws {
        tmux = try TmuxSession()
        owner = home
        self.label = label
    }

    var pidFile: String { owner.dir.sub("PID-\(label)") }
    var exitFile: String { owner.dir.sub("EXIT-\(label)") }
    var doneFile: String { owner.dir.sub("DONE-\(label)") }

    fileprivate func start(width: Int, height: Int, environment: [String: String] = [:]) throws {
        let script = """
            cd \(e2eShellQuote(owner.dir.path)) || exit 1
            \(try owner.rigbookCommand(pidFile: "PID-\(label)", environment: environment))
            echo "exit=$?" > EXIT-\(label).tmp && mv EXIT-\(label).tmp EXIT-\(label)
            : > DONE-\(label)
            exec sleep 600
            """
        let scriptPath = owner.dir.sub("run-\(label).sh")
        try Data(script.utf8).write(to: URL(fileURLWithPath: scriptPath))
        try tmux.start("sh \(e2eShellQuote(scriptPath))", width: width, height: height)
    }

    /// rigbook's pid, once the wrapper has written it.
    func pid(sourceLocation: SourceLocation = #_sourceLocation) throws -> pid_t {
        let found = try #require(awaitPID(in: pidFile), "the wrapper in terminal \(label) never wrote rigbook's pid",
                                 sourceLocation: sourceLocation)
        knownPID = found
        return found
    }

    /// Waits for rigbook to end and the wrapper to record it; returns the `exit=N` line.
    func waitForExit(timeout: TimeInterval = 10, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        guard poll(timeout: timeout, { fileExists(doneFile) }) else {
            let screen = (try? tmux.capture()) ?? "<no screen>"
            Issue.record("rigbook in terminal \(label) did not exit within \(timeout) s; last screen:\n\(screen)",
                         sourceLocation: sourceLocation)
            throw TmuxError("rigbook did not exit")
        }
        return (readFile(exitFile) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits for the register list to be drawn (the title counts the assets).
    @discardableResult
    func waitForList(assets: Int = 30, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try tmux.waitFor("the register list (\"Rigbook  \(assets) assets\")", sourceLocation: sourceLocation) {
            e2eTitle($0).contains("Rigbook  \(assets) assets")
        }
    }

    /// `/` TAG, until the list shows that one asset, then Enter to leave the filter (kept).
    func filterTo(_ tag: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.sendKeys("/")
        try tmux.sendLiteral(tag)
        try tmux.waitFor("the filter to show only \(tag)", sourceLocation: sourceLocation) {
            e2eTitle($0).contains("filter: 1 shown") && e2eRow($0, tag: tag) != nil
        }
        try tmux.sendKeys("Enter")
        try tmux.waitFor("the filter kept and the list keys back", sourceLocation: sourceLocation) { screen in
            // Leaving the filter puts the key line back (with the query in front of it).
            (e2eLines(screen).last { !$0.isEmpty } ?? "").contains("i inspect")
        }
    }

    /// `/is:lifting`, then Enter to leave the filter (kept): the list without the sample's electrical items, which
    /// a batch does not take.
    func showLiftingOnly(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.sendKeys("/")
        try tmux.sendLiteral("is:lifting")
        try tmux.waitFor("the list of lifting equipment", sourceLocation: sourceLocation) {
            e2eTitle($0).contains("filter: ")
        }
        try tmux.sendKeys("Enter")
        try tmux.waitFor("the filter kept and the list keys back", sourceLocation: sourceLocation) { screen in
            (e2eLines(screen).last { !$0.isEmpty } ?? "").contains("i inspect")
        }
    }

    /// Filters the list to `tag` and opens its inspection form with `i`.
    @discardableResult
    func openForm(_ tag: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try filterTo(tag, sourceLocation: sourceLocation)
        try tmux.sendKeys("i")
        return try tmux.waitFor("the inspection form for \(tag)", sourceLocation: sourceLocation) {
            e2eTitle($0).contains("Inspection · \(tag) ·")
        }
    }

    /// On an open inspection form with no profile: types the inspector, ticks the five checks, takes Pass,
    /// authenticates the report and saves it with Ctrl-S; returns the list showing the asset OK.
    @discardableResult
    func savePassedExamination(_ tag: String, inspector name: String, certificate: String) throws -> String {
        // No profile: the form opens on the inspector's name, the first field that needs the inspector.
        try tmux.sendLiteral(name)
        try tmux.sendKeys("Tab")
        try tmux.sendLiteral(certificate)
        try tmux.sendKeys("Tab")
        for _ in 0..<5 { try tmux.sendKeys("Space") }  // the five checks: Space ticks and moves on
        try tmux.sendKeys("Right")  // Result: nothing chosen, → takes Pass
        try tmux.waitFor("the five checks ticked and Result Pass") { screen in
            e2eLines(screen).filter { $0.hasPrefix("  [x] ") }.count == 5 && screen.contains("‹ Pass ›")
                && screen.contains(name) && screen.contains(certificate)
        }
        // Notes, scheme, defect, action, deadline toggle, deadline, date, the report particulars (basis,
        // test, next examination), the attachments line, then the confirmation.
        for _ in 0..<12 { try tmux.sendKeys("Tab") }
        // The confirmation takes a Space only once it has been on screen (keys in the same burst are
        // refused), so wait for it as a person would look at it. A thorough examination's examiner
        // authenticates the report by name.
        try tmux.waitFor("the confirmation focused") {
            $0.contains("▸ [ ] I, \(name), authenticate this report")
        }
        try tmux.sendKeys("Space")
        try tmux.waitFor("the confirmation ticked, the date today and a preview of OK") { screen in
            screen.contains("[x] I, \(name), authenticate this report")
                && e2eLines(screen).contains { $0.contains("Inspection date") && $0.contains(fixedToday) }
                && screen.contains("If saved: status OK")
        }
        try tmux.sendKeys("C-s")
        return try tmux.waitFor("\"Saved inspection for \(tag)\" and OK on the list") { screen in
            screen.contains("Saved inspection for \(tag)") && (e2eRow(screen, tag: tag)?.hasSuffix(" OK") ?? false)
        }
    }
}

// MARK: - Tests

extension RigbookCLITests {
    @Suite(.serialized) struct FormEndToEnd {
        @Test func fillTheFormByKeysSaveAndReadTheRecordBack() throws {
            let env = try E2EHome()
            defer { env.finish() }
            // An overdue asset: a passed periodic examination today must turn it OK.
            let before = try env.firstAsset(status: "overdue")
            let tag = try #require(string(before, "tag"))
            let uuid = try env.uuid(of: tag)
            let interval = try #require(before["interval_months"] as? Int)
            let name = "Siân O'Neill", certificate = "LEEA/INS 4471"

            let pane = try env.launch("form")
            try pane.waitForList()
            try pane.openForm(tag)
            let saved = try pane.savePassedExamination(tag, inspector: name, certificate: certificate)
            #expect(e2eTitle(saved).contains("Rigbook  30 assets"), "the form did not close to the list:\n\(saved)")
            #expect(!e2eRowHasDraftMark(saved, tag: tag), "the saved asset still has a draft mark:\n\(saved)")
            #expect(!fileExists(env.draftPath(uuid: uuid)), "the draft file is still there after the save")

            // The register, read by the binary itself.
            let history = runRigbookResult(["history", tag, "--format", "json"], home: env.home)
            try #require(history.status == 0, "\(history)")
            let records = e2eJSONArray(history.stdout)
            let newest = try #require(records.first, "no records for \(tag)")
            #expect(string(newest, "asset_tag") == tag)
            #expect(string(newest, "inspector_name") == name)
            #expect(string(newest, "certification_number") == certificate)
            #expect(string(newest, "result") == "pass")
            #expect(string(newest, "inspection_type") == "thorough_periodic")
            #expect(string(newest, "action") == "none")
            #expect(newest["remedy_deadline_set"] as? Bool == false)
            #expect(string(newest, "inspection_date") == fixedToday)
            for check in ["check_marking", "check_cuts", "check_deformation", "check_fittings", "check_corrosion",
                          "confirmed"] {
                #expect(newest[check] as? Bool == true, "\(check) = \(String(describing: newest[check]))")
            }
            #expect(string(newest, "notes") == "" && string(newest, "defect_description") == "")
            #expect(string(newest, "draft_id")?.hasPrefix("inspection-\(uuid):") == true,
                    "draft_id \(string(newest, "draft_id") ?? "nil") is not this form's session")
            #expect(records.dropFirst().allSatisfy { string($0, "inspector_name") != name },
                    "the inspection was saved more than once")

            let after = try env.asset(tag)
            #expect(string(after, "status") == "ok", "status after the save: \(string(after, "status") ?? "nil")")
            #expect(string(after, "last_thorough_examination") == fixedToday)
            #expect(string(after, "latest_result") == "pass")
            #expect(string(after, "next_due") == e2eAddMonths(fixedToday, interval),
                    "next_due \(string(after, "next_due") ?? "nil") for an interval of \(interval) months")

            try pane.tmux.sendKeys("q")
            #expect(try pane.waitForExit() == "exit=0")
        }

        /// A save opens its reg 10 notices on the program's day: with today fixed (RIGBOOK_TODAY), the report
        /// to send is open since that day, not the wall clock's, and has been open no days.
        @Test func aSavedExaminationsNoticeIsDatedByTheProgramsToday() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try #require(string(try env.firstAsset(status: "overdue"), "tag"))
            let pane = try env.launch("notice")
            try pane.waitForList()
            try pane.openForm(tag)
            try pane.savePassedExamination(tag, inspector: "Jo Examiner", certificate: "LEEA-1")
            try pane.tmux.sendKeys("q")
            #expect(try pane.waitForExit() == "exit=0")

            let csv = runRigbookResult(["notices", "--format", "csv"], home: env.home)
            #expect(csv.status == 3, "\(csv)")
            let rows = try readCSV(csv.stdout)
            let header = try #require(rows.first)
            let column = { (name: String) in try #require(header.firstIndex(of: name), "no column \(name)") }
            let (tagColumn, examined, since, daysOpen) = (try column("tag"), try column("inspection_date"),
                                                         try column("since"), try column("days_open"))
            // The report to the employer, and to a lessor where the sample hired it: each opened by this save.
            let opened = rows.dropFirst().filter { $0[tagColumn] == tag && $0[examined] == fixedToday }
            #expect(!opened.isEmpty, "\(csv)")
            #expect(opened.allSatisfy { $0[since] == fixedToday && $0[daysOpen] == "0" }, "\(csv)")
        }

        /// A paste of text, seven Tabs, a Space and Ctrl-S into the notes once ticked the
        /// confirmation and saved a record. In a real terminal with bracketed paste it is text only.
        @Test func aBracketedPasteIsTextNeverKeys() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 3)
            let before = runRigbookResult(["history", tag, "--format", "json"], home: env.home)
            let pane = try env.launch("paste")
            try pane.waitForList()
            try pane.openForm(tag)
            // From the inspector's name (no profile): the number, five checks, the result, then the notes.
            for _ in 0..<8 { try pane.tmux.sendKeys("Tab") }
            try pane.tmux.waitFor("the notes focused") { $0.contains("▸ Notes") }
            let buffer = env.home + "/paste.txt"
            let hostile = "Sling OK" + String(repeating: "\t", count: 7) + " \u{13}"
            try Data(hostile.utf8).write(to: URL(fileURLWithPath: buffer))
            try pane.tmux.tmuxCommand(["load-buffer", buffer])
            try pane.tmux.tmuxCommand(["paste-buffer", "-p", "-t", "t"])
            let screen = try pane.tmux.waitFor("the paste reported") { $0.contains("Pasted 9 of 17 characters") }
            #expect(e2eLines(screen).contains { $0.contains("▸ Notes") && $0.contains("Sling OK") }, "\(screen)")
            #expect(screen.contains("[ ] I confirm this record is accurate") || !screen.contains("I confirm"),
                    "the confirmation was ticked:\n\(screen)")
            let after = runRigbookResult(["history", tag, "--format", "json"], home: env.home)
            #expect(after.stdout == before.stdout, "a record was saved by a paste")
            try pane.tmux.sendKeys("Escape")
            try pane.tmux.waitFor("the leave dialog") { $0.contains("[ Discard ]") }
            try pane.tmux.sendKeys("d")
            try pane.waitForList()
            try pane.tmux.sendKeys("q")
            #expect(try pane.waitForExit() == "exit=0")
        }
    }
}
