import Foundation
import RigbookCore

/// Setting up a register in one screen: the employer and their address, the first site and its address, the
/// examiner (Schedule 1 items 1 to 3, which a report of thorough examination cannot be saved without), each
/// field with its reason. Offered by the empty register's welcome (`u`), Settings (`u`) and the inspection
/// form's warning (F3); skippable (Esc). The three particulars are saved together, all or none. A declaration
/// for the plain form engine over the particulars' own fields and checks.
public struct SetUpState: PlainForm {
    public enum Field: Int, CaseIterable, Sendable {
        case employerName, employerAddress, siteName, siteAddress
        case examinerName, qualification, selfEmployed, examinerAddress

        /// Which of the three particulars holds the field (0 employer, 1 site, 2 examiner), and as what.
        var place: (part: Int, field: ParticularField) {
            switch self {
            case .employerName: (0, .name)
            case .employerAddress: (0, .address)
            case .siteName: (1, .name)
            case .siteAddress: (1, .address)
            case .examinerName: (2, .name)
            case .qualification: (2, .qualification)
            case .selfEmployed: (2, .selfEmployed)
            case .examinerAddress: (2, .address)
            }
        }
    }

    /// The employer, their site, the examiner, as typed.
    var values: [ParticularsChange]
    /// What the screen opened with: leaving with these asks nothing.
    let baseline: [ParticularsChange]
    /// The register's versions the screen opened on (after a save that kept another terminal's field, those
    /// saved): Ctrl-S saves the fields that differ from them.
    var openedOn: [ParticularsChange]
    var particulars: Particulars
    public internal(set) var focus: Field = .employerName
    var editor = EditableText("")
    public internal(set) var problems: [(field: Field?, message: String)] = []
    public internal(set) var message: Notice?
    var discarding: Question<LeaveEditorChoice>?
    var picking: PickList?
    var fieldJump: FieldJump?
    var lastChange = SeenInBatch(0)
    var saving = false
    /// The identity an examiner typed here gets when the register has none of that name.
    let newExaminer = UUID()

    /// Starts from the register's main employer and site and its first examiner; the names a new register
    /// gives its employer and site ("Main employer") are there to be replaced, so they start empty.
    public init(particulars: Particulars) {
        self.particulars = particulars
        let employer = particulars.employers[Particulars.mainEmployerUUID] ?? particulars.employerList.first
            ?? Employer(name: "")
        let site = particulars.sites[Particulars.mainSiteUUID].flatMap { $0.employerUUID == employer.uuid ? $0 : nil }
            ?? particulars.siteList.first { $0.employerUUID == employer.uuid }
            ?? Site(employerUUID: employer.uuid, name: "")
        let initial = Particulars.initial
        let examiner = particulars.examinerList.first ?? Examiner(name: "")
        openedOn = [.employer(employer), .site(site), .examiner(examiner)]
        values = [
            .employer(employer).setting(.name, to: employer.name == initial.employerList[0].name ? "" : employer.name),
            .site(site).setting(.name, to: site.name == initial.siteList[0].name ? "" : site.name),
            .examiner(examiner),
        ]
        baseline = values
        editor = EditableText(values[0][.name])
    }

    public mutating func opened(context: ScreenContext) { lastChange.appeared(in: context.batch) }

    var keymap: Keymap<FormAction> { Self.keymap }

    static let keymap = PlainFormKeys.fields(
        title: "Set up this register",
        save: ("Save the employer, the site and the examiner together", "save"),
        close: ("Skip for now (asks first if you typed anything); Settings (,) and u bring it back", "skip"))

    static let discardQuestion = PlainFormKeys.discardQuestion(
        "Leave without saving?", lines: ["What you typed here is not kept."], discard: "Discard it")

    static let spacedFields = true
    var title: String { "Set up this register" }
    var refusal: String { "Not saved" }
    var titleState: (text: String, style: Style)? {
        saving ? (" saving… ", .reverse) : hasChanges ? (" changed ", .reverse) : nil
    }
    var infoLines: [String] {
        ["A report of thorough examination names whom it was made for, where, and by whom (LOLER Schedule 1). "
            + "Set them once here; each can be changed later in Settings."]
    }

    // MARK: The fields

    var fields: [Field] { Field.allCases.filter { $0 != .examinerAddress || flag(.selfEmployed) == true } }

    func label(of field: Field) -> String {
        switch field {
        case .employerName: "Employer"
        case .employerAddress: "Employer's address"
        case .siteName: "Site"
        case .siteAddress: "Site's address"
        case .examinerName: "Examiner"
        case .qualification: "Qualification / cert."
        case .selfEmployed: "Self-employed"
        case .examinerAddress: "Examiner's address"
        }
    }

    func hint(_ field: Field) -> String {
        switch field {
        case .employerName: "Whom the examinations are made for (Schedule 1 item 1): a client, or your own firm."
        case .employerAddress: "Their address goes on every report (item 1). Several lines: Enter starts one."
        case .siteName: "The premises where the equipment is examined, as people call them (item 2)."
        case .siteAddress: "The premises' address goes on every report (item 2)."
        case .examinerName:
            "Who makes the reports (item 3), as the inspector name is typed on the form. Optional here."
        case .qualification: "Their qualification or certificate number, printed with their name (item 9)."
        case .selfEmployed:
            "Space: yes / no. A self-employed examiner gives their own address; an employed one their employer's."
        case .examinerAddress: "A self-employed examiner's own address (item 3)."
        }
    }

    func kind(of field: Field) -> FieldKind {
        field == .selfEmployed ? .toggle : field.place.field.isMultiline ? .multiline : .text
    }

    func text(of field: Field) -> String { values[field.place.part][field.place.field] }
    mutating func setText(_ field: Field, _ text: String) {
        values[field.place.part] = values[field.place.part].setting(field.place.field, to: text)
        // The name of an examiner the register holds brings their particulars, to check or change.
        if field == .examinerName,
           let known = particulars.examiners.values.first(where: { Particulars.sameName($0.name, text) }) {
            values[2] = ParticularsChange.examiner(known).setting(.name, to: text)
        }
    }
    func typingLimit(_ field: Field) -> Int { field.place.field.maxLength }

    func optionLabels(_ field: Field) -> [String] { [] }
    func optionIndex(_ field: Field) -> Int? { nil }
    mutating func chooseOption(_ field: Field, _ index: Int) {}
    func flag(_ field: Field) -> Bool? { field == .selfEmployed ? text(of: field) == "yes" : nil }
    mutating func toggleFlag(_ field: Field) { setText(field, text(of: field) == "yes" ? "no" : "yes") }

    mutating func focusField(_ field: Field) {
        focus = field
        focusEditor(on: field)
    }

    /// The particulars to save: the employer and site always, the examiner when named. A name the register holds
    /// is that examiner (`setText` brought their particulars); another name typed over the one offered adds an
    /// examiner, never renames the one offered.
    var changes: [ParticularsChange] {
        let name = values[2][.name].trimmed
        guard !name.isEmpty else { return Array(values.prefix(2)).map(\.trimmed) }
        var examiner = values[2]
        if case .examiner(var typed) = examiner, let held = particulars.examiners[typed.uuid],
           Particulars.nameKey(held.name) != Particulars.nameKey(name) {
            typed.uuid = newExaminer
            examiner = .examiner(typed)
        }
        return (Array(values.prefix(2)) + [examiner]).map(\.trimmed)
    }

    /// Each particular's own checks, and the addresses a report needs (which Settings alone leaves optional).
    func currentProblems() -> [(field: Field?, message: String)] {
        var found: [(field: Field?, message: String)] = []
        var seen = particulars
        for (part, change) in changes.enumerated() {
            for problem in change.fieldProblems(in: seen, today: nil) {
                let field = problem.field.flatMap { kept in Field.allCases.first { $0.place == (part, kept) } }
                found.append((field, problem.message))
            }
            seen.apply(change)
        }
        if values[0][.address].trimmed.isEmpty {
            found.append((.employerAddress, "A report needs the employer's address."))
        }
        if values[1][.address].trimmed.isEmpty { found.append((.siteAddress, "A report needs the site's address.")) }
        if changes.count > 2, values[2][.selfEmployed] == "yes", values[2][.address].trimmed.isEmpty {
            found.append((.examinerAddress, "A self-employed examiner's address goes on every report (item 9)."))
        }
        return found
    }

    // MARK: Keys and results

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome { handlePlainKey(key, context: context) }

    mutating func close(context: ScreenContext) -> Outcome { askBeforeDiscarding(context: context) }

    mutating func save(context: ScreenContext) -> Outcome {
        guard passesChecks() else { return .stay }
        saving = true
        let examiner = changes.count > 2 ? values[2] : nil
        let bases = changes.map { change in openedOn.first { $0.subject == change.subject } }
        let remember = examiner.map { Effect.rememberInspector(name: $0[.name].trimmed,
                                                              certificationNumber: $0[.qualification].trimmed) }
        return .effects([.recordParticularsTogether(changes, editedFrom: bases)] + (remember.map { [$0] } ?? []))
    }

    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        guard saving else { return nil }
        switch event {
        case .particularsRecorded(let recorded, _, let conflicts, let fresh)
                where recorded.subject == changes.last?.subject && !conflicts.isEmpty:
            // The rest is saved; a field another terminal changed meanwhile keeps its value, shown under it, and
            // what was typed stays for Ctrl-S to save over it, knowingly.
            saving = false
            particulars = fresh
            openedOn = openedOn.map { fresh.current(of: $0) ?? $0 }
            let values = self.values
            return keptTheirs(conflicts.map { conflict in
                (Field.allCases.first { field in
                    values[field.place.part].subject == conflict.subject && field.place.field == conflict.field
                }, conflict.theirs)
            })
        case .particularsRecorded(let recorded, _, _, _) where recorded.subject == changes.last?.subject:
            saving = false
            return .pop + .notify(.info("Set up: reports will name \(values[0][.name].trimmed) at "
                                        + "\(values[1][.name].trimmed)."))
        case .particularsNotRecorded(let reason):
            saving = false
            return refusedByRegister(reason)
        default:
            return nil
        }
    }

    public func draw(into frame: inout Frame, area: Rect) { drawPlainForm(into: &frame, area: area) }
}
