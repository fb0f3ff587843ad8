#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A run of changed cells in one style: what the backend writes in one call.
public struct DrawRun: Hashable, Sendable {
    public var x: Int
    public var y: Int
    /// The run's characters as Unicode scalar values (a cluster of several scalars gives each of them): what
    /// the backend hands the terminal, without a `String` built cell by cell.
    public var scalars: [UInt32]
    public var style: Style
    /// Columns the run covers.
    public var width: Int

    /// The run's text (for tests and the in-memory screen).
    public var text: String { String(String.UnicodeScalarView(scalars.map { Unicode.Scalar($0) ?? " " })) }
}

/// Rows `top...bottom` of the screen moved up by `by` rows (down when negative), as a terminal moves them with a
/// scroll region and its index (or reverse index) command; the rows that come in are blank.
public struct ScrollMove: Hashable, Sendable {
    public var top: Int
    public var bottom: Int
    public var by: Int

    public init(top: Int, bottom: Int, by: Int) {
        self.top = top
        self.bottom = bottom
        self.by = by
    }
}

/// What brings a terminal from one frame to the next: an optional scroll, then runs drawn over its result.
public struct ScreenUpdate: Sendable {
    public var scroll: ScrollMove?
    public var runs: [DrawRun]

    public init(scroll: ScrollMove?, runs: [DrawRun]) {
        self.scroll = scroll
        self.runs = runs
    }
}

/// Compares two frames and returns only what changed, as runs to draw. A different size (or no
/// previous frame) redraws everything.
public enum FrameDiff {
    public static func runs(from old: Frame?, to new: Frame) -> [DrawRun] {
        guard let old, old.width == new.width, old.height == new.height else { return allRuns(new) }
        return runs(from: old, scrolled: nil, to: new)
    }

    /// The runs from `old` as it stands after `scroll` (nil: as it is) to `new`, of one size: the scrolled frame is
    /// not made, each row of `new` is compared with the row of `old` the scroll brought there (or a blank one).
    static func runs(from old: Frame, scrolled scroll: ScrollMove?, to new: Frame) -> [DrawRun] {
        var runs: [DrawRun] = []
        let width = new.width, height = new.height
        guard width > 0 else { return runs }
        // Without clusters in either frame a cell is its bytes: whole rows compare as memory.
        let simple = new.clusters.isEmpty && old.clusters.isEmpty && PackedCell.comparesAsBytes
        // What `Frame.scroll` would have made of `old`: the rows of the region moved, blank ones coming in.
        var region: (top: Int, bottom: Int, by: Int)?
        if let scroll, scroll.by != 0 {
            let top = max(0, scroll.top), bottom = min(height - 1, scroll.bottom)
            if top <= bottom {
                let rows = bottom - top + 1
                region = (top, bottom, max(-rows, min(rows, scroll.by)))
            }
        }
        let blank = region == nil ? [] : [PackedCell](repeating: .blank, count: width)
        // A changed row's scalars, gathered here before each run takes its own copy (a cell without a cluster is one).
        let gathered = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        defer { gathered.deallocate() }
        for y in 0..<height {
            var oldLine = old.rows[y]
            if let region, y >= region.top, y <= region.bottom {
                let from = y + region.by
                oldLine = from >= region.top && from <= region.bottom ? old.rows[from] : blank
            }
            // Most rows of a frame are as they were: skip them without building anything. A row placed from a memo
            // in both frames is one buffer, not read at all (a buffer shared between frames never holds a cluster,
            // whose index would point into each frame's own table); without clusters a row compares as memory.
            if simple ? new.rows[y].sameCells(as: oldLine, count: width) : new.rows[y].sharesBuffer(with: oldLine) {
                continue
            }
            new.rows[y].withUnsafeBufferPointer { newCells in
                oldLine.withUnsafeBufferPointer { oldCells in
                    let newRow = newCells.baseAddress!, oldRow = oldCells.baseAddress!
                    if simple {
                        plainRowRuns(newRow, oldRow, width: width, y: y, gathered: gathered, into: &runs)
                        return
                    }
                    if sameRow(newRow, oldRow, count: width, new: new, old: old) { return }
                    clusterRowRuns(newRow, oldRow, width: width, y: y, new: new, old: old, into: &runs)
                }
            }
        }
        return runs
    }

    /// The runs of one changed row when either frame holds clusters: cell by cell, each cluster's scalars in turn.
    private static func clusterRowRuns(_ newRow: UnsafePointer<PackedCell>, _ oldRow: UnsafePointer<PackedCell>,
                                       width: Int, y: Int, new: Frame, old: Frame, into runs: inout [DrawRun]) {
        // The run being built: its start (-1: none), style, columns and scalars, kept in locals rather than an
        // optional `DrawRun` changed in place cell by cell.
        var runX = -1, runWidth = 0, runStyle = Style.plain
        var scalars: [UInt32] = []
        var x = 0
        while x < width {
            let cell = newRow[x]
            if cell.width == 0 { x += 1; continue } // continuation: drawn with its wide character
            let span = Int(cell.width)
            var changed = false
            for c in x..<min(width, x + span) where !same(newRow[c], oldRow[c], new: new, old: old) {
                changed = true
            }
            // A wide character in the old frame that this cell cuts in half must be redrawn.
            if !changed, oldRow[x].width == 0 { changed = true }
            if changed {
                if runX < 0 || runStyle != cell.style || runX + runWidth != x {
                    if runX >= 0 {
                        runs.append(DrawRun(x: runX, y: y, scalars: scalars, style: runStyle, width: runWidth))
                    }
                    runX = x
                    runWidth = 0
                    runStyle = cell.style
                    scalars = []
                    scalars.reserveCapacity(width - x)
                }
                appendScalars(of: cell, frame: new, to: &scalars)
                runWidth += span
            } else if runX >= 0 {
                runs.append(DrawRun(x: runX, y: y, scalars: scalars, style: runStyle, width: runWidth))
                runX = -1
            }
            x += span
        }
        if runX >= 0 { runs.append(DrawRun(x: runX, y: y, scalars: scalars, style: runStyle, width: runWidth)) }
    }

    /// The runs of one changed row of cells without clusters: what the general loop of `runs(from:scrolled:to:)` gives,
    /// with each run's scalars gathered into one buffer rather than appended to an array cell by cell, and with short
    /// gaps of unchanged cells drawn over (`drawsGap`).
    private static func plainRowRuns(_ newRow: UnsafePointer<PackedCell>, _ oldRow: UnsafePointer<PackedCell>,
                                     width: Int, y: Int, gathered: UnsafeMutablePointer<UInt32>,
                                     into runs: inout [DrawRun]) {
        // The run's first cell stands for its style: compared as bits, made a `Style` once per run.
        var runX = -1, runWidth = 0, count = 0, runFirst = PackedCell.blank
        func close() {
            runs.append(DrawRun(x: runX, y: y, scalars: Array(UnsafeBufferPointer(start: gathered, count: count)),
                                style: runFirst.style, width: runWidth))
            runX = -1
        }
        func add(_ cell: PackedCell, at x: Int) {
            if runX >= 0, runX + runWidth != x || !runFirst.sameStyle(as: cell) { close() }
            if runX < 0 {
                runX = x
                runWidth = 0
                count = 0
                runFirst = cell
            }
            gathered[count] = Unicode.Scalar(cell.scalar) == nil ? 0x20 : cell.scalar
            count += 1
            runWidth += Int(cell.width)
        }
        // The last changed cell's column and the end of its columns (-1: none yet on this row).
        var lastX = -1, lastEnd = -1
        var x = 0
        while x < width {
            let cell = newRow[x]
            let span = Int(cell.width)
            if span == 0 { x += 1; continue } // continuation: drawn with its wide character
            // Changed, or a wide character in the old frame that this cell cuts in half.
            var changed = !cell.sameBits(as: oldRow[x]) || oldRow[x].width == 0
            if span == 2, x + 1 < width, !newRow[x + 1].sameBits(as: oldRow[x + 1]) { changed = true }
            if changed {
                if lastX >= 0, lastEnd < x, drawsGap(newRow, from: lastX, to: x, gapStart: lastEnd) {
                    for c in lastEnd..<x { add(newRow[c], at: c) }
                }
                add(cell, at: x)
                lastX = x
                lastEnd = x + span
            }
            x += span
        }
        if runX >= 0 { close() }
    }

    /// Unchanged cells cheaper to write again than to skip: at most this many between two changed cells of a row.
    /// Skipping them costs a cursor move (`cup`, 6–8 bytes on xterm's kind), writing them a byte each; a ↓ in the
    /// list is words separated by single spaces, one move each.
    static let gapDrawnOver = 4

    /// Whether the unchanged cells `gapStart..<next` between the changed cells at `last` and `next` are written rather
    /// than skipped: few, printable ASCII (a byte each, measured alike by every terminal), after a cell of one column
    /// (the run then goes on from it, as a run goes on from each of its own characters: an ellipsis ending a column
    /// cost a cursor move after it, three a ↓), and in the style of the cell before or after them, so drawing them
    /// adds no change of style.
    @inline(__always)
    private static func drawsGap(_ row: UnsafePointer<PackedCell>, from last: Int, to next: Int,
                                 gapStart: Int) -> Bool {
        guard next - gapStart <= gapDrawnOver else { return false }
        let before = row[last]
        guard before.width == 1 else { return false }
        let first = row[gapStart]
        guard first.sameStyle(as: before) || first.sameStyle(as: row[next]) else { return false }
        for c in gapStart..<next {
            let cell = row[c]
            guard cell.width == 1, cell.scalar >= 0x20, cell.scalar < 0x7F, cell.sameStyle(as: first) else {
                return false
            }
        }
        return true
    }

    /// `runs(from:to:)`, with a scroll first when a block of rows moved up or down (the list scrolled by a row):
    /// the terminal moves those rows itself and only the rows still different are drawn, instead of every row.
    public static func update(from old: Frame?, to new: Frame) -> ScreenUpdate {
        guard let old, let scroll = scroll(from: old, to: new) else {
            return ScreenUpdate(scroll: nil, runs: runs(from: old, to: new))
        }
        return ScreenUpdate(scroll: scroll, runs: runs(from: old, scrolled: scroll, to: new))
    }

    /// Rows a scroll must at least bring into place to be worth it (a scroll costs about a row's bytes).
    static let scrollMinimumRows = 4

    /// The scroll that brings the most rows of `old` to where `new` has them, when that is worth it: only for
    /// frames of one size without clusters (a cell is then its bytes), by at most 3 rows.
    static func scroll(from old: Frame, to new: Frame) -> ScrollMove? {
        guard old.width == new.width, old.height == new.height, new.height >= scrollMinimumRows,
              new.clusters.isEmpty, old.clusters.isEmpty, PackedCell.comparesAsBytes else { return nil }
        let width = new.width, height = new.height
        func same(_ newRow: Int, _ oldRow: Int) -> Bool {
            new.rows[newRow].sameCells(as: old.rows[oldRow], count: width)
        }
        // Each row compared once with itself, not again for every distance tried.
        let inPlace = (0..<height).map { same($0, $0) }
        let changed = inPlace.reduce(0) { $0 + ($1 ? 0 : 1) }
        guard changed >= scrollMinimumRows else { return nil }
        var best: (rows: Int, top: Int, bottom: Int, by: Int)?
        for by in [1, -1, 2, -2, 3, -3] {
            // Runs of rows y of `new` that are row y + by of `old` (and not already row y of it).
            var y = max(0, -by)
            let end = min(height, height - by)
            while y < end {
                guard !inPlace[y], same(y, y + by) else { y += 1; continue }
                var last = y
                while last + 1 < end, same(last + 1, last + 1 + by) { last += 1 }
                let rows = last - y + 1
                if rows >= scrollMinimumRows, rows > best?.rows ?? 0 {
                    best = (rows, min(y, y + by), max(last, last + by), by)
                }
                y = last + 1
            }
            // A move that leaves at most two changed rows (the selection's) is the one: another distance
            // could not bring more than those into place, and trying each costs a compare of every row.
            if let best, changed - best.rows <= 2 { break }
        }
        guard let best else { return nil }
        return widened(ScrollMove(top: best.top, bottom: best.bottom, by: best.by), from: old, to: new)
    }

    /// `move` with its region grown over the rows next to it while that leaves fewer cells to draw: the row the
    /// selection bar leaves differs from its scrolled copy in the bar alone, so the list's scroll takes it along
    /// and a ↓ redraws the tag instead of the whole row (the rows weighed are the ones the growth changes).
    static func widened(_ move: ScrollMove, from old: Frame, to new: Frame) -> ScrollMove {
        let width = new.width, height = new.height
        let blank = [PackedCell](repeating: .blank, count: width)
        func cost(_ y: Int, _ source: [PackedCell]) -> Int {
            let row = new.rows[y]
            var count = 0
            for x in 0..<width where row[x] != source[x] { count += 1 }
            return count
        }
        var move = move
        let by = move.by, distance = abs(by)
        // The edge the rows move away from: a row there is drawn over its scrolled source instead of its own.
        while true {
            let y = by > 0 ? move.top - 1 : move.bottom + 1
            guard y >= 0, y < height, y + by >= 0, y + by < height,
                  cost(y, old.rows[y + by]) < cost(y, old.rows[y]) else { break }
            if by > 0 { move.top -= 1 } else { move.bottom += 1 }
        }
        // The edge the blank rows come in at: the row just outside becomes blank, and the row that was blank gets
        // the row just outside.
        while true {
            let outside = by > 0 ? move.bottom + 1 : move.top - 1
            let wasBlank = by > 0 ? outside - distance : outside + distance
            guard outside >= 0, outside < height, wasBlank >= 0, wasBlank < height else { break }
            let before = cost(outside, old.rows[outside]) + cost(wasBlank, blank)
            let after = cost(outside, blank) + cost(wasBlank, old.rows[outside])
            guard after < before else { break }
            if by > 0 { move.bottom += 1 } else { move.top -= 1 }
        }
        return move
    }

    /// Every cell of `frame`: a first frame, or one after a resize.
    static func allRuns(_ frame: Frame) -> [DrawRun] {
        var runs: [DrawRun] = []
        for y in 0..<frame.height {
            var x = 0
            while x < frame.width {
                let cell = frame.rows[y][x]
                let span = Int(cell.width)
                if span == 0 { x += 1; continue }
                // A cell goes on the run before it when that is on its row, in its style; else it starts one.
                if let last = runs.indices.last, runs[last].y == y, runs[last].style == cell.style {
                    appendScalars(of: cell, frame: frame, to: &runs[last].scalars)
                    runs[last].width += span
                } else {
                    var run = DrawRun(x: x, y: y, scalars: [], style: cell.style, width: span)
                    run.scalars.reserveCapacity(frame.width - x)
                    appendScalars(of: cell, frame: frame, to: &run.scalars)
                    runs.append(run)
                }
                x += span
            }
        }
        return runs
    }

    /// The scalars `frame.text(of: cell)` holds, without making the string for a cell of one scalar.
    @inline(__always)
    private static func appendScalars(of cell: PackedCell, frame: Frame, to scalars: inout [UInt32]) {
        if cell.cluster >= 0 {
            for scalar in frame.clusters[Int(cell.cluster)].unicodeScalars { scalars.append(scalar.value) }
        } else if cell.width > 0 {
            scalars.append(Unicode.Scalar(cell.scalar) == nil ? 0x20 : cell.scalar)
        }
    }

    /// Whether cell `a` of `new` looks as cell `b` of `old` does.
    @inline(__always)
    static func same(_ a: PackedCell, _ b: PackedCell, new: Frame, old: Frame) -> Bool {
        if a.cluster < 0 && b.cluster < 0 { return a.sameBits(as: b) }
        return a.width == b.width && a.style == b.style && new.text(of: a) == old.text(of: b)
    }

    private static func sameRow(_ newRow: UnsafePointer<PackedCell>, _ oldRow: UnsafePointer<PackedCell>,
                                count: Int, new: Frame, old: Frame) -> Bool {
        for x in 0..<count where !same(newRow[x], oldRow[x], new: new, old: old) { return false }
        return true
    }
}

/// A terminal in memory: applies draw runs exactly as a real terminal would, so tests can check that
/// a diff applied to the previous screen reproduces the new one.
public struct InMemoryScreen: Sendable {
    public private(set) var frame: Frame

    public init(width: Int, height: Int) { frame = Frame(width: width, height: height) }

    public init(_ frame: Frame) { self.frame = frame }

    public mutating func apply(_ runs: [DrawRun], size: (width: Int, height: Int)) {
        if frame.width != size.width || frame.height != size.height {
            frame = Frame(width: size.width, height: size.height)
        }
        for run in runs { frame.put(run.text, x: run.x, y: run.y, style: run.style) }
    }

    public mutating func apply(_ update: ScreenUpdate, size: (width: Int, height: Int)) {
        if let scroll = update.scroll, frame.width == size.width, frame.height == size.height {
            frame.scroll(scroll)
        }
        apply(update.runs, size: size)
    }

    public var lines: [String] { frame.lines }
}

extension Frame {
    /// Moves rows `top...bottom` up by `by` (down when negative) as a terminal scrolls a region: rows that
    /// come in are blank, with no style.
    mutating func scroll(_ move: ScrollMove) {
        let top = max(0, move.top), bottom = min(height - 1, move.bottom)
        guard top <= bottom, move.by != 0 else { return }
        let count = bottom - top + 1
        let by = max(-count, min(count, move.by))
        let before = rows
        let blank = [PackedCell](repeating: .blank, count: width)
        for y in top...bottom {
            let from = y + by
            rows[y] = from >= top && from <= bottom ? before[from] : blank
        }
    }
}

extension Array where Element == PackedCell {
    /// Whether two rows are one buffer (a row shared from a memo, or the blank row a frame starts with).
    @inline(__always)
    func sharesBuffer(with other: [PackedCell]) -> Bool {
        withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
            && count == other.count
    }

    /// Whether the first `count` cells of two rows without clusters are the same bytes.
    @inline(__always)
    func sameCells(as other: [PackedCell], count: Int) -> Bool {
        if count == 0 || sharesBuffer(with: other) { return true }
        return withUnsafeBufferPointer { a in
            other.withUnsafeBufferPointer { b in
                memcmp(a.baseAddress!, b.baseAddress!, count * MemoryLayout<PackedCell>.stride) == 0
            }
        }
    }
}
