import CPangoCairo
import RigbookCore

/// Why a document could not be drawn.
public struct PDFError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
}

/// Draws a `PrintedDocument` as an A4 PDF with cairo's PDF surface, its text laid out and shaped by pango (DejaVu
/// Sans, and Noto Sans CJK for Chinese, Japanese and Korean through fontconfig's fallback), every font embedded as
/// a subset by cairo. Two passes: the first counts the pages, so each page's footer can say "page N of M".
/// The metadata dates are the document's own, so the same document gives the same bytes.
public enum PDFRenderer {
    /// A4 in points, and the margins: 14 mm at the sides, 12 mm above, room for the footer below.
    static let pageWidth = 595.276, pageHeight = 841.89
    static let margin = 40.0, top = 30.0, footerHeight = 28.0

    public static func render(_ document: PrintedDocument) throws(PDFError) -> [UInt8] {
        let counted = try draw(document, pageCount: nil)
        return try draw(document, pageCount: counted.pages).bytes
    }

    private static func draw(_ document: PrintedDocument, pageCount: Int?) throws(PDFError)
        -> (bytes: [UInt8], pages: Int) {
        var pages = 0
        let bytes = try withPDF(title: document.title, author: document.author, created: document.created,
                                modified: document.modified) { (context: OpaquePointer) throws(PDFError) in
            var pager = Pager(context: context, footer: document.footer, pageCount: pageCount)
            for (index, block) in document.blocks.enumerated() {
                try pager.draw(block, before: document.blocks.dropFirst(index + 1).first)
            }
            pager.finishPage()
            pages = pager.page
        }
        return (bytes, pages)
    }

    /// An A4 PDF that `draw` draws (its pages shown by it), with its metadata; the bytes cairo wrote.
    static func withPDF(title: String, author: String, created: String, modified: String? = nil,
                        _ draw: (OpaquePointer) throws(PDFError) -> Void) throws(PDFError) -> [UInt8] {
        let sink = ByteSink()
        let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().bytes
                .append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque(), pageWidth, pageHeight)
        defer { cairo_surface_destroy(surface) }
        for (key, value) in [(CAIRO_PDF_METADATA_TITLE, title), (CAIRO_PDF_METADATA_AUTHOR, author),
                             (CAIRO_PDF_METADATA_CREATOR, "Rigbook \(RigbookVersion.current)"),
                             (CAIRO_PDF_METADATA_CREATE_DATE, created),
                             (CAIRO_PDF_METADATA_MOD_DATE, modified ?? created)] where !value.isEmpty {
            cairo_pdf_surface_set_metadata(surface, key, value)
        }
        guard let context = cairo_create(surface) else { throw PDFError(description: "cairo made no context") }
        defer { cairo_destroy(context) }
        try draw(context)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            let reason = String(cString: cairo_status_to_string(status))
            throw PDFError(description: "cairo could not write the PDF: \(reason)")
        }
        return sink.bytes
    }
}

/// The bytes cairo writes, gathered in memory.
private final class ByteSink {
    var bytes: [UInt8] = []
}
