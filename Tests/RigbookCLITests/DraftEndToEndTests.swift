import Foundation
import Testing

// End-to-end tests of drafts on the built binary in tmux: what is typed survives kill -9,
// SIGHUP, a closed terminal and Ctrl-Z; Esc offers to keep or discard it; a second session is locked
// out; unreadable drafts are set aside. Shared helpers (E2EHome, E2EPane, e2e…) are in FormEndToEndTests.swift.

/// What these tests type into a form: inspector name, certification number and notes (with CJK).
struct E2ETyped {
    var name = "Jane Roe"
    var certificate = "LEEA 0417"
    var notes = "Eye 绳索 worn"

    /// Types the three fields, starting from a freshly opened form (no profile: focus on the inspector name,
    /// the first field that needs the inspector). Keys only: nothing waits between them or after the last one.
    func type(into pane: E2EPane) throws {
        try pane.tmux.sendLiteral(name)
        try pane.tmux.sendKeys("Tab")
        try pane.tmux.sendLiteral(certificate)
        // The five checks and the result lie between the certification number and the notes.
        try pane.tmux.sendKeys("Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Tab")
        try pane.tmux.sendLiteral(notes)
    }

    /// Whether a draft file holds all three, to the last character.
    func isHeld(byDraftAt path: String) -> Bool {
        guard let values = e2eJSONObject(atPath: path)?["values"] as? [String: Any] else { return false }
        return values["inspector_name"] as? String == name && values["certification_number"] as? String == certificate
            && values["notes"] as? String == notes
    }

    /// The draft's three fields, for failure messages.
    static func describe(draftAt path: String) -> String {
        guard let object = e2eJSONObject(atPath: path) else {
            return fileExists(path) ? "unreadable draft file" : "no draft file"
        }
        let values = object["values"] as? [String: Any] ?? [:]
        return "inspector_name \(String(describing: values["inspector_name"])), certification_number "
            + "\(String(describing: values["certification_number"])), notes \(String(describing: values["notes"]))"
    }

    /// The three fields as a form at 80 columns shows them (the text after the label column), in typing order.
    static func shownFields(on screen: String) -> [String] {
        ["Inspector name", "Certification no.", "Notes"].map { label in
            guard let line = e2eLines(screen).first(where: { $0.dropFirst(2).hasPrefix(label) }) else { return "" }
            return String(line.dropFirst(24)).trimmingCharacters(in: .whitespaces)
        }
    }

    /// What a closed terminal can leave in the draft: a prefix of what was typed, in typing order (a field
    /// only once the fields before it are whole), holding at least what the screen had shown. Nil when it
    /// does; else why not.
    func problemWithPartialDraft(at path: String, shown: [String]) -> String? {
        guard let values = e2eJSONObject(atPath: path)?["values"] as? [String: Any] else {
            return shown.allSatisfy(\.isEmpty) ? nil : "no readable draft, though the screen showed \(shown)"
        }
        let typed = [name, certificate, notes]
        let kept = ["inspector_name", "certification_number", "notes"].map { values[$0] as? String ?? "" }
        for index in typed.indices {
            if !typed[index].hasPrefix(kept[index]) { return "\(kept[index]) is not a prefix of \(typed[index])" }
            if !kept[index].hasPrefix(shown[index]) {
                return "the screen showed \(shown[index]); the draft has \(kept[index])"
            }
            if index > 0, !kept[index].isEmpty, kept[index - 1] != typed[index - 1] {
                return "\(kept[index]) was kept, but the field before it is cut: \(kept[index - 1])"
            }
        }
        return nil
    }

    /// All three on the screen.
    func isShown(on screen: String) -> Bool {
        screen.contains(name) && screen.contains(certificate) && screen.contains(notes)
    }
}

/// Polls until the draft file holds everything typed (for up to `timeout` seconds: the debounce is 500 ms),
/// and, with `notBefore`, until that moment has passed too.
func e2eWaitForDraft(_ typed: E2ETyped, at path: String, notBefore: Date? = nil, timeout: TimeInterval = 5,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
    if !poll(timeout: timeout, { typed.isHeld(byDraftAt: path) && Date() >= (notBefore ?? .distantPast) }) {
        Issue.record(
            "the draft file never held everything typed within \(timeout) s: \(E2ETyped.describe(draftAt: path))",
            sourceLocation: sourceLocation)
        throw TmuxError("draft not written")
    }
}

/// The one-letter state of a process in /proc (R, S, T for stopped, Z…), nil when it is gone.
func e2eProcessState(_ pid: pid_t) -> Character? {
    guard let stat = readFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
}

/// Draft JSON as FORMATS.md documents it, for a hand-made file.
func e2eDraftJSON(uuid: String, tag: String, notes: String) throws -> Data {
    let now = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!,
                                          formatOptions: [.withInternetDateTime, .withFractionalSeconds])
    let draft: [String: Any] = [
        "amends": NSNull(), "app_version": "0.1.0", "asset_tag": tag, "asset_uuid": uuid,
        "created_at": now, "draft_id": "inspection-\(uuid)", "form_kind": "inspection", "host": "depot-laptop",
        "operator": "Jane Doe", "os_user": "jane", "pid": 18096, "revision": 3, "schema_version": 1,
        "session_id": "inspection-\(uuid):0b0c6f5e-8f3e-4a59-9a53-5a0d3c1f2e77", "updated_at": now,
        "values": [
            "action": "none", "certification_number": "LEEA-9", "check_corrosion": false, "check_cuts": true,
            "check_deformation": false, "check_fittings": false, "check_marking": true, "confirmed": false,
            "defect_description": "", "inspection_date": fixedToday, "inspection_type": "thorough_periodic",
            "inspector_name": "Jane Doe", "notes": notes, "remedy_deadline": "", "remedy_deadline_set": false,
            "result": NSNull(), "scheme_reference": "",
        ] as [String: Any],
    ]
    return try JSONSerialization.data(withJSONObject: draft, options: [.prettyPrinted, .sortedKeys])
}

extension RigbookCLITests {
    @Suite(.serialized) struct DraftEndToEnd {
        /// 1. Typed, debounced to disk, kill -9: the next start offers the draft back and Recover restores it.
        @Test func killNineThenRecoverBringsEveryFieldBack() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 1)
            let uuid = try env.uuid(of: tag)
            let draft = env.draftPath(uuid: uuid)
            let typed = E2ETyped()

            let first = try env.launch("first")
            try first.waitForList()
            try first.openForm(tag)
            try typed.type(into: first)
            let lastKey = Date()
            try first.tmux.waitFor("the typed fields on the form") { typed.isShown(on: $0) }
            // The debounced write (500 ms after the last key) must land: poll the file itself, and do not
            // kill before 700 ms after the last key, past the debounce window.
            try e2eWaitForDraft(typed, at: draft, notBefore: lastKey.addingTimeInterval(0.7))
            let pid = try first.pid()
            try #require(kill(pid, SIGKILL) == 0, "kill -9 \(pid): errno \(errno)")
            #expect(poll { !processIsAlive(pid) }, "rigbook (pid \(pid)) still alive after kill -9")
            #expect(try first.waitForExit() == "exit=137")
            #expect(typed.isHeld(byDraftAt: draft),
                    "the draft changed when the process died: \(E2ETyped.describe(draftAt: draft))")

            let second = try env.launch("second")
            let list = try second.waitForList()
            #expect(e2eTitle(list).contains("✎ 1 draft"), "the title does not count the draft: \(e2eTitle(list))")
            try second.filterTo(tag)
            #expect(e2eRowHasDraftMark(try second.tmux.capture(), tag: tag), "no ✎ on \(tag)")
            try second.tmux.sendKeys("i")
            let question = try second.tmux.waitFor("the recovery question for \(tag)") { screen in
                screen.contains("Unsubmitted draft for \(tag)") && screen.contains("[ Recover ]")
                    && screen.contains("[ Discard ]") && screen.contains("[ Back ]")
            }
            // It says what the draft holds, and it is not applied yet.
            #expect(question.contains(typed.name), "the question does not preview the draft:\n\(question)")
            #expect(!e2eTitle(question).contains("Inspection ·"), "the form opened without asking")
            try second.tmux.sendKeys("r")
            let form = try second.tmux.waitFor("the form with every typed field back") { screen in
                e2eTitle(screen).contains("Inspection · \(tag) ·") && typed.isShown(on: screen)
            }
            #expect(e2eTitle(form).contains("draft saved"),
                    "the recovered form does not say its draft is on disk: \(e2eTitle(form))")
        }

        /// 1b. What the screen shows is what the next reader of the draft gets (`drafts list` replays the
        /// keystroke journal), after each key and long before the debounced draft write, and a kill -9 the moment
        /// the last key shows loses nothing. (That the line goes in before the echo is the loop's order, which a
        /// reader this slow cannot tell from just after it; LossBench kills within 20 ms.)
        @Test func whatTheScreenShowsIsAlreadyInTheJournal() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 3)
            let pane = try env.launch("shown")
            try pane.waitForList()
            try pane.openForm(tag)
            func journaledName() -> String? {
                let listed = runRigbookResult(["drafts", "list", "--format", "json"], home: env.home)
                let drafts = (try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8))) as? [[String: Any]]
                return (drafts?.first?["values"] as? [String: Any])?["inspector_name"] as? String
            }
            var typed = "Qz"
            try pane.tmux.sendLiteral(typed)
            for character in "xkWvyq" {
                typed.append(character)
                try pane.tmux.sendLiteral(String(character))
                let shown = typed
                try pane.tmux.waitFor("\(shown) on the form") { $0.contains(shown) }
                let read = journaledName()
                #expect(read == shown, "the screen shows \(shown), the draft's next reader gets \(read ?? "nothing")")
            }
            let pid = try pane.pid()
            try #require(kill(pid, SIGKILL) == 0, "kill -9 \(pid): errno \(errno)")
            #expect(poll { !processIsAlive(pid) }, "rigbook (pid \(pid)) still alive after kill -9")
            #expect(journaledName() == typed)
        }

        /// 2a. SIGHUP straight after the last key: every character typed is in the draft when the process
        /// has exited (129). The notes go in as one `send-keys -l`, which tmux writes to the terminal in one go.
        @Test func sighupRightAfterTypingFlushesEveryCharacter() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 2)
            let draft = env.draftPath(uuid: try env.uuid(of: tag))
            let typed = E2ETyped(name: "Ravi Shankar", certificate: "CERT/8812",
                                 notes: "吊带 cut near the label, bagged and tagged for quarantine")

            let pane = try env.launch("hup")
            try pane.waitForList()
            try pane.openForm(tag)
            let pid = try pane.pid()
            try typed.type(into: pane)
            try #require(kill(pid, SIGHUP) == 0, "kill -HUP \(pid): errno \(errno)")
            #expect(poll { !processIsAlive(pid) }, "rigbook (pid \(pid)) still running 10 s after SIGHUP")
            #expect(try pane.waitForExit() == "exit=129")
            let notes = (e2eJSONObject(atPath: draft)?["values"] as? [String: Any])?["notes"] as? String
            let cutShort = notes.map { !$0.isEmpty && $0.count < typed.notes.count && typed.notes.hasPrefix($0) }
                ?? false
            let why = cutShort
                ? "\nThe notes stop part-way through one terminal write: rigbook had started reading those keys"
                    + " and dropped the rest when the signal came."
                : ""
            #expect(typed.isHeld(byDraftAt: draft),
                    "after SIGHUP the draft holds: \(E2ETyped.describe(draftAt: draft))\(why)")
        }

        /// 2a'. The same once the screen shows the last key (rigbook has handled every key) but well inside the
        /// 500 ms debounce: SIGHUP must write the pending draft before the process exits.
        @Test func sighupAfterTheKeysAreShownFlushesThePendingDraft() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 3)
            let draft = env.draftPath(uuid: try env.uuid(of: tag))
            let typed = E2ETyped(name: "Ravi Shankar", certificate: "CERT/8812", notes: "吊带 cut near label, bagged")

            let pane = try env.launch("hup-shown")
            try pane.waitForList()
            try pane.openForm(tag)
            let pid = try pane.pid()
            try typed.type(into: pane)
            try pane.tmux.waitFor("the typed fields on the form") { typed.isShown(on: $0) }
            try #require(kill(pid, SIGHUP) == 0, "kill -HUP \(pid): errno \(errno)")
            #expect(poll { !processIsAlive(pid) }, "rigbook (pid \(pid)) still running 10 s after SIGHUP")
            #expect(try pane.waitForExit() == "exit=129")
            #expect(typed.isHeld(byDraftAt: draft),
                    "after SIGHUP the draft holds: \(E2ETyped.describe(draftAt: draft))")
        }

        /// 2b. The terminal itself goes away (tmux kill-session closes the pty) right after typing.
        @Test func closingTheTerminalRightAfterTypingFlushesEveryCharacter() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 4)
            let draft = env.draftPath(uuid: try env.uuid(of: tag))
            let typed = E2ETyped(name: "Kim Lee", certificate: "LOLER 77", notes: "卸扣 pin bent")

            let pane = try env.launch("close")
            try pane.waitForList()
            try pane.openForm(tag)
            let pid = try pane.pid()
            try typed.type(into: pane)
            // What the screen shows now has been read by rigbook; keys still in the pty when it closes are
            // thrown away by the kernel (no program can keep them). So the draft must hold at least what was
            // shown, and be a prefix of what was typed; on a quiet machine it is all of it.
            let shown = E2ETyped.shownFields(on: try pane.tmux.capture())
            try pane.tmux.tmuxCommand(["kill-session", "-t", "t"])
            #expect(poll { !processIsAlive(pid) }, "rigbook (pid \(pid)) still running 10 s after its terminal closed")
            let problem = typed.problemWithPartialDraft(at: draft, shown: shown)
            #expect(problem == nil, "after the terminal closed: \(problem ?? ""); \(E2ETyped.describe(draftAt: draft))")
        }

        /// 3. Esc → Keep editing · Close and keep draft · Discard → d: nothing remains.
        @Test func escThenDiscardLeavesNoDraft() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 5)
            let draft = env.draftPath(uuid: try env.uuid(of: tag))
            let typed = E2ETyped()

            let pane = try env.launch("discard")
            try pane.waitForList()
            try pane.openForm(tag)
            try typed.type(into: pane)
            try e2eWaitForDraft(typed, at: draft)
            try pane.tmux.sendKeys("Escape")
            try pane.tmux.waitFor("the leave dialog") { screen in
                screen.contains("[ Keep editing ]") && screen.contains("[ Close and keep draft ]")
                    && screen.contains("[ Discard ]")
            }
            try pane.tmux.sendKeys("d")
            let list = try pane.tmux.waitFor("the list again") {
                e2eTitle($0).contains("Rigbook  30 assets") && e2eRow($0, tag: tag) != nil
            }
            #expect(poll { !fileExists(draft) }, "the draft file is still there after Discard")
            // Nor does a pending debounce bring it back.
            #expect(!poll(timeout: 1.2) { fileExists(draft) }, "the draft file came back after Discard")
            let screen = try pane.tmux.capture()
            #expect(!e2eRowHasDraftMark(screen, tag: tag), "\(tag) still has the ✎ mark:\n\(screen)")
            #expect(!e2eTitle(screen).contains("draft"), "the title still counts a draft: \(e2eTitle(screen))")
            #expect(!list.contains("✎"))
            let listed = runRigbookResult(["drafts", "list", "--format", "json"], home: env.home)
            #expect(listed.status == 0 && e2eJSONArray(listed.stdout).isEmpty, "drafts list after Discard: \(listed)")
        }

        /// 4. A second session on the same home is told who holds the form and cannot edit it.
        @Test func secondSessionIsLockedOut() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 6)
            let uuid = try env.uuid(of: tag)

            let first = try env.launch("holder")
            try first.waitForList()
            try first.openForm(tag)
            let holderPID = try first.pid()

            let second = try env.launch("other")
            try second.waitForList()
            try second.filterTo(tag)
            try second.tmux.sendKeys("i")
            let refused = try second.tmux.waitFor("\"open in another session\" with pid \(holderPID)") { screen in
                screen.contains("\(tag) is open in another session") && screen.contains("pid \(holderPID)")
            }
            #expect(!e2eTitle(refused).contains("Inspection ·"), "the second session opened the form:\n\(refused)")
            #expect(!refused.contains("Unsubmitted draft"))
            // A key clears the message; `i` again is refused again: no form ever takes this session's keys.
            try second.tmux.sendLiteral("x")
            try second.tmux.waitFor("the message cleared by a key") { !$0.contains("open in another session") }
            try second.tmux.sendKeys("i")
            try second.tmux.waitFor("the list still, refused again") { screen in
                e2eTitle(screen).contains("Rigbook  30 assets") && screen.contains("open in another session")
            }
            #expect(!fileExists(env.draftPath(uuid: uuid)), "a draft appeared though neither session typed")

            // Once the holder closes its form, the lock is free.
            try second.tmux.sendKeys("Escape")
            try second.tmux.waitFor("the message closed") { !$0.contains("open in another session") }
            try first.tmux.sendKeys("Escape")
            try first.waitForList()
            try second.tmux.sendKeys("i")
            try second.tmux.waitFor("the form in the second session after the first closed it") {
                e2eTitle($0).contains("Inspection · \(tag) ·")
            }
        }

        /// 4b. At 80×24 the refusal says all of who holds the form (user, host, pid, since) and that it cannot
        /// be edited.
        @Test func lockedOutMessageReadsInFullAt80Columns() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 6)
            let uuid = try env.uuid(of: tag)

            let first = try env.launch("holder")
            try first.waitForList()
            try first.openForm(tag)
            let lock = try #require(e2eJSONObject(atPath: env.draftsFolder + "/" + env.draftID(uuid: uuid) + ".lock"),
                                    "no readable lock file while the form is open")
            // Shown in local time (YYYY-MM-DD HH:MM); the date part is enough to recognise it.
            let since = String(try #require(lock["since"] as? String).prefix(10))

            let second = try env.launch("other")
            try second.waitForList()
            try second.filterTo(tag)
            try second.tmux.sendKeys("i")
            // The box is drawn in one frame, but tmux may be read between two of curses' writes: wait for
            // its last line as well as its title.
            let refused = try second.tmux.waitFor("the refusal box") {
                $0.contains("open in another session") && $0.contains("cannot be edited")
            }
            let pid = (lock["pid"] as? Int).map(String.init) ?? "?"
            for part in [lock["user"] as? String ?? "?", lock["host"] as? String ?? "?", "pid \(pid)", since,
                         "cannot be edited"] {
                #expect(refused.contains(part), "the refusal at 80×24 does not show “\(part)”:\n\(refused)")
            }
        }

        /// 5. Unreadable files in Drafts/ never stop the start: they go to Drafts/Corrupt/ and the screen says so.
        @Test func unreadableDraftsAreSetAsideAtStart() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 7)
            let uuid = try env.uuid(of: tag)
            try E2EFolders.make(env.draftsFolder)
            let junk = Data("{not json".utf8)
            let junkPath = env.draftsFolder + "/junk.json"
            try junk.write(to: URL(fileURLWithPath: junkPath))

            // A real draft first: `drafts list` reads it back, so only the cut makes it unreadable.
            let whole = try e2eDraftJSON(uuid: uuid, tag: tag, notes: "hook latch sticky")
            let realPath = env.draftPath(uuid: uuid)
            try whole.write(to: URL(fileURLWithPath: realPath))
            let readable = runRigbookResult(["drafts", "list", "--format", "json"], home: env.home)
            try #require(readable.status == 0, "\(readable)")
            try #require(e2eJSONArray(readable.stdout).first.map { string($0, "draft_id") } == "inspection-\(uuid)",
                         "the hand-made draft is not readable before the cut: \(readable)")
            let truncated = whole.prefix(whole.count / 2)
            try truncated.write(to: URL(fileURLWithPath: realPath))

            let pane = try env.launch("corrupt")
            let screen = try pane.tmux.waitFor("the list and the message about Drafts/Corrupt/") { screen in
                e2eTitle(screen).contains("Rigbook  30 assets")
                    && screen.contains("Moved 2 unreadable drafts to Drafts/Corrupt/")
            }
            #expect(!e2eTitle(screen).contains("draft"), "an unreadable draft is counted: \(e2eTitle(screen))")
            #expect(!fileExists(junkPath) && !fileExists(realPath), "the unreadable files are still in Drafts/")
            #expect(FileManager.default.contents(atPath: env.corruptFolder + "/junk.json") == junk,
                    "junk.json is not in Corrupt/ as it was")
            let setAside = env.corruptFolder + "/inspection-\(uuid).json"
            #expect(FileManager.default.contents(atPath: setAside) == Data(truncated),
                    "the truncated draft is not in Corrupt/ as it was")
            let attributes = try? FileManager.default.attributesOfItem(atPath: env.corruptFolder)
            let mode = attributes?[.posixPermissions] as? Int ?? -1
            #expect(mode == 0o700, "Drafts/Corrupt/ has mode \(String(mode, radix: 8))")

            // Said once: gone after a key, and not said at the next start.
            try pane.tmux.sendKeys("j")
            try pane.tmux.waitFor("the message gone after a key") { !$0.contains("unreadable") }
            try pane.tmux.sendKeys("q")
            #expect(try pane.waitForExit() == "exit=0")
            let again = try env.launch("again")
            let next = try again.waitForList()
            #expect(!next.contains("unreadable") && !next.contains("Corrupt"), "said again at the next start:\n\(next)")
        }

        /// 6. Close and keep draft, then q: the list marks it, `drafts list` shows it, `drafts discard` removes it.
        @Test func keepDraftThenListAndDiscardFromTheCommandLine() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 8)
            let uuid = try env.uuid(of: tag)
            let draft = env.draftPath(uuid: uuid)
            let typed = E2ETyped(name: "Ola Nordmann", certificate: "NS 9001", notes: "链条 link worn 8%")

            let pane = try env.launch("keep")
            try pane.waitForList()
            try pane.openForm(tag)
            try typed.type(into: pane)
            try pane.tmux.sendKeys("Escape")
            try pane.tmux.waitFor("the leave dialog") { $0.contains("[ Close and keep draft ]") }
            try pane.tmux.sendKeys("c")
            let list = try pane.tmux.waitFor("the list with \(tag) marked ✎ and \"1 draft\"") { screen in
                e2eTitle(screen).contains("✎ 1 draft") && e2eRowHasDraftMark(screen, tag: tag)
            }
            #expect(list.contains("Kept the draft for \(tag)"))
            // Closing with "keep draft" writes at once, whatever the debounce had pending.
            #expect(typed.isHeld(byDraftAt: draft), "after Close and keep draft: \(E2ETyped.describe(draftAt: draft))")
            try pane.tmux.sendKeys("q")
            #expect(try pane.waitForExit() == "exit=0")
            #expect(typed.isHeld(byDraftAt: draft), "after q: \(E2ETyped.describe(draftAt: draft))")

            let listed = runRigbookResult(["drafts", "list", "--format", "json"], home: env.home)
            try #require(listed.status == 0, "\(listed)")
            let drafts = e2eJSONArray(listed.stdout)
            try #require(drafts.count == 1, "drafts list: \(listed.stdout)")
            let entry = drafts[0]
            let id = try #require(string(entry, "draft_id"))
            #expect(id == "inspection-\(uuid)")
            #expect(string(entry, "asset_tag") == tag && string(entry, "asset_uuid") == uuid)
            #expect(string(entry, "form_kind") == "inspection")
            #expect(isNull(entry["locked_by"]),
                    "locked_by after the program quit: \(String(describing: entry["locked_by"]))")
            let values = entry["values"] as? [String: Any] ?? [:]
            #expect(values["inspector_name"] as? String == typed.name && values["notes"] as? String == typed.notes,
                    "values: \(values)")

            let discarded = runRigbookResult(["drafts", "discard", id], home: env.home)
            #expect(discarded.status == 0, "\(discarded)")
            #expect(!fileExists(draft), "the draft file is still there after drafts discard")
            let empty = runRigbookResult(["drafts", "list", "--format", "json"], home: env.home)
            #expect(empty.status == 0 && e2eJSONArray(empty.stdout).isEmpty, "drafts list after discard: \(empty)")
        }

        /// 7. Ctrl-Z in a job-control shell: the draft is on disk before the process stops; fg brings the form back.
        @Test func ctrlZWritesTheDraftThenFgBringsTheFormBack() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 9)
            let draft = env.draftPath(uuid: try env.uuid(of: tag))
            let typed = E2ETyped(name: "Aiko Sato", certificate: "JIS 2231", notes: "钢丝 broken wires 2")

            let pane = try env.launchShell("shell")
            try pane.tmux.waitFor(text: "rbsh$")
            let command = try env.rigbookCommand(pidFile: "PID-shell")
            try pane.tmux.sendLiteral("cd \(e2eShellQuote(env.dir.path)) && " + command)
            try pane.tmux.sendKeys("Enter")
            try pane.waitForList()
            let pid = try pane.pid()
            try pane.openForm(tag)
            try typed.type(into: pane)
            try pane.tmux.sendKeys("C-z")
            #expect(poll { e2eProcessState(pid) == "T" },
                    "rigbook (pid \(pid)) did not stop; state \(String(describing: e2eProcessState(pid)))")
            // Stopped, it cannot write any more: whatever the file holds now was written before the stop.
            #expect(typed.isHeld(byDraftAt: draft),
                    "while stopped the draft holds: \(E2ETyped.describe(draftAt: draft))")
            try pane.tmux.waitFor("the shell's prompt after the job stopped") { screen in
                screen.contains("Stopped") && e2eLines(screen).contains { $0.hasPrefix("rbsh$") }
                    && !e2eTitle(screen).contains("Inspection ·")
            }

            try pane.tmux.sendLiteral("fg")
            try pane.tmux.sendKeys("Enter")
            try pane.tmux.waitFor("the form back after fg") { screen in
                e2eTitle(screen).contains("Inspection · \(tag) ·") && typed.isShown(on: screen)
            }
            #expect(e2eProcessState(pid) != "T", "rigbook still stopped after fg")
            // The form takes keys again.
            try pane.tmux.sendKeys("Escape")
            try pane.tmux.waitFor("the leave dialog after the resume") { $0.contains("[ Close and keep draft ]") }
            try pane.tmux.sendKeys("d")
            try pane.tmux.waitFor("the list after Discard") { e2eTitle($0).contains("Rigbook  30 assets") }
            try pane.tmux.sendKeys("q")
            try pane.tmux.waitFor("the shell prompt after q") { screen in
                !e2eTitle(screen).contains("Rigbook") && e2eLines(screen).contains { $0.hasPrefix("rbsh$") }
            }
            #expect(poll { !processIsAlive(pid) }, "rigbook still running after q")
            #expect(!fileExists(draft), "the draft is still there after Discard")
        }
    }
}

/// Makes a folder (and its parents) 0700, as the data home's folders are.
enum E2EFolders {
    static func make(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }
}
