import Testing
import RigbookTestSupport
@testable import RigbookUI
import RigbookApp
import RigbookCore

/// Issue 17, key to screen: the echoes of ↓ and ↑ are made while the loop waits (`EchoAhead`) and written the moment
/// their key is read, before `update`. Every harness step writes them as the loop does and checks that the terminal
/// ends with the frame; these tests say that an echo made ahead is the one the key has, and when there is none.
@Suite("Echoes made ahead of the key")
struct EchoAheadTests {
    /// The echoes made ahead, then the key sent as the loop sends it and its own echo asked for, as before.
    private func aheadAndAfter(_ h: Harness, _ key: Key) -> (ahead: EchoAhead?, after: ScreenUpdate?) {
        let ahead = h.session.echoesAheadOfNextKey().first { $0.keys.contains(key) }
        h.session.send(.key(key))
        let after = h.session.echo()?.update
        _ = h.session.nextDraw()
        return (ahead, after)
    }

    @Test("↓, ↑, j and k made ahead are the echo the key has, scrolling or not, at every place in the window")
    func sameAsTheKeysOwn() throws {
        let h = try Harness(.sample(count: 60))
        let page = ListState.pageSize(Rect(x: 0, y: 0, width: h.width, height: h.height))
        let walk: [Key] = Array(repeating: .down, count: page + 5) + Array(repeating: .char("k"), count: page + 8)
            + Array(repeating: .char("j"), count: 3) + Array(repeating: .up, count: 5)
        var made = 0
        for (step, key) in walk.enumerated() {
            let (ahead, after) = aheadAndAfter(h, key)
            #expect((ahead == nil) == (after == nil), "step \(step) \(key): ahead \(ahead != nil), after \(after != nil)")
            guard let ahead, let after else { continue }
            made += 1
            #expect(ahead.update.runs == after.runs && ahead.update.scroll == after.scroll,
                    "step \(step) \(key): the echo made ahead is not the key's")
        }
        // None for the keys at the top of the list, where ↑ moves nothing: three `k` and two ↑.
        #expect(made == walk.count - 5, "\(made) of \(walk.count) keys had an echo made ahead")
    }

    @Test("an echo made ahead is written only over the frame and the state it was made from")
    func staleOnceAnythingRan() throws {
        let h = try Harness(.sample(count: 30))
        func down() throws -> EchoAhead {
            try #require(h.session.echoesAheadOfNextKey().first { $0.keys.contains(.down) })
        }
        var echo = try down()
        #expect(h.session.isCurrent(echo))
        h.session.send(.tick)
        #expect(!h.session.isCurrent(echo), "current after a tick")
        echo = try down()
        h.session.send(.resize(width: 80, height: 24))
        #expect(!h.session.isCurrent(echo), "current after a resize")
        echo = try down()
        h.session.invalidateScreen()
        #expect(!h.session.isCurrent(echo), "current after the screen was forgotten")
        _ = h.session.nextDraw()
        echo = try down()
        _ = h.session.nextDraw()
        #expect(!h.session.isCurrent(echo), "current over a later frame")
        echo = try down()
        h.session.wroteEchoAhead(echo)
        #expect(!h.session.isCurrent(echo), "current once written: it would be written twice")
        #expect(h.session.echoesAheadOfNextKey().isEmpty, "made again for a frame whose echo is written")
    }

    @Test("none while a filter or a scan is typed, in a form, or where the key has no echo")
    func none() throws {
        let h = try Harness(.sample(count: 30))
        h.press(.up)
        #expect(h.session.echoesAheadOfNextKey().map(\.keys) == [[.down, .char("j")]], "↑ made at the top")
        h.press(.char("/"))
        #expect(h.session.echoesAheadOfNextKey().isEmpty, "made while a filter is typed (j is text there)")
        h.type("sling")
        h.press(.enter)
        #expect(!h.session.echoesAheadOfNextKey().isEmpty, "none in a kept filter's list")
        h.press(.escape)
        h.press(.char("#"))
        #expect(h.session.echoesAheadOfNextKey().isEmpty, "made in the scan prompt")
        h.press(.escape)
        h.press(.char("i"))
        #expect(h.state.form != nil)
        #expect(h.session.echoesAheadOfNextKey().isEmpty, "made in a form")
    }

    @Test("a ↓ made ahead, then the key does something else (a notice came first): the frame puts the screen right")
    func wrongGuessIsPutRight() throws {
        let h = try Harness(.sample(count: 30))
        let echo = try #require(h.session.echoesAheadOfNextKey().first { $0.keys.contains(.down) })
        // Written as the loop would, then a key it was not made for: the frame diffs against the screen with it.
        var terminal = InMemoryScreen(h.frame)
        terminal.apply(echo.update, size: (h.width, h.height))
        h.session.wroteEchoAhead(echo)
        h.session.send(.key(.char("G")))
        let (frame, runs) = h.session.nextDraw()
        terminal.apply(runs, size: (h.width, h.height))
        var cells = frame
        cells.cursor = nil
        #expect(terminal.frame == cells, "the frame did not put the guessed echo right")
        #expect(h.state.list.selection == 29)
    }
}
