import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// Attachments kept by SHA-256, 0600; only images and PDFs up to 20 MB; never orphaned.
@Suite("Attachments")
struct AttachmentStoreTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    @Test("a photo is copied in under its SHA-256 with mode 0600; the same photo twice is one file")
    func copiesByHash() throws {
        try withTemporaryDirectory { folder in
            let store = AttachmentStore(folder: folder.path + "/Documents/Attachments")
            let source = folder.path + "/plug.png"
            try Data(Self.png).write(to: URL(fileURLWithPath: source))
            let attachment = try store.attach(source)
            #expect(attachment.name == "plug.png" && attachment.size == Int64(Self.png.count))
            #expect(attachment.sha256 == (try HashChain.sha256(Data(Self.png))))
            #expect(attachment.sha256.count == 64)
            let attributes = try FileManager.default.attributesOfItem(atPath: store.path(of: attachment))
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect(try store.attach(source) == attachment)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.folder).count == 1)
        }
    }

    @Test("not an image or PDF, over 20 MB, missing or a folder: refused with a sentence")
    func refusals() throws {
        try withTemporaryDirectory { folder in
            let store = AttachmentStore(folder: folder.path + "/Attachments")
            let text = folder.path + "/notes.txt"
            try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
            #expect(throws: AttachmentStore.Refusal.notImageOrPDF("notes.txt")) { try store.attach(text) }
            let big = folder.path + "/big.pdf"
            FileManager.default.createFile(atPath: big, contents: Data("%PDF-1.7".utf8))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
            try handle.truncate(atOffset: UInt64(RigbookCore.Attachment.maxSize + 1))
            try handle.close()
            #expect(throws: AttachmentStore.Refusal.tooLarge("big.pdf", RigbookCore.Attachment.maxSize + 1)) {
                try store.attach(big)
            }
            #expect(throws: AttachmentStore.Refusal.notFound(folder.path + "/nope.jpg")) {
                try store.attach(folder.path + "/nope.jpg")
            }
            #expect(throws: AttachmentStore.Refusal.folder(folder.path)) { try store.attach(folder.path) }
            #expect(AttachmentStore.Refusal.notImageOrPDF("a.txt").description
                        .hasSuffix("only photos and PDFs are attached."))
        }
    }

    /// Hostile testing: a file a byte over the limit was "20.0 MB; attachments are at most 20 MB".
    @Test("the size refusal shows a size that visibly differs from the limit",
          arguments: [(RigbookCore.Attachment.maxSize + 1, "big.pdf is 20,971,521 bytes; attachments are at most 20 MB "
                       + "(20,971,520 bytes)."),
                      (RigbookCore.Attachment.maxSize + 40_000, "big.pdf is 21,011,520 bytes"),
                      (25 * 1_048_576, "big.pdf is 25.0 MB; attachments are at most 20 MB.")] as [(Int64, String)])
    func tooLargeSaysHowMuch(_ size: Int64, _ expected: String) {
        let text = AttachmentStore.Refusal.tooLarge("big.pdf", size).description
        #expect(text.hasPrefix(expected) || text == expected, "\(text)")
    }

    @Test("file kinds by their first bytes",
          arguments: [
            ([0xFF, 0xD8, 0xFF, 0xE0], "image/jpeg"),
            (png, "image/png"),
            (Array("GIF89a".utf8), "image/gif"),
            (Array("%PDF-1.4".utf8), "application/pdf"),
            (Array("RIFF0000WEBP".utf8), "image/webp"),
            (Array("hello".utf8), nil),
          ] as [([UInt8], String?)])
    func kinds(_ row: ([UInt8], String?)) {
        #expect(AttachmentStore.kind(of: row.0) == row.1)
    }

    @Test("start-up cleanup: only files nothing refers to and older than an hour")
    func sweep() throws {
        try withTemporaryDirectory { folder in
            let store = AttachmentStore(folder: folder.path + "/Attachments")
            var attachments: [RigbookCore.Attachment] = []
            for n in 0..<3 {
                let source = folder.path + "/p\(n).png"
                try Data(Self.png + [UInt8(n)]).write(to: URL(fileURLWithPath: source))
                attachments.append(try store.attach(source))
            }
            let later = Date().addingTimeInterval(2 * 3600)
            #expect(store.sweep(referenced: [], now: Date()) == 0, "younger than an hour: kept")
            #expect(store.sweep(referenced: [attachments[0].sha256], now: later) == 2)
            #expect(FileManager.default.fileExists(atPath: store.path(of: attachments[0])))
            store.removeUnreferenced([attachments[0]], stillReferenced: [attachments[0].sha256])
            #expect(FileManager.default.fileExists(atPath: store.path(of: attachments[0])), "still referred to")
            store.removeUnreferenced([attachments[0]], stillReferenced: [])
            #expect(!FileManager.default.fileExists(atPath: store.path(of: attachments[0])))
        }
    }
}
