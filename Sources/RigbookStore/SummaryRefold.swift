import Foundation
import RigbookCore

extension RegisterSchema {
    /// Summary columns made by an older `HistorySummary` fold are refolded from the records, all in one
    /// transaction, so a register keeps one meaning for its statuses. `PRAGMA user_version` holds the
    /// fold version the summaries were made with (0 before issue 10); a newer one is left alone.
    static func refoldSummaries(_ db: Database) throws {
        func stale() throws -> Bool {
            guard case .integer(let version)? = try db.scalar("PRAGMA user_version") else { return true }
            return version < HistorySummary.foldVersion
        }
        guard try stale() else { return }
        try db.transaction {
            guard try stale() else { return }   // another process refolded meanwhile
            // One asset's history at a time: the assets, their records and their tests each read in uuid order and
            // merged (every asset with every history at once was 236 MB at 100,000 assets). Each history keeps
            // the order the fold was given before: records, then tests, each in save order.
            let records = try db.prepare("""
                SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from) ORDER BY i.asset_uuid, i.id
                """)
            var tests: Statement?
            // Electrical tests (issue 15) count as thorough examinations of their kind.
            if try db.scalar("SELECT 1 FROM sqlite_master WHERE name = 'electrical_tests'") != nil {
                tests = try db.prepare(
                    "SELECT id, asset_uuid, result, test_date FROM electrical_tests ORDER BY asset_uuid, id")
            }
            let assets = try db.prepare("SELECT \(AssetColumns.select) FROM assets ORDER BY uuid")
            let update = try db.prepare("UPDATE assets SET \(AssetColumns.summaryAssignments) WHERE uuid = ?")
            var recordsLeft = try records.step(), testsLeft = try tests?.step() ?? false
            while try assets.step() {
                let asset = AssetColumns.row(assets).asset, key = assets.text(0)
                var history: [RecordFacts] = []
                // Rows of an asset the register does not hold (none, with its foreign keys) are passed over.
                while recordsLeft, records.text(1) < key { recordsLeft = try records.step() }
                while recordsLeft, records.text(1) == key {
                    history.append(InspectionColumns.record(records).facts)
                    recordsLeft = try records.step()
                }
                if let tests {
                    while testsLeft, tests.text(1) < key { testsLeft = try tests.step() }
                    while testsLeft, tests.text(1) == key {
                        history.append(TestFacts.facts(
                            id: tests.int64(0), passed: tests.text(2) == "pass",
                            date: tests.date(3) ?? CalendarDate(dayNumber: 0)))
                        testsLeft = try tests.step()
                    }
                }
                let summary = HistorySummary(history: history)
                try update.bind(AssetColumns.summaryValues(asset, summary) + [.text(asset.uuid.uuidString)])
                while try update.step() {}
            }
            try db.execute("PRAGMA user_version = \(HistorySummary.foldVersion)")
        }
    }
}
