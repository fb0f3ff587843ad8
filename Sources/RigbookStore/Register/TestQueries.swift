import Foundation
import RigbookCore

/// What the outward views read of electrical tests: every test for the export, one by id for its
/// certificate, the failed ones of a period for the report, the latest of each asset for labels and reports.
extension Register {
    /// How many tests the register holds (the export's progress line).
    public func testCount() throws(RegisterError) -> Int {
        try perform {
            guard case .integer(let count) = try db.scalar("SELECT count(*) FROM electrical_tests") else { return 0 }
            return Int(count)
        }
    }

    /// Every test in save order, one at a time (an export never holds them all).
    public func forEachTest(_ body: (StoredTest) throws -> Void) throws(RegisterError) {
        try forEachTaggedTest { test, _ in try body(test) }
    }

    /// As `forEachTest`, each with its item's tag now ("" if the register holds no such asset), as
    /// `forEachTaggedRecord`.
    public func forEachTaggedTest(_ body: (StoredTest, String) throws -> Void) throws(RegisterError) {
        try perform {
            let statement = try db.prepare("""
                SELECT \(TestColumns.select), (SELECT t.tag FROM assets t WHERE t.uuid = electrical_tests.asset_uuid)
                FROM electrical_tests ORDER BY id
                """)
            let tagColumn = statement.columnCount - 1
            while try statement.step() {
                try body(TestColumns.record(statement), statement.optionalText(tagColumn) ?? "")
            }
        }
    }

    public func test(id: Int64) throws(RegisterError) -> StoredTest? { try firstTest("id = ?", .integer(id)) }

    /// The test of that uuid, found on its unique index (not by reading every test).
    public func test(uuid: UUID) throws(RegisterError) -> StoredTest? {
        try firstTest("test_uuid = ?", .text(uuid.uuidString))
    }

    private func firstTest(_ condition: String, _ value: SQLValue) throws(RegisterError) -> StoredTest? {
        try perform {
            let statement = try db.prepare("SELECT \(TestColumns.select) FROM electrical_tests WHERE \(condition)")
            try statement.bind([value])
            return try statement.step() ? TestColumns.record(statement) : nil
        }
    }

    /// Failed tests dated `from` through `through`, in date then save order: the report keeps each in its
    /// attention list for its period, as it keeps a dangerous fail.
    public func failedTests(from: CalendarDate, through: CalendarDate) throws(RegisterError) -> [StoredTest] {
        try perform {
            let statement = try db.prepare("SELECT \(TestColumns.select) FROM electrical_tests WHERE result = 'fail'"
                                           + " AND test_date BETWEEN ? AND ? ORDER BY test_date, id")
            try statement.bind([.text(from.iso), .text(through.iso)])
            var tests: [StoredTest] = []
            while try statement.step() { tests.append(TestColumns.record(statement)) }
            return tests
        }
    }

    /// Each asset's latest test (by test date, then save order), for the assets in `assets` when given. A few assets
    /// (a sheet of labels) are looked up one by one in the index by asset: a pass over every test for each sheet
    /// made labels for a site of a million items take hours.
    public func latestTests(of assets: Set<UUID>? = nil) throws(RegisterError) -> [UUID: StoredTest] {
        if let assets, assets.count <= 1_000 {
            return try perform {
                var latest: [UUID: StoredTest] = [:]
                for asset in assets {
                    try db.withKept("SELECT \(TestColumns.select) FROM electrical_tests WHERE asset_uuid = ?"
                                    + " ORDER BY test_date DESC, id DESC LIMIT 1", [.text(asset.uuidString)]) {
                        if try $0.step() { latest[asset] = TestColumns.record($0) }
                    }
                }
                return latest
            }
        }
        return try perform {
            let statement = try db.prepare("SELECT \(TestColumns.select) FROM electrical_tests"
                                           + " ORDER BY asset_uuid, test_date, id")
            var latest: [UUID: StoredTest] = [:]
            while try statement.step() {
                if let assets, !assets.contains(statement.uuid(2) ?? UUID()) { continue }
                let test = TestColumns.record(statement)
                latest[test.assetUUID] = test
            }
            return latest
        }
    }
}
