import Foundation

/// The indexes a bulk load sets aside and makes again once its rows are in, inside its one transaction: those keyed by
/// a uuid, a hash or a date, where each row's entry lands at a random place (a seek, and at a million assets often a
/// page read back, for each), so a sorted pass makes each for a fraction of keeping it up row by row (at a million
/// assets, 22 s for all eight against some 70 s). Indexes SQLite makes for UNIQUE columns cannot be dropped; indexes
/// in key order cost little to keep up.
///
/// Made again, an index would come last among the schema's entries (SQLite lists them in the order of their rows in
/// `sqlite_master`, and `.schema` prints them so), so each is put back in its row, which its drop left free: the
/// schema then reads exactly as before, which is checked before the load commits.
struct BulkIndexes {
    static let names: Set<String> = [
        "inspections_by_asset", "inspections_by_uuid", "electrical_tests_by_asset", "signatures_by_record",
        "assets_by_hash", "assets_by_status_due", "assets_by_status_soon", "assets_by_status_remedy",
    ]

    private struct Entry {
        let row: Int64
        let name: String
        let sql: String
    }

    private let entries: [Entry]
    /// Every entry of the schema, in order, as it was: what it must read again.
    private let schema: [String]

    /// Drops those of `names` the register has, inside the caller's transaction; nil, having dropped none, when
    /// SQLite will not let their rows be put back (`writable_schema` refused: a build in defensive mode).
    static func setAside(_ db: Database) throws -> BulkIndexes? {
        try db.execute("PRAGMA writable_schema = ON")
        let writable = try db.scalar("PRAGMA writable_schema") == .integer(1)
        try db.execute("PRAGMA writable_schema = OFF")
        guard writable else { return nil }
        let statement = try db.prepare("SELECT rowid, name, sql FROM sqlite_master WHERE type = 'index'"
                                       + " AND sql IS NOT NULL ORDER BY rowid")
        var entries: [Entry] = []
        while try statement.step() {
            guard names.contains(statement.text(1)) else { continue }
            entries.append(Entry(row: statement.int64(0), name: statement.text(1), sql: statement.text(2)))
        }
        let indexes = BulkIndexes(entries: entries, schema: try schema(db))
        for entry in entries { try db.execute("DROP INDEX \"\(entry.name)\"") }
        return indexes
    }

    /// Makes each again from the SQL that made it, puts it back in its row, and checks that the schema reads as it did.
    func restore(_ db: Database) throws {
        // The sort of each is given a quarter of a gigabyte, not the load's whole page cache, and a thread of its own
        // (the load's other threads are done by now).
        try db.execute("PRAGMA cache_size = -\(256 * 1024); PRAGMA threads = 1")
        defer { try? db.execute("PRAGMA threads = 0") }
        for entry in entries { try db.execute(entry.sql) }
        try db.execute("PRAGMA writable_schema = ON")
        do {
            for entry in entries {
                try db.run("UPDATE sqlite_master SET rowid = ? WHERE type = 'index' AND name = ?",
                           [.integer(entry.row), .text(entry.name)])
            }
        } catch {
            try? db.execute("PRAGMA writable_schema = RESET")
            throw error
        }
        // RESET also has SQLite read the schema again, from the rows as they now are.
        try db.execute("PRAGMA writable_schema = RESET")
        guard try Self.schema(db) == schema else {
            throw RegisterError.writeFailed("the indexes a bulk load made again did not go back where they were")
        }
    }

    /// Each entry of the schema (its kind, name, table and SQL), in the order SQLite keeps them.
    private static func schema(_ db: Database) throws -> [String] {
        let statement = try db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid")
        var entries: [String] = []
        while try statement.step() {
            entries.append((0..<4).map { "\(statement.value(Int32($0)))" }.joined(separator: "\u{1F}"))
        }
        return entries
    }
}
