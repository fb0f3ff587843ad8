import Foundation
import RigbookCore
import RigbookStore
import RigbookUI

/// The register read for the list: every row, or, for a large register while nothing needs every row, the counts
/// and a window of rows around the row to keep in view (`ListWindow`).
extension Session {
    func loadForList() throws -> [Event] {
        let list = state.list
        let large = try register.assetCount() >= listWindowFrom
        // Status columns changed behind Rigbook's back cannot place every asset: such a register is read whole.
        let byWindow = large ? try register.statusColumnsAreSound() : false
        let draftAssets = Set(drafts.ids().compactMap(DraftStore.assetUUID(ofDraftID:)))
        let particulars = try register.particulars()
        let batchDrafts = Set(drafts.batchIDs())
        guard byWindow && !list.needsAllRows else {
            var rows = try register.rows(includingRetired: list.showRetired)
            // Draft marks come from file names (and a journal's first byte): the list never reads a draft.
            if !draftAssets.isEmpty {
                for index in rows.indices where draftAssets.contains(rows[index].asset.uuid) {
                    rows[index].hasDraft = true
                }
            }
            let loaded = Event.registerLoaded(rows, particulars, batchDrafts: batchDrafts, large: byWindow)
            guard large && !byWindow else { return [loaded] }
            return [loaded, .failure("Status columns changed behind Rigbook's back (rigbook verify names them): the"
                                     + " list reads every asset.")]
        }
        // Before the reads: an index made from this state, or a later one, holds every row they see.
        let stamp = try register.stamp()
        let today = state.today
        let statuses = list.showRetired ? AssetStatus.allCases : AssetStatus.active
        let counts = try register.statusCounts(on: today, includingRetired: list.showRetired)
        let reach = ListWindow.margin + ListState.pageSize(Rect(width: state.width, height: state.height))
        var rows: [RegisterRow] = [], start = 0, selected: UUID?
        for uuid in list.rowsToKeep {
            guard let position = try register.listPosition(of: uuid, on: today, statuses: statuses, counts: counts),
                  let row = try register.asset(uuid: uuid) else { continue }
            let anchor = ListAnchor(status: row.status(on: today).status, tag: row.asset.tag)
            let before = try register.listRows(on: today, statuses: statuses, counts: counts, from: anchor,
                                               backwards: true, limit: reach)
            let after = try register.listRows(on: today, statuses: statuses, counts: counts, from: anchor,
                                              limit: reach)
            (rows, start, selected) = (before + [row] + after, position - before.count, uuid)
            break
        }
        if selected == nil {
            rows = try register.listRows(on: today, statuses: statuses, counts: counts, from: nil, limit: 2 * reach)
        }
        markDrafts(&rows, draftAssets)
        var draftCount = 0
        for uuid in draftAssets {
            if let row = try register.asset(uuid: uuid), list.showRetired || !row.asset.isRetired { draftCount += 1 }
        }
        return [.registerWindowLoaded(ListWindowLoad(
            counts: counts, statuses: statuses, rows: rows, start: start, selected: selected, drafts: draftCount,
            flaggedIntervals: try register.flaggedIntervalCount(includingRetired: list.showRetired),
            longestTags: try register.longestTags(),
            particulars: particulars, batchDrafts: batchDrafts, stamp: stamp))]
    }

    /// Rows the list's window asked for, with their draft marks.
    func readListWindow(_ request: ListWindowRequest) throws -> [Event] {
        var rows: [RegisterRow] = []
        if let matched = request.matched {
            // An asset gone since the index was made (its tag changed) leaves the read short.
            try register.forEachRow(uuids: matched.uuids) { rows.append($0); return true }
        } else {
            rows = try register.listRows(on: request.today, statuses: request.statuses, counts: request.counts,
                                         from: request.anchor, backwards: request.backwards, limit: request.limit)
        }
        markDrafts(&rows, Set(drafts.ids().compactMap(DraftStore.assetUUID(ofDraftID:))))
        return [.listWindowRead(ListWindowPage(request: request, rows: rows))]
    }

    /// The filter's index of the register as `basis` says, made on the calling thread (beside the loop) on a
    /// connection of its own.
    static func makeRegisterIndex(path: String, basis: RegisterSearchIndex.Basis) -> Event {
        do {
            let register = try Register.openForReading(path: path)
            var builder = RegisterSearchIndex.Builder(basis: basis, capacity: try register.assetCount())
            try register.forEachRow(includingRetired: basis.includesRetired) { row in
                builder.add(row)
                return true
            }
            return .registerIndexPrepared(builder.finish())
        } catch {
            return .failure("The filter could not index the register: \(error.localizedDescription)")
        }
    }

    /// Reads ahead, while the loop waits for a key, the rows the next keys will need.
    func readListWindowAhead() {
        let page = ListState.pageSize(Rect(width: state.width, height: state.height))
        guard state.screens.isEmpty, let request = state.list.windowRequest(pageSize: page, ahead: true),
              let events = try? readListWindow(request) else { return }
        for event in events { update(with: event) }
    }

    private func markDrafts(_ rows: inout [RegisterRow], _ draftAssets: Set<UUID>) {
        guard !draftAssets.isEmpty else { return }
        for index in rows.indices where draftAssets.contains(rows[index].asset.uuid) { rows[index].hasDraft = true }
    }
}
