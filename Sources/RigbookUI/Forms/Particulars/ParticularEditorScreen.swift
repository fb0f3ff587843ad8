import Foundation
import RigbookCore

public enum ParticularEditAction: Sendable {
    case next, previous, save, close, history, help, toggle, optionForward, optionBack, openOptions
}

/// The answer to "Leave without saving?".
public enum LeaveEditorChoice: Sendable, Equatable { case discard, keepEditing }

/// Editing one particular: the examining organisation, an employer, a site, an examiner (from Settings) or
/// one asset's particulars (`p` on the list). Ctrl-S records a new version; what was typed stays on screen
/// until the register has it.
public struct ParticularEditorState: Screen {
    /// A particular not yet in the register (added from Settings).
    public let isNew: Bool
    /// What the editor opened with: "unsaved" means `change != baseline`.
    let baseline: ParticularsChange
    public internal(set) var change: ParticularsChange
    /// The particulars when the editor opened: the choices, and the checks before Ctrl-S.
    let particulars: Particulars
    /// The asset whose particulars these are, for the title.
    let asset: Asset?
    /// The fields shown: the kind's, or the organisation's test limits alone (Settings' own section).
    let fields: [ParticularField]
    /// A limit as typed, while it is not yet the number it is kept as (`0.`, or not a number at all): what was
    /// typed stays on screen, and its sentence under it.
    var typedLimits: [ParticularField: String] = [:]
    public internal(set) var focus: ParticularField
    var editor: EditableText
    /// Shown under their fields once a Ctrl-S was refused; they follow the typing from then on.
    public internal(set) var problems: [(field: ParticularField?, message: String)] = []
    /// The line above the footer: why a save was refused, what a paste left out.
    public internal(set) var message: Notice?
    var leaving: Question<LeaveEditorChoice>?
    var picking: PickList?
    /// A Ctrl-S went out as an effect and its result has not come back.
    var saving = false
    /// The input batch of the last change (or of the opening): Ctrl-S counts only from a later one.
    var lastChange = SeenInBatch(0)

    /// The editor of a particular from Settings.
    public init(editing change: ParticularsChange, isNew: Bool, particulars: Particulars) {
        self.init(change, isNew: isNew, particulars: particulars, asset: nil)
    }

    /// The editor of the electrical test limits: a version of the organisation's particulars.
    public init(limitsOf particulars: Particulars) {
        self.init(.organisation(particulars.organisation), isNew: false, particulars: particulars, asset: nil,
                  fields: ParticularField.limitFields)
    }

    /// Whether this editor shows the test limits.
    public var isLimits: Bool { fields.first?.isLimit == true }

    /// The editor of one asset's particulars.
    public init(asset row: RegisterRow, particulars: Particulars) {
        self.init(.asset(particulars.asset(row.asset.uuid)), isNew: false, particulars: particulars, asset: row.asset)
    }

    private init(_ change: ParticularsChange, isNew: Bool, particulars: Particulars, asset: Asset?,
                 fields: [ParticularField]? = nil) {
        self.fields = fields ?? change.fields
        self.isNew = isNew
        baseline = change
        self.change = change
        self.particulars = particulars
        self.asset = asset
        focus = self.fields[0]
        editor = EditableText(change[self.fields[0]])
    }

    public var hasChanges: Bool { change != baseline }
    public var isAskingToLeave: Bool { leaving != nil }

    public mutating func opened(context: ScreenContext) { lastChange.appeared(in: context.batch) }

    static let keymap = Keymap<ParticularEditAction>(title: "Particulars", whileTyping: true, [
        KeyBinding([.tab], label: "Tab", help: "Next field", footer: "next", action: .next),
        KeyBinding([.backTab], label: "Shift-Tab", help: "Previous field", action: .previous),
        KeyBinding([.ctrl("s")], help: "Save: the register keeps it as a new version, with who and when",
                   footer: "save", action: .save),
        KeyBinding([.escape, .ctrl("c")], label: "Esc", help: "Close (asks first if you changed anything; Ctrl-C too)",
                   footer: "close", action: .close),
        KeyBinding([.ctrl("r")], help: "History: every version of this particular, when and by whom",
                   footer: "history", action: .history),
        KeyBinding([.function(1)], label: "F1", help: "This help", footer: "help", action: .help),
    ])

    /// Keys of the fields that are chosen rather than typed: an employer, a site, self-employed.
    static let choiceKeymap = Keymap<ParticularEditAction>(title: "Particulars: a choice or yes / no", [
        KeyBinding([.char(" ")], label: "Space", help: "Yes / no; on a choice, the next option",
                   brief: "yes / no, next option", action: .toggle),
        KeyBinding([.right], label: "→", help: "Next option", brief: "next option", action: .optionForward),
        KeyBinding([.left], label: "←", help: "Previous option", brief: "previous option", action: .optionBack),
        KeyBinding([.enter], help: "List the options to pick from", brief: "list the options", action: .openOptions),
        KeyBinding([.down], label: "↓", help: "Next field", action: .next),
        KeyBinding([.up], label: "↑", help: "Previous field", action: .previous),
    ])

    static let leaveQuestion = Question<LeaveEditorChoice>(
        title: "Leave without saving?", lines: [("What you changed here is not kept.", .plain)],
        // The safe answer first, so Enter never throws work away.
        options: [.init("Keep editing", answer: .keepEditing),
                  .init("Discard the changes", answer: .discard, keys: [.char("d")], hint: "discards")],
        cancel: (.keepEditing, "keeps editing"), otherKeys: ("Any other key keeps editing.", .keepEditing),
        minWidth: 52)

    // MARK: Naming

    /// The title bar: what is edited.
    var title: String {
        if let asset { return "Particulars of \(asset.tag) · \(asset.name)" }
        if isLimits { return "Electrical test limits (AS/NZS 3760)" }
        switch change {
        case .organisation: return "Examining organisation"
        case .employer: return isNew ? "New employer" : "Employer · " + ParticularsText.oneLine(baseline[.name])
        case .site(let s):
            let employer = particulars.employers[s.employerUUID].map { " of " + ParticularsText.oneLine($0.name) } ?? ""
            return isNew ? "New site" + employer : "Site · " + ParticularsText.oneLine(baseline[.name]) + employer
        case .examiner: return isNew ? "New examiner" : "Examiner · " + ParticularsText.oneLine(baseline[.name])
        case .asset: return "Asset particulars"
        }
    }

    /// The field's label.
    static func label(_ field: ParticularField, of change: ParticularsChange) -> String {
        switch field {
        case .name: "Name"
        case .address: "Address"
        case .employer: "Employer"
        case .qualification: "Qualification / cert."
        case .selfEmployed: "Self-employed"
        case .site: "Site"
        case .lessor: "Owner or lessor"
        case .swlConfigurations: "SWL per configuration"
        case .declarationReference: "Declaration ref."
        case .declarationDate: "Declaration date"
        case .colourCode: "Label colour code"
        case .earthContinuityMaxOhm: "Earth continuity ≤ Ω"
        case .insulationMinMOhm: "Insulation ≥ MΩ"
        case .leakageMaxMAClassI: "Leakage Class I ≤ mA"
        case .leakageMaxMAOther: "Leakage others ≤ mA"
        case .rcdTripMaxMsTypeII: "RCD Type II trip ≤ ms"
        case .rcdTripMaxMsTypeI: "RCD Type I trip ≤ ms"
        case .calibrationWarningMonths: "Calibration ≤ months"
        }
    }

    /// What the focused field is for, under it.
    func hint(_ field: ParticularField) -> String {
        switch (change, field) {
        case (.organisation, .name), (.organisation, .address):
            "The organisation that employs the examiners: its name and address go on every report (Schedule 1 "
                + "item 9)."
        case (.employer, .name), (.employer, .address):
            "Whom examinations are made for (Schedule 1 item 1). A thorough examination needs the address."
        case (.site, .name): "The premises, as people call them."
        case (.site, .address):
            "The premises' postal address (Schedule 1 item 2). A thorough examination needs it. Several lines."
        case (.site, .employer), (.asset, .site): "← → choose, Enter lists them all."
        case (.organisation, .colourCode):
            "← → Space: none, six-monthly (a colour each half-year) or the Australian quarter colours. Shown on "
                + "labels and beside the status in the list."
        case (.examiner, .name): "As the inspector name is typed on the form: the form finds the examiner by it."
        case (.examiner, .qualification): "Qualification or certificate number (Schedule 1 item 9)."
        case (.examiner, .selfEmployed):
            "Space: yes / no. A self-employed examiner gives their own address; an employed one the organisation's."
        case (.examiner, .address): "Only for a self-employed examiner."
        case (.asset, .lessor):
            "Whom it was hired from: they get a copy of a report of a defect (reg 10(1)(b)(ii)). Empty if owned."
        case (.asset, .swlConfigurations):
            "Where there are several (Schedule 1 item 5): one a line, e.g. 2 legs at 45°: 2.8 t."
        case (.asset, .declarationReference):
            "EC/UK declaration of conformity, for equipment not examined before first use (reg 9(1))."
        case (.asset, .declarationDate): "The declaration's date, YYYY-MM-DD."
        case (_, let limit) where limit.isLimit:
            "Default \(TestLimits.defaults.text(of: limit)). A test form opened from now on judges by it; a saved "
                + "test keeps the limits it was judged by."
        default: ""
        }
    }

    // MARK: Keys

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        if var question = leaving {
            let answer = question.handle(key, batch: context.batch)
            leaving = answer == nil ? question : nil
            return answer == .discard ? .pop : .stay
        }
        if var list = picking {
            let answer = list.handle(key)
            picking = answer == nil ? list : nil
            if case .chosen(let uuid) = answer { set(focus, uuid.uuidString, batch: context.batch) }
            return .stay
        }
        message = nil
        if focus.isText {
            switch type(key, width: ParticularEditorState.valueWidth(context.area.width), batch: context.batch) {
            case .changed, .moved, .full, .pasted: return .stay
            case .leaveUp: move(-1); return .stay
            case .leaveDown: move(1); return .stay
            case .ignored: break
            }
        } else if case .paste = key {
            message = .error("Nothing pasted: \(ParticularEditorState.label(focus, of: change)) is not typed.")
            return .stay
        }
        guard let action = ParticularEditorState.keymap.action(for: key)
                ?? (focus.isText ? nil : ParticularEditorState.choiceKeymap.action(for: key)) else { return .stay }
        switch action {
        case .next: move(1)
        case .previous: move(-1)
        case .help:
            return .help(title: "Particulars", ParticularEditorState.keymap.helpLines()
                         + ParticularEditorState.choiceKeymap.helpSection("On a choice or a yes / no:")
                         + EditableText.keymap.helpSection("In a text field:"))
        case .close:
            if !hasChanges { return .pop }
            leaving = ParticularEditorState.leaveQuestion.opened(in: context.batch)
        case .history:
            if isNew { return .notify(.info("A new particular has no history until it is saved.")) }
            return .effects([.openParticularsHistory(subject: change.subject, title: title)])
        case .save: return save(batch: context.batch)
        case .toggle where focus == .selfEmployed:
            set(.selfEmployed, change[.selfEmployed] == "yes" ? "no" : "yes", batch: context.batch)
        case .toggle where focus == .colourCode, .optionForward where focus == .colourCode,
             .optionBack where focus == .colourCode, .openOptions where focus == .colourCode:
            let schemes = ColourCodeScheme.allCases
            let current = schemes.firstIndex { $0.rawValue == change[.colourCode] } ?? 0
            let step = action == .optionBack ? -1 : 1
            set(.colourCode, schemes[(current + step + schemes.count) % schemes.count].rawValue, batch: context.batch)
        case .toggle, .optionForward, .optionBack:
            let options = options(for: focus)
            guard !options.isEmpty else { break }
            let current = options.firstIndex { $0.uuid.uuidString == change[focus] }
            let step = action == .optionBack ? -1 : 1
            let next = current.map { ($0 + step + options.count) % options.count } ?? 0
            set(focus, options[next].uuid.uuidString, batch: context.batch)
        case .openOptions:
            if focus == .selfEmployed { move(1); break }
            guard !options(for: focus).isEmpty else {
                message = .error("There is nothing to choose from: add one in Settings (, on the list).")
                break
            }
            picking = PickList(title: ParticularEditorState.label(focus, of: change), options: options(for: focus),
                               selected: UUID(uuidString: change[focus]))
        }
        return .stay
    }

    /// Typing into the focused text field.
    private mutating func type(_ key: Key, width: Int, batch: Int) -> EditableText.Outcome {
        let isDate = focus == .declarationDate
        let isNumber = focus.isLimit
        let limit = isDate ? 10 : focus.maxLength
        let label = ParticularEditorState.label(focus, of: change)
        if isDate, case .char(let c) = key, !ParticularEditorState.isDateCharacter(c) {
            message = .error("Dates are written YYYY-MM-DD.")
            return .full
        }
        if isNumber, case .char(let c) = key, !ParticularEditorState.isNumberCharacter(c) {
            message = .error("A limit is a number, such as 0.5.")
            return .full
        }
        var allowed: ((Character) -> Bool)?
        if isDate { allowed = { ParticularEditorState.isDateCharacter($0) } }
        if isNumber { allowed = { ParticularEditorState.isNumberCharacter($0) } }
        let outcome = editor.apply(key, multiline: focus.isMultiline, maxLength: limit, width: width,
                                   allowed: allowed)
        switch outcome {
        case .changed:
            set(focus, editor.text, batch: batch)
        case .pasted(let paste):
            set(focus, editor.text, batch: batch)
            message = .info(paste.report(field: label, limit: limit))
        case .full:
            message = .error("\(label) holds at most \(limit) characters; the rest was not taken.")
        default: break
        }
        return outcome
    }

    static func isDateCharacter(_ c: Character) -> Bool { c.isASCII && (c.isNumber || c == "-") }
    static func isNumberCharacter(_ c: Character) -> Bool { c.isASCII && (c.isNumber || c == ".") }

    /// A field's text as shown: a limit as typed, else the value kept.
    func shownText(_ field: ParticularField) -> String { typedLimits[field] ?? change[field] }

    private mutating func set(_ field: ParticularField, _ text: String, batch: Int) {
        let before = change
        if field.isLimit { typedLimits[field] = text }
        change = change.setting(field, to: text)
        if change != before { lastChange.appeared(in: batch) }
        if !problems.isEmpty { problems = change.trimmed.fieldProblems(in: particulars) }
    }

    mutating func move(_ step: Int) {
        let index = fields.firstIndex(of: focus) ?? 0
        focusField(fields[(index + step + fields.count) % fields.count])
    }

    mutating func focusField(_ field: ParticularField) {
        focus = field
        editor = EditableText(shownText(field))
    }

    /// The options of a choice: employers, or sites with their employers.
    func options(for field: ParticularField) -> [PickList.Option] {
        switch field {
        case .employer:
            return particulars.employerList.map { .init(uuid: $0.uuid, label: ParticularsText.oneLine($0.name)) }
        case .site:
            return particulars.siteList
                .map { PickList.Option(uuid: $0.uuid, label: ParticularsText.siteName($0.uuid, in: particulars)) }
                .sorted { $0.label.localizedStandardCompare($1.label) == .orderedAscending }
        default:
            return []
        }
    }

    private mutating func save(batch: Int) -> Outcome {
        if !lastChange.isSeen(by: batch) {
            message = .error("Not saved: Ctrl-S arrived together with other keys. Check, then press it again.")
            return .stay
        }
        let candidate = change.trimmed
        let found = candidate.fieldProblems(in: particulars)
        guard found.isEmpty else {
            problems = found
            let count = found.count
            message = .error("Not saved: \(count) problem\(count == 1 ? "" : "s")"
                             + (found.contains { $0.field != nil } ? " (marked ⚠)." : ": ")
                             + found.filter { $0.field == nil }.map(\.message).joined(separator: " "))
            if let first = found.compactMap(\.field).first { focusField(first) }
            return .stay
        }
        if !isNew && candidate == baseline { return .pop + .notify(.info("Nothing changed.")) }
        saving = true
        return .effects([.recordParticulars(candidate)])
    }

    // MARK: Results

    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        guard saving else { return nil }
        switch event {
        case .particularsRecorded(let recorded, let kept, _) where recorded.subject == change.subject:
            saving = false
            let name = asset.map { "the particulars of \($0.tag)" }
                ?? (isLimits ? "the electrical test limits" : ParticularsText.title(of: recorded, in: particulars))
            return .pop + .notify(.info(kept ? "Saved \(name)." : "Nothing changed: the register already says that."))
        case .particularsNotRecorded(let reason):
            saving = false
            // What was typed stays: only the register's sentence is added.
            message = .error("Not saved: \(reason)")
            return .stay
        default:
            return nil
        }
    }

    // MARK: Layout

    /// Below 60 columns a label takes a row of its own above its value.
    static func isNarrow(_ width: Int) -> Bool { width < 60 }
    static func valueX(_ width: Int) -> Int { isNarrow(width) ? 2 : 24 }
    /// Columns of a value, less one for the cursor at the end.
    static func valueWidth(_ width: Int) -> Int { max(4, width - valueX(width) - 1) }

    enum Line: Equatable {
        case info(String)
        case label(ParticularField)
        case value(ParticularField, row: Int)
        case note(ParticularField, String, isProblem: Bool)
        case blank

        var field: ParticularField? {
            switch self {
            case .label(let f), .value(let f, _), .note(let f, _, _): f
            case .info, .blank: nil
            }
        }
    }

    /// The text of `field` as shown, wrapped at the value's width.
    func wrapped(_ field: ParticularField, width: Int) -> (characters: [Character], rows: [WrappedText.Row]) {
        let characters = field == focus && field.isText ? editor.characters : Array(shownText(field))
        return (characters, WrappedText.layout(characters, width: ParticularEditorState.valueWidth(width)))
    }

    func lines(width: Int) -> [Line] {
        var lines: [Line] = []
        func note(_ field: ParticularField, _ text: String, isProblem: Bool) {
            let characters = Array((isProblem ? "⚠ " : "") + text)
            for row in WrappedText.layout(characters, width: max(8, width - ParticularEditorState.valueX(width) - 1)) {
                lines.append(.note(field, String(characters[row.start..<row.end]), isProblem: isProblem))
            }
        }
        if let asset {
            let info = "\(asset.type.label) · WLL \(Asset.wllText(asset.wllKg))"
                + " (the SWL when it has one configuration)"
            let characters = Array(info)
            for row in WrappedText.layout(characters, width: max(8, width - 2)) {
                lines.append(.info(String(characters[row.start..<row.end])))
            }
            lines.append(.blank)
        }
        for field in fields {
            if ParticularEditorState.isNarrow(width) { lines.append(.label(field)) }
            let rows = field.isMultiline ? max(2, wrapped(field, width: width).rows.count) : 1
            for row in 0..<rows { lines.append(.value(field, row: row)) }
            for problem in problems where problem.field == field { note(field, problem.message, isProblem: true) }
            if field == focus {
                let hint = hint(field)
                if !hint.isEmpty { note(field, hint, isProblem: false) }
            }
            lines.append(.blank)
        }
        return lines
    }

    /// The first line shown: as near the top as keeps the focused field, and the cursor's row, in view.
    func scroll(_ lines: [Line], body: Int, width: Int) -> Int {
        guard let first = lines.firstIndex(where: { $0.field == focus }),
              let last = lines.lastIndex(where: { $0.field == focus }) else { return 0 }
        var cursorRow = 0
        if focus.isMultiline { cursorRow = WrappedText.row(of: editor.cursor, in: wrapped(focus, width: width).rows) }
        let cursorLine = lines.firstIndex(of: .value(focus, row: cursorRow)) ?? first
        var start = min(first, max(0, last - body + 1))
        if cursorLine >= start + body { start = cursorLine - body + 1 }
        return max(0, start)
    }

    // MARK: Drawing

    public func draw(into frame: inout Frame, area: Rect) {
        let width = area.width
        frame.fill(y: 0, in: area, style: .reverse)
        let state = saving ? " saving… " : hasChanges ? " changed " : ""
        frame.put(" " + title, x: 0, y: 0, in: area, style: .reverse, maxWidth: width - state.displayWidth)
        if !state.isEmpty { frame.put(state, x: width - state.displayWidth, y: 0, in: area, style: .reverse) }

        // The message wraps above the footer (up to three rows), so a register's sentence reads whole.
        var bottom: [(String, Style)] = []
        if let message {
            let style = message.isError ? Style(colour: .red, bold: true) : Style.bold
            bottom = message.text.wrapped(toWidth: max(1, width), maxLines: 3).map { ($0, style) }
        } else {
            bottom = [(ParticularEditorState.keymap.footer(width: width), .dim)]
        }
        let body = max(0, area.height - 1 - bottom.count)
        for (index, line) in bottom.enumerated() where 1 + body + index < area.height {
            frame.put(line.0, x: 0, y: 1 + body + index, in: area, style: line.1)
        }

        let lines = lines(width: width)
        let start = scroll(lines, body: body, width: width)
        let valueX = ParticularEditorState.valueX(width)
        for (offset, line) in lines.dropFirst(start).prefix(body).enumerated() {
            let y = 1 + offset
            switch line {
            case .info(let text):
                frame.put(" " + text, x: 0, y: y, in: area, style: .dim)
            case .label(let field):
                drawLabel(field, y: y, into: &frame, area: area)
            case .value(let field, let row):
                if row == 0 && !ParticularEditorState.isNarrow(width) {
                    drawLabel(field, y: y, into: &frame, area: area)
                }
                drawValue(field, row: row, in: Rect(x: area.x + valueX, y: area.y + y,
                                                     width: ParticularEditorState.valueWidth(width) + 1, height: 1),
                          width: width, into: &frame)
            case .note(_, let text, let isProblem):
                frame.put(text, x: valueX, y: y, in: area, style: isProblem ? Style(colour: .red) : .dim)
            case .blank:
                break
            }
        }
        if lines.count - start > body, body > 0 { frame.put("↓", x: width - 1, y: body, in: area, style: .dim) }
        if start > 0, body > 0 { frame.put("↑", x: width - 1, y: 1, in: area, style: .dim) }

        if let leaving {
            frame.cursor = nil
            leaving.draw(into: &frame, area: area)
        } else if let picking {
            frame.cursor = nil
            picking.draw(into: &frame, area: area)
        }
    }

    private func drawLabel(_ field: ParticularField, y: Int, into frame: inout Frame, area: Rect) {
        let focused = field == focus
        frame.put(focused ? "▸" : " ", x: 0, y: y, in: area, style: .bold)
        // Beside its value the label has the value's left margin; on a row of its own, the whole width.
        let narrow = ParticularEditorState.isNarrow(area.width)
        let room = narrow ? area.width - 2 : ParticularEditorState.valueX(area.width) - 3
        frame.put(ParticularEditorState.label(field, of: change), x: 2, y: y, in: area,
                  style: focused ? .bold : .plain, maxWidth: room)
    }

    private func drawValue(_ field: ParticularField, row: Int, in widget: Rect, width: Int, into frame: inout Frame) {
        let focused = field == focus && picking == nil && leaving == nil
        switch field {
        case .employer, .site:
            let text = ParticularsText.value(field, of: change, in: particulars)
            frame.put("‹ \(text) ›", x: 0, y: 0, in: widget, style: focused ? .reverse : .plain)
        case .colourCode:
            let scheme = ColourCodeScheme(rawValue: change[field]) ?? .none
            frame.put("‹ \(scheme.label) ›", x: 0, y: 0, in: widget, style: focused ? .reverse : .plain)
        case .selfEmployed:
            frame.put(change[field] == "yes" ? "[x] yes" : "[ ] no", x: 0, y: 0, in: widget,
                      style: focused ? .reverse : .plain)
        default:
            if field.isMultiline {
                let (characters, rows) = wrapped(field, width: width)
                frame.fill(y: 0, in: widget, style: Style(underline: true))
                if row < rows.count {
                    frame.put(String(characters[rows[row].start..<rows[row].end]), x: 0, y: 0, in: widget,
                              style: Style(underline: true))
                }
                if focused, WrappedText.row(of: editor.cursor, in: rows) == row {
                    let before = String(characters[rows[row].start..<min(editor.cursor, rows[row].end)])
                    frame.cursor = (widget.x + DisplayWidth.of(before), widget.y)
                }
            } else {
                let characters = focused ? editor.characters : Array(shownText(field))
                var box = widget
                if field == .declarationDate { box.width = min(widget.width, 11) }
                TextFieldView.draw(characters, cursor: focused ? editor.cursor : nil,
                                   placeholder: field == .declarationDate ? "YYYY-MM-DD" : nil, in: box, into: &frame)
            }
        }
    }
}
