import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

@Suite("Sample data in bulk")
struct SampleBulkLoadTests {
    /// Every row of every table, each table's rows in a fixed order, as text: ids, sequence numbers and the sync
    /// journal's order included.
    private func contents(_ db: Database) throws -> [String: [String]] {
        let tables = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        var contents: [String: [String]] = [:]
        while try tables.step() {
            let name = tables.text(0)
            let rows = try db.prepare("SELECT * FROM \"\(name)\"")
            var lines: [String] = []
            while try rows.step() {
                lines.append((0..<rows.columnCount).map { "\(rows.value($0))" }.joined(separator: " | "))
            }
            contents[name] = lines.sorted()
        }
        return contents
    }

    /// Every entry of the schema in the order SQLite keeps them, which is what `sqlite3 … .schema` prints.
    private func schema(_ db: Database) throws -> [String] {
        let entries = try db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid")
        var schema: [String] = []
        while try entries.step() { schema.append((0..<4).map { "\(entries.value(Int32($0)))" }.joined(separator: " ")) }
        return schema
    }

    /// A register holding what a sample writes before its assets (particulars and keys, whose entries have uuids of
    /// their own), at `path`: each load to compare starts from a copy of it.
    private func start(_ path: String) throws {
        try SampleData(count: 0, seed: 5, today: testToday).load(into: try Register.open(path: path), rowByRow: true)
    }

    private func journal(_ register: Register) throws -> SQLValue? { try register.db.scalar("PRAGMA journal_mode") }

    @Test("a sample loaded in bulk is the register loaded row by row: every row of every table, the schema, verify")
    func sameAsRowByRow() throws {
        try withTemporaryDirectory { folder in
            let first = folder.appendingPathComponent("start.sqlite").path
            try start(first)
            var sample = SampleData(count: 2_500, seed: 5, today: testToday)
            // The assets' times of adding come from the clock: both loads are given one.
            sample.addedAt = { "2026-03-15T09:30:00.000Z" }
            var made: [String: (contents: [String: [String]], schema: [String])] = [:]
            // Row by row; in bulk; and in bulk while another connection reads the register, which keeps it in WAL.
            for way in ["row by row", "bulk", "bulk beside a reader"] {
                let path = folder.appendingPathComponent("\(way).sqlite").path
                try FileManager.default.copyItem(atPath: first, toPath: path)
                let register = try Register.open(path: path)
                let reader = try Database(path: path, mode: .readOnly)
                if way == "bulk beside a reader" {
                    try register.db.execute("PRAGMA busy_timeout = 50")
                    try reader.execute("BEGIN")
                    #expect(try reader.scalar("SELECT count(*) FROM assets") == .integer(0))
                }
                var progress: [Int] = []
                // How the load goes, looked at between two batches: in bulk, with a rollback journal and without the
                // indexes it makes again at the end; beside a reader, in WAL with every index.
                var modes: Set<SQLValue?> = [], indexed: Set<SQLValue?> = []
                try sample.load(into: register, rowByRow: way == "row by row") { done in
                    progress.append(done)
                    modes.insert(try? journal(register))
                    indexed.insert(try? register.db.scalar("SELECT count(*) FROM sqlite_master"
                                                           + " WHERE name = 'inspections_by_uuid'"))
                }
                try? reader.execute("COMMIT")
                #expect(modes == [.text(way == "bulk" ? "delete" : "wal")], "\(way)")
                #expect(indexed == [.integer(way == "bulk" ? 0 : 1)], "\(way)")
                #expect(progress.last == 2_500, "\(way)")
                #expect(try register.verifyChain().problems == [], "\(way)")
                #expect(try register.db.scalar("PRAGMA integrity_check") == .text("ok"), "\(way)")
                #expect(try register.db.scalar("SELECT count(*) FROM pragma_foreign_key_check") == .integer(0))
                #expect(try journal(register) == .text("wal"), "\(way)")
                #expect(!Register.journalHoldsChanges(path), "\(way)")
                made[way] = (try contents(register.db), try schema(register.db))
            }
            let rows = try #require(made["row by row"])
            #expect((rows.contents["inspections"]?.count ?? 0) > 10_000)
            #expect((rows.contents["signatures"]?.count ?? 0) > 1_000)
            #expect((rows.contents["electrical_tests"]?.count ?? 0) > 500)
            for way in ["bulk", "bulk beside a reader"] {
                let bulk = try #require(made[way])
                #expect(rows.contents.keys.sorted() == bulk.contents.keys.sorted(), "\(way)")
                for table in rows.contents.keys.sorted() {
                    let (expected, got) = (rows.contents[table] ?? [], bulk.contents[table] ?? [])
                    #expect(expected.count == got.count, "\(way): \(table)")
                    let differing = zip(expected, got).filter { $0 != $1 }.prefix(2)
                    #expect(differing.isEmpty, "\(way): \(table): \(Array(differing))")
                }
                #expect(rows.schema == bulk.schema, "\(way)")
            }
        }
    }

    @Test("a load that fails midway leaves the register as it was: no asset, every index and trigger in its place")
    func failedLoad() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try start(path)
            let register = try Register.open(path: path)
            let before = try schema(register.db)
            let source = SampleChunks(SampleData(count: 3_000, seed: 5, today: testToday), size: 500)
            let batches = Countdown(3)
            var records = SplitMix64(seed: 1)
            #expect(throws: RegisterError.self) {
                try register.bulkLoading {
                    try register.bulkLoad({ try batches.next { try source.next() } }, addedAt: { "x" },
                                          saved: { SaveStamp(savedAt: $0.iso + "T16:00:00.000Z", today: testToday) },
                                          recordUUID: { records.uuid() }, signer: { _, _ in nil }, progress: { _ in })
                }
            }
            #expect(try register.assetCount() == 0)
            #expect(try register.recordCount() == 0)
            #expect(try schema(register.db) == before)
            #expect(try journal(register) == .text("wal"))
            #expect(try register.verifyChain().problems == [])
            // The connection has its triggers back: an asset added now gets its status columns from them.
            try register.addAsset(makeAsset(tag: "ZZ-1"))
            #expect(try register.db.scalar("SELECT status_class FROM assets") != .null)
        }
    }

    @Test("a load killed midway, its pages half in the file, is rolled back by the next program that opens it")
    func killedLoad() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try start(path)
            let before = try schema(try Register.open(path: path).db)
            let startSize = try fileSize(path)
            // What a kill leaves: the register file and its journal as they are between two batches, pages already
            // written out (a page cache of a few pages, so they are).
            let killed = folder.appendingPathComponent("killed", isDirectory: true)
            try FileManager.default.createDirectory(at: killed, withIntermediateDirectories: true)
            let killedPath = killed.appendingPathComponent("register.sqlite").path
            let register = try Register.open(path: path)
            var copied = false
            try SampleData(count: 3_000, seed: 5, today: testToday).load(into: register) { done in
                if done == 500 { try? register.db.execute("PRAGMA cache_size = 20") }
                if done == 2_000 && Register.journalHoldsChanges(path) {
                    copied = (try? FileManager.default.copyItem(atPath: path, toPath: killedPath)) != nil
                        && (try? FileManager.default.copyItem(atPath: path + "-journal",
                                                              toPath: killedPath + "-journal")) != nil
                }
            }
            try #require(copied, "the load held no rollback journal to copy")
            #expect(try fileSize(killedPath) > startSize, "no page of the load was written out before the kill")
            let reopened = try Register.openForReading(path: killedPath)
            #expect(try reopened.assetCount() == 0)
            #expect(try schema(reopened.db) == before)
            #expect(try reopened.verifyChain().problems == [])
            #expect(!Register.journalHoldsChanges(killedPath))
            #expect(try journal(try Register.open(path: killedPath)) == .text("wal"))
            // The load itself went on to the end.
            #expect(try register.assetCount() == 3_000)
            #expect(try register.verifyChain().problems == [])
        }
    }

    @Test("a register with a trigger the bulk load does not know is filled row by row, through it")
    func unknownTrigger() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try register.db.execute("""
                CREATE TABLE counted (tag TEXT);
                CREATE TRIGGER assets_are_counted AFTER INSERT ON assets
                BEGIN INSERT INTO counted VALUES (NEW.tag); END;
                """)
            try SampleData(count: 30, seed: 5, today: testToday).load(into: register)
            #expect(try register.assetCount() == 30)
            #expect(try register.db.scalar("SELECT count(*) FROM counted") == .integer(30))
            #expect(try register.verifyChain().problems == [])
        }
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}

/// Gives what `make` makes until the `count`th call, which fails instead.
private final class Countdown: @unchecked Sendable {
    private var left: Int
    init(_ count: Int) { left = count }

    struct Failed: Error {}

    func next<T>(_ make: () throws -> T) throws -> T {
        left -= 1
        if left == 0 { throw Failed() }
        return try make()
    }
}
