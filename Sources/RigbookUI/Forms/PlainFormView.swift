import RigbookCore

/// Where a plain form's columns are at a screen width: labels above values where a drafted form's are
/// (`FormLayout.isNarrow`), the values indented less there (no check boxes to clear).
enum PlainFormLayout {
    static func isNarrow(_ width: Int) -> Bool { FormLayout.isNarrow(width) }
    static func valueX(_ width: Int) -> Int { isNarrow(width) ? 2 : 24 }
    /// Columns of a value, less one for the cursor at the end.
    static func valueWidth(_ width: Int) -> Int { max(4, width - valueX(width) - 1) }
}

/// A line of a plain form's body.
enum PlainFormLine<Field: Equatable>: Equatable {
    case info(String)
    case label(Field)
    case value(Field, row: Int)
    case note(Field, String, FieldNote)
    case blank

    var field: Field? {
        switch self {
        case .label(let f), .value(let f, _), .note(let f, _, _): f
        case .info, .blank: nil
        }
    }
}

extension PlainForm {
    /// The text of `field` as shown, wrapped at the value's width.
    func wrapped(_ field: Field, width: Int) -> (characters: [Character], rows: [WrappedText.Row]) {
        let characters = field == focus && isTyped ? editor.characters : Array(text(of: field))
        return (characters, WrappedText.layout(characters, width: PlainFormLayout.valueWidth(width)))
    }

    /// The body as lines: the form's information, then each field with its problems and, focused, its hint.
    func bodyLines(width: Int) -> [PlainFormLine<Field>] {
        var lines: [PlainFormLine<Field>] = []
        func wrap(_ text: String, width: Int, _ line: (String) -> PlainFormLine<Field>) {
            let characters = Array(text)
            for row in WrappedText.layout(characters, width: max(8, width)) {
                lines.append(line(String(characters[row.start..<row.end])))
            }
        }
        let noteWidth = width - PlainFormLayout.valueX(width) - 1
        for info in infoLines { wrap(info, width: width - 2) { .info($0) } }
        if !infoLines.isEmpty || !Self.spacedFields { lines.append(.blank) }
        for field in fields {
            if PlainFormLayout.isNarrow(width) { lines.append(.label(field)) }
            let rows = kind(of: field) == .multiline ? max(2, wrapped(field, width: width).rows.count) : 1
            for row in 0..<rows { lines.append(.value(field, row: row)) }
            for warning in warnings(for: field) {
                wrap(FieldNote.warning.mark + warning, width: noteWidth) { .note(field, $0, .warning) }
            }
            for problem in problems where problem.field == field {
                wrap(FieldNote.problem.mark + problem.message, width: noteWidth) { .note(field, $0, .problem) }
            }
            if field == focus, !hint(field).isEmpty {
                wrap(hint(field), width: noteWidth) { .note(field, $0, .hint) }
            }
            if Self.spacedFields { lines.append(.blank) }
        }
        return lines
    }

    /// The first line shown: as near the top as keeps the focused field, and the cursor's row, in view.
    func firstShown(_ lines: [PlainFormLine<Field>], body: Int, width: Int) -> Int {
        guard let first = lines.firstIndex(where: { $0.field == focus }),
              let last = lines.lastIndex(where: { $0.field == focus }) else { return 0 }
        var cursorRow = 0
        if kind(of: focus) == .multiline {
            cursorRow = WrappedText.row(of: editor.cursor, in: wrapped(focus, width: width).rows)
        }
        let cursorLine = lines.firstIndex(of: .value(focus, row: cursorRow)) ?? first
        var start = min(first, max(0, last - body + 1))
        if cursorLine >= start + body { start = cursorLine - body + 1 }
        return max(0, start)
    }

    /// The whole screen: title, body, the message or the keys at the bottom, the open list or question on top.
    func drawPlainForm(into frame: inout Frame, area: Rect) {
        let width = area.width
        frame.putTitleBar(" " + title, state: titleState, in: area)

        // The message wraps above the footer (up to three rows), so a register's sentence reads whole; the form's
        // status line (what saving would do) above it.
        var bottom: [(String, Style)] = []
        if let message {
            let style = message.isError ? Style(colour: .red, bold: true) : Style.bold
            bottom = message.text.wrapped(toWidth: max(1, width), maxLines: 3).map { ($0, style) }
        } else {
            bottom = [(keymap.footer(width: width), .dim)]
        }
        if let status = statusLine, area.height > 3 {
            bottom = status.text.wrapped(toWidth: max(1, width), maxLines: 2).map { ($0, status.style) } + bottom
        }
        let body = max(0, area.height - 1 - bottom.count)
        for (index, line) in bottom.enumerated() where 1 + body + index < area.height {
            frame.put(line.0, x: 0, y: 1 + body + index, in: area, style: line.1)
        }

        let lines = bodyLines(width: width)
        let start = firstShown(lines, body: body, width: width)
        let valueX = PlainFormLayout.valueX(width)
        for (offset, line) in lines.dropFirst(start).prefix(body).enumerated() {
            let y = 1 + offset
            switch line {
            case .info(let text):
                frame.put(" " + text, x: 0, y: y, in: area, style: .dim)
            case .label(let field):
                drawLabel(field, y: y, into: &frame, area: area)
            case .value(let field, let row):
                if row == 0 && !PlainFormLayout.isNarrow(width) { drawLabel(field, y: y, into: &frame, area: area) }
                drawValue(field, row: row, in: Rect(x: area.x + valueX, y: area.y + y,
                                                     width: PlainFormLayout.valueWidth(width) + 1, height: 1),
                          area: area, into: &frame)
            case .note(_, let text, let note):
                // A plain form's rules are red from the first key, and its hints quieter than a drafted form's.
                frame.put(text, x: valueX, y: y, in: area, style: note == .hint ? .dim : note.style(attemptedSave: true))
            case .blank:
                break
            }
        }
        if lines.count - start > body, body > 0 { frame.put("↓", x: width - 1, y: body, in: area, style: .dim) }
        if start > 0, body > 0 { frame.put("↑", x: width - 1, y: 1, in: area, style: .dim) }

        drawFieldJump(into: &frame, area: area)
        if let discarding {
            frame.cursor = nil
            discarding.draw(into: &frame, area: area)
        } else if let picking {
            frame.cursor = nil
            picking.draw(into: &frame, area: area)
        }
    }

    private func drawLabel(_ field: Field, y: Int, into frame: inout Frame, area: Rect) {
        let focused = field == focus
        frame.put(focused ? "▸" : " ", x: 0, y: y, in: area, style: .bold)
        // Beside its value the label has the value's left margin; on a row of its own, the whole width.
        let room = PlainFormLayout.isNarrow(area.width) ? area.width - 2 : PlainFormLayout.valueX(area.width) - 3
        frame.put(label(of: field), x: 2, y: y, in: area, style: focused ? .bold : .plain, maxWidth: room)
    }

    private func drawValue(_ field: Field, row: Int, in widget: Rect, area: Rect, into frame: inout Frame) {
        let focused = field == focus && picking == nil && discarding == nil
        let width = area.width
        if drawChoiceWidget(field, focused: focused, in: widget, area: area, into: &frame) { return }
        switch kind(of: field) {
        case .choice, .toggle, .check:
            break
        case .multiline:
            let (characters, rows) = wrapped(field, width: width)
            TextFieldView.drawWrapped(characters, rows: rows, row: row, cursor: focused ? editor.cursor : nil,
                                      in: widget, into: &frame)
        case .text, .date, .attachments:
            let characters = focused ? editor.characters : Array(text(of: field))
            var box = widget
            if kind(of: field) == .date { box.width = min(widget.width, 11) }
            TextFieldView.draw(characters, cursor: focused ? editor.cursor : nil, placeholder: placeholder(field),
                               in: box, into: &frame)
        }
    }
}
