import CPostgres
import Foundation

/// A failure talking to the organisation's server, as one sentence (the server's own message when it gave one).
public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Whose move it is after the failure: a script and the list's header tell waiting from putting right.
    public enum Cause: Sendable, Equatable {
        /// The server could not be reached, or the connection broke or went unanswered: nothing to put right
        /// here; the work waits in this register for a later sync.
        case tryLater
        /// The server refused for a reason someone must put right before any sync can work (a password, a
        /// database, a role, a permission): `problem` names it in a few words ("wrong password"), the message
        /// says what to do.
        case needsAction(problem: String)
        /// Anything else the server refused, in its own words.
        case other
    }

    public var message: String
    public var cause: Cause

    public init(_ message: String, cause: Cause = .other) {
        self.message = message
        self.cause = cause
    }

    public var description: String { message }
}

/// A server's URL as messages show it: any password taken out, whether in the user part
/// (`postgresql://rigbook:secret@host/db`) or given as a parameter (`?password=secret`, `password=secret`).
public enum ServerURL {
    public static func redacted(_ url: String) -> String {
        var shown = url
        if let at = shown.firstIndex(of: "@"), let scheme = shown.range(of: "://"), scheme.upperBound < at,
           let colon = shown[scheme.upperBound..<at].firstIndex(of: ":") {
            shown = String(shown[..<colon]) + ":…" + String(shown[at...])
        }
        // Rebuilt piece by piece: what comes after each `password=` up to the next parameter is left out.
        var rest = Substring(shown)
        var result = ""
        while let key = rest.range(of: "password=") {
            result += rest[..<key.upperBound] + "…"
            let value = rest[key.upperBound...]
            let end = value.first == "'"
                ? value.dropFirst().firstIndex(of: "'").map { value.index(after: $0) }
                : value.firstIndex { $0 == "&" || $0 == " " }
            rest = value[(end ?? value.endIndex)...]
        }
        return result + rest
    }
}

/// The rows of one query, read as text (libpq's text format) and typed by the column's PostgreSQL type.
final class PostgresRows {
    private let result: OpaquePointer
    let count: Int
    let columns: Int

    fileprivate init(_ result: OpaquePointer) {
        self.result = result
        count = Int(PQntuples(result))
        columns = Int(PQnfields(result))
    }

    deinit { PQclear(result) }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    func text(_ row: Int, _ column: Int) -> String {
        guard let pointer = PQgetvalue(result, Int32(row), Int32(column)) else { return "" }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    func optionalText(_ row: Int, _ column: Int) -> String? { isNull(row, column) ? nil : text(row, column) }

    /// The value as SQLite would hold it: bigint/integer as integer, double as real, anything else as text.
    func value(_ row: Int, _ column: Int) -> SQLValue {
        if isNull(row, column) { return .null }
        let text = text(row, column)
        switch PQftype(result, Int32(column)) {
        case 20, 21, 23: return Int64(text).map(SQLValue.integer) ?? .text(text)
        case 700, 701: return Double(text).map(SQLValue.real) ?? .text(text)
        default: return .text(text)
        }
    }

    func int64(_ row: Int, _ column: Int) -> Int64 { Int64(text(row, column)) ?? 0 }

    /// The value's bytes as sent (of a `binaryQuery`: a bytea column's content, unescaped).
    func bytes(_ row: Int, _ column: Int) -> Data {
        guard let pointer = PQgetvalue(result, Int32(row), Int32(column)) else { return Data() }
        return Data(bytes: pointer, count: Int(PQgetlength(result, Int32(row), Int32(column))))
    }
}

/// One libpq connection to the organisation's server. Used from one thread at a time.
final class PostgresConnection {
    private let handle: OpaquePointer
    let url: String

    /// Connects to `url` (`postgresql://…`, or any libpq connection string). Waits at most `timeout` seconds to
    /// connect, unless the URL says otherwise (its `connect_timeout`, as libpq reads it: 0 waits for ever).
    init(url: String, timeout: Int = 10) throws(ServerError) {
        self.url = url
        // Later parameters override earlier ones: the URL's own settings win over these defaults.
        let keywords = ["connect_timeout", "application_name", "client_encoding", "dbname"]
        let values = [String(timeout), "rigbook", "UTF8", url]
        let connection = withCStrings(keywords) { keys in
            withCStrings(values) { vals in PQconnectStartParams(keys, vals, 1) }
        }
        guard let connection else { throw ServerError("cannot connect to \(ServerURL.redacted(url)): out of memory") }
        // Verbose, so that a refusal's message carries its SQLSTATE: libpq gives no other way to read it.
        PQsetErrorVerbosity(connection, PQERRORS_VERBOSE)
        if let failure = Self.awaitConnection(connection, url: url) {
            PQfinish(connection)
            throw failure
        }
        PQsetErrorVerbosity(connection, PQERRORS_DEFAULT)
        handle = connection
        _ = PQsetNoticeProcessor(handle, { _, _ in }, nil)
        try execute("SET client_min_messages = warning; SET extra_float_digits = 1")
    }

    deinit { PQfinish(handle) }

    private static func message(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "unknown error" }
        // A verbose message's LOCATION lines name the server's source file: nothing a person can act on.
        return String(cString: pointer).split(separator: "\n")
            .filter { !$0.hasPrefix("LOCATION:") }
            .joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\n", with: "; ")
    }

    private func failure(_ result: OpaquePointer?, sql: String) -> ServerError {
        let lost = PQstatus(handle) != CONNECTION_OK
        let text = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "M"))) }
            .map { String(cString: $0) } ?? Self.message(PQerrorMessage(handle))
        if lost {
            return ServerError("the connection to the server was lost: \(text)", cause: .tryLater)
        }
        let code = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
        guard let code, let refusal = ServerRefusal(sqlState: code) else { return ServerError(text) }
        return refusal.error(server: ServerURL.redacted(url), serverSays: text,
                             role: PQuser(handle).map { String(cString: $0) } ?? "",
                             database: PQdb(handle).map { String(cString: $0) } ?? "")
    }

    // MARK: Connecting

    /// Drives libpq's non-blocking connect until the connection is made or fails, waiting at most the
    /// connection's `connect_timeout` in all. Nil when connected, else the failure, said by whose move it is.
    private static func awaitConnection(_ connection: OpaquePointer, url: String) -> ServerError? {
        let limit = connectTimeout(connection)
        let deadline = limit.map { ProcessInfo.processInfo.systemUptime + Double($0) }
        // Before the first PQconnectPoll libpq asks to wait until the socket can be written.
        var polling = PGRES_POLLING_WRITING
        while PQstatus(connection) != CONNECTION_BAD, polling != PGRES_POLLING_FAILED {
            if polling == PGRES_POLLING_OK { return nil }
            let socket = PQsocket(connection)
            if socket >= 0 {
                let events = Int16(polling == PGRES_POLLING_READING ? POLLIN : POLLOUT)
                var ready = pollfd(fd: socket, events: events, revents: 0)
                let left = deadline.map { max(0, Int32(($0 - ProcessInfo.processInfo.systemUptime) * 1000)) }
                let outcome = poll(&ready, 1, left ?? -1)
                if outcome < 0, errno == EINTR { continue }
                if outcome == 0, let limit { return timedOut(connection, url: url, seconds: limit) }
            }
            polling = PQconnectPoll(connection)
        }
        return refused(connection, url: url)
    }

    /// The seconds the connection may take, as libpq reads `connect_timeout` (less than 2 is 2; none or 0: no
    /// limit).
    private static func connectTimeout(_ connection: OpaquePointer) -> Int? {
        guard let options = PQconninfo(connection) else { return nil }
        defer { PQconninfoFree(options) }
        var index = 0
        while let keyword = options[index].keyword {
            if String(cString: keyword) == "connect_timeout" {
                guard let value = options[index].val, let seconds = Int(String(cString: value)), seconds > 0
                else { return nil }
                return max(2, seconds)
            }
            index += 1
        }
        return nil
    }

    /// The connection was not made in time: says how far it got, so "no machine answers" and "a server that
    /// accepts and says nothing" are told apart.
    private static func timedOut(_ connection: OpaquePointer, url: String, seconds: Int) -> ServerError {
        let host = PQhost(connection).map { String(cString: $0) } ?? ""
        let port = PQport(connection).map { String(cString: $0) } ?? ""
        let place = host.hasPrefix("/") ? "the socket in \(host)" : "\(host) port \(port)"
        let waitingFor = PQstatus(connection) == CONNECTION_STARTED
            ? "nothing at \(place) accepted the connection in \(seconds) s (waiting for the connection to be"
                + " accepted: the machine may be off, or a firewall drops it)"
            : "\(place) accepted the connection but did not answer the login in \(seconds) s (waiting for the"
                + " server's reply: a server too busy to answer, or not PostgreSQL on that port)"
        return ServerError("cannot reach the server \(ServerURL.redacted(url)): \(waitingFor)", cause: .tryLater)
    }

    /// The connection failed: a refusal someone must put right (the server's SQLSTATE says which), a server
    /// that is there but cannot take us now, or one that cannot be reached.
    private static func refused(_ connection: OpaquePointer, url: String) -> ServerError {
        let text = message(PQerrorMessage(connection))
        let raw = PQerrorMessage(connection).map { String(cString: $0) } ?? ""
        let role = PQuser(connection).map { String(cString: $0) } ?? ""
        let database = PQdb(connection).map { String(cString: $0) } ?? ""
        let server = ServerURL.redacted(url)
        if let (code, serverSays) = ServerRefusal.sqlState(in: raw) {
            if let refusal = ServerRefusal(sqlState: code) {
                return refusal.error(server: server, serverSays: serverSays, role: role, database: database)
            }
            guard ServerRefusal.isTemporary(code) else {
                return ServerError("the server \(server) refused the connection: \(serverSays)")
            }
            return ServerError("cannot reach the server \(server): \(serverSays)", cause: .tryLater)
        } else if PQconnectionNeedsPassword(connection) == 1 {
            return ServerRefusal.noPassword.error(server: server, serverSays: text, role: role, database: database)
        }
        return ServerError("cannot reach the server \(server): \(text)", cause: .tryLater)
    }

    /// Runs one or more statements without parameters.
    func execute(_ sql: String) throws(ServerError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(result, sql: sql) }
    }

    /// Runs one statement with `$1…$n` parameters sent as text; returns its rows.
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLValue] = []) throws(ServerError) -> PostgresRows {
        let texts: [String?] = parameters.map { value in
            switch value {
            case .null: nil
            case .integer(let v): String(v)
            case .real(let v): "\(v)"
            case .text(let v): v
            }
        }
        let result = withOptionalCStrings(texts) { pointers in
            PQexecParams(handle, sql, Int32(texts.count), nil, pointers, nil, nil, 0)
        }
        return try rows(result, sql: sql)
    }

    /// Runs one statement with `parameters` sent as bytes and its rows returned as bytes (libpq's binary
    /// format): attachment files travel as bytea without escaping. A text parameter or column is its UTF-8.
    func binaryQuery(_ sql: String, _ parameters: [Data]) throws(ServerError) -> PostgresRows {
        let copies = parameters.map { data -> UnsafeMutablePointer<CChar> in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, data.count))
            data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: data.count)
            }
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        let values: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
        let lengths = parameters.map { Int32($0.count) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        let result = PQexecParams(handle, sql, Int32(parameters.count), nil, values, lengths, formats, 1)
        return try rows(result, sql: sql)
    }

    private func rows(_ result: OpaquePointer?, sql: String) throws(ServerError) -> PostgresRows {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard let result, status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let error = failure(result, sql: sql)
            PQclear(result)
            throw error
        }
        return PostgresRows(result)
    }

    /// Runs one SELECT with `$1…$n` parameters through a cursor, handing `body` its rows `batch` at a time: no more
    /// than one batch is ever held here, where one `query` holds every row until it is released. Only inside a
    /// `transaction` (a cursor lives in one), and one at a time on a connection.
    func forEachBatch(_ sql: String, _ parameters: [SQLValue] = [], batch: Int = 1_000,
                      _ body: (PostgresRows) throws -> Void) throws {
        let size = max(1, batch)
        try query("DECLARE rigbook_batches NO SCROLL CURSOR FOR " + sql, parameters)
        while true {
            let rows = try query("FETCH \(size) FROM rigbook_batches")
            if rows.count > 0 { try body(rows) }
            if rows.count < size { break }
        }
        try execute("CLOSE rigbook_batches")
    }

    /// The first column of the first row, if any.
    func scalar(_ sql: String, _ parameters: [SQLValue] = []) throws(ServerError) -> SQLValue? {
        let rows = try query(sql, parameters)
        return rows.count > 0 && rows.columns > 0 ? rows.value(0, 0) : nil
    }

    /// Runs `body` in a transaction (`BEGIN` with `mode`), committed when it returns, rolled back when it throws.
    func transaction<T>(_ mode: String = "", _ body: () throws -> T) throws -> T {
        try execute("BEGIN" + (mode.isEmpty ? "" : " " + mode))
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if PQstatus(handle) == CONNECTION_OK { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Streams `rows` into `table` with COPY (text format): the fast way to send a batch.
    func copy(into table: String, columns: [String], rows: [[SQLValue]]) throws(ServerError) {
        let sql = "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN"
        let start = PQexec(handle, sql)
        defer { PQclear(start) }
        guard let start, PQresultStatus(start) == PGRES_COPY_IN else { throw failure(start, sql: sql) }
        var buffer = [UInt8]()
        buffer.reserveCapacity(1 << 16)
        func flush() throws(ServerError) {
            guard !buffer.isEmpty else { return }
            let sent = buffer.withUnsafeBufferPointer { pointer in
                pointer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
            }
            guard sent == 1 else { throw failure(nil, sql: sql) }
            buffer.removeAll(keepingCapacity: true)
        }
        for row in rows {
            for (index, value) in row.enumerated() {
                if index > 0 { buffer.append(0x09) }
                Self.appendCopyField(value, to: &buffer)
            }
            buffer.append(0x0A)
            if buffer.count > 1 << 16 { try flush() }
        }
        try flush()
        guard PQputCopyEnd(handle, nil) == 1 else { throw failure(nil, sql: sql) }
        var failed: ServerError?
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) != PGRES_COMMAND_OK, failed == nil { failed = failure(result, sql: sql) }
            PQclear(result)
        }
        if let failed { throw failed }
    }

    /// A value in COPY's text format: `\N` for NULL, backslash escapes for the separators.
    private static func appendCopyField(_ value: SQLValue, to buffer: inout [UInt8]) {
        let text: String
        switch value {
        case .null: buffer.append(contentsOf: Array("\\N".utf8)); return
        case .integer(let v): text = String(v)
        case .real(let v): text = "\(v)"
        case .text(let v): text = v
        }
        for byte in text.utf8 {
            switch byte {
            case 0x5C: buffer.append(contentsOf: [0x5C, 0x5C])
            case 0x09: buffer.append(contentsOf: [0x5C, 0x74])
            case 0x0A: buffer.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: buffer.append(contentsOf: [0x5C, 0x72])
            default: buffer.append(byte)
            }
        }
    }

    /// `values` as a PostgreSQL text array literal, each element quoted.
    static func arrayLiteral(_ values: [String]) -> String {
        "{" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ",") + "}"
    }
}

/// Calls `body` with `strings` as a C array of C strings, alive for the call.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    withOptionalCStrings(strings.map { Optional($0) } + [nil]) { body($0) }
}

private func withOptionalCStrings<T>(_ strings: [String?],
                                     _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
