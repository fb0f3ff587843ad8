import Foundation

extension StatusColumns {
    /// The status columns of an asset row not yet inserted, worked out by `expressions` (the very SQL
    /// `assets_statuses_on_insert` runs on a row it has just inserted) on a connection of its own, to an in-memory
    /// database: a bulk load works them out on the thread that makes its rows, not on the one that writes them
    /// (their dates are most of the cost of inserting an asset). Used by one thread at a time.
    final class Ahead {
        private let db: Database
        private let statement: Statement
        /// Where each input of the expressions is among the row's columns (nil: not written, so NULL).
        private let inputs: [Int?]

        /// For rows of `columns`, in order.
        init(columns: [String]) throws {
            db = try Database(path: ":memory:")
            inputs = StatusColumns.inputs.map { columns.firstIndex(of: $0) }
            let named = StatusColumns.inputs.enumerated().map { "?\($0 + 1) AS \($1)" }.joined(separator: ", ")
            statement = try db.prepare("SELECT \(expressions(row: "").joined(separator: ", ")) FROM (SELECT \(named))")
        }

        /// The values of `names`, in order, for the row `values`.
        func values(_ values: [SQLValue]) throws -> [SQLValue] {
            try statement.bind(inputs.map { $0.map { values[$0] } ?? .null })
            defer { statement.reset() }
            guard try statement.step() else { throw RegisterError.writeFailed("an asset's statuses gave no row") }
            return names.indices.map { statement.value(Int32($0)) }
        }
    }
}
