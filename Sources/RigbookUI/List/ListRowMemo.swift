import Foundation
import RigbookCore
import Synchronization

/// Everything one row of the register list is drawn from: two rows with equal inputs look the same.
struct ListRowInputs: Equatable, Sendable {
    var row: RegisterRow
    var report: StatusReport
    /// Where `row` and `report` came from: the list's `rowsVersion` and the row's index. Equal sources hold equal
    /// rows and reports (`drawsLike`), so they are not compared field by field.
    var version: Int
    var index: Int
    /// The site's name when the list has a site column, else empty.
    var site: String
    var columns: [ListColumn]
    var scheme: ColourCodeScheme
    var marked: Bool
    /// Not the selection: the memo keeps rows without the selection bar, which the list turns over itself.
    var width: Int

    /// Whether a row drawn from `self` looks as one drawn from `other`: `==`, without comparing the row and its
    /// report when both come from the same version of the same list's rows.
    func drawsLike(_ other: ListRowInputs) -> Bool {
        guard width == other.width, marked == other.marked, site == other.site, scheme == other.scheme,
              columns == other.columns else { return false }
        return version == other.version && index == other.index || row == other.row && report == other.report
    }
}

/// The list's rows as last drawn, by asset, with what they were drawn from: a ↓ changes the inputs of two rows
/// (the selection leaves one and comes to the next) and a scroll moves rows to other lines, so the other rows'
/// cells are copied, not formatted again (a row looks the same on any line). A pure memo of `ListView.drawRow`:
/// a row is reused only when every input is equal, so a change of anything a row shows (its asset, status,
/// draft mark, site, columns, mark, width) draws it anew; the selection bar is reverse video turned over after.
final class ListRowMemo: Sendable {
    /// A row as kept: a reference, so looking one up copies a pointer, not every string of its asset.
    private final class Kept: Sendable {
        let inputs: ListRowInputs
        let cells: [PackedCell]

        init(_ inputs: ListRowInputs, _ cells: [PackedCell]) {
            self.inputs = inputs
            self.cells = cells
        }
    }

    /// Two generations of a few pages each: when the newer fills up it becomes the older, and a row found in the
    /// older is brought back to the newer. Rows on screen are looked up every frame, so paging on never drops them
    /// (emptying the memo at once made the next frame format every row again).
    private struct Generations {
        static let size = 256
        var newer: [UUID: Kept] = [:]
        var older: [UUID: Kept] = [:]

        mutating func kept(_ uuid: UUID) -> Kept? {
            if let kept = newer[uuid] { return kept }
            guard let kept = older[uuid] else { return nil }
            insert(kept, for: uuid)
            return kept
        }

        mutating func insert(_ kept: Kept, for uuid: UUID) {
            if newer.count >= Generations.size {
                older = newer
                newer = [:]
            }
            newer[uuid] = kept
        }
    }

    private let rows = Mutex(Generations())

    /// The cells of the row last drawn from equal inputs, if any.
    func cells(for inputs: ListRowInputs) -> [PackedCell]? {
        guard let kept = rows.withLock({ $0.kept(inputs.row.asset.uuid) }), kept.inputs.drawsLike(inputs) else {
            return nil
        }
        return kept.cells
    }

    /// The cells of the row last drawn from the same row of the same version of the list's rows, with the same
    /// site, columns, scheme, mark and width: `cells(for:)` when the row comes from the same source, without making
    /// its `ListRowInputs`, which copies the row (every string of its asset) and its report, twenty rows a ↓. Nil
    /// sends the caller to `cells(for:)`, which also finds a row drawn from an earlier version of equal rows.
    func cells(uuid: UUID, version: Int, index: Int, site: String, columns: [ListColumn], scheme: ColourCodeScheme,
               marked: Bool, width: Int) -> [PackedCell]? {
        guard let kept = rows.withLock({ $0.kept(uuid) }) else { return nil }
        let inputs = kept.inputs
        guard inputs.version == version, inputs.index == index, inputs.width == width, inputs.marked == marked,
              inputs.site == site, inputs.scheme == scheme, inputs.columns == columns else { return nil }
        return kept.cells
    }

    func keep(_ cells: [PackedCell], for inputs: ListRowInputs) {
        let kept = Kept(inputs, cells)
        rows.withLock { $0.insert(kept, for: inputs.row.asset.uuid) }
    }

    func clear() { rows.withLock { $0 = Generations() } }
}

extension Frame {
    /// The cells of line `y`, unless one holds a cluster of several scalars (kept in the frame's side table).
    func lineCells(_ y: Int) -> [PackedCell]? {
        let line = rows[y]
        if line.contains(where: { $0.cluster >= 0 }) { return nil }
        return line
    }

    /// Puts back a whole line as `lineCells` returned it (sharing its buffer). False when the widths differ.
    mutating func placeLine(_ cells: [PackedCell], y: Int) -> Bool {
        guard y >= 0, y < height, cells.count == width else { return false }
        rows[y] = cells
        return true
    }
}
