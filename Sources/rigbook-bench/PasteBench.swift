import Foundation
import RigbookCore
import RigbookStore

/// A 1 MB bracketed paste into the notes field of the real program in tmux: how long until the
/// screen reports it, and until Esc (pressed right after the paste) shows the leave question.
enum PasteBench {
    static func run(executable: String, today: CalendarDate, runs: Int = 5) throws {
        guard TmuxDriver.isInstalled else { return }
        let home = temporaryHome("paste")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let register = try Register.open(path: DataHome(root: home).registerPath)
        try SampleData(count: 100, seed: 42, today: today).load(into: register)
        let buffer = home + "/paste.txt"
        // A megabyte of prose with line breaks and tabs, as a careless copy from a report would be.
        let line = "Sling inspected at the quay; stitching intact, label legible.\tOK\n"
        try String(repeating: line, count: (1 << 20) / line.utf8.count + 1).write(toFile: buffer, atomically: true,
                                                                                    encoding: .utf8)
        var shown = Samples(), escape = Samples()
        let environment = ["RIGBOOK_HOME": home, "RIGBOOK_TODAY": today.iso, "TERM": "xterm-256color"]
        for _ in 0..<runs {
            guard let driver = try? TmuxDriver(command: shellQuote(executable), environment: environment) else {
                return
            }
            defer { driver.close() }
            guard driver.waitFor({ $0.contains("100 assets") }) else { continue }
            for key in keysToInspectionNotes {
                driver.send("send-keys -t bench \(key)")
                driver.drain()
            }
            guard driver.waitFor({ $0.contains("▸ Notes") }) else { continue }
            driver.send("load-buffer \(shellQuote(buffer))")
            driver.drain()
            let start = now()
            driver.send("paste-buffer -p -t bench")
            driver.send("send-keys -t bench Escape")
            if driver.waitFor(timeout: 30, { $0.contains("Pasted") || $0.contains("Leave this inspection?") }) {
                shown.values.append((now() - start) * 1000)
            }
            if driver.waitFor(timeout: 30, { $0.contains("Leave this inspection?") }) {
                escape.values.append((now() - start) * 1000)
            }
            // Discard, so the next run opens a clean form rather than the recovery question.
            driver.send("send-keys -t bench d")
            driver.waitFor { $0.contains("100 assets") }
        }
        print("## A 1 MB bracketed paste into notes (tmux, 80×24), \(shown.values.count) runs")
        print("")
        print("| from the paste to | median / p99 | target |")
        print("|---|---|---|")
        print("| the screen answering (\"Pasted …\") | \(format(shown.median)) / \(format(shown.p99)) | < 1 s |")
        print("| Esc, sent right after it, showing the leave question | \(format(escape.median)) / "
              + "\(format(escape.p99)) | < 1 s |")
        print("")
    }
}
