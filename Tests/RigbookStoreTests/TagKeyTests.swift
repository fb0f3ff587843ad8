import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// The register compares tags by their folded key (NFC + full Unicode case folding).
@Suite("Register: tags compared by their folded key")
struct TagKeyTests {
    @Test("a tag that folds to a registered one is refused",
          arguments: [("SL-SS", "SL-ß"), ("SL-ß", "sl-ss"), ("ÉV-1", "év-1"), ("\u{C9}V-2", "E\u{301}V-2")])
    func foldedDuplicateRefused(_ first: String, _ second: String) throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try register.addAsset(makeAsset(tag: Tags.normalized(first)))
            #expect(throws: RegisterError.duplicateTag(Tags.normalized(second))) {
                try register.addAsset(makeAsset(tag: Tags.normalized(second)))
            }
            #expect(try register.assetCount() == 1)
        }
    }

    @Test("the schema itself refuses a second tag with the same key, whoever inserts it")
    func schemaRefusesFoldedDuplicate() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try register.addAsset(makeAsset(tag: "SL-SS"))
            var other = makeAsset(tag: "SL-ß")
            other.uuid = UUID()
            #expect(throws: DatabaseError.self) {
                try register.insertAsset(try register.db.prepare(AssetColumns.insertSQL), other, summary: .empty)
            }
            #expect(try register.assetCount() == 1)
        }
    }

    @Test("lookups by tag fold the same way", arguments: ["SL-ß", "sl-ss", "Sl-Ss", "SL-ẞ", "SL-SS"])
    func lookupFolds(_ typed: String) throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try register.addAsset(makeAsset(tag: "SL-SS"))
            #expect(try register.asset(tag: typed)?.asset.tag == "SL-SS")
            // A decomposed spelling of a registered tag finds it too.
            try register.addAsset(makeAsset(tag: "\u{C9}V-1"))
            #expect(try register.asset(tag: "e\u{301}v-1")?.asset.tag == "\u{C9}V-1")
        }
    }

    @Test("a tag with a right-to-left override finds nothing and cannot be added")
    func bidiOverrideNeverMatches() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try register.addAsset(makeAsset(tag: "EV-1100"))
            #expect(try register.asset(tag: "EV-\u{202E}0011") == nil)
            #expect(throws: RegisterError.self) { try register.addAsset(makeAsset(tag: "EV-\u{202E}0011")) }
            #expect(try register.assetCount() == 1)
        }
    }
}
