import RigbookCore

/// Adding an asset from the list (`a`): the 12 fields, checked on Ctrl-S.
public struct AssetFormState: Sendable {
    public internal(set) var draft = AssetDraft()
    public internal(set) var focus: AssetDraft.Field = .tag
    var editor = EditableText("")
    public internal(set) var problems: [(AssetDraft.Field, String)] = []
    public internal(set) var confirmingDiscard = false
    public internal(set) var error: String?

    public init() {}

    static let keymap = Keymap<FormAction>(title: "New asset", [
        KeyBinding([.tab], label: "Tab", help: "Next field (also ↓)", footer: "next", action: .next),
        KeyBinding([.backTab], label: "Shift-Tab", help: "Previous field (also ↑)", action: .previous),
        KeyBinding([.ctrl("s")], help: "Add the asset to the register", footer: "add", action: .save),
        KeyBinding([.escape, .ctrl("c")], label: "Esc", help: "Cancel (asks first if you typed anything)", footer: "cancel", action: .close),
        KeyBinding([.char(" ")], label: "Space", help: "Lifts persons: yes / no; type: next", action: .toggle),
        KeyBinding([.right], label: "→", help: "Equipment type: next", action: .cycleForward),
        KeyBinding([.left], label: "←", help: "Equipment type: previous", action: .cycleBack),
        KeyBinding([.function(1)], label: "F1", help: "This help", footer: "help", action: .help),
    ])

    var isText: Bool { focus != .type && focus != .liftsPersons }

    func text(_ field: AssetDraft.Field) -> String {
        switch field {
        case .tag: draft.tag
        case .name: draft.name
        case .wll: draft.wllKg
        case .length: draft.lengthM
        case .location: draft.location
        case .manufacturer: draft.manufacturer
        case .serial: draft.serialNumber
        case .manufactured: draft.manufactured
        case .commissioned: draft.commissioned
        case .interval: draft.intervalMonths
        case .type: draft.type.label
        case .liftsPersons: draft.liftsPersons ? "yes" : "no"
        }
    }

    mutating func setText(_ field: AssetDraft.Field, _ value: String) {
        switch field {
        case .tag: draft.tag = value
        case .name: draft.name = value
        case .wll: draft.wllKg = value
        case .length: draft.lengthM = value
        case .location: draft.location = value
        case .manufacturer: draft.manufacturer = value
        case .serial: draft.serialNumber = value
        case .manufactured: draft.manufactured = value
        case .commissioned: draft.commissioned = value
        case .interval: draft.intervalMonths = value
        case .type, .liftsPersons: break
        }
    }

    mutating func focusField(_ field: AssetDraft.Field) {
        focus = field
        editor = EditableText(text(field))
    }

    enum Outcome { case stay, close, help, add(Asset) }

    mutating func handle(_ key: Key) -> Outcome {
        if confirmingDiscard {
            confirmingDiscard = false
            return key == .char("d") || key == .enter ? .close : .stay
        }
        error = nil
        if isText {
            switch editor.apply(key, multiline: false, maxLength: Asset.maxTextLength) {
            case .changed:
                setText(focus, editor.text)
                refreshProblems()
                return .stay
            case .moved, .full: return .stay
            case .leaveUp: move(-1); return .stay
            case .leaveDown: move(1); return .stay
            case .ignored: if key == .enter { move(1); return .stay }
            }
        } else if key == .up || key == .down {
            move(key == .up ? -1 : 1)
            return .stay
        }
        guard let action = AssetFormState.keymap.action(for: key) else { return .stay }
        switch action {
        case .next: move(1)
        case .previous: move(-1)
        case .help: return .help
        case .close:
            if draft == AssetDraft() { return .close }
            confirmingDiscard = true
        case .save:
            switch draft.validated() {
            case .success(let asset): return .add(asset)
            case .failure(let failure):
                problems = failure.items
                error = "Not added: \(failure.items.count) problem\(failure.items.count == 1 ? "" : "s") (marked ⚠)."
                if let first = failure.items.first { focusField(first.0) }
            }
        case .toggle, .cycleForward, .cycleBack:
            defer { refreshProblems() }
            if focus == .liftsPersons && action == .toggle { draft.liftsPersons.toggle() }
            if focus == .type {
                let all = EquipmentType.allCases
                let step = action == .cycleBack ? -1 : 1
                draft.type = all[(all.firstIndex(of: draft.type)! + step + all.count) % all.count]
            }
        case .openChoices: break
        }
        return .stay
    }

    /// Once a Ctrl-S has listed problems, they follow the typing (fixed ones go away).
    mutating func refreshProblems() {
        guard !problems.isEmpty else { return }
        if case .failure(let failure) = draft.validated() { problems = failure.items } else { problems = [] }
    }

    mutating func move(_ step: Int) {
        let all = AssetDraft.Field.allCases
        focusField(all[(focus.rawValue + step + all.count) % all.count])
    }

    func draw(into frame: inout Frame) {
        frame.fill(y: 0, style: .reverse)
        frame.put(" New asset", x: 0, y: 0, style: .reverse)
        let labelWidth = 22
        var y = 2
        for field in AssetDraft.Field.allCases where y < frame.height - 2 {
            let focused = field == focus
            frame.put(focused ? "▸" : " ", x: 0, y: y, style: .bold)
            frame.put(field.label, x: 2, y: y, style: focused ? .bold : .plain, maxWidth: labelWidth - 2)
            let x = labelWidth + 1
            switch field {
            case .type:
                frame.put("‹ \(draft.type.label) ›", x: x, y: y, style: focused ? .reverse : .plain)
            case .liftsPersons:
                frame.put(draft.liftsPersons ? "[x] yes" : "[ ] no", x: x, y: y, style: focused ? .reverse : .plain)
            default:
                let placeholder = field == .interval ? "\(draft.defaultInterval) (default for the type)" : nil
                TextFieldView.draw(focused ? editor.characters : Array(text(field)), cursor: focused ? editor.cursor : nil,
                                   placeholder: placeholder, x: x, y: y, width: max(4, frame.width - x - 1), into: &frame)
            }
            y += 1
            for (problemField, message) in problems where problemField == field && y < frame.height - 2 {
                frame.put("⚠ " + message, x: labelWidth + 1, y: y, style: Style(colour: .red))
                y += 1
            }
        }
        let footerY = frame.height - 1
        if let error { frame.put(error, x: 0, y: footerY, style: Style(colour: .red, bold: true)) }
        else { frame.put(AssetFormState.keymap.footer(width: frame.width), x: 0, y: footerY, style: .dim) }
        if confirmingDiscard {
            frame.cursor = nil
            Box.draw(title: "Cancel this new asset?", lines: [("What you typed here is not kept.", .plain), ("", .plain),
                                                             ("d or Enter: cancel it · any other key: keep editing", .bold)],
                     width: min(frame.width - 4, 56), highlight: nil, footer: nil, into: &frame)
        }
    }
}
