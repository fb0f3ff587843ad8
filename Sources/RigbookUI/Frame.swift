/// Colours the screens use. The backend maps them to curses colour pairs, or to nothing under NO_COLOR.
public enum Colour: UInt8, Sendable, CaseIterable {
    case normal, red, green, yellow, blue, magenta, cyan
}

public struct Style: Hashable, Sendable {
    public var colour: Colour = .normal
    public var bold = false
    public var reverse = false
    public var dim = false
    public var underline = false

    public init(colour: Colour = .normal, bold: Bool = false, reverse: Bool = false, dim: Bool = false, underline: Bool = false) {
        self.colour = colour
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
    }

    public static let plain = Style()
    public static let bold = Style(bold: true)
    public static let reverse = Style(reverse: true)
    public static let dim = Style(dim: true)
}

/// One terminal cell: a grapheme and its width. The cell right of a wide grapheme is a continuation
/// (`width == 0`), so a row always holds exactly `width` columns.
public struct Cell: Hashable, Sendable {
    public var text: String
    public var width: UInt8
    public var style: Style

    public static let blank = Cell(text: " ", width: 1, style: .plain)
}

/// A terminal-independent screen image: what `view` draws and the backend shows.
public struct Frame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should be; nil hides it.
    public var cursor: (x: Int, y: Int)? {
        get { cursorX.map { ($0, cursorY) } }
        set { cursorX = newValue?.x; cursorY = newValue?.y ?? 0 }
    }
    private var cursorX: Int?
    private var cursorY = 0

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }

    /// Draws `text` at (x, y) in at most `maxWidth` columns (to the right edge by default); control
    /// characters are made visible, a wide character that does not fit is replaced by a space.
    /// Returns the columns used.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let limit = min(width, maxWidth.map { x + max(0, $0) } ?? width)
        var column = x
        for character in VisibleText.make(text) {
            let w = DisplayWidth.of(character)
            if w == 0 {
                // A stray zero-width character joins the cell before it.
                if column > 0, column <= limit, column - 1 >= x { cells[y * width + column - 1].text.append(character) }
                continue
            }
            if column + w > limit {
                if column < limit { setCell(x: column, y: y, Cell(text: " ", width: 1, style: style)); column += 1 }
                break
            }
            if column >= 0 {
                setCell(x: column, y: y, Cell(text: String(character), width: UInt8(w), style: style))
                if w == 2 { setCell(x: column + 1, y: y, Cell(text: "", width: 0, style: style)) }
            }
            column += w
        }
        return column - x
    }

    /// Fills `count` columns from (x, y) with spaces in `style`.
    public mutating func fill(x: Int = 0, y: Int, count: Int? = nil, style: Style) {
        guard y >= 0, y < height else { return }
        let end = min(width, x + (count ?? width))
        for column in max(0, x)..<max(max(0, x), end) { setCell(x: column, y: y, Cell(text: " ", width: 1, style: style)) }
    }

    /// Changes the style of cells already drawn (e.g. the selection bar).
    public mutating func restyle(y: Int, x: Int = 0, count: Int? = nil, _ change: (inout Style) -> Void) {
        guard y >= 0, y < height else { return }
        let end = min(width, x + (count ?? width))
        for column in max(0, x)..<max(max(0, x), end) { change(&cells[y * width + column].style) }
    }

    private mutating func setCell(x: Int, y: Int, _ cell: Cell) {
        let index = y * width + x
        // Overwriting half of a wide character blanks its other half.
        if cells[index].width == 2, x + 1 < width { cells[index + 1] = Cell(text: " ", width: 1, style: cells[index].style) }
        if cells[index].width == 0, x > 0, cells[index - 1].width == 2 {
            cells[index - 1] = Cell(text: " ", width: 1, style: cells[index - 1].style)
        }
        cells[index] = cell
    }

    /// The screen's text, one string per row, trailing spaces kept (wide characters appear once).
    public var lines: [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width { line += self[x, y].text }
            return line
        }
    }

    public static func == (a: Frame, b: Frame) -> Bool {
        a.width == b.width && a.height == b.height && a.cells == b.cells && a.cursorX == b.cursorX && a.cursorY == b.cursorY
    }
}
