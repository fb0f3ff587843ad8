import Dispatch
import RigbookCore

/// Reads a large register's rows on two connections at once into one array (`Register.rows`; each statement selects
/// `AssetColumns.selectThroughFunction`): this thread reads the lower half of the tags forwards into the front of
/// the array, another reads the upper half backwards into its back, and the upper block is then moved down against
/// the lower one. The rows are never held twice.
///
/// Each half has its room (`split` rows at the front, the rest at the back). A half that finds more rows than
/// its room (assets added between the count and the reads) keeps the rest aside and the array is joined the
/// slow way: rare, and still right.
enum HalvesReader {
    private final class UpperHalf: @unchecked Sendable {
        var count = 0
        var spill: [RegisterRow] = []
        var error: Error?
    }

    static func read(capacity: Int, split: Int, lower: Statement,
                     openUpper: @escaping @Sendable () throws -> (Database, Statement)) throws -> [RegisterRow] {
        let upper = UpperHalf()
        var lowerCount = 0
        var lowerSpill: [RegisterRow] = []
        var lowerError: Error?
        // At least one element's room, so the buffer has an address even when both rooms are empty (all spills).
        var rows = [RegisterRow](unsafeUninitializedCapacity: max(1, capacity)) { buffer, initialized in
            let base = buffer.baseAddress!
            // The buffer's address crosses to the other thread as a number: each thread writes only its own room.
            let address = UInt(bitPattern: base)
            let group = DispatchGroup()
            DispatchQueue.global(qos: .userInitiated).async(group: group) {
                let base = UnsafeMutablePointer<RegisterRow>(bitPattern: address)!
                do {
                    let (connection, statement) = try openUpper()
                    defer { withExtendedLifetime(connection) {} }
                    try connection.eachRow(statement) { columns in
                        let row = AssetColumns.row(columns)
                        if upper.count < capacity - split {
                            (base + capacity - 1 - upper.count).initialize(to: row)
                            upper.count += 1
                        } else {
                            upper.spill.append(row)
                        }
                        return true
                    }
                } catch {
                    upper.error = error
                }
            }
            do {
                try lower.database.eachRow(lower) { columns in
                    let row = AssetColumns.row(columns)
                    if lowerCount < split {
                        (base + lowerCount).initialize(to: row)
                        lowerCount += 1
                    } else {
                        lowerSpill.append(row)
                    }
                    return true
                }
            } catch {
                lowerError = error
            }
            group.wait()
            // The upper block, already in tag order, moves down to follow the lower one.
            (base + lowerCount).moveInitialize(from: base + capacity - upper.count, count: upper.count)
            initialized = lowerCount + upper.count
        }
        if let error = lowerError ?? upper.error { throw error }
        if !lowerSpill.isEmpty || !upper.spill.isEmpty {
            rows = Array(rows[..<lowerCount]) + lowerSpill + upper.spill.reversed() + Array(rows[lowerCount...])
        }
        return rows
    }
}
