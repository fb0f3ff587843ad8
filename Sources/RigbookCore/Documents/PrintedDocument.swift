/// A document as it is printed: what it says, in order, and its page furniture, with nothing of how it is drawn.
/// Renderers draw it (PDF in `RigbookPDF`): a block added here appears in each of them. Pure data: the same
/// document gives the same pages, so a certificate reissued from the same record is the same file.
public struct PrintedDocument: Sendable, Hashable {
    /// The PDF's metadata: its title, its author (the examiner), and when it was made and last changed, as
    /// ISO 8601 timestamps taken from what the document is about (a record's saved time), never the clock.
    public var title: String
    public var author: String
    public var created: String
    public var modified: String
    /// The line at the foot of every page, before "page N of M": the register's identity, a record's number
    /// and hash.
    public var footer: String
    public var blocks: [Block]

    public init(title: String, author: String = "", created: String, modified: String? = nil, footer: String = "",
                blocks: [Block] = []) {
        self.title = title
        self.author = author
        self.created = created
        self.modified = modified ?? created
        self.footer = footer
        self.blocks = blocks
    }

    public enum Block: Sendable, Hashable {
        /// A heading: level 1 is the document's, 2 a section's. It is kept on the page of what follows it.
        case heading(String, level: Int)
        /// Running text, wrapped at spaces; line breaks stay line breaks.
        case paragraph(String, Emphasis)
        /// Labels and their values, two columns (a certificate's particulars).
        case fields([Field])
        /// A table whose header row repeats on each page it runs onto, and whose rows never split.
        case table(Table)
        /// A QR code drawn as squares, with its quiet zone, `side` points across, and a caption under it.
        case qrCode(QRMatrix, side: Double, caption: String)
        /// The next block starts a page.
        case pageBreak
    }

    public enum Emphasis: Sendable, Hashable {
        case plain, small, strong
        /// Boxed: what changes how the rest is read (an amendment, a record that was superseded).
        case banner
    }

    public struct Field: Sendable, Hashable {
        public var label: String
        public var value: String

        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    public struct Table: Sendable, Hashable {
        public var columns: [Column]
        public var rows: [[String]]

        public init(columns: [Column], rows: [[String]]) {
            self.columns = columns
            self.rows = rows
        }
    }

    public struct Column: Sendable, Hashable {
        public var title: String
        /// The column's share of the width: the shares of a table's columns are weighed against each other.
        public var share: Double

        public init(_ title: String, share: Double = 1) {
            self.title = title
            self.share = share
        }
    }
}
