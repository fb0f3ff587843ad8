import Foundation
import RigbookCore
import Synchronization

/// Everything one row of the register list is drawn from: two rows with equal inputs look the same.
struct ListRowInputs: Equatable, Sendable {
    var row: RegisterRow
    var report: StatusReport
    /// The site's name when the list has a site column, else empty.
    var site: String
    var columns: [ListColumn]
    var scheme: ColourCodeScheme
    var marked: Bool
    var selected: Bool
    var width: Int
}

/// The list's rows as last drawn, by asset, with what they were drawn from: a ↓ changes the inputs of two rows
/// (the selection leaves one and comes to the next) and a scroll moves rows to other lines, so the other rows'
/// cells are copied, not formatted again (a row looks the same on any line). A pure memo of `ListView.drawRow`:
/// a row is reused only when every input is equal, so a change of anything a row shows (its asset, status,
/// draft mark, site, columns, mark, selection, width) draws it anew.
final class ListRowMemo: Sendable {
    static let shared = ListRowMemo()

    private let rows = Mutex<[UUID: (inputs: ListRowInputs, cells: [PackedCell])]>([:])

    /// The cells of the row last drawn from equal inputs, if any.
    func cells(for inputs: ListRowInputs) -> [PackedCell]? {
        rows.withLock { rows in
            guard let kept = rows[inputs.row.asset.uuid], kept.inputs == inputs else { return nil }
            return kept.cells
        }
    }

    func keep(_ cells: [PackedCell], for inputs: ListRowInputs) {
        rows.withLock { rows in
            // A few pages of rows: paging on past them starts again.
            if rows.count >= 256 { rows.removeAll(keepingCapacity: true) }
            rows[inputs.row.asset.uuid] = (inputs, cells)
        }
    }

    func clear() { rows.withLock { $0.removeAll() } }
}

extension Frame {
    /// The cells of line `y`, unless one holds a cluster of several scalars (kept in the frame's side table).
    func lineCells(_ y: Int) -> [PackedCell]? {
        let line = storage[(y * width)..<((y + 1) * width)]
        if line.contains(where: { $0.cluster >= 0 }) { return nil }
        return Array(line)
    }

    /// Puts back a whole line as `lineCells` returned it. False when the widths differ.
    mutating func placeLine(_ cells: [PackedCell], y: Int) -> Bool {
        guard y >= 0, y < height, cells.count == width else { return false }
        storage.replaceSubrange((y * width)..<((y + 1) * width), with: cells)
        return true
    }
}
