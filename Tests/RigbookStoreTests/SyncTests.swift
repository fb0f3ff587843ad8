import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

/// A new database on the test process's throwaway PostgreSQL cluster (one per test).
func newServer() throws -> String { try ThrowawayPostgres.shared().createDatabase() }

/// Assets (with status) and records (with hash) of a register, sorted: equal on replicas that converged.
func contents(_ register: Register) throws -> [String] {
    let assets = try register.rows(includingRetired: true).map { row in
        "\(row.asset) \(row.status(on: testToday))"
    }
    var records: [String] = []
    try register.forEachRecord { records.append("\($0.recordUUID) \($0.recordHash ?? "")") }
    return assets.sorted() + records.sorted()
}

@Suite("The server's schema")
struct ServerSchemaTests {
    @Test("an empty database becomes a server; its evidence refuses UPDATE, DELETE and TRUNCATE")
    func evidenceIsAppendOnly() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try register.addAsset(makeAsset(tag: "SL-1"))
            _ = try register.sync(url: url)
        }
        let server = try PostgresConnection(url: url)
        #expect(try server.scalar("SELECT count(*) FROM assets") == .integer(1))
        for sql in ["UPDATE assets SET tag = 'X'", "DELETE FROM assets", "TRUNCATE assets",
                    "UPDATE particulars SET content = ''", "DELETE FROM particulars"] {
            #expect(throws: ServerError.self, "\(sql)") { try server.execute(sql) }
        }
        let error = try #require(throws: ServerError.self) { try server.execute("DELETE FROM assets") }
        #expect(error.message.contains("are evidence"), "\(error)")
        // A uuid is unique on the server too.
        #expect(throws: ServerError.self) {
            try server.execute("INSERT INTO merges (merge_uuid, other_identity, other_head, merged_at, operator,"
                               + " entry_hash) VALUES ('M', 'x', 'y', 'z', 'o', 'h1');"
                               + "INSERT INTO merges (merge_uuid, other_identity, other_head, merged_at, operator,"
                               + " entry_hash) VALUES ('M', 'x', 'y', 'z', 'o', 'h2')")
        }
    }

    @Test("a database of another application is refused untouched, with a sentence")
    func foreignDatabaseIsRefused() throws {
        let url = try newServer()
        let cluster = try ThrowawayPostgres.shared()
        let name = String(url.split(separator: "/")[1].split(separator: "?")[0])
        _ = try cluster.psql(name, "CREATE TABLE invoices (id int)")
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let error = try #require(throws: ServerError.self) { try register.sync(url: url) }
            #expect(error.message.contains("is not a Rigbook server"), "\(error)")
            #expect(error.cause == .needsAction(problem: "not a Rigbook database"))
            #expect(error.message.contains("invoices"))
        }
        #expect(try cluster.psql(name, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
            .trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    @Test("a server made by a newer Rigbook is refused untouched")
    func newerServerIsRefused() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            _ = try register.sync(url: url)
            let server = try PostgresConnection(url: url)
            try server.execute("INSERT INTO rigbook_server_migrations (name) VALUES ('999-from-the-future')")
            try register.addAsset(makeAsset(tag: "SL-9"))
            let error = try #require(throws: ServerError.self) { try register.sync(url: url) }
            #expect(error.message.contains("newer Rigbook"), "\(error)")
            #expect(try server.scalar("SELECT count(*) FROM assets") == .integer(0))
        }
    }

    @Test("an unreachable server is one sentence saying so")
    func unreachableServer() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let error = try #require(throws: ServerError.self) {
                try register.sync(url: "postgresql:///nothing?host=\(folder.path)&user=postgres")
            }
            #expect(error.cause == .tryLater)
            #expect(error.message.hasPrefix("cannot reach the server"), "\(error)")
        }
    }
}

@Suite("Sync with the organisation's server")
struct SyncTests {
    @Test("two replicas converge: every entry everywhere, hashes kept, verify passes; syncing again changes nothing")
    func twoReplicasConverge() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try Register.open(path: folder.appendingPathComponent("a.sqlite").path)
            let b = try Register.open(path: folder.appendingPathComponent("b.sqlite").path)
            let sling = makeAsset(tag: "SL-1")
            try a.addAsset(sling)
            try a.insert(try validated(failingValues(on: "2026-01-10"), for: sling), saved: testStamp)
            let chain = makeAsset(tag: "CH-2")
            try b.addAsset(chain)
            try b.insert(try validated(passingValues(on: "2026-02-10"), for: chain), saved: testStamp)

            let first = try a.sync(url: url)
            #expect(first.sent["assets"] == 1 && first.sent["inspections"] == 1)
            #expect(first.received.entries == 0)
            let second = try b.sync(url: url)
            #expect(second.received.assets == 1 && second.received.records == 1)
            #expect(second.sent["assets"] == 1 && second.sent["inspections"] == 1)
            let third = try a.sync(url: url)
            #expect(third.received.assets == 1 && third.received.records == 1 && third.sentCount == 0)

            #expect(try contents(a) == (try contents(b)))
            #expect(try a.assetCount() == 2 && (try a.recordCount()) == 2)
            #expect(try a.verifyChain().problem == nil)
            #expect(try b.verifyChain().problem == nil)
            let before = try contents(a)
            // Another connection to A (the full-screen loop's, while its worker syncs) sees no change at all.
            let watcher = try Register.open(path: a.path)
            let version = try watcher.dataVersion()
            let again = try a.sync(url: url)
            #expect(again.sentCount == 0 && again.received.entries == 0, "\(again.lines)")
            #expect(try contents(a) == before)
            #expect(try watcher.dataVersion() == version, "a sync that found nothing new wrote to the register")
            #expect(try a.rememberedServer() == url)
        }
    }

    @Test("both sides change one field: the later change holds everywhere, both stay, the conflict is printed")
    func fieldConflictFollowsTheMergeRules() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try Register.open(path: folder.appendingPathComponent("a.sqlite").path)
            let b = try Register.open(path: folder.appendingPathComponent("b.sqlite").path)
            let sling = makeAsset(tag: "SL-1")
            try a.addAsset(sling)
            _ = try a.sync(url: url)
            _ = try b.sync(url: url)
            var atQuay = sling
            atQuay.location = "Quay 2"
            try a.change(assetUUID: sling.uuid, to: atQuay, reason: "moved",
                         stamp: SaveStamp(savedAt: "2026-03-10T10:00:00.000Z", operatorName: "ann"))
            var atYard = sling
            atYard.location = "Yard 7"
            try b.change(assetUUID: sling.uuid, to: atYard, reason: "moved",
                         stamp: SaveStamp(savedAt: "2026-03-11T10:00:00.000Z", operatorName: "bob"))
            _ = try a.sync(url: url)
            let report = try b.sync(url: url)
            #expect(report.received.fieldConflicts.count == 1, "\(report.lines)")
            #expect(report.lines.contains {
                $0.hasPrefix("conflict resolved: SL-1 location") && $0.contains("Yard 7 holds")
            })
            _ = try a.sync(url: url)
            #expect(try a.asset(uuid: sling.uuid)?.asset.location == "Yard 7")
            #expect(try b.asset(uuid: sling.uuid)?.asset.location == "Yard 7")
            #expect(try a.assetChanges(assetUUID: sling.uuid).count == 2)
            #expect(try contents(a) == (try contents(b)))
            #expect(try a.verifyChain().problem == nil && (try b.verifyChain().problem) == nil)
        }
    }

    @Test("two replicas amend one record differently: after syncing, both stand by the same amendment")
    func conflictingAmendmentsStandAlikeThroughTheServer() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try Register.open(path: folder.appendingPathComponent("a.sqlite").path)
            let b = try Register.open(path: folder.appendingPathComponent("b.sqlite").path)
            let sling = makeAsset(tag: "SL-1")
            try a.addAsset(sling)
            try a.insert(try validated(passingValues(on: "2026-01-10"), for: sling), saved: testStamp)
            _ = try a.sync(url: url)
            _ = try b.sync(url: url)
            let original = try #require(try a.history(assetUUID: sling.uuid).first)
            // Saved at the same instant on both (their clocks agree to the millisecond): row ids must not decide.
            var passed = passingValues(on: "2026-01-10")
            passed.notes = "amended on A"
            try a.insert(try validated(passed, for: sling, amending: original), saved: testStamp)
            try b.insert(try validated(failingValues(on: "2026-01-10", action: .withdraw), for: sling,
                                       amending: original), saved: testStamp)
            _ = try a.sync(url: url)
            _ = try b.sync(url: url)
            _ = try a.sync(url: url)
            #expect(try a.hasConflictingAmendments(sling.uuid) && (try b.hasConflictingAmendments(sling.uuid)))
            let counting = try a.history(assetUUID: sling.uuid).filter(\.counts).map(\.recordUUID)
            #expect(counting.count == 1)
            #expect(try b.history(assetUUID: sling.uuid).filter(\.counts).map(\.recordUUID) == counting)
            #expect(try a.latestThoroughExaminations()[sling.uuid]?.recordUUID == counting.first)
            #expect(try b.latestThoroughExaminations()[sling.uuid]?.recordUUID == counting.first)
            #expect(try contents(a) == (try contents(b)))
        }
    }

    @Test("an asset renamed on one replica and its old tag taken by a new asset on the server both arrive")
    func renamedAssetArrivesFolded() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try Register.open(path: folder.appendingPathComponent("a.sqlite").path)
            let b = try Register.open(path: folder.appendingPathComponent("b.sqlite").path)
            let old = makeAsset(tag: "SL-1")
            try a.addAsset(old)
            var renamed = old
            renamed.tag = "SL-1A"
            try a.change(assetUUID: old.uuid, to: renamed, reason: "tag replaced", stamp: testStamp)
            try a.addAsset(makeAsset(tag: "SL-1"))
            _ = try a.sync(url: url)
            let report = try b.sync(url: url)
            #expect(report.received.assets == 2)
            #expect(try b.asset(uuid: old.uuid)?.asset.tag == "SL-1A")
            #expect(try b.asset(tag: "SL-1")?.asset.uuid != old.uuid)
            #expect(try b.verifyChain().problem == nil)
            #expect(try contents(a) == (try contents(b)))
        }
    }

    @Test("the same tag on two assets stops the sync before either side is written")
    func tagClashStops() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try Register.open(path: folder.appendingPathComponent("a.sqlite").path)
            let b = try Register.open(path: folder.appendingPathComponent("b.sqlite").path)
            try a.addAsset(makeAsset(tag: "SL-1"))
            try b.addAsset(makeAsset(tag: "sl-1"))
            try b.addAsset(makeAsset(tag: "SL-2"))
            _ = try a.sync(url: url)
            let before = try contents(b)
            #expect {
                try b.sync(url: url)
            } throws: { error in
                "\(error)".contains("the same tag would be on two assets")
            }
            #expect(try contents(b) == before)
            let server = try PostgresConnection(url: url)
            #expect(try server.scalar("SELECT count(*) FROM assets") == .integer(1))
        }
    }

    @Test("a push the server refuses (an entry there with other contents) leaves the server as it was")
    func refusedPushLeavesTheServerUnchanged() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try Register.open(path: folder.appendingPathComponent("a.sqlite").path)
            let sling = makeAsset(tag: "SL-1")
            try a.addAsset(sling)
            _ = try a.sync(url: url)
            try a.insert(try validated(passingValues(on: "2026-01-10"), for: sling), saved: testStamp)
            try a.addAsset(makeAsset(tag: "SL-2"))
            // The record's uuid is already on the server with another hash (a tampered server).
            var recordUUID = ""
            try a.forEachRecord { recordUUID = $0.recordUUID.uuidString }
            let server = try PostgresConnection(url: url)
            try server.execute("""
                INSERT INTO inspections (record_uuid, asset_uuid, draft_id, inspection_type, inspector_name,
                  certification_number, check_marking, check_cuts, check_deformation, check_fittings, check_corrosion,
                  result, notes, scheme_reference, defect_description, action, remedy_deadline_set, inspection_date,
                  confirmed, saved_at, app_version, operator, asset_wll_kg, asset_location, record_hash)
                VALUES ('\(recordUUID)', 'x', 'd', 't', 'i', 'c', 1, 1, 1, 1, 1, 'pass', '', '', '', 'none', 0,
                  '2026-01-10', 1, 's', 'v', 'o', 1, 'l', 'forged')
                """)
            #expect { try a.sync(url: url) } throws: { "\($0)".contains("different contents") }
            #expect(try server.scalar("SELECT count(*) FROM assets") == .integer(1), "SL-2 was not half-pushed")
        }
    }

    @Test("eight replicas syncing at once all converge: every record everywhere, statuses identical, verify passes")
    func eightReplicasConverge() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let paths = (0..<8).map { folder.appendingPathComponent("r\($0).sqlite").path }
            for (index, path) in paths.enumerated() {
                let register = try Register.open(path: path)
                for n in 0..<5 {
                    let asset = makeAsset(tag: "R\(index)-\(n)")
                    try register.addAsset(asset)
                    let values = n == 0 ? failingValues(on: "2026-02-0\(index + 1)") : passingValues(on: "2026-01-10")
                    try register.insert(try validated(values, for: asset), saved: testStamp)
                }
            }
            let failures = Failures()
            // Two rounds at once: after the first every replica has pushed; the second brings everyone the rest.
            for _ in 0..<2 {
                DispatchQueue.concurrentPerform(iterations: paths.count) { index in
                    do {
                        let register = try Register.open(path: paths[index])
                        _ = try register.sync(url: url)
                    } catch { failures.add("replica \(index): \(error)") }
                }
            }
            #expect(failures.all.isEmpty, "\(failures.all)")
            let registers = try paths.map { try Register.openForReading(path: $0) }
            let first = try contents(registers[0])
            #expect(try registers[0].assetCount() == 40 && (try registers[0].recordCount()) == 40)
            for register in registers {
                #expect(try contents(register) == first)
                #expect(try register.verifyChain().problem == nil)
            }
            let server = try PostgresConnection(url: url)
            #expect(try server.scalar("SELECT count(*) FROM inspections") == .integer(40))
        }
    }

    @Test("a throwaway replica of the server holds the whole organisation and verifies")
    func serverReplicaVerifies() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try Register.open(path: folder.appendingPathComponent("a.sqlite").path)
            let sling = makeAsset(tag: "SL-1")
            try a.addAsset(sling)
            try a.insert(try validated(passingValues(on: "2026-01-10"), for: sling), saved: testStamp)
            _ = try a.sync(url: url)
            let replica = try Register.replica(ofServer: url, in: folder.appendingPathComponent("replica").path)
            #expect(try replica.assetCount() == 1 && (try replica.recordCount()) == 1)
            #expect(try replica.verifyChain().problem == nil)
            let server = try PostgresConnection(url: url)
            #expect(try server.scalar("SELECT count(*) FROM particulars") == (try PostgresConnection(url: url)
                .scalar("SELECT count(*) FROM particulars")))
        }
    }
}

/// Errors collected from threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
