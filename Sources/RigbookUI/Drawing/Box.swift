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
    /// Where the area is too narrow, lines wrap, the buttons stand one under another and the hint joins the
    /// lines, so every option can still be seen.
    static func drawQuestion(title: String, lines: [(String, Style)], options: [String], selection: Int,
                             minWidth: Int, footer: String, in area: Rect, into frame: inout Frame) {
        let room = max(8, area.width - 4)
        var buttons = ""
        var highlight = 0..<0
        for (index, option) in options.enumerated() {
            let text = "[ \(option) ]"
            if index == selection { highlight = buttons.count..<(buttons.count + text.count) }
            buttons += text + "  "
        }
        let fits = buttons.trimmingCharacters(in: .whitespaces).displayWidth <= room
            && footer.displayWidth <= room
        var all = wrapped(lines, width: room) + [("", .plain)]
        var highlightRow = all.count
        if fits {
            all.append((buttons, .plain))
        } else {
            highlightRow += selection
            highlight = 0..<("[ \(options[selection]) ]".count)
            all += options.map { ("[ \($0) ]", Style.plain) } + wrapped([(footer, .dim)], width: room)
        }
        let width = min(room, max(minWidth, all.map { $0.0.displayWidth }.max() ?? 0))
        let box = draw(title: title, lines: all, width: width, footer: fits ? footer : nil, in: area, into: &frame)
        frame.restyle(y: highlightRow + 1, in: box, x: 2 + highlight.lowerBound, count: highlight.count) {
            $0.reverse = true
        }
    }

    /// Lines cut into rows of at most `width` columns, each keeping its style.
    static func wrapped(_ lines: [(String, Style)], width: Int) -> [(String, Style)] {
        lines.flatMap { line -> [(String, Style)] in
            guard line.0.displayWidth > width else { return [line] }
            let characters = Array(line.0)
            return WrappedText.layout(characters, width: width).map { (String(characters[$0.start..<$0.end]), line.1) }
        }
    }
}
