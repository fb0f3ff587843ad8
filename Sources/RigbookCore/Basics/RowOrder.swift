import Foundation

/// What a `RowOrder` keeps of a row between the two reads: what orders it, and its uuid to read it again by.
public protocol RowKey {
    var uuid: UUID { get }
}

/// The two-pass pattern, in bounded memory, for a command that writes many rows in an order of its own: the first read
/// of a `RowSource` keeps a small key per row to be written (tens of bytes, where a `RegisterRow` is ~650 and
/// up), the keys are put in the output's order, and a second read fetches those rows again by uuid, one at a
/// time, in that order. `due`, the calendar feed and the report all write this way.
public struct RowOrder<Key: RowKey> {
    private var keys: [Key] = []
    /// The keys' order once sorted, as indices: sorting 4-byte indices needs a 2-byte-a-key buffer where sorting
    /// the keys themselves (40–48 bytes) needs half their size again, at a million keys some 20 MB more.
    private var order: [Int32]?

    /// `capacity`: room reserved up front, of which only the used part is ever touched (growing by doubling
    /// would copy, and briefly hold twice, a million keys).
    public init(reservingCapacity capacity: Int = 0) { keys.reserveCapacity(capacity) }

    public var count: Int { order?.count ?? keys.count }
    public var isEmpty: Bool { count == 0 }

    /// Kept in the order added (after the sorted ones, once sorted).
    public mutating func append(_ key: Key) {
        order?.append(Int32(keys.count))
        keys.append(key)
    }

    /// The keys in order, as `keys.sorted(by:)` would give them (the same comparisons in the same sequence).
    public mutating func sort(by areInIncreasingOrder: (Key, Key) throws -> Bool) rethrows {
        var order = self.order ?? Array(0..<Int32(keys.count))
        self.order = nil
        try keys.withUnsafeBufferPointer { keys in
            try order.sort { try areInIncreasingOrder(keys[Int($0)], keys[Int($1)]) }
        }
        self.order = order
    }

    public mutating func removeAll(where shouldBeRemoved: (Key) throws -> Bool) rethrows {
        guard var order else { return try keys.removeAll(where: shouldBeRemoved) }
        self.order = nil
        let keys = self.keys
        try order.removeAll { try shouldBeRemoved(keys[Int($0)]) }
        self.order = order
    }

    public var orderedKeys: some Collection<Key> {
        let keys = self.keys
        return (order ?? Array(0..<Int32(keys.count))).lazy.map { keys[Int($0)] }
    }

    /// The kept rows again, in key order, each with its key.
    public func forEachRow(from source: some RowSource, _ body: (Key, RegisterRow) throws -> Void) throws {
        let ordered = orderedKeys
        var index = ordered.startIndex
        try source.forEachRow(uuids: ordered.lazy.map(\.uuid)) { row in
            // A uuid the source no longer holds was skipped: move on to this row's own key.
            while index < ordered.endIndex, ordered[index].uuid != row.asset.uuid { ordered.formIndex(after: &index) }
            guard index < ordered.endIndex else { return }
            try body(ordered[index], row)
            ordered.formIndex(after: &index)
        }
    }
}

extension RowOrder where Key: Comparable {
    public mutating func sort() { sort(by: <) }
}
