import CSQLite
import Foundation
import RigbookCore

/// A value bound to or read from a statement.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// One SQLite connection. Used from one thread; each `rigbook` process opens its own.
public final class Database {
    let handle: OpaquePointer
    public let path: String
    /// The few statements run on every write (the chain's head, the report sequence), prepared once.
    private var kept: [String: Statement] = [:]
    private let keptLock = NSLock()
    /// The hash chain's head while `HashChain.holdingHead` runs (`.some(nil)`: an empty chain); nil otherwise.
    var heldChainHead: String??
    /// The examiner's key that signs what a person vouches for while `Register.signing` runs; nil otherwise.
    var signer: RecordSigner?
    /// Signatures made as their entries were hashed, chained once the entries' rows are in.
    var pendingSignatures: [[SQLValue]] = []

    public struct OpenMode: Sendable, Equatable {
        var flags: Int32
        /// SQLite's `immutable` URI parameter: the main file alone is read, without locks or the WAL's
        /// companion files. Only for a file nobody can be writing (see `Register.openForReading`).
        var immutable = false
        public static let readWrite = OpenMode(flags: SQLITE_OPEN_READWRITE)
        public static let readWriteCreate = OpenMode(flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        public static let readOnly = OpenMode(flags: SQLITE_OPEN_READONLY)
        public static let readOnlyImmutable = OpenMode(flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, immutable: true)
    }

    public init(path: String, mode: OpenMode = .readWriteCreate, busyTimeoutMilliseconds: Int32 = 5000) throws {
        var db: OpaquePointer?
        let name = mode.immutable ? Database.uri(path, query: "immutable=1") : path
        let rc = sqlite3_open_v2(name, &db, mode.flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            throw DatabaseError(code: rc, message: message, sql: nil)
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        Database.defineTagKey(db)
        Database.defineRowFunction(db, sink: rowSink)
        Database.defineFoldingFunction(db, permit: foldPermit)
    }

    /// Whether this connection is writing summaries the fold made (`folding`), for the trigger that guards them.
    let foldPermit = FoldPermit()

    /// Removes a database file we were making and gave up on, with the companions SQLite makes beside it (a
    /// rollback journal, the WAL and its shared memory): closed after a failure (a full disk), SQLite leaves
    /// them, and nothing else would ever remove a file under a private name. Only for files nobody else has open.
    static func removeAbandoned(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// Where `rigbook_row` hands the rows of the read running on this connection (`eachRow`).
    let rowSink = RowSink()

    /// `rigbook_tag_key(tag)`: `Tags.key`, for SQL that must fold tags exactly as Swift does (the migration
    /// that fills `assets.tag_key`). No index, trigger or view uses it, so other SQLite tools can still
    /// read and query a register.
    private static func defineTagKey(_ db: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        sqlite3_create_function_v2(db, "rigbook_tag_key", 1, flags, nil, { context, _, arguments in
            guard let value = arguments?[0], sqlite3_value_type(value) != SQLITE_NULL,
                  let text = sqlite3_value_text(value) else { sqlite3_result_null(context); return }
            let count = Int(sqlite3_value_bytes(value))
            let key = Tags.key(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            sqlite3_result_text(context, key, -1, rb_sqlite_transient())
        }, nil, nil, nil)
    }

    deinit { sqlite3_close_v2(handle) }

    /// A `file:` URI naming `path`, with `%`, `?` and `#` escaped so they stay part of the name.
    static func uri(_ path: String, query: String) -> String {
        let escaped = path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3F")
            .replacingOccurrences(of: "#", with: "%23")
        // An empty authority before an absolute path, so a path starting `//` is not read as a host.
        return (path.hasPrefix("/") ? "file://" : "file:") + escaped + "?" + query
    }

    func error(_ rc: Int32, sql: String?) -> DatabaseError {
        DatabaseError(code: rc, extendedCode: sqlite3_extended_errcode(handle),
                      message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql: sql) }
    }

    public func prepare(_ sql: String) throws -> Statement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc, sql: sql) }
        return Statement(database: self, handle: stmt, sql: sql)
    }

    /// `sql` prepared once for this connection and kept, for statements run on every write. Each use is
    /// reset at its end, so a kept statement never holds the database open between uses.
    func withKept<T>(_ sql: String, _ arguments: [SQLValue], _ use: (Statement) throws -> T) throws -> T {
        keptLock.lock()
        defer { keptLock.unlock() }
        let statement: Statement
        if let found = kept[sql] { statement = found } else {
            let prepared = try prepare(sql)
            statement = Statement(database: self, handle: prepared.detach(), sql: sql, keptByDatabase: true)
            kept[sql] = statement
        }
        try statement.bind(arguments)
        defer { statement.reset() }
        return try use(statement)
    }

    /// Runs `sql` with `arguments`, discarding rows.
    public func run(_ sql: String, _ arguments: [SQLValue] = []) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// The first column of the first row, if any.
    public func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.step() ? statement.value(0) : nil
    }

    /// Runs `body` in an IMMEDIATE transaction (the write lock is taken at BEGIN, so a busy register
    /// is reported before any work, not at COMMIT); rolls back on any error.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in a transaction as `transaction` does, then rolls it back when `rollingBack` (a dry run:
    /// every check and write is made, nothing is kept).
    public func transaction<T>(rollingBack: Bool, _ body: () throws -> T) throws -> T {
        guard rollingBack else { return try transaction(body) }
        try execute("BEGIN IMMEDIATE")
        defer { try? execute("ROLLBACK") }
        return try body()
    }

    /// Runs `body`'s reads on one snapshot (a read transaction), or on the one already open: several queries that
    /// must agree (counts and the rows they count), with one lock of the file rather than one a query.
    func reading<T>(_ body: () throws -> T) throws -> T {
        guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        return try body()
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows this connection has inserted, changed or deleted since it opened (triggers' rows too).
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Runs `body` (which opens its own transaction) with room for a write that touches many pages: a page
    /// cache of `cacheMiB` (random index pages are re-read otherwise) and statement journals in memory. Each
    /// statement with a trigger that may abort journals the pages it changes; past 64 KiB SQLite moves that
    /// journal to a temporary file for good, and every later statement wrote its pages there (28 `pwrite`s a
    /// record of a batch). What reaches the register is as durable as ever; memory comes back after.
    public func withRoomForLargeWrite<T>(cacheMiB: Int, _ body: () throws -> T) throws -> T {
        try execute("PRAGMA cache_size = -\(cacheMiB * 1024); PRAGMA temp_store = MEMORY")
        defer { try? execute("PRAGMA cache_size = -2000; PRAGMA temp_store = DEFAULT") }
        return try body()
    }

    /// Whether the main database can only be read on this connection: opened to read, or opened to write on a
    /// file SQLite found it may not write (it then opens it to read, saying nothing until a write fails).
    public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }
}

/// A prepared statement, finalized when released.
public final class Statement: RowColumns {
    /// The connection, kept alive by the statement; nil for a statement the connection itself keeps
    /// (`withKept`), which must not keep its owner alive.
    private let owner: Database?
    private weak var keeper: Database?
    let handle: OpaquePointer
    public let sql: String

    var database: Database { (owner ?? keeper)! }

    init(database: Database, handle: OpaquePointer, sql: String, keptByDatabase: Bool = false) {
        owner = keptByDatabase ? nil : database
        keeper = database
        self.handle = handle
        self.sql = sql
    }

    /// Set when the handle has moved to another `Statement` (`detach`): not finalized here then.
    private var detached = false

    deinit { if !detached { sqlite3_finalize(handle) } }

    /// Hands the prepared handle over to a new owner.
    fileprivate func detach() -> OpaquePointer {
        detached = true
        return handle
    }

    /// Ends the statement's current run (it keeps its bindings until the next `bind`).
    func reset() { sqlite3_reset(handle) }

    /// Resets the statement and binds `values` to parameters 1…n.
    public func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .real(let v): rc = sqlite3_bind_double(handle, index, v)
            case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, rb_sqlite_transient())
            }
            guard rc == SQLITE_OK else { throw database.error(rc, sql: sql) }
        }
    }

    /// Advances to the next row: true while there is one.
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(rc, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    var columnCount: Int32 { sqlite3_column_count(handle) }
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        guard let pointer = sqlite3_column_text(handle, column) else {
            return body(UnsafeBufferPointer(start: nil, count: 0))  // NULL: an asset has nine or so, each call costs
        }
        return body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column))))
    }

    public func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(int64(column))
        case SQLITE_FLOAT: .real(double(column))
        case SQLITE_NULL: .null
        default: .text(text(column))
        }
    }
}
