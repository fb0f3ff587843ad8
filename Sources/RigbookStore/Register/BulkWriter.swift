import CSQLite
import Foundation

/// Writes a bulk load's chained rows with the register's triggers off (`Database.withTriggersOff`), and what those
/// triggers write for them: each entry's line in the sync journal, in the order the entries were chained, and each
/// record's number (an asset's status columns come worked out with its row: `StatusColumns.Ahead`). Rows go in
/// sixteen to a statement, table by table (assets first: records name them), their texts bound where the batch
/// holds them (SQLite copies each once, into its page).
final class BulkWriter {
    /// Rows a statement: SQLite opens the table's and every index's cursor once for them all. An asset, whose table
    /// is keyed by its tag and has a dozen indexes, goes in alone: a statement of 8 of them took half as long again
    /// as 8 statements (measured at 100,000 and a million assets).
    static let group = 16
    static func group(_ table: BulkTable) -> Int { table == .asset ? 1 : group }

    private let db: Database
    /// Prepared once each (a table's insert of a group, and of the rows left over) and kept for the whole load.
    private var statements: [String: Statement] = [:]

    /// Each table's name, column count, journal key and record number, by `BulkTable.rawValue`.
    private let names = BulkTable.allCases.map(\.name)
    private let columnCounts = BulkTable.allCases.map(\.columnCount)
    private let journalKeys = BulkTable.allCases.map(\.journalKey)
    private let numbers = BulkTable.allCases.map(\.number)

    init(_ db: Database) { self.db = db }

    /// Writes `rows` inside the caller's write transaction, where the register must be as the rows were made for: its
    /// chain's head and report sequence what they were chained and numbered from. Another program that wrote to the
    /// register since the last batch moved them: the load stops there rather than fork the chain.
    func write(_ rows: BulkRows) throws {
        guard case .integer(let sequence)? = try db.scalar("SELECT report_sequence FROM register_chain") else {
            throw RegisterError.writeFailed("the register has lost its chain row")
        }
        guard try HashChain.head(db) == rows.headBefore, Int(sequence) == rows.sequenceBefore else {
            throw RegisterError.writeFailed("another program wrote to the register while the sample was being made;"
                                            + " the sample stops here")
        }
        try rows.bytes.withUnsafeBufferPointer { bytes in
            try rows.values.withUnsafeBufferPointer { values in
                try rows.rows.withUnsafeBufferPointer { entries in
                    try write(entries, values, bytes.baseAddress.map {
                        UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)
                    })
                }
            }
        }
        try db.run("UPDATE register_chain SET head_hash = ?, report_sequence = ?",
                   [rows.headAfter.map(SQLValue.text) ?? .null, .integer(Int64(rows.sequenceAfter))])
    }

    /// Every row's table insert, then every record's number, then every entry's line in the journal. The rows are
    /// read through pointers (and the tables' particulars from arrays made once): copying a row or a table's
    /// description in this loop retained and released their storage, about a tenth of the writing.
    private func write(_ entries: UnsafeBufferPointer<BulkRows.Row>, _ values: UnsafeBufferPointer<BulkRows.Value>,
                       _ base: UnsafePointer<CChar>?) throws {
        var ids = [Int64](repeating: 0, count: entries.count)
        for table in BulkTable.allCases {
            var next = try nextID(table)
            let indices = entries.indices.filter { entries[$0].table == table }
            let count = columnCounts[table.rawValue]
            try insert(indices, group: Self.group(table), columns: (table.hasID ? 1 : 0) + count,
                       key: names[table.rawValue], sql: { table.insertSQL(rows: $0) }) { index, statement, column in
                if table.hasID {
                    ids[index] = next
                    next += 1
                    try bind(.integer(ids[index]), at: &column, of: statement, base)
                }
                let first = entries[index].first
                for offset in first..<(first + count) { try bind(values[offset], at: &column, of: statement, base) }
            }
            guard let number = numbers[table.rawValue] else { continue }
            try insert(indices, columns: 3, key: "record_numbers \(table.rawValue)", sql: {
                "INSERT OR ROLLBACK INTO record_numbers (record_kind, number, record_uuid) VALUES "
                    + Self.placeholders(rows: $0, columns: 3)
            }) { index, statement, column in
                try bind(number.kind, at: &column, of: statement)
                try bind(.integer(ids[index]), at: &column, of: statement, base)
                try bind(values[entries[index].first + number.uuid], at: &column, of: statement, base)
            }
        }
        try insert(Array(entries.indices), columns: 2, key: "sync_journal", sql: {
            "INSERT OR ROLLBACK INTO sync_journal (entry_table, entry_key) VALUES "
                + Self.placeholders(rows: $0, columns: 2)
        }) { index, statement, column in
            let table = entries[index].table.rawValue
            try bind(names[table], at: &column, of: statement)
            try bind(values[entries[index].first + journalKeys[table]], at: &column, of: statement, base)
        }
    }

    /// The id `table`'s next row gets, as SQLite would give it: the next after the largest.
    private func nextID(_ table: BulkTable) throws -> Int64 {
        guard table.hasID, case .integer(let last)? = try db.scalar("SELECT max(id) FROM \(table.name)") else {
            return 1
        }
        return last + 1
    }

    /// Inserts a row for each of `indices`, in order, a group to a statement (`sql` of a group's row count);
    /// `bind` binds one row's `columns` values from the parameter it is given, moving it on.
    private func insert(_ indices: [Int], group size: Int = group, columns: Int, key: String, sql: (Int) -> String,
                        bind: (Int, Statement, inout Int32) throws -> Void) throws {
        for start in stride(from: 0, to: indices.count, by: size) {
            let group = indices[start..<min(indices.count, start + size)]
            let statement = try kept("\(key) \(group.count)") { sql(group.count) }
            sqlite3_reset(statement.handle)
            var column: Int32 = 1
            for index in group { try bind(index, statement, &column) }
            guard column == Int32(group.count * columns + 1) else {
                throw RegisterError.writeFailed("a bulk load bound \(column - 1) values to \(statement.sql)")
            }
            while try statement.step() {}
        }
    }

    private static func placeholders(rows: Int, columns: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// The statement `key` names, prepared from `sql` the first time.
    private func kept(_ key: String, _ sql: () -> String) throws -> Statement {
        if let statement = statements[key] { return statement }
        let statement = try db.prepare(sql())
        statements[key] = statement
        return statement
    }

    /// Binds `value` where `base` holds its text (SQLite reads it during the step, and copies none until then).
    private func bind(_ value: BulkRows.Value, at column: inout Int32, of statement: Statement,
                      _ base: UnsafePointer<CChar>?) throws {
        let handle = statement.handle
        let rc: Int32 = switch value {
        case .null: sqlite3_bind_null(handle, column)
        case .integer(let v): sqlite3_bind_int64(handle, column, v)
        case .real(let v): sqlite3_bind_double(handle, column, v)
        case .text(let start, let count): sqlite3_bind_text(handle, column, base.map { $0 + Int(start) }, count, nil)
        }
        try check(rc, statement)
        column += 1
    }

    /// Binds a text of the program's own (a table's name), copied.
    private func bind(_ text: String, at column: inout Int32, of statement: Statement) throws {
        try check(sqlite3_bind_text(statement.handle, column, text, -1, rb_sqlite_transient()), statement)
        column += 1
    }

    private func check(_ rc: Int32, _ statement: Statement) throws {
        guard rc == SQLITE_OK else { throw db.error(rc, sql: statement.sql) }
    }
}
