import Foundation
import Testing
import RigbookCore
@testable import RigbookStore
import RigbookTestSupport

/// Drafts gain keys without a new schema version (docs/FORMATS.md): a draft a newer build wrote, with keys this
/// build does not know at its top level and under `values`, is read, and every rewrite — the form's debounced write,
/// the keystroke journal and its folding at start — writes those keys back exactly as they were.
extension DraftStoreTests {
    /// Whether the file at `path` holds both of the newer build's keys, each with its value as written.
    static func holdsNewerKeys(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try NewerDraftKeys.missing(at: path).isEmpty, "newer keys lost or changed:\n\(text)",
                sourceLocation: sourceLocation)
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "not JSON:\n\(text)",
                sourceLocation: sourceLocation)
    }

    /// An inspection draft of revision `revision`, on disk as a newer build wrote it (`NewerDraftKeys`): its path,
    /// and the draft as this build reads it back.
    func newerDraft(_ temp: TempHome, revision: Int) throws -> (path: String, read: DraftFile) {
        let written = makeDraft(assetUUID: UUID(), revision: revision)
        try temp.store.write(written)
        let path = temp.store.path(for: written.draftID)
        try NewerDraftKeys.add(at: path)
        let read = try #require(try temp.store.read(id: written.draftID))
        #expect(read.values == written.values, "what this build knows reads as before")
        return (path, read)
    }

    @Test("a newer draft's unknown keys, at the top level and under values, survive its recovery and rewrite")
    func unknownKeysSurviveARewrite() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let (path, newer) = try newerDraft(temp, revision: 3)
        // And a value laid out over several lines, as a newer build's pretty printer writes an array.
        let multiLine = "\"wear_mm\" : [\n      1.10,\n      \"2.0\"\n    ]"
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "\"values\" : {\n", with: "\"values\" : {\n    " + multiLine + ",\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))

        var recovered = try #require(try temp.store.read(id: newer.draftID))
        recovered.values.notes = "typed after recovery"
        recovered.revision += 1
        try temp.store.write(recovered)
        try Self.holdsNewerKeys(path)
        #expect(try temp.store.read(id: recovered.draftID)?.values.notes == "typed after recovery")

        // And again: a second rewrite neither loses them nor writes them twice.
        recovered.revision += 1
        try temp.store.write(recovered)
        try Self.holdsNewerKeys(path)
        let rewritten = try String(contentsOfFile: path, encoding: .utf8)
        #expect(rewritten.contains(multiLine), "\(rewritten)")
        #expect(rewritten.components(separatedBy: "\"torque_nm\"").count == 2, "\(rewritten)")
    }

    @Test("a newer draft's unknown keys survive its keystroke journal: replayed, and folded into the file at start")
    func unknownKeysSurviveTheJournal() throws {
        let temp = TempHome()
        defer { temp.remove() }
        var (path, recovered) = try newerDraft(temp, revision: 3)
        let id = recovered.draftID

        // A whole line (the draft as the form now holds it), then a typed edit over it; then a kill -9.
        let journal = try temp.store.openJournal(id: id)
        recovered.values.defectDescription = "whole line"
        try journal.append(recovered)
        try journal.appendEdit(field: "notes", text: "typed edit", sessionID: recovered.sessionID, revision: 3)
        journal.close()
        let lines = try String(contentsOfFile: temp.store.journalPath(for: id), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("\0") }
        #expect(lines.first?.contains(#""torque_nm":12.50"#) == true, "the whole line lost a key: \(lines)")
        #expect(lines.first?.contains(#"{"readings": [1, 2.50, -0.0, 1e2], "by": "Zo\u00eb", "ok": null}"#) == true,
                "the whole line lost a key: \(lines)")

        let replayed = try #require(try temp.store.read(id: id))
        #expect(replayed.values.notes == "typed edit" && replayed.values.defectDescription == "whole line")

        #expect(temp.store.foldJournal(id: id))
        try Self.holdsNewerKeys(path)
        #expect(try temp.store.read(id: id)?.values.notes == "typed edit")
    }

    @Test("a newer build's journal with no draft file beside it: folded at start, its unknown keys kept")
    func unknownKeysOfAJournalAlone() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let (path, newer) = try newerDraft(temp, revision: 0)
        try FileManager.default.removeItem(atPath: path)

        let journal = try temp.store.openJournal(id: newer.draftID)
        try journal.append(newer)
        journal.close()
        #expect(temp.store.foldJournal(id: newer.draftID))
        try Self.holdsNewerKeys(path)
    }

    @Test("every kind of draft keeps a newer build's keys: the asset editor's, the test form's, the batch's")
    func unknownKeysOfEveryKind() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let asset = makeAsset(tag: "SL-0042")
        let assetDraft = DraftFile(draftID: DraftIdentity.assetDraftID(assetUUID: asset.uuid),
                                   sessionID: DraftIdentity.assetSessionID(assetUUID: asset.uuid),
                                   assetUUID: asset.uuid.uuidString.lowercased(), assetTag: asset.tag, amends: nil,
                                   values: InspectionValues(), createdAt: Timestamp.now(),
                                   updatedAt: Timestamp.now(), operatorName: "Ann Smith", revision: 1,
                                   focusedField: "name").holding(AssetDraft(asset: asset))
        let electrical = DraftStoreTests.electricalAsset()
        let testDraft = DraftStoreTests.testDraft(electrical,
                                                  session: DraftIdentity.testSessionID(assetUUID: electrical.uuid))
        for draft in [assetDraft, testDraft] {
            try temp.store.write(draft)
            try NewerDraftKeys.add(at: temp.store.path(for: draft.draftID))
            var recovered = try #require(try temp.store.read(id: draft.draftID))
            #expect(recovered.formKind == draft.formKind)
            recovered.revision += 1
            try temp.store.write(recovered)
            try Self.holdsNewerKeys(temp.store.path(for: draft.draftID))
        }

        let batch = BatchDraftFile(visit: UUID(), assets: [.init(assetUUID: asset.uuid.uuidString.lowercased(),
                                                                  assetTag: asset.tag)],
                                   values: richValues(), createdAt: Timestamp.now(), updatedAt: Timestamp.now(),
                                   operatorName: "Ann Smith", revision: 1)
        try temp.store.write(batch: batch)
        try NewerDraftKeys.add(at: temp.store.path(for: batch.draftID))
        var recovered = try #require(try temp.store.readBatch(id: batch.draftID))
        #expect(recovered.values == batch.values)
        recovered.revision += 1
        try temp.store.write(batch: recovered)
        try Self.holdsNewerKeys(temp.store.path(for: batch.draftID))
    }
}
