import Foundation
import Testing

extension RigbookCLITests {
    /// End to end, in a real terminal: an electrical asset added by keys, its test form filled by keys
    /// with a manual Pass refused over a failed earth reading, `kill -9`, the draft recovered, the reading fixed,
    /// a photo attached with Ctrl-O, the test saved and read back with `history --format json`.
    @Suite(.serialized) struct TestFormEndToEnd {
        @Test func addTestCrashRecoverSaveAndReadBack() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = "EL-0001"
            let first = try env.launch("first")
            try first.waitForList()

            // `a`: the new asset form, made an electrical Class I item by keys (Class I is the first class).
            try first.tmux.sendKeys("a")
            try first.tmux.waitFor("the new asset form") { e2eTitle($0).contains("New asset") }
            try first.tabTo("Kind of asset", exact: true)
            try first.tmux.sendKeys("e")
            try first.tmux.waitFor("the kind set to electrical") { $0.contains("Electrical (test and tag)") }
            for (label, text) in [("Tag", tag), ("Name / description", "Drill charger"), ("Location", "Workshop")] {
                try first.tabTo(label, exact: true)
                try first.tmux.sendLiteral(text)
                try first.tmux.waitFor("\(label) typed") { $0.contains(text) }
            }
            try first.tmux.sendKeys("C-s")
            try first.waitForList(assets: 31)

            try first.filterTo(tag)
            try first.tmux.sendKeys("i")
            try first.tmux.waitFor("the test form for \(tag)") { e2eTitle($0).contains("Test · \(tag) ·") }
            try first.tabTo("Technician", exact: true)
            try first.tmux.sendLiteral("Ana Reyes")
            try first.tmux.waitFor("the technician typed") { $0.contains("Ana Reyes") }
            try first.tabTo("Visual inspection", exact: true)
            try first.tmux.sendKeys("p")
            try first.tmux.waitFor("the visual inspection passed") { $0.contains("‹ Pass ›") }
            try first.tabTo("Earth continuity (Ω)", exact: true)
            try first.tmux.sendLiteral("2.5")
            try first.tmux.waitFor("the earth reading judged") { $0.contains("✗ FAIL 2.5 outside ≤ 1 Ω") }
            try first.tabTo("Insulation (MΩ)", exact: true)
            try first.tmux.sendLiteral("50")
            try first.tmux.waitFor("the insulation reading judged") { $0.contains("✓ PASS 50 within ≥ 1 MΩ") }
            try first.tabTo("Result", exact: true)
            try first.tmux.sendKeys("p")
            try first.tmux.waitFor("the manual Pass refused under the result") {
                $0.contains("A manual Pass cannot override a failed reading.")
            }
            try first.tmux.sendKeys("C-s")
            try first.tmux.waitFor("the save refused") {
                e2eLines($0).last { !$0.isEmpty }?.contains("Not saved:") == true
            }
            let lastKey = Date()

            // The debounced draft lands (a test draft, `Drafts/test-<uuid>.json`); then the process is killed.
            let uuid = try env.uuid(of: tag)
            let draft = env.draftsFolder + "/test-\(uuid).json"
            let written = poll(timeout: 10) {
                guard Date() > lastKey.addingTimeInterval(0.7), let object = e2eJSONObject(atPath: draft),
                      let values = object["values"] as? [String: Any] else { return false }
                return object["form_kind"] as? String == "test" && values["earth_continuity_ohm"] as? String == "2.5"
                    && values["result"] as? String == "pass"
            }
            #expect(written, "no test draft with the typed values at \(draft)")
            let pid = try first.pid()
            try #require(kill(pid, SIGKILL) == 0, "kill -9 \(pid): errno \(errno)")
            #expect(try first.waitForExit() == "exit=137")

            let second = try env.launch("second")
            try second.waitForList(assets: 31)
            try second.filterTo(tag)
            try second.tmux.sendKeys("i")
            let question = try second.tmux.waitFor("the recovery question") {
                $0.contains("Unsubmitted draft for \(tag)") && $0.contains("[ Recover ]")
            }
            #expect(question.contains("Earth continuity (Ω): “2.5”"), "the question does not preview the draft")
            try second.tmux.sendKeys("r")
            try second.tmux.waitFor("the recovered test form") {
                e2eTitle($0).contains("Test · \(tag) ·") && $0.contains("✗ FAIL 2.5")
            }
            try second.tabTo("Earth continuity (Ω)", exact: true)
            try second.tmux.sendKeys("C-u")
            try second.tmux.sendLiteral("0.4")
            try second.tmux.waitFor("the fixed reading passing") { $0.contains("✓ PASS 0.4 within ≤ 1 Ω") }
            // A photo of the plug, attached by its path: copied in and named by the draft at once.
            let photo = env.home + "/plug photo.jpg"
            try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4, 5]).write(to: URL(fileURLWithPath: photo))
            try second.tmux.sendKeys("C-o")
            try second.tmux.waitFor("the attach prompt") { $0.contains("Attach a file") }
            try second.tmux.sendLiteral(env.home + "/plug ph")
            try second.tmux.sendKeys("Tab")
            try second.tmux.waitFor("the path completed") { $0.contains("plug photo.jpg") }
            try second.tmux.sendKeys("Enter")
            try second.tmux.waitFor("the photo attached") { $0.contains("Attached plug photo.jpg") }
            try second.tmux.sendKeys("C-s")
            try second.tmux.waitFor("the authentication asked") { $0.contains("Authenticate and save?") }
            try second.tmux.sendKeys("y")
            try second.tmux.waitFor("the list saying the test was saved") { $0.contains("Saved test for \(tag)") }
            #expect(!fileExists(draft), "the draft is still there after the save")

            let history = runRigbookResult(["history", tag, "--format", "json"], home: env.home)
            try #require(history.status == 0, "history failed: \(history)")
            let entries = e2eJSONArray(history.stdout)
            let tests = entries.filter { $0["kind"] as? String == "electrical_test" }
            try #require(tests.count == 1, "expected one test: \(history.stdout)")
            let test = tests[0]
            #expect(test["earth_continuity_ohm"] as? Double == 0.4)
            #expect(test["insulation_mohm"] as? Double == 50)
            #expect(test["visual"] as? String == "pass")
            #expect(test["result"] as? String == "pass" && test["result_choice"] as? String == "pass")
            #expect(test["technician"] as? String == "Ana Reyes")
            #expect(test["test_date"] as? String == fixedToday)
            let attachments = test["attachments"] as? [[String: Any]] ?? []
            #expect(attachments.map { $0["name"] as? String } == ["plug photo.jpg"], "\(history.stdout)")
            #expect(attachments.first?["size"] as? Int == 9)
            let verdicts = test["verdicts"] as? [[String: Any]] ?? []
            #expect(verdicts.contains {
                $0["field"] as? String == "earthContinuity" && $0["outcome"] as? String == "pass"
            })
        }
    }
}
