import Foundation
import RigbookCore
import RigbookStore
import RigbookUI

/// The batch inspection's effects: its locks, its draft and the split-off form. The save is one
/// call, `Register.insert(batch:)`, in `perform`.
extension Session {
    /// Takes the batch draft's lock and each asset's, then opens the batch; an asset open elsewhere (or in this
    /// session) refuses the whole batch, naming who holds it, and every lock taken is let go again.
    func openBatch(assetUUIDs: [UUID], visit: UUID, draft: BatchDraftFile?) throws -> [Event] {
        var rows: [RegisterRow] = []
        for uuid in assetUUIDs {
            if let row = try register.asset(uuid: uuid) { rows.append(row) }
        }
        guard !rows.isEmpty else { return [.failure("None of those assets is in the register any more.")] }
        var taken: [String] = []
        func refuse(_ title: String, _ lines: [String]) -> [Event] {
            for id in taken { release(id) }
            return [.explain(title: title, lines: lines)]
        }
        let ids = [BatchIdentity.draftID(visit: visit)] + rows.map { DraftIdentity.draftID(assetUUID: $0.asset.uuid) }
        for (index, id) in ids.enumerated() {
            let tag = index == 0 ? "This batch" : rows[index - 1].asset.tag
            if locks[id] != nil {
                return refuse("\(tag) is open in this session", ["Close its form first, then open the batch again."])
            }
            switch drafts.lock(id: id) {
            case .acquired(let lock):
                locks[id] = lock
                taken.append(id)
            case .heldBy(let holder):
                return refuse("\(tag) is open in another session", Session.heldElsewhere(holder)
                    + ["Unmark it (m) to inspect the others, or close that form first."])
            case .failed(let reason):
                return refuse("The batch cannot be locked", ["Drafts cannot be kept: \(reason)."])
            }
        }
        // An asset's own inspection draft holds what someone typed for it alone: the batch's record would leave
        // that draft behind, offered again over a saved record. As its form would, the draft is answered first.
        let present = Set(drafts.ids())
        let withDrafts = rows.filter { present.contains(DraftIdentity.draftID(assetUUID: $0.asset.uuid)) }
            .map(\.asset.tag)
        if !withDrafts.isEmpty {
            let named = withDrafts.prefix(5).joined(separator: ", ") + (withDrafts.count > 5 ? ", …" : "")
            let one = withDrafts.count == 1
            return refuse(one ? "\(withDrafts[0]) has a draft of its own"
                            : "\(withDrafts.count) assets have drafts of their own",
                          ["\(named): \(one ? "an inspection draft" : "inspection drafts") not yet saved.",
                           "Recover or discard \(one ? "it" : "them") first (D lists drafts), or unmark "
                           + "\(one ? "it" : "them") (m) to inspect the others."])
        }
        let baseline = blankInspection
        var seed = BatchSeed(visit: visit, rows: rows, baseline: baseline, particulars: try register.particulars())
        if let draft {
            seed.form.initial = draft.values
            seed.form.initial.confirmed = false  // given again by a person, never by a file
            seed.form.draft = DraftFileMeta(of: draft)
            seed.form.focus = draft.focusedField.flatMap(FormField.init(key:))
        }
        return [.batchReady(seed)]
    }

    /// The Drafts screen's Enter on a batch draft: the batch comes back with all its assets and values.
    func openBatchDraft(id: String) throws -> [Event] {
        guard let visit = BatchIdentity.visit(ofDraftID: id) else { return [.failure("\(id) is not a batch draft.")] }
        let draft: BatchDraftFile
        do {
            guard let read = try drafts.readBatch(id: id) else { return [.failure("That batch draft is gone.")] }
            draft = read
        } catch {
            return [.failure("The batch draft is \(error.description).")]
        }
        return try openBatch(assetUUIDs: draft.assets.compactMap { UUID(uuidString: $0.assetUUID) }, visit: visit,
                             draft: draft)
    }

    func writeBatchDraft(_ snapshot: BatchDraftSnapshot) -> Event {
        let id = snapshot.draftID
        // Never without the lock, which the batch took when it opened.
        guard locks[id] != nil else {
            return .draftWriteFailed(draftID: id, reason: "the batch's lock was not held; reopen the batch")
        }
        let now = Timestamp.now()
        let meta = DraftFileMeta.write(after: snapshot.written, at: now)
        let name = snapshot.values.inspectorName.trimmingCharacters(in: .whitespaces)
        var draft = BatchDraftFile(
            visit: snapshot.visit,
            assets: snapshot.assets.map { .init(assetUUID: $0.uuid.uuidString.lowercased(), assetTag: $0.tag) },
            values: snapshot.values, createdAt: meta.createdAt, updatedAt: now,
            operatorName: name.isEmpty ? SystemIdentity.userName : name, revision: meta.revision,
            focusedField: snapshot.focus.key)
        draft.unknownKeys = meta.unknownKeys
        do {
            try drafts.write(batch: draft)
            return .draftWritten(draftID: id, meta)
        } catch {
            return .draftWriteFailed(draftID: id, reason: "\(error)")
        }
    }

    /// One asset of the batch in its own form, prefilled with the batch's values. The batch's lock on the asset
    /// becomes the form's. An asset with a draft of its own is not split off: that draft would be written over.
    func splitOff(assetUUID: UUID, values: InspectionValues) throws -> [Event] {
        guard let row = try register.asset(uuid: assetUUID) else {
            return [.failure("That asset is no longer in the register.")]
        }
        let draftID = DraftIdentity.draftID(assetUUID: assetUUID)
        if (try? drafts.read(id: draftID)) != nil {
            release(draftID)
            return [.failure("\(row.asset.tag) has a draft of its own: it left the batch; open it from the list (i).")]
        }
        var seed = formSeed(row: row, records: try register.history(assetUUID: assetUUID), amending: nil,
                            particulars: try register.particulars())
        seed.initial = values
        seed.focus = .result
        return [.splitOffReady(seed)]
    }

    /// A batch draft as the Drafts screen lists it.
    func batchSummary(_ draft: BatchDraftFile) -> DraftSummary {
        let blank = blankInspection
        var recoverable = draft.values
        recoverable.confirmed = false
        let tags = draft.assets.map(\.assetTag)
        let elsewhere = drafts.isLockedElsewhere(id: draft.draftID)
        return summary(draft.header, asset: draft.assets.first?.assetUUID ?? "", tag: "\(tags.count) assets",
                       kind: "batch", writer: "",
                       lockedBy: elsewhere ? drafts.holder(id: draft.draftID)?.description : nil,
                       differences: ["Assets: " + tags.prefix(8).joined(separator: ", ")
                                     + (tags.count > 8 ? " and \(tags.count - 8) more" : "")]
                           + DraftSummary.differences(recoverable, from: blank))
    }
}
