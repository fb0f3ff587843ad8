import Foundation
import RigbookCore

/// A bulk load's rows, packed for binding: every row's values back to back, and every text's UTF-8 bytes back to back
/// (the writer binds a text where it lies; SQLite copies it once, into its page). Each entry also keeps its canonical
/// text less the header (`body`), so the chain has only the header to add, hash and sign.
struct BulkRows: Sendable {
    /// A column's value as the writer binds it: a text by where its bytes are.
    enum Value: Sendable {
        case null
        case integer(Int64)
        case real(Double)
        case text(start: Int32, count: Int32)
    }

    struct Row: Sendable {
        let table: BulkTable
        /// Where its values start: the table's `columns`, in order, the hash and parent last.
        let first: Int
        /// Its canonical text's column lines, in `bodies`.
        let body: Range<Int>
        /// Who signs the entry as it is chained, in `signers` (nil: nobody vouches for it): a number, so a row is
        /// copied without retaining anything.
        let signer: Int?
    }

    var rows: [Row] = []
    var values: [Value] = []
    var bytes: [UInt8] = []
    var bodies: [UInt8] = []
    var signers: [RecordSigner] = []
    /// The assets these rows add.
    var assets = 0
    /// The report sequence before these rows and after them: the register's must be `sequenceBefore` when they go in.
    var sequenceBefore = 0
    var sequenceAfter = 0
    /// The chain's head before these rows and after them (`BulkChain`).
    var headBefore: String?
    var headAfter: String?

    init(capacity assets: Int) {
        rows.reserveCapacity(assets * 8)
        values.reserveCapacity(assets * 8 * 40)
        bytes.reserveCapacity(assets * 8 * 1_200)
        bodies.reserveCapacity(assets * 8 * 1_600)
    }

    /// Appends a row of `table` whose columns but the hash and parent are `values`; the two are NULL until chained.
    mutating func append(_ table: BulkTable, _ values: [SQLValue], signer: Int?) {
        let start = bodies.count
        HashChain.appendBody(table.layout, values, to: &bodies)
        rows.append(Row(table: table, first: self.values.count, body: start..<bodies.count, signer: signer))
        for value in values { self.values.append(pack(value)) }
        self.values.append(contentsOf: [.null, .null])
    }

    /// `text` as a value: its bytes appended.
    mutating func pack(_ text: String) -> Value {
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        return .text(start: Int32(start), count: Int32(bytes.count - start))
    }

    mutating func pack(_ value: SQLValue) -> Value {
        switch value {
        case .null: .null
        case .integer(let v): .integer(v)
        case .real(let v): .real(v)
        case .text(let v): pack(v)
        }
    }

    /// The value at `index` as the save path holds it.
    func sqlValue(at index: Int) -> SQLValue {
        switch values[index] {
        case .null: .null
        case .integer(let v): .integer(v)
        case .real(let v): .real(v)
        case .text(let start, let count): .text(String(decoding: bytes[Int(start)..<Int(start + count)],
                                                       as: UTF8.self))
        }
    }
}
