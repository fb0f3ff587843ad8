public enum HelpAction: Sendable { case close, down, up }

/// The help page, generated from a screen's keymaps.
public struct HelpState: Screen {
    public var lines: [(keys: String, help: String)]
    public var title: String
    public var top = 0

    public init(keymap lines: [(keys: String, help: String)], title: String) {
        self.lines = lines
        self.title = title
    }

    static let keymap = Keymap<HelpAction>(title: "Help", [
        KeyBinding([.escape, .char("q"), .char("?"), .function(1), .enter, .ctrl("c")], label: "Esc q ?",
                   help: "Close help (F1, Enter and Ctrl-C too)", footer: "closes help", rank: .constant,
                   action: .close),
        KeyBinding([.down, .char("j")], label: "↓ j", help: "Scroll down", brief: "scroll", rank: .constant,
                   action: .down),
        KeyBinding([.up, .char("k")], label: "↑ k", help: "Scroll up", brief: "scroll", rank: .constant, action: .up),
    ])

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        let area = context.area
        switch HelpState.keymap.action(for: key) {
        case .close: return .pop
        case .down: top = min(top + 1, max(0, rows(width: area.width).count - max(0, area.height - 2)))
        case .up: top = max(0, top - 1)
        case nil: break
        }
        return .stay
    }

    /// The help as screen rows: descriptions wrap under themselves, so nothing is cut off.
    func rows(width: Int) -> [(keys: String, help: String)] {
        let keyWidth = HelpState.keyWidth(width)
        return lines.flatMap { line in
            let characters = Array(line.help)
            return WrappedText.layout(characters, width: max(8, width - keyWidth - 2)).enumerated().map { index, row in
                (index == 0 ? line.keys : "", String(characters[row.start..<row.end]))
            }
        }
    }

    static func keyWidth(_ width: Int) -> Int { min(14, max(6, width / 4)) }

    public func draw(into frame: inout Frame, area: Rect) {
        frame.putTitleBar(" Help — \(title)", state: nil, in: area)
        let keyWidth = HelpState.keyWidth(area.width)
        let visible = max(0, area.height - 2)
        let rows = rows(width: area.width)
        for (offset, line) in rows.dropFirst(top).prefix(visible).enumerated() {
            frame.put(" " + line.keys, x: 0, y: offset + 1, in: area, style: .bold, maxWidth: keyWidth)
            frame.put(line.help, x: keyWidth + 1, y: offset + 1, in: area)
        }
        let more = top + visible < rows.count ? "↓ more  " : ""
        let footer = " " + more + HelpState.keymap.footer(width: area.width)
        frame.put(footer, x: 0, y: area.height - 1, in: area, style: .dim)
    }
}
