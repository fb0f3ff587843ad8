/// A run of changed cells in one style: what the backend writes in one call.
public struct DrawRun: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var text: String
    public var style: Style
    /// Columns the run covers.
    public var width: Int
}

/// Compares two frames and returns only what changed, as runs to draw. A different size (or no
/// previous frame) redraws everything.
public enum FrameDiff {
    public static func runs(from old: Frame?, to new: Frame) -> [DrawRun] {
        guard let old, old.width == new.width, old.height == new.height else { return allRuns(new) }
        var runs: [DrawRun] = []
        let width = new.width
        new.storage.withUnsafeBufferPointer { newCells in
            old.storage.withUnsafeBufferPointer { oldCells in
                for y in 0..<new.height {
                    let rowStart = y * width
                    // Most rows of a frame are as they were: skip them without building anything.
                    if sameRow(newCells, oldCells, from: rowStart, count: width, new: new, old: old) { continue }
                    var x = 0
                    var current: DrawRun?
                    while x < width {
                        let index = rowStart + x
                        let cell = newCells[index]
                        if cell.width == 0 { x += 1; continue } // continuation: drawn with its wide character
                        let span = Int(cell.width)
                        var changed = false
                        for c in x..<min(width, x + span) where !same(newCells[rowStart + c], oldCells[rowStart + c],
                                                                       new: new, old: old) {
                            changed = true
                        }
                        // A wide character in the old frame that this cell cuts in half must be redrawn.
                        if !changed, oldCells[index].width == 0 { changed = true }
                        if changed {
                            append(cell, x: x, y: y, span: span, frame: new, to: &current, runs: &runs)
                        } else if let run = current {
                            runs.append(run)
                            current = nil
                        }
                        x += span
                    }
                    if let run = current { runs.append(run) }
                }
            }
        }
        return runs
    }

    /// Every cell of `frame`: a first frame, or one after a resize.
    static func allRuns(_ frame: Frame) -> [DrawRun] {
        var runs: [DrawRun] = []
        for y in 0..<frame.height {
            var current: DrawRun?
            var x = 0
            while x < frame.width {
                let cell = frame.storage[y * frame.width + x]
                if cell.width == 0 { x += 1; continue }
                append(cell, x: x, y: y, span: Int(cell.width), frame: frame, to: &current, runs: &runs)
                x += Int(cell.width)
            }
            if let run = current { runs.append(run) }
        }
        return runs
    }

    /// Adds a changed cell to the run being built, or starts a new run (another style, or not adjacent).
    private static func append(_ cell: PackedCell, x: Int, y: Int, span: Int, frame: Frame, to current: inout DrawRun?,
                               runs: inout [DrawRun]) {
        if current != nil, current!.style == cell.style, current!.x + current!.width == x {
            if cell.cluster < 0, cell.width > 0, let scalar = Unicode.Scalar(cell.scalar) {
                current!.text.unicodeScalars.append(scalar)
            } else {
                current!.text += frame.text(of: cell)
            }
            current!.width += span
        } else {
            if let run = current { runs.append(run) }
            current = DrawRun(x: x, y: y, text: frame.text(of: cell), style: cell.style, width: span)
        }
    }

    @inline(__always)
    private static func same(_ a: PackedCell, _ b: PackedCell, new: Frame, old: Frame) -> Bool {
        if a.cluster < 0 && b.cluster < 0 { return a == b }
        return a.width == b.width && a.style == b.style && new.text(of: a) == old.text(of: b)
    }

    private static func sameRow(_ newCells: UnsafeBufferPointer<PackedCell>,
                                _ oldCells: UnsafeBufferPointer<PackedCell>, from start: Int, count: Int,
                                new: Frame, old: Frame) -> Bool {
        for index in start..<(start + count) where !same(newCells[index], oldCells[index], new: new, old: old) {
            return false
        }
        return true
    }
}

/// A terminal in memory: applies draw runs exactly as a real terminal would, so tests can check that
/// a diff applied to the previous screen reproduces the new one.
public struct InMemoryScreen: Sendable {
    public private(set) var frame: Frame

    public init(width: Int, height: Int) { frame = Frame(width: width, height: height) }

    public mutating func apply(_ runs: [DrawRun], size: (width: Int, height: Int)) {
        if frame.width != size.width || frame.height != size.height {
            frame = Frame(width: size.width, height: size.height)
        }
        for run in runs { frame.put(run.text, x: run.x, y: run.y, style: run.style) }
    }

    public var lines: [String] { frame.lines }
}
