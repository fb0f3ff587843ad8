import Foundation
import RigbookCore

/// The register as the `RowSource` of a command that writes many rows: its active assets (retired
/// ones too, if asked) that `including` keeps, in tag order, then again by uuid; and for the report each asset's
/// latest thorough examination and tests, read one asset at a time as the page shows them. Use it inside
/// `Register.onOneSnapshot`, so every read sees the same register.
public final class RegisterSource: ReportSource {
    public let register: Register
    private let includingRetired: Bool
    private let including: (RegisterRow) -> Bool
    /// Prepared on the first asset's examination and kept for the others.
    private var latestThorough: Statement?
    /// Forked amendment chains' standing (usually none), read once.
    private var settled: [UUID: StoredInspection]?

    public init(_ register: Register, includingRetired: Bool = false,
                including: @escaping (RegisterRow) -> Bool = { _ in true }) {
        self.register = register
        self.includingRetired = includingRetired
        self.including = including
    }

    public func forEachRow(_ body: (RegisterRow) throws -> Void) throws {
        var failure: Error?
        try register.forEachRow(includingRetired: includingRetired) { row in
            guard including(row) else { return true }
            do { try body(row) } catch { failure = error; return false }
            return true
        }
        if let failure { throw failure }
    }

    public func forEachRow(uuids: some Sequence<UUID>, _ body: (RegisterRow) throws -> Void) throws {
        var failure: Error?
        try register.forEachRow(uuids: uuids) { row in
            do { try body(row) } catch { failure = error; return false }
            return true
        }
        if let failure { throw failure }
    }

    public func rowCountBound() throws -> Int { try register.assetCount() }

    public func latestThoroughExamination(of asset: UUID) throws -> StoredInspection? {
        try register.perform {
            let (statement, settled) = try latestThoroughStatement(asset)
            // Newest first: the first that counts is the one the whole-register read keeps last.
            while try statement.step() {
                let record = InspectionColumns.record(statement)
                if settled[record.recordUUID]?.counts == false { continue }
                return record
            }
            return nil
        }
    }

    public func hasLatestThoroughExamination(of asset: UUID) throws -> Bool {
        let settled = try register.perform { try latestThoroughStatement(asset).settled }
        // With no forked chain, any row is one that counts: no record is decoded.
        guard settled.isEmpty else { return try latestThoroughExamination(of: asset) != nil }
        return try register.perform { try latestThoroughStatement(asset).statement.step() }
    }

    public func latestTests(of assets: Set<UUID>) throws -> [UUID: StoredTest] {
        try register.latestTests(of: assets)
    }

    /// The kept statement, bound to `asset`: its thorough examinations nothing supersedes, newest first.
    private func latestThoroughStatement(_ asset: UUID) throws
        -> (statement: Statement, settled: [UUID: StoredInspection]) {
        let statement: Statement
        if let kept = latestThorough { statement = kept } else {
            let thorough = InspectionType.allCases.filter(\.isThorough).map { "'\($0.rawValue)'" }
                .joined(separator: ", ")
            statement = try register.db.prepare("""
                SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from)
                WHERE i.asset_uuid = ? AND i.inspection_type IN (\(thorough)) AND s.id IS NULL
                ORDER BY i.inspection_date DESC, i.id DESC
                """)
            latestThorough = statement
        }
        let settled = try self.settled ?? register.standingOfForkedChains()
        self.settled = settled
        try statement.bind([.text(asset.uuidString)])
        return (statement, settled)
    }
}
