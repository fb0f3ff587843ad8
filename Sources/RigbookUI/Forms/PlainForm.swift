import RigbookCore

/// A form whose values are checked whole on Ctrl-S and sent as one change (a new or edited asset, a particular):
/// no record of its own and no gate's tick. Typing, the keys of its choices, the problems under their fields, the
/// message above the footer, the question before dropping what was typed and the body drawn as lines are written
/// once here; a form declares its fields, where their values live, its checks and what its save sends.
protocol PlainForm: FieldForm, Screen {
    associatedtype Values: Equatable
    var values: Values { get set }
    /// Values that count as nothing typed: leaving them asks nothing.
    var baseline: Values { get }
    var editor: EditableText { get set }
    /// Why the last Ctrl-S was refused, tied to fields (nil: the form as a whole); they follow the typing.
    var problems: [(field: Field?, message: String)] { get set }
    /// The line above the footer: why a save was refused, what a paste left out.
    var message: Notice? { get set }
    /// The input batch of the last change (or of the opening): Ctrl-S counts only from a later one.
    var lastChange: SeenInBatch { get set }
    /// Enter's list of a choice's options, while it is open.
    var picking: PickList? { get set }
    /// "Leave without saving?" while it is asked.
    var discarding: Question<LeaveEditorChoice>? { get set }
    var keymap: Keymap<FormAction> { get }

    /// A typed field's text, and setting it.
    func text(of field: Field) -> String
    mutating func setText(_ field: Field, _ text: String)
    /// How many characters a typed field takes, and the characters it refuses with the sentence saying why.
    func typingLimit(_ field: Field) -> Int
    func typingRule(_ field: Field) -> (allowed: (Character) -> Bool, refusal: String)?
    /// Grey text in an empty field, and what the focused field is for (under it).
    func placeholder(_ field: Field) -> String?
    func hint(_ field: Field) -> String
    /// The checks of the values as they stand (what Ctrl-S refuses).
    func currentProblems() -> [(field: Field?, message: String)]
    /// The title bar, the state at its right, the dim lines above the fields, the line above the footer.
    var title: String { get }
    var titleState: (text: String, style: Style)? { get }
    var infoLines: [String] { get }
    var statusLine: (text: String, style: Style)? { get }
    /// A blank row between fields (where the fields have hints and several lines).
    static var spacedFields: Bool { get }
    /// "Leave without saving?" in this form's words.
    static var discardQuestion: Question<LeaveEditorChoice> { get }
    /// What the form calls a refused Ctrl-S: "Not added", "Not saved".
    var refusal: String { get }
    mutating func save(context: ScreenContext) -> Outcome
    mutating func close(context: ScreenContext) -> Outcome
    /// Keys only this form has (Ctrl-R's history).
    mutating func handleOwn(_ action: FormAction, context: ScreenContext) -> Outcome
}

extension PlainForm {
    var titleState: (text: String, style: Style)? { nil }
    var infoLines: [String] { [] }
    var statusLine: (text: String, style: Style)? { nil }
    func placeholder(_ field: Field) -> String? { nil }
    func hint(_ field: Field) -> String { "" }
    func typingRule(_ field: Field) -> (allowed: (Character) -> Bool, refusal: String)? { nil }
    mutating func handleOwn(_ action: FormAction, context: ScreenContext) -> Outcome { .stay }

    var hasChanges: Bool { values != baseline }
    var isTyped: Bool { [.text, .multiline, .date].contains(kind(of: focus)) }

    /// The focus on a field, its text in the editor.
    mutating func focusEditor(on field: Field) { editor = EditableText(text(of: field)) }

    /// Ctrl-S's answer to the form's checks: the problems under their fields, the focus on the first to fix and
    /// how many in the message; true when there were none.
    mutating func passesChecks() -> Bool {
        let found = currentProblems()
        guard !found.isEmpty else { return true }
        problems = found
        let count = found.count
        message = .error("\(refusal): \(count) problem\(count == 1 ? "" : "s")"
                         + (found.contains { $0.field != nil } ? " (marked ⚠)." : ": ")
                         + found.filter { $0.field == nil }.map(\.message).joined(separator: " "))
        // The first field to fix as the form reads, top to bottom (the checks list unreadable numbers first).
        if let first = fields.first(where: { field in found.contains { $0.field == field } }) { focusField(first) }
        return false
    }

    /// A save that kept fields another terminal changed meanwhile: each is said under its field with the value it
    /// keeps, and what was typed stays, for Ctrl-S to save over it knowingly.
    mutating func keptTheirs(_ conflicts: [(field: Field?, theirs: String)]) -> Outcome {
        problems = conflicts.map { conflict in
            (conflict.field, "Changed meanwhile, in another terminal, to “\(conflict.theirs)”: yours is not saved. "
                + "Ctrl-S again saves yours over it.")
        }
        let count = conflicts.count
        message = .error("Saved the rest; \(count) field\(count == 1 ? " was" : "s were") changed meanwhile "
                         + "elsewhere (marked ⚠).")
        return .stay
    }

    /// The register refused the save: what was typed stays, and the register's sentence goes above the footer.
    mutating func refusedByRegister(_ reason: String) -> Outcome {
        message = .error("\(refusal): \(reason)")
        return .stay
    }

    /// Esc: the question when something was typed, else the form closes.
    mutating func askBeforeDiscarding(context: ScreenContext) -> Outcome {
        if !hasChanges { return .pop }
        discarding = Self.discardQuestion.opened(in: context.batch)
        return .stay
    }

    /// A key: the open question or list first, then the focused text field, then the form's keys and the focused
    /// choice's. A change of values restarts Ctrl-S's count and brings the problems up to date.
    mutating func handlePlainKey(_ key: Key, context: ScreenContext) -> Outcome {
        if var question = discarding {
            let answer = question.handle(key, batch: context.batch)
            discarding = answer == nil ? question : nil
            return answer == .discard ? .pop : .stay
        }
        let before = values
        defer {
            if values != before {
                lastChange.appeared(in: context.batch)
                if !problems.isEmpty { problems = currentProblems() }
            }
        }
        if var list = picking {
            let answer = list.handle(key)
            picking = answer == nil ? list : nil
            if case .chosen(let index) = answer { chooseOption(focus, index) }
            return .stay
        }
        message = nil
        if handleFieldJump(key) { return .stay }
        if isTyped {
            switch type(key, width: PlainFormLayout.valueWidth(context.area.width)) {
            case .leaveUp: moveFocus(by: -1); return .stay
            case .leaveDown: moveFocus(by: 1); return .stay
            case .ignored: break
            case .changed, .moved, .full, .pasted: return .stay
            }
        } else if case .paste = key {
            message = .error("Nothing pasted: \(label(of: focus)) is not typed.")
            return .stay
        }
        guard let action = keymap.action(for: key) ?? (isTyped ? nil : PlainFormKeys.choices.action(for: key)) else {
            return .stay
        }
        let focusKind = kind(of: focus)
        switch action {
        case .next: moveFocus(by: 1)
        case .previous: moveFocus(by: -1)
        case .help:
            return .help(title: keymap.title, keymap.helpLines()
                         + PlainFormKeys.choices.helpSection("On a choice or a yes / no:")
                         + EditableText.keymap.helpSection("In a text field:"))
        case .close: return close(context: context)
        case .save:
            guard lastChange.isSeen(by: context.batch) else {
                message = .error("\(refusal): Ctrl-S arrived together with other keys. Check, then press it again.")
                return .stay
            }
            return save(context: context)
        case .toggle where flag(focus) != nil: toggleFlag(focus)
        case .toggle where focusKind == .choice, .cycleForward where focusKind == .choice:
            cycleOption(focus, by: 1)
        case .cycleBack where focusKind == .choice: cycleOption(focus, by: -1)
        case .typeAhead:
            if !jumpToOption(focus, key: key) { message = .info(letterRefusal(focus, key: key)) }
        case .openChoices where focusKind == .choice:
            guard !optionLabels(focus).isEmpty else {
                message = .error("There is nothing to choose from: add one in Settings (, on the list).")
                break
            }
            picking = optionList(focus)
        case .openChoices: moveFocus(by: 1)
        default: return handleOwn(action, context: context)
        }
        return .stay
    }

    /// Typing into the focused field: a refused character or a full field says so; a paste says what it left out.
    private mutating func type(_ key: Key, width: Int) -> EditableText.Outcome {
        let limit = typingLimit(focus)
        let name = label(of: focus)
        let rule = typingRule(focus)
        if let rule, case .char(let c) = key, !rule.allowed(c) {
            message = .error(rule.refusal)
            return .full
        }
        let outcome = editor.apply(key, multiline: kind(of: focus) == .multiline, maxLength: limit, width: width,
                                   allowed: rule?.allowed)
        switch outcome {
        case .changed:
            setText(focus, editor.text)
        case .pasted(let paste):
            setText(focus, editor.text)
            message = .info(paste.report(field: name, limit: limit))
        case .full:
            message = .error("\(name) holds at most \(limit) characters; the rest was not taken.")
        default: break
        }
        return outcome
    }
}

/// The keys of every plain form: the same keys in the same places, in each form's words.
enum PlainFormKeys {
    /// Keys that work in every field. `save`: what Ctrl-S does and its footer word; `close`: what Esc does.
    static func fields(title: String, save: (help: String, footer: String), close: (help: String, footer: String),
                       own: [KeyBinding<FormAction>] = []) -> Keymap<FormAction> {
        Keymap(title: title, whileTyping: true, [
            KeyBinding([.tab], label: "Tab", help: "Next field", footer: "next", brief: "next field", rank: .constant,
                       action: .next),
            KeyBinding([.backTab], label: "Shift-Tab", help: "Previous field", rank: .often, action: .previous),
            KeyBinding([.ctrl("s")], help: save.help, footer: save.footer, rank: .constant, action: .save),
            KeyBinding([.escape, .ctrl("c")], label: "Esc Ctrl-C", help: close.help, footer: close.footer,
                       rank: .often, action: .close),
            FieldJump.binding,
        ] + own + [
            KeyBinding([.function(1)], label: "F1", help: "This help", footer: "help", rank: .sometimes, action: .help),
        ])
    }

    static let choices = DraftedFormKeys.choices(
        title: "A choice or yes / no", space: "Yes / no; on a choice, the next option",
        typeAhead: "On a choice: the next option starting with that letter (again: the one after it); yes / no: y, n",
        enter: KeyBinding([.enter], help: "List the options to pick from", brief: "list the options",
                          rank: .often, action: .openChoices))

    /// "Leave without saving?" with the safe answer first, so Enter never throws work away.
    static func discardQuestion(_ title: String, lines: [String], discard: String) -> Question<LeaveEditorChoice> {
        Question(title: title, lines: lines.map { ($0, .plain) },
                 options: [.init("Keep editing", answer: .keepEditing),
                           .init(discard, answer: .discard, keys: [.char("d")], rank: .sometimes, hint: "discards")],
                 cancel: (.keepEditing, "keeps editing"), otherKeys: ("Any other key keeps editing.", .keepEditing),
                 minWidth: 52)
    }
}
