import CSQLite

/// The columns of one row as a mapping reads them (`AssetColumns.row`): a statement's, or the arguments
/// `rigbook_row` was called with.
protocol RowColumns {
    func isNull(_ column: Int32) -> Bool
    func int(_ column: Int32) -> Int
    func double(_ column: Int32) -> Double
    /// The column's text bytes without making a String (empty for NULL).
    func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T
}

extension RowColumns {
    func text(_ column: Int32) -> String { withBytes(column) { String(decoding: $0, as: UTF8.self) } }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}

/// Many rows read through a SQL function: `SELECT rigbook_row(a, b, …) FROM …` calls back into Swift once a
/// row, inside `sqlite3_step`, with the row's columns as the function's arguments. Each column read through the
/// statement instead (`sqlite3_column_text`, then `sqlite3_column_bytes`) passes SQLite's checks of the statement
/// and its row twice; an argument is read straight from its value. At 100,000 assets that is three million
/// columns, and it took the first frame from ~170 ms to ~95 ms (PERFORMANCE.md).
///
/// The function is defined on every connection, like `rigbook_tag_key`; nothing stored uses it, so other SQLite
/// tools still read a register. Called outside `Database.eachRow` it returns NULL and does nothing.
final class RowSink {
    fileprivate var body: ((FunctionArguments) -> Bool)?
    /// Set when `body` asked to stop: the statement is not stepped again.
    fileprivate var stopped = false
}

/// The arguments of one call of `rigbook_row`: protected values, which SQLite documents for reading.
struct FunctionArguments: RowColumns {
    fileprivate let values: UnsafeMutablePointer<OpaquePointer?>

    func isNull(_ column: Int32) -> Bool { sqlite3_value_type(values[Int(column)]) == SQLITE_NULL }
    func int(_ column: Int32) -> Int { Int(sqlite3_value_int64(values[Int(column)])) }
    func double(_ column: Int32) -> Double { sqlite3_value_double(values[Int(column)]) }

    func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let value = values[Int(column)]
        guard let pointer = sqlite3_value_text(value) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(value))))
    }
}

extension Database {
    static func defineRowFunction(_ db: OpaquePointer, sink: RowSink) {
        // Not deterministic: it must run once a row, never be folded or moved out of the loop.
        sqlite3_create_function_v2(db, "rigbook_row", -1, SQLITE_UTF8, Unmanaged.passUnretained(sink).toOpaque(),
                                   { context, _, arguments in
            let sink = Unmanaged<RowSink>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
            if !sink.stopped, let body = sink.body, let arguments {
                sink.stopped = !body(FunctionArguments(values: arguments))
            }
            sqlite3_result_null(context)
        }, nil, nil, nil)
    }

    /// Steps `statement`, which selects `rigbook_row(…)` of the columns wanted, handing each row to `body` until it
    /// returns false or the rows end. A read begun inside `body` has the sink until it ends, then this one again.
    func eachRow(_ statement: Statement, _ body: (FunctionArguments) -> Bool) throws {
        // A statement without the function would step through its rows and hand none over.
        assert(statement.sql.contains("rigbook_row("), "eachRow needs a statement that selects rigbook_row(…)")
        try withoutActuallyEscaping(body) { body in
            let outer = (rowSink.body, rowSink.stopped)
            rowSink.body = body
            rowSink.stopped = false
            defer { (rowSink.body, rowSink.stopped) = outer }
            while !rowSink.stopped, try statement.step() {}
        }
    }
}
