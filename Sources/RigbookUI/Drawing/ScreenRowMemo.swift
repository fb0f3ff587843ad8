import Synchronization

/// One screen row as last drawn, with what it was drawn from: a title, a count line, column headings or a footer
/// that a key seldom changes is copied from the last frame's row rather than formatted again. A pure
/// memo of the drawing it stands in for: the row is reused only when the key, which must hold everything that
/// drawing reads, is equal, and only when the drawing touches that row alone of a frame as wide as the screen.
final class ScreenRowMemo<Key: Equatable & Sendable>: Sendable {
    private struct Kept: Sendable {
        var key: Key
        var y: Int
        var cells: [PackedCell]
    }

    private let kept = Mutex<Kept?>(nil)

    /// Row `y` of `frame` as `draw` draws it from `key`. `enabled` false: drawn, nothing kept (tests, or an area
    /// narrower than the frame).
    func row(_ y: Int, key: Key, in frame: inout Frame, enabled: Bool = true, draw: (inout Frame) -> Void) {
        guard enabled, y >= 0, y < frame.height else { return draw(&frame) }
        let cells = kept.withLock { kept -> [PackedCell]? in
            guard let kept, kept.y == y, kept.key == key else { return nil }
            return kept.cells
        }
        if let cells, frame.placeLine(cells, y: y) { return }
        draw(&frame)
        if let cells = frame.lineCells(y) { kept.withLock { $0 = Kept(key: key, y: y, cells: cells) } }
    }
}
