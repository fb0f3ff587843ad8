import CPangoCairo
import RigbookCore

/// Why a document could not be drawn.
public struct PDFError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
}

/// Draws a `PrintedDocument` as an A4 PDF with cairo's PDF surface, its text laid out and shaped by pango (DejaVu
/// Sans, and Noto Sans CJK for Chinese, Japanese and Korean through fontconfig's fallback), every font embedded as
/// a subset by cairo. Two passes: the first lays the document out without drawing and counts the pages, so each
/// page's footer can say "page N of M". The metadata dates are the document's own, so the same document gives the
/// same bytes.
public enum PDFRenderer {
    /// A4 in points, and the margins: 14 mm at the sides, 12 mm above, room for the footer below.
    static let pageWidth = 595.276, pageHeight = 841.89
    static let margin = 40.0, top = 30.0, footerHeight = 28.0

    public static func render(_ document: PrintedDocument) throws(PDFError) -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            try write(document.cover, content: { try document.write(to: $0) }, to: { bytes += $0 })
        } catch let error as PDFError {
            throw error
        } catch {
            throw PDFError(description: "\(error)")
        }
        // What cairo cannot write, qpdf adds: the files the document carries.
        let files = document.blocks.compactMap { block -> EmbeddedFiles.File? in
            guard case .embedded(let name, let json) = block else { return nil }
            return EmbeddedFiles.File(name: name, bytes: Array(json.utf8),
                                      description: "The record, its signature and the examiner's key",
                                      mediaType: "application/json")
        }
        return try EmbeddedFiles.embed(files, in: bytes)
    }

    /// A document made as it is written, page by page, its bytes handed to `output` as cairo writes them: nothing
    /// is held but the page being drawn. `content` writes the blocks, and is called twice (the first pass counts
    /// the pages), so it must write the same both times: run it on one snapshot of the register. Its errors, and
    /// `output`'s, are thrown as they are; the drawing's as `PDFError`.
    public static func write(_ cover: PrintedDocument.Cover, content: (any DocumentWriter) throws -> Void,
                             to output: @escaping ([UInt8]) throws -> Void) throws {
        let pages = try draw(cover, pageCount: nil, content: content, to: { _ in })
        _ = try draw(cover, pageCount: pages, content: content, to: output)
    }

    private static func draw(_ cover: PrintedDocument.Cover, pageCount: Int?,
                             content: (any DocumentWriter) throws -> Void,
                             to output: @escaping ([UInt8]) throws -> Void) throws -> Int {
        var pages = 0
        try withPDF(title: cover.title, author: cover.author, created: cover.created, modified: cover.modified,
                    to: output) { context in
            let pager = Pager(Typesetter(context), footer: cover.footer, pageCount: pageCount)
            do {
                try content(pager)
            } catch {
                // The drawing's own error, typed; the content's (a register that could not be read) as it is.
                throw pager.failure ?? error
            }
            try pager.finish()
            returnFreedMemory()
            pages = pager.page
        }
        return pages
    }

    /// What the content freed, handed back to the system once its pages are drawn. glibc keeps freed memory for
    /// the program's next allocations, and after the first pass of a report of 1,000,000 assets it kept 14 MB that
    /// the second pass's keys did not reuse; and finishing the surface, cairo reads the whole CFF table of a CJK
    /// font (15 MB) again to subset it.
    private static func returnFreedMemory() {
        #if canImport(Glibc)
        malloc_trim(0)
        #endif
    }

    /// An A4 PDF drawn by `draw` (its pages shown by it), with its metadata; the bytes cairo wrote, in memory.
    static func withPDF(title: String, author: String, created: String, modified: String? = nil,
                        _ draw: (OpaquePointer) throws(PDFError) -> Void) throws(PDFError) -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            try withPDF(title: title, author: author, created: created, modified: modified, to: { bytes += $0 }) {
                (context: OpaquePointer) throws in try draw(context)
            }
        } catch let error as PDFError {
            throw error
        } catch {
            throw PDFError(description: "\(error)")
        }
        return bytes
    }

    /// The PDF surface, its bytes to `output` as cairo writes them. An error of `output` stops cairo, and is thrown
    /// once the surface is finished.
    private static func withPDF(title: String, author: String, created: String, modified: String?,
                                to output: @escaping ([UInt8]) throws -> Void,
                                _ draw: (OpaquePointer) throws -> Void) throws {
        let sink = ByteSink(output)
        let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
            return sink.take(UnsafeBufferPointer(start: data, count: Int(length)))
                ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
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
        sink.flush()
        if let failure = sink.failure { throw failure }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            let reason = String(cString: cairo_status_to_string(status))
            throw PDFError(description: "cairo could not write the PDF: \(reason)")
        }
    }
}

/// Where cairo's bytes go: on, in pieces of about 64 KB, to the output; the output's first error is kept.
private final class ByteSink {
    private let output: ([UInt8]) throws -> Void
    private var buffer: [UInt8] = []
    private(set) var failure: Error?

    init(_ output: @escaping ([UInt8]) throws -> Void) {
        self.output = output
    }

    func take(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard failure == nil else { return false }
        buffer.append(contentsOf: bytes)
        guard buffer.count >= 1 << 16 else { return true }
        return flush()
    }

    @discardableResult
    func flush() -> Bool {
        guard failure == nil, !buffer.isEmpty else { return failure == nil }
        do { try output(buffer) } catch { failure = error }
        buffer.removeAll(keepingCapacity: true)
        return failure == nil
    }
}
