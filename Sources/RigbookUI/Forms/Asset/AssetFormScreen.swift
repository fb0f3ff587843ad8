import RigbookCore

/// Adding an asset from the list (`a`): the 12 fields and the examination scheme, checked on Ctrl-S. The same
/// screen edits an asset (`e`, `AssetEditor.swift`): then it has a draft file and an exit guard. A declaration for
/// the plain form engine (`Forms/PlainForm.swift`).
public struct AssetFormState: PlainForm {
    public internal(set) var draft = AssetDraft()
    /// Set when the screen edits an asset rather than adding one.
    public internal(set) var editing: AssetEditing?
    public internal(set) var focus: AssetDraft.Field = .tag
    var editor = EditableText("")
    public internal(set) var problems: [(field: AssetDraft.Field?, message: String)] = []
    var discarding: Question<LeaveEditorChoice>?
    var picking: PickList?
    var fieldJump: FieldJump?
    public internal(set) var message: Notice?
    var lastChange = SeenInBatch(0)
    /// The day of the key being handled: a date typed the quick way is written out from it.
    var today: CalendarDate?

    public init() {}

    public mutating func opened(context: ScreenContext) {
        today = context.today
        lastChange.appeared(in: context.batch)
    }

    /// The editor's draft; a new asset's form keeps none.
    public var draftIDs: [String] { editing.map { [$0.draftID] } ?? [] }

    var values: AssetDraft {
        get { draft }
        set { draft = newValue }
    }

    var baseline: AssetDraft { editing?.baseline ?? AssetDraft(kind: draft.kind) }

    /// The fields in focus order: an asset's 12 and its scheme; the editor adds retirement and the reason.
    var fields: [AssetDraft.Field] {
        guard editing != nil else { return draft.addedFields }
        let retirement: [AssetDraft.Field] = [.disposition, .retiredOn, .reason]
        return (draft.kind == .electrical ? AssetDraft.Field.electricalAdded : AssetDraft.Field.added) + retirement
    }

    static let keymap = PlainFormKeys.fields(
        title: "New asset", save: ("Add the asset to the register", "add"),
        close: ("Cancel (asks first if you typed anything)", "cancel"))

    var keymap: Keymap<FormAction> { editing == nil ? Self.keymap : Self.editKeymap }

    static let discardQuestion = PlainFormKeys.discardQuestion(
        "Cancel this new asset?", lines: ["What you typed here is not kept."], discard: "Cancel it")

    static let spacedFields = false

    var refusal: String { editing == nil ? "Not added" : "Not saved" }

    var title: String { editing.map { "Edit \($0.row.asset.tag)" } ?? "New asset" }

    var titleState: (text: String, style: Style)? { editing.flatMap { $0.file.titleState } }

    var statusLine: (text: String, style: Style)? { editorLine }

    // MARK: The fields

    func kind(of field: AssetDraft.Field) -> FieldKind {
        switch field {
        case .type, .disposition, .kind, .equipmentClass, .environment, .risk: .choice
        case .liftsPersons: .toggle
        default: .text
        }
    }

    func label(of field: AssetDraft.Field) -> String { field.label }

    func text(of field: AssetDraft.Field) -> String { field.textPath.map { draft[keyPath: $0] } ?? "" }

    mutating func setText(_ field: AssetDraft.Field, _ text: String) {
        if let path = field.textPath { draft[keyPath: path] = text }
    }

    func typingLimit(_ field: AssetDraft.Field) -> Int { Asset.maxTextLength }

    /// An interval is whole months, a date is written either way `RelativeDate` reads: other characters are
    /// refused as typed, with the sentence. (A WLL or length is judged whole, by the number's own message.)
    func typingRule(_ field: AssetDraft.Field) -> (allowed: (Character) -> Bool, refusal: String)? {
        switch field {
        case .interval: ({ $0.isASCII && $0.isNumber }, "The interval is a whole number of months, such as 6.")
        case .manufactured, .commissioned, .retiredOn: (RelativeDate.isAllowed, "Write dates as \(RelativeDate.short).")
        default: nil
        }
    }

    func placeholder(_ field: AssetDraft.Field) -> String? {
        switch field {
        case .interval where draft.kind == .electrical: "\(draft.defaultInterval) (AS/NZS 3760 for the environment)"
        case .interval: "\(draft.defaultInterval) (default for the type)"
        case .intervalReason: "only for another interval than \(draft.defaultInterval) months"
        case .examinationScheme: "only above \(draft.defaultInterval) months (LOLER reg 9(3))"
        case .clientRef: "the owner's own plant number, if any"
        default: nil
        }
    }

    func optionLabels(_ field: AssetDraft.Field) -> [String] {
        switch field {
        case .type: EquipmentType.allCases.map(\.label)
        case .disposition: ["In service"] + Disposition.allCases.map(\.label)
        case .kind: AssetKind.allCases.map(\.label)
        case .equipmentClass: ElectricalClass.allCases.map(\.label)
        case .environment: ElectricalEnvironment.allCases.map(\.label)
        case .risk: ElectricalRisk.allCases.map(\.label)
        default: []
        }
    }

    func optionIndex(_ field: AssetDraft.Field) -> Int? {
        switch field {
        case .type: EquipmentType.allCases.firstIndex(of: draft.type)
        case .disposition: ([nil] + Disposition.allCases).firstIndex(of: draft.disposition)
        case .kind: AssetKind.allCases.firstIndex(of: draft.kind)
        case .equipmentClass: ElectricalClass.allCases.firstIndex(of: draft.equipmentClass)
        case .environment: ElectricalEnvironment.allCases.firstIndex(of: draft.environment)
        case .risk: ElectricalRisk.allCases.firstIndex(of: draft.risk)
        default: nil
        }
    }

    mutating func chooseOption(_ field: AssetDraft.Field, _ index: Int) {
        let tableInterval = draft.defaultInterval
        switch field {
        case .type: draft.type = EquipmentType.allCases[index]
        // The kind is chosen only for a new asset: an asset stays the kind it was added as.
        case .kind where editing == nil: draft.kind = AssetKind.allCases[index]
        case .equipmentClass: draft.equipmentClass = ElectricalClass.allCases[index]
        case .environment: draft.environment = ElectricalEnvironment.allCases[index]
        case .risk: draft.risk = ElectricalRisk.allCases[index]
        case .disposition:
            draft.disposition = ([nil] + Disposition.allCases)[index]
            // A retirement is dated: today unless typed; back in service, no date.
            if draft.disposition == nil { draft.retiredOn = "" }
            else if draft.retiredOn.isEmpty { draft.retiredOn = today?.iso ?? "" }
        default: break
        }
        followTable(from: tableInterval)
    }

    /// A retirement shows as such; its options are listed by how it left (a letter finds "scrapped").
    func choiceText(_ field: AssetDraft.Field) -> String {
        guard let index = optionIndex(field) else { return "—" }
        let option = optionLabels(field)[index]
        return field == .disposition && index > 0 ? "Retired: \(option)" : option
    }

    func flag(_ field: AssetDraft.Field) -> Bool? { field == .liftsPersons ? draft.liftsPersons : nil }
    mutating func toggleFlag(_ field: AssetDraft.Field) { if field == .liftsPersons { draft.liftsPersons.toggle() } }

    /// A field left: a date typed the quick way in it is written out.
    mutating func focusField(_ field: AssetDraft.Field) {
        if let today { draft.expandRelativeDate(focus, today: today) }
        focus = field
        focusEditor(on: field)
    }

    /// A field's value as the screens word it (the drafts list compares a draft with its asset by it).
    static func text(_ field: AssetDraft.Field, of draft: AssetDraft) -> String {
        var form = AssetFormState()
        form.draft = draft
        if let on = form.flag(field) { return on ? "yes" : "no" }
        return form.kind(of: field) == .choice ? form.choiceText(field) : form.text(of: field)
    }

    /// An interval written out as the table's (the editor's) follows the table when the environment or risk
    /// changes; one typed otherwise stays, with its reason.
    mutating func followTable(from old: Int) {
        guard draft.kind == .electrical, draft.defaultInterval != old,
              draft.intervalMonths.trimmingCharacters(in: .whitespaces) == String(old) else { return }
        draft.intervalMonths = String(draft.defaultInterval)
    }

    func currentProblems() -> [(field: AssetDraft.Field?, message: String)] {
        guard let today else { return [] }
        let result = editing.map { draft.validatedEdit(of: $0.row.asset, today: today) }
            ?? draft.validated(today: today)
        guard case .failure(let failure) = result else { return [] }
        return failure.items.map { (field: $0.0, message: $0.1) }
    }

    // MARK: Keys

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        today = context.today
        if editing != nil { return handleEditing(key, context: context) }
        return handlePlainKey(key, context: context)
    }

    mutating func save(context: ScreenContext) -> Outcome {
        if editing != nil { return saveEdit(context: context) }
        guard passesChecks(), case .success(let asset) = draft.validated(today: context.today) else { return .stay }
        return .effects([.addAsset(asset)])
    }

    mutating func close(context: ScreenContext) -> Outcome {
        editing == nil ? askBeforeDiscarding(context: context) : closeEditor(context: context)
    }

    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        if editing != nil { return receiveEditing(event, context: context) }
        switch event {
        case .assetAdded(let tag):
            return .pop + .notify(.info("Added \(tag) to the register.")) + .effects([.reloadRegister])
        case .assetNotAdded(let reason):
            return refusedByRegister(reason)
        default:
            return nil
        }
    }

    public func draw(into frame: inout Frame, area: Rect) {
        drawPlainForm(into: &frame, area: area)
        if let leaving = editing?.leaving {
            frame.cursor = nil
            leaving.draw(into: &frame, area: area)
        }
    }
}
