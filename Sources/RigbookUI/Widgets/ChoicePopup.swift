import RigbookCore

/// The pop-up list of a choice field; it answers with the option chosen, or with nothing.
public struct ChoicePopup: Sendable {
    public enum Action: Sendable { case previous, next, first, last, take, cancel, typeAhead }
    public enum Answer: Sendable, Equatable { case cancelled, chosen(ChoiceValue) }

    public let field: FormField
    public var selection: Int
    let options: [ChoiceValue]

    /// The register's examiners, for the inspector's name: the one named now is highlighted.
    init(field: FormField, examiners: [Examiner], in values: InspectionValues) {
        self.field = field
        options = examiners.map(ChoiceValue.examiner)
        let name = values.inspectorName.trimmingCharacters(in: .whitespaces).lowercased()
        selection = examiners.firstIndex { $0.name.trimmingCharacters(in: .whitespaces).lowercased() == name } ?? 0
    }

    init(field: FormField, in values: InspectionValues) {
        self.field = field
        let options = Choices.options(field, in: values)
        self.options = options
        selection = Choices.current(field, in: values).flatMap { options.firstIndex(of: $0) } ?? 0
    }

    static let keymap = Keymap<Action>(title: "Choice list", [
        KeyBinding([.up], label: "↑", help: "Previous option", footer: "choose", brief: "previous option",
                   rank: .constant, action: .previous),
        KeyBinding([.down, .tab], label: "↓", help: "Next option", footer: "choose", brief: "next option",
                   rank: .constant, action: .next),
        KeyBinding([.home], help: "First option", rank: .sometimes, action: .first),
        KeyBinding([.end], help: "Last option", rank: .sometimes, action: .last),
        // The key table's words are a question's and the attach prompt's, so a form's line says each once.
        KeyBinding([.enter, .char(" ")], label: "Enter", help: "Take the highlighted option", footer: "takes",
                   brief: "picks", rank: .constant, action: .take),
        KeyBinding([.escape, .ctrl("c")], label: "Esc", help: "Close the list, nothing changed", footer: "cancels",
                   brief: "cancel", rank: .often, action: .cancel),
        // Letters type ahead (no j and k here: they would take two letters away from the options).
        KeyBinding(TypeAhead.keys, label: TypeAhead.label,
                   help: "The next option starting with that letter (again: the one after it)",
                   brief: "jump to an option by its first letter", rank: .often, action: .typeAhead),
    ])

    public mutating func handle(_ key: Key) -> Answer? {
        switch ChoicePopup.moveSelection(&selection, labels: options.map(\.label), key: key) {
        case .take?: return .chosen(options[selection])
        case .cancel?: return .cancelled
        default: return nil
        }
    }

    /// The keys of a pop-up list on its selection (every list that pops up shares them); returns the action,
    /// so the list can take or cancel, which only it knows how to answer.
    static func moveSelection(_ selection: inout Int, labels: [String], key: Key) -> Action? {
        let count = labels.count
        let action = keymap.action(for: key)
        guard count > 0 else { return action }
        switch action {
        case .previous?: selection = (selection + count - 1) % count
        case .next?: selection = (selection + 1) % count
        case .first?: selection = 0
        case .last?: selection = count - 1
        case .typeAhead?:
            if let index = TypeAhead.index(after: selection, in: labels, key: key) { selection = index }
        case .take?, .cancel?, nil: break
        }
        return action
    }

    func draw(into frame: inout Frame, area: Rect) {
        let hint = ChoicePopup.keymap.hint
        let inner = min(area.width - 4, max(hint.displayWidth, (options.map(\.label.displayWidth).max() ?? 10) + 4))
        let lines = options.enumerated().map { index, option in (index == selection ? "› " : "  ") + option.label }
        let examiners = options.contains { if case .examiner = $0 { true } else { false } }
        Box.draw(title: examiners ? "Examiners" : field.shortLabel, lines: lines.map { ($0, Style.plain) },
                 width: inner, highlight: selection,
                 footer: hint, in: area, into: &frame)
    }
}
