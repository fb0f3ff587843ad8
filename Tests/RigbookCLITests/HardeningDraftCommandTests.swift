import Foundation
import Testing
import RigbookCore
import RigbookStore

/// Drafts on the command line: `drafts list` cuts ids to fit its table, so `drafts discard`
/// takes any unique beginning of one (the cut id as printed included); `--format json` prints them whole.
extension RigbookCLITests {
    @Suite("Hardening: drafts") struct HardeningDrafts {
        /// A home with `count` assets, each with a draft; their draft ids.
        static func homeWithDrafts(_ dir: TempDir, count: Int) throws -> (home: String, ids: [String]) {
            let home = dir.sub("home")
            for index in 0..<count {
                let added = runRigbookResult(["asset", "add", "--tag", "SH-\(index)", "--name", "shackle",
                                              "--type", "shackle", "--wll", "500"], home: home)
                try #require(added.status == 0, "\(added)")
            }
            let store = DraftStore(home: DataHome(root: home))
            let blank = InspectionValues.blank(inspectorName: "Ann", certificationNumber: "C-1",
                                               today: try #require(CalendarDate(iso: fixedToday)))
            var ids: [String] = []
            for asset in listAssets(home: home) {
                let uuid = try #require(string(asset, "uuid").flatMap(UUID.init(uuidString:)))
                let draft = DraftFile(draftID: DraftIdentity.draftID(assetUUID: uuid),
                                      sessionID: DraftIdentity.sessionID(assetUUID: uuid),
                                      assetUUID: uuid.uuidString.lowercased(), assetTag: string(asset, "tag") ?? "?",
                                      amends: nil, values: blank,
                                      createdAt: Timestamp.now(), updatedAt: Timestamp.now(), operatorName: "Ann",
                                      revision: 1)
                try store.write(draft)
                ids.append(draft.draftID)
            }
            return (home, ids.sorted())
        }

        static func draftExists(_ home: String, _ id: String) -> Bool {
            FileManager.default.fileExists(atPath: home + "/Documents/Drafts/" + id + ".json")
        }

        @Test("the id as the table prints it, cut, discards the draft")
        func discardByTheIDAsListed() throws {
            let dir = TempDir(); defer { dir.remove() }
            let (home, ids) = try Self.homeWithDrafts(dir, count: 2)
            let table = runRigbookResult(["drafts", "list"], home: home)
            try #require(table.status == 0, "\(table)")
            let row = try #require(table.stdout.split(separator: "\n").first { $0.contains("SH-1") })
            let printed = String(row.prefix { $0 != " " })
            let id = try #require(ids.first { $0.hasPrefix(printed.replacingOccurrences(of: "…", with: "")) })

            let discarded = runRigbookResult(["drafts", "discard", printed], home: home)
            #expect(discarded.status == 0, "\(discarded)")
            #expect(discarded.stdout == "Discarded draft \(id).\n")
            #expect(!Self.draftExists(home, id))
            #expect(ids.filter { $0 != id }.allSatisfy { Self.draftExists(home, $0) }, "another draft went too")
        }

        @Test("a short unique beginning of an id discards that draft")
        func discardByAShortPrefix() throws {
            let dir = TempDir(); defer { dir.remove() }
            let (home, ids) = try Self.homeWithDrafts(dir, count: 2)
            // The shortest beginning of the first id that the second does not share, and one character more.
            let shared = zip(ids[0], ids[1]).prefix { $0 == $1 }.count
            let prefix = String(ids[0].prefix(shared + 2))
            let discarded = runRigbookResult(["drafts", "discard", prefix], home: home)
            #expect(discarded.status == 0, "\(discarded)")
            #expect(!Self.draftExists(home, ids[0]))
            #expect(Self.draftExists(home, ids[1]))
        }

        @Test("an ambiguous beginning is refused with exit 1, naming every draft it matches; nothing is discarded")
        func ambiguousPrefixIsRefused() throws {
            let dir = TempDir(); defer { dir.remove() }
            let (home, ids) = try Self.homeWithDrafts(dir, count: 3)
            let refused = runRigbookResult(["drafts", "discard", "inspection-"], home: home)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderrIsOneLine, "\(refused)")
            for id in ids { #expect(refused.stderr.contains(id), "does not name \(id): \(refused.stderr)") }
            #expect(refused.stdout.isEmpty)
            #expect(ids.allSatisfy { Self.draftExists(home, $0) })
        }

        @Test("a beginning that matches no draft is refused with exit 1, and one that is no id at all with 64")
        func unknownPrefixIsRefused() throws {
            let dir = TempDir(); defer { dir.remove() }
            let (home, ids) = try Self.homeWithDrafts(dir, count: 1)
            // A hex digit no draft id starts its uuid with.
            let unused = try #require("0123456789abcdef".first { ids[0].dropFirst(11).first != $0 })
            let none = runRigbookResult(["drafts", "discard", "inspection-\(unused)"], home: home)
            #expect(none.status == 1, "\(none)")
            #expect(none.stderr.contains("no draft"), "\(none)")
            let bad = runRigbookResult(["drafts", "discard", "../register"], home: home)
            #expect(bad.status == 64, "\(bad)")
            let empty = runRigbookResult(["drafts", "discard", ""], home: home)
            #expect(empty.status == 64, "\(empty)")
            #expect(Self.draftExists(home, ids[0]))
        }

        @Test("--format json prints every id whole")
        func jsonPrintsWholeIDs() throws {
            let dir = TempDir(); defer { dir.remove() }
            let (home, ids) = try Self.homeWithDrafts(dir, count: 2)
            let listed = runRigbookResult(["drafts", "list", "--format", "json"], home: home)
            try #require(listed.status == 0, "\(listed)")
            let data = Data(listed.stdout.utf8)
            let drafts = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            #expect(drafts.compactMap { $0["draft_id"] as? String }.sorted() == ids)
        }
    }
}
