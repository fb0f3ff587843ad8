import Foundation
import RigbookCore

/// The inspection form: the 17 values (the draft model), the baseline it was opened with, the focus
/// and the widgets' transient state. `hasUnsavedInput` is simply `values != baseline`.
public struct FormState: Sendable {
    public let row: RegisterRow
    public let history: [RecordFacts]
    public let baseline: InspectionValues
    public let draftID: String
    public let amends: Int64?
    public let today: CalendarDate

    public internal(set) var values: InspectionValues
    public internal(set) var focus: FormField = .inspectionType
    /// The focused text or date field being edited.
    var editor: EditableText?
    /// First body line on screen.
    var scroll = 0
    /// Immediate messages for date fields ("2026-02-30 is not a real date").
    public internal(set) var dateMessages: [FormField: String] = [:]
    public internal(set) var preview: Preview = .none
    /// After a refused Ctrl-S the unmet rules are shown in red, not as quiet hints.
    public internal(set) var attemptedSave = false
    public internal(set) var popup: ChoicePopup?
    public internal(set) var dialog: LeaveDialog?
    public internal(set) var saving = false
    /// Why the last save failed; stays until the next attempt.
    public internal(set) var saveError: String?
    /// A one-off message on the form's status line.
    public internal(set) var notice: String?
    /// When to write the draft file (500 ms after the last edit, at most 1 s behind).
    public internal(set) var draftWrites = Debouncer()
    /// Whether a draft file for this form is on disk.
    public internal(set) var draftOnDisk: Bool
    /// Why the last draft write failed; shown until a write succeeds.
    public internal(set) var draftWarning: String?

    public enum Preview: Sendable, Equatable {
        case none
        /// An edit is waiting for the quiet period to end; the old answer is gone.
        case pending(due: Double)
        case ready(String)
    }

    public init(seed: FormSeed, today: CalendarDate, now: Double) {
        row = seed.row
        history = seed.history
        baseline = seed.baseline
        draftID = seed.draftID
        amends = seed.amends
        self.today = today
        values = seed.initial
        draftOnDisk = seed.draftOnDisk
        problems = SaveGate.problems(values, context: gateContext)
        preview = .ready(FormState.previewText(seed.initial, row: seed.row, history: seed.history, amends: seed.amends, today: today))
        focusField(.inspectionType)
    }

    public var hasUnsavedInput: Bool { values != baseline }

    public var gateContext: SaveGate.Context {
        SaveGate.Context(assetUUID: row.asset.uuid, commissioned: row.asset.commissioned, today: today,
                         draftID: draftID, amends: amends)
    }

    /// Every unmet rule for the current values; kept up to date on each change (the view reads it
    /// several times a frame).
    public private(set) var problems: [GateProblem] = []

    /// The quiet period before the "If saved" preview is computed (the seed's 300 ms).
    public static let previewDelay = 0.3

    // MARK: Focus

    mutating func focusField(_ field: FormField) {
        if let previous = editor, focus.kind == .date { validateDate(focus, text: previous.text, leaving: true) }
        focus = field
        if let path = field.textPath { editor = EditableText(values[keyPath: path]) } else { editor = nil }
    }

    mutating func moveFocus(by step: Int) {
        let all = FormField.allCases
        let next = (focus.rawValue + step + all.count) % all.count
        focusField(all[next])
    }

    // MARK: Values

    /// Records a change of values: restarts the preview's quiet period and clears its old answer.
    mutating func changed(now: Double) {
        problems = SaveGate.problems(values, context: gateContext)
        preview = .pending(due: now + FormState.previewDelay)
        saveError = nil
        draftWrites.poke(now: now)
    }

    public var draftFileID: String { DraftIdentity.fileID(assetUUID: row.asset.uuid) }

    /// What a draft write of the current values needs.
    public var draftSnapshot: DraftSnapshot {
        DraftSnapshot(fileID: draftFileID, sessionID: draftID, assetUUID: row.asset.uuid, assetTag: row.asset.tag,
                      amends: amends, values: values)
    }

    /// The draft effect for now: a write while the values differ from the baseline, a removal once
    /// they are back to it (typing then undoing leaves no draft).
    var draftEffect: Effect? {
        if hasUnsavedInput { return .writeDraft(draftSnapshot) }
        return draftOnDisk ? .deleteDraft(fileID: draftFileID) : nil
    }

    /// The draft effect if the debounce fell due at `now`.
    mutating func dueDraftEffect(now: Double) -> Effect? {
        draftWrites.fireIfDue(now: now) ? draftEffect : nil
    }

    /// The draft effect to run at once (signal, suspend, close and keep draft), if anything is unwritten.
    mutating func flushDraftEffect() -> Effect? {
        let pending = draftWrites.flush()
        return pending || (hasUnsavedInput && !draftOnDisk) ? draftEffect : nil
    }

    mutating func draftWritten() {
        draftOnDisk = true
        draftWarning = nil
    }

    mutating func draftDeleted() { draftOnDisk = false }

    mutating func draftWriteFailed(_ reason: String) {
        draftWarning = reason
    }

    mutating func setText(_ field: FormField, _ text: String, now: Double) {
        guard let path = field.textPath, values[keyPath: path] != text else { return }
        values[keyPath: path] = text
        if field.kind == .date { validateDate(field, text: text, leaving: false) }
        changed(now: now)
    }

    mutating func validateDate(_ field: FormField, text: String, leaving: Bool) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || CalendarDate(iso: trimmed) != nil {
            dateMessages[field] = nil
        } else if trimmed.count == 10 || leaving {
            dateMessages[field] = trimmed.count == 10 && trimmed.allSatisfy({ $0.isNumber || $0 == "-" })
                ? "\(trimmed) is not a real date."
                : "Write the date as YYYY-MM-DD."
        } else {
            dateMessages[field] = nil
        }
    }

    /// Computes a pending preview once its quiet period has passed. Returns true if it did.
    mutating func advance(to now: Double) -> Bool {
        guard case .pending(let due) = preview, now >= due else { return false }
        preview = .ready(FormState.previewText(values, row: row, history: history, amends: amends, today: today))
        return true
    }

    /// *If saved: status …, next thorough examination due …*, from the one status function over the
    /// asset's history plus this record.
    static func previewText(_ v: InspectionValues, row: RegisterRow, history: [RecordFacts], amends: Int64?,
                            today: CalendarDate) -> String {
        guard let result = v.result, let date = CalendarDate(iso: v.inspectionDate.trimmingCharacters(in: .whitespaces)) else {
            return "If saved: — needs a result and a valid inspection date."
        }
        let deadline = v.remedyDeadlineSet ? CalendarDate(iso: v.remedyDeadline.trimmingCharacters(in: .whitespaces)) : nil
        let record = RecordFacts(id: Int64.max, type: v.inspectionType, result: result, action: v.action,
                                 remedyDeadline: deadline, inspectionDate: date, amends: amends)
        let facts = history + [record]
        let report = StatusRules.evaluate(asset: row.asset, history: facts, today: today)
        var text = "If saved: status \(report.status.label)"
        if report.status == .remedyBy, let deadline = report.remedyDeadline { text += " \(deadline.iso)" }
        if let due = report.nextDue { text += ", next thorough examination due \(due.iso)" }
        return text + "."
    }
}

/// The pop-up list of a choice field.
public struct ChoicePopup: Sendable, Equatable {
    public var field: FormField
    public var selection: Int
}

/// *Keep editing · Discard* (and, with drafts, *Close and keep draft*) when leaving with unsaved input.
public struct LeaveDialog: Sendable, Equatable {
    public enum Choice: Sendable, Equatable { case keepEditing, keepDraft, discard }
    public var options: [Choice]
    public var selection = 0

    public static func label(_ choice: Choice) -> String {
        switch choice {
        case .keepEditing: "Keep editing"
        case .keepDraft: "Close and keep draft"
        case .discard: "Discard"
        }
    }
}
