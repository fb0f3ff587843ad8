import RigbookUI

/// What the runtime needs of a terminal: the curses terminal of the program is one, `InMemoryTerminal` (tests, the
/// bench) the other.
public protocol Terminal: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// Whether a region can be scrolled (`FrameDiff.update`); else the rows that moved are drawn again.
    var canScroll: Bool { get }
    /// The next input, waiting at most `timeoutMilliseconds`; `peeking`: only what is already there, right before
    /// the next frame (a terminal that is gone is found by the waiting read after it).
    func read(timeoutMilliseconds: Int32, peeking: Bool) -> TerminalInput
    /// Brings the screen to `update` with the cursor at `cursor` (hidden when nil).
    func draw(_ update: ScreenUpdate, cursor: (x: Int, y: Int)?)
    /// Whatever is on the screen is painted over by the next draw (Ctrl-L, a resize, a resume).
    func clear()
    /// Gives the terminal back, stops the process as a shell's job stops (Ctrl-Z), and takes it again on `fg`.
    func suspend()
    /// The signal that arrived since the last look, if one did.
    func takeSignal() -> TerminalSignal?
}

public enum TerminalInput: Sendable, Equatable {
    case key(Key)
    /// The terminal changed size: `width` and `height` say what it is now.
    case resize
    case timeout
    /// A key the program does not know (an unmapped function key, a stray control code): ignored.
    case unknown
    /// The terminal is gone (the pty closed).
    case hangup
    /// A signal ended the wait.
    case interrupted
}

/// A signal as the runtime acts on it: stop as a job does, or end with the status a shell shows for it.
public enum TerminalSignal: Sendable, Equatable {
    case suspend
    /// Hang-up, terminate, interrupt: `number` is the signal's (the exit status is 128 + it).
    case end(number: Int32)
}
