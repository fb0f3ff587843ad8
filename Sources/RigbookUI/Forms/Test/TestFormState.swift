import Foundation
import RigbookCore

/// The electrical test form (SPEC §12), a declaration for the drafted form engine (`DraftedForm`): what is its own
/// is the test's fields, its gate (`TestGate`) and the readings' verdicts.
public struct TestFormState: Screen {
    public let seed: TestFormSeed
    public let today: CalendarDate
    /// The register's limits in force as the form opened: they judge it, and the test keeps them.
    var limits: TestLimits { seed.own }

    public internal(set) var values: TestValues
    public internal(set) var focus: TestField = .testType
    var scanCatcher = FormScanCatcher()
    var editor: EditableText?
    /// First body line on screen.
    var scroll = 0
    /// Immediate messages under a field (a character a reading cannot hold, a tick refused).
    public internal(set) var fieldMessages: [TestField: String] = [:]
    var fieldJump: FieldJump?
    /// After a refused Ctrl-S the unmet rules are shown in red, not as quiet hints.
    public internal(set) var attemptedSave = false
    public internal(set) var mode: Mode = .editing
    public internal(set) var message: FormState.Message?
    public internal(set) var draft: DraftTracker
    /// The gate's verdict on the values as they are: problems, warnings, each reading's verdict, the result.
    public private(set) var evaluation: TestGate.Evaluation
    var inputBatch = 0
    /// The selected file on the attachments line.
    var attachmentSelection = 0
    /// The loop's clock at the last key: when a change made by leaving a field (a date written out) happened.
    var clock = 0.0
    /// The input batch in which the authentication got the focus: only a later key may tick it.
    var authenticationShown = SeenInBatch(0)
    /// The input batch of the last change: Ctrl-S counts only from a later one.
    var lastChange = SeenInBatch(0)
    var editCount = 0
    public internal(set) var saveAndNext = false

    public typealias Mode = FormMode<ValidatedTest, Never>

    public init(seed: TestFormSeed, context: ScreenContext) {
        self.seed = seed
        today = context.today
        var initial = seed.initial
        // A recovered draft is authenticated again by a person: a tick never comes back from a file.
        if seed.draft != nil { initial.authenticated = false }
        values = initial
        draft = DraftTracker(written: seed.draft)
        inputBatch = context.batch
        lastChange = SeenInBatch(context.batch)
        evaluation = TestGate.evaluate(initial, TestFormState.gateContext(row: seed.row, today: context.today,
                                                                            sessionID: seed.sessionID,
                                                                            limits: seed.own))
        // A draft left mid-typing may hold a date typed the quick way: judged as the date it stands for.
        evaluation = TestGate.evaluate(resolvedValues, gateContext)
        focusField(seed.focus.flatMap { fields.contains($0) ? $0 : nil } ?? firstFieldNeedingInput)
        keepFocusVisible(width: context.area.width, height: context.area.height)
    }

    public var draftID: String { DraftIdentity.testDraftID(assetUUID: row.asset.uuid) }
    public var draftIDs: [String] { [draftID] }
    static let leaveWording = LeaveQuestion.test
    static let recordNoun = "test"
    public var equipmentClass: ElectricalClass { row.asset.electrical?.equipmentClass ?? .other }
    public var hasUnsavedInput: Bool { values != baseline }

    static func gateContext(row: RegisterRow, today: CalendarDate, sessionID: String,
                            limits: TestLimits) -> TestGate.Context {
        TestGate.Context(assetUUID: row.asset.uuid, equipmentClass: row.asset.electrical?.equipmentClass ?? .other,
                         commissioned: row.asset.commissioned, today: today, sessionID: sessionID, limits: limits)
    }

    public var gateContext: TestGate.Context {
        TestFormState.gateContext(row: row, today: today, sessionID: sessionID, limits: limits)
    }

    public var problems: [(field: TestField, message: String)] { evaluation.problems }


    static let attachmentsPath = \TestValues.attachments
    let journals = true
    static let authentication = Authentication(field: TestField.authenticated, noun: "authentication",
                                               tick: \TestValues.authenticated)
    var unmetFields: [TestField] { problems.map(\.field) }
    var authenticationPrompt: Question<AuthenticateChoice> {
        AuthenticateChoice.testQuestion(technician: values.technician)
    }

    // MARK: Fields and focus

    /// The old-calibration acknowledgement is asked only while the warning stands (or once ticked).
    var showsAcknowledgement: Bool { !evaluation.warnings.isEmpty || values.calibrationAcknowledged }

    /// The groups with the fields this asset's class shows.
    var groups: [(title: String, fields: [TestField])] {
        let shown = Set(TestField.shown(for: equipmentClass))
        return TestField.groups.map { group in
            (group.title, group.fields.filter { shown.contains($0) && ($0 != .calibrationAcknowledged
                                                                    || showsAcknowledgement) })
        }.filter { !$0.fields.isEmpty }
    }

    /// The fields in focus order: the attachments line only while it holds a file (Ctrl-O adds one from anywhere).
    var fields: [TestField] { groups.flatMap(\.fields) }

    /// The first field that still needs the technician: one an unmet rule concerns (the authentication last).
    var firstFieldNeedingInput: TestField {
        let concerned = Set(problems.map(\.field)).subtracting([.authenticated, .notes])
        if let first = fields.first(where: { concerned.contains($0) }) { return first }
        // Everything else in place: the authentication, as the inspection form goes to its confirmation.
        return !values.authenticated && fields.contains(.authenticated) ? .authenticated : fields[0]
    }

    mutating func focusField(_ field: TestField) {
        expandRelativeDate(focus)
        focus = field
        if field == .authenticated { authenticationShown.appeared(in: inputBatch) }
        editor = field.textPath.map { EditableText(values[keyPath: $0]) }
    }

    var isTyping: Bool { editor != nil }

    // MARK: Values

    mutating func changed(now: Double) {
        editCount &+= 1
        evaluation = TestGate.evaluate(resolvedValues, gateContext)
        if saveError != nil { message = nil }
        lastChange.appeared(in: inputBatch)
        draft.writes.poke(now: now)
        // The acknowledgement left the form (the calibration date was corrected): focus must stay on a field.
        if !fields.contains(focus) { focusField(.calibrationDate) }
    }

    mutating func setText(_ field: TestField, _ text: String, now: Double) {
        guard let path = field.textPath, values[keyPath: path] != text else { return }
        values[keyPath: path] = text
        changed(now: now)
    }

    /// A date typed the quick way (`today`, `+3m`, `-1y`: from today) written out as `YYYY-MM-DD`; text that
    /// means no date stays as typed, for the gate to explain.
    mutating func expandRelativeDate(_ field: TestField) {
        guard field.kind == .date, let path = field.textPath,
              RelativeDate.isRelative(values[keyPath: path]),
              let date = RelativeDate.resolve(values[keyPath: path], from: today, today: today) else { return }
        setText(field, date.iso, now: clock)
        if focus == field { editor = EditableText(date.iso) }
    }

    /// The values as the gate sees them: a date typed the quick way as the date it stands for (it is written out
    /// when its field is left, and before a save), so the rules and the preview follow it as it is typed.
    var resolvedValues: TestValues {
        var resolved = values
        for field in [TestField.testDate, .calibrationDate] {
            guard let path = field.textPath, RelativeDate.isRelative(resolved[keyPath: path]),
                  let date = RelativeDate.resolve(resolved[keyPath: path], from: today, today: today) else { continue }
            resolved[keyPath: path] = date.iso
        }
        return resolved
    }

    /// Under a focused date typed the quick way: what it will become.
    var relativeDateHint: String? {
        guard focus.kind == .date, let text = editor?.text, RelativeDate.isRelative(text),
              let date = RelativeDate.resolve(text, from: today, today: today) else { return nil }
        return "= \(date.iso), filled in when you leave the field"
    }

    /// What a reading or a date may hold as it is typed.
    func allows(_ c: Character) -> Bool { TestFormState.allows(c, in: focus) }

    /// A reading takes digits and `.`, and also `,` and space: they are kept as typed so the gate refuses
    /// "0,5" or "0 5" under the field, where dropping them would quietly make 05 (DECISIONS: readings).
    /// Insulation also takes `>`: a tester's over-range reading (`>299`), which the gate judges as a lower bound.
    static func allows(_ c: Character, in field: TestField) -> Bool {
        if field.isReading {
            return (c.isNumber && c.isASCII) || c == "." || c == "," || c == " " || (c == ">" && field == .insulation)
        }
        if field.kind == .date { return RelativeDate.isAllowed(c) }
        return true
    }

    /// The reading's verdict, when the gate judged it.
    func verdict(_ field: TestField) -> ReadingVerdict? { evaluation.verdicts.first { $0.field == field } }

    // MARK: Draft

    public var draftSnapshot: DraftSnapshot {
        DraftSnapshot(draftID: draftID, sessionID: sessionID, assetUUID: row.asset.uuid, assetTag: row.asset.tag,
                      amends: nil, amendsUUID: nil, values: InspectionValues(), written: draft.written,
                      focus: .inspectionType, testValues: values, testFocus: focus.key)
    }

    // MARK: Preview

    /// *If saved: result …, status …, next test due …*, from the one status function over the asset's history
    /// plus this test.
    var previewText: String {
        guard let date = CalendarDate(iso: resolvedValues.testDate.trimmingCharacters(in: .whitespaces)),
              !problems.contains(where: { $0.field == .testDate }) else {
            return "If saved: — needs a valid test date."
        }
        if values.visual == nil {
            return "If saved: — needs the visual inspection's result."
        }
        if evaluation.verdicts.contains(where: { $0.outcome == .missing }) {
            return "If saved: — needs every reading the class requires (marked ⚠)."
        }
        guard let result = evaluation.result else {
            return "If saved: — not while the result is refused (see ⚠ under Result)."
        }
        let facts = history + [TestFacts.facts(id: Int64.max, passed: result == .pass, date: date)]
        let report = StatusRules.evaluate(asset: row.asset, history: facts, today: today)
        var text = "If saved: \(result == .pass ? "PASS" : "FAIL"), status \(report.status.label)"
        if let due = report.nextDue { text += ", next test due \(due.iso)" }
        return text + "."
    }
}

extension AuthenticateChoice {
    /// The test form's "Authenticate and save?": the same answers and keys as the inspection form's.
    static func testQuestion(technician: String) -> Question<AuthenticateChoice> {
        var question = AuthenticateChoice.question(thorough: true, examiner: technician)
        let name = technician.trimmingCharacters(in: .whitespaces)
        question.lines = [("I, \(name), authenticate this test.", .bold), ("Every other rule is met.", .plain)]
        return question
    }
}


extension TestFormState: DraftedForm {}
