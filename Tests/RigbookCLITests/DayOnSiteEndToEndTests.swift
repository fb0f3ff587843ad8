import Foundation
import Testing

// A day on site in a real terminal: the key counts are typed into the built binary in tmux, each key only once the
// screen it answers is drawn (as a person reads before pressing), and the register is read back by the binary.

extension RigbookCLITests {
    @Suite(.serialized) struct DayOnSiteEndToEnd {
        /// A remembered inspector, as after the first save of the day.
        static func rememberInspector(in env: E2EHome) throws {
            let profile = #"{"certification_number":"LEEA 0417","inspector_name":"Jane Roe"}"#
            try Data((profile + "\n").utf8).write(to: URL(fileURLWithPath: env.home + "/profile.json"))
        }

        /// The keys a test sent, counted as it sends them.
        final class KeyCount {
            var keys = 0
            let pane: E2EPane
            init(_ pane: E2EPane) { self.pane = pane }
            func press(_ key: String) throws {
                keys += 1
                try pane.tmux.sendKeys(key)
            }
        }

        @Test func aCleanPassTakesFourKeysFromTheList() throws {
            let env = try E2EHome()
            defer { env.finish() }
            try DayOnSiteEndToEnd.rememberInspector(in: env)
            let pane = try env.launch("pass")
            let list = try pane.waitForList()
            // The first row of the list is the one the selection is on: the most urgent asset.
            let tag = try #require(e2eLines(list).dropFirst(3).first?.split(separator: " ").first.map(String.init))
            let tagOnly = String(tag.prefix { $0 != "✎" && $0 != "!" })
            let before = e2eJSONArray(runRigbookResult(["history", tagOnly, "--format", "json"], home: env.home).stdout)
            let keys = KeyCount(pane)

            try keys.press("i")
            try pane.tmux.waitFor("the form open on the first check") { screen in
                e2eTitle(screen).contains("Inspection · \(tagOnly) ·") && screen.contains("▸ [ ] ID tag and WLL")
            }
            try keys.press("F2")
            try pane.tmux.waitFor("the checks ticked, Pass, the authentication focused") { screen in
                // The form scrolled down to the authentication; the checks are above it, off screen.
                screen.contains("All five checks ticked and the result set to Pass.") && screen.contains("‹ Pass ›")
                    && screen.contains("▸ [ ] I, Jane Roe, authenticate this report")
            }
            try keys.press("C-s")
            try pane.tmux.waitFor(text: "Authenticate and save?")
            try keys.press("y")
            let saved = try pane.tmux.waitFor("the list saying what was saved") { screen in
                screen.contains("Saved inspection for \(tagOnly)") && e2eTitle(screen).contains("Rigbook  30 assets")
            }
            #expect(keys.keys <= 5, "a clean pass took \(keys.keys) keys")
            #expect(keys.keys == 4)

            let after = e2eJSONArray(runRigbookResult(["history", tagOnly, "--format", "json"], home: env.home).stdout)
            #expect(after.count == before.count + 1, "one record more:\n\(saved)")
            let newest = try #require(after.first)
            #expect(string(newest, "result") == "pass")
            #expect(string(newest, "inspector_name") == "Jane Roe")
            #expect(string(newest, "certification_number") == "LEEA 0417")
            #expect(newest["confirmed"] as? Bool == true)
            for check in ["check_marking", "check_cuts", "check_deformation", "check_fittings", "check_corrosion"] {
                #expect(newest[check] as? Bool == true, "\(check)")
            }
            // The worklist kept its place: the selection is on another asset, not the one saved.
            let selectedRow = try #require(reverseVideoRows(try pane.tmux.capture(escapes: true)).first { $0 >= 3 })
            #expect(!e2eLines(saved)[selectedRow].hasPrefix(tagOnly), "the selection stayed on the saved asset")

            try pane.tmux.sendKeys("q")
            #expect(try pane.waitForExit() == "exit=0")
        }

        @Test func ctrlNWorksDownTheListAndTheListSeesAnotherProcess() throws {
            let env = try E2EHome()
            defer { env.finish() }
            try DayOnSiteEndToEnd.rememberInspector(in: env)
            let pane = try env.launch("next")
            try pane.waitForList()
            try pane.tmux.sendKeys("/")
            try pane.tmux.sendLiteral("is:overdue is:lifting")
            let filtered = try pane.tmux.waitFor("the overdue ones") { e2eTitle($0).contains("filter: ") }
            let tags = e2eLines(filtered).dropFirst(3).prefix(2).compactMap { $0.split(separator: " ").first }
                .map { String($0.prefix { $0 != "✎" && $0 != "!" }) }
            try #require(tags.count == 2, "the sample has two overdue assets:\n\(filtered)")
            try pane.tmux.sendKeys("Enter")
            try pane.tmux.sendKeys("i")
            try pane.tmux.waitFor("the form of \(tags[0])") { e2eTitle($0).contains("Inspection · \(tags[0]) ·") }
            try pane.tmux.sendKeys("F2")
            try pane.tmux.waitFor(text: "▸ [ ] I, Jane Roe, authenticate this report")
            try pane.tmux.sendKeys("C-n")
            try pane.tmux.waitFor(text: "Authenticate and save?")
            try pane.tmux.sendKeys("y")
            try pane.tmux.waitFor("the next overdue asset's form, opened by Ctrl-N") { screen in
                e2eTitle(screen).contains("Inspection · \(tags[1]) ·")
            }
            try pane.tmux.sendKeys("Escape")
            try pane.tmux.waitFor("the list again") { e2eTitle($0).contains("Rigbook  30 assets") }

            // Another process adds an asset: it shows within a second or so, without a key.
            let added = runRigbookResult(["asset", "add", "--tag", "ZZ-0001", "--name", "Added elsewhere",
                                          "--type", "shackle", "--wll", "1000", "--interval", "6"], home: env.home)
            try #require(added.status == 0, "\(added)")
            try pane.tmux.waitFor("the other process's asset counted", timeout: 5) {
                e2eTitle($0).contains("Rigbook  31 assets")
            }
            try pane.tmux.sendKeys("C-l")
            try pane.tmux.waitFor("the list redrawn") { e2eTitle($0).contains("Rigbook  31 assets") }
            try pane.tmux.sendKeys("q")
            #expect(try pane.waitForExit() == "exit=0")
        }
    }
}
