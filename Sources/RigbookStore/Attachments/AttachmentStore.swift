import CCrypto
import Foundation
import RigbookCore

#if canImport(Glibc)
import Glibc
#endif

/// Photos and attachments: a file is copied at once into `Documents/Attachments/` under the
/// SHA-256 of its content (mode 0600, written atomically and durably), so a crash keeps it and the same photo
/// attached twice is one file. Only images and PDFs of at most 20 MB are taken; anything else is refused with a
/// sentence. Files no draft or record refers to are removed on discard and, at start, once older than an hour:
/// never while a draft or a record refers to them.
public struct AttachmentStore: Sendable {
    public let folder: String

    public init(home: DataHome) { folder = home.documents + "/Attachments" }
    public init(folder: String) { self.folder = folder }

    /// The file's place in the folder. A name that is not a SHA-256 (64 hexadecimal digits, as a tampered
    /// record might hold: `../../x`) names a file that cannot be there, never one outside the folder.
    public func path(of attachment: Attachment) -> String {
        folder + "/" + (AttachmentStore.isHashName(attachment.sha256) ? attachment.sha256 : "not-a-sha256")
    }

    /// Why a file cannot be attached, as the sentence the form shows.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case notFound(String)
        case notAFile(String)
        case folder(String)
        case tooLarge(String, Int64)
        case notImageOrPDF(String)
        case unreadable(String, String)

        public var description: String {
            switch self {
            case .notFound(let name): "There is no file \(name)."
            case .notAFile(let name):
                "\(name) is not a regular file (a pipe, device or socket): only files are attached."
            case .folder(let name): "\(name) is a folder: type the name of a file in it (Tab lists them)."
            case .tooLarge(let name, let size):
                "\(name) \(Attachment.tooLargeText(size))."
            case .notImageOrPDF(let name):
                "\(name) is not an image (JPEG, PNG, GIF, WebP, HEIC, TIFF) or a PDF: "
                    + "only photos and PDFs are attached."
            case .unreadable(let name, let reason): "\(name) cannot be read: \(reason)."
            }
        }
    }

    /// What the first bytes of a file say it is: an image or a PDF, or nil.
    public static func kind(of header: [UInt8]) -> String? {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            header.count >= offset + bytes.count && Array(header[offset..<offset + bytes.count]) == bytes
        }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("ftyp".utf8), at: 4),
           ["heic", "heix", "mif1", "msf1", "avif"].contains(where: { starts(Array($0.utf8), at: 8) }) {
            return "image/heic"
        }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
        if starts(Array("%PDF-".utf8)) { return "application/pdf" }
        return nil
    }

    /// Copies the file at `source` in (or finds it there already) and returns what the draft and the record
    /// keep: hash, name, size. The name is the file's last path component, shown only.
    public func attach(_ source: String) throws(Refusal) -> Attachment {
        // Shown in the form and written into exports: no control character may steer a terminal or split a line.
        let name = String(String.UnicodeScalarView((source as NSString).lastPathComponent.unicodeScalars.map {
            $0.properties.generalCategory == .control ? "?" : $0
        }))
        var info = stat()
        guard stat(source, &info) == 0 else {
            if errno == ENOENT { throw .notFound(source) }
            throw .unreadable(name, String(cString: strerror(errno)))
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw .folder(source) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(source) }
        let size = Int64(info.st_size)
        if size > Attachment.maxSize { throw .tooLarge(name, size) }
        // Opened without blocking and checked again on the descriptor: a FIFO swapped in after the stat above
        // must not hang the program, nor a file grown meanwhile be read past the limit.
        let fd = open(source, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(name, String(cString: strerror(errno))) }
        defer { close(fd) }
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(source) }
        var data = Data(count: Int(Attachment.maxSize) + 1)
        var count = 0
        while count < data.count {
            let got = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw .unreadable(name, String(cString: strerror(errno))) }
            if got == 0 { break }
            count += got
        }
        if count > Int(Attachment.maxSize) { throw .tooLarge(name, Int64(count)) }
        data = data.prefix(count)
        guard Self.kind(of: Array(data.prefix(16))) != nil else { throw .notImageOrPDF(name) }
        let digest: String
        do { digest = try HashChain.sha256(data) } catch { throw .unreadable(name, "\(error)") }
        let attachment = Attachment(sha256: digest, name: name, size: Int64(data.count))
        let target = path(of: attachment)
        if FileManager.default.fileExists(atPath: target) {
            // Already kept: touch it, so the hour's grace of start-up cleanup counts from now.
            utimes(target, nil)
            return attachment
        }
        do { try AtomicFile.write(data, to: target, permissions: .private) }
        catch { throw .unreadable(name, "it could not be copied into \(folder) (\(error))") }
        return attachment
    }

    /// Removes the files of a discarded draft that nothing else refers to.
    public func removeUnreferenced(_ attachments: [Attachment], stillReferenced: Set<String>) {
        removeUnreferenced(hashes: Set(attachments.map(\.sha256)), stillReferenced: stillReferenced)
    }

    /// Removes the files named by `hashes` that nothing in `stillReferenced` names. Returns how many went.
    @discardableResult
    public func removeUnreferenced(hashes: Set<String>, stillReferenced: Set<String>) -> Int {
        var removed = 0
        for hash in hashes.subtracting(stillReferenced) where AttachmentStore.isHashName(hash) {
            if unlink(folder + "/" + hash) == 0 { removed += 1 }
        }
        return removed
    }

    /// A file name the folder keeps: 64 lower-case hex digits (anything else there is not ours to remove).
    public static func isHashName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Whether the folder holds the file `attachment` names.
    public func contains(_ attachment: Attachment) -> Bool {
        var info = stat()
        return lstat(path(of: attachment), &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// At start: removes files no draft or record refers to and older than `grace` (an hour), so a file
    /// copied in a moment before its draft was written is never swept. Returns how many were removed.
    @discardableResult
    public func sweep(referenced: Set<String>, now: Date = Date(), grace: TimeInterval = 3600) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        for name in names where !referenced.contains(name) && AttachmentStore.isHashName(name) {
            let path = folder + "/" + name
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                  now.timeIntervalSince(modified) > grace else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }
}
