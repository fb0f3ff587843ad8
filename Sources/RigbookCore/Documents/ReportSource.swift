import Foundation

/// Where the report reads the register: its rows (`RowSource`), and by asset what the page shows of its
/// examinations and tests, asked for only once the first read has found which assets the page shows.
public protocol ReportSource: RowSource {
    /// The asset's latest thorough examination that still counts (as `Register.latestThoroughExaminations`).
    func latestThoroughExamination(of asset: UUID) throws -> StoredInspection?
    /// Whether it has one, without reading it (the page counts the examinations before it shows them).
    func hasLatestThoroughExamination(of asset: UUID) throws -> Bool
    /// Each of these assets' latest electrical test (by test date, then save order).
    func latestTests(of assets: Set<UUID>) throws -> [UUID: StoredTest]
}

/// The report's register held in memory: `HTMLReport.render` and tests.
public struct ReportInMemory: ReportSource {
    public let rows: RowsInMemory
    public let latestThorough: [UUID: StoredInspection]
    public let latestTests: [UUID: StoredTest]

    public init(rows: [RegisterRow], latestThorough: [UUID: StoredInspection],
                latestTests: [UUID: StoredTest] = [:]) {
        self.rows = RowsInMemory(rows)
        self.latestThorough = latestThorough
        self.latestTests = latestTests
    }

    public func forEachRow(_ body: (RegisterRow) throws -> Void) throws { try rows.forEachRow(body) }

    public func forEachRow(uuids: some Sequence<UUID>, _ body: (RegisterRow) throws -> Void) throws {
        try rows.forEachRow(uuids: uuids, body)
    }

    public func rowCountBound() -> Int { rows.rowCountBound() }

    public func latestThoroughExamination(of asset: UUID) -> StoredInspection? { latestThorough[asset] }

    public func hasLatestThoroughExamination(of asset: UUID) -> Bool { latestThorough[asset] != nil }

    public func latestTests(of assets: Set<UUID>) -> [UUID: StoredTest] {
        latestTests.filter { assets.contains($0.key) }
    }
}
