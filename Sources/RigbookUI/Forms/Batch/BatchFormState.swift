import Foundation
import RigbookCore

/// What the runtime hands over to open a batch inspection: the visit, the locked assets, and the seed of the one
/// inspection form the shared values are typed in (on the first asset; when recovered, with the batch draft's facts).
public struct BatchSeed: Sendable {
    public var visit: UUID
    public var rows: [RegisterRow]
    public var form: FormSeed

    public init(visit: UUID, rows: [RegisterRow], baseline: InspectionValues, particulars: Particulars) {
        self.visit = visit
        self.rows = rows
        form = FormSeed(row: rows[0], baseline: baseline,
                        sessionID: BatchIdentity.sessionID(visit: visit, assetUUID: rows[0].asset.uuid),
                        own: InspectionOpening(particulars: particulars))
    }

    /// Where a fresh batch starts: the first field that still needs the inspector (a remembered name and
    /// number leave the first check).
    public static func firstNeeded(_ values: InspectionValues) -> FormField {
        if values.inspectorName.trimmingCharacters(in: .whitespaces).isEmpty { return .inspectorName }
        if values.inspectionType.isThorough && values.certificationNumber.trimmingCharacters(in: .whitespaces).isEmpty {
            return .certificationNumber
        }
        return .checkMarking
    }
}

public enum BatchAction: Sendable { case previousAsset, nextAsset, takeOut, splitOff }

/// The batch inspection (SlingGuard's second form): one set of the shared values for N assets.
/// The values are edited by a single inspection form (`form`), so the widgets, keys, draft debounce and
/// flush, the leave question and reg 10's questions are the single form's own; this screen adds the asset
/// list, turns the form's draft and save effects into the batch's, and saves every record in one
/// transaction. An asset split off is edited in a child form drawn in place of the batch until it closes.
public struct BatchFormState: Screen {
    public let visit: UUID
    public private(set) var rows: [RegisterRow] { didSet { places = BatchFormState.places(rows) } }
    /// The assets counted by location, most first ("Quay 2 ×9, Quay 3 ×1"), for the title: a stray mark at another
    /// place shows before anything is saved. Counted when the assets change, not on every frame.
    private(set) var places: String
    /// The shared values, in the single form's own state.
    public internal(set) var form: FormState
    /// The asset list's selection (PgUp/PgDn), for taking out and splitting off.
    public internal(set) var selection = 0
    /// The gate's records while reg 10's questions are asked or the save is under way.
    var pending: [ValidatedInspection]?
    /// An asset split off the batch, in its own form over the batch until that form closes.
    public internal(set) var splitForm: FormState?
    public let today: CalendarDate

    public init(seed: BatchSeed, context: ScreenContext) {
        visit = seed.visit
        rows = seed.rows
        places = BatchFormState.places(seed.rows)
        today = context.today
        var formSeed = seed.form
        formSeed.focus = formSeed.focus ?? BatchSeed.firstNeeded(formSeed.initial)
        form = FormState(seed: formSeed, context: BatchFormState.formContext(context, assets: seed.rows.count))
        form.openingWarning = nil
        form.batchMembers = members
        form.preview = .none
    }

    public var draftID: String { BatchIdentity.draftID(visit: visit) }
    public var draftIDs: [String] { [draftID] + (splitForm?.draftIDs ?? []) }

    static func places(_ rows: [RegisterRow]) -> String {
        var counts: [String: Int] = [:]
        for row in rows { counts[row.asset.location.isEmpty ? "no location" : row.asset.location, default: 0] += 1 }
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) ×\($0.value)" }
            .joined(separator: ", ")
    }

    /// Each asset with its own gate context: its commissioning, interval, particulars and session id.
    var members: [BatchMember] { rows.map(member) }

    func member(_ row: RegisterRow) -> BatchMember {
        BatchMember(tag: row.asset.tag, context: SaveGate.Context(
            asset: row.asset, today: today, sessionID: BatchIdentity.sessionID(visit: visit, assetUUID: row.asset.uuid),
            particulars: form.particulars.report(assetUUID: row.asset.uuid, examinerName: form.values.inspectorName)))
    }

    static let keymap = Keymap<BatchAction>(title: "Batch inspection", whileTyping: true, [
        KeyBinding([.pageUp], help: "Asset list: the previous asset", brief: "previous asset", rank: .often,
                   action: .previousAsset),
        KeyBinding([.pageDown], help: "Asset list: the next asset", brief: "next asset", rank: .often,
                   action: .nextAsset),
        KeyBinding([.ctrl("x")], label: "Ctrl-X", help: "Take the selected asset out of the batch (its lock is let go)",
                   footer: "take out", rank: .sometimes, action: .takeOut),
        KeyBinding([.ctrl("t")], label: "Ctrl-T",
                   help: "Split the selected asset off into its own form, prefilled with the batch's values "
                       + "(a defect found on one item)", footer: "split off", rank: .sometimes, action: .splitOff),
    ])

    /// Rows above the shared form: the title, the asset list's heading and up to a quarter of the screen of assets.
    static func listRows(assets: Int, height: Int) -> Int { min(assets, max(1, height / 4)) }

    static func formTop(assets: Int, height: Int) -> Int { 2 + listRows(assets: assets, height: height) }

    /// The form's context: the area below the asset list.
    static func formContext(_ context: ScreenContext, assets: Int) -> ScreenContext {
        var inner = context
        let top = min(formTop(assets: assets, height: context.area.height), max(0, context.area.height - 4))
        inner.area = Rect(x: context.area.x, y: context.area.y + top, width: context.area.width,
                          height: context.area.height - top)
        return inner
    }

    var hasUnsavedInput: Bool { form.hasUnsavedInput }

    // MARK: Keys

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        if var child = splitForm {
            let outcome = child.handle(key, context: context)
            splitForm = child
            return childOutcome(outcome)
        }
        let inner = BatchFormState.formContext(context, assets: rows.count)
        if case .authenticating = form.mode {
            form.inputBatch = context.batch
            return form.takeAuthentication(key, now: context.now) ? validateAndSave() : .stay
        }
        if case .editing = form.mode, let action = BatchFormState.keymap.action(for: key) {
            form.inputBatch = context.batch
            return handle(action, context: context)
        }
        if case .editing = form.mode, FormState.keymap.action(for: key) == .help {
            return .help(title: BatchFormState.keymap.title, BatchFormState.helpLines)
        }
        if case .editing = form.mode, FormState.keymap.action(for: key) == .save {
            form.inputBatch = context.batch
            if case .note? = form.message { form.message = nil }
            return attemptSave()
        }
        return translate(form.handle(key, context: inner))
    }

    private mutating func handle(_ action: BatchAction, context: ScreenContext) -> Outcome {
        switch action {
        case .previousAsset: selection = max(0, selection - 1)
        case .nextAsset: selection = min(rows.count - 1, selection + 1)
        case .takeOut, .splitOff:
            guard rows.count > 1 else {
                form.note("The batch needs at least one asset: close it (Esc) to inspect none.")
                return .stay
            }
            let row = rows.remove(at: selection)
            selection = min(selection, rows.count - 1)
            form.batchMembers = members
            form.draft.writes.poke(now: context.now)  // the draft's asset list changed
            let lockOf = DraftIdentity.draftID(assetUUID: row.asset.uuid)
            if action == .takeOut {
                form.note("Took \(row.asset.tag) out of the batch.")
                return .effects([.releaseDraft(draftID: lockOf), .refreshAsset(assetUUID: row.asset.uuid)])
            }
            var values = form.values
            values.confirmed = false
            form.note("Split \(row.asset.tag) off into its own form.")
            return .effects([.splitOff(assetUUID: row.asset.uuid, values: values)])
        }
        return .stay
    }

    /// Ctrl-S: the batch gate, every asset judged on its own; then reg 10's questions for a defect (once for the
    /// batch), then the one transaction.
    mutating func attemptSave() -> Outcome {
        if !form.lastChange.isSeen(by: form.inputBatch) {
            form.note("Not saved: Ctrl-S arrived together with other keys. Check, then press it again.")
            return .stay
        }
        for field in [FormField.inspectionDate, .remedyDeadline, .nextExaminationBy] { form.expandRelativeDate(field) }
        if let editor = form.editor, form.focus.kind == .date {
            form.validateDate(form.focus, text: editor.text, leaving: true)
        }
        if form.askAuthenticationIfOnlyItIsUnmet() { return .stay }
        return validateAndSave()
    }

    /// The batch gate's verdict: every record, or the rules unmet (naming the assets that break them).
    mutating func validateAndSave() -> Outcome {
        switch BatchGate.validate(form.values, members: members) {
        case .failure(let failure):
            form.attemptedSave = true
            let count = failure.problems.count
            form.message = .note("Not saved: \(count) rule\(count == 1 ? " is" : "s are") unmet (marked ⚠). "
                                 + "Fix \(count == 1 ? "it" : "them") and press Ctrl-S again.")
            if let first = failure.problems.first { form.focusField(first.field) }
            return .stay
        case .success(let records):
            pending = records
            let first = records[0]
            if DefectNotices.required(for: first.result, type: first.values.inspectionType) {
                form.message = nil
                let employer = form.particulars.report(assetUUID: first.assetUUID,
                                                       examinerName: first.values.inspectorName).employer.name
                let dialog = DefectNoticeDialog(employer: employer, examinationDate: first.inspectionDate,
                                                today: today, batch: form.inputBatch)
                form.mode = .own(.notifying(dialog, first))
                return .stay
            }
            form.mode = .saving(first)
            form.sendToRegister()
            return .effects([.saveBatch(records, visit: visit, nil)])
        }
    }

    // MARK: The form's outcomes, made the batch's

    /// The single form's outcome with its effects on one asset's draft turned into the batch's.
    private func translate(_ outcome: Outcome) -> Outcome {
        switch outcome {
        case .effects(let effects): return .effects(effects.flatMap(translate))
        case .all:
            // Closing: say what became of the batch rather than of the first asset's inspection. The parts as one
            // list: `a + b + c` nests, and the pop, the notice and the draft's write may sit at any depth.
            let outcomes = outcome.parts
            let closing = outcomes.contains { if case .pop = $0 { true } else { false } }
            return .all(outcomes.compactMap { part in
                if closing, case .notify = part { return closingNotice(outcomes) }
                return translate(part)
            })
        default: return outcome
        }
    }

    private func translate(_ effect: Effect) -> [Effect] {
        switch effect {
        case .writeDraft(let snapshot): [.writeBatchDraft(batchSnapshot(snapshot))]
        case .journalDraft: []  // the batch's draft has no journal (yet): its debounced write is what is kept
        case .deleteDraft: [.deleteDraft(draftID: draftID)]
        case .releaseDraft: releases
        case .refreshAsset: rows.map { .refreshAsset(assetUUID: $0.asset.uuid) }
        case .save(_, let notices, _): pending.map { [.saveBatch($0, visit: visit, notices)] } ?? []
        default: [effect]
        }
    }

    private func closingNotice(_ outcomes: [Outcome]) -> Outcome? {
        let effects = outcomes.flatMap { part -> [Effect] in if case .effects(let e) = part { e } else { [] } }
        if effects.contains(where: { if case .writeDraft = $0 { true } else { false } }) {
            return .notify(.info("Kept the batch draft of \(assetCount); D lists it to recover."))
        }
        return .notify(.info("Discarded the batch inspection of \(assetCount)."))
    }

    private var assetCount: String { "\(rows.count) asset\(rows.count == 1 ? "" : "s")" }

    /// Every lock the batch holds: its draft's and each asset's.
    private var releases: [Effect] {
        [.releaseDraft(draftID: draftID)]
            + rows.map { .releaseDraft(draftID: DraftIdentity.draftID(assetUUID: $0.asset.uuid)) }
    }

    func batchSnapshot(_ snapshot: DraftSnapshot? = nil) -> BatchDraftSnapshot {
        BatchDraftSnapshot(visit: visit, assets: rows.map { ($0.asset.uuid, $0.asset.tag) },
                           values: snapshot?.values ?? form.values, written: form.draft.written,
                           focus: snapshot?.focus ?? form.focus)
    }

    /// The split-off form's outcome: closing it (saved, discarded, kept) brings the batch back, never the list.
    private mutating func childOutcome(_ outcome: Outcome) -> Outcome {
        switch outcome {
        case .pop, .popAll:
            splitForm = nil
            return .stay
        case .all(let outcomes): return .all(outcomes.map { childOutcome($0) })
        default: return outcome
        }
    }

    // MARK: Results

    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        if case .flush = event { return flush(context: context) }
        if var child = splitForm, let outcome = child.receive(event, context: context) {
            splitForm = child
            return childOutcome(outcome)
        }
        let inner = BatchFormState.formContext(context, assets: rows.count)
        let formDraftID = form.draftID
        switch event {
        case .splitOffReady(let seed):
            // Both drafts are written at once, not after the debounce, the asset's own first: at every moment a
            // draft on disk names the asset, so a crash loses neither it nor the batch's values.
            var child = FormState(seed: seed, context: context)
            var effects = child.flushDraftEffect().map { [$0] } ?? []
            splitForm = child
            if case .effects(let e)? = form.receive(.flush, context: inner) { effects += e.flatMap(translate) }
            return .effects(effects)
        case .batchSaved(let saved, _) where saved == visit:
            guard form.saving else { return nil }
            let v = form.values
            return .popAll + .effects((form.draft.onDisk ? [.deleteDraft(draftID: draftID)] : [])
                + [.rememberInspector(name: v.inspectorName.trimmingCharacters(in: .whitespaces),
                                      certificationNumber: v.certificationNumber.trimmingCharacters(in: .whitespaces))]
                + releases + rows.map { .refreshAsset(assetUUID: $0.asset.uuid) })
        case .retiredInBatch(let uuids) where form.saving:
            if let first = rows.firstIndex(where: { uuids.contains($0.asset.uuid) }) { selection = first }
            return .stay
        case .saveFailed where form.saving:
            pending = nil
            return form.receive(event, context: inner).map(translate)
        case .draftWritten(let id, let meta) where id == draftID:
            return form.receive(.draftWritten(draftID: formDraftID, meta), context: inner).map(translate)
        case .draftWriteFailed(let id, let reason) where id == draftID:
            return form.receive(.draftWriteFailed(draftID: formDraftID, reason: reason), context: inner).map(translate)
        case .draftDeleted(let id) where id == draftID:
            return form.receive(.draftDeleted(draftID: formDraftID), context: inner).map(translate)
        case .pathListed(_, let owner) where owner == formDraftID, .attached(_, let owner) where owner == formDraftID,
             .attachRefused(_, let owner) where owner == formDraftID:
            return form.receive(event, context: inner).map(translate)
        default:
            return nil
        }
    }

    /// A signal, a hang-up or Ctrl-Z: the split-off form's draft and the batch's are both written now.
    private mutating func flush(context: ScreenContext) -> Outcome {
        var effects: [Effect] = []
        if var child = splitForm {
            if case .effects(let e)? = child.receive(.flush, context: context) { effects += e }
            splitForm = child
        }
        let inner = BatchFormState.formContext(context, assets: rows.count)
        if case .effects(let e)? = form.receive(.flush, context: inner) { effects += e.flatMap(translate) }
        return .effects(effects)
    }

    public var deadline: Double? { [form.deadline, splitForm?.deadline].compactMap { $0 }.min() }

    public mutating func advance(context: ScreenContext) -> [Effect] {
        var effects = form.advance(context: BatchFormState.formContext(context, assets: rows.count)).flatMap(translate)
        form.preview = .none
        if var child = splitForm {
            effects += child.advance(context: context)
            splitForm = child
        }
        return effects
    }

    public mutating func resized(context: ScreenContext) {
        form.resized(context: BatchFormState.formContext(context, assets: rows.count))
        splitForm?.resized(context: context)
    }

}
