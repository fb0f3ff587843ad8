/// What a key shows, on the terminal before the frame is made (issue 17, key to screen): a character typed at the end
/// of a field (`TypedEcho`), the list's selection moved by a row (`SelectionEcho`). A key arriving cold costs what the
/// code it runs costs; an echo runs a few hundred lines where making and diffing the frame runs a thousand. The frame
/// follows in the same turn of the loop, diffed against the screen with the echo on it.
extension App {
    /// What the top screen left for after a typed character's echo, done: the view needs it.
    public static func settle(_ state: inout AppState, now: Double, batch: Int) {
        guard let top = state.screens.indices.last else { return }
        state.screens[top].settle(context: state.context(now: now, batch: batch))
    }

    /// The echo of the key just handled, drawn onto `frame` (the screen as shown), with the update that shows it, when
    /// nothing stands between it and the terminal: no notice, the key the only one since `batch` frames were shown.
    /// `scrolling`: the terminal can scroll a region (else the update moves no rows, it draws them).
    public static func echo(_ state: AppState, batch: Int, scrolling: Bool = true,
                            onto frame: inout Frame) -> ScreenUpdate? {
        guard state.notice == nil, frame.width == state.width, frame.height == state.height else { return nil }
        guard let top = state.screens.last else {
            guard let move = state.list.selectionEcho, move.batch == batch else { return nil }
            return ListView.echo(state.list, from: move, scrolling: scrolling, onto: &frame)
        }
        guard let echo = top.typedEcho, echo.batch == batch, let run = frame.echo(echo.scalar) else { return nil }
        return ScreenUpdate(scroll: nil, runs: [run])
    }

    /// Work for the next key, once the frame is on the terminal: in the list, the rows a ↑ or ↓ would bring into view
    /// formatted ahead, so that its echo copies them.
    public static func prepareNextKey(_ state: AppState) {
        guard state.screens.isEmpty else { return }
        ListView.prepareRowsAround(state.list, area: Rect(x: 0, y: 0, width: state.width, height: state.height))
    }
}
