import Foundation
import Testing
import RigbookCore
import RigbookStore

/// `rigbook drafts` treats every kind of draft the same: an inspection's, a test's and a batch's are all
/// listed (with their kind, in the table and in json), discarded by id and held back while open.
extension RigbookCLITests {
    @Suite("Drafts of every kind") struct DraftKinds {
        /// Two inspection drafts (SH-0, SH-1), a test draft and a batch draft of both assets; the new ids.
        static func homeWithEveryKind(_ dir: TempDir) throws -> (home: String, test: String, batch: String) {
            let (home, _) = try HardeningDrafts.homeWithDrafts(dir, count: 2)
            let store = DraftStore(home: DataHome(root: home))
            let assets = listAssets(home: home).compactMap { asset -> (UUID, String)? in
                guard let uuid = string(asset, "uuid").flatMap(UUID.init(uuidString:)),
                      let tag = string(asset, "tag") else { return nil }
                return (uuid, tag)
            }.sorted { $0.1 < $1.1 }
            try #require(assets.count == 2)
            let today = try #require(CalendarDate(iso: fixedToday))
            let test = DraftFile(draftID: DraftIdentity.testDraftID(assetUUID: assets[0].0),
                                 sessionID: DraftIdentity.testSessionID(assetUUID: assets[0].0),
                                 assetUUID: assets[0].0.uuidString.lowercased(), assetTag: assets[0].1, amends: nil,
                                 values: InspectionValues(), createdAt: Timestamp.now(), updatedAt: Timestamp.now(),
                                 operatorName: "Ann", revision: 1, focusedField: nil)
                .holding(TestValues(prefill: TestProfile(), today: today))
            try store.write(test)
            let batch = BatchDraftFile(visit: UUID(), assets: assets.map {
                BatchDraftFile.Member(assetUUID: $0.0.uuidString.lowercased(), assetTag: $0.1)
            }, values: .blank(inspectorName: "Ann", certificationNumber: "C-1", today: today),
               createdAt: Timestamp.now(), updatedAt: Timestamp.now(), operatorName: "Ann", revision: 1)
            try store.write(batch: batch)
            return (home, test.draftID, batch.draftID)
        }

        static func exists(_ home: String, _ id: String) -> Bool {
            FileManager.default.fileExists(atPath: home + "/Documents/Drafts/" + id + ".json")
        }

        @Test("drafts list shows the batch and the test draft, each with its kind, in the table and in json")
        func listShowsEveryKind() throws {
            let dir = TempDir(); defer { dir.remove() }
            let (home, test, batch) = try Self.homeWithEveryKind(dir)
            let table = runRigbookResult(["drafts", "list"], home: home)
            try #require(table.status == 0, "\(table)")
            let lines = table.stdout.split(separator: "\n")
            #expect(lines.count == 5, "\(table.stdout)")
            let batchRow = try #require(lines.first { $0.hasPrefix("batch-") }, "\(table.stdout)")
            #expect(batchRow.contains(" batch ") && batchRow.contains("SH-0 +1"), "\(batchRow)")
            let testRow = try #require(lines.first { $0.hasPrefix("test-") }, "\(table.stdout)")
            #expect(testRow.contains(" test ") && !testRow.contains("inspection"), "\(testRow)")

            let json = runRigbookResult(["drafts", "list", "--format", "json"], home: home)
            try #require(json.status == 0, "\(json)")
            let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(array.count == 4)
            let byID = Dictionary(uniqueKeysWithValues: array.compactMap { e in string(e, "draft_id").map { ($0, e) } })
            #expect(byID[batch].flatMap { string($0, "form_kind") } == "batch")
            #expect(byID[test].flatMap { string($0, "form_kind") } == "test")
            #expect(byID[batch]?.keys.contains("locked_by") == true)
        }

        @Test("drafts discard takes a batch or a test draft's id (or its beginning), and refuses one held open")
        func discardEveryKind() throws {
            let dir = TempDir(); defer { dir.remove() }
            let (home, test, batch) = try Self.homeWithEveryKind(dir)
            let store = DraftStore(home: DataHome(root: home))
            guard case .acquired(let lock) = store.lock(id: batch) else {
                Issue.record("could not take the batch draft's lock")
                return
            }
            let held = runRigbookResult(["drafts", "discard", batch], home: home)
            #expect(held.status == 1 && held.stderr.contains("open in a session"), "\(held)")
            #expect(Self.exists(home, batch))
            lock.release()

            let discarded = runRigbookResult(["drafts", "discard", String(batch.prefix(10))], home: home)
            #expect(discarded.status == 0, "\(discarded)")
            #expect(discarded.stdout == "Discarded draft \(batch).\n")
            #expect(!Self.exists(home, batch))
            let tested = runRigbookResult(["drafts", "discard", test], home: home)
            #expect(tested.status == 0 && !Self.exists(home, test), "\(tested)")
            let left = runRigbookResult(["drafts", "list", "--format", "json"], home: home)
            #expect(left.stdout.components(separatedBy: "\"draft_id\"").count == 3, "\(left)")
        }
    }
}
