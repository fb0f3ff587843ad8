import Foundation
import RigbookCore
import RigbookUI

/// The one event loop: inputs from a `Terminal` become events for the `Session`, whose `update` and effects change
/// the state; then the journal lines those keys asked for are stored, and only then is the frame drawn. The
/// program runs it over the curses terminal, the tests and the bench over an `InMemoryTerminal`: one loop, one
/// order, wherever it runs.
public final class Runtime {
    public let session: Session
    public let terminal: any Terminal
    public private(set) var framesDrawn = 0

    public init(session: Session, terminal: any Terminal) {
        self.session = session
        self.terminal = terminal
    }

    /// Tidies the drafts, loads the register and draws the first frame.
    public func start() {
        session.start()
        session.send(.resize(width: terminal.width, height: terminal.height))
        drawFrame()
    }

    /// Runs until the program ends: returns its exit status (0, or 128 + the signal that ended it).
    public func run() -> Int32 {
        start()
        while true {
            afterFrame()
            // Wake for the next deadline (preview, draft write), else at least once a second.
            if let status = handleInput(waitingMilliseconds: session.timeoutMilliseconds() ?? 1000) {
                finish()
                return status
            }
            drawFrame()
        }
    }

    /// Once a frame is on the terminal: what another process committed (or midnight, or a sync) looked at and
    /// drawn, then the next key's work made ready, before the wait for it.
    public func afterFrame() {
        while session.lookAround() { drawFrame() }
        session.prepareNextKey()
    }

    /// The journal lines the last inputs asked for, stored; then the frame that shows them, drawn as what changed
    /// since the last one.
    public func drawFrame() {
        session.writeJournals()
        let (frame, update) = session.nextUpdate(scrolling: terminal.canScroll)
        terminal.draw(update, cursor: frame.cursor)
        framesDrawn += 1
    }

    /// Reads the next input, waiting up to `waitingMilliseconds`, and every input already waiting after it, each
    /// handed to the session before the next frame (a paste costs one frame). Nil while the program goes on, else
    /// its exit status.
    public func handleInput(waitingMilliseconds: Int32) -> Int32? {
        var input = terminal.read(timeoutMilliseconds: waitingMilliseconds, peeking: false)
        while true {
            switch input {
            case .key(let key):
                session.send(.key(key))
            case .resize:
                terminal.clear()
                session.invalidateScreen()
                session.send(.resize(width: terminal.width, height: terminal.height))
            case .hangup:
                return 128 + SIGHUP
            case .timeout, .interrupted:
                session.send(.tick)
            case .unknown:
                break  // a key rigbook does not know: ignored, no tick; the next input is read
            }
            if let signal = terminal.takeSignal() {
                // Keys that reached the terminal before the signal are part of what was typed.
                takeWaitingKeys()
                switch signal {
                case .suspend:
                    session.flushDrafts()
                    suspend()
                    return nil
                case .end(let number):
                    return 128 + number
                }
            }
            if session.isFinished { return 0 }
            if session.redrawRequested {
                // Ctrl-L: whatever else wrote to the terminal is painted over.
                session.redrawRequested = false
                terminal.clear()
                session.invalidateScreen()
            }
            if session.suspendRequested {
                session.suspendRequested = false
                suspend()
                return nil
            }
            guard case .key = input else { return nil }
            input = terminal.read(timeoutMilliseconds: 0, peeking: true)
            if case .timeout = input { return nil }
        }
    }

    /// Leaving for any reason: the draft goes to disk before the terminal is given back.
    public func finish() { session.flushDrafts() }

    /// Feeds the keys already waiting in the terminal to the session (bounded, never blocking).
    private func takeWaitingKeys() {
        for _ in 0..<100_000 {
            switch terminal.read(timeoutMilliseconds: 0, peeking: true) {
            case .key(let key): session.send(.key(key))
            case .unknown: continue
            default: return
            }
        }
    }

    /// Stops like any job (Ctrl-Z) and repaints everything on `fg`.
    private func suspend() {
        terminal.suspend()
        terminal.clear()
        session.invalidateScreen()
        session.send(.resize(width: terminal.width, height: terminal.height))
    }
}
