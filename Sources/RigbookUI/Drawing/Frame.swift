import RigbookCore

/// Colours the screens use. The backend maps them to curses colour pairs, or to nothing under NO_COLOR.
public enum Colour: UInt8, Sendable, CaseIterable {
    case normal, red, green, yellow, blue, magenta, cyan
    /// Black on white, for a QR code on screen (reverse video where there are no colours).
    case qr
}

public struct Style: Hashable, Sendable {
    public var colour: Colour = .normal
    public var bold = false
    public var reverse = false
    public var dim = false
    public var underline = false

    public init(colour: Colour = .normal, bold: Bool = false, reverse: Bool = false, dim: Bool = false,
                underline: Bool = false) {
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

/// One terminal cell as tests and backends read it: a grapheme and its width. The cell right of a
/// wide grapheme is a continuation (`width == 0`, empty text), so a row always holds `width` columns.
public struct Cell: Hashable, Sendable {
    public var text: String
    public var width: UInt8
    public var style: Style

    public static let blank = Cell(text: " ", width: 1, style: .plain)
}

/// How a frame stores a cell: one machine word, so building, copying and comparing 80×24 of them costs no
/// reference counting, and a frame is 15 KB, not 30 (a key's work reads two frames and the rows it copies; between
/// keys other processes take the caches, and a key's time follows the memory it touches as much as its
/// instructions). A grapheme of one scalar (nearly all) is stored inline; a longer cluster lives in the
/// frame's side table, its index where the scalar would be.
///
/// Bits 0–31: the scalar, or the cluster's index; 32: holds a cluster; 33–34: width (0: the continuation of a
/// wide character); 35–37: colour; 38 bold, 39 reverse, 40 dim, 41 underline; the rest 0.
struct PackedCell: Equatable, Sendable {
    private var bits: UInt64

    private static let clusterFlag: UInt64 = 1 << 32
    private static let widthShift: UInt64 = 33
    private static let styleShift: UInt64 = 35
    private static let styleMask: UInt64 = 0x7F << 35

    init(scalar: UInt32, cluster: Int32, width: UInt8, style: Style) {
        bits = UInt64(min(width, 3)) << PackedCell.widthShift | PackedCell.styleBits(style)
        if cluster >= 0 {
            bits |= PackedCell.clusterFlag | UInt64(UInt32(cluster))
        } else {
            bits |= UInt64(scalar)
        }
    }

    /// The scalar of a cell without a cluster (0 for one with a cluster).
    var scalar: UInt32 { bits & PackedCell.clusterFlag != 0 ? 0 : UInt32(truncatingIfNeeded: bits) }

    /// Index into `Frame.clusters`, or -1.
    var cluster: Int32 {
        get { bits & PackedCell.clusterFlag != 0 ? Int32(truncatingIfNeeded: bits & 0xFFFF_FFFF) : -1 }
        set {
            bits &= ~(PackedCell.clusterFlag | 0xFFFF_FFFF)
            if newValue >= 0 { bits |= PackedCell.clusterFlag | UInt64(UInt32(newValue)) }
        }
    }

    var width: UInt8 {
        get { UInt8(truncatingIfNeeded: (bits >> PackedCell.widthShift) & 3) }
        set { bits = bits & ~(3 << PackedCell.widthShift) | UInt64(min(newValue, 3)) << PackedCell.widthShift }
    }

    var style: Style {
        get {
            let s = bits >> PackedCell.styleShift
            return Style(colour: Colour(rawValue: UInt8(s & 7)) ?? .normal, bold: s & 8 != 0, reverse: s & 16 != 0,
                         dim: s & 32 != 0, underline: s & 64 != 0)
        }
        set { bits = bits & ~PackedCell.styleMask | PackedCell.styleBits(newValue) }
    }

    /// Whether two cells have one style, without making either `Style`.
    @inline(__always)
    func sameStyle(as other: PackedCell) -> Bool { bits & PackedCell.styleMask == other.bits & PackedCell.styleMask }

    @inline(__always)
    private static func styleBits(_ style: Style) -> UInt64 {
        let attributes: UInt64 = (style.bold ? 8 : 0) | (style.reverse ? 16 : 0) | (style.dim ? 32 : 0)
            | (style.underline ? 64 : 0)
        return (UInt64(style.colour.rawValue & 7) | attributes) << PackedCell.styleShift
    }

    /// Every byte of a cell is its one word (no padding): equal cells are equal bytes (`FrameDiff` compares rows
    /// as memory).
    @inline(__always)
    static var comparesAsBytes: Bool {
        MemoryLayout<PackedCell>.size == MemoryLayout<UInt64>.size
            && MemoryLayout<PackedCell>.stride == MemoryLayout<UInt64>.size
    }

    /// `==`: one word.
    @inline(__always)
    func sameBits(as other: PackedCell) -> Bool { bits == other.bits }

    static let blank = PackedCell(scalar: 0x20, cluster: -1, width: 1, style: .plain)
    static func space(_ style: Style) -> PackedCell { PackedCell(scalar: 0x20, cluster: -1, width: 1, style: style) }
}

/// A terminal-independent screen image: what `view` draws and the backend shows.
public struct Frame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// The cells, a row at a time. A row placed from a memo (`placeLine`) shares the memo's buffer, and a new frame's
    /// rows share one blank row: placing a row copies a reference, not 640 bytes, and `FrameDiff` passes over a row
    /// that shares its buffer with the old frame's without reading it. Between keys other processes take the
    /// caches, and a key's time follows the memory it touches. Writing to a shared row copies it first.
    var rows: [[PackedCell]]
    var clusters: [String] = []
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
        rows = Array(repeating: Array(repeating: .blank, count: self.width), count: self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        let packed = rows[y][x]
        return Cell(text: text(of: packed), width: packed.width, style: packed.style)
    }

    func text(of cell: PackedCell) -> String {
        if cell.cluster >= 0 { return clusters[Int(cell.cluster)] }
        if cell.width == 0 { return "" }
        return String(Character(Unicode.Scalar(cell.scalar) ?? " "))
    }

    /// Draws `text` at (x, y) in at most `maxWidth` columns (to the right edge by default); control
    /// characters are made visible, a wide character that does not fit is replaced by a space.
    /// Returns the columns used.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let limit = min(width, maxWidth.map { x + max(0, $0) } ?? width)
        if x < 0 { return put(String(text.dropFirst(-x)), x: 0, y: y, style: style, maxWidth: max(0, limit)) }
        var column = x
        // Printable ASCII needs no grapheme breaking: one byte, one cell.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            for byte in text.utf8 {
                if column >= limit { break }
                if column >= 0 {
                    setCell(x: column, y: y, PackedCell(scalar: UInt32(byte), cluster: -1, width: 1, style: style))
                }
                column += 1
            }
            return column - x
        }
        if let end = putSingleScalars(text, x: x, y: y, limit: limit, style: style) { return end - x }
        return putCharacters(VisibleText.make(text), x: x, y: y, limit: limit, style: style)
    }

    /// Whether `value` is a grapheme on its own beside any other such scalar, is drawn as itself (no control,
    /// no hidden format character) and takes a column or two: symbols, punctuation, Latin, Greek, Cyrillic,
    /// CJK and Hangul syllables. Marks, joiners, variation selectors, jamo and emoji modifiers are not.
    @inline(__always)
    static func isSingleScalarGrapheme(_ value: UInt32) -> Bool {
        switch value {
        case 0x20...0x7E, 0xA0...0xAC, 0xAE...0x2FF, 0x370...0x482, 0x2010...0x2027, 0x2030...0x205E,
             0x2190...0x23FF, 0x2460...0x27BF, 0x4E00...0x9FFF, 0xAC00...0xD7A3:
            return true
        default:
            return false
        }
    }

    /// `putCharacters` for text whose every scalar is a grapheme of its own (`isSingleScalarGrapheme`), without
    /// breaking it into graphemes or making it visible first: the screens' own lines (▸ ⚠ ‹ › — · …) and
    /// most names. Nil, drawing nothing, for any other text. Returns the column after the text.
    private mutating func putSingleScalars(_ text: String, x: Int, y: Int, limit: Int, style: Style) -> Int? {
        for scalar in text.unicodeScalars where !Frame.isSingleScalarGrapheme(scalar.value) { return nil }
        var column = x
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x7F {
                if column >= limit { break }
                if column >= 0 { setCell(x: column, y: y, PackedCell(scalar: value, cluster: -1, width: 1,
                                                                       style: style)) }
                column += 1
                continue
            }
            let w = DisplayWidth.of(scalar)
            if column + w > limit {
                if column < limit { setCell(x: column, y: y, .space(style)); column += 1 }
                break
            }
            if column >= 0 {
                setCell(x: column, y: y, PackedCell(scalar: value, cluster: -1, width: UInt8(w), style: style))
                if w == 2 { setCell(x: column + 1, y: y, PackedCell(scalar: 0, cluster: -1, width: 0, style: style)) }
            }
            column += w
        }
        return column
    }

    /// Draws characters as `put` draws a string, without first joining them into one: a multi-line field's
    /// rows are slices of its characters, and building a string of each row, then checking it for control
    /// characters and splitting it into graphemes again, was a fifth of a keystroke in the notes.
    @discardableResult
    public mutating func put(characters: ArraySlice<Character>, x: Int, y: Int, style: Style = .plain,
                             maxWidth: Int? = nil) -> Int {
        let needsVisibleText = characters.contains { character in
            if let ascii = character.singleByte { return ascii < 0x20 || ascii == 0x7F }
            return character.unicodeScalars.contains { TextRules.isControl($0) || VisibleText.isHiddenFormat($0) }
        }
        guard !needsVisibleText, y >= 0, y < height, x >= 0, x < width else {
            return put(String(characters), x: x, y: y, style: style, maxWidth: maxWidth)
        }
        let limit = min(width, maxWidth.map { x + max(0, $0) } ?? width)
        return putCharacters(characters, x: x, y: y, limit: limit, style: style)
    }

    /// Places visible characters (controls already made visible) from column `x` up to `limit`.
    private mutating func putCharacters<Characters: Sequence<Character>>(_ characters: Characters, x: Int, y: Int,
                                                                         limit: Int, style: Style) -> Int {
        var column = x
        for character in characters {
            if let ascii = character.singleByte, ascii >= 0x20, ascii < 0x7F {
                if column >= limit { break }
                if column >= 0 { setCell(x: column, y: y, PackedCell(scalar: UInt32(ascii), cluster: -1, width: 1,
                                                                       style: style)) }
                column += 1
                continue
            }
            let w = DisplayWidth.of(character)
            if w == 0 {
                // A stray zero-width character joins the character before it (the lead cell of a wide one).
                if column > 0, column <= limit, column - 1 >= x {
                    var lead = column - 1
                    if rows[y][lead].width == 0, column - 2 >= 0 { lead -= 1 }
                    joinCluster(character, x: lead, y: y)
                }
                continue
            }
            if column + w > limit {
                if column < limit { setCell(x: column, y: y, .space(style)); column += 1 }
                break
            }
            if column >= 0 {
                setCell(x: column, y: y, packed(character, width: w, style: style))
                if w == 2 { setCell(x: column + 1, y: y, PackedCell(scalar: 0, cluster: -1, width: 0, style: style)) }
            }
            column += w
        }
        return column - x
    }

    private mutating func packed(_ character: Character, width: Int, style: Style) -> PackedCell {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first {
            return PackedCell(scalar: scalar.value, cluster: -1, width: UInt8(width), style: style)
        }
        clusters.append(String(character))
        return PackedCell(scalar: 0, cluster: Int32(clusters.count - 1), width: UInt8(width), style: style)
    }

    private mutating func joinCluster(_ character: Character, x: Int, y: Int) {
        let joined = text(of: rows[y][x]) + String(character)
        clusters.append(joined)
        rows[y][x].cluster = Int32(clusters.count - 1)
    }

    /// Fills `count` columns from (x, y) with spaces in `style`.
    public mutating func fill(x: Int = 0, y: Int, count: Int? = nil, style: Style) {
        guard y >= 0, y < height else { return }
        let start = max(0, x), end = min(width, x + (count ?? width))
        guard start < end else { return }
        // What `setCell` does cell by cell, with the checks for wide characters made once at each end (inside the
        // range every cell is overwritten anyway): a multi-line field's rows are filled every frame, most of a
        // typed character's cell writes.
        rows[y].withUnsafeMutableBufferPointer { cells in
            if cells[start].width == 0, start > 0, cells[start - 1].width == 2 {
                cells[start - 1] = .space(cells[start - 1].style)
            }
            if cells[end - 1].width == 2, end < width { cells[end] = .space(cells[end - 1].style) }
            let blank = PackedCell.space(style)
            for index in start..<end { cells[index] = blank }
        }
    }

    /// Changes the style of cells already drawn (e.g. the selection bar).
    public mutating func restyle(y: Int, x: Int = 0, count: Int? = nil, _ change: (inout Style) -> Void) {
        guard y >= 0, y < height else { return }
        let end = min(width, x + (count ?? width))
        for column in max(0, x)..<max(max(0, x), end) { change(&rows[y][column].style) }
    }

    /// One printable ASCII byte at (x, y) of the frame, nothing outside it (fast paths that checked the byte).
    mutating func setASCII(_ byte: UInt8, x: Int, y: Int, style: Style) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        setCell(x: x, y: y, PackedCell(scalar: UInt32(byte), cluster: -1, width: 1, style: style))
    }

    private mutating func setCell(x: Int, y: Int, _ cell: PackedCell) {
        rows[y].withUnsafeMutableBufferPointer { row in
            // Overwriting half of a wide character blanks its other half.
            if row[x].width == 2, x + 1 < width { row[x + 1] = .space(row[x].style) }
            if row[x].width == 0, x > 0, row[x - 1].width == 2 { row[x - 1] = .space(row[x - 1].style) }
            row[x] = cell
        }
    }

    /// One row's text, trailing spaces kept (wide characters appear once).
    public func line(_ y: Int) -> String { rows[y].map(text(of:)).joined() }

    /// Every cell, row by row (for tests; the backend uses the diff).
    public var cells: [Cell] { (0..<(width * height)).map { self[$0 % width, $0 / width] } }

    public var lines: [String] { (0..<height).map(line) }

    public static func == (a: Frame, b: Frame) -> Bool {
        guard a.width == b.width, a.height == b.height,
              a.cursorX == b.cursorX, a.cursorY == b.cursorY else { return false }
        return (0..<a.height).allSatisfy { y in
            (0..<a.width).allSatisfy { FrameDiff.same(a.rows[y][$0], b.rows[y][$0], new: a, old: b) }
        }
    }
}
