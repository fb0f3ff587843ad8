import Testing
import RigbookTestSupport
@testable import RigbookUI
import RigbookApp
import RigbookCore
import RigbookStore

/// Issue 17, key to screen: a ↑ or ↓ in the register list is shown on the terminal before the frame is made (the bar
/// moved, the list scrolled by a row when it must), and the frame is then diffed against the screen with it. Every
/// step of every harness applies the echo and checks that the terminal ends with the frame (`Harness.checkScreen`);
/// these tests say when there is an echo and that it is the whole of what the key changes.
@Suite("The list selection's echo")
struct SelectionEchoTests {
    @Test("↓ and ↑ are their echo and nothing more, scrolling or not")
    func movesAreTheEcho() throws {
        let h = try Harness(.sample(count: 60))
        let page = ListState.pageSize(Rect(x: 0, y: 0, width: h.width, height: h.height))
        var scrolls = 0
        for step in 0..<80 {
            let key: Key = step < 40 ? .down : .up
            let before = h.state.list.selection
            h.press(key)
            #expect(h.state.list.selection == before + (step < 40 ? 1 : -1))
            let echo = try #require(h.lastEcho, "no echo at step \(step):\n\(h.dump)")
            if echo.update.scroll != nil { scrolls += 1 }
            #expect(h.lastRuns.isEmpty, "the frame after the echo still drew \(h.lastRuns) at step \(step)")
            #expect(h.reversedListRows == [3 + h.state.list.selection - h.state.list.top])
        }
        // Down past the page and back up past it: each key past an end of the window scrolled by a row.
        #expect(scrolls == 2 * (40 - page + 1))
    }

    @Test("j and k are ↓ and ↑")
    func letters() throws {
        let h = try Harness(.sample(count: 30))
        h.press(.char("j"))
        #expect(h.lastEcho != nil && h.lastRuns.isEmpty)
        h.press(.char("k"))
        #expect(h.lastEcho != nil && h.lastRuns.isEmpty)
        #expect(h.state.list.selection == 0)
    }

    @Test("no echo where the key does more than move the bar by a row, or is not alone")
    func noEcho() throws {
        let h = try Harness(.sample(count: 60))
        h.press(.up)  // already at the top: nothing moves
        #expect(h.lastEcho == nil)
        h.burst([.down, .down])  // two keys before one frame: the first's echo (made ahead), the frame the second's
        #expect(h.lastEcho?.update.runs.isEmpty == false)
        #expect(!h.lastRuns.isEmpty)
        #expect(h.state.list.selection == 2)
        h.press(.pageDown)
        #expect(h.lastEcho == nil)
        h.press(.char("G"))
        #expect(h.lastEcho == nil)
        h.press(.down)  // at the bottom
        #expect(h.lastEcho == nil)
        h.press(.char("g"))
        h.press(.char("/"))
        h.type("sling")
        h.press(.down)  // keeps the filter and moves: the footer changes too, the frame draws it all
        #expect(h.lastEcho == nil)
        h.press(.down)
        #expect(h.lastEcho != nil, "no echo in a filtered list:\n\(h.dump)")
        #expect(h.lastRuns.isEmpty)
    }

    /// The terminal loop writes the first key's echo as the key is handled and looks again before the frame: the
    /// second look finds it written (drawn twice, the move would be made twice over the screen).
    @Test("an echo is written at most once a frame")
    func onceAFrame() throws {
        let h = try Harness(.sample(count: 30))
        h.session.send(.key(.down))
        #expect(h.session.echo() != nil)
        #expect(h.session.echo() == nil, "echoed twice for one frame")
        _ = h.session.nextDraw()
        h.session.send(.key(.down))
        #expect(h.session.echo() != nil, "no echo for the next frame's key")
    }

    /// A terminal without a scroll region (no `csr`): the echo that would scroll draws the rows instead.
    @Test("on a terminal that cannot scroll, the echo draws the rows the list moved")
    func noScrollRegion() throws {
        let h = try Harness(.sample(count: 60))
        let page = ListState.pageSize(Rect(x: 0, y: 0, width: h.width, height: h.height))
        for _ in 0..<(page - 1) { h.press(.down) }
        let shown = h.frame
        h.session.send(.key(.down))
        let echo = try #require(h.session.echo(scrolling: false))
        #expect(echo.update.scroll == nil)
        #expect(echo.update.runs.count > 2, "the rows that moved are not drawn: \(echo.update.runs)")
        var screen = InMemoryScreen(shown)
        screen.apply(echo.update.runs, size: (h.width, h.height))
        let (frame, runs) = h.session.nextDraw()
        #expect(runs.isEmpty, "the frame after the echo still drew \(runs)")
        let same = screen.frame == frame
        #expect(same, "the echo's rows are not the frame's:\n\(screen.lines.joined(separator: "\n"))")
    }

    @Test("a notice on the screen: the key clears it, the frame draws it all")
    func notice() throws {
        let h = try Harness(.sample(count: 30))
        h.press(.char("S"))  // sample data only into an empty register: a notice
        #expect(h.state.notice != nil)
        h.press(.down)
        #expect(h.state.notice == nil)
        #expect(h.state.list.selection == 1)
    }

    @Test("random moves over marked rows, a filter, clusters and small terminals: the terminal ends showing the frame")
    func randomMoves() throws {
        // Names with a combining accent put clusters in the frame: a scroll then moves rows that hold them.
        let assets = (1...50).map { index in
            makeAsset(tag: String(format: "CE-%04d", index), name: index % 3 == 0 ? "Cafe\u{301} hoist \(index)"
                      : index % 5 == 0 ? "王 chain block" : "web sling \(index)",
                      location: index % 2 == 0 ? "Quay 3" : "Bay A", commissioned: "2026-06-01")
        }
        for (width, height) in [(80, 24), (40, 8), (130, 30), (80, 5)] {
            let h = try Harness(.assets(assets), width: width, height: height)
            var generator = SeededRandom(seed: UInt64(width * 100 + height))
            let keys: [Key] = [.down, .down, .down, .up, .up, .char("j"), .char("k"), .pageDown, .pageUp,
                               .char("m"), .char("g"), .char("G")]
            var echoes = 0
            for _ in 0..<300 {
                let key = keys[Int.random(in: 0..<keys.count, using: &generator)]
                if Int.random(in: 0..<10, using: &generator) == 0 {
                    h.burst([key, keys[Int.random(in: 0..<keys.count, using: &generator)]])
                } else {
                    h.press(key)
                }
                if h.lastEcho != nil { echoes += 1 }
                #expect(h.reversedListRows == [3 + h.state.list.selection - h.state.list.top],
                        "the bar is not on the selection:\n\(h.dump)")
            }
            #expect(echoes > 50, "\(width)×\(height): \(echoes) echoes")
            h.press(.char("/"))
            h.type("quay")
            h.press(.enter)
            for index in 0..<40 { h.press(index % 9 < 6 ? .down : .up) }
        }
    }
}
