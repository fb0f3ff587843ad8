import CSQLite
import Foundation
import RigbookCore

/// An asset's summary columns (its latest result, next due date, unresolved fail, out of service …) are what
/// its records fold to, and nothing else may write them: a trigger refuses an update of them unless this
/// connection is folding. `rigbook_folding()` says whether it is; another SQLite tool has no such function, so
/// its update of a summary fails too. What gets past (the trigger dropped) is found by `verify`, which folds
/// every asset again and compares.
final class FoldPermit {
    fileprivate var folding = false
}

extension Database {
    static func defineFoldingFunction(_ db: OpaquePointer, permit: FoldPermit) {
        // Not deterministic: the answer changes while the connection lives.
        sqlite3_create_function_v2(db, "rigbook_folding", 0, SQLITE_UTF8, Unmanaged.passUnretained(permit).toOpaque(),
                                   { context, _, _ in
            let permit = Unmanaged<FoldPermit>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
            sqlite3_result_int(context, permit.folding ? 1 : 0)
        }, nil, nil, nil)
    }

    /// Runs `body`, which writes summaries the fold made, with the trigger that guards them stepped aside.
    func folding<T>(_ body: () throws -> T) rethrows -> T {
        let outer = foldPermit.folding
        foldPermit.folding = true
        defer { foldPermit.folding = outer }
        return try body()
    }
}

extension RegisterSchema {
    /// The trigger that keeps summaries to the fold (see `FoldPermit`).
    static let summariesAreFolded = """
        CREATE TRIGGER assets_summaries_are_folded
        BEFORE UPDATE OF \(AssetColumns.summaryColumns.joined(separator: ", ")) ON assets
        WHEN NOT rigbook_folding()
        BEGIN SELECT RAISE(ABORT, 'an asset''s status is folded from its records: save a record instead'); END;
        """

    /// Every asset, in uuid order, with what its records and tests fold to and the statement it was read from
    /// (its `AssetColumns.select` columns, then its stored `AssetColumns.summaryColumns`). One asset's history at
    /// a time: the assets, their records and their tests each read in uuid order and merged (every asset with
    /// every history at once was 236 MB at 100,000 assets). Each history keeps the order the fold is given
    /// on save: records, then tests, each in save order.
    static func foldEachAsset(_ db: Database, _ body: (Asset, HistorySummary, Statement) throws -> Void) throws {
        let records = try db.prepare("""
            SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from) ORDER BY i.asset_uuid, i.id
            """)
        var tests: Statement?
        // Electrical tests count as thorough examinations of their kind.
        if try db.scalar("SELECT 1 FROM sqlite_master WHERE name = 'electrical_tests'") != nil {
            tests = try db.prepare(
                "SELECT id, asset_uuid, result, test_date FROM electrical_tests ORDER BY asset_uuid, id")
        }
        let stored = AssetColumns.summaryColumns.joined(separator: ", ")
        let assets = try db.prepare("SELECT \(AssetColumns.select), \(stored) FROM assets ORDER BY uuid")
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
            try body(asset, HistorySummary(history: history), assets)
        }
    }

    /// Summary columns made by an older `HistorySummary` fold are refolded from the records, all in one
    /// transaction, so a register keeps one meaning for its statuses. `PRAGMA user_version` holds the
    /// fold version the summaries were made with (0 before statuses were folded); a register with a newer one
    /// is not written by this build at all (`Register.open` refuses it).
    static func refoldSummaries(_ db: Database) throws {
        func stale() throws -> Bool {
            guard case .integer(let version)? = try db.scalar("PRAGMA user_version") else { return true }
            return version < HistorySummary.foldVersion
        }
        guard try stale() else { return }
        try db.transaction {
            guard try stale() else { return }   // another process refolded meanwhile
            let update = try db.prepare("UPDATE assets SET \(AssetColumns.summaryAssignments) WHERE uuid = ?")
            try db.folding {
                try foldEachAsset(db) { asset, summary, _ in
                    try update.bind(AssetColumns.summaryValues(asset, summary) + [.text(asset.uuid.uuidString)])
                    while try update.step() {}
                }
            }
            try db.execute("PRAGMA user_version = \(HistorySummary.foldVersion)")
        }
    }

    /// The assets whose stored summary is not what their records fold to, one sentence each naming the asset
    /// and a column that differs.
    static func summaryProblems(_ db: Database) throws -> [String] {
        var problems: [String] = []
        let stored = Int32(AssetColumns.selectCount)
        try foldEachAsset(db) { asset, summary, row in
            let folded = AssetColumns.summaryValues(asset, summary)
            for (offset, column) in AssetColumns.summaryColumns.enumerated() {
                let value = row.value(stored + Int32(offset))
                guard value != folded[offset] else { continue }
                problems.append("asset \(asset.tag) (\(asset.uuid.uuidString.lowercased())) holds \(column) "
                                + "\(Self.shown(value)) where its records give \(Self.shown(folded[offset])): "
                                + "its status was changed behind Rigbook's back")
                break
            }
        }
        return problems
    }

    private static func shown(_ value: SQLValue) -> String {
        switch value {
        case .null: "nothing"
        case .integer(let v): String(v)
        case .real(let v): "\(v)"
        case .text(let v): v
        }
    }
}
