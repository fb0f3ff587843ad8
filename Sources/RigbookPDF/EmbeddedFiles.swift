import Foundation
import CQPDF

/// Files carried inside a PDF (what a reader lists as attachments: a certificate's signed record, for a client to
/// check), added to cairo's output by qpdf, since cairo cannot write them. The PDF is read and written again whole
/// by qpdf: its pages are kept as they are, the files go into the document's `/EmbeddedFiles` name tree, and the
/// file's ID is made from its content, so the same PDF and the same files give the same bytes.
public enum EmbeddedFiles {
    public struct File: Sendable, Hashable {
        public var name: String
        public var bytes: [UInt8]
        /// What the file is, as a reader shows it beside the name.
        public var description: String
        /// Its media type (`application/json`).
        public var mediaType: String

        public init(name: String, bytes: [UInt8], description: String = "", mediaType: String = "") {
            self.name = name
            self.bytes = bytes
            self.description = description
            self.mediaType = mediaType
        }
    }

    /// `pdf` with `files` embedded beside any it holds already; a name it holds already is refused.
    public static func embed(_ files: [File], in pdf: [UInt8]) throws(PDFError) -> [UInt8] {
        guard !files.isEmpty else { return pdf }
        guard let qpdf = qpdf_init() else { throw PDFError(description: "qpdf could not start") }
        var handle: qpdf_data? = qpdf
        defer { qpdf_cleanup(&handle) }
        qpdf_silence_errors(qpdf)
        try read(pdf, into: qpdf)

        let names = dictionary(qpdf, in: qpdf_get_root(qpdf), key: "/Names")
        let tree = dictionary(qpdf, in: names, key: "/EmbeddedFiles")
        if !qpdf_oh_is_array(qpdf, qpdf_oh_get_key(qpdf, tree, "/Names")).isTrue {
            qpdf_oh_replace_key(qpdf, tree, "/Names", qpdf_oh_new_array(qpdf))
        }
        let entries = qpdf_oh_get_key(qpdf, tree, "/Names")
        var held: [String] = []
        for index in stride(from: 0, to: Int(qpdf_oh_get_array_n_items(qpdf, entries)), by: 2) {
            held.append(String(cString: qpdf_oh_get_utf8_value(qpdf, qpdf_oh_get_array_item(qpdf, entries,
                                                                                               Int32(index)))))
        }
        for file in files {
            guard !held.contains(file.name) else {
                throw PDFError(description: "the PDF already carries a file named \(file.name)")
            }
            // A name tree's names are in order: the file goes where its name sorts.
            let position = held.firstIndex { $0 > file.name } ?? held.count
            held.insert(file.name, at: position)
            qpdf_oh_insert_item(qpdf, entries, Int32(2 * position), qpdf_oh_new_unicode_string(qpdf, file.name))
            qpdf_oh_insert_item(qpdf, entries, Int32(2 * position + 1), specification(qpdf, file))
        }
        try check(qpdf, qpdf_has_error(qpdf).isTrue ? QPDF_ERRORS : QPDF_SUCCESS, doing: "add the files")

        try check(qpdf, qpdf_init_write_memory(qpdf), doing: "write the PDF")
        qpdf_set_deterministic_ID(qpdf, QPDF_TRUE)
        try check(qpdf, qpdf_write(qpdf), doing: "write the PDF")
        guard let buffer = qpdf_get_buffer(qpdf) else { throw PDFError(description: "qpdf wrote nothing") }
        return Array(UnsafeBufferPointer(start: buffer, count: qpdf_get_buffer_length(qpdf)))
    }

    /// The files `pdf` carries, by name, their bytes as they were embedded.
    public static func files(in pdf: [UInt8]) throws(PDFError) -> [File] {
        guard let qpdf = qpdf_init() else { throw PDFError(description: "qpdf could not start") }
        var handle: qpdf_data? = qpdf
        defer { qpdf_cleanup(&handle) }
        qpdf_silence_errors(qpdf)
        try read(pdf, into: qpdf)
        let names = qpdf_oh_get_key(qpdf, qpdf_oh_get_key(qpdf, qpdf_get_root(qpdf), "/Names"), "/EmbeddedFiles")
        let entries = qpdf_oh_get_key(qpdf, names, "/Names")
        guard qpdf_oh_is_array(qpdf, entries).isTrue else { return [] }
        var files: [File] = []
        for index in stride(from: 0, to: Int(qpdf_oh_get_array_n_items(qpdf, entries)) - 1, by: 2) {
            let nameObject = qpdf_oh_get_array_item(qpdf, entries, Int32(index))
            let name = String(cString: qpdf_oh_get_utf8_value(qpdf, nameObject))
            let specification = qpdf_oh_get_array_item(qpdf, entries, Int32(index + 1))
            let stream = qpdf_oh_get_key(qpdf, qpdf_oh_get_key(qpdf, specification, "/EF"), "/F")
            var filtered: QPDF_BOOL = QPDF_FALSE
            var buffer: UnsafeMutablePointer<UInt8>?
            var length = 0
            guard qpdf_oh_get_stream_data(qpdf, stream, qpdf_dl_generalized, &filtered, &buffer, &length)
                    & QPDF_ERRORS == 0, let buffer else { continue }
            defer { free(buffer) }
            let description = String(cString: qpdf_oh_get_utf8_value(qpdf, qpdf_oh_get_key(qpdf, specification,
                                                                                          "/Desc")))
            files.append(File(name: name, bytes: Array(UnsafeBufferPointer(start: buffer, count: length)),
                              description: description))
        }
        _ = qpdf_has_error(qpdf)
        return files
    }

    private static func read(_ pdf: [UInt8], into qpdf: qpdf_data) throws(PDFError) {
        // What qpdf would say about a damaged file goes into its error, not onto the terminal.
        qpdf_set_suppress_warnings(qpdf, QPDF_TRUE)
        let read = pdf.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    qpdf_read_memory(qpdf, "the PDF", $0, UInt64(buffer.count), nil)
                }
            } ?? QPDF_ERRORS
        }
        try check(qpdf, read, doing: "read the PDF")
    }

    /// The file specification of `file`: its name, description and the stream of its bytes.
    private static func specification(_ qpdf: qpdf_data, _ file: File) -> qpdf_oh {
        let stream = qpdf_oh_new_stream(qpdf)
        file.bytes.withUnsafeBufferPointer { buffer in
            qpdf_oh_replace_stream_data(qpdf, stream, buffer.baseAddress, buffer.count, qpdf_oh_new_null(qpdf),
                                        qpdf_oh_new_null(qpdf))
        }
        let streamDictionary = qpdf_oh_get_dict(qpdf, stream)
        qpdf_oh_replace_key(qpdf, streamDictionary, "/Type", qpdf_oh_new_name(qpdf, "/EmbeddedFile"))
        if !file.mediaType.isEmpty {
            // A media type is a PDF name: its "/" written as #2F.
            let name = "/" + file.mediaType.replacingOccurrences(of: "/", with: "#2F")
            qpdf_oh_replace_key(qpdf, streamDictionary, "/Subtype", qpdf_oh_new_name(qpdf, name))
        }
        let parameters = qpdf_oh_new_dictionary(qpdf)
        qpdf_oh_replace_key(qpdf, parameters, "/Size", qpdf_oh_new_integer(qpdf, Int64(file.bytes.count)))
        qpdf_oh_replace_key(qpdf, streamDictionary, "/Params", parameters)

        let embedded = qpdf_oh_new_dictionary(qpdf)
        qpdf_oh_replace_key(qpdf, embedded, "/F", stream)
        qpdf_oh_replace_key(qpdf, embedded, "/UF", stream)
        let specification = qpdf_oh_new_dictionary(qpdf)
        qpdf_oh_replace_key(qpdf, specification, "/Type", qpdf_oh_new_name(qpdf, "/Filespec"))
        qpdf_oh_replace_key(qpdf, specification, "/F", qpdf_oh_new_unicode_string(qpdf, file.name))
        qpdf_oh_replace_key(qpdf, specification, "/UF", qpdf_oh_new_unicode_string(qpdf, file.name))
        if !file.description.isEmpty {
            qpdf_oh_replace_key(qpdf, specification, "/Desc", qpdf_oh_new_unicode_string(qpdf, file.description))
        }
        qpdf_oh_replace_key(qpdf, specification, "/EF", embedded)
        return qpdf_make_indirect_object(qpdf, specification)
    }

    /// The dictionary at `key` of `parent`, made there when it has none.
    private static func dictionary(_ qpdf: qpdf_data, in parent: qpdf_oh, key: String) -> qpdf_oh {
        let found = qpdf_oh_get_key(qpdf, parent, key)
        if qpdf_oh_is_dictionary(qpdf, found).isTrue { return found }
        let made = qpdf_oh_new_dictionary(qpdf)
        qpdf_oh_replace_key(qpdf, parent, key, made)
        return made
    }

    private static func check(_ qpdf: qpdf_data, _ code: QPDF_ERROR_CODE, doing what: String) throws(PDFError) {
        guard code & QPDF_ERRORS != 0 || qpdf_has_error(qpdf).isTrue else { return }
        let reason = qpdf_get_error(qpdf).flatMap { qpdf_get_error_full_text(qpdf, $0) }.map { String(cString: $0) }
        throw PDFError(description: "qpdf could not \(what)" + (reason.map { ": \($0)" } ?? ""))
    }
}

private extension QPDF_BOOL {
    var isTrue: Bool { self != QPDF_FALSE }
}
