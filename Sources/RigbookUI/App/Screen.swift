import RigbookCore

/// What a screen is told with each event: the loop's clock, today's date and the area it occupies.
public struct ScreenContext: Sendable {
    /// Seconds on the loop's clock (never read from a real clock inside `update`).
    public var now: Double
    public var today: CalendarDate
    /// Where the screen is drawn: page sizes and wrapping follow from it.
    public var area: Rect
    /// How many frames the terminal has been shown: keys read after the same frame are one burst
    /// (typed faster than a person reads, or pasted by a terminal without bracketed paste).
    public var batch: Int = 0
}

/// A screen is a component: it owns its state, its keys (a `Keymap`), its drawing into an area and
/// the outcome it hands the router. The router (`App.update`) is the only code that changes the stack.
public protocol Screen: Sendable {
    /// One key, when this screen is on top.
    mutating func handle(_ key: Key, context: ScreenContext) -> Outcome
    func draw(into frame: inout Frame, area: Rect)
    /// The result of an effect, offered to every screen on the stack, top first; nil: not mine.
    mutating func receive(_ event: Event, context: ScreenContext) -> Outcome?
    /// True for a question or message drawn over the screen beneath rather than instead of it.
    var isOverlay: Bool { get }
    /// When the screen's next timer falls due on the loop's clock, if ever.
    var deadline: Double? { get }
    /// Lets the screen's timers fall due; returns the effects that came due.
    mutating func advance(context: ScreenContext) -> [Effect]
    /// The terminal changed size.
    mutating func resized(context: ScreenContext)
    /// The screen was put on the stack (a question notes the input batch it appeared in).
    mutating func opened(context: ScreenContext)
    /// The drafts this screen writes (a form's; a batch's and the form split off it): while it is open, a failed
    /// write of one is its own to show, not a notice that the draft was lost.
    var draftIDs: [String] { get }
}

extension Screen {
    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? { nil }
    public var isOverlay: Bool { false }
    public var deadline: Double? { nil }
    public mutating func advance(context: ScreenContext) -> [Effect] { [] }
    public mutating func resized(context: ScreenContext) {}
    public mutating func opened(context: ScreenContext) {}
    public var draftIDs: [String] { [] }
}

/// What a screen asks of the router after an event. Combine with `+`: `.pop + .notify(...)`.
public indirect enum Outcome: Sendable {
    case stay
    /// Close this screen (and anything above it).
    case pop
    /// Close every screen: back to the register list.
    case popAll
    case push(any Screen)
    /// Work for the runtime: files, the register, the process.
    case effects([Effect])
    /// A line at the bottom of the screen until the next key.
    case notify(Notice)
    /// A label scanned (or a tag typed) on a screen above the list: back to the list, to that asset's history.
    case scanned(String)
    /// Hand this key to the screen that is on top once the outcomes before it are applied (`.pop + .passOn(key)`):
    /// a box closed by the `/` or `#` a scan starts with lets it open the filter or the scan prompt beneath.
    case passOn(Key)
    case all([Outcome])

    public static func + (lhs: Outcome, rhs: Outcome) -> Outcome {
        // `.stay` adds nothing: a typed key's journal effect goes out as it is, not in a list made to be unpacked.
        if case .stay = rhs { return lhs }
        if case .stay = lhs { return rhs }
        return .all([lhs, rhs])
    }

    /// The outcome as a flat list, `.all` opened at every depth (`a + b + c` nests).
    var parts: [Outcome] {
        if case .all(let outcomes) = self { return outcomes.flatMap(\.parts) }
        return [self]
    }

    /// Opens the help page of one keymap.
    static func help<Action>(_ keymap: Keymap<Action>) -> Outcome { .help(title: keymap.title, keymap.helpLines()) }

    /// Opens the help page: key labels and what they do, generated from keymaps.
    static func help(title: String, _ lines: [(keys: String, help: String)]) -> Outcome {
        .push(HelpState(keymap: lines, title: title))
    }
}
