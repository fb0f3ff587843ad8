/// A character just typed at the end of the focused text field, shown on the terminal before the frame is made
/// (issue 17, key to screen). The key goes through `update` as any other; only the drawing is ahead: the one cell
/// that shows the character is written at once, then the frame is made and diffed against the screen with that
/// cell on it, so whatever else the key changed (the title's "draft …", a rule's message) follows in the same turn
/// of the loop, and a wrong guess is put right there. A key arriving cold costs what the code it runs costs; the
/// echo runs a few hundred lines where making and diffing the frame runs a thousand.
public struct TypedEcho: Sendable, Equatable {
    /// The character: one scalar, one column wide (`Frame.echo` checks the room for it).
    var scalar: UInt32
    /// The frames shown when it was typed: the echo belongs to the next frame only.
    var batch: Int

    /// Nil for a character that is not one scalar of one column (a wide or combining character is drawn by the
    /// frame).
    init?(_ character: Character, batch: Int) {
        let scalars = character.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first, scalar.value >= 0x20, scalar.value != 0x7F,
              DisplayWidth.of(scalar) == 1 else { return nil }
        self.scalar = scalar.value
        self.batch = batch
    }
}

extension Frame {
    /// Shows a one-column `scalar` at the cursor in the style of the blank it covers and moves the cursor past it.
    /// Nil, the frame untouched, unless the cursor stands on a blank followed by another blank of the same style:
    /// room in the field, on the cursor's row.
    mutating func echo(_ scalar: UInt32) -> DrawRun? {
        guard let (x, y) = cursor, y >= 0, y < height, x >= 0, x + 1 < width else { return nil }
        let here = rows[y][x], next = rows[y][x + 1]
        guard here.scalar == 0x20, here.width == 1, next.scalar == 0x20, next.width == 1, here.sameStyle(as: next)
        else { return nil }
        let style = here.style
        rows[y][x] = PackedCell(scalar: scalar, cluster: -1, width: 1, style: style)
        cursor = (x + 1, y)
        return DrawRun(x: x, y: y, scalars: [scalar], style: style, width: 1)
    }
}
