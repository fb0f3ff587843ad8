import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

/// The client ref (the owner's own plant number) in the register: NULL when none, an extension column of the
/// asset's hash, an asset field whose changes are kept, carried by merge and sync.
@Suite("The client ref in the register")
struct ClientRefStoreTests {
    private func asset(_ tag: String, clientRef: String = "") -> Asset {
        var asset = makeAsset(tag: tag)
        asset.clientRef = clientRef
        return asset
    }

    /// Two registers in `folder`; the first holds CR-1 with a client ref and CR-2 without one (returned).
    private func twoRegisters(_ folder: URL) throws -> (first: Register, second: Register, other: Asset) {
        let first = try Register.open(path: folder.appendingPathComponent("a/register.sqlite").path)
        let second = try Register.open(path: folder.appendingPathComponent("b/register.sqlite").path)
        try first.addAsset(asset("CR-1", clientRef: "P-4471"))
        let other = asset("CR-2")
        try first.addAsset(other)
        return (first, second, other)
    }

    /// Gives `asset` the client ref `clientRef` by a change.
    private func change(_ register: Register, _ asset: Asset, to clientRef: String, reason: String) throws {
        var edited = asset
        edited.clientRef = clientRef
        try register.change(assetUUID: asset.uuid, to: edited, reason: reason, stamp: testStamp)
    }

    private func storedClientRef(_ register: Register, _ tag: String) throws -> SQLValue? {
        try register.db.scalar("SELECT client_ref FROM assets WHERE tag = ?", [.text(tag)])
    }

    @Test("the register written by an older build verifies after migration 017; assets added and edited since do")
    func olderRegisterStillVerifies() throws {
        try withTemporaryDirectory { folder in
            let documents = folder.appendingPathComponent("home/Documents")
            try FileManager.default.createDirectory(at: documents.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: OlderBuildFixtureTests.fixture, to: documents)
            let register = try Register.open(path: documents.appendingPathComponent("register.sqlite").path)
            #expect(try RegisterSchema.appliedNames(register.db).contains("017-asset-client-refs"))
            #expect(try register.db.scalar("SELECT count(*) FROM assets WHERE client_ref IS NOT NULL") == .integer(0))
            let before = try register.verifyChain(expectedHead: OlderBuildFixtureTests.headBefore)
            #expect(before.problems.isEmpty && before.entries == 179, "\(before)")

            try register.addAsset(asset("CR-1", clientRef: "P-4471"))
            try change(register, try #require(try register.asset(tag: "SH-0021")).asset, to: "HIRE-0815",
                       reason: "owner's plant number")
            let after = try register.verifyChain()
            #expect(after.problems.isEmpty && after.entries == 181, "\(after)")
            #expect(try register.asset(tag: "SH-0021")?.asset.clientRef == "HIRE-0815")
            #expect(try register.asset(tag: "CR-1")?.asset.clientRef == "P-4471")
        }
    }

    @Test("none is NULL, never empty text: an asset added without one hashes as before the column existed")
    func noneIsNull() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try register.addAsset(asset("CR-1"))
            try register.addAsset(asset("CR-2", clientRef: "P-4471"))
            #expect(try storedClientRef(register, "CR-1") == .null)
            #expect(try storedClientRef(register, "CR-2") == .text("P-4471"))

            let kind = HashChain.asset
            let rows = try register.db.prepare(kind.selectSQL("tag"))
            var bodies: [String: String] = [:]
            while try rows.step() { bodies[rows.text(Int32(kind.hashed.count))] = HashChain.canonical(kind, rows) }
            #expect(bodies["CR-1"].map { !$0.contains("client_ref") } == true, "\(bodies)")
            #expect(bodies["CR-2"]?.hasSuffix("\nclient_ref t:6:P-4471\n") == true, "\(bodies)")

            let row = try #require(try register.asset(tag: "CR-2"))
            var cleared = row.asset
            cleared.clientRef = ""
            let changes = try register.change(assetUUID: row.asset.uuid, to: cleared, reason: "not theirs",
                                              stamp: testStamp)
            #expect(changes.map(\.summary) == ["client ref P-4471 → —"])
            #expect(try storedClientRef(register, "CR-2") == .null)
            #expect(try register.verifyChain().problems.isEmpty)
        }
    }

    @Test("an edit of the client ref is a change in the asset's history, with its reason")
    func editIsKeptInTheHistory() throws {
        try withRegister(holding: asset("CR-1")) { register, added in
            try change(register, added, to: "P-4471", reason: "owner's register")
            try change(register, added, to: "P-4472", reason: "misread")
            let changes = try register.assetChanges(assetUUID: added.uuid)
            #expect(changes.map(\.field) == [.clientRef, .clientRef])
            #expect(changes.map(\.oldValue) == [.none, .text("P-4471")])
            #expect(changes.map(\.newValue) == [.text("P-4471"), .text("P-4472")])
            #expect(changes.map(\.reason) == ["owner's register", "misread"])
            #expect(try register.asset(uuid: added.uuid)?.asset.clientRef == "P-4472")
            #expect(try register.verifyChain().problems.isEmpty)
        }
    }

    @Test("a client ref changed behind Rigbook's back is found by verify, edited or not")
    func tamperingIsFound() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let register = try Register.open(path: path)
            try register.addAsset(asset("CR-1", clientRef: "P-4471"))
            try register.addAsset(asset("CR-2"))
            let raw = try Database(path: path, mode: .readWrite)
            try raw.execute("UPDATE assets SET client_ref = 'P-9999' WHERE tag = 'CR-1'")
            #expect(try register.verifyChain().problem?.contains("asset CR-1") == true)
            #expect(try register.verifyChain().problem?.contains("does not match its hash") == true)
            try raw.execute("UPDATE assets SET client_ref = 'P-4471' WHERE tag = 'CR-1'")
            #expect(try register.verifyChain().problems.isEmpty)
            try raw.execute("UPDATE assets SET client_ref = 'P-1' WHERE tag = 'CR-2'")
            #expect(try register.verifyChain().problem?.contains("asset CR-2") == true, "one given where none was")
            try raw.execute("UPDATE assets SET client_ref = NULL WHERE tag = 'CR-2'")

            let row = try #require(try register.asset(tag: "CR-1"))
            var edited = row.asset
            edited.location = "Bay 9"
            try register.change(assetUUID: row.asset.uuid, to: edited, reason: "moved", stamp: testStamp)
            try raw.execute("UPDATE assets SET client_ref = 'P-9999' WHERE tag = 'CR-1'")
            #expect(try register.verifyChain().problem?.contains("holds a client_ref that none of its changes gave it")
                    == true)
        }
    }

    @Test("merge brings an asset's client ref and the changes of it")
    func mergeCarriesIt() throws {
        try withTemporaryDirectory { folder in
            let (laptop, office, other) = try twoRegisters(folder)
            try office.merge(from: try Register.openForMerging(path: laptop.path))
            #expect(try office.asset(tag: "CR-1")?.asset.clientRef == "P-4471")
            try change(laptop, other, to: "HIRE-0815", reason: "hire register")
            let report = try office.merge(from: try Register.openForMerging(path: laptop.path))
            #expect(report.assetChanges == 1)
            #expect(try office.asset(tag: "CR-2")?.asset.clientRef == "HIRE-0815")
            #expect(try office.assetChanges(assetUUID: other.uuid).map(\.field) == [.clientRef])
            #expect(try office.verifyChain().problems.isEmpty)
        }
    }

    @Test("sync carries it both ways; a server made before the column gains it and keeps working")
    func syncCarriesIt() throws {
        let url = try newServer()
        // A server as a build before the client ref made it: its first three migrations.
        let server = try PostgresConnection(url: url)
        try server.execute("CREATE TABLE rigbook_server_migrations (name text PRIMARY KEY, applied_at timestamptz)")
        for migration in ServerSchema.migrations.prefix(3) {
            try server.execute(migration.sql)
            try server.query("INSERT INTO rigbook_server_migrations (name) VALUES ($1)", [.text(migration.name)])
        }
        try withTemporaryDirectory { folder in
            let (a, b, other) = try twoRegisters(folder)
            try change(a, other, to: "HIRE-0815", reason: "hire register")
            _ = try a.sync(url: url)
            #expect(try server.scalar("SELECT client_ref FROM assets WHERE tag = 'CR-1'") == .text("P-4471"))
            // The older server is brought up to this build: every migration, the one for the column among them.
            #expect(try server.scalar("SELECT count(*) FROM rigbook_server_migrations")
                    == .integer(Int64(ServerSchema.migrations.count)))

            _ = try b.sync(url: url)
            #expect(try b.asset(tag: "CR-1")?.asset.clientRef == "P-4471")
            #expect(try b.asset(tag: "CR-2")?.asset.clientRef == "HIRE-0815")
            try change(b, try #require(try b.asset(tag: "CR-2")).asset, to: "", reason: "returned to the owner")
            _ = try b.sync(url: url)
            _ = try a.sync(url: url)
            #expect(try a.asset(tag: "CR-2")?.asset.clientRef == "")
            #expect(try storedClientRef(a, "CR-2") == .null)
            #expect(try a.verifyChain().problems.isEmpty && (try b.verifyChain().problems.isEmpty))
        }
    }
}
