import Foundation
import RigbookCore
import RigbookStore

/// The loss window under `kill -9`: type at 20 characters a second in tmux, kill at a random moment
/// (while typing, or after a pause), and count what the next start can get back — from rigbook's
/// draft file, and from vim's swap file (`vim -r`).
enum LossBench {
    struct Outcome {
        var lost: [Int] = []
        var writesPerSecond: [Double] = []
    }

    static func run(executable: String, today: CalendarDate, kills: Int = 20) throws {
        guard TmuxDriver.isInstalled else {
            print("Loss window: skipped — tmux is not installed.\n")
            return
        }
        var random = SystemRandomNumberGenerator()
        let home = temporaryHome("loss")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let register = try Register.open(path: DataHome(root: home).registerPath)
        try SampleData(count: 50, seed: 42, today: today).load(into: register)

        var results: [(String, Outcome, Outcome)] = []
        for pause in [false, true] {
            var rigbook = Outcome(), vim = Outcome()
            for _ in 0..<kills {
                let count = Int.random(in: 12...40, using: &random)
                if let (lost, rate) = rigbookRun(executable: executable, home: home, today: today, characters: count,
                                                 pause: pause) {
                    rigbook.lost.append(lost)
                    if !pause { rigbook.writesPerSecond.append(rate) }
                }
                if let lost = vimRun(home: home, characters: count, pause: pause) { vim.lost.append(lost) }
            }
            results.append((pause ? "after a 0.6 s pause" : "while typing (kill at a random moment)", rigbook, vim))
        }
        print("## Loss window under kill -9 (typing 20 characters a second, \(kills) kills each)")
        print("")
        print("| when killed | rigbook lost: median / max | vim lost: median / max | target: 0 lost |")
        print("|---|---|---|---|")
        for (name, a, b) in results {
            let rigbookLost = "\(median(a.lost)) / \(a.lost.max() ?? -1) characters"
            let vimLost = "\(median(b.lost)) / \(b.lost.max() ?? -1) characters"
            let met = !a.lost.isEmpty && a.lost.allSatisfy { $0 == 0 }
            print("| \(name) | \(rigbookLost) | \(vimLost) | \(met ? "✓" : "✗") |")
        }
        let rates = results[0].1.writesPerSecond
        if !rates.isEmpty {
            print("")
            print(String(format: "rigbook draft writes per second while typing continuously: %.2f (median of %d runs)",
                         rates.sorted()[rates.count / 2], rates.count))
        }
        print("")
    }

    static func median(_ values: [Int]) -> Int { values.isEmpty ? -1 : values.sorted()[values.count / 2] }

    /// Types into the notes of an inspection form and kills rigbook; returns characters lost and draft writes a second.
    static func rigbookRun(executable: String, home: String, today: CalendarDate, characters: Int,
                           pause: Bool) -> (Int, Double)? {
        let drafts = DataHome(root: home).draftsFolder
        try? FileManager.default.removeItem(atPath: drafts)
        let environment = ["RIGBOOK_HOME": home, "RIGBOOK_TODAY": today.iso, "TERM": "xterm-256color"]
        guard let driver = try? TmuxDriver(command: shellQuote(executable), environment: environment)
        else { return nil }
        defer { driver.close() }
        guard driver.waitFor({ $0.contains("50 assets") }) else { return nil }
        for key in keysToInspectionForm { driver.send("send-keys -t bench \(key)") }
        guard driver.waitFor({ $0.contains("Inspection ·") }) else { return nil }
        // The form opens on the inspector's name (no profile): eight Tabs to the notes.
        for _ in 0..<8 { driver.send("send-keys -t bench Tab") }
        guard driver.waitFor({ $0.contains("▸ Notes") }) else { return nil }
        let started = now()
        for _ in 0..<characters {
            driver.send("send-keys -t bench -l x")
            driver.drain(quiet: 0.05, limit: 0.05)
        }
        var characters = characters
        if pause { driver.drain(quiet: 0.6, limit: 0.6) } else {
            // One more key, and the kill once the program has answered it (it has read every key typed: a key
            // still in the terminal's buffer is the kernel's, not the program's), a random moment later.
            characters += driver.keyToScreen("-l x") == nil ? 0 : 1
            usleep(UInt32.random(in: 0...20_000))
        }
        let typing = now() - started
        killPane(driver)
        // What the next start would offer back: the draft file, with its keystroke journal.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: drafts)) ?? []
        guard let name = names.first(where: { $0.hasSuffix(".json") || $0.hasSuffix(".journal") }),
              let id = name.split(separator: ".").first.map(String.init),
              let draft = try? DraftStore(home: DataHome(root: home)).read(id: id)
        else { return (characters, 0) }
        let fileRevision = (try? JSONDecoder().decode(DraftFile.self, from: Data(contentsOf: URL(
            fileURLWithPath: drafts + "/" + id + ".json"))))?.revision ?? 0
        return (characters - draft.values.notes.count, Double(fileRevision) / max(typing, 0.001))
    }

    /// The same typing into vim's insert mode, then `vim -r` on the swap file.
    static func vimRun(home: String, characters: Int, pause: Bool) -> Int? {
        let file = home + "/vim-loss.txt"
        try? FileManager.default.removeItem(atPath: home + "/.vim-loss.txt.swp")
        try? "\n".write(toFile: file, atomically: true, encoding: .utf8)
        guard let driver = try? TmuxDriver(command: "vim -u NONE -N \(shellQuote(file))",
                                           environment: ["TERM": "xterm-256color"])
        else { return nil }
        defer { driver.close() }
        guard driver.waitFor({ $0.contains("vim-loss.txt") || $0.contains("~") }) else { return nil }
        driver.send("send-keys -t bench i")
        driver.drain()
        for _ in 0..<characters {
            driver.send("send-keys -t bench -l x")
            driver.drain(quiet: 0.05, limit: 0.05)
        }
        if pause { driver.drain(quiet: 0.6, limit: 0.6) }
        else { driver.drain(quiet: Double.random(in: 0...0.05), limit: 0.05) }
        killPane(driver)
        let out = home + "/vim-recovered.txt"
        try? FileManager.default.removeItem(atPath: out)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["vim", "-u", "NONE", "-N", "-n", "-es", "-r", file, "-c", "w! \(out)", "-c", "qa!"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
        let recovered = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: home + "/.vim-loss.txt.swp")
        return characters - recovered.filter { $0 == "x" }.count
    }

    static func killPane(_ driver: TmuxDriver) {
        let pid = output(of: ["tmux", "-L", driver.socket, "display", "-p", "-t", "bench", "#{pane_pid}"])
        if let pid = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)) { kill(pid, SIGKILL) }
    }
}
