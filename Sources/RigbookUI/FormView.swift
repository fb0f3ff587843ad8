import RigbookCore

/// The form's body as lines, computed the same way for scrolling (in update) and drawing (in view).
enum FormLayout {
    enum Line: Equatable {
        case heading(String)
        /// Row `row` of a field's widget (multi-line text has several).
        case field(FormField, row: Int)
        /// A rule or date message under a field; `continued` for its wrapped rows after the first.
        case message(FormField, String, isProblem: Bool, continued: Bool)
        /// A field's label on its own row (narrow screens).
        case label(FormField)

        /// The field a line belongs to (nil for a heading).
        var field: FormField? {
            switch self {
            case .heading: nil
            case .field(let field, _), .message(let field, _, _, _), .label(let field): field
            }
        }
    }

    /// Below this width a label gets a row of its own above its widget, so neither is cut short.
    static let narrowWidth = 60

    static func isNarrow(_ width: Int) -> Bool { width < narrowWidth }

    /// Columns before a widget: the label column, or a small indent when labels sit above widgets.
    static func labelWidth(screenWidth: Int) -> Int { isNarrow(screenWidth) ? 2 : min(22, max(8, screenWidth / 3)) }

    /// Columns of a text widget (the value column, less one for the cursor at the end).
    static func textWidth(screenWidth: Int) -> Int {
        max(4, screenWidth - labelWidth(screenWidth: screenWidth) - 3)
    }

    /// Multi-line fields wrapped at the widget's width, computed once per frame.
    typealias Wraps = [FormField: (characters: [Character], rows: [WrappedText.Row])]

    static func wraps(_ form: FormState, width: Int) -> Wraps {
        var wraps: Wraps = [:]
        for field in [FormField.notes, .defectDescription] {
            let characters = field == form.focus ? form.editor?.characters ?? [] : Array(form.values[keyPath: field.textPath!])
            wraps[field] = (characters, WrappedText.layout(characters, width: textWidth(screenWidth: width)))
        }
        return wraps
    }

    static func lines(_ form: FormState, width: Int, wraps: Wraps? = nil) -> [Line] {
        let wraps = wraps ?? self.wraps(form, width: width)
        var lines: [Line] = []
        let problems = Dictionary(grouping: form.problems, by: \.field)
        for group in FormField.groups {
            lines.append(.heading(group.title))
            for field in group.fields {
                var rows = 1
                if let wrapped = wraps[field] { rows = max(2, wrapped.rows.count) }
                if isNarrow(width) && field.kind != .check { lines.append(.label(field)) }
                for row in 0..<rows { lines.append(.field(field, row: row)) }
                // Messages wrap under the widget, so every rule reads in full at 80 columns.
                let messageWidth = max(8, width - labelWidth(screenWidth: width) - 4)
                func add(_ text: String, isProblem: Bool) {
                    let characters = Array(text)
                    for (index, row) in WrappedText.layout(characters, width: messageWidth).enumerated() {
                        lines.append(.message(field, String(characters[row.start..<row.end]), isProblem: isProblem,
                                              continued: index > 0))
                    }
                }
                if let message = form.dateMessages[field] { add(message, isProblem: true) }
                for problem in problems[field] ?? [] { add(problem.message, isProblem: false) }
            }
        }
        return lines
    }

    /// The body line that must be visible for the focus (the cursor's row in multi-line text).
    static func focusLine(_ form: FormState, in lines: [Line], wraps: Wraps) -> Int {
        var row = 0
        if let editor = form.editor, let wrapped = wraps[form.focus] {
            row = WrappedText.row(of: editor.cursor, in: wrapped.rows)
        }
        return lines.firstIndex(of: .field(form.focus, row: row)) ?? 0
    }
}

extension FormState {
    /// Rows of the body: everything but the title, the preview and the footer.
    static func bodyHeight(screenHeight: Int) -> Int { max(1, screenHeight - 3) }

    /// Scrolls as little as possible to keep the focused field (and its messages) on screen.
    mutating func keepFocusVisible(width: Int, height: Int) {
        let wraps = FormLayout.wraps(self, width: width)
        let lines = FormLayout.lines(self, width: width, wraps: wraps)
        let body = FormState.bodyHeight(screenHeight: height)
        var line = FormLayout.focusLine(self, in: lines, wraps: wraps)
        // On a narrow screen the label above the first row belongs in view too.
        if line > 0, case .label(let f) = lines[line - 1], f == focus, line == lines.firstIndex(of: .field(focus, row: 0)) { line -= 1 }
        // Everything that belongs to the focused field: its rows and the messages under it.
        var last = line
        while last + 1 < lines.count, lines[last + 1].field == focus { last += 1 }
        last = min(last, line + FormState.bodyHeight(screenHeight: height) - 1)
        if last >= scroll + body { scroll = last - body + 1 }
        if line < scroll { scroll = line }
        // Show a group's heading with its first field.
        if scroll == line, line > 0, case .heading = lines[line - 1] { scroll = line - 1 }
        scroll = max(0, min(scroll, max(0, lines.count - body)))
        if line < scroll { scroll = line }
    }
}

enum FormView {
    static func draw(_ form: FormState, into frame: inout Frame) {
        let width = frame.width, height = frame.height
        let asset = form.row.asset
        frame.fill(y: 0, style: .reverse)
        var title = form.amends.map { " Amending record #\($0) · " } ?? " Inspection · "
        title += "\(asset.tag) · \(asset.name) · \(asset.type.label) · WLL \(Asset.wllText(asset.wllKg))"
        // Where the typing stands: written to the draft file, waiting for the debounce, or failing.
        let draftState = form.draftWarning != nil ? " ⚠ DRAFT NOT ON DISK " : form.draftWrites.isPending ? " draft … "
            : form.draftOnDisk ? " ✎ draft saved " : ""
        frame.put(title, x: 0, y: 0, style: .reverse, maxWidth: width - draftState.displayWidth)
        if !draftState.isEmpty {
            frame.put(draftState, x: width - draftState.displayWidth, y: 0,
                      style: form.draftWarning != nil ? Style(colour: .red, bold: true, reverse: true) : .reverse)
        }

        let wraps = FormLayout.wraps(form, width: width)
        let lines = FormLayout.lines(form, width: width, wraps: wraps)
        let body = FormState.bodyHeight(screenHeight: height)
        let labelWidth = FormLayout.labelWidth(screenWidth: width)
        let valueX = labelWidth + 2
        let textWidth = FormLayout.textWidth(screenWidth: width)
        for (offset, line) in lines.dropFirst(form.scroll).prefix(body).enumerated() {
            let y = 1 + offset
            switch line {
            case .heading(let text):
                frame.put(text.uppercased(), x: 1, y: y, style: Style(bold: true, underline: true))
            case .label(let field):
                let focused = field == form.focus
                frame.put(focused ? "▸" : " ", x: 0, y: y, style: .bold)
                frame.put(field.shortLabel, x: 2, y: y, style: focused ? .bold : .plain)
            case .message(_, let text, let isProblem, let continued):
                let style = isProblem || form.attemptedSave ? Style(colour: .red, bold: form.attemptedSave) : Style(colour: .yellow)
                frame.put((continued ? "  " : "⚠ ") + text, x: valueX, y: y, style: style)
            case .field(let field, let row):
                let focused = field == form.focus
                if row == 0 && (!FormLayout.isNarrow(width) || field.kind == .check) {
                    frame.put(focused ? "▸" : " ", x: 0, y: y, style: .bold)
                    if field.kind != .check {
                        frame.put(field.shortLabel, x: 2, y: y, style: focused ? .bold : .plain, maxWidth: labelWidth - 1)
                    }
                }
                drawWidget(form, field: field, row: row, focused: focused, x: valueX, y: y,
                           textWidth: textWidth, wraps: wraps, into: &frame)
            }
        }
        if lines.count - form.scroll > body {
            frame.put("↓", x: width - 1, y: body, style: .dim)
        }
        if form.scroll > 0 { frame.put("↑", x: width - 1, y: 1, style: .dim) }

        // The preview: cleared the moment an edit comes in, shown again after the quiet period.
        let previewText: String
        switch form.preview {
        case .none: previewText = ""
        case .pending: previewText = "If saved: …"
        case .ready(let text): previewText = text
        }
        frame.put(previewText, x: 1, y: height - 2, style: .bold)

        let footerY = height - 1
        if let error = form.saveError {
            frame.put("Not saved: \(error)", x: 0, y: footerY, style: Style(colour: .red, bold: true))
        } else if let warning = form.draftWarning, form.notice == nil {
            frame.put("⚠ Draft not written (\(warning)). What you typed is kept here; the register is untouched.",
                      x: 0, y: footerY, style: Style(colour: .red, bold: true))
        } else if let notice = form.notice {
            frame.put(notice, x: 0, y: footerY, style: Style(colour: form.attemptedSave ? .red : .normal, bold: true))
        } else if form.saving {
            frame.put("Saving…", x: 0, y: footerY, style: .bold)
        } else {
            frame.put(FormState.keymap.footer(width: width), x: 0, y: footerY, style: .dim)
        }

        if let popup = form.popup { drawPopup(popup, into: &frame) }
        if let dialog = form.dialog {
            drawDialog(dialog, into: &frame)
            frame.cursor = nil
        } else if form.popup != nil {
            frame.cursor = nil
        }
    }

    static func drawWidget(_ form: FormState, field: FormField, row: Int, focused: Bool, x: Int, y: Int,
                           textWidth: Int, wraps: FormLayout.Wraps, into frame: inout Frame) {
        let v = form.values
        let focusStyle = Style(reverse: true)
        switch field.kind {
        case .choice:
            let labels = Choices.labels(field)
            let text = Choices.index(field, in: v).map { labels[$0] } ?? "— choose —"
            frame.put("‹ \(text) ›", x: x, y: y, style: focused ? focusStyle : .plain)
        case .check:
            let ticked = v[keyPath: field.flagPath!]
            frame.put(ticked ? "[x]" : "[ ]", x: 2, y: y, style: focused ? focusStyle : .bold)
            frame.put(field.label, x: 6, y: y, style: focused ? .bold : .plain)
        case .toggle:
            let on = v[keyPath: field.flagPath!]
            frame.put(on ? "[x] yes" : "[ ] no", x: x, y: y, style: focused ? focusStyle : .plain)
        case .text, .date:
            let characters = focused ? form.editor?.characters ?? [] : Array(v[keyPath: field.textPath!])
            TextFieldView.draw(characters, cursor: focused ? form.editor?.cursor ?? characters.count : nil,
                               placeholder: field.kind == .date ? "YYYY-MM-DD" : nil,
                               x: x, y: y, width: field.kind == .date ? 11 : textWidth + 1, into: &frame)
        case .multiline:
            guard let (characters, rows) = wraps[field] else { return }
            frame.fill(x: x, y: y, count: textWidth + 1, style: Style(underline: true))
            if row < rows.count {
                frame.put(String(characters[rows[row].start..<rows[row].end]), x: x, y: y,
                          style: Style(underline: true), maxWidth: textWidth + 1)
            }
            if focused, let editor = form.editor, WrappedText.row(of: editor.cursor, in: rows) == row {
                let r = rows[row]
                frame.cursor = (x + DisplayWidth.of(String(characters[r.start..<min(editor.cursor, r.end)])), y)
            }
        }
    }

    static func drawPopup(_ popup: ChoicePopup, into frame: inout Frame) {
        let labels = Choices.labels(popup.field)
        let inner = min(frame.width - 4, (labels.map(\.displayWidth).max() ?? 10) + 4)
        let lines = labels.enumerated().map { index, label in (index == popup.selection ? "› " : "  ") + label }
        Box.draw(title: popup.field.shortLabel, lines: lines.map { ($0, Style.plain) }, width: inner,
                 highlight: popup.selection, footer: "↑↓ choose · Enter takes · Esc cancels", into: &frame)
    }

    static func drawDialog(_ dialog: LeaveDialog, into frame: inout Frame) {
        Box.drawQuestion(title: "Leave this inspection?",
                         lines: [("You have typed into this form and not saved it.", .plain)],
                         options: dialog.options.map(LeaveDialog.label), selection: dialog.selection, minWidth: 50,
                         footer: "←→ choose · Enter · Esc keeps editing", into: &frame)
    }
}

/// A framed box centred on the screen.
enum Box {
    /// Draws the box and returns its top-left corner.
    @discardableResult
    static func draw(title: String, lines: [(String, Style)], width: Int, highlight: Int?, footer: String?,
                     into frame: inout Frame) -> (x: Int, y: Int) {
        let boxWidth = min(frame.width, width + 4)
        let boxHeight = min(frame.height, lines.count + 2 + (footer == nil ? 0 : 1))
        let x = max(0, (frame.width - boxWidth) / 2)
        let y = max(0, (frame.height - boxHeight) / 2)
        let horizontal = String(repeating: "─", count: max(0, boxWidth - 2))
        frame.put("┌" + horizontal + "┐", x: x, y: y, style: .bold)
        frame.put("┌─ " + title + " ", x: x, y: y, style: .bold, maxWidth: boxWidth - 1)
        for row in 1..<max(1, boxHeight - 1) {
            frame.fill(x: x, y: y + row, count: boxWidth, style: .plain)
            frame.put("│", x: x, y: y + row, style: .bold)
            frame.put("│", x: x + boxWidth - 1, y: y + row, style: .bold)
        }
        for (index, line) in lines.enumerated() where index + 1 < boxHeight - 1 {
            var style = line.1
            if index == highlight { style.reverse = true }
            frame.put(line.0, x: x + 2, y: y + 1 + index, style: style, maxWidth: boxWidth - 4)
        }
        if let footer, boxHeight >= 3 {
            frame.put(footer, x: x + 2, y: y + boxHeight - 2, style: .dim, maxWidth: boxWidth - 4)
        }
        frame.put("└" + horizontal + "┘", x: x, y: y + boxHeight - 1, style: .bold)
        return (x, y)
    }

    /// A box that asks: its lines, a blank line, then the options as buttons, the selected one reversed.
    static func drawQuestion(title: String, lines: [(String, Style)], options: [String], selection: Int,
                             minWidth: Int, footer: String, into frame: inout Frame) {
        var buttons = ""
        var highlight = 0..<0
        for (index, option) in options.enumerated() {
            let text = "[ \(option) ]"
            if index == selection { highlight = buttons.count..<(buttons.count + text.count) }
            buttons += text + "  "
        }
        let all = lines + [("", .plain), (buttons, .plain)]
        let width = min(frame.width - 4, max(minWidth, all.map { $0.0.displayWidth }.max() ?? 0))
        let origin = draw(title: title, lines: all, width: width, highlight: nil, footer: footer, into: &frame)
        frame.restyle(y: origin.y + all.count, x: origin.x + 2 + highlight.lowerBound, count: highlight.count) { $0.reverse = true }
    }
}
