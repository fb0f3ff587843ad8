/// A message that needs more than the footer line, drawn over the screen beneath; any key closes it.
public struct MessageScreen: Screen {
    public enum Answer: Sendable, Equatable { case close }

    public let title: String
    public let lines: [String]
    var box: Question<Answer>

    public init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
        box = Question(title: title, lines: lines.map { ($0, Style.plain) },
                       options: [.init("OK", answer: .close)], cancel: (.close, "closes"),
                       otherKeys: ("Any key closes this.", .close))
    }

    public var isOverlay: Bool { true }

    /// A `/` or `#` that closes the box goes on to the screen beneath, which opens its filter or scan prompt with
    /// it as it would have with no box: a label scanned while the box shows (`/RB1:…` and Enter) is taken whole
    /// there, and none of its letters reaches a command key.
    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        guard box.handle(key, batch: context.batch) == .close else { return .stay }
        return key.startsScan ? .pop + .passOn(key) : .pop
    }

    public func draw(into frame: inout Frame, area: Rect) { box.draw(into: &frame, area: area) }
}
