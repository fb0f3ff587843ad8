import Foundation
import RigbookCore
import RigbookStore

/// Key-to-screen in a real terminal: the built `rigbook` and `vim`, each in tmux at 80×24, the same
/// keys through one control-mode client.
enum TerminalBench {
    static func run(executable: String, today: CalendarDate) throws {
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

        var rows: [(String, Measured, Measured)] = []
        // Moving down a list / a file.
        let rigbookEnvironment = ["RIGBOOK_HOME": home, "RIGBOOK_TODAY": today.iso, "TERM": "xterm-256color"]
        let rigbookMove = measure(command: "\(shellQuote(executable))", environment: rigbookEnvironment,
                                  ready: { $0.contains("1000 assets") }, setup: [], key: "j")
        let vimMove = measure(command: "vim -u NONE -N -n \(shellQuote(text))", environment: ["TERM": "xterm-256color"],
                              ready: { $0.contains("line 1 of") }, setup: [], key: "j")
        rows.append(("↓ (`j`): rigbook list / vim normal mode", rigbookMove, vimMove))
        // Typing a character into text.
        let rigbookType = measure(command: "\(shellQuote(executable))", environment: rigbookEnvironment,
                                  ready: { $0.contains("1000 assets") },
                                  setup: ["i"] + Array(repeating: "Tab", count: 8), key: "a")
        let vimType = measure(command: "vim -u NONE -N -n \(shellQuote(text))", environment: ["TERM": "xterm-256color"],
                              ready: { $0.contains("line 1 of") }, setup: ["i"], key: "a")
        rows.append(("type `a`: rigbook notes field / vim insert mode", rigbookType, vimType))
        // vim against itself, measured again: how far apart two runs of one program land here (the bench's spread).
        let vimMoveAgain = measure(command: "vim -u NONE -N -n \(shellQuote(text))",
                                   environment: ["TERM": "xterm-256color"], ready: { $0.contains("line 1 of") },
                                   setup: [], key: "j")

        print("## Key to screen in tmux (80×24), \(rigbookMove.time.values.count) keys each")
        print("")
        print("| key | rigbook median / p99 | vim median / p99 | target: ≤ vim | bytes a key: rigbook / vim |")
        print("|---|---|---|---|---|")
        for (name, a, b) in rows {
            let met = a.time.median <= b.time.median && a.time.p99 <= b.time.p99
            print("| \(name) | \(format(a.time.median)) / \(format(a.time.p99)) | "
                  + "\(format(b.time.median)) / \(format(b.time.p99)) | \(met ? "✓" : "✗") | "
                  + "\(Int(a.bytes.median)) / \(Int(b.bytes.median)) |")
        }
        print("")
        print("The bench's own spread, vim's `j` measured a second time in this run: median "
              + "\(format(vimMoveAgain.time.median)) / p99 \(format(vimMoveAgain.time.p99)) against the row above's "
              + "\(format(vimMove.time.median)) / \(format(vimMove.time.p99)) (one program against itself passes "
              + "the target only about half the time; see PERFORMANCE.md, seventh pass).")
        print("")
    }

    /// Key-to-screen times (ms) and the bytes written to the terminal for each key.
    struct Measured {
        var time = Samples()
        var bytes = Samples()
    }

    static func measure(command: String, environment: [String: String], ready: (String) -> Bool,
                        setup: [String], key: String, count: Int = 200) -> Measured {
        var measured = Measured()
        guard let driver = try? TmuxDriver(command: command, environment: environment) else { return measured }
        defer { driver.close() }
        guard driver.waitFor(ready) else { return measured }
        for setupKey in setup { driver.send("send-keys -t bench \(setupKey)"); driver.drain() }
        for _ in 0..<count {
            if let (seconds, bytes) = driver.keyToScreen(key) {
                measured.time.values.append(seconds * 1000)
                measured.bytes.values.append(Double(bytes))
            }
        }
        return measured
    }
}
