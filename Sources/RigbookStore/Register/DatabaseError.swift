import CSQLite

/// A failed SQLite call: the result code, SQLite's message and the statement that failed.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let extendedCode: Int32
    public let message: String
    public let sql: String?

    init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String?) {
        self.code = code & 0xFF
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        "SQLite error \(extendedCode): \(message)" + (sql.map { " — while running: \($0)" } ?? "")
    }

    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    public var isConstraint: Bool { code == SQLITE_CONSTRAINT }
    public var isCorrupt: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
    public var isFull: Bool { code == SQLITE_FULL }
    public var isReadOnly: Bool { code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM }
}
