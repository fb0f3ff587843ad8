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
    mutating func handle(_ key: Key, pageSize: Int, width: Int = 80) -> Bool {
        let total = rows(width: width).count
        switch key {
        case .escape, .char("q"), .char("?"), .function(1), .enter, .ctrl("c"): return true
        case .down, .char("j"): top = min(top + 1, max(0, total - pageSize))
        case .up, .char("k"): top = max(0, top - 1)
        default: break
        }
        return false
    }

    /// The help as screen rows: descriptions wrap under themselves, so nothing is cut off.
    func rows(width: Int) -> [(keys: String, help: String)] {
        let keyWidth = HelpState.keyWidth(width)
        var rows: [(String, String)] = []
        for line in lines {
            let characters = Array(line.help)
            let wrapped = WrappedText.layout(characters, width: max(8, width - keyWidth - 2))
            for (index, row) in wrapped.enumerated() {
                rows.append((index == 0 ? line.keys : "", String(characters[row.start..<row.end])))
            }
        }
        return rows
    }

    static func keyWidth(_ width: Int) -> Int { min(14, max(6, width / 4)) }

    func draw(into frame: inout Frame) {
        frame.fill(y: 0, style: .reverse)
        frame.put(" Help — \(title)", x: 0, y: 0, style: .reverse)
        let keyWidth = HelpState.keyWidth(frame.width)
        let visible = max(0, frame.height - 2)
        let rows = rows(width: frame.width)
        for (offset, line) in rows.dropFirst(top).prefix(visible).enumerated() {
            let y = offset + 1
            frame.put(" " + line.keys, x: 0, y: y, style: .bold, maxWidth: keyWidth)
            frame.put(line.help, x: keyWidth + 1, y: y)
        }
        let more = top + visible < rows.count ? "↓ more  " : ""
        frame.put(" \(more)Esc, q or ? closes help", x: 0, y: frame.height - 1, style: .dim)
    }
}
