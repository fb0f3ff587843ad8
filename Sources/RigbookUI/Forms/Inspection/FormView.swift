import RigbookCore
import Synchronization

enum FormView {
    /// The groups' headings as drawn: made once, not uppercased again every frame.
    static let headings = Dictionary(FormField.groups.map { ($0.title, $0.title.uppercased()) }) { first, _ in first }

    /// Everything the title row is drawn from.
    struct TitleKey: Equatable, Sendable {
        var amends: Int64?
        var tag: String
        var name: String
        var type: String
        var electrical: Bool
        var wllKg: Double
        var draftState: String
        var warning: Bool
        var width: Int
    }

    struct PreviewKey: Equatable, Sendable {
        var text: String
        var width: Int
    }

    /// `memoized`: rows drawn before from equal inputs are copied from the form's memos (false: every line drawn,
    /// for tests).
    static func draw(_ form: FormState, into frame: inout Frame, area: Rect, memoized: Bool = true) {
        let width = area.width, height = area.height
        let asset = form.row.asset
        // Whole rows only: a form drawn into part of the screen is drawn row by row.
        let memo = memoized && area.x == 0 && area.y == 0 && area.width == frame.width ? form.memos.lines : nil
        let draftState = form.draft.titleState?.text ?? ""
        let titleKey = TitleKey(amends: form.amends, tag: asset.tag, name: asset.name, type: asset.typeLabel,
                                electrical: asset.isElectrical, wllKg: asset.wllKg, draftState: draftState,
                                warning: form.draft.warning != nil, width: width)
        form.memos.title.row(0, key: titleKey, in: &frame, enabled: memo != nil) { frame in
            let lead = (form.amends.map { " Amending record #\($0) · " } ?? " Inspection · ") + asset.tag
            form.drawTitle(lead, asset: asset, into: &frame, area: area)
        }

        let layout = FormLayout.computed(form, width: width)
        let wraps = layout.wraps, lines = layout.lines
        let body = form.bodyRows(width: width, height: height)
        let columns = FormColumns(width: width)
        for (offset, line) in lines.dropFirst(form.scroll).prefix(body).enumerated() {
            let y = 1 + offset
            let key = memo == nil || y >= height ? FormLineKey.unkept : lineKey(form, line: line, width: width)
            if key.kept, let memo, let cells = memo.cells(for: key, y: y), frame.placeLine(cells, y: y) { continue }
            defer {
                if key.kept, let memo, let cells = frame.lineCells(y) { memo.keep(cells, for: key, y: y) }
            }
            switch line {
            case .banner(let text):
                frame.put(text, x: 1, y: y, in: area, style: Style(colour: .magenta, bold: true))
            case .heading(let text):
                frame.put(headings[text] ?? text.uppercased(), x: 1, y: y, in: area,
                          style: Style(bold: true, underline: true))
            case .label(let field):
                let focused = field == form.focus
                frame.put(focused ? "▸" : " ", x: 0, y: y, in: area, style: .bold)
                frame.put(field.shortLabel, x: 2, y: y, in: area, style: focused ? .bold : .plain)
            case .message(_, let text, let note, let continued):
                frame.put((continued ? "  " : note.mark) + text, x: columns.valueX, y: y, in: area,
                          style: note.style(attemptedSave: form.attemptedSave))
            case .info(_, let text):
                frame.put("  " + text, x: columns.valueX, y: y, in: area, style: .bold)
            case .field(let field, let row):
                let focused = field == form.focus
                if row == 0 && (!FormLayout.isNarrow(width) || field.kind == .check) {
                    frame.put(focused ? "▸" : " ", x: 0, y: y, in: area, style: .bold)
                    if field.kind != .check {
                        frame.put(field.shortLabel, x: 2, y: y, in: area, style: focused ? .bold : .plain,
                                  maxWidth: columns.labelWidth - 1)
                    }
                }
                drawWidget(form, field: field, row: row, focused: focused,
                           in: columns.widget(y: y, in: area),
                           area: area, wraps: wraps, into: &frame)
            }
        }
        if lines.count - form.scroll > body {
            frame.put("↓", x: width - 1, y: body, in: area, style: .dim)
        }
        if form.scroll > 0 { frame.put("↑", x: width - 1, y: 1, in: area, style: .dim) }

        // The preview: cleared the moment an edit comes in, shown again after the quiet period.
        let previewText: String
        switch form.preview {
        case .none: previewText = ""
        case .pending: previewText = "If saved: …"
        case .ready(let text): previewText = text
        }
        form.memos.preview.row(height - 2, key: PreviewKey(text: previewText, width: width), in: &frame,
                       enabled: memo != nil) { frame in
            frame.put(previewText.ellipsized(toWidth: width - 1), x: 1, y: height - 2, in: area, style: .bold)
        }

        form.drawFooter(into: &frame, area: area) { frame in
            form.memos.footerRow.row(height - 1, key: width, in: &frame, enabled: memo != nil) { frame in
                frame.put(form.memos.footer.footer(width: width), x: 0, y: height - 1, in: area, style: .dim)
            }
        }
        switch form.mode {
        case .own(.choosing(let popup)):
            frame.cursor = nil
            popup.draw(into: &frame, area: area)
        case .own(.notifying(let dialog, _)):
            frame.cursor = nil
            dialog.draw(into: &frame, area: area)
        default:
            form.drawModeOverlay(into: &frame, area: area)
        }
    }

    /// What a body line is drawn from, when that is cheap to tell: its line, focus and the text its widget shows.
    /// `.unkept` for a line that places the cursor or draws from more (a focused text field, multi-line text,
    /// attachments): those are drawn every frame.
    static func lineKey(_ form: FormState, line: FormLayout.Line, width: Int) -> FormLineKey {
        var key = FormLineKey(line: line, focused: line.field == form.focus, attemptedSave: form.attemptedSave,
                              width: width)
        guard case .field(let field, _) = line else { return key }
        // The values read where they are, not copied: a copy retains every string of the form, once per line.
        switch field.kind {
        case .choice:
            key.text = Choices.current(field, in: form.values)?.label ?? form.automaticChoice(field) ?? "— choose —"
        case .check:
            key.flag = form.values[flag: field]
            key.text = form.checkLabel(field)
        case .toggle:
            key.flag = form.values[flag: field]
        case .text, .date:
            guard !key.focused else { return .unkept }
            key.text = form.values[text: field]
            if field.kind == .date { key.placeholder = form.datePlaceholder(field) }
        case .multiline, .attachments:
            return .unkept
        }
        return key
    }

    /// Draws one row of a field's widget in `widget` (the value column of that row).
    static func drawWidget(_ form: FormState, field: FormField, row: Int, focused: Bool, in widget: Rect, area: Rect,
                           wraps: FormLayout.Wraps, into frame: inout Frame) {
        let v = form.values
        if form.drawChoiceWidget(field, focused: focused, in: widget, area: area, into: &frame) { return }
        switch field.kind {
        case .choice, .check, .toggle:
            break
        case .text, .date:
            let characters = focused ? form.editor?.characters ?? [] : Array(v[text: field])
            var box = widget
            let placeholder = field.kind == .date ? form.datePlaceholder(field) : nil
            if field.kind == .date { box.width = min(widget.width, max(11, (placeholder?.count ?? 0) + 1)) }
            TextFieldView.draw(characters, cursor: focused ? form.editor?.cursor ?? characters.count : nil,
                               placeholder: placeholder, in: box, into: &frame)
        case .attachments:
            AttachPrompt.drawAttachment(v.attachments, row: row, selected: focused && row == form.attachmentSelection,
                                        in: widget, into: &frame)
        case .multiline:
            guard let (characters, rows) = wraps[field] else { return }
            TextFieldView.drawWrapped(characters, rows: rows, row: row, cursor: focused ? form.editor?.cursor : nil,
                                      in: widget, into: &frame)
        }
    }
}

extension FormState {
    public func draw(into frame: inout Frame, area: Rect) { FormView.draw(self, into: &frame, area: area) }
}

/// Everything one line of the form's body is drawn from (`FormView.lineKey`): equal keys draw the same row.
struct FormLineKey: Hashable, Sendable {
    var line: FormLayout.Line
    var focused: Bool
    var attemptedSave: Bool
    var width: Int
    /// The widget's text: a choice's label, a check box's sentence, a text field's value.
    var text = ""
    /// A date's placeholder, "" for none. Not optional, nor is the key: an optional of these was copied and
    /// destroyed through the runtime's generic witnesses, on every line of every frame.
    var placeholder = ""
    /// A check box's or toggle's state.
    var flag = false
    /// False for a line drawn every frame, never kept (`unkept`).
    var kept = true

    static let unkept = FormLineKey(line: .heading(""), focused: false, attemptedSave: false, width: 0, kept: false)
}

/// The form's body lines as last drawn, by what they were drawn from: a typed character changes one or two
/// lines of the body (its field, a rule's message), so the others are copied, not drawn again. A
/// pure memo of `FormView.draw`'s line drawing: a line is reused only when every input is equal.
final class FormLineMemo: Sendable {
    private struct Kept: Sendable {
        var byKey: [FormLineKey: [PackedCell]] = [:]
        /// The key and cells last drawn or placed on each screen row: a key equal to its row's (nearly every row
        /// from one key to the next) is found by comparing, without hashing the key.
        var byRow: [RowEntry] = []
    }

    /// A named type, not an optional tuple: the compiler copies a tuple of non-trivial values through the
    /// runtime's generic tuple witnesses, a long way round on every row of every key. An empty `cells` is a row
    /// not kept.
    private struct RowEntry: Sendable {
        var key: FormLineKey
        var cells: [PackedCell]
    }

    private let kept = Mutex(Kept())

    func cells(for key: FormLineKey, y: Int) -> [PackedCell]? {
        kept.withLock { kept in
            if y >= 0 && y < kept.byRow.count && !kept.byRow[y].cells.isEmpty && kept.byRow[y].key == key {
                return kept.byRow[y].cells
            }
            guard let cells = kept.byKey[key] else { return nil }
            Self.remember(key, cells, y: y, in: &kept)
            return cells
        }
    }

    func keep(_ cells: [PackedCell], for key: FormLineKey, y: Int) {
        kept.withLock { kept in
            // More than a few forms' worth: start again.
            if kept.byKey.count >= 512 { kept.byKey.removeAll(keepingCapacity: true) }
            kept.byKey[key] = cells
            Self.remember(key, cells, y: y, in: &kept)
        }
    }

    private static func remember(_ key: FormLineKey, _ cells: [PackedCell], y: Int, in kept: inout Kept) {
        guard y >= 0 && y < 512 && !cells.isEmpty else { return }
        if y >= kept.byRow.count {
            let unkept = RowEntry(key: key, cells: [])
            kept.byRow += Array(repeating: unkept, count: y + 1 - kept.byRow.count)
        }
        kept.byRow[y] = RowEntry(key: key, cells: cells)
    }
}
