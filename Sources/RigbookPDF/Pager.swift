import CPangoCairo
import RigbookCore

/// Lays blocks down a page as they come and starts the next page when the next thing does not fit: a heading waits
/// for what follows it and goes on its page, a table row is never split, a table's header row is drawn again on
/// each page, and a paragraph taller than a page goes on over the next. In the first pass (no page count yet) it
/// measures and draws nothing.
final class Pager: DocumentWriter {
    private let type: Typesetter
    private let footer: String
    /// Nil in the first pass, which counts the pages.
    private let pageCount: Int?
    private var drawing: Bool { pageCount != nil }
    private(set) var page = 1
    private var y = PDFRenderer.top
    private var pageHasContent = false
    /// Headings not yet placed: they go on the page of the first line after them.
    private var headings: [(box: TextBox, level: Int)] = []
    private var table: OpenTable?
    /// The first error of a drawing: a `DocumentWriter` throws untyped errors, the renderer hands on this one.
    private(set) var failure: PDFError?

    static let left = PDFRenderer.margin
    static let width = PDFRenderer.pageWidth - 2 * PDFRenderer.margin
    static let bottom = PDFRenderer.pageHeight - PDFRenderer.footerHeight
    /// Space inside a table's cells.
    static let cellPadding = 2.0

    init(_ type: Typesetter, footer: String, pageCount: Int?) {
        self.type = type
        self.footer = footer
        self.pageCount = pageCount
    }

    private var context: OpaquePointer { type.context }

    // MARK: Pages

    func finish() throws(PDFError) {
        try placeHeadings(before: 0)
        try finishPage()
    }

    private func finishPage() throws(PDFError) {
        guard drawing else { return }
        let number = "page \(page)" + (pageCount.map { " of \($0)" } ?? "")
        let right = try type.checked(type.box(number, .footer, width: Pager.width))
        let left = try type.checked(type.box(footer, .footer, width: Pager.width - right.width - 12))
        let footerY = PDFRenderer.pageHeight - PDFRenderer.footerHeight + 8
        rule(y: footerY - 4, weight: 0.5)
        left.draw(x: Pager.left, y: footerY)
        right.draw(x: Pager.left + Pager.width - right.width, y: footerY)
        cairo_show_page(context)
    }

    private func newPage() throws(PDFError) {
        try finishPage()
        page += 1
        y = PDFRenderer.top
        pageHasContent = false
    }

    private var room: Double { Pager.bottom - y }

    /// Room for `height` points below: a new page when this one cannot hold them (and has something on it).
    private func ensure(_ height: Double) throws(PDFError) {
        if height > room && pageHasContent { try newPage() }
    }

    // MARK: Blocks

    func write(_ block: PrintedDocument.Block) throws {
        try run { () throws(PDFError) in try self.place(block) }
    }

    func startTable(_ columns: [PrintedDocument.Column]) throws {
        try run { () throws(PDFError) in try self.openTable(columns) }
    }

    func writeRow(_ row: PrintedDocument.Row) throws {
        try run { () throws(PDFError) in try self.placeRow(row) }
    }

    func endTable() throws { closeTable() }

    /// A drawing's typed error kept as the renderer's, and thrown on.
    private func run(_ body: () throws(PDFError) -> Void) throws {
        do { try body() } catch {
            failure = failure ?? error
            throw error
        }
    }

    private func place(_ block: PrintedDocument.Block) throws(PDFError) {
        switch block {
        case .heading(let text, let level, _, _):
            let style: TextStyle = level <= 1 ? .title : level == 2 ? .heading : .subheading
            headings.append((try type.checked(type.box(text.plain, style, width: Pager.width)), level))
            return
        case .paragraph(let text, let emphasis):
            try paragraph(text.plain, emphasis)
        case .fields(let fields, let paired):
            try self.fields(fields, paired: paired)
        case .table(let table):
            try openTable(table.columns)
            for row in table.rows { try placeRow(row) }
            closeTable()
        case .bars(let bars):
            try self.bars(bars)
        case .qrCode(let matrix, let side, let caption):
            let captionBox = try type.checked(type.box(caption, .small, width: Pager.width))
            try placeHeadings(before: side + captionBox.height + 4)
            if drawing {
                QRDrawing.draw(matrix, in: context, x: Pager.left, y: y, side: side)
                captionBox.draw(x: Pager.left, y: y + side + 2)
            }
            y += side + captionBox.height + 8
        case .pageBreak:
            try placeHeadings(before: 0)
            if pageHasContent { try newPage() }
            return
        case .embedded:
            // Not printed: the renderer embeds it once cairo has written the pages.
            return
        }
        pageHasContent = true
    }

    /// A table's columns, and its header row set, to be drawn above its first row on each page.
    private func openTable(_ columns: [PrintedDocument.Column]) throws(PDFError) {
        let total = columns.map(\.share).reduce(0, +)
        let widths = columns.map { Pager.width * $0.share / max(total, 0.0001) }
        let header = try cells(columns.map { RichText(stringLiteral: $0.title) }, widths: widths,
                               styles: Array(repeating: .strong, count: widths.count), right: columns.map(\.numeric))
        table = OpenTable(widths: widths, right: columns.map(\.numeric), header: header)
    }

    /// The table ends: a little room after it, if it drew anything.
    private func closeTable() {
        if table?.headerDrawnOnPage != nil { y += 4 }
        table = nil
    }

    /// The waiting headings, on the page that has room for them and `first` points of what follows.
    private func placeHeadings(before first: Double) throws(PDFError) {
        guard !headings.isEmpty else { return }
        let height = headings.reduce(0) { $0 + Pager.headingHeight($1.box, level: $1.level) }
        try ensure(height + first)
        for (box, level) in headings {
            y += level <= 1 ? 0 : 4
            if drawing { box.draw(x: Pager.left, y: y) }
            y += box.height + 2
            if level == 2 { rule(y: y, weight: 0.5) }
            y += 3
        }
        headings = []
        pageHasContent = true
    }

    private static func headingHeight(_ box: TextBox, level: Int) -> Double {
        box.height + (level <= 1 ? 5 : 9)
    }

    /// Running text; one that will not fit on a page of its own is cut between its lines across as many pages
    /// as it takes.
    private func paragraph(_ text: String, _ emphasis: PrintedDocument.Emphasis) throws(PDFError) {
        let style: TextStyle = emphasis == .small ? .small : emphasis == .plain ? .body : .strong
        let inset = emphasis == .banner ? 4.0 : 0
        let box = try type.checked(type.box(text, style, width: Pager.width - 2 * inset))
        let whole = box.height + 2 * inset
        let fullPage = Pager.bottom - PDFRenderer.top - 40
        guard whole > fullPage else {
            try placeHeadings(before: whole)
            try ensure(whole + 4)
            if drawing {
                if emphasis == .banner { frame(y: y, height: whole) }
                box.draw(x: Pager.left + inset, y: y + inset)
            }
            y += whole + 4
            return
        }
        let bottoms = box.lineBottoms
        try placeHeadings(before: (bottoms.first ?? 0) + 2 * inset)
        var line = 0, top = 0.0
        while line < bottoms.count {
            // As many lines as this page has room for; at least one, on a page of its own if need be.
            var end = line
            while end < bottoms.count && bottoms[end] - top + 2 * inset <= room { end += 1 }
            if end == line {
                if pageHasContent { try newPage(); continue }
                end = line + 1
            }
            let height = bottoms[end - 1] - top + 2 * inset
            if drawing {
                if emphasis == .banner { frame(y: y, height: height) }
                box.draw(lines: line..<end, x: Pager.left + inset, y: y + inset)
            }
            y += height
            pageHasContent = true
            top = bottoms[end - 1]
            line = end
            if line < bottoms.count { try newPage() }
        }
        y += 4
    }

    /// Labels beside their values: one pair a line, or two; a wide value takes the rest of its line.
    private func fields(_ fields: [PrintedDocument.Field], paired: Bool) throws(PDFError) {
        let widths = paired ? [0.2, 0.3, 0.2, 0.3].map { $0 * Pager.width } : [0.4, 0.6].map { $0 * Pager.width }
        var lines: [[PrintedDocument.Field]] = []
        for field in fields {
            if paired, !field.wide, let last = lines.last, last.count == 1, !last[0].wide {
                lines[lines.count - 1].append(field)
            } else {
                lines.append([field])
            }
        }
        let rows = lines.map { line -> [RichText] in
            line.flatMap { [RichText(stringLiteral: $0.label), $0.value] }
        }
        for cells in rows {
            // A lone pair on a paired line spans the rest of it.
            let spans = cells.count < widths.count
                ? [widths[0], widths.dropFirst().reduce(0, +)] : widths
            let boxes = try self.cells(cells, widths: spans, styles: zip(cells.indices, spans).map { index, _ in
                index % 2 == 0 ? .label : .body
            }, right: nil)
            try place(boxes, widths: spans, shading: cells.indices.map { $0 % 2 == 0 && paired ? 0.95 : nil },
                      above: 0)
        }
        y += 4
    }

    private func cells(_ cells: [RichText], widths: [Double], styles: [TextStyle],
                       right: [Bool]?) throws(PDFError) -> [TextBox] {
        var made: [TextBox] = []
        for (index, width) in widths.enumerated() {
            let text = index < cells.count ? cells[index].plain : ""
            made.append(try type.checked(type.box(text, styles[index], width: width - 2 * Pager.cellPadding,
                                                  alignRight: right?[index] ?? false)))
        }
        return made
    }

    private func placeRow(_ row: PrintedDocument.Row) throws(PDFError) {
        guard let table else { return }
        let widths = row.isGroup ? [table.widths.reduce(0, +)] : table.widths
        let style: TextStyle = row.isGroup || row.isTotal ? .strong : .body
        let boxes = try cells(row.cells, widths: widths, styles: Array(repeating: style, count: widths.count),
                              right: row.isGroup ? nil : table.right)
        let headerHeight = table.headerDrawnOnPage == page ? 0 : Pager.rowHeight(table.header)
        try place(boxes, widths: widths, shading: widths.map { _ in row.isGroup ? 0.96 : nil }, above: headerHeight) {
            () throws(PDFError) in self.drawHeader()
        }
    }

    /// The open table's header row, once a page.
    private func drawHeader() {
        guard var table, table.headerDrawnOnPage != page else { return }
        drawRow(table.header, widths: table.widths, shading: table.widths.map { _ in 0.9 })
        table.headerDrawnOnPage = page
        self.table = table
    }

    /// A row of cells where it fits whole, on this page or the next, with `above` points of a page's first things
    /// (a table's header, which `atTop` draws) before it. A row taller than a page is the one row ever cut: between
    /// lines, each cell going on where it stopped.
    private func place(_ boxes: [TextBox], widths: [Double], shading: [Double?], above: Double,
                       atTop: () throws(PDFError) -> Void = {}) throws(PDFError) {
        let height = Pager.rowHeight(boxes)
        guard height + above > Pager.bottom - PDFRenderer.top else {
            try placeHeadings(before: height + above)
            try ensure(height + above)
            try atTop()
            drawRow(boxes, widths: widths, shading: shading)
            pageHasContent = true
            return
        }
        let bottoms = boxes.map(\.lineBottoms)
        var next = boxes.map { _ in 0 }, tops = boxes.map { _ in 0.0 }
        try placeHeadings(before: above + 40)
        try ensure(above + 40)
        try atTop()
        while zip(next, bottoms).contains(where: { $0 < $1.count }) {
            // As many lines of each cell as this page has room for.
            var ends = next, part = 0.0
            for index in boxes.indices {
                while ends[index] < bottoms[index].count
                        && bottoms[index][ends[index]] - tops[index] + 2 * Pager.cellPadding <= room {
                    ends[index] += 1
                }
            }
            if ends == next {
                if pageHasContent {
                    try newPage()
                    try atTop()
                    continue
                }
                // A single line taller than an empty page: it goes on, cut by the page's edge.
                for index in boxes.indices where next[index] < bottoms[index].count { ends[index] = next[index] + 1 }
            }
            for index in boxes.indices where ends[index] > next[index] {
                part = max(part, bottoms[index][ends[index] - 1] - tops[index])
            }
            if drawing {
                var x = Pager.left
                for (index, box) in boxes.enumerated() {
                    cell(x: x, width: widths[index], height: part + 2 * Pager.cellPadding, grey: shading[index])
                    box.draw(lines: next[index]..<ends[index], x: x + Pager.cellPadding, y: y + Pager.cellPadding)
                    x += widths[index]
                }
            }
            y += part + 2 * Pager.cellPadding
            pageHasContent = true
            for index in boxes.indices where ends[index] > next[index] { tops[index] = bottoms[index][ends[index] - 1] }
            next = ends
            if zip(next, bottoms).contains(where: { $0 < $1.count }) {
                try newPage()
                try atTop()
            }
        }
    }

    private static func rowHeight(_ boxes: [TextBox]) -> Double {
        (boxes.map(\.height).max() ?? 0) + 2 * cellPadding
    }

    /// A row of ruled cells, each shaded grey at its level (1 white) or not.
    private func drawRow(_ boxes: [TextBox], widths: [Double], shading: [Double?]) {
        let height = Pager.rowHeight(boxes)
        defer { y += height }
        guard drawing else { return }
        var x = Pager.left
        for (index, (box, width)) in zip(boxes, widths).enumerated() {
            cell(x: x, width: width, height: height, grey: shading[index])
            box.draw(x: x + Pager.cellPadding, y: y + Pager.cellPadding)
            x += width
        }
    }

    /// A cell's rule, and its shading when it has one, from the top of the row.
    private func cell(x: Double, width: Double, height: Double, grey: Double?) {
        if let grey {
            cairo_set_source_rgb(context, grey, grey, grey)
            cairo_rectangle(context, x, y, width, height)
            cairo_fill(context)
            cairo_set_source_rgb(context, 0, 0, 0)
        }
        cairo_set_line_width(context, 0.5)
        cairo_rectangle(context, x, y, width, height)
        cairo_stroke(context)
    }

    /// Grey bars outlined in black, each with its label before it and its count after it.
    private func bars(_ bars: [PrintedDocument.Bar]) throws(PDFError) {
        let labelWidth = 110.0, barMax = Pager.width - labelWidth - 50, rowHeight = 13.0
        let most = bars.map(\.count).max() ?? 0
        try placeHeadings(before: rowHeight * Double(bars.count))
        try ensure(rowHeight * Double(bars.count) + 4)
        for bar in bars {
            let label = try type.checked(type.box(bar.label, .body, width: labelWidth))
            let count = try type.checked(type.box("\(bar.count)", .body, width: 50))
            // Whole points, as the page's bars are whole pixels: the same count gives the same bar everywhere.
            let length = most == 0 ? 0 : max(bar.count > 0 ? 2 : 0, (Double(bar.count) * barMax / Double(most))
                                                .rounded())
            if drawing {
                label.draw(x: Pager.left, y: y + 1.5)
                if length > 0 {
                    cairo_set_source_rgb(context, 0.62, 0.62, 0.62)
                    cairo_rectangle(context, Pager.left + labelWidth, y + 2, length, rowHeight - 4)
                    cairo_fill_preserve(context)
                    cairo_set_source_rgb(context, 0, 0, 0)
                    cairo_set_line_width(context, 0.75)
                    cairo_stroke(context)
                }
                count.draw(x: Pager.left + labelWidth + length + 4, y: y + 1.5)
            }
            y += rowHeight
        }
        y += 6
    }

    private func frame(y: Double, height: Double) {
        cairo_set_line_width(context, 1)
        cairo_rectangle(context, Pager.left, y, Pager.width, height)
        cairo_stroke(context)
    }

    private func rule(y: Double, weight: Double) {
        guard drawing else { return }
        cairo_set_line_width(context, weight)
        cairo_move_to(context, Pager.left, y)
        cairo_line_to(context, Pager.left + Pager.width, y)
        cairo_stroke(context)
    }

    /// A table being written row by row: its columns, and the page its header was last drawn on.
    private struct OpenTable {
        let widths: [Double]
        let right: [Bool]
        let header: [TextBox]
        var headerDrawnOnPage: Int?
    }
}
