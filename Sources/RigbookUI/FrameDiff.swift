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
        let full = old.map { $0.width != new.width || $0.height != new.height } ?? true
        var runs: [DrawRun] = []
        for y in 0..<new.height {
            var x = 0
            var current: DrawRun?
            let rowStart = y * new.width
            while x < new.width {
                let index = rowStart + x
                let cell = new.storage[index]
                if cell.width == 0 { x += 1; continue } // continuation: drawn with its wide character
                let span = Int(cell.width)
                var changed = full
                if !changed, let old {
                    for c in x..<min(new.width, x + span) where !new.sameCell(rowStart + c, as: old) { changed = true }
                    // A wide character in the old frame that this cell cuts in half must be redrawn.
                    if !changed, old.storage[index].width == 0 { changed = true }
                }
                if changed {
                    if var run = current, run.style == cell.style, run.x + run.width == x {
                        run.text += new.text(of: cell)
                        run.width += span
                        current = run
                    } else {
                        if let run = current { runs.append(run) }
                        current = DrawRun(x: x, y: y, text: new.text(of: cell), style: cell.style, width: span)
                    }
                } else if let run = current {
                    runs.append(run)
                    current = nil
                }
                x += span
            }
            if let run = current { runs.append(run) }
        }
        return runs
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
