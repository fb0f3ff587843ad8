/// Draws a `PrintedDocument` as one self-contained HTML page for A4 (inline CSS and SVG, no scripts, no fonts, no
/// images by URL): the same blocks the PDF draws, each as its element. Print CSS does what the PDF's pager does: a
/// table's header row repeats on each page, a row is never split, a heading keeps with what follows it, and each
/// page's foot carries the document's footer line and "page N of M" (where the browser draws page margins).
/// Every text from data is escaped (`RichText`). The output depends only on the document.
public enum HTMLDocument {
    public static func render(_ document: PrintedDocument) -> String {
        var page = ""
        // A held document's blocks throw nothing, and the writer only gathers.
        try? write(document.cover, content: { try document.write(to: $0) }, to: { page += $0 })
        return page
    }

    /// The page written in pieces of about 64 KB to `output` as it is made, in bounded memory however long the
    /// document: `content` writes its blocks, a table row by row.
    public static func write(_ cover: PrintedDocument.Cover, content: (any DocumentWriter) throws -> Void,
                             to output: @escaping (String) throws -> Void) throws {
        let writer = HTMLDocumentWriter(cover, output)
        try content(writer)
        try writer.finish()
    }

    /// Whether `content` is the style sheet this renderer puts in a page (`HTMLDocumentWriter.isOwnStyle`).
    public static func isOwnStyle(_ content: Substring) -> Bool { HTMLDocumentWriter.isOwnStyle(content) }
}

/// The HTML page of a document, block by block.
final class HTMLDocumentWriter: DocumentWriter {
    private let out: TextChunks
    private let cover: PrintedDocument.Cover
    private var columns: [PrintedDocument.Column] = []
    /// The next block starts a page.
    private var breakBefore = false
    /// The levels of the sections open, outermost first.
    private var openSections: [Int] = []

    init(_ cover: PrintedDocument.Cover, _ output: @escaping (String) throws -> Void) {
        self.cover = cover
        out = TextChunks(output)
        out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta name=\"generator\" content=\"Rigbook \(escape(RigbookVersion.current))\">\n"
        if !cover.author.isEmpty { out += "<meta name=\"author\" content=\"\(escape(cover.author))\">\n" }
        out += "<meta name=\"created\" content=\"\(escape(cover.created))\">\n"
        out += "<title>\(escape(cover.title))</title>\n<style>\n\(HTMLDocumentWriter.css)"
        // The foot of every printed page, as the PDF's.
        let face = "font-family: \"DejaVu Sans\", sans-serif; font-size: 6.5pt;"
        out += "@page { @bottom-left { content: \"\(cssString(cover.footer))\"; \(face) }\n"
        out += "  @bottom-right { content: \"page \" counter(page) \" of \" counter(pages); \(face) } }\n"
        out += "</style>\n</head>\n<body>\n"
    }

    /// Closes the sections of headings deeper than `level` (all of them for 0).
    private func closeSections(deeperThan level: Int) {
        while let last = openSections.last, last > level {
            out += "</section>\n"
            openSections.removeLast()
        }
    }

    /// Whether `content` is the stylesheet this writer puts in a page: its own rules, then the printed pages' foot
    /// (a footer text, CSS-escaped). A page checked as a certificate may hold no other.
    static func isOwnStyle(_ content: Substring) -> Bool {
        guard content.hasPrefix("\n" + css) else { return false }
        let foot = content.dropFirst(1 + css.count)
        let face = "font-family: \"DejaVu Sans\", sans-serif; font-size: 6.5pt;"
        let opening = "@page { @bottom-left { content: \""
        let closing = "\"; \(face) }\n  @bottom-right { content: \"page \" counter(page) \" of \" counter(pages); "
            + "\(face) } }\n"
        guard foot.hasPrefix(opening), foot.hasSuffix(closing) else { return false }
        // The footer's text: escaped quotes and backslashes only, no way out of the string.
        let text = foot.dropFirst(opening.count).dropLast(closing.count)
        var escaped = false
        for character in text {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            if character == "\"" || character == "\n" { return false }
        }
        return !escaped
    }

    func finish() throws {
        closeSections(deeperThan: 0)
        if !cover.footer.isEmpty { out += "<footer class=\"document\">\(escape(cover.footer))</footer>\n" }
        out += "</body>\n</html>\n"
        try out.finish()
    }

    private func escape(_ text: String) -> String { Certificate.text(text) }

    /// A CSS string's content: quotes and backslashes escaped, controls and line breaks as spaces.
    private func cssString(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\": result += "\\" + String(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): result += " "
            case "<": result += "\\3c "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private var pageClass: String {
        guard breakBefore else { return "" }
        breakBefore = false
        return " class=\"page\""
    }

    // MARK: Blocks

    func write(_ block: PrintedDocument.Block) throws {
        switch block {
        case .heading(let text, let level, let id, let data):
            let level = min(max(level, 1), 3)
            closeSections(deeperThan: level - 1)
            let page = pageClass
            let anchor = id.map { " id=\"\(escape($0))\"" } ?? ""
            if level > 1 {
                out += "<section\(anchor)\(level == 3 ? " class=\"part\"" : "")\(attributes(data))\(page)>\n"
                openSections.append(level)
                out += "<h\(level)>\(text.html)</h\(level)>\n"
            } else {
                out += "<h1\(anchor)\(page)>\(text.html)</h1>\n"
            }
        case .paragraph(let text, let emphasis):
            let style = switch emphasis {
            case .plain: "plain"
            case .small: "small"
            case .strong: "strong"
            case .banner: "banner"
            }
            let page = breakBefore ? " page" : ""
            breakBefore = false
            out += "<p class=\"\(style)\(page)\">\(text.html)</p>\n"
        case .fields(let fields, let paired):
            let page = breakBefore ? " page" : ""
            breakBefore = false
            out += "<table class=\"fields\(paired ? " paired" : "")\(page)\">\n"
            var open = false
            for field in fields {
                let data = attributes(field.data)
                let cell = "<th>\(escape(field.label))</th>"
                if paired && !field.wide && open {
                    out += "\(cell)<td\(data)>\(field.value.html)</td></tr>\n"
                    open = false
                    continue
                }
                if open { out += "<td colspan=\"2\"></td></tr>\n" }
                let span = paired && field.wide ? " colspan=\"3\"" : ""
                out += "<tr\(data)>\(cell)<td\(span)>\(field.value.html)</td>"
                open = paired && !field.wide
                if !open { out += "</tr>\n" }
            }
            if open { out += "<td colspan=\"2\"></td></tr>\n" }
            out += "</table>\n"
        case .table(let table):
            try startTable(table.columns)
            for row in table.rows { try writeRow(row) }
            try endTable()
        case .bars(let bars):
            self.bars(bars)
        case .qrCode(let matrix, let side, let caption):
            // Whole CSS pixels a module (a point is 4/3 of a pixel).
            let pixels = max(1, Int(side * 4 / 3) / matrix.span())
            out += "<figure class=\"qr\"\(pageClass)>\(matrix.svg(modulePixels: pixels, title: caption))"
            out += "<figcaption>\(escape(caption))</figcaption></figure>\n"
        case .pageBreak:
            breakBefore = true
        case .embedded(let name, let json):
            // No "<" in the script, so no "</script>" in a value can end it early; JSON reads \u003c as "<".
            let safe = json.replacingOccurrences(of: "<", with: "\\u003c")
            out += "<script type=\"application/json\" id=\"\(escape(name))\">\n\(safe)</script>\n"
        }
    }

    func startTable(_ columns: [PrintedDocument.Column]) throws {
        self.columns = columns
        let total = columns.map(\.share).reduce(0, +)
        out += "<table class=\"data\(breakBefore ? " page" : "")\">\n<colgroup>"
        breakBefore = false
        for column in columns {
            let percent = (column.share * 1000 / max(total, 0.0001)).rounded() / 10
            out += "<col style=\"width: \(percent)%\">"
        }
        out += "</colgroup>\n<thead><tr>"
        for column in columns { out += "<th\(column.numeric ? " class=\"num\"" : "")>\(escape(column.title))</th>" }
        out += "</tr></thead>\n<tbody>\n"
    }

    func writeRow(_ row: PrintedDocument.Row) throws {
        let data = attributes(row.data)
        if row.isGroup {
            out += "<tr class=\"group\"\(data)><th colspan=\"\(columns.count)\">\(row.cells.first?.html ?? "")"
            out += "</th></tr>\n"
            return
        }
        out += "<tr\(data)\(row.isTotal ? " class=\"total\"" : "")>"
        for (index, cell) in row.cells.enumerated() {
            let numeric = index < columns.count && columns[index].numeric
            out += "<td\(numeric ? " class=\"num\"" : "")>\(cell.html)</td>"
        }
        out += "</tr>\n"
    }

    func endTable() throws {
        out += "</tbody>\n</table>\n"
        columns = []
    }

    private func attributes(_ data: [PrintedDocument.Datum]) -> String {
        data.map { " data-\($0.name)=\"\(escape($0.value))\"" }.joined()
    }

    /// Horizontal bars in one inline SVG: black outline, grey fill, the count written beside each bar, so the
    /// chart reads the same in black and white and when backgrounds are not printed. Integer widths keep the
    /// output identical on every platform.
    private func bars(_ bars: [PrintedDocument.Bar]) {
        let most = bars.map(\.count).max() ?? 0
        let labelWidth = 150, barMax = 440, rowHeight = 22, top = 4
        let width = labelWidth + barMax + 70, height = top * 2 + rowHeight * bars.count
        out += "<svg class=\"bars\(breakBefore ? " page" : "")\" xmlns=\"http://www.w3.org/2000/svg\" "
        breakBefore = false
        out += "viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\">\n"
        for (index, bar) in bars.enumerated() {
            let y = top + index * rowHeight
            let length = most == 0 ? 0 : (bar.count * barMax + most / 2) / most
            let visible = bar.count > 0 ? max(length, 2) : 0
            out += "<g class=\"bar\"\(attributes(bar.data)) data-count=\"\(bar.count)\">"
            out += "<text x=\"0\" y=\"\(y + 15)\">\(escape(bar.label))</text>"
            if visible > 0 {
                out += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(visible)\" height=\"\(rowHeight - 6)\"/>"
            }
            out += "<text x=\"\(labelWidth + visible + 6)\" y=\"\(y + 15)\">\(bar.count)</text></g>\n"
        }
        out += "</svg>\n"
    }

    // MARK: Style

    /// Print first: A4, 12 mm margins; page breaks are CSS, so where a page starts does not depend on the fonts a
    /// printer has. A status or result is always written in words; colour only adds to it.
    static let css = """
    @page { size: A4; margin: 12mm 14mm 16mm; }
    html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    body { font-family: "DejaVu Sans", "Helvetica Neue", Helvetica, Arial, "Noto Sans", "Noto Sans CJK SC",
      sans-serif; font-size: 8.5pt; line-height: 1.3; color: #000; background: #fff; margin: 0 auto;
      max-width: 182mm; }
    h1 { font-size: 14pt; margin: 0 0 1mm; }
    h2 { font-size: 10.5pt; margin: 4mm 0 1mm; border-bottom: 0.5pt solid #000; }
    h3 { font-size: 9pt; margin: 3mm 0 1mm; }
    h1, h2, h3 { page-break-after: avoid; break-after: avoid; }
    p { margin: 1mm 0; }
    p.small, .sub { color: #333; font-size: 8pt; }
    p.strong, .strong { font-weight: bold; }
    p.banner { border: 1pt solid #000; padding: 1mm 2mm; font-weight: bold; }
    .pre { white-space: pre-line; }
    code { font-size: 7.5pt; overflow-wrap: anywhere; }
    .nr { font-style: italic; color: #555; }
    table { border-collapse: collapse; width: 100%; margin: 1mm 0 2mm; table-layout: fixed; }
    th, td { border: 0.5pt solid #000; padding: 0.8mm 1.5mm; text-align: left; vertical-align: top;
      overflow-wrap: anywhere; }
    thead th { background: #e6e6e6; }
    thead { display: table-header-group; }
    tr { page-break-inside: avoid; break-inside: avoid; }
    tr.group th { background: #f5f5f5; }
    tr.total td { font-weight: bold; }
    table.fields th { width: 40%; font-weight: normal; font-size: 7.5pt; background: #f2f2f2; }
    table.fields.paired th { width: 20%; }
    .num { text-align: right; }
    .page { page-break-before: always; break-before: page; }
    svg.bars { display: block; max-width: 100%; height: auto; font-size: 12px; page-break-inside: avoid;
      break-inside: avoid; }
    svg.bars text { fill: #000; font-family: inherit; }
    svg.bars rect { fill: #9e9e9e; stroke: #000; stroke-width: 1; }
    figure.qr { margin: 2mm 0; } figure.qr figcaption { font-size: 7pt; }
    .res, .st { font-weight: bold; white-space: nowrap; }
    .res-fail_dangerous, .res-fail, .st-do_not_use, .st-overdue { color: #b00000; }
    .res-defect_to_be_remedied, .st-remedy_by { color: #9a4a00; }
    .st-quarantined { color: #6a1b9a; }
    .st-due_soon { color: #7a5d00; }
    .st-untested { color: #444; font-style: italic; }
    .st-ok, .res-pass { color: #1b5e20; }
    .st-ok, .st-withdrawn { font-weight: normal; }
    .st-withdrawn { color: #555; text-decoration: line-through; }
    footer.document { display: none; }
    @media screen { body { padding: 10mm; } .page { border-top: 1pt dashed #999; margin-top: 10mm; }
      footer.document { display: block; margin-top: 4mm; font-size: 7pt; color: #333; } }

    """
}

/// Text handed on in pieces of about 64 KB as it is made; the first error stops the writing and is thrown at the
/// end.
final class TextChunks {
    private var buffer = ""
    private let write: (String) throws -> Void
    private var failure: Error?

    init(_ write: @escaping (String) throws -> Void) {
        self.write = write
        buffer.reserveCapacity(1 << 17)
    }

    static func += (sink: TextChunks, text: String) {
        sink.buffer += text
        if sink.buffer.utf8.count >= 1 << 16 { sink.flush() }
    }

    private func flush() {
        guard failure == nil, !buffer.isEmpty else { buffer = ""; return }
        do { try write(buffer) } catch { failure = error }
        buffer.removeAll(keepingCapacity: true)
    }

    func finish() throws {
        flush()
        if let failure { throw failure }
    }
}
