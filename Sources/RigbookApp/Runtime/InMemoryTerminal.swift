import RigbookUI

/// A terminal in memory: inputs queued by the caller, the screen as the runtime's draws left it. What the tests and
/// the bench drive the runtime with.
public final class InMemoryTerminal: Terminal {
    public private(set) var width: Int
    public private(set) var height: Int
    public let canScroll: Bool
    /// The screen as the draws left it, and the cursor the last draw placed.
    public private(set) var screen: InMemoryScreen
    public private(set) var cursor: (x: Int, y: Int)?
    /// Every update drawn, oldest first, until `takeDrawn`.
    private var drawn: [ScreenUpdate] = []
    private var inputs: [TerminalInput] = []
    private var signals: [TerminalSignal] = []
    /// Suspends asked for (Ctrl-Z): nothing stops, the count goes up.
    public private(set) var suspensions = 0
    /// Called with each update as it is drawn, before the screen shows it: for a test to look at what is on disk
    /// at that moment.
    public var onDraw: ((ScreenUpdate) -> Void)?

    public init(width: Int = 80, height: Int = 24, canScroll: Bool = true) {
        self.width = width
        self.height = height
        self.canScroll = canScroll
        screen = InMemoryScreen(width: width, height: height)
    }

    /// Inputs that have reached the terminal, to be read in order.
    public func queue(_ input: TerminalInput...) { inputs += input }
    public func queue(_ keys: [Key]) { inputs += keys.map(TerminalInput.key) }
    public func queue(_ signal: TerminalSignal) { signals.append(signal) }

    /// The terminal takes a new size, and the program is told (`.resize`).
    public func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        inputs.append(.resize)
    }

    public func read(timeoutMilliseconds: Int32, peeking: Bool) -> TerminalInput {
        if !signals.isEmpty { return .interrupted }
        return inputs.isEmpty ? .timeout : inputs.removeFirst()
    }

    public func draw(_ update: ScreenUpdate, cursor: (x: Int, y: Int)?) {
        onDraw?(update)
        screen.apply(update, size: (width, height))
        self.cursor = cursor
        drawn.append(update)
    }

    /// The updates drawn since the last call.
    public func takeDrawn() -> [ScreenUpdate] {
        defer { drawn.removeAll() }
        return drawn
    }

    public func clear() { screen = InMemoryScreen(width: width, height: height) }
    public func suspend() { suspensions += 1 }

    public func takeSignal() -> TerminalSignal? { signals.isEmpty ? nil : signals.removeFirst() }
}

extension Runtime {
    /// Over an in-memory terminal: `keys` reach the terminal together and are handled before one frame, as a burst
    /// typed or pasted is (a key pressed alone is a burst of one). Nil while the program goes on, else its exit status.
    @discardableResult
    public func press(_ keys: Key...) -> Int32? { press(keys) }

    @discardableResult
    public func press(_ keys: [Key]) -> Int32? {
        guard let terminal = terminal as? InMemoryTerminal else {
            preconditionFailure("keys are pressed only on an in-memory terminal")
        }
        terminal.queue(keys)
        let status = handleInput(waitingMilliseconds: 0)
        if status == nil {
            drawFrame()
            afterFrame()
        }
        return status
    }
}
