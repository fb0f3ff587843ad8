import Foundation
import Testing

/// Single-quotes a word for sh.
private func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// The full-screen program run inside tmux through a small sh wrapper that records the terminal
/// settings before and after (`stty -g`), the program's pid (the inner sh `exec`s it) and its exit
/// status, then keeps the pane alive so the screen can still be read.
private final class WrappedRun {
    let dir = TempDir("rigbook-tmux")
    let tmux: TmuxSession
    let home: String

    var before: String { dir.sub("BEFORE") }
    var after: String { dir.sub("AFTER") }
    var exitFile: String { dir.sub("EXIT") }
    var pidFile: String { dir.sub("PID") }
    var doneFile: String { dir.sub("DONE") }
    var errFile: String { dir.sub("ERR") }

    init(tmux: TmuxSession) {
        self.tmux = tmux
        home = dir.sub("home")
    }

    /// Makes a 200-asset sample register in the home.
    func makeSample() throws {
        let made = runRigbookResult(["sample"], home: home)
        try #require(made.status == 0, "\(made)")
    }

    /// Starts `rigbook --home HOME` in an 80×24 (or given) pane with `env` set and NO_COLOR unset.
    func start(env: [String: String] = [:], stderrToFile: Bool = false, width: Int = 80, height: Int = 24) throws {
        let binary = try Binary.path()
        var assignments = ["RIGBOOK_TODAY=\(fixedToday)", "HOME=\(dir.sub("user-home"))"]
        for (key, value) in env.sorted(by: { $0.key < $1.key }) { assignments.append("\(key)=\(value)") }
        let program = ["env", "-u", "NO_COLOR", "-u", "RIGBOOK_HOME", "-u", "XDG_DATA_HOME"] + assignments
            + [binary, "--home", home]
        let command = program.map(shellQuote).joined(separator: " ")
        let stderrRedirect = stderrToFile ? " 2> ERR" : ""
        let script = """
            cd \(shellQuote(dir.path)) || exit 1
            stty -g > BEFORE
            sh -c 'echo $$ > PID.tmp && mv PID.tmp PID && exec "$@"' rigbook \(command)\(stderrRedirect)
            echo "exit=$?" > EXIT.tmp && mv EXIT.tmp EXIT
            stty -g > AFTER
            : > DONE
            exec sleep 600
            """
        let scriptPath = dir.sub("run.sh")
        try Data(script.utf8).write(to: URL(fileURLWithPath: scriptPath))
        try tmux.start("sh \(shellQuote(scriptPath))", width: width, height: height)
    }

    /// The pid of the rigbook process (written by the inner sh just before `exec`).
    func pid(sourceLocation: SourceLocation = #_sourceLocation) throws -> pid_t {
        try #require(awaitPID(in: pidFile), "the wrapper never wrote the pid", sourceLocation: sourceLocation)
    }

    /// Waits for the wrapper to finish (program exited, AFTER written); returns the `exit=N` line.
    func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let finished = poll { fileExists(doneFile) }
        if !finished {
            let screen = (try? tmux.capture()) ?? "<no screen>"
            Issue.record("rigbook did not exit within 10 s; last screen:\n\(screen)", sourceLocation: sourceLocation)
            throw TmuxError("rigbook did not exit")
        }
        return (readFile(exitFile) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The terminal is as the shell had it: same stty settings, main screen, cursor visible, keypad off.
    func expectTerminalRestored(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let saved = readFile(before), restored = readFile(after)
        #expect(saved != nil && !(saved ?? "").isEmpty, "stty -g before is missing", sourceLocation: sourceLocation)
        #expect(saved == restored,
                "terminal settings not restored:\nbefore \(saved ?? "nil")after  \(restored ?? "nil")",
                sourceLocation: sourceLocation)
        let flags = try tmux.display("#{alternate_on} #{cursor_flag} #{keypad_cursor_flag} #{keypad_flag}")
        let modes = "alternate screen, cursor visible, keypad cursor, keypad"
        #expect(flags == "0 1 0 0", "pane modes after exit (\(modes)) = \(flags), want 0 1 0 0",
                sourceLocation: sourceLocation)
        let screen = try tmux.capture()
        #expect(!screen.contains("Rigbook  ") && !screen.contains("NEXT DUE"),
                "the register is still on the screen after exit:\n\(screen)",
                sourceLocation: sourceLocation)
    }

    func finish() {
        tmux.kill()
        dir.remove()
    }
}

private func titleLine(_ screen: String) -> String {
    String(screen.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
}

/// Screen rows 3… (below title, counts and headings, above the key line) drawn in reverse video.
/// The column where the date starts in the title (the title ends with the date and one space).
private func dateColumn(_ screen: String) -> Int? {
    let title = titleLine(screen)
    guard let range = title.range(of: fixedToday) else { return nil }
    return title.distance(from: title.startIndex, to: range.lowerBound)
}

private func selectedRows(_ escaped: String, height: Int = 24) -> [Int] {
    reverseVideoRows(escaped).filter { $0 >= 3 && $0 < height - 1 }
}

private func waitForProcessGone(_ pid: pid_t) -> Bool {
    poll { !processIsAlive(pid) }
}

extension RigbookCLITests {
    @Suite struct FullScreen {
        @Test func openFilterMoveQuitRestoresTheTerminal() throws {
            let run = WrappedRun(tmux: try TmuxSession())
            defer { run.finish() }
            try run.makeSample()
            try run.start()
            try run.tmux.waitFor("the title \"Rigbook  200 assets\"") { titleLine($0).contains("Rigbook  200 assets") }
            // Statuses are coloured when NO_COLOR is unset.
            let coloured = try run.tmux.capture(escapes: true)
            #expect(!colourCodes(coloured).isEmpty, "no colours drawn without NO_COLOR")
            try run.tmux.waitFor("the first row selected", escapes: true) { selectedRows($0) == [3] }

            try run.tmux.sendKeys("/")
            try run.tmux.sendLiteral("quay")
            let filtered = try run.tmux.waitFor("\"filter:\" in the title") { titleLine($0).contains("filter:") }
            let shownMatch = titleLine(filtered).firstMatch(of: /filter: (\d+) shown/)
            let shown = try #require(shownMatch.flatMap { Int($0.1) }, "title: \(titleLine(filtered))")
            #expect(shown > 0 && shown < 200, "filter quay shows \(shown) of 200")
            try run.tmux.sendKeys("Enter")
            try run.tmux.sendKeys("j", "j")
            try run.tmux.waitFor("the third row selected", escapes: true) { selectedRows($0) == [5] }
            try run.tmux.sendKeys("k")
            try run.tmux.waitFor("the second row selected", escapes: true) { selectedRows($0) == [4] }
            // j and k moved the selection; they were not typed into the filter.
            let screen = try run.tmux.capture()
            #expect(titleLine(screen).contains("filter: \(shown) shown"), "title after j j k: \(titleLine(screen))")
            let rows = screen.split(separator: "\n").dropFirst(3).prefix(min(shown, 20))
            #expect(rows.allSatisfy { $0.localizedCaseInsensitiveContains("quay") },
                    "rows shown for the filter: \(rows)")

            try run.tmux.sendKeys("q")
            let exit = try run.waitForExit()
            #expect(exit == "exit=0")
            try run.expectTerminalRestored()
        }

        /// Each ↓ and ↑ writes only what changed, scrolls leave the scroll region set (`DirectOutput`): after a walk
        /// down and back up the list, a key at a time, the terminal shows what the program draws when it paints
        /// everything anew. With `TERM=ansi`, a terminal without a scroll region: the rows a scroll would have moved
        /// are drawn.
        @Test(arguments: ["", "ansi"])
        func aListWalkedKeyByKeyLooksAsItDoesRedrawnWhole(term: String) throws {
            let run = WrappedRun(tmux: try TmuxSession())
            defer { run.finish() }
            try run.makeSample()
            try run.start(env: term.isEmpty ? [:] : ["TERM": term])
            var screen = try run.tmux.waitFor("the title", escapes: true) { titleLine($0).contains("Rigbook  200") }
            // Down past the window's end, back up past its top (both scroll), and down a few rows.
            let keys = Array(repeating: "j", count: 45) + Array(repeating: "k", count: 25)
                + Array(repeating: "j", count: 5)
            for key in keys {
                let before = screen
                try run.tmux.sendKeys(key)
                screen = try run.tmux.waitFor("the screen after \(key)", escapes: true) { $0 != before }
            }
            try run.tmux.waitFor("the bar on row 8", escapes: true) { selectedRows($0) == [8] }
            let walked = try run.tmux.capture(escapes: true)
            // Something else writes to the terminal; Ctrl-L paints over it, the whole screen anew.
            let tty = try run.tmux.display("#{pane_tty}")
            try "\u{1B}[5;5HNOT THE PROGRAM'S".write(toFile: tty, atomically: false, encoding: .utf8)
            try run.tmux.waitFor(text: "NOT THE PROGRAM'S")
            try run.tmux.sendKeys("C-l")
            // Painted from the top down: the key line at the bottom comes last (a repaint can reach tmux in parts;
            // its last cell is left blank where writing it would scroll the screen, as on `ansi`).
            let redrawn = try run.tmux.waitFor("the screen painted anew", escapes: true) {
                !$0.contains("NOT THE PROGRAM'S") && selectedRows($0) == [8] && $0.contains("F1 hel")
            }
            let walkedRows = screenCells(walked, width: 80), redrawnRows = screenCells(redrawn, width: 80)
            let differing = zip(walkedRows, redrawnRows).enumerated().filter { $0.element.0 != $0.element.1 }
                .map { "row \($0.offset):\n  walked  \($0.element.0.joined())\n  redrawn \($0.element.1.joined())" }
                .joined(separator: "\n")
            #expect(differing.isEmpty && walkedRows.count == redrawnRows.count, "rows that differ:\n\(differing)")
        }

        @Test(arguments: [("HUP", SIGHUP, 129), ("TERM", SIGTERM, 143)])
        func signalEndsTheProgramAndRestoresTheTerminal(_ name: String, _ signal: Int32, _ expected: Int) throws {
            let run = WrappedRun(tmux: try TmuxSession())
            defer { run.finish() }
            try run.makeSample()
            try run.start()
            try run.tmux.waitFor("the title \"Rigbook  200 assets\"") { titleLine($0).contains("Rigbook  200 assets") }
            let pid = try run.pid()
            // The pid is the program itself (the inner sh exec'd it), not a shell.
            let command = readFile("/proc/\(pid)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(command == "rigbook", "pid \(pid) is \(command ?? "gone"), not rigbook")
            try #require(kill(pid, signal) == 0, "kill -\(name) \(pid) failed: errno \(errno)")
            #expect(waitForProcessGone(pid), "rigbook (pid \(pid)) still running 10 s after SIG\(name)")
            let exit = try run.waitForExit()
            #expect(exit == "exit=\(expected)", "after SIG\(name)")
            try run.expectTerminalRestored()
        }

        @Test func dumbTerminalIsRefused() throws {
            let run = WrappedRun(tmux: try TmuxSession())
            defer { run.finish() }
            try run.start(env: ["TERM": "dumb"], stderrToFile: true)
            let exit = try run.waitForExit()
            #expect(exit == "exit=1")
            let message = readFile(run.errFile) ?? ""
            #expect(message.contains("TERM=dumb"), "stderr: \(message)")
            #expect(message.split(separator: "\n").count == 1, "stderr is not one line: \(message)")
            #expect(!fileExists(run.home), "the refused full-screen mode created the data home")
            let saved = readFile(run.before), restored = readFile(run.after)
            #expect(saved == restored, "terminal settings changed by a refusal")
        }

        /// Hostile testing: on the terminal the refusal ran past 80 columns and the terminal broke it mid-word.
        @Test func theRefusalOnATerminalBreaksAtSpaces() throws {
            let run = WrappedRun(tmux: try TmuxSession())
            defer { run.finish() }
            try run.start(env: ["TERM": "dumb"])
            #expect(try run.waitForExit() == "exit=1")
            let lines = try run.tmux.capture().split(separator: "\n").map {
                String($0.reversed().drop { $0 == " " }.reversed())
            }.filter { !$0.isEmpty }
            let start = try #require(lines.firstIndex { $0.hasPrefix("rigbook: this terminal") }, "\(lines)")
            let message = Array(lines[start...].prefix { !$0.isEmpty })
            #expect(message.count > 1, "\(message)")
            #expect(message.allSatisfy { $0.count <= 80 })
            #expect(message.joined(separator: " ") == "rigbook: this terminal (TERM=dumb) cannot show the full-screen "
                    + "register. Set TERM (e.g. xterm-256color) or use a subcommand such as `rigbook asset list`.",
                    "broken mid-word: \(message)")
        }

        @Test func stdoutNotATerminalIsRefusedInsideATerminal() throws {
            // stdin is the pane's tty but stdout goes to a file: still refused, nothing drawn into the file.
            let run = WrappedRun(tmux: try TmuxSession())
            defer { run.finish() }
            let binary = try Binary.path()
            let script = """
                cd \(shellQuote(run.dir.path)) || exit 1
                env RIGBOOK_TODAY=\(fixedToday) \(shellQuote(binary)) --home \(shellQuote(run.home)) > OUT 2> ERR
                echo "exit=$?" > EXIT.tmp && mv EXIT.tmp EXIT
                : > DONE
                exec sleep 600
                """
            try Data(script.utf8).write(to: URL(fileURLWithPath: run.dir.sub("run.sh")))
            try run.tmux.start("sh \(shellQuote(run.dir.sub("run.sh")))")
            let exit = try run.waitForExit()
            #expect(exit == "exit=1")
            #expect(readFile(run.dir.sub("OUT")) == "", "curses output went into the redirected stdout")
            #expect((readFile(run.errFile) ?? "").contains("terminal"), "stderr: \(readFile(run.errFile) ?? "")")
        }

        @Test func redrawsOnResizeAndDegradesWhenSmall() throws {
            let run = WrappedRun(tmux: try TmuxSession())
            defer { run.finish() }
            try run.makeSample()
            try run.start()
            try run.tmux.waitFor("the date at the right edge of 80 columns") { dateColumn($0) == 80 - 11 }
            try run.tmux.resize(width: 100, height: 30)
            try run.tmux.waitFor("a redraw at 100×30") { screen in
                let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
                return dateColumn(screen) == 100 - 11 && lines.count >= 30 && lines[29].contains("quit")
            }
            try run.tmux.resize(width: 30, height: 8)
            try run.tmux.waitFor("a redraw at 30×8") { screen in
                let lines = screen.split(separator: "\n", omittingEmptySubsequences: true)
                return titleLine(screen).contains("Rigbook") && lines.count <= 8
                    && lines.contains { $0.hasPrefix("TAG") }
            }
            try run.tmux.resize(width: 80, height: 24)
            try run.tmux.waitFor("a redraw back at 80×24") {
                dateColumn($0) == 80 - 11 && titleLine($0).contains("Rigbook  200 assets")
            }
            #expect(processIsAlive(try run.pid()), "rigbook died while being resized")
            try run.tmux.sendKeys("q")
            #expect(try run.waitForExit() == "exit=0")
            try run.expectTerminalRestored()
        }

        @Test func noColorDrawsWithoutColour() throws {
            let run = WrappedRun(tmux: try TmuxSession())
            defer { run.finish() }
            try run.makeSample()
            try run.start(env: ["NO_COLOR": "1"])
            try run.tmux.waitFor("the title \"Rigbook  200 assets\"") { titleLine($0).contains("Rigbook  200 assets") }
            let escaped = try run.tmux.capture(escapes: true)
            #expect(colourCodes(escaped).isEmpty,
                    "colour codes drawn with NO_COLOR=1: \(Set(colourCodes(escaped)).sorted())")
            // The selection still shows, in reverse video.
            #expect(selectedRows(escaped) == [3])
            try run.tmux.sendKeys("q")
            #expect(try run.waitForExit() == "exit=0")
        }
    }
}
