import Foundation

/// A bulk load's entries hashed onto the chain and signed, in order, as `HashChain.chained` and `SignatureStore` do
/// it for each entry of a save, but with no register: the head is held here, so this runs on a thread of its own
/// between the one that makes the rows and the one that writes them. The chain is the one part of the load that
/// cannot be split: each entry names the hash of the one before, a signature's among them. Used by one thread at a
/// time.
final class BulkChain: @unchecked Sendable {
    private(set) var head: String?

    init(head: String?) { self.head = head }

    /// Sets every entry's hash and parent, and follows each signed entry by its signature.
    func chain(_ rows: inout BulkRows) throws {
        let entries = rows.rows
        rows.rows = []
        rows.rows.reserveCapacity(entries.count * 3 / 2)
        rows.headBefore = head
        // The parent of each entry is the hash of the one before: its bytes are packed once and bound twice.
        var parent: BulkRows.Value = head.map { rows.pack($0) } ?? .null
        var canonical: [UInt8] = []
        canonical.reserveCapacity(4_096)
        for entry in entries {
            rows.rows.append(entry)
            let hash = try hashLast(&rows, parent: &parent, canonical: &canonical)
            guard let signer = entry.signer,
                  let signature = try SignatureStore.signature(by: rows.signers[signer], entry.table.kind,
                                                               canonical: canonical, hash: hash,
                                                               { value($0, of: entry, in: rows) })
            else { continue }
            // Chained right after the entry it signs, as `SignatureStore.appendPending` chains it.
            rows.append(.signature, signature, signer: nil)
            _ = try hashLast(&rows, parent: &parent, canonical: &canonical)
        }
        rows.bodies = []
        rows.headAfter = head
    }

    /// Hashes the last row onto the head (its canonical text left in `canonical`, for its signature), sets its hash
    /// and parent, and makes it the head.
    private func hashLast(_ rows: inout BulkRows, parent: inout BulkRows.Value,
                          canonical: inout [UInt8]) throws -> String {
        let row = rows.rows[rows.rows.count - 1]
        canonical.removeAll(keepingCapacity: true)
        canonical.append(contentsOf: HashChain.header(row.table.kind, parent: head).utf8)
        canonical.append(contentsOf: rows.bodies[row.body])
        let hash = try HashChain.sha256(canonical)
        let hashValue = rows.pack(hash)
        let end = row.first + row.table.columnCount
        rows.values[end - 2] = hashValue
        rows.values[end - 1] = parent
        parent = hashValue
        head = hash
        return hash
    }

    /// The value of the column `name` of `row` (NULL when its table has no such column).
    private func value(_ name: String, of row: BulkRows.Row, in rows: BulkRows) -> SQLValue {
        guard let index = row.table.layout.columns.firstIndex(of: name) else { return .null }
        return rows.sqlValue(at: row.first + index)
    }
}
