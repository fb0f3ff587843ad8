/// A framed box centred in an area: pop-up lists, questions and messages.
enum Box {
    /// Draws the box (`width` columns of text inside the frame) and returns the rectangle it covers.
    @discardableResult
    static func draw(title: String, lines: [(String, Style)], width: Int, highlight: Int? = nil, footer: String? = nil,
                     in area: Rect, into frame: inout Frame) -> Rect {
        let box = area.centred(width: width + 4, height: lines.count + 2 + (footer == nil ? 0 : 1))
        let horizontal = String(repeating: "─", count: max(0, box.width - 2))
        frame.put("┌" + horizontal + "┐", x: 0, y: 0, in: box, style: .bold)
        frame.put("┌─ " + title + " ", x: 0, y: 0, in: box, style: .bold, maxWidth: box.width - 1)
        for row in 1..<max(1, box.height - 1) {
            frame.fill(y: row, in: box, style: .plain)
            frame.put("│", x: 0, y: row, in: box, style: .bold)
            frame.put("│", x: box.width - 1, y: row, in: box, style: .bold)
        }
        for (index, line) in lines.enumerated() where index + 1 < box.height - 1 {
            var style = line.1
            if index == highlight { style.reverse = true }
            frame.put(line.0, x: 2, y: 1 + index, in: box, style: style, maxWidth: box.width - 4)
        }
        if let footer, box.height >= 3 {
            frame.put(footer, x: 2, y: box.height - 2, in: box, style: .dim, maxWidth: box.width - 4)
        }
        frame.put("└" + horizontal + "┘", x: 0, y: box.height - 1, in: box, style: .bold)
        return box
    }

    /// A box that asks: its lines, a blank line, then the options as buttons, the selected one reversed.
    static func drawQuestion(title: String, lines: [(String, Style)], options: [String], selection: Int,
                             minWidth: Int, footer: String, in area: Rect, into frame: inout Frame) {
        var buttons = ""
        var highlight = 0..<0
        for (index, option) in options.enumerated() {
            let text = "[ \(option) ]"
            if index == selection { highlight = buttons.count..<(buttons.count + text.count) }
            buttons += text + "  "
        }
        let all = lines + [("", .plain), (buttons, .plain)]
        let width = min(area.width - 4, max(minWidth, all.map { $0.0.displayWidth }.max() ?? 0))
        let box = draw(title: title, lines: all, width: width, footer: footer, in: area, into: &frame)
        frame.restyle(y: all.count, in: box, x: 2 + highlight.lowerBound, count: highlight.count) { $0.reverse = true }
    }
}
