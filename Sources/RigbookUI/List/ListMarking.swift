import Foundation

/// Marking assets on the register list for a batch inspection: kept apart from the list's
/// moving and filtering, which change for other reasons.
extension ListState {
    mutating func handleMarks(_ action: ListAction, page: Int) -> Outcome {
        switch action {
        case .mark:
            guard let row = selectedRow else { return .notify(.error("There is no asset selected.")) }
            guard marks.toggle(row.asset.uuid) else { return .notify(ListState.batchFull) }
            move(by: 1, pageSize: page)
        case .markAll:
            let shown = (0..<visibleCount).map { rows[rowIndex(visible: $0)].asset.uuid }
            if !shown.isEmpty && shown.allSatisfy(marks.contains) {
                marks.unmark(shown)
                return .notify(.info("Unmarked the \(shown.count) assets shown."))
            }
            if marks.mark(shown) > 0 { return .notify(ListState.batchFull) }
        case .inspectMarked:
            guard !marks.isEmpty else {
                return .notify(.error("Nothing is marked: m marks the selected asset, * every asset shown."))
            }
            // A batch shares one inspection's values; an electrical test's readings are each item's own.
            let marked = Set(marks.ordered)
            let electrical = rows.filter { marked.contains($0.asset.uuid) && $0.asset.isElectrical }.map(\.asset.tag)
            if !electrical.isEmpty {
                let named = electrical.prefix(3).joined(separator: ", ") + (electrical.count > 3 ? ", …" : "")
                return .notify(.error("A batch cannot test electrical items (\(electrical.count) marked: \(named)); "
                                      + "unmark them (m) and test each with i."))
            }
            return .effects([.openBatch(assetUUIDs: marks.ordered)])
        default:
            break
        }
        return .stay
    }

    static let batchFull = Notice.error("A batch holds at most \(Marks.limit) assets: inspect these (I), "
                                        + "then mark more.")
}
