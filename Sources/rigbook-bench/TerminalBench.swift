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

        var rows: [(String, Samples, Samples)] = []
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

        print("## Key to screen in tmux (80×24), \(rigbookMove.values.count) keys each")
        print("")
        print("| key | rigbook median / p99 | vim median / p99 |")
        print("|---|---|---|")
        for (name, a, b) in rows {
            print("| \(name) | \(format(a.median)) / \(format(a.p99)) | \(format(b.median)) / \(format(b.p99)) |")
        }
        print("")
    }

    static func measure(command: String, environment: [String: String], ready: (String) -> Bool,
                        setup: [String], key: String, count: Int = 200) -> Samples {
        var samples = Samples()
        guard let driver = try? TmuxDriver(command: command, environment: environment) else { return samples }
        defer { driver.close() }
        guard driver.waitFor(ready) else { return samples }
        for setupKey in setup { driver.send("send-keys -t bench \(setupKey)"); driver.drain() }
        for _ in 0..<count {
            if let seconds = driver.keyToScreen(key) { samples.values.append(seconds * 1000) }
        }
        return samples
    }
}
