/// A rectangle of the screen, handed to a screen or widget to draw in: nothing draws at absolute
/// positions, so a screen laid out at 80×24 also lays out in a split or a narrow terminal.
public struct Rect: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int = 0, y: Int = 0, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The last row inside the rectangle.
    public var bottom: Int { y + height - 1 }

    /// The rectangle less `top` rows above, `bottom` rows below and `left`/`right` columns.
    public func inset(top: Int = 0, bottom: Int = 0, left: Int = 0, right: Int = 0) -> Rect {
        Rect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
    }

    /// A rectangle of at most `width` × `height`, centred in this one.
    public func centred(width: Int, height: Int) -> Rect {
        let w = min(self.width, width), h = min(self.height, height)
        return Rect(x: x + max(0, (self.width - w) / 2), y: y + max(0, (self.height - h) / 2), width: w, height: h)
    }
}

extension Frame {
    /// The whole frame as an area.
    public var bounds: Rect { Rect(width: width, height: height) }

    /// Draws `text` at (x, y) measured from the area's corner, cut at the area's right edge.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, in area: Rect, style: Style = .plain,
                             maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < area.height else { return 0 }
        let room = area.width - x
        return put(text, x: area.x + x, y: area.y + y, style: style, maxWidth: min(room, maxWidth ?? room))
    }

    /// Draws characters at (x, y) measured from the area's corner, cut at the area's right edge.
    @discardableResult
    public mutating func put(characters: ArraySlice<Character>, x: Int, y: Int, in area: Rect, style: Style = .plain,
                             maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < area.height else { return 0 }
        let room = area.width - x
        return put(characters: characters, x: area.x + x, y: area.y + y, style: style,
                   maxWidth: min(room, maxWidth ?? room))
    }

    /// Draws a message whose last row is row `bottom` of the area: wrapped at spaces into at most `maxRows` rows
    /// (growing upwards over what was drawn there, each row cleared), the last ending in `…` if even those do not
    /// hold it. A sentence is never cut mid-word at the edge. Returns the rows used.
    @discardableResult
    public mutating func putMessage(_ text: String, bottom: Int, maxRows: Int, in area: Rect,
                                    style: Style = .plain) -> Int {
        guard bottom >= 0, bottom < area.height else { return 0 }
        let lines = text.wrapped(toWidth: area.width, maxLines: min(maxRows, bottom + 1))
        let top = bottom - lines.count + 1
        for (offset, line) in lines.enumerated() {
            fill(y: top + offset, in: area, style: .plain)
            put(line, x: 0, y: top + offset, in: area, style: style)
        }
        return lines.count
    }

    /// Fills row `y` of the area (from column `x`, `count` columns, to its edge by default).
    public mutating func fill(y: Int, in area: Rect, x: Int = 0, count: Int? = nil, style: Style) {
        guard y >= 0, y < area.height else { return }
        fill(x: area.x + x, y: area.y + y, count: min(area.width - x, count ?? area.width), style: style)
    }

    /// Restyles row `y` of the area (the selection bar).
    public mutating func restyle(y: Int, in area: Rect, x: Int = 0, count: Int? = nil,
                                 _ change: (inout Style) -> Void) {
        guard y >= 0, y < area.height else { return }
        restyle(y: area.y + y, x: area.x + x, count: min(area.width - x, count ?? area.width), change)
    }
}
