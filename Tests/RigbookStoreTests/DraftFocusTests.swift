import Foundation
import Testing
import RigbookCore
import RigbookStore

/// A draft remembers which field had the focus when it was written (`focused_field`);
/// drafts written before that key existed still read.
extension DraftStoreTests {
    @Test("The focused field is written as focused_field and reads back")
    func focusedFieldRoundTrip() throws {
        let t = TempHome()
        defer { t.remove() }
        var draft = makeDraft(assetUUID: UUID())
        draft.focusedField = FormField.notes.key
        try t.store.write(draft)
        let data = try #require(fileBytes(t.store.path(for: draft.draftID)))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((object["focused_field"] as? String) == "notes")
        let back = try #require(try t.store.read(id: draft.draftID))
        #expect(back == draft)
        #expect(back.focusedField == "notes")
    }

    @Test("A draft written before focused_field existed is read, never set aside")
    func draftWithoutFocusedFieldIsRead() throws {
        let t = TempHome()
        defer { t.remove() }
        // The file as the previous build wrote it: the same keys, without focused_field.
        let draft = makeDraft(assetUUID: UUID())
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(draft)) as? [String: Any])
        #expect(object.removeValue(forKey: "focused_field") != nil)
        try DataHome.makePrivateDirectory(t.store.folder)
        let json = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try #require(writeRaw(json, to: t.store.path(for: draft.draftID)))

        let back = try #require(try t.store.read(id: draft.draftID))
        #expect(back.focusedField == nil)
        #expect(back.values == draft.values)
        let (entries, setAside) = t.store.entries()
        #expect(setAside.isEmpty)
        #expect(entries.map(\.draft.focusedField) == [nil])
        #expect(t.store.ids() == [draft.draftID])
    }

    @Test("A focused_field this build does not know is kept as written; the draft still reads")
    func unknownFocusedFieldIsRead() throws {
        let t = TempHome()
        defer { t.remove() }
        var draft = makeDraft(assetUUID: UUID())
        draft.focusedField = "a_field_from_a_newer_build"
        try t.store.write(draft)
        #expect(try t.store.read(id: draft.draftID)?.focusedField == "a_field_from_a_newer_build")
    }
}
