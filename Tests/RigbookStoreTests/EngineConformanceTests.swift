import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

/// The operations sync relies on, each run on both engines: an entry's values read back exactly
/// as written (its hash depends on their types and bytes), a batch is whole or absent, evidence refuses
/// UPDATE and DELETE, a uuid is unique, entries are read in the order they arrived.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// One engine holding a server-shaped or register-shaped `asset_changes` table, as sync reads and writes it.
private protocol EngineUnderTest {
    func insert(_ rows: [[SQLValue]]) throws
    func insertBatch(_ rows: [[SQLValue]]) throws
    func rows() throws -> [[SQLValue]]
    func execute(_ sql: String) throws
}

private let changeColumns = ["change_uuid", "asset_uuid", "field", "old_value", "new_value", "reason", "changed_at",
                             "operator", "session_id", "entry_hash", "parent_hash"]

private struct SQLiteEngine: EngineUnderTest {
    let register: Register
    var db: Database { register.db }

    func insert(_ rows: [[SQLValue]]) throws {
        let statement = try db.prepare("INSERT INTO asset_changes (\(changeColumns.joined(separator: ", "))) VALUES ("
                                       + Array(repeating: "?", count: changeColumns.count).joined(separator: ", ")
                                       + ")")
        for row in rows {
            try statement.bind(row)
            while try statement.step() {}
        }
    }

    func insertBatch(_ rows: [[SQLValue]]) throws { try db.transaction { try insert(rows) } }

    func rows() throws -> [[SQLValue]] {
        let statement = try db.prepare("SELECT \(changeColumns.joined(separator: ", ")) FROM asset_changes ORDER BY id")
        var rows: [[SQLValue]] = []
        while try statement.step() { rows.append(changeColumns.indices.map { statement.value(Int32($0)) }) }
        return rows
    }

    func execute(_ sql: String) throws { try db.execute(sql) }
}

private struct PostgresEngine: EngineUnderTest {
    let server: PostgresConnection

    /// As a push writes: COPY, the untyped values tagged.
    func insert(_ rows: [[SQLValue]]) throws {
        let untyped = changeColumns.indices.filter { SyncJournal.untyped.contains(changeColumns[$0]) }
        let tagged = rows.map { row in
            row.enumerated().map { untyped.contains($0.offset) ? ServerValue.encode($0.element) : $0.element }
        }
        try server.copy(into: "asset_changes", columns: changeColumns, rows: tagged)
    }

    func insertBatch(_ rows: [[SQLValue]]) throws { try server.transaction { try insert(rows) } }

    /// As a pull reads.
    func rows() throws -> [[SQLValue]] {
        let result = try server.query("SELECT \(changeColumns.joined(separator: ", ")) FROM asset_changes ORDER BY seq")
        return (0..<result.count).map { row in
            changeColumns.indices.map { column in
                let value = result.value(row, column)
                return SyncJournal.untyped.contains(changeColumns[column]) ? ServerValue.decode(value) : value
            }
        }
    }

    func execute(_ sql: String) throws { try server.execute(sql) }
}

@Suite("One conformance suite, both engines")
struct EngineConformanceTests {
    private func withEngine(_ engine: Engine, _ body: (EngineUnderTest) throws -> Void) throws {
        try withTemporaryDirectory { folder in
            switch engine {
            case .sqlite:
                let register = try Register.open(path: registerPath(in: folder))
                try register.addAsset(makeAsset(tag: "SL-1"))
                try body(SQLiteEngine(register: register))
            case .postgres:
                let url = try newServer()
                let server = try PostgresConnection(url: url)
                _ = try ServerSchema.prepare(server)
                try body(PostgresEngine(server: server))
            }
        }
    }

    /// Values of every type sync carries, with the bytes that need escaping on the way.
    private func change(_ n: Int, old: SQLValue, new: SQLValue, reason: String = "moved") -> [SQLValue] {
        [.text(UUID().uuidString), .text(assetUUID), .text("location"), old, new, .text(reason),
         .text("2026-03-1\(n)T10:00:00.000Z"), .text("Zoë"), .null, .text("hash-\(n)-\(UUID().uuidString)"),
         n == 0 ? .null : .text("parent")]
    }

    private var assetUUID: String { "6E3D2E2B-1C2A-4C5B-9D0E-0A1B2C3D4E5F" }

    @Test("values read back exactly as written: types, Unicode, tabs, newlines, backslashes, NULL",
          arguments: Engine.allCases)
    func valuesRoundTrip(_ engine: Engine) throws {
        try withEngine(engine) { store in
            if engine == .sqlite { try store.execute("PRAGMA foreign_keys = OFF") }
            let written = [
                change(0, old: .text("Bay 4"), new: .text("Quay\t2\nberth \\ 3 — 张")),
                change(1, old: .integer(12), new: .integer(-6)),
                change(2, old: .real(2000), new: .real(0.1 + 0.2)),
                change(3, old: .null, new: .text("")),
                change(4, old: .text("i:5"), new: .text("t:")),
            ]
            try store.insertBatch(written)
            #expect(try store.rows() == written)
        }
    }

    @Test("a batch that fails part-way leaves nothing; a uuid is unique", arguments: Engine.allCases)
    func batchesAreWhole(_ engine: Engine) throws {
        try withEngine(engine) { store in
            if engine == .sqlite { try store.execute("PRAGMA foreign_keys = OFF") }
            let first = change(0, old: .null, new: .text("A"))
            try store.insertBatch([first])
            var duplicate = change(1, old: .null, new: .text("B"))
            duplicate[0] = first[0]
            #expect(throws: (any Error).self) {
                try store.insertBatch([change(2, old: .null, new: .text("C")), duplicate])
            }
            #expect(try store.rows() == [first])
        }
    }

    @Test("evidence refuses UPDATE and DELETE", arguments: Engine.allCases)
    func evidenceRefusesEdits(_ engine: Engine) throws {
        try withEngine(engine) { store in
            if engine == .sqlite { try store.execute("PRAGMA foreign_keys = OFF") }
            let row = change(0, old: .null, new: .text("A"))
            try store.insertBatch([row])
            #expect(throws: (any Error).self) { try store.execute("UPDATE asset_changes SET reason = 'x'") }
            #expect(throws: (any Error).self) { try store.execute("DELETE FROM asset_changes") }
            #expect(try store.rows() == [row])
        }
    }

    @Test("entries read back in the order they arrived", arguments: Engine.allCases)
    func arrivalOrder(_ engine: Engine) throws {
        try withEngine(engine) { store in
            if engine == .sqlite { try store.execute("PRAGMA foreign_keys = OFF") }
            let batches = (0..<3).map { b in (0..<4).map { change(b * 4 + $0, old: .null, new: .integer(Int64($0))) } }
            for batch in batches { try store.insertBatch(batch) }
            #expect(try store.rows() == batches.flatMap { $0 })
        }
    }
}
