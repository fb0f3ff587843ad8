import Foundation
import Testing

// End-to-end tests of the batch inspection on the built binary in tmux: the keys a day on site
// costs, counted one by one with the screen awaited after each, and a batch draft that survives kill -9.

/// Sends keys one at a time, waiting after each for the screen it should bring, and counts them.
final class E2EKeyCounter {
    let pane: E2EPane
    private(set) var count = 0

    init(_ pane: E2EPane) { self.pane = pane }

    /// The line of the focused field: the last line with the focus mark (the asset list's selection is above).
    static func focusLine(_ screen: String) -> String { e2eLines(screen).last { $0.hasPrefix("▸") } ?? "" }

    @discardableResult
    func press(_ key: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
               until done: @escaping (String) -> Bool) throws -> String {
        try pane.tmux.sendKeys(key)
        count += 1
        return try pane.tmux.waitFor(what, sourceLocation: sourceLocation, done)
    }

    /// ↓ (or another move), then the focus mark on another line.
    func move(_ key: String = "Down", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = E2EKeyCounter.focusLine(try pane.tmux.capture())
        try press(key, "the focus to move from “\(before)”", sourceLocation: sourceLocation) {
            E2EKeyCounter.focusLine($0) != before
        }
    }
}

extension RigbookCLITests {
    @Suite(.serialized) struct BatchEndToEnd {
        static let inspector = "Ann Smith", certificate = "LEEA 12345"

        /// A sample home whose profile remembers the inspector, as after a first save.
        func home() throws -> E2EHome {
            let env = try E2EHome()
            let profile = "{\"certification_number\": \"\(Self.certificate)\", "
                + "\"inspector_name\": \"\(Self.inspector)\"}\n"
            try Data(profile.utf8).write(to: URL(fileURLWithPath: env.home + "/profile.json"))
            return env
        }

        /// The target: 10 identical clean passes, from the list to the saved list, in ≤ 20 keys:
        /// m × 10, I, F2 (the five checks and Pass), Ctrl-S, y (authenticate and save) = 14.
        @Test func tenCleanPassesInOneBatchCountTheirKeys() throws {
            let env = try home()
            defer { env.finish() }
            let before = env.assets()
            let pane = try env.launch("batch")
            try pane.waitForList()
            try pane.showLiftingOnly()
            let keys = E2EKeyCounter(pane)
            for marked in 1...10 {
                try keys.press("m", "\(marked) marked") { e2eTitle($0).contains("• \(marked) marked") }
            }
            try keys.press("I", "the batch form for 10 assets") {
                e2eTitle($0).contains("Batch inspection · 10 assets")
            }
            try keys.press("F2", "the five checks and Pass") {
                $0.contains("All five checks ticked and the result set to Pass")
            }
            try keys.press("C-s", "Authenticate and save?") { $0.contains("Authenticate and save?") }
            let saved = try keys.press("y", "the batch saved") { $0.contains("Saved 10 inspections in one batch") }
            #expect(!e2eTitle(saved).contains("marked"), "the saved assets are still marked:\n\(saved)")
            #expect(keys.count <= 20, "10 clean passes took \(keys.count) keys")
            print("batch of 10 clean passes: \(keys.count) keys")

            // The register, read by the binary: ten new records, one visit, each its own session.
            var visits = Set<String>(), sessions = Set<String>(), passed = 0
            for asset in before {
                let tag = try #require(string(asset, "tag"))
                let records = e2eJSONArray(runRigbookResult(["history", tag, "--format", "json"],
                                                            home: env.home).stdout)
                for record in records where string(record, "inspection_date") == fixedToday
                    && string(record, "inspector_name") == Self.inspector {
                    passed += 1
                    sessions.insert(string(record, "draft_id") ?? "")
                    visits.insert(String((string(record, "draft_id") ?? "").prefix { $0 != ":" }))
                    #expect(string(record, "result") == "pass")
                }
            }
            #expect(passed == 10 && sessions.count == 10 && visits.count == 1, "\(passed) records, visits \(visits)")
            try pane.tmux.sendKeys("q")
            #expect(try pane.waitForExit() == "exit=0")
        }

        /// kill -9 with a batch open: its draft holds every asset and value, and D recovers the whole batch.
        @Test func killNineLeavesABatchDraftThatRecoversEveryAsset() throws {
            let env = try home()
            defer { env.finish() }
            let first = try env.launch("first")
            try first.waitForList()
            try first.showLiftingOnly()
            for marked in 1...4 {
                try first.tmux.sendKeys("m")
                try first.tmux.waitFor("\(marked) marked") { e2eTitle($0).contains("• \(marked) marked") }
            }
            try first.tmux.sendKeys("I")
            // The whole batch drawn, not just its title: a capture may land while the terminal is half-way
            // through the frame that replaces the list.
            func batchDrawn(_ screen: String) -> Bool {
                let lines = e2eLines(screen)
                return e2eTitle(screen).contains("Batch inspection · 4 assets") && lines.count > 6
                    && lines[1].contains("NEXT EXAM BY") && lines[2...5].allSatisfy { $0.contains("at save") }
            }
            let form = try first.tmux.waitFor("the batch form", batchDrawn)
            let tags = e2eLines(form).dropFirst(2).prefix(4).map { String($0.dropFirst(2).prefix { $0 != " " }) }
            // Space ticks a check and moves on to the next.
            try first.tmux.sendKeys("Space")
            try first.tmux.waitFor("the first check ticked") { e2eLines($0).contains { $0.contains("[x]") } }
            try first.tmux.sendKeys("Space")
            try first.tmux.waitFor("the draft written") { e2eTitle($0).contains("✎ draft saved")
                && e2eLines($0).filter { $0.contains("[x]") }.count == 2 }
            let draftFile = try #require(folderFiles(env.draftsFolder).first { $0.hasPrefix("batch-") },
                                         "no batch draft in \(folderFiles(env.draftsFolder))")
            let draft = try #require(e2eJSONObject(atPath: env.draftsFolder + "/" + draftFile))
            let assets = try #require(draft["assets"] as? [[String: Any]])
            #expect(assets.compactMap { $0["asset_tag"] as? String } == tags, "\(assets) vs \(tags)")
            let pid = try first.pid()
            try #require(kill(pid, SIGKILL) == 0)
            #expect(try first.waitForExit() == "exit=137")

            let second = try env.launch("second")
            try second.waitForList()
            try second.tmux.sendKeys("D")
            try second.tmux.waitFor("the batch draft listed") { $0.contains("4 assets") && $0.contains("batch") }
            try second.tmux.sendKeys("Enter")
            let back = try second.tmux.waitFor("the batch back", batchDrawn)
            for tag in tags { #expect(back.contains(tag), "\(tag) is missing:\n\(back)") }
            #expect(e2eLines(back).filter { $0.contains("[x]") }.count == 2, "the ticks are not back:\n\(back)")
            try second.tmux.sendKeys("Escape")
            try second.tmux.waitFor("the leave dialog") { $0.contains("[ Discard ]") }
            try second.tmux.sendKeys("d")
            try second.tmux.waitFor("the Drafts screen without it") { $0.contains("Drafts · 0 unsubmitted") }
            #expect(!folderFiles(env.draftsFolder).contains { $0.hasPrefix("batch-") })
        }
    }
}

private func folderFiles(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}
