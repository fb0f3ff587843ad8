import RigbookCore

/// The answer to "Cancel this new asset?".
public enum CancelChoice: Sendable, Equatable { case cancel, keepEditing }

/// Adding an asset from the list (`a`): the 12 fields and the examination scheme, checked on Ctrl-S. The same
/// screen edits an asset (`e`, `AssetEditor.swift`): then it has a draft file and an exit guard.
public struct AssetFormState: Screen {
    public internal(set) var draft = AssetDraft()
    /// Set when the screen edits an asset rather than adding one.
    public internal(set) var editing: AssetEditing?
    public internal(set) var focus: AssetDraft.Field = .tag
    var editor = EditableText("")
    public internal(set) var problems: [(AssetDraft.Field, String)] = []
    var cancelling: Question<CancelChoice>?
    public internal(set) var error: String?
    /// The input batch of the last change (or of the opening): Ctrl-S counts only from a later one.
    var lastChange = SeenInBatch(0)

    public init() {}

    public var confirmingDiscard: Bool { cancelling != nil }

    public mutating func opened(context: ScreenContext) { lastChange.appeared(in: context.batch) }

    /// The editor's draft; a new asset's form keeps none.
    public var draftIDs: [String] { editing.map { [$0.draftID] } ?? [] }

    /// The fields in focus order: an asset's 12 and its scheme; the editor adds retirement and the reason.
    var fields: [AssetDraft.Field] {
        guard editing != nil else { return draft.addedFields }
        let retirement: [AssetDraft.Field] = [.disposition, .retiredOn, .reason]
        return (draft.kind == .electrical ? AssetDraft.Field.electricalAdded : AssetDraft.Field.added) + retirement
    }

    /// The choice fields of either kind of asset (cycled with ← →, Space, a letter).
    static let choiceFields: Set<AssetDraft.Field> = [.type, .liftsPersons, .disposition, .kind, .equipmentClass,
                                                      .environment, .risk]

    static let keymap = Keymap<FormAction>(title: "New asset", whileTyping: true, [
        KeyBinding([.tab], label: "Tab", help: "Next field", footer: "next", action: .next),
        KeyBinding([.backTab], label: "Shift-Tab", help: "Previous field", action: .previous),
        KeyBinding([.ctrl("s")], help: "Add the asset to the register", footer: "add", action: .save),
        KeyBinding([.escape, .ctrl("c")], label: "Esc", help: "Cancel (asks first if you typed anything; Ctrl-C too)",
                   footer: "cancel", action: .close),
        KeyBinding([.function(1)], label: "F1", help: "This help", footer: "help", action: .help),
    ])

    /// Keys of the two fields that are not text: equipment type and lifts persons.
    static let choiceKeymap = Keymap<FormAction>(title: "Asset: type, in service and lifts persons", [
        KeyBinding([.char(" ")], label: "Space", help: "Lifts persons: yes / no; type, in service: next",
                   brief: "yes / no, next type", action: .toggle),
        KeyBinding([.right], label: "→", help: "Equipment type, in service: next", brief: "next type",
                   action: .cycleForward),
        KeyBinding([.left], label: "←", help: "Equipment type, in service: previous", brief: "previous type",
                   action: .cycleBack),
        KeyBinding([.down], label: "↓", help: "Next field", action: .next),
        KeyBinding([.up], label: "↑", help: "Previous field", action: .previous),
        KeyBinding(TypeAhead.keys, label: TypeAhead.label,
                   help: "Type: the next type starting with that letter (again: the one after it); "
                   + "lifts persons: y / n",
                   brief: "jump to a type by its first letter, y / n", action: .typeAhead),
    ])

    static let cancelQuestion = Question<CancelChoice>(
        title: "Cancel this new asset?", lines: [("What you typed here is not kept.", .plain)],
        options: [.init("Cancel it", answer: .cancel, keys: [.char("d")], hint: "cancels it"),
                  .init("Keep editing", answer: .keepEditing)],
        cancel: (.keepEditing, "keeps editing"), otherKeys: ("Any other key keeps editing.", .keepEditing),
        minWidth: 52)

    var isText: Bool { focus.textPath != nil }

    func text(_ field: AssetDraft.Field) -> String { AssetFormState.text(field, of: draft) }

    static func text(_ field: AssetDraft.Field, of draft: AssetDraft) -> String {
        if let path = field.textPath { return draft[keyPath: path] }
        switch field {
        case .disposition: return draft.disposition.map { "Retired: \($0.label)" } ?? "In service"
        case .kind: return draft.kind.label
        case .equipmentClass: return draft.equipmentClass.label
        case .environment: return draft.environment.label
        case .risk: return draft.risk.label
        default: break
        }
        return field == .type ? draft.type.label : draft.liftsPersons ? "yes" : "no"
    }

    mutating func setText(_ field: AssetDraft.Field, _ value: String) {
        if let path = field.textPath { draft[keyPath: path] = value }
    }

    mutating func focusField(_ field: AssetDraft.Field) {
        focus = field
        editor = EditableText(text(field))
    }

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        if editing != nil { return handleEditing(key, context: context) }
        return handleKey(key, context: context)
    }

    mutating func handleKey(_ key: Key, context: ScreenContext) -> Outcome {
        if var question = cancelling {
            let answer = question.handle(key, batch: context.batch)
            cancelling = answer == nil ? question : nil
            return answer == .cancel ? .pop : .stay
        }
        error = nil
        let before = draft
        defer { if draft != before { lastChange.appeared(in: context.batch) } }
        if isText {
            switch editor.apply(key, multiline: false, maxLength: Asset.maxTextLength) {
            case .changed:
                setText(focus, editor.text)
                refreshProblems(today: context.today)
                return .stay
            case .pasted(let paste):
                setText(focus, editor.text)
                refreshProblems(today: context.today)
                error = paste.report(field: focus.label, limit: Asset.maxTextLength)
                return .stay
            case .moved, .full: return .stay
            case .leaveUp: move(-1, today: context.today); return .stay
            case .leaveDown: move(1, today: context.today); return .stay
            case .ignored: break
            }
        }
        guard let action = formKeymap.action(for: key)
                ?? (isText ? nil : AssetFormState.choiceKeymap.action(for: key)) else { return .stay }
        switch action {
        case .next: move(1, today: context.today)
        case .previous: move(-1, today: context.today)
        case .help:
            return .help(title: formKeymap.title, formKeymap.helpLines()
                         + AssetFormState.choiceKeymap.helpSection("On the type, in service and lifts persons:")
                         + EditableText.keymap.helpSection("In a text field:"))
        case .close where editing != nil:
            return closeEditor(context: context)
        case .save where editing != nil:
            return saveEdit(context: context)
        case .close:
            if draft == AssetDraft(kind: draft.kind) { return .pop }
            cancelling = AssetFormState.cancelQuestion.opened(in: context.batch)
        case .save:
            if !lastChange.isSeen(by: context.batch) {
                error = "Not added: Ctrl-S arrived together with other keys. Check, then press it again."
                return .stay
            }
            switch draft.validated(today: context.today) {
            case .success(let asset): return .effects([.addAsset(asset)])
            case .failure(let failure):
                problems = failure.items
                error = "Not added: \(failure.items.count) problem\(failure.items.count == 1 ? "" : "s") (marked ⚠)."
                if let first = failure.items.first { focusField(first.0) }
            }
        case .toggle, .cycleForward, .cycleBack:
            defer { refreshProblems(today: context.today) }
            if focus == .liftsPersons && action == .toggle { draft.liftsPersons.toggle() }
            if focus == .type {
                let all = EquipmentType.allCases
                let step = action == .cycleBack ? -1 : 1
                draft.type = all[(all.firstIndex(of: draft.type)! + step + all.count) % all.count]
            }
            func cycle<T: Equatable>(_ all: [T], _ value: inout T) {
                let step = action == .cycleBack ? -1 : 1
                value = all[(all.firstIndex(of: value)! + step + all.count) % all.count]
            }
            // The kind is chosen only for a new asset: an asset stays the kind it was added as.
            if focus == .kind, editing == nil { cycle(AssetKind.allCases, &draft.kind) }
            if focus == .equipmentClass { cycle(ElectricalClass.allCases, &draft.equipmentClass) }
            let tableInterval = draft.defaultInterval
            if focus == .environment { cycle(ElectricalEnvironment.allCases, &draft.environment) }
            if focus == .risk { cycle(ElectricalRisk.allCases, &draft.risk) }
            followTable(from: tableInterval)
            if focus == .disposition {
                let all: [Disposition?] = [nil] + Disposition.allCases
                let step = action == .cycleBack ? -1 : 1
                draft.disposition = all[(all.firstIndex(of: draft.disposition)! + step + all.count) % all.count]
                // A retirement is dated: today unless typed; back in service, no date.
                if draft.disposition == nil { draft.retiredOn = "" }
                else if draft.retiredOn.isEmpty { draft.retiredOn = context.today.iso }
                editor = EditableText(text(focus))
            }
        case .typeAhead:
            defer { refreshProblems(today: context.today) }
            let tableInterval = draft.defaultInterval
            let types = EquipmentType.allCases
            if focus == .type, let index = TypeAhead.index(after: types.firstIndex(of: draft.type),
                                                           in: types.map(\.label), key: key) {
                draft.type = types[index]
            }
            if focus == .liftsPersons, let index = TypeAhead.index(after: nil, in: ["no", "yes"], key: key) {
                draft.liftsPersons = index == 1
            }
            func jump<T: Equatable>(_ all: [T], _ labels: [String], _ value: inout T) {
                if let index = TypeAhead.index(after: all.firstIndex(of: value), in: labels, key: key) {
                    value = all[index]
                }
            }
            if focus == .kind, editing == nil { jump(AssetKind.allCases, AssetKind.allCases.map(\.label), &draft.kind) }
            if focus == .equipmentClass {
                jump(ElectricalClass.allCases, ElectricalClass.allCases.map(\.label), &draft.equipmentClass)
            }
            if focus == .environment {
                jump(ElectricalEnvironment.allCases, ElectricalEnvironment.allCases.map(\.label), &draft.environment)
            }
            if focus == .risk { jump(ElectricalRisk.allCases, ElectricalRisk.allCases.map(\.label), &draft.risk) }
            followTable(from: tableInterval)
        case .openChoices, .pickExaminer, .saveAndNext, .cleanPass, .attach, .removeAttachment, .previousAttachment,
             .nextAttachment:
            break   // no list, next asset or checks here: those belong to the inspection form
        }
        return .stay
    }

    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        if editing != nil { return receiveEditing(event, context: context) }
        switch event {
        case .assetAdded(let tag):
            return .pop + .notify(.info("Added \(tag) to the register.")) + .effects([.reloadRegister])
        case .assetNotAdded(let reason):
            error = "Not added: \(reason)"
            return .stay
        default:
            return nil
        }
    }

    /// Once a Ctrl-S has listed problems, they follow the typing (fixed ones go away).
    mutating func refreshProblems(today: CalendarDate) {
        guard !problems.isEmpty else { return }
        switch editing.map({ draft.validatedEdit(of: $0.row.asset, today: today) }) ?? draft.validated(today: today) {
        case .failure(let failure): problems = failure.items
        case .success: problems = []
        }
    }

    /// An interval written out as the table's (the editor's) follows the table when the environment or risk
    /// changes; one typed otherwise stays, with its reason.
    mutating func followTable(from old: Int) {
        guard draft.kind == .electrical, draft.defaultInterval != old,
              draft.intervalMonths.trimmingCharacters(in: .whitespaces) == String(old) else { return }
        draft.intervalMonths = String(draft.defaultInterval)
    }

    /// The next or previous field; a date typed the quick way in the field left is written out.
    mutating func move(_ step: Int, today: CalendarDate) {
        draft.expandRelativeDate(focus, today: today)
        let all = fields
        let index = all.firstIndex(of: focus) ?? 0
        focusField(all[(index + step + all.count) % all.count])
    }

    public func draw(into frame: inout Frame, area: Rect) {
        frame.fill(y: 0, in: area, style: .reverse)
        frame.put(title, x: 0, y: 0, in: area, style: .reverse)
        let labelWidth = 22
        var y = 2
        // The footer (or the error in its place) and the editor's line above it wrap at spaces, a row more each
        // at most; the fields stop above them.
        let footerY = area.height - 1
        var messageRows = 1
        if let error {
            messageRows = frame.putMessage(error, bottom: footerY, maxRows: 2, in: area,
                                           style: Style(colour: .red, bold: true))
        } else {
            frame.put(formKeymap.footer(width: area.width), x: 0, y: footerY, in: area, style: .dim)
        }
        if let line = editorLine, area.height > 3 {
            messageRows += frame.putMessage(line.text, bottom: footerY - messageRows, maxRows: 2, in: area,
                                            style: line.style)
        }
        // The editor's 16 fields do not all fit a short terminal: start where the focused one shows.
        let bottom = min(area.height - (editing == nil ? 2 : 3), area.height - messageRows)
        let first = max(0, (fields.firstIndex(of: focus) ?? 0) - max(0, bottom - y - 1))
        for field in fields.dropFirst(first) where y < bottom {
            let focused = field == focus
            frame.put(focused ? "▸" : " ", x: 0, y: y, in: area, style: .bold)
            // An electrical item's place is its *location*, as for lifting equipment: its site is the register's
            // (`p`), the one its history and certificate name.
            frame.put(field.label, x: 2, y: y, in: area, style: focused ? .bold : .plain, maxWidth: labelWidth - 2)
            let x = labelWidth + 1
            switch field {
            case .type:
                frame.put("‹ \(draft.type.label) ›", x: x, y: y, in: area, style: focused ? .reverse : .plain)
            case .liftsPersons:
                frame.put(draft.liftsPersons ? "[x] yes" : "[ ] no", x: x, y: y, in: area,
                          style: focused ? .reverse : .plain)
            case .disposition, .kind, .equipmentClass, .environment, .risk:
                frame.put("‹ \(text(field)) ›", x: x, y: y, in: area, style: focused ? .reverse : .plain)
            default:
                let placeholder = field == .interval && draft.kind == .electrical
                    ? "\(draft.defaultInterval) (AS/NZS 3760 for the environment)"
                    : field == .intervalReason ? "only for another interval than \(draft.defaultInterval) months"
                    : field == .interval ? "\(draft.defaultInterval) (default for the type)"
                    : field == .examinationScheme ? "only above \(draft.defaultInterval) months (LOLER reg 9(3))" : nil
                TextFieldView.draw(focused ? editor.characters : Array(text(field)),
                                   cursor: focused ? editor.cursor : nil,
                                   placeholder: placeholder,
                                   in: Rect(x: area.x + x, y: area.y + y, width: max(4, area.width - x - 1), height: 1),
                                   into: &frame)
            }
            y += 1
            // Problems wrap under their field, so every sentence (one naming a regulation, say) reads in full.
            for (problemField, message) in problems where problemField == field {
                let characters = Array("⚠ " + message)
                let rows = WrappedText.layout(characters, width: area.width - labelWidth - 2)
                for row in rows where y < bottom {
                    frame.put(String(characters[row.start..<row.end]), x: labelWidth + 1, y: y, in: area,
                              style: Style(colour: .red))
                    y += 1
                }
            }
        }
        if let cancelling {
            frame.cursor = nil
            cancelling.draw(into: &frame, area: area)
        }
        if let leaving = editing?.leaving {
            frame.cursor = nil
            leaving.draw(into: &frame, area: area)
        }
    }
}

extension AssetDraft.Field {
    /// Where a typed field keeps its text (nil for the type and lifts persons, which are chosen).
    var textPath: WritableKeyPath<AssetDraft, String>? {
        switch self {
        case .tag: \.tag
        case .name: \.name
        case .wll: \.wllKg
        case .length: \.lengthM
        case .location: \.location
        case .manufacturer: \.manufacturer
        case .serial: \.serialNumber
        case .manufactured: \.manufactured
        case .commissioned: \.commissioned
        case .interval: \.intervalMonths
        case .examinationScheme: \.examinationScheme
        case .retiredOn: \.retiredOn
        case .reason: \.reason
        case .intervalReason: \.intervalReason
        case .type, .liftsPersons, .disposition, .kind, .equipmentClass, .environment, .risk: nil
        }
    }
}
