/// The help page, generated from a screen's keymap.
public struct HelpState: Sendable {
    public var lines: [(keys: String, help: String)]
    public var title: String
    public var top = 0

    public init(keymap lines: [(keys: String, help: String)], title: String) {
        self.lines = lines
        self.title = title
    }

    /// Handles a key; returns true when the page should close.
    mutating func handle(_ key: Key, pageSize: Int) -> Bool {
        switch key {
        case .escape, .char("q"), .char("?"), .function(1), .enter, .ctrl("c"): return true
        case .down, .char("j"): top = min(top + 1, max(0, lines.count - pageSize))
        case .up, .char("k"): top = max(0, top - 1)
        default: break
        }
        return false
    }

    func draw(into frame: inout Frame) {
        frame.fill(y: 0, style: .reverse)
        frame.put(" Help — \(title)", x: 0, y: 0, style: .reverse)
        let keyWidth = min(14, max(6, frame.width / 4))
        let visible = max(0, frame.height - 2)
        for (offset, line) in lines.dropFirst(top).prefix(visible).enumerated() {
            let y = offset + 1
            frame.put(" " + line.keys, x: 0, y: y, style: .bold, maxWidth: keyWidth)
            frame.put(line.help, x: keyWidth + 1, y: y)
        }
        let more = top + visible < lines.count ? "↓ more  " : ""
        frame.put(" \(more)Esc, q or ? closes help", x: 0, y: frame.height - 1, style: .dim)
    }
}
