import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// The program's loop as it runs (`Runtime.run`), over an in-memory terminal: how it ends, what it keeps, what the
/// last frame shows.
@Suite("The runtime's loop")
struct RuntimeTests {
    /// A fresh home holding the standard asset, a runtime on it over `terminal` (not started: `run` starts it).
    private func runtime(_ terminal: InMemoryTerminal) throws -> (Runtime, FormHarness) {
        let h = try FormHarness()
        let session = Session(home: h.home, register: try Register.open(path: h.home.registerPath),
                              today: harnessToday, width: terminal.width, height: terminal.height)
        return (Runtime(session: session, terminal: terminal), h)
    }

    @Test("q ends the loop with status 0, after every key before it")
    func quitEndsTheLoop() throws {
        let terminal = InMemoryTerminal()
        let (runtime, _) = try runtime(terminal)
        terminal.queue([.down, .down, .char("/")] + Key.typing("web") + [.enter, .char("q")])
        #expect(runtime.run() == 0)
        #expect(runtime.session.state.list.query == "web")
        #expect(runtime.session.isFinished)
    }

    @Test("a signal that ends the program: its keys read first, the draft flushed, 128 + the signal")
    func signalEndsWithTheDraftKept() throws {
        let terminal = InMemoryTerminal()
        let (runtime, h) = try runtime(terminal)
        terminal.queue([.char("i")])
        terminal.queue(Key.typing("Bay 4 and the quay"))
        terminal.queue(.end(number: SIGTERM))
        #expect(runtime.run() == 128 + SIGTERM)
        let draft = try DraftStore(home: h.home).read(id: DraftIdentity.draftID(assetUUID: h.asset.uuid))
        #expect(draft?.values.inspectorName.hasSuffix("Bay 4 and the quay") == true,
                "\(String(describing: draft?.values.inspectorName))")
    }

    @Test("a terminal that is gone ends the loop as a hang-up does, the draft kept")
    func hangupEndsTheLoop() throws {
        let terminal = InMemoryTerminal()
        let (runtime, h) = try runtime(terminal)
        terminal.queue([.char("i")] + Key.typing(" Jr"))
        terminal.queue(TerminalInput.hangup)
        #expect(runtime.run() == 128 + SIGHUP)
        let draft = try DraftStore(home: h.home).read(id: DraftIdentity.draftID(assetUUID: h.asset.uuid))
        #expect(draft?.values.inspectorName.hasSuffix(" Jr") == true)
    }

    @Test("Ctrl-Z: the draft flushed, the terminal given back once, everything painted again after")
    func suspendAndResume() throws {
        let terminal = InMemoryTerminal()
        let (runtime, _) = try runtime(terminal)
        terminal.queue([.ctrl("z"), .char("q")])
        #expect(runtime.run() == 0)
        #expect(terminal.suspensions == 1)
        #expect(terminal.screen.lines[0].contains("Rigbook"))
    }
}
