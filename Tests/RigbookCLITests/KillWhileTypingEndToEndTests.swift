import Foundation
import Testing
import RigbookTestSupport

// kill -9 while a person types: at twenty characters a second, killed at seeded-random moments (between two keys,
// at any point of the 50 ms between them), then recovered by keys as a person would. Every character the pane
// showed at the last look before the kill is in the recovered form.

extension RigbookCLITests {
    @Suite(.serialized) struct KillWhileTypingEndToEnd {
        /// The characters typed: letters and digits only, so each shows as itself in one cell.
        private static let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")

        @Test func everyCharacterShownBeforeAKillIsRecovered() throws {
            let env = try E2EHome()
            defer { env.finish() }
            var random = SeededRandom(seed: 20_261_207)
            let rounds = 10
            for round in 0..<rounds {
                let tag = try env.tag(at: round)
                // A prefix no other text of the form holds, then the characters typed at 20 a second.
                let text = "Q" + String((0..<24).map { _ in random.pick(Self.alphabet) })
                let typedBeforeKill = 1 + random.below(text.count - 1)
                let killAfterMilliseconds = random.below(50)

                let pane = try env.launch("typing-\(round)")
                try pane.waitForList()
                try pane.openForm(tag)  // no profile: the form opens on the inspector's name
                var lastShown = ""
                let start = Date()
                for (index, character) in text.prefix(typedBeforeKill).enumerated() {
                    // Twenty characters a second: each key at its own slot of 50 ms (a pace, not a wait for
                    // anything: nothing below depends on how long the program took).
                    try Self.reach(start.addingTimeInterval(Double(index) * 0.05))
                    try pane.tmux.sendLiteral(String(character))
                    lastShown = try pane.tmux.capture()
                }
                // The kill comes some milliseconds into the next slot, after one more look at the pane.
                try Self.reach(start.addingTimeInterval(Double(typedBeforeKill - 1) * 0.05
                                                        + Double(killAfterMilliseconds) / 1000))
                lastShown = try pane.tmux.capture()
                let pid = try pane.pid()
                try #require(kill(pid, SIGKILL) == 0, "kill -9 \(pid): errno \(errno)")
                #expect(poll { !processIsAlive(pid) }, "rigbook (pid \(pid)) still alive after kill -9")
                #expect(try pane.waitForExit() == "exit=137")
                let shown = Self.longestTypedPrefix(of: text, on: lastShown)

                // Recovered by keys: the list, the asset, i, then r on the question.
                let again = try env.launch("recover-\(round)")
                try again.waitForList()
                try again.filterTo(tag)
                try again.tmux.sendKeys("i")
                // A key read but not yet shown may be in the journal: then there is a draft to recover too.
                let opened = try again.tmux.waitFor("the recovery question or the form for \(tag)") {
                    $0.contains("[ Recover ]") || e2eTitle($0).contains("Inspection · \(tag) ·")
                }
                #expect(shown.isEmpty || opened.contains("[ Recover ]"), "no draft offered back:\n\(opened)")
                if opened.contains("[ Recover ]") { try again.tmux.sendKeys("r") }
                let form = try again.tmux.waitFor("the form for \(tag)") {
                    e2eTitle($0).contains("Inspection · \(tag) ·")
                }
                #expect(form.contains(shown),
                        """
                        round \(round): \(typedBeforeKill) typed, killed \(killAfterMilliseconds) ms later; \
                        shown before the kill: \(shown); recovered:
                        \(form)
                        """)
                try again.tmux.sendKeys("Escape")
                try again.tmux.waitFor("the leave question") { $0.contains("Leave this inspection?") }
                try again.tmux.sendKeys("d")
                try again.waitForList()
                try again.tmux.sendKeys("q")
                #expect(try again.waitForExit() == "exit=0")
            }
        }

        /// Polls the clock (every millisecond, a second at most) until `instant`: the typing's pace.
        private static func reach(_ instant: Date) throws {
            try #require(poll(timeout: 1, every: 1_000) { Date() >= instant }, "the clock never reached \(instant)")
        }

        /// The longest start of `text` the screen shows (the part typed before the kill that had reached the pane).
        private static func longestTypedPrefix(of text: String, on screen: String) -> String {
            var length = text.count
            while length > 0, !screen.contains(String(text.prefix(length))) { length -= 1 }
            return String(text.prefix(length))
        }
    }
}
