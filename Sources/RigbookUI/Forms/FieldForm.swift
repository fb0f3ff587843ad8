import RigbookCore

/// What every form is, whether it keeps a draft of its own or not: fields in focus order, one focused, each edited
/// as its kind says. Moving the focus, a choice's options (cycled, jumped to by a letter, listed) and a flag turned
/// over are written once here for every form; a form declares its fields and where their values live.
protocol FieldForm {
    associatedtype Field: Hashable & Sendable
    /// The fields in focus order, as the values stand now.
    var fields: [Field] { get }
    var focus: Field { get }
    mutating func focusField(_ field: Field)
    /// How a field is edited, and its name in messages.
    func kind(of field: Field) -> FieldKind
    func label(of field: Field) -> String
    /// A choice's options as shown, the one chosen now (nil: none), and choosing one.
    func optionLabels(_ field: Field) -> [String]
    func optionIndex(_ field: Field) -> Int?
    mutating func chooseOption(_ field: Field, _ index: Int)
    /// What a choice shows: its option, or what stands for none.
    func choiceText(_ field: Field) -> String
    /// A check box's or toggle's state (nil: not one), and turning it over.
    func flag(_ field: Field) -> Bool?
    mutating func toggleFlag(_ field: Field)
    /// What warns under a field: the record is complete without it but should say it, so the save goes on.
    func warnings(for field: Field) -> [String]
    /// Ctrl-G's prompt while it is open (`FieldJump`).
    var fieldJump: FieldJump? { get set }
}

/// A line said under a field, and how it reads.
enum FieldNote: Equatable, Sendable {
    /// A rule unmet; a key refused while typing; a warning that lets the save go on; what the focused field's keys do.
    case problem, typing, warning, hint

    /// A rule turns red and bold once a save was tried; a warning stays yellow and bold whatever is done.
    func style(attemptedSave: Bool) -> Style {
        switch self {
        case .problem: attemptedSave ? Style(colour: .red, bold: true) : Style(colour: .yellow)
        case .warning: Style(colour: .yellow, bold: true)
        case .typing: Style(colour: .red, bold: attemptedSave)
        case .hint: .bold
        }
    }

    /// What goes before its first row: a hint is not a rule and has no ⚠.
    var mark: String { self == .hint ? "  " : "⚠ " }
}

extension FieldForm {
    func warnings(for field: Field) -> [String] { [] }

    /// The next or previous field, round from the last to the first.
    mutating func moveFocus(by step: Int) {
        let all = fields
        let index = all.firstIndex(of: focus) ?? 0
        focusField(all[(index + step + all.count) % all.count])
    }

    /// ←/→ on a choice; with nothing chosen, → takes the first option and ← the last.
    mutating func cycleOption(_ field: Field, by step: Int) {
        let count = optionLabels(field).count
        guard count > 0 else { return }
        chooseOption(field, optionIndex(field).map { ($0 + step + count) % count } ?? (step > 0 ? 0 : count - 1))
    }

    /// A letter on a choice: the next option starting with it (again: the one after it); on a yes / no toggle,
    /// `y` or `n`. False when no option starts with it (`letterRefusal` says so).
    mutating func jumpToOption(_ field: Field, key: Key) -> Bool {
        if kind(of: field) == .toggle, let on = flag(field) {
            guard let index = TypeAhead.index(after: nil, in: ["no", "yes"], key: key) else { return false }
            if on != (index == 1) { toggleFlag(field) }
            return true
        }
        guard let index = TypeAhead.index(after: optionIndex(field), in: optionLabels(field), key: key) else {
            return false
        }
        chooseOption(field, index)
        return true
    }

    func choiceText(_ field: Field) -> String { optionIndex(field).map { optionLabels(field)[$0] } ?? "— choose —" }

    /// Draws a choice, a yes / no toggle or a check box (its sentence from the left edge, in place of a label) in
    /// `widget`, the value column of its row; false for a field of another kind.
    func drawChoiceWidget(_ field: Field, focused: Bool, in widget: Rect, area: Rect, into frame: inout Frame) -> Bool {
        let style = focused ? Style(reverse: true) : Style.plain
        switch kind(of: field) {
        case .choice:
            // Cut with "…" so the closing mark always shows where the choice ends.
            let text = choiceText(field).ellipsized(toWidth: max(1, widget.width - 4))
            frame.put("‹ \(text) ›", x: 0, y: 0, in: widget, style: style)
        case .toggle: frame.put(flag(field) == true ? "[x] yes" : "[ ] no", x: 0, y: 0, in: widget, style: style)
        case .check:
            let y = widget.y - area.y
            frame.put(flag(field) == true ? "[x]" : "[ ]", x: 2, y: y, in: area, style: focused ? style : .bold)
            frame.put(label(of: field), x: 6, y: y, in: area, style: focused ? .bold : .plain)
        default: return false
        }
        return true
    }

    /// What is said when `jumpToOption` found nothing for `key`.
    func letterRefusal(_ field: Field, key: Key) -> String {
        kind(of: field) == .toggle ? "\(label(of: field)) takes y or n."
            : "No option of \(label(of: field)) starts with “\(key.name)”."
    }

    /// The list Enter opens on a choice, the option chosen now selected.
    func optionList(_ field: Field) -> PickList {
        PickList(title: label(of: field), labels: optionLabels(field), selected: optionIndex(field))
    }
}
