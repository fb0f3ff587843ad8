import Foundation
import RigbookCore

/// The asset editor's own state: the asset it edits, its draft file (the inspection form's `DraftTracker`:
/// the same debounce, retry and flush), and its one question.
public struct AssetEditing: Sendable {
    public let row: RegisterRow
    public let baseline: AssetDraft
    public let sessionID: String
    let today: CalendarDate
    public internal(set) var file: DraftTracker
    /// "Leave these changes?" is asked.
    var leaving: Question<LeaveChoice>?
    /// Ctrl-S sent the changes to the register; waiting for the answer.
    public internal(set) var saving = false

    public var draftID: String { DraftIdentity.assetDraftID(assetUUID: row.asset.uuid) }
}

extension Asset.Field {
    /// The field's name in a draft file (`focused_field`): the CSV column's, or the editor's own.
    public var key: String {
        switch self {
        case .disposition: "disposition"
        case .retiredOn: "retired_on"
        case .reason: "reason"
        default: AssetImport.columnName(self)
        }
    }

    public init?(key: String) {
        guard let field = Asset.Field.allCases.first(where: { $0.key == key }) else { return nil }
        self = field
    }
}

extension AssetFormState {
    /// Opens the editor on an asset (`e` on the list, Enter on its draft).
    public init(editing seed: AssetEditorSeed, context: ScreenContext) {
        self.init()
        draft = seed.initial
        editing = AssetEditing(row: seed.row, baseline: seed.baseline, sessionID: seed.sessionID,
                               today: context.today, file: DraftTracker(written: seed.draft))
        focusField(seed.focus ?? .tag)
        lastChange = SeenInBatch(context.batch)
    }

    static let editKeymap = PlainFormKeys.fields(
        title: "Asset editor", save: ("Save the changes: each field changed is kept in the asset's history", "save"),
        close: ("Close the editor (asks first if you changed anything)", "close"))

    public var hasUnsavedInput: Bool { hasChanges }

    mutating func handleEditing(_ key: Key, context: ScreenContext) -> Outcome {
        guard var editing else { return .stay }
        if var question = editing.leaving {
            let answer = question.handle(key, batch: context.batch)
            editing.leaving = answer == nil ? question : nil
            self.editing = editing
            return answer.map { leave($0) } ?? .stay
        }
        if editing.saving { return .stay }
        let before = draft
        let outcome = handlePlainKey(key, context: context)
        // Every edit restarts the draft's debounce and goes to the keystroke journal, as in the inspection form.
        guard draft != before else { return outcome }
        self.editing?.file.writes.poke(now: context.now)
        return .effects([.journalDraft(draftID: editing.draftID, hasUnsavedInput ? draftSnapshot : nil)]) + outcome
    }

    mutating func closeEditor(context: ScreenContext) -> Outcome {
        guard var editing else { return .stay }
        if hasUnsavedInput {
            editing.leaving = LeaveQuestion.assetEdit.opened(in: context.batch, draft: editing.file)
            self.editing = editing
            // Written now rather than after the debounce: the question must know whether the draft is on disk
            // before it is answered (a failed write takes "close and keep draft" off it).
            return .effects(flushDraftEffect().map { [$0] } ?? [])
        }
        editing.file.cancel()
        self.editing = editing
        // Nothing changed (or changed and undone): no draft may remain.
        return .pop + .effects(deleteOwnDraft + closingEffects)
    }

    private mutating func leave(_ answer: LeaveChoice) -> Outcome {
        guard let tag = editing?.row.asset.tag else { return .stay }
        switch answer {
        case .keepEditing:
            return .stay
        case .discard:
            editing?.file.cancel()
            return .pop + .notify(.info("Discarded the changes to \(tag).")) + .effects(deleteOwnDraft + closingEffects)
        case .keepDraft:
            let write = flushDraftEffect() ?? draftSnapshot.map(Effect.writeDraft)
            return .pop + .notify(.info("Kept the draft of the changes to \(tag); e on it or D recovers it."))
                + .effects([write].compactMap { $0 } + closingEffects)
        }
    }

    mutating func saveEdit(context: ScreenContext) -> Outcome {
        guard passesChecks(), var editing,
              case .success(let asset) = draft.validatedEdit(of: editing.row.asset, today: context.today) else {
            return .stay
        }
        problems = []
        editing.saving = true
        // A write still waiting must not bring the draft back after the save removes it.
        editing.file.cancel()
        self.editing = editing
        return .effects([.changeAsset(assetUUID: asset.uuid, to: asset, reason: draft.reason,
                                      sessionID: editing.sessionID)])
    }

    mutating func receiveEditing(_ event: Event, context: ScreenContext) -> Outcome? {
        guard let editing else { return nil }
        switch event {
        case .assetChanged(_, let session, let summary) where session == editing.sessionID:
            return .pop + .notify(.info("Saved \(editing.row.asset.tag): \(summary)"))
                + .effects(deleteOwnDraft + closingEffects + [.reloadRegister])
        case .assetNotChanged(let session, let reason) where session == editing.sessionID:
            self.editing?.saving = false
            message = .error("Not saved: \(reason)")
            // Nothing was saved: the draft must catch up with what is on screen.
            self.editing?.file.writes.poke(now: context.now)
            return .stay
        case _ where self.editing?.file.receive(event, draftID: editing.draftID, now: context.now) == true:
            if let question = self.editing?.leaving, let file = self.editing?.file {
                self.editing?.leaving = LeaveQuestion.assetEdit.following(question, draft: file)
            }
            return .stay
        case .flush:
            return .effects(flushDraftEffect().map { [$0] } ?? [])
        default:
            return nil
        }
    }

    public var deadline: Double? { editing?.file.deadline }

    public mutating func advance(context: ScreenContext) -> [Effect] {
        guard editing?.file.fireIfDue(now: context.now) == true, let effect = draftEffect else { return [] }
        return [effect]
    }

    /// What a draft write of the current values needs.
    var draftSnapshot: DraftSnapshot? {
        guard let editing else { return nil }
        return DraftSnapshot(draftID: editing.draftID, sessionID: editing.sessionID, assetUUID: editing.row.asset.uuid,
                             assetTag: editing.row.asset.tag, amends: nil, amendsUUID: nil, values: InspectionValues(),
                             written: editing.file.written, focus: .inspectionType, assetValues: draft,
                             assetFocus: focus.key)
    }

    private var draftEffect: Effect? {
        editing?.file.effect(draftID: editing?.draftID ?? "", unsaved: hasUnsavedInput) { draftSnapshot }
    }
    private mutating func flushDraftEffect() -> Effect? {
        let (unsaved, snapshot, draftID) = (hasUnsavedInput, draftSnapshot, editing?.draftID ?? "")
        return editing?.file.flushEffect(draftID: draftID, unsaved: unsaved) { snapshot }
    }

    private var deleteOwnDraft: [Effect] { editing.map { $0.file.deleteOwn(draftID: $0.draftID) } ?? [] }

    private var closingEffects: [Effect] {
        guard let editing else { return [] }
        return [.releaseDraft(draftID: editing.draftID), .refreshAsset(assetUUID: editing.row.asset.uuid)]
    }

    /// The line above the footer: a draft that cannot be written, else what saving would do — where the due
    /// date moves (interval, commission date), that a retirement takes the asset off the lists.
    var editorLine: (text: String, style: Style)? {
        guard let editing else { return nil }
        if let warning = editing.file.warning {
            return ("⚠ Draft not written; what you typed is kept here and the asset is unchanged: \(warning).",
                    Style(colour: .red, bold: true))
        }
        let row = editing.row
        if let disposition = draft.disposition, row.asset.disposition == nil {
            return ("If saved: RETIRED (\(disposition.label)): off the list, due and the calendar; records kept.",
                    Style(colour: .yellow, bold: true))
        }
        func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespaces) }
        var asset = row.asset
        asset.intervalMonths = Int(trimmed(draft.intervalMonths)) ?? draft.defaultInterval
        let commissioned = trimmed(draft.commissioned)
        asset.commissioned = commissioned.isEmpty ? nil : CalendarDate(iso: commissioned) ?? row.asset.commissioned
        let now = row.status(on: editing.today).nextDue
        let then = StatusRules.evaluate(asset: asset, summary: row.summary, today: editing.today).nextDue
        if now != then {
            let moved = "\(then?.iso ?? "none") (now \(now?.iso ?? "none"))"
            let next = row.asset.isElectrical ? "test" : "thorough examination"
            return ("If saved: the next \(next) moves to \(moved).",
                    Style(colour: .yellow, bold: true))
        }
        if Tags.key(trimmed(draft.tag)) != Tags.key(row.asset.tag) {
            return ("If saved: a new tag; the asset and its records stay, and the old tag still finds it.", .bold)
        }
        return hasUnsavedInput ? ("If saved: each field changed is kept in the asset's history, with the reason.", .dim)
            : ("Change a field, give a reason, then Ctrl-S. Retire it under In service.", .dim)
    }
}
