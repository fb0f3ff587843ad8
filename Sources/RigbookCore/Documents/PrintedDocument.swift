/// A document as it is printed: what it says, in order, and its page furniture, with nothing of how it is drawn.
/// Two renderers draw it, HTML (`HTMLDocument`) and PDF (`RigbookPDF`): a block added here appears in both. Every
/// text is a `RichText`, made once as HTML and as plain text. Pure data: the same document gives the same pages, so a
/// certificate reissued from the same record is the same file.
///
/// A document too large to hold (a report on a whole register) is never made as a value: its blocks are written to a
/// `DocumentWriter` as they are made, a table row by row.
public struct PrintedDocument: Sendable, Hashable {
    public var cover: Cover
    public var blocks: [Block]

    public init(title: String, author: String = "", created: String, modified: String? = nil, footer: String = "",
                blocks: [Block] = []) {
        cover = Cover(title: title, author: author, created: created, modified: modified, footer: footer)
        self.blocks = blocks
    }

    public var title: String { cover.title }

    /// What is known of a document before its first block: its metadata and the line at the foot of its pages.
    public struct Cover: Sendable, Hashable {
        /// The PDF's metadata: its title, its author (the examiner), and when it was made and last changed, as ISO
        /// 8601 timestamps taken from what the document is about (a record's saved time), never the clock.
        public var title: String
        public var author: String
        public var created: String
        public var modified: String
        /// The line at the foot of every page, before "page N of M": the register's identity, a record's number
        /// and hash.
        public var footer: String

        public init(title: String, author: String = "", created: String, modified: String? = nil,
                    footer: String = "") {
            self.title = title
            self.author = author
            self.created = created
            self.modified = modified ?? created
            self.footer = footer
        }
    }

    public enum Block: Sendable, Hashable {
        /// A heading: level 1 is the document's, 2 a section's, 3 a part of one. It is kept on the page of what
        /// follows it. On the HTML page a heading of level 2 or 3 opens a section, which `id` and `data` name
        /// (`<section id="attention">`).
        case heading(RichText, level: Int, id: String? = nil, data: [Datum] = [])
        /// Running text, wrapped at spaces; line breaks stay line breaks. One taller than a page goes on over the
        /// next.
        case paragraph(RichText, Emphasis)
        /// Labels and their values, two columns (a certificate's particulars), or four when `paired` (two
        /// pairs a line: a short block for each of many assets); a `wide` field has its line to itself.
        case fields([Field], paired: Bool = false)
        /// A table whose header row repeats on each page it runs onto, and whose rows never split.
        case table(Table)
        /// Counts as horizontal bars, the count written beside each (reads the same in black and white).
        case bars([Bar])
        /// A QR code drawn as squares, with its quiet zone, `side` points across, and a caption under it.
        case qrCode(QRMatrix, side: Double, caption: String)
        /// The next block starts a page.
        case pageBreak
        /// A file the document carries, not printed: a PDF embeds it, a page holds it in a
        /// `<script type="application/json">` (a certificate's proof). Only in a document held whole.
        case embedded(name: String, json: String)
    }

    public enum Emphasis: Sendable, Hashable {
        case plain, small, strong
        /// Boxed: what changes how the rest is read (an amendment, a record that was superseded).
        case banner
    }

    public struct Field: Sendable, Hashable {
        public var label: String
        public var value: RichText
        /// A line of its own among paired fields.
        public var wide: Bool
        /// What a machine reading the HTML page finds on the field (`item` → `data-item="8a"`).
        public var data: [Datum]

        public init(_ label: String, _ value: RichText, wide: Bool = false, data: [Datum] = []) {
            self.label = label
            self.value = value
            self.wide = wide
            self.data = data
        }
    }

    public struct Table: Sendable, Hashable {
        public var columns: [Column]
        public var rows: [Row]

        public init(columns: [Column], rows: [Row]) {
            self.columns = columns
            self.rows = rows
        }

        /// Rows of plain cells.
        public init(columns: [Column], cells: [[RichText]]) {
            self.init(columns: columns, rows: cells.map { Row($0) })
        }
    }

    public struct Column: Sendable, Hashable {
        public var title: String
        /// The column's share of the width: the shares of a table's columns are weighed against each other.
        public var share: Double
        /// A number: set to the right.
        public var numeric: Bool

        public init(_ title: String, share: Double = 1, numeric: Bool = false) {
            self.title = title
            self.share = share
            self.numeric = numeric
        }
    }

    public struct Row: Sendable, Hashable {
        public var cells: [RichText]
        /// A row that heads the rows under it (a status's group), one cell across the table, shaded.
        public var isGroup: Bool
        /// What a machine reading the HTML page finds on the row (`status` → `data-status="overdue"`); the PDF
        /// has no use for it.
        public var data: [Datum]
        /// A total: set in bold.
        public var isTotal: Bool

        public init(_ cells: [RichText], data: [Datum] = [], isTotal: Bool = false) {
            self.cells = cells
            self.data = data
            self.isTotal = isTotal
            isGroup = false
        }

        public static func group(_ text: RichText, data: [Datum] = []) -> Row {
            var row = Row([text], data: data)
            row.isGroup = true
            return row
        }
    }

    /// A name and a value a machine reads from the HTML page.
    public struct Datum: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public struct Bar: Sendable, Hashable {
        public var label: String
        public var count: Int
        public var data: [Datum]

        public init(_ label: String, count: Int, data: [Datum] = []) {
            self.label = label
            self.count = count
            self.data = data
        }
    }

    /// The whole document, block by block, to `writer`.
    public func write(to writer: some DocumentWriter) throws {
        for block in blocks { try writer.write(block) }
    }
}

/// Where a document goes as it is made: a renderer. A table can come whole (`write(.table)`) or row by row,
/// between `startTable` and `endTable`, so that a table of 100,000 rows is never held.
public protocol DocumentWriter: AnyObject {
    func write(_ block: PrintedDocument.Block) throws
    func startTable(_ columns: [PrintedDocument.Column]) throws
    func writeRow(_ row: PrintedDocument.Row) throws
    func endTable() throws
}

extension PrintedDocument {
    /// A register timestamp (`2026-11-30T09:15:00.123Z`) as the PDF's metadata takes it: whole seconds.
    public static func date(_ timestamp: String) -> String {
        guard let dot = timestamp.firstIndex(of: ".") else { return timestamp }
        return String(timestamp[..<dot]) + (timestamp.hasSuffix("Z") ? "Z" : "")
    }
}
