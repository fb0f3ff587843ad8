import RigbookCore

/// The test form's body as lines, computed the same way for scrolling (in update) and drawing (in view); the
/// columns and wrapping are the inspection form's (`FormLayout`).
enum TestFormLayout {
    enum Line: Equatable, FormBodyLine {
        case heading(String)
        case field(TestField, row: Int)
        /// A rule, warning or typing message under a field; `continued` for its wrapped rows after the first.
        case message(TestField, String, kind: FieldNote, continued: Bool)
        /// A field's label on its own row (narrow screens, as the inspection form's).
        case label(TestField)

        var isHeading: Bool { if case .heading = self { true } else { false } }

        var field: TestField? {
            switch self {
            case .heading: nil
            case .field(let field, _), .message(let field, _, _, _), .label(let field): field
            }
        }
    }

    /// Columns of a reading's box: the verdict follows it on the same row.
    static let readingWidth = 10

    static func notesRows(_ form: TestFormState, width: Int) -> (characters: [Character], rows: [WrappedText.Row]) {
        let characters = form.focus == .notes ? form.editor?.characters ?? [] : Array(form.values.notes)
        return (characters, WrappedText.layout(characters, width: FormLayout.textWidth(screenWidth: width)))
    }

    static func lines(_ form: TestFormState, width: Int) -> [Line] {
        var lines: [Line] = []
        let messageWidth = max(8, width - FormLayout.labelWidth(screenWidth: width) - 5)
        let problems = Dictionary(grouping: form.problems, by: \.field)
        for group in form.groups {
            lines.append(.heading(group.title))
            for field in group.fields {
                if FormLayout.isNarrow(width) && field.kind != .check { lines.append(.label(field)) }
                let rows = field == .notes ? max(2, notesRows(form, width: width).rows.count)
                    : field == .attachments ? max(1, form.values.attachments.count) : 1
                for row in 0..<rows { lines.append(.field(field, row: row)) }
                func add(_ text: String, _ kind: FieldNote) {
                    let characters = Array(text)
                    for (index, row) in WrappedText.layout(characters, width: messageWidth).enumerated() {
                        lines.append(.message(field, String(characters[row.start..<row.end]), kind: kind,
                                              continued: index > 0))
                    }
                }
                if let message = form.fieldMessages[field] { add(message, .typing) }
                if field == form.focus, let hint = form.relativeDateHint { add(hint, .hint) }
                if field == .attachments, field == form.focus { add(FormState.attachmentHint, .hint) }
                for warning in form.warnings(for: field) { add(warning, .warning) }
                for problem in problems[field] ?? [] {
                    // The acknowledgement's rule repeats the warning shown just above it: only what to do is new.
                    let warning = form.evaluation.warnings.first?.message ?? ""
                    let message = field == .calibrationAcknowledged && !warning.isEmpty
                        && problem.message.hasPrefix(warning)
                        ? String(problem.message.dropFirst(warning.count)).trimmingCharacters(in: .whitespaces)
                        : problem.message
                    add(message, .problem)
                }
            }
        }
        return lines
    }

    static func focusLine(_ form: TestFormState, in lines: [Line], width: Int) -> Int {
        var row = 0
        if form.focus == .notes, let editor = form.editor {
            row = WrappedText.row(of: editor.cursor, in: notesRows(form, width: width).rows)
        }
        if form.focus == .attachments { row = form.attachmentSelection }
        return lines.firstIndex(of: .field(form.focus, row: row)) ?? 0
    }
}

extension TestFormState {
    /// Scrolls as little as possible to keep the focused field and its messages on screen.
    mutating func keepFocusVisible(width: Int, height: Int) {
        let lines = TestFormLayout.lines(self, width: width)
        var line = TestFormLayout.focusLine(self, in: lines, width: width)
        // On a narrow screen the label above the first row belongs in view too.
        if line > 0, lines[line - 1] == .label(focus) { line -= 1 }
        scroll(toFocusAt: line, in: lines, body: bodyRows(width: width, height: height))
    }

    public func draw(into frame: inout Frame, area: Rect) { TestFormView.draw(self, into: &frame, area: area) }
}

enum TestFormView {
    static func draw(_ form: TestFormState, into frame: inout Frame, area: Rect) {
        let width = area.width, height = area.height
        let asset = form.row.asset
        form.drawTitle(" Test · \(asset.tag)", asset: asset, into: &frame, area: area)
        let lines = TestFormLayout.lines(form, width: width)
        let body = form.bodyRows(width: width, height: height)
        let columns = FormColumns(width: width)
        for (offset, line) in lines.dropFirst(form.scroll).prefix(body).enumerated() {
            let y = 1 + offset
            switch line {
            case .heading(let text):
                frame.put(text.uppercased(), x: 1, y: y, in: area, style: Style(bold: true, underline: true))
            case .message(_, let text, let kind, let continued):
                frame.put((continued ? "  " : kind.mark) + text, x: columns.valueX, y: y, in: area,
                          style: kind.style(attemptedSave: form.attemptedSave))
            case .label(let field):
                let focused = field == form.focus
                frame.put(focused ? "▸" : " ", x: 0, y: y, in: area, style: .bold)
                frame.put(field.shortLabel, x: 2, y: y, in: area, style: focused ? .bold : .plain)
            case .field(let field, let row):
                let focused = field == form.focus
                let labelled = row == 0 && (!FormLayout.isNarrow(width) || field.kind == .check)
                if labelled { frame.put(focused ? "▸" : " ", x: 0, y: y, in: area, style: .bold) }
                if labelled, field.kind != .check {
                    frame.put(field.shortLabel, x: 2, y: y, in: area, style: focused ? .bold : .plain,
                              maxWidth: columns.labelWidth - 1)
                }
                drawWidget(form, field: field, row: row, focused: focused,
                           in: columns.widget(y: y, in: area),
                           area: area, into: &frame)
            }
        }
        if lines.count - form.scroll > body { frame.put("↓", x: width - 1, y: body, in: area, style: .dim) }
        if form.scroll > 0 { frame.put("↑", x: width - 1, y: 1, in: area, style: .dim) }
        frame.put(form.previewText.ellipsized(toWidth: width - 1), x: 1, y: height - 2, in: area, style: .bold)
        form.drawFooter(into: &frame, area: area) { frame in
            frame.put(TestFormState.footerKeymap.footer(width: width), x: 0, y: height - 1, in: area, style: .dim)
        }
        form.drawModeOverlay(into: &frame, area: area)
    }

    static func drawWidget(_ form: TestFormState, field: TestField, row: Int, focused: Bool, in widget: Rect,
                           area: Rect, into frame: inout Frame) {
        let v = form.values
        _ = form.drawChoiceWidget(field, focused: focused, in: widget, area: area, into: &frame)
        switch field.kind {
        case .choice, .check:
            break
        case .attachments:
            AttachPrompt.drawAttachment(v.attachments, row: row, selected: focused && row == form.attachmentSelection,
                                        in: widget, into: &frame)
        case .toggle:
            break
        case .text, .date:
            let characters = focused ? form.editor?.characters ?? [] : Array(v[keyPath: field.textPath!])
            var box = widget
            if field.kind == .date { box.width = min(widget.width, 11) }
            if field.isReading { box.width = min(widget.width, TestFormLayout.readingWidth) }
            let placeholder = field.kind == .date ? (field == .calibrationDate ? "optional" : "YYYY-MM-DD")
                : field.isReading ? (field == .loadCurrent ? "optional" : "—") : nil
            TextFieldView.draw(characters, cursor: focused ? form.editor?.cursor ?? characters.count : nil,
                               placeholder: placeholder, in: box, into: &frame)
            if field.isReading, let verdict = form.verdict(field),
               verdict.outcome == .pass || verdict.outcome == .fail {
                let pass = verdict.outcome == .pass
                frame.put((pass ? "✓ PASS " : "✗ FAIL ") + verdict.text, x: box.width + 1, y: 0, in: widget,
                          style: Style(colour: pass ? .green : .red, bold: !pass))
            }
        case .multiline:
            let (characters, rows) = TestFormLayout.notesRows(form, width: area.width)
            TextFieldView.drawWrapped(characters, rows: rows, row: row, cursor: focused ? form.editor?.cursor : nil,
                                      in: widget, into: &frame)
        }
        // Pass/fail observations carry their verdict's colour too.
        if [.visual, .polarity, .rcdPushButton].contains(field), let value = field == .visual ? v.visual
            : field == .polarity ? v.polarity : v.rcdPushButton, value == .fail {
            let text = "‹ \(form.choiceText(field)) ›"
            frame.put("✗", x: text.displayWidth + 1, y: 0, in: widget, style: Style(colour: .red, bold: true))
        }
    }
}
