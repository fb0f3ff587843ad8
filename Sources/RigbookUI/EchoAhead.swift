/// An echo made ahead of its key (issue 17, key to screen). Once a frame is on the terminal and the loop waits, the
/// keys a person is likeliest to press next — ↓ and ↑ in the list — are each handed to `update` on a copy of the
/// state, and the echo the key would have (`App.echo`) is drawn onto a copy of the screen as shown. When one of those
/// keys comes, the terminal writes the echo made for it at once, ahead of `update`, and the key then goes through
/// `update` as any other; the frame that follows is diffed against the screen with the echo on it. `update` is pure,
/// so the copy's key and the real one leave the same list; were anything else to differ (a clock-driven header) the
/// frame puts it right in the same turn of the loop, as it does after any echo.
///
/// What it takes off a ↓'s way to the screen: `update` (~20 µs cold), the echo (~30 µs: the rows moved and the bar
/// restyled on a copy of the screen, diffed) and the writer's bytes (~10 µs); left is the key's read and one
/// `write(2)` (PERFORMANCE.md, ninth pass).
public struct EchoAhead: Sendable {
    /// The keys it is the echo of: one binding's (↓ and `j`), which `update` treats alike.
    public let keys: [Key]
    /// What to write to the terminal, and where its cursor ends.
    public let update: ScreenUpdate
    public let cursor: Cursor?
    /// The screen as shown with the echo on it.
    public let frame: Frame
    /// The frames shown when it was made: it belongs to the next key of that batch only.
    public let batch: Int

    public struct Cursor: Sendable, Equatable {
        public let x: Int
        public let y: Int
    }
}

extension App {
    /// The echoes of the likeliest next keys, made ahead of them onto `shown` (the screen as shown; `batch` frames
    /// shown so far). Only in the register list under its own keymap (not while a filter or a scan is typed: there
    /// `j` is text), and only the keys whose echo `App.echo` would write.
    public static func echoesAhead(_ state: AppState, shown: Frame, now: Double, batch: Int,
                                   scrolling: Bool) -> [EchoAhead] {
        guard state.screens.isEmpty, !state.list.editingFilter, state.list.scan == nil, state.list.loaded,
              shown.width == state.width, shown.height == state.height else { return [] }
        var echoes: [EchoAhead] = []
        for action in [ListAction.down, .up] {
            guard let keys = ListState.keymap.bindings.first(where: { $0.action == action })?.keys,
                  let key = keys.first else { continue }
            var copy = state
            _ = App.update(&copy, .key(key), now: now, batch: batch)
            var frame = shown
            guard let update = App.echo(copy, batch: batch, scrolling: scrolling, onto: &frame) else { continue }
            echoes.append(EchoAhead(keys: keys, update: update,
                                    cursor: frame.cursor.map { EchoAhead.Cursor(x: $0.x, y: $0.y) },
                                    frame: frame, batch: batch))
        }
        return echoes
    }
}
