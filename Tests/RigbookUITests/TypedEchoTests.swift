import Testing
import RigbookTestSupport
@testable import RigbookUI
import RigbookApp
import RigbookCore
import RigbookStore

/// Issue 17, key to screen: a character typed at the end of a text field is written as one cell before the frame is
/// made, and the frame is then diffed against the screen with it. Every step of every harness applies the echo and
/// checks that the terminal ends with the frame (`Harness.checkScreen`); these tests say when there is an echo and
/// that it is the whole of what a plain typed character changes.
@Suite("The typed character's echo")
struct TypedEchoTests {
    static let profile = Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1")

    private func notesForm() throws -> FormHarness {
        let h = try FormHarness(profile: TypedEchoTests.profile)
        h.press(.char("i"))
        h.focus(.notes)
        return h
    }

    @Test("a character typed at the end of the notes is its echo and nothing more")
    func typedAtTheEndIsTheEcho() throws {
        let h = try notesForm()
        h.type("Hook latch")
        for character in " worn" {
            let before = try #require(h.frame.cursor)
            h.press(.char(character))
            let echo = try #require(h.harness.lastEcho, "no echo for \(character)")
            #expect(echo.update.runs.count == 1)
            #expect(echo.update.runs.first?.text == String(character))
            #expect(echo.update.runs.first?.x == before.x && echo.update.runs.first?.y == before.y)
            #expect(echo.update.runs.first?.style.underline == true)
            #expect(echo.cursor?.x == before.x + 1 && echo.cursor?.y == before.y)
            #expect(h.harness.lastRuns.isEmpty, "the frame after the echo still drew \(h.harness.lastRuns)")
        }
        #expect(h.form?.values.notes == "Hook latch worn")
        #expect(h.screen.contains { $0.contains("Hook latch worn") })
    }

    /// The rules a typed character may break are judged after its echo is written (`FormState.settleChecks`): by
    /// the frame that follows, and before the next key (a save in the same burst judges what was typed).
    @Test("a typed character's rules are judged once it is shown, before anything reads them")
    func checksAfterTheEcho() throws {
        let h = try FormHarness(profile: TypedEchoTests.profile)
        h.openFormOnInspectorName()
        h.press(.end)
        for _ in 0..<"Ann Smith".count { h.press(.backspace) }
        #expect(h.form?.problems.contains { $0.field == .inspectorName } == true)
        for character in "Bo" {
            h.press(.char(character))
            #expect(h.harness.lastEcho != nil, "no echo for \(character)")
            let form = try #require(h.form)
            #expect(form.problems == form.gateProblems(), "the frame after \(character) shows rules not judged")
        }
        #expect(h.form?.problems.contains { $0.field == .inspectorName } == false)
        // Typed and then straight away the next key, before any frame: that key finds the rules judged.
        h.focus(.notes)
        h.harness.burst([.char("x"), .tab])
        let form = try #require(h.form)
        #expect(form.problems == form.gateProblems())
    }

    @Test("a single-line field echoes too")
    func singleLineField() throws {
        let h = try FormHarness(profile: TypedEchoTests.profile)
        h.openFormOnInspectorName()
        h.press(.end)
        h.press(.char("x"))
        #expect(h.harness.lastEcho?.update.runs.first?.text == "x")
        #expect(h.form?.values.inspectorName == "Ann Smithx")
    }

    @Test("no echo where the character is not simply added at the end, or not alone")
    func noEcho() throws {
        let h = try notesForm()
        h.type("ac")
        h.press(.left)
        h.press(.char("b"))  // inserted before the last character: the row moves
        #expect(h.harness.lastEcho == nil)
        #expect(h.form?.values.notes == "abc")
        h.press(.end)
        h.press(.char("王"))  // two columns
        #expect(h.harness.lastEcho == nil)
        h.press(.char("\u{301}"))  // a combining mark joins the character before it
        #expect(h.harness.lastEcho == nil)
        // Two keys before one frame: the first was echoed ahead of its key (`TypedEchoAhead`), before the loop could
        // know a second was coming; the second is left to the frame.
        h.harness.burst([.char("d"), .char("e")])
        #expect(h.harness.lastEcho?.update.runs.map(\.text) == ["d"])
        h.press(.tab)
        #expect(h.harness.lastEcho == nil)
        h.press(.backTab)
        h.press(.end)
        h.press(.char("f"))
        #expect(h.harness.lastEcho != nil)
        #expect(h.form?.values.notes == "abc王\u{301}def")
    }

    @Test("at the end of a row the frame wraps the text, with no echo")
    func endOfRow() throws {
        let h = try notesForm()
        let width = FormLayout.textWidth(screenWidth: h.harness.width)
        h.type(String(repeating: "a", count: width - 1))
        h.press(.char("b"))
        h.press(.char("c"))
        h.press(.char("d"))
        #expect(h.form?.values.notes == String(repeating: "a", count: width - 1) + "bcd")
    }

    @Test("the batch form echoes too, and lays itself out after the echo: the focus stays in view")
    func batchForm() throws {
        let assets = (1...3).map { makeAsset(tag: String(format: "WS-%04d", $0), name: "2 t web sling",
                                             location: "Quay 3", commissioned: "2026-06-01") }
        let h = try Harness(.assets(assets), profile: TypedEchoTests.profile)
        for _ in 0..<3 { h.press(.char("m")) }
        h.press(.char("I"))
        func batch() -> BatchFormState? { h.state.screens.last as? BatchFormState }
        #expect(batch() != nil, "no batch form:\n\(h.dump)")
        for _ in 0..<30 where batch()?.form.focus != .notes { h.press(.tab) }
        #expect(batch()?.form.focus == .notes)
        h.type("ab")
        #expect(h.lastEchoText == "b")
        // Rows wrap and the form scrolls: each frame after an echo has the focused row on the screen.
        for index in 0..<300 {
            h.press(.char(index % 7 == 6 ? " " : "x"))
            let cursor = try #require(h.frame.cursor, "no cursor:\n\(h.dump)")
            #expect(cursor.y > 0 && cursor.y < h.height - 1, "the cursor left the form:\n\(h.dump)")
        }
        #expect(batch()?.form.values.notes.count == 302)
    }

    @Test("random typing: the terminal always ends showing the frame")
    func randomTyping() throws {
        let h = try notesForm()
        var generator = SeededRandom(seed: 17)
        let keys: [Key] = [.char("a"), .char("b"), .char(" "), .char("é"), .char("王"), .char("\u{301}"), .enter,
                           .left, .right, .up, .down, .home, .end, .backspace, .delete, .tab, .backTab,
                           .char("x"), .char("y"), .char("z"), .char("1")]
        var echoes = 0
        for _ in 0..<600 {
            let key = keys[Int.random(in: 0..<keys.count, using: &generator)]
            if Int.random(in: 0..<8, using: &generator) == 0 {
                h.harness.burst([key, keys[Int.random(in: 0..<keys.count, using: &generator)]])
            } else {
                h.press(key)
            }
            if h.harness.lastEcho != nil { echoes += 1 }
        }
        #expect(echoes > 20)
    }
}

extension Harness {
    /// The text of the echo written before the last frame, if there was one.
    var lastEchoText: String? { lastEcho?.update.runs.first?.text }
}
