import Foundation
import RigbookCore

/// The answer to "Leave without saving?".
public enum LeaveEditorChoice: Sendable, Equatable { case discard, keepEditing }

/// Editing one particular: the examining organisation, an employer, a site, an examiner (from Settings) or
/// one asset's particulars (`p` on the list). Ctrl-S records a new version; what was typed stays on screen
/// until the register has it. A declaration for the plain form engine (`Forms/PlainForm.swift`).
public struct ParticularEditorState: PlainForm {
    /// A particular not yet in the register (added from Settings).
    public let isNew: Bool
    /// What the editor opened with (after a save that kept another terminal's field, what it saved): "unsaved"
    /// means `change != baseline`, and Ctrl-S saves the fields that differ from it.
    var baseline: ParticularsChange
    var values: ParticularsChange
    public var change: ParticularsChange { values }
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
    public internal(set) var message: Notice?
    var discarding: Question<LeaveEditorChoice>?
    var picking: PickList?
    var fieldJump: FieldJump?
    /// A Ctrl-S went out as an effect and its result has not come back.
    var saving = false
    /// The day the editor opened: a declaration cannot be dated after it.
    var today: CalendarDate?
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
        values = change
        self.particulars = particulars
        self.asset = asset
        focus = self.fields[0]
        editor = EditableText(change[self.fields[0]])
    }

    public mutating func opened(context: ScreenContext) {
        today = context.today
        lastChange.appeared(in: context.batch)
    }

    var keymap: Keymap<FormAction> { Self.keymap }

    static let keymap = PlainFormKeys.fields(
        title: "Particulars", save: ("Save: the register keeps it as a new version, with who and when", "save"),
        close: ("Close (asks first if you changed anything)", "close"),
        own: [KeyBinding([.ctrl("r")], help: "History: every version of this particular, when and by whom",
                         footer: "history", rank: .sometimes, action: .history)])

    static let discardQuestion = PlainFormKeys.discardQuestion(
        "Leave without saving?", lines: ["What you changed here is not kept."], discard: "Discard the changes")

    static let spacedFields = true

    var titleState: (text: String, style: Style)? {
        saving ? (" saving… ", .reverse) : hasChanges ? (" changed ", .reverse) : nil
    }
    var refusal: String { "Not saved" }

    var infoLines: [String] {
        asset.map { ["\($0.type.label) · WLL \(Asset.wllText($0.wllKg)) (the SWL when it has one configuration)"] }
            ?? []
    }

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

    // MARK: The fields

    func kind(of field: ParticularField) -> FieldKind {
        switch field {
        case .employer, .site, .colourCode: .choice
        case .selfEmployed: .toggle
        case .declarationDate: .date
        default: field.isMultiline ? .multiline : .text
        }
    }

    func label(of field: ParticularField) -> String { Self.label(field, of: change) }

    /// A field's text as shown: a limit as typed, else the value kept.
    func text(of field: ParticularField) -> String { typedLimits[field] ?? change[field] }

    mutating func setText(_ field: ParticularField, _ text: String) {
        if field.isLimit { typedLimits[field] = text }
        values = change.setting(field, to: text)
    }

    func typingLimit(_ field: ParticularField) -> Int { field == .declarationDate ? 10 : field.maxLength }

    func typingRule(_ field: ParticularField) -> (allowed: (Character) -> Bool, refusal: String)? {
        if field == .declarationDate {
            return ({ $0.isASCII && ($0.isNumber || $0 == "-") }, "Dates are written YYYY-MM-DD.")
        }
        if field.isLimit { return ({ $0.isASCII && ($0.isNumber || $0 == ".") }, "A limit is a number, such as 0.5.") }
        return nil
    }

    func placeholder(_ field: ParticularField) -> String? { field == .declarationDate ? "YYYY-MM-DD" : nil }

    /// The options of a choice: employers, sites with their employers (by name), or the colour codes; each with
    /// the text it is kept as.
    private func options(_ field: ParticularField) -> [(kept: String, label: String)] {
        switch field {
        case .employer:
            return particulars.employerList.map { ($0.uuid.uuidString, ParticularsText.oneLine($0.name)) }
        case .site:
            return particulars.siteList.map { ($0.uuid.uuidString, ParticularsText.siteName($0.uuid, in: particulars)) }
                .sorted { $0.label.localizedStandardCompare($1.label) == .orderedAscending }
        case .colourCode:
            return ColourCodeScheme.allCases.map { ($0.rawValue, $0.label) }
        default:
            return []
        }
    }

    func optionLabels(_ field: ParticularField) -> [String] { options(field).map(\.label) }
    func optionIndex(_ field: ParticularField) -> Int? {
        let chosen = field == .colourCode && change[field].isEmpty ? ColourCodeScheme.none.rawValue : change[field]
        return options(field).firstIndex { $0.kept == chosen }
    }
    mutating func chooseOption(_ field: ParticularField, _ index: Int) { setText(field, options(field)[index].kept) }

    func choiceText(_ field: ParticularField) -> String {
        field == .colourCode ? (ColourCodeScheme(rawValue: change[field]) ?? .none).label
            : ParticularsText.value(field, of: change, in: particulars)
    }

    func flag(_ field: ParticularField) -> Bool? { field == .selfEmployed ? change[field] == "yes" : nil }
    mutating func toggleFlag(_ field: ParticularField) { setText(field, change[field] == "yes" ? "no" : "yes") }

    mutating func focusField(_ field: ParticularField) {
        focus = field
        focusEditor(on: field)
    }

    func currentProblems() -> [(field: ParticularField?, message: String)] {
        change.trimmed.fieldProblems(in: particulars, today: today)
    }

    // MARK: Keys

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        today = context.today
        return handlePlainKey(key, context: context)
    }

    mutating func close(context: ScreenContext) -> Outcome { askBeforeDiscarding(context: context) }

    mutating func handleOwn(_ action: FormAction, context: ScreenContext) -> Outcome {
        guard action == .history else { return .stay }
        if isNew { return .notify(.info("A new particular has no history until it is saved.")) }
        return .effects([.openParticularsHistory(subject: change.subject, title: title)])
    }

    mutating func save(context: ScreenContext) -> Outcome {
        guard passesChecks() else { return .stay }
        let candidate = change.trimmed
        if !isNew && candidate == baseline { return .pop + .notify(.info("Nothing changed.")) }
        saving = true
        return .effects([.recordParticulars(candidate, editedFrom: isNew ? nil : baseline)])
    }

    // MARK: Results

    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        guard saving else { return nil }
        switch event {
        case .particularsRecorded(let recorded, _, let conflicts, let fresh)
                where recorded.subject == change.subject && !conflicts.isEmpty:
            // The other fields are saved; each field also changed elsewhere keeps the register's value, shown under
            // it, and what was typed stays: Ctrl-S again saves it over the other's, knowingly.
            saving = false
            let typed = values
            baseline = recorded
            values = conflicts.reduce(recorded) { $0.setting($1.field, to: typed[$1.field]) }
            return keptTheirs(conflicts.map { ($0.field, ParticularsText.value($0.field, of: recorded, in: fresh)) })
        case .particularsRecorded(let recorded, let kept, _, _) where recorded.subject == change.subject:
            saving = false
            let name = asset.map { "the particulars of \($0.tag)" }
                ?? (isLimits ? "the electrical test limits" : ParticularsText.title(of: recorded, in: particulars))
            return .pop + .notify(.info(kept ? "Saved \(name)." : "Nothing changed: the register already says that."))
        case .particularsNotRecorded(let reason):
            saving = false
            return refusedByRegister(reason)
        default:
            return nil
        }
    }

    public func draw(into frame: inout Frame, area: Rect) { drawPlainForm(into: &frame, area: area) }
}
