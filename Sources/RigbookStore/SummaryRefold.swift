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
            var histories: [UUID: [RecordFacts]] = [:]
            let records = try db.prepare("SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from)")
            while try records.step() {
                let record = InspectionColumns.record(records)
                histories[record.assetUUID, default: []].append(record.facts)
            }
            // Electrical tests (issue 15) count as thorough examinations of their kind.
            if try db.scalar("SELECT 1 FROM sqlite_master WHERE name = 'electrical_tests'") != nil {
                let tests = try db.prepare("SELECT id, asset_uuid, result, test_date FROM electrical_tests")
                while try tests.step() {
                    guard let asset = tests.uuid(1) else { continue }
                    histories[asset, default: []].append(TestFacts.facts(
                        id: tests.int64(0), passed: tests.text(2) == "pass",
                        date: tests.date(3) ?? CalendarDate(dayNumber: 0)))
                }
            }
            var assets: [Asset] = []
            let rows = try db.prepare("SELECT \(AssetColumns.select) FROM assets")
            while try rows.step() { assets.append(AssetColumns.row(rows).asset) }
            let update = try db.prepare("UPDATE assets SET \(AssetColumns.summaryAssignments) WHERE uuid = ?")
            for asset in assets {
                let summary = HistorySummary(history: histories[asset.uuid] ?? [])
                try update.bind(AssetColumns.summaryValues(asset, summary) + [.text(asset.uuid.uuidString)])
                while try update.step() {}
            }
            try db.execute("PRAGMA user_version = \(HistorySummary.foldVersion)")
        }
    }
}
