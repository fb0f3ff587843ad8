import Foundation
import Testing
import RigbookCore
@testable import RigbookStore

/// The batch save writes fewer pages: record and notice uuids that ascend, and the WAL copied into the
/// file when the program is idle rather than inside the save.
@Suite struct BatchPagesTests {
    @Test func timeOrderedUUIDsAreVersion7AndAscendAsText() {
        var previous = UUID.timeOrdered()
        for _ in 0..<5_000 {
            let next = UUID.timeOrdered()
            #expect(next.uuidString > previous.uuidString)
            #expect(next.uuidString.lowercased() > previous.uuidString.lowercased())
            let bytes = next.uuid
            #expect(bytes.6 >> 4 == 7, "version 7")
            #expect(bytes.8 >> 6 == 0b10, "RFC 9562 variant")
            previous = next
        }
        // The time is in the first 48 bits: within a minute of now.
        let uuid = UUID.timeOrdered().uuid
        let milliseconds = [uuid.0, uuid.1, uuid.2, uuid.3, uuid.4, uuid.5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(abs(Double(milliseconds) / 1000 - Date().timeIntervalSince1970) < 60)
    }
}

/// Migration 014 drops the two indexes keyed by SHA-256 (a random leaf page per record) and keeps everything the
/// register promises: rows as they were, the chain whole, evidence still refusing UPDATE, DELETE and REPLACE.
@Suite struct HashIndexMigrationTests {
    /// A register of three thorough examinations (each with its notice), put back as a build before migration
    /// 014 left it: the hash indexes, the UNIQUE on the notices' hash and the triggers that probed them.
    private func registerAsBeforeMigration014(_ path: String) throws -> Register {
        let register = try Register.open(path: path)
        let asset = makeAsset()
        try register.addAsset(asset)
        for date in ["2026-03-01", "2026-03-02", "2026-03-03"] {
            _ = try register.insert(try validated(passingValues(on: date), for: asset), saved: testStamp)
        }
        try register.db.execute("PRAGMA foreign_keys = OFF")
        try register.db.transaction {
            try RegisterSchema.rebuild(register.db, table: "notices") {
                $0.replacingOccurrences(of: "entry_hash TEXT NOT NULL,", with: "entry_hash TEXT NOT NULL UNIQUE,")
            }
            try register.db.execute("""
                CREATE UNIQUE INDEX inspections_by_hash ON inspections(record_hash);
                DELETE FROM rigbook_migrations WHERE name = '014-no-hash-indexes-on-records-and-notices';
                """)
        }
        try register.db.execute("PRAGMA foreign_keys = ON")
        return register
    }

    private func indexedColumns(_ db: Database, table: String) throws -> Set<String> {
        let statement = try db.prepare("""
            SELECT i.name FROM pragma_index_list(?1) l, pragma_index_info(l.name) i
            """)
        try statement.bind([.text(table)])
        var columns = Set<String>()
        while try statement.step() { columns.insert(statement.text(0)) }
        return columns
    }

    @Test func upgradingKeepsEveryRowAndTheChainAndDropsTheHashIndexes() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let before = try registerAsBeforeMigration014(path)
            #expect(try indexedColumns(before.db, table: "notices").contains("entry_hash"))
            let notices = try rawRows(before.db, table: "notices")
            let records = try rawRows(before.db, table: "inspections")
            #expect(notices.count == 3)
            let head = try before.db.scalar("SELECT head_hash FROM register_chain")

            let register = try Register.open(path: path)
            #expect(try RegisterSchema.appliedNames(register.db).contains("014-no-hash-indexes-on-records-and-notices"))
            #expect(!(try indexedColumns(register.db, table: "notices").contains("entry_hash")))
            #expect(!(try indexedColumns(register.db, table: "inspections").contains("record_hash")))
            #expect(try rawRows(register.db, table: "notices") == notices)
            #expect(try rawRows(register.db, table: "inspections") == records)
            #expect(try register.db.scalar("SELECT head_hash FROM register_chain") == head)
            #expect(try register.verifyChain().problem == nil)

            // Notices are evidence as before, and the next save chains on and is journaled for sync.
            let other = try Database(path: path, mode: .readWrite)
            for sql in ["UPDATE notices SET recipient = 'x'", "DELETE FROM notices",
                        "INSERT OR REPLACE INTO notices SELECT * FROM notices WHERE id = 1",
                        "INSERT INTO notices SELECT NULL, notice_uuid, record_uuid, duty, recipient, done_on,"
                            + " serious_risk, recorded_at, operator, entry_hash, parent_hash FROM notices WHERE id = 1"] {
                #expect(throws: DatabaseError.self, "\(sql)") { try other.run(sql) }
            }
            #expect(try rawRows(register.db, table: "notices") == notices)
            let asset = try #require(try register.rows().first?.asset)
            _ = try register.insert(try validated(passingValues(on: "2026-03-04"), for: asset), saved: testStamp)
            #expect(try rawRows(register.db, table: "notices").count == 4)
            #expect(try register.db.scalar("SELECT count(*) FROM sync_journal WHERE entry_table = 'notices'")
                    == .integer(4))
            #expect(try register.verifyChain().problem == nil)
        }
    }
}
