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

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        box.handle(key, batch: context.batch) == .close ? .pop : .stay
    }

    public func draw(into frame: inout Frame, area: Rect) { box.draw(into: &frame, area: area) }
}
