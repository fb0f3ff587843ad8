import Foundation
import RigbookCore
import RigbookStore

/// Key-to-screen in a real terminal: the built `rigbook`, `vim`, and `vim` a second time, each in a tmux server of
/// its own at 80×24, driven through control-mode clients. The programs take turns key by key (the order rotating),
/// so a noisy spell on the machine falls on all of them alike: measured one after the other, two runs of one
/// program landed 30–160 µs apart and decided the target more than the programs did (PERFORMANCE.md, "How to
/// profile").
enum TerminalBench {
    /// One program under test: how to start it, when it is ready, the keys that bring it to where it is measured.
    struct Program {
        var command: String
        var environment: [String: String]
        var ready: (String) -> Bool
        var setup: [String]
    }

    /// `samples`: a CSV file to write every key's time to (key, program, round, µs), for a look at the tail.
    static func run(executable: String, today: CalendarDate, keys: Int = 400, samples: String? = nil) throws {
        guard TmuxDriver.isInstalled else {
            print("Key to screen: skipped — tmux is not installed (apt-get install tmux).\n")
            return
        }
        let home = temporaryHome("terminal")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let register = try Register.open(path: DataHome(root: home).registerPath)
        try SampleData(count: 1_000, seed: 42, today: today).load(into: register)
        let text = home + "/vim-file.txt"
        try (1...1_000).map { "line \($0) of a plain text file for vim" }.joined(separator: "\n")
            .write(toFile: text, atomically: true, encoding: .utf8)

        let rigbookEnvironment = ["RIGBOOK_HOME": home, "RIGBOOK_TODAY": today.iso, "TERM": "xterm-256color"]
        func rigbook(_ setup: [String]) -> Program {
            Program(command: shellQuote(executable), environment: rigbookEnvironment,
                    ready: { $0.contains("1000 assets") }, setup: setup)
        }
        func vim(_ setup: [String]) -> Program {
            Program(command: "vim -u NONE -N -n \(shellQuote(text))", environment: ["TERM": "xterm-256color"],
                    ready: { $0.contains("line 1 of") }, setup: setup)
        }
        let notes = keysToInspectionNotes
        let rows = [
            ("↓ (`j`): rigbook list / vim normal mode", measure([rigbook([]), vim([]), vim([])], key: "j", count: keys)),
            ("type `a`: rigbook notes field / vim insert mode",
             measure([rigbook(notes), vim(["i"]), vim(["i"])], key: "a", count: keys)),
        ]

        if let samples {
            var csv = "key,program,round,microseconds\n"
            for (name, measured) in rows {
                for (program, m) in zip(["rigbook", "vim", "vim again"], measured) {
                    for (round, ms) in m.time.values.enumerated() {
                        csv += "\(name.hasPrefix("↓") ? "down" : "type"),\(program),\(round),\(Int(ms * 1000))\n"
                    }
                }
            }
            try csv.write(toFile: samples, atomically: true, encoding: .utf8)
        }
        print("## Key to screen in tmux (80×24), \(keys) keys each, the programs in turn")
        print("")
        print("| key | rigbook median / p99 | vim median / p99 | target: ≤ vim | rigbook − vim, paired median "
              + "| vim again: median / p99, paired median | bytes a key: rigbook / vim |")
        print("|---|---|---|---|---|---|---|")
        for (name, measured) in rows {
            guard measured.count == 3 else { print("| \(name) | — | — | ✗ (a program did not start) | | | |"); continue }
            let (ours, theirs, again) = (measured[0], measured[1], measured[2])
            let met = ours.time.median <= theirs.time.median && ours.time.p99 <= theirs.time.p99
            print("| \(name) | \(format(ours.time.median)) / \(format(ours.time.p99)) | "
                  + "\(format(theirs.time.median)) / \(format(theirs.time.p99)) | \(met ? "✓" : "✗") | "
                  + "\(signed(pairedMedian(ours, theirs))) | "
                  + "\(format(again.time.median)) / \(format(again.time.p99)), \(signed(pairedMedian(again, theirs))) | "
                  + bytes(ours, theirs, scrolls: name.hasPrefix("↓")) + " |")
        }
        print("")
        print("Paired: the median of (this program's time − vim's) over the keys, each pair sent within ~70 ms. "
              + "\"vim again\" is a second vim in the same turns: how far one program lands from itself here.")
        print("")
    }

    /// The bytes a key writes, rigbook's and vim's medians. For ↓ in two parts: the keys that move the selection
    /// within the screen (the first 18: rigbook's list shows 20 rows at 80×24, vim 23 lines) and the keys that
    /// scroll (from the 30th on), where each program must write the row or line that comes into view.
    static func bytes(_ ours: Measured, _ theirs: Measured, scrolls: Bool) -> String {
        guard scrolls else { return "\(Int(ours.bytes.median)) / \(Int(theirs.bytes.median))" }
        func median(_ m: Measured, _ rounds: PartialRangeFrom<Int>, upTo end: Int? = nil) -> Int {
            let values = Array(m.bytes.values.dropFirst(rounds.lowerBound).prefix(end ?? Int.max))
            return values.isEmpty ? 0 : Int(Samples(values: values).median)
        }
        return "moving \(median(ours, 0..., upTo: 18)) / \(median(theirs, 0..., upTo: 18)), "
            + "scrolling \(median(ours, 30...)) / \(median(theirs, 30...))"
    }

    /// Key-to-screen times (ms) and the bytes written to the terminal for each key.
    struct Measured {
        var time = Samples()
        var bytes = Samples()
    }

    /// `count` rounds of `key`: in each, every program gets the key once (the first of a round rotating), its
    /// time to first output and its bytes taken. Empty when a program does not start or never gets ready.
    static func measure(_ programs: [Program], key: String, count: Int) -> [Measured] {
        var drivers: [TmuxDriver] = []
        defer { drivers.forEach { $0.close() } }
        for program in programs {
            guard let driver = try? TmuxDriver(command: program.command, environment: program.environment)
            else { return [] }
            drivers.append(driver)
        }
        for (driver, program) in zip(drivers, programs) {
            guard driver.waitFor(program.ready) else { return [] }
            for setupKey in program.setup { driver.send("send-keys -t bench \(setupKey)"); driver.drain() }
        }
        drivers.forEach { $0.drain() }
        var measured = Array(repeating: Measured(), count: programs.count)
        for round in 0..<count {
            for turn in 0..<drivers.count {
                let index = (round + turn) % drivers.count
                // A key lost (no output in 2 s) leaves a gap in that program's samples only: pairs are taken by round.
                let result = drivers[index].keyToScreen(key)
                measured[index].time.values.append(result.map { $0.seconds * 1000 } ?? .nan)
                measured[index].bytes.values.append(result.map { Double($0.bytes) } ?? .nan)
            }
        }
        return measured.map { m in
            var kept = m
            kept.time.values = m.time.values.filter { !$0.isNaN }
            kept.bytes.values = m.bytes.values.filter { !$0.isNaN }
            return kept
        }
    }

    /// The median of the differences `a − b` round by round (ms).
    static func pairedMedian(_ a: Measured, _ b: Measured) -> Double {
        Samples(values: zip(a.time.values, b.time.values).map { $0 - $1 }).median
    }

    static func signed(_ ms: Double) -> String { ms.isNaN ? "—" : String(format: "%+.0f µs", ms * 1000) }
}
