import Foundation
import RigbookCore

/// The inspection form: the 17 values (the draft model), the baseline it was opened with, the focus
/// and the widgets' transient state. `hasUnsavedInput` is simply `values != baseline`.
public struct FormState: Screen {
    public let seed: FormSeed
    public let today: CalendarDate
    /// The record this form amends (the newest of its chain), nil for a fresh inspection.
    public var amending: StoredInspection? { seed.own.amending }
    /// The record the person chose to amend, when a later amendment had superseded it.
    public var supersededChoice: Int64? { seed.own.supersededChoice }
    /// The register's particulars (Settings), as the form opened or as set up since: what a thorough examination
    /// copies.
    public internal(set) var particulars: Particulars { didSet { problems = gateProblems() } }

    // Every property the body's layout depends on forgets the kept layout when it changes (`layoutMemo`).
    public internal(set) var values: InspectionValues { didSet { forgetLayout() } }
    /// Reg 10's answers as typed in its dialog (a defect's save), kept with the draft; nil until it opens.
    public internal(set) var noticeAnswers: DefectNoticeAnswers?
    public internal(set) var focus: FormField = .inspectionType { didSet { forgetLayout() } }
    var scanCatcher = FormScanCatcher()
    var editor: EditableText? { didSet { forgetLayout() } }
    /// First body line on screen.
    var scroll = 0
    /// Immediate messages under a field: a date that is not real ("2026-02-30 is not a real date"), a
    /// confirmation that a burst of keys could not tick.
    public internal(set) var fieldMessages: [FormField: String] = [:] { didSet { forgetLayout() } }
    var fieldJump: FieldJump?
    public internal(set) var preview: Preview = .none
    /// After a refused Ctrl-S the unmet rules are shown in red, not as quiet hints.
    public internal(set) var attemptedSave = false
    public internal(set) var mode: Mode = .editing
    /// What the footer says instead of the keys, if anything.
    public internal(set) var message: Message?
    /// The draft file: when to write it, whether it is on disk, why a write failed.
    public internal(set) var draft: DraftTracker
    /// Shown above the form's first group while it is open (a withdrawn or quarantined asset).
    public internal(set) var openingWarning: String? { didSet { forgetLayout() } }
    /// The input batch of the key being handled, and the one in which the confirmation got the focus:
    /// only a key from a later batch (after a frame showed it) may tick it.
    var inputBatch = 0
    var authenticationShown = SeenInBatch(0)
    /// The input batch of the last change of values (or of the opening): Ctrl-S counts only from a later one,
    /// once a frame has shown what would be saved.
    var lastChange = SeenInBatch(0)
    /// The loop's clock at the key being handled: a relative date expanded when its field is left is a change.
    var clock: Double = 0
    /// Counts changes of values: a key that moved it is journalled (`handle`).
    var editCount = 0
    /// Ctrl-N rather than Ctrl-S started the save: the list opens its next item once the record is in.
    public internal(set) var saveAndNext = false
    /// The attachment selected on the attachments line (Delete removes it).
    public internal(set) var attachmentSelection = 0 { didSet { forgetLayout() } }

    /// The inspection form's own modes, beside the engine's (`FormMode`).
    public enum OwnMode: Sendable {
        /// A choice field's pop-up list is open.
        case choosing(ChoicePopup)
        /// A defect: reg 10's questions are asked before the record goes to the register.
        case notifying(DefectNoticeDialog, ValidatedInspection)
    }

    public typealias Mode = FormMode<ValidatedInspection, OwnMode>

    public typealias Message = FormMessage

    public enum Preview: Sendable, Equatable {
        case none
        /// An edit is waiting for the quiet period to end; the old answer is gone.
        case pending(due: Double)
        case ready(String)
    }

    public init(seed: FormSeed, context: ScreenContext) {
        self.seed = seed
        draftID = DraftIdentity.draftID(assetUUID: seed.row.asset.uuid)
        today = context.today
        values = seed.initial
        particulars = seed.own.particulars
        noticeAnswers = seed.own.noticeAnswers
        // A recovered draft is confirmed again by a person: a tick must never come back from a file.
        if seed.draft != nil { values.confirmed = false }
        draft = DraftTracker(written: seed.draft)
        inputBatch = context.batch
        clock = context.now
        lastChange = SeenInBatch(context.batch)
        problems = gateProblems()
        preview = .ready(previewText())
        openingWarning = FormState.warning(for: row.status(on: today).status)
        // A recovered draft opens where it was left; a new form on the first field that needs the inspector.
        focusField(seed.focus.flatMap { fields.contains($0) ? $0 : nil } ?? firstFieldNeedingInput)
        keepFocusVisible(width: context.area.width, height: context.area.height)
    }

    // MARK: Views of the mode and message (for tests and the view)

    public var popup: ChoicePopup? {
        if case .own(.choosing(let popup)) = mode { popup } else { nil }
    }

    public var dialog: Question<LeaveChoice>? { leaveQuestion }

    public var noticeDialog: DefectNoticeDialog? {
        if case .own(.notifying(let dialog, _)) = mode { dialog } else { nil }
    }

    static let attachmentsPath = \InspectionValues.attachments
    /// A batch's form: the batch keeps the draft and its journal.
    var journals: Bool { batchMembers.isEmpty }
    static let authentication = Authentication(field: FormField.confirmed, noun: "confirmation",
                                               tick: \InspectionValues.confirmed)
    var unmetFields: [FormField] { problems.map(\.field) }
    var authenticationPrompt: Question<AuthenticateChoice> {
        AuthenticateChoice.question(thorough: values.inspectionType.isThorough, examiner: values.inspectorName)
    }

    public var draftWarning: String? { draft.warning }
    public var draftWrites: Debouncer { draft.writes }

    public var hasUnsavedInput: Bool { values != baseline }

    public var dateMessages: [FormField: String] { fieldMessages.filter { $0.key.kind == .date } }


    /// The id of the record this form amends.
    public var amends: Int64? { amending?.id }

    /// The form's groups with the fields that apply: the amendment's only in an amendment's form, the report
    /// particulars only where the inspection type and result call for them.
    var groups: [(title: String, fields: [FormField])] { memos.groups.groups(self).groups }

    /// What a choice left unchosen stands for: the basis that follows from the type and the interval.
    func automaticChoice(_ field: FormField) -> String? {
        guard field == .examinationBasis,
              let basis = ExaminationBasis.prefill(for: values.inspectionType, intervalMonths: row.asset.intervalMonths)
        else { return nil }
        return basis.label + " (from the type)"
    }

    /// What an empty date field shows: the date it stands for when there is one.
    func datePlaceholder(_ field: FormField) -> String {
        guard field == .nextExaminationBy, let date = CalendarDate(iso: values.inspectionDate) else {
            return "YYYY-MM-DD"
        }
        return gateContext.intervalDue(after: date).iso + " (interval)"
    }

    /// A check box's sentence: a thorough examination is authenticated by its examiner, by name.
    func checkLabel(_ field: FormField) -> String {
        guard field == .confirmed, values.inspectionType.isThorough else { return field.label }
        let name = values.inspectorName.trimmingWhitespace
        return "I, \(name.isEmpty ? "(inspector name)" : name), authenticate this report"
    }

    /// The fields in focus order (the form's order).
    var fields: [FormField] { memos.groups.groups(self).fields }

    /// The multi-line fields among `fields`.
    var multilineFields: [FormField] { memos.groups.groups(self).multiline }

    /// Whether the form offers the set-up screen: a thorough examination the register's particulars cannot
    /// report yet (the employer's or the site's address missing).
    var offersSetUp: Bool {
        values.inspectionType.isThorough && gateContext.particulars?.missingForReport != nil
    }

    static let setUpOffer = "F3 sets up the employer, the site and the examiner now; the form waits."

    /// Lines under the reason for amendment that say which record is amended, when it is not the one chosen.
    var amendmentNotes: [String] {
        guard let amending, let chosen = supersededChoice else { return [] }
        return ["Record #\(chosen) was amended already: this amends #\(amending.id), the newest record of its chain."]
    }

    public var gateContext: SaveGate.Context {
        SaveGate.Context(asset: row.asset, today: today, sessionID: sessionID, amending: amending,
                         particulars: particulars.report(assetUUID: row.asset.uuid, examinerName: values.inspectorName))
    }

    /// Every unmet rule for the current values; kept up to date on each change (the view reads it
    /// several times a frame).
    public private(set) var problems: [GateProblem] = [] { didSet { forgetLayout() } }
    /// The body's layout as the last `keepFocusVisible` computed it, for the frame drawn next; nil once any of
    /// the properties it depends on changed (they clear it as they are set). Both memos are references: they
    /// are set and forgotten on every key, and an optional of the values themselves was copied and destroyed
    /// through the runtime's generic witnesses each time.
    var layoutMemo: FormLayout.KeptLayout?
    /// What the form's layout and drawing keep from key to key (`FormLayout`, `FormView`).
    let memos = FormMemos()
    mutating func forgetLayout() { layoutMemo = nil }
    /// The body's lines as last computed and what they were computed from; kept while the values change (unlike
    /// `layoutMemo`): `FormLayout.computed` uses them again when nothing the lines read has changed.
    var linesMemo: FormLayout.KeptLines?

    /// The assets of a batch inspection whose shared values this form edits; empty for a
    /// single asset's form. The gate then judges the values once per asset and names the assets a rule fails.
    var batchMembers: [BatchMember] = [] {
        didSet { problems = gateProblems() }
    }

    func gateProblems() -> [GateProblem] {
        batchMembers.isEmpty ? SaveGate.problems(resolvedValues, context: gateContext)
            : BatchGate.problems(resolvedValues, members: batchMembers)
    }

    /// `gateProblems()` after a change of `field` alone: outside a batch the gate judges again only the rules
    /// that field takes part in (`SaveGate.problems(changing:)`, equal to the whole gate), else every rule.
    func gateProblems(changing field: FormField?) -> [GateProblem] {
        guard let field, batchMembers.isEmpty, amending == nil, field == .notes else { return gateProblems() }
        // Rule 10 reads only the notes (not a date: `values` are as resolved), so the context it is given need not
        // hold the register's particulars, which `gateContext` would make again for every key.
        let context = SaveGate.Context(asset: row.asset, today: today, sessionID: sessionID, particulars: nil)
        return SaveGate.problems(values, context: context, changing: field, previous: problems)
    }

    /// The quiet period before the "If saved" preview is computed (the seed's 300 ms).
    public static let previewDelay = 0.3

    // MARK: Focus

    /// The first field, in form order, that still needs the inspector: one an unmet rule concerns, or one of
    /// the five checks unticked. With a remembered inspector a new form opens on the first check.
    var firstFieldNeedingInput: FormField {
        let concerned = Set(problems.map(\.field))
        return fields.first { field in
            concerned.contains(field) || (FormField.checks.contains(field) && !values[flag: field])
        } ?? fields[0]
    }

    mutating func focusField(_ field: FormField) {
        if editor != nil, focus.kind == .date {
            expandRelativeDate(focus)
            validateDate(focus, text: values[text: focus], leaving: true)
        }
        focus = field
        if field == .confirmed { authenticationShown.appeared(in: inputBatch) }
        editor = field.hasText ? EditableText(values[text: field]) : nil
    }

    // MARK: Values

    /// Records a change of values: restarts the preview's quiet period and clears its old answer.
    /// Reg 10's answers changed in its dialog: journalled and written like an edit of the form, without
    /// counting as one for the save (the dialog has its own rule for a key that came with the Ctrl-S).
    mutating func noticeAnswersChanged(_ answers: DefectNoticeAnswers, now: Double) {
        guard answers != noticeAnswers else { return }
        noticeAnswers = answers
        editCount &+= 1
        draft.writes.poke(now: now)
    }

    mutating func changed(now: Double) { changed(now: now, field: nil) }

    /// `field`: the one field the change was to, when only one was (the gate then judges only its rules).
    mutating func changed(now: Double, field: FormField?) {
        editCount &+= 1
        problems = gateProblems(changing: field)
        preview = .pending(due: now + FormState.previewDelay)
        if saveError != nil { message = nil }
        lastChange.appeared(in: inputBatch)
        draft.writes.poke(now: now)
    }

    /// The draft file's id: one per form kind and asset. Made once: every typed key's journal line names it, and
    /// writing a UUID as text took a fifth of the journal's work.
    public let draftID: String
    public var draftIDs: [String] { [draftID] }
    static let leaveWording = LeaveQuestion.inspection
    static let recordNoun = "inspection"


    /// What a draft write of the current values needs.
    public var draftSnapshot: DraftSnapshot {
        // Everything given to `init`: setting a member afterwards makes the snapshot's box again (a copy per key).
        DraftSnapshot(draftID: draftID, sessionID: sessionID, assetUUID: row.asset.uuid, assetTag: row.asset.tag,
                      amends: amending?.id, amendsUUID: amending?.recordUUID, values: values, written: draft.written,
                      focus: focus, noticeAnswers: noticeAnswers)
    }

    mutating func setText(_ field: FormField, _ text: String, now: Double) {
        guard field.hasText, values[text: field] != text else { return }
        values[text: field] = text
        if field.kind == .date { validateDate(field, text: text, leaving: false) }
        changed(now: now, field: field)
    }

    mutating func validateDate(_ field: FormField, text: String, leaving: Bool) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if RelativeDate.isRelative(trimmed) {
            // Still being typed; left unexpanded only when it means nothing.
            let understood = relativeDate(field, text: trimmed) != nil
            fieldMessages[field] = leaving && !understood
                ? RelativeDate.outOfRange(trimmed, from: relativeBase(field), today: today)
                    ?? "“\(trimmed)” is not a date: write \(RelativeDate.expected)." : nil
        } else if trimmed.isEmpty || CalendarDate(iso: trimmed) != nil {
            fieldMessages[field] = nil
        } else if trimmed.count == 10 || leaving {
            fieldMessages[field] = trimmed.count == 10 && trimmed.allSatisfy({ $0.isNumber || $0 == "-" })
                ? "\(trimmed) is not a real date."
                : "Write the date as \(RelativeDate.expected)."
        } else {
            fieldMessages[field] = nil
        }
    }

    // MARK: Relative dates

    /// The date a relative date counts from: the inspection date for the deadline and the next examination
    /// (`+14` in a remedy deadline is 14 days after the examination), today for the inspection date itself.
    func relativeBase(_ field: FormField) -> CalendarDate {
        guard field != .inspectionDate else { return today }
        return CalendarDate(iso: values.inspectionDate.trimmingCharacters(in: .whitespaces)) ?? today
    }

    /// The date `text` stands for in `field`, when it is written the quick way and makes sense.
    func relativeDate(_ field: FormField, text: String) -> CalendarDate? {
        RelativeDate.resolve(text, from: relativeBase(field), today: today)
    }

    /// The values as the gate will see them: relative dates as the dates they stand for (they are expanded when
    /// their field is left, and before a save). Rules and the preview are worked out from these.
    var resolvedValues: InspectionValues {
        var resolved = values
        for field in [FormField.inspectionDate, .remedyDeadline, .nextExaminationBy] {
            let text = resolved[text: field]
            if RelativeDate.isRelative(text), let date = relativeDate(field, text: text) {
                resolved[text: field] = date.iso
            }
        }
        return resolved
    }

    /// Replaces a relative date by the date it stands for (when the field is left, or at a save).
    mutating func expandRelativeDate(_ field: FormField) {
        guard field.kind == .date else { return }
        let text = values[text: field]
        guard RelativeDate.isRelative(text), let date = relativeDate(field, text: text) else { return }
        values[text: field] = date.iso
        if field == focus, editor != nil { editor = EditableText(date.iso) }
        changed(now: clock)
    }

    /// Under a focused date field typed the quick way: what it will become.
    var relativeDateHint: String? {
        guard focus.kind == .date, let text = editor?.text, RelativeDate.isRelative(text),
              let date = relativeDate(focus, text: text) else { return nil }
        let base = focus == .inspectionDate || text.lowercased().trimmingCharacters(in: .whitespaces) == "today"
            ? "" : " (from the inspection date)"
        return "= \(date.iso)\(base), filled in when you leave the field"
    }

    /// The fields the preview's status depends on.
    static let previewFields: Set<FormField> = [.inspectionType, .result, .action, .remedyDeadlineSet,
                                                .remedyDeadline, .inspectionDate]

    /// What the form says first when the asset is out of use: a record here does not by itself bring it back.
    static func warning(for status: AssetStatus) -> String? {
        switch status {
        case .withdrawn, .quarantined:
            "⚠ This asset is \(status.label). Only a thorough examination brings it back into use; "
                + "any other record leaves it \(status.label)."
        default: nil
        }
    }

    /// Computes a pending preview once its quiet period has passed. Returns true if it did.
    mutating func advance(to now: Double) -> Bool {
        guard case .pending(let due) = preview, now >= due else { return false }
        preview = .ready(previewText())
        return true
    }

    /// *If saved: status …, next thorough examination due …*, from the one status function over the
    /// asset's history plus this record.
    func previewText() -> String {
        let v = resolvedValues
        guard let result = v.result,
              let date = CalendarDate(iso: v.inspectionDate.trimmingCharacters(in: .whitespaces)) else {
            return "If saved: — needs a result and a valid inspection date."
        }
        // A status for a date or a choice the gate would refuse would be a promise the save cannot keep.
        if problems.contains(where: { FormState.previewFields.contains($0.field) }) {
            return "If saved: — not until the dates and choices marked ⚠ are accepted."
        }
        let deadline = v.remedyDeadlineSet
            ? CalendarDate(iso: v.remedyDeadline.trimmingCharacters(in: .whitespaces)) : nil
        let record = RecordFacts(id: Int64.max, type: v.inspectionType, result: result, action: v.action,
                                 remedyDeadline: deadline, inspectionDate: date, amends: amends,
                                 nextExaminationBy: v.inspectionType.isThorough
                                     ? CalendarDate(iso: v.nextExaminationBy.trimmingCharacters(in: .whitespaces))
                                     : nil)
        let facts = history + [record]
        let report = StatusRules.evaluate(asset: row.asset, history: facts, today: today)
        var text = "If saved: status \(report.status.label)"
        if report.status == .remedyBy, let deadline = report.remedyDeadline { text += " \(deadline.iso)" }
        if let due = report.nextDue { text += ", next thorough examination due \(due.iso)" }
        return text + "."
    }
}

/// The answer to "Authenticate and save?".
public enum AuthenticateChoice: Sendable, Equatable { case save, back }

extension AuthenticateChoice {
    /// Asked at Ctrl-S when the confirmation is the only rule unmet; `y` ticks it and saves.
    static func question(thorough: Bool, examiner: String) -> Question<AuthenticateChoice> {
        let name = examiner.trimmingCharacters(in: .whitespaces)
        let sentence = thorough ? "I, \(name), authenticate this report." : "I confirm this record is accurate."
        return Question(
            title: thorough ? "Authenticate and save?" : "Confirm and save?",
            lines: [(sentence, .bold), ("Every other rule is met.", .plain)],
            options: [.init("Yes, save", answer: .save, keys: [.char("y")], rank: .sometimes, hint: "yes"),
                      .init("No", answer: .back, keys: [.char("n")], rank: .sometimes, hint: "no")],
            cancel: (.back, "back"), minWidth: 44)
    }
}


extension FormState: DraftedForm {}
