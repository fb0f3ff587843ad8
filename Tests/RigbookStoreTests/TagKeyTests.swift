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

    static let lookAlikes = [("\u{405}L-0042", "SL-0042"), ("\u{FF33}\u{FF2C}-0002", "SL-0002"),
                             ("SL-0042", "\u{405}L-0042"), ("\u{391}B-1", "ab-1")]

    @Test("a tag that looks like a registered one is refused when added, naming the one held", arguments: lookAlikes)
    func lookAlikeRefusedWhenAdded(_ typed: String, _ held: String) throws {
        try withRegister(holding: makeAsset(tag: held)) { register, _ in
            try register.addAsset(makeAsset(tag: "SL-9999"))
            #expect(throws: RegisterError.lookAlikeTag(typed, existing: held)) {
                try register.addAsset(makeAsset(tag: typed))
            }
            let refusal = RegisterError.lookAlikeTag(typed, existing: held).description
            #expect(refusal.hasPrefix("\(typed) looks like \(held), already in the register ("), "\(refusal)")
            #expect(try register.assetCount() == 2)
        }
    }

    @Test("an edit to a look-alike tag is refused; an edit that keeps its own tag, or takes its own look, is not")
    func lookAlikeRefusedWhenEdited() throws {
        try withRegister(holding: makeAsset(tag: "SL-0042")) { register, _ in
            let other = makeAsset(tag: "SL-0043")
            try register.addAsset(other)
            var renamed = other
            renamed.tag = "\u{405}L-0042"
            #expect(throws: RegisterError.lookAlikeTag("\u{405}L-0042", existing: "SL-0042")) {
                try register.change(assetUUID: other.uuid, to: renamed, reason: "retagged")
            }
            renamed.tag = "\u{405}L-0043"
            try register.change(assetUUID: other.uuid, to: renamed, reason: "its own tag, as it looks")
            #expect(try register.asset(uuid: other.uuid)?.asset.tag == "\u{405}L-0043")
        }
    }

    @Test("an import with a tag that looks like a registered one is refused on its row, naming the one held")
    func lookAlikeRefusedWhenImported() throws {
        try withRegister(holding: makeAsset(tag: "SL-0002")) { register, _ in
            let file = "tag,name,type,wll_kg\nSL-0001,a,web-sling,2000\n\u{FF33}\u{FF2C}-0002,b,web-sling,2000\n"
            let rows = try AssetImport.parse(file, today: testToday).get()
            let refusal = "line 3, tag: \u{FF33}\u{FF2C}-0002 looks like SL-0002, already in the register"
                + " (its \u{FF33} is U+FF33 FULLWIDTH LATIN CAPITAL LETTER S)"
            #expect(throws: RegisterError.importRefused([refusal])) {
                try register.importAssets(rows)
            }
            #expect(try register.assetCount() == 1)
        }
    }

    @Test("a merge keeps a look-alike tag typed on another replica, and its asset stays editable")
    func mergeKeepsLookAlikes() throws {
        try withTemporaryDirectory { folder in
            let office = try Register.open(path: folder.appendingPathComponent("office.sqlite").path)
            let laptop = try Register.open(path: folder.appendingPathComponent("laptop.sqlite").path)
            try office.addAsset(makeAsset(tag: "SL-0042"))
            let typedAway = makeAsset(tag: "\u{405}L-0042")
            try laptop.addAsset(typedAway)
            try office.merge(from: try Register.openForMerging(path: laptop.path))
            #expect(try office.rows().map(\.asset.tag).sorted() == ["SL-0042", "\u{405}L-0042"])
            var moved = typedAway
            moved.location = "Quay 2"
            try office.change(assetUUID: typedAway.uuid, to: moved, reason: "moved")
            #expect(try office.asset(uuid: typedAway.uuid)?.asset.location == "Quay 2")
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
