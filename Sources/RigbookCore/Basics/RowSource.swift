import Foundation

/// Where a command that writes many rows reads the register: once through, in tag order, then again
/// by uuid for the rows it kept a key of (`RowOrder`). The register, on one read snapshot, and rows held in
/// memory (`RowsInMemory`: tests, small callers) both serve, and the same rows give the same bytes.
public protocol RowSource {
    /// Every row the output covers, in tag order.
    func forEachRow(_ body: (RegisterRow) throws -> Void) throws
    /// The rows with these uuids, in the order given; a uuid the source does not hold is skipped.
    func forEachRow(uuids: some Sequence<UUID>, _ body: (RegisterRow) throws -> Void) throws
    /// At least as many rows as the first read gives: room for their keys is reserved once (growing by
    /// doubling would copy, and briefly hold twice, a million keys).
    func rowCountBound() throws -> Int
}

/// Rows held in memory as a `RowSource`, in the order given.
public struct RowsInMemory: RowSource {
    public let rows: [RegisterRow]
    private let indexByUUID: [UUID: Int]

    public init(_ rows: [RegisterRow]) {
        self.rows = rows
        indexByUUID = Dictionary(rows.enumerated().map { ($1.asset.uuid, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func forEachRow(_ body: (RegisterRow) throws -> Void) throws {
        for row in rows { try body(row) }
    }

    public func forEachRow(uuids: some Sequence<UUID>, _ body: (RegisterRow) throws -> Void) throws {
        for uuid in uuids {
            if let index = indexByUUID[uuid] { try body(rows[index]) }
        }
    }

    public func rowCountBound() -> Int { rows.count }
}
