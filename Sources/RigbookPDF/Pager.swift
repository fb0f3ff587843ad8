import CPangoCairo
import RigbookCore

/// Lays blocks down a page and starts the next page when the next thing does not fit: a heading keeps the first
/// line of what follows it, a table row is never split, and a table's header row is drawn again on each page.
struct Pager {
    let context: OpaquePointer
    let footer: String
    /// Nil in the first pass, which counts the pages.
    let pageCount: Int?
    private(set) var page = 1
    private var y = PDFRenderer.top
    private var pageHasContent = false

    static let left = PDFRenderer.margin
    static let width = PDFRenderer.pageWidth - 2 * PDFRenderer.margin
    static let bottom = PDFRenderer.pageHeight - PDFRenderer.footerHeight
    /// Space inside a table's cells.
    static let cellPadding = 2.0

    init(context: OpaquePointer, footer: String, pageCount: Int?) {
        self.context = context
        self.footer = footer
        self.pageCount = pageCount
    }

    // MARK: Pages

    mutating func finishPage() {
        let number = "page \(page)" + (pageCount.map { " of \($0)" } ?? "")
        let style = TextStyle.footer
        let right = TextBox(context, text: number, style: style, width: Pager.width)
        let left = TextBox(context, text: footer, style: style, width: Pager.width - right.width - 12)
        let footerY = PDFRenderer.pageHeight - PDFRenderer.footerHeight + 8
        rule(y: footerY - 4, weight: 0.5)
        left.draw(x: Pager.left, y: footerY)
        right.draw(x: Pager.left + Pager.width - right.width, y: footerY)
        cairo_show_page(context)
    }

    private mutating func newPage() {
        finishPage()
        page += 1
        y = PDFRenderer.top
        pageHasContent = false
    }

    /// Room for `height` points below: a new page when this one cannot hold them (and has something on it).
    private mutating func ensure(_ height: Double) {
        if y + height > Pager.bottom && pageHasContent { newPage() }
    }

    // MARK: Blocks

    mutating func draw(_ block: PrintedDocument.Block, before next: PrintedDocument.Block?) throws(PDFError) {
        switch block {
        case .heading(let text, let level):
            let style: TextStyle = level <= 1 ? .title : .heading
            let box = try checked(TextBox(context, text: text, style: style, width: Pager.width))
            // A heading is never the last line of a page: it keeps the first line of what follows.
            ensure(box.height + 6 + (next.map(firstLineHeight) ?? 0))
            y += level <= 1 ? 0 : 4
            box.draw(x: Pager.left, y: y)
            y += box.height + 2
            if level > 1 { rule(y: y, weight: 0.5) }
            y += 3
        case .paragraph(let text, let emphasis):
            try paragraph(text, emphasis)
        case .fields(let fields):
            let labelWidth = Pager.width * 0.4
            try rows(fields.map { [$0.label, $0.value] }, widths: [labelWidth, Pager.width - labelWidth],
                     styles: [.label, .body], header: nil)
        case .table(let table):
            let total = table.columns.map(\.share).reduce(0, +)
            let widths = table.columns.map { Pager.width * $0.share / max(total, 0.0001) }
            try rows(table.rows, widths: widths, styles: Array(repeating: .body, count: widths.count),
                     header: table.columns.map(\.title))
        case .qrCode(let matrix, let side, let caption):
            let captionBox = try checked(TextBox(context, text: caption, style: .small, width: Pager.width))
            ensure(side + captionBox.height + 4)
            qr(matrix, x: Pager.left, y: y, side: side)
            captionBox.draw(x: Pager.left, y: y + side + 2)
            y += side + captionBox.height + 8
        case .pageBreak:
            if pageHasContent { newPage() }
            return
        }
        pageHasContent = true
    }

    private mutating func paragraph(_ text: String, _ emphasis: PrintedDocument.Emphasis) throws(PDFError) {
        let style: TextStyle = emphasis == .small ? .small : emphasis == .plain ? .body : .strong
        let inset = emphasis == .banner ? 4.0 : 0
        let box = try checked(TextBox(context, text: text, style: style, width: Pager.width - 2 * inset))
        ensure(box.height + 2 * inset + 4)
        if emphasis == .banner {
            cairo_set_line_width(context, 1)
            cairo_rectangle(context, Pager.left, y, Pager.width, box.height + 2 * inset)
            cairo_stroke(context)
        }
        box.draw(x: Pager.left + inset, y: y + inset)
        y += box.height + 2 * inset + 4
    }

    /// Rows of cells in columns of `widths`, each row as tall as its tallest cell, ruled; `header` in bold over
    /// them, again on each page the rows run onto.
    private mutating func rows(_ rows: [[String]], widths: [Double], styles: [TextStyle],
                               header: [String]?) throws(PDFError) {
        func boxes(_ cells: [String], _ styles: [TextStyle]) throws(PDFError) -> [TextBox] {
            var made: [TextBox] = []
            for (index, width) in widths.enumerated() {
                let text = index < cells.count ? cells[index] : ""
                made.append(try checked(TextBox(context, text: text, style: styles[index],
                                                width: width - 2 * Pager.cellPadding)))
            }
            return made
        }
        let headerBoxes = try header.map { (cells: [String]) throws(PDFError) in
            try boxes(cells, Array(repeating: .strong, count: widths.count))
        }
        let headerHeight = headerBoxes.map(Pager.rowHeight) ?? 0
        var headerDrawn = false
        for cells in rows {
            let row = try boxes(cells, styles)
            let height = Pager.rowHeight(row)
            let before = page
            ensure(height + (headerDrawn ? 0 : headerHeight))
            if let headerBoxes, !headerDrawn || page != before {
                drawRow(headerBoxes, widths: widths, shaded: true)
                headerDrawn = true
            }
            drawRow(row, widths: widths, shaded: false)
            pageHasContent = true
        }
        y += 4
    }

    private static func rowHeight(_ boxes: [TextBox]) -> Double {
        (boxes.map(\.height).max() ?? 0) + 2 * cellPadding
    }

    private mutating func drawRow(_ boxes: [TextBox], widths: [Double], shaded: Bool) {
        let height = Pager.rowHeight(boxes)
        var x = Pager.left
        for (box, width) in zip(boxes, widths) {
            if shaded {
                cairo_set_source_rgb(context, 0.9, 0.9, 0.9)
                cairo_rectangle(context, x, y, width, height)
                cairo_fill(context)
                cairo_set_source_rgb(context, 0, 0, 0)
            }
            cairo_set_line_width(context, 0.5)
            cairo_rectangle(context, x, y, width, height)
            cairo_stroke(context)
            box.draw(x: x + Pager.cellPadding, y: y + Pager.cellPadding)
            x += width
        }
        y += height
    }

    private func qr(_ matrix: QRMatrix, x: Double, y: Double, side: Double) {
        QRDrawing.draw(matrix, in: context, x: x, y: y, side: side)
    }

    private func rule(y: Double, weight: Double) {
        cairo_set_line_width(context, weight)
        cairo_move_to(context, Pager.left, y)
        cairo_line_to(context, Pager.left + Pager.width, y)
        cairo_stroke(context)
    }

    /// The height of the first line of a block, for a heading to keep with it.
    private func firstLineHeight(_ block: PrintedDocument.Block) -> Double {
        switch block {
        case .paragraph, .fields, .table, .heading: TextBox(context, text: "X", style: .body, width: 100).height + 8
        case .qrCode(_, let side, _): side
        case .pageBreak: 0
        }
    }

    /// A box whose text has a character no font on this machine can draw: refused, naming the fonts to install.
    private func checked(_ box: TextBox) throws(PDFError) -> TextBox {
        guard box.unknownGlyphs == 0 else {
            throw PDFError(description: "no font here draws every character of “\(box.text.prefix(40))”: install "
                           + "fonts-dejavu-core and fonts-noto-cjk (apt-get install fonts-dejavu-core fonts-noto-cjk)")
        }
        return box
    }
}
