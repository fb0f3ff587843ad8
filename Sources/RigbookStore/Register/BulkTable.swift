import Foundation

/// The tables a bulk load fills, each with the columns it inserts and what the register's triggers do for its rows,
/// which the load does itself (`BulkWriter`): it writes them with the triggers off.
enum BulkTable: Int, CaseIterable, Sendable {
    case asset, inspection, test, signature, attachment

    var kind: HashChain.Kind {
        switch self {
        case .asset: HashChain.asset
        case .inspection: HashChain.inspection
        case .test: HashChain.electricalTest
        case .signature: SignatureStore.signature
        case .attachment: HashChain.attachment
        }
    }

    var name: String { kind.table }

    /// The columns inserted, in order, the entry's hash and parent last, as the save path writes them; an asset's
    /// status columns too, worked out ahead (`StatusColumns.Ahead`) as `assets_statuses_on_insert` works them out.
    var columns: [String] {
        switch self {
        case .asset: AssetColumns.written + StatusColumns.names + [kind.hashColumn, "parent_hash"]
        case .inspection: InspectionColumns.written
        default: kind.columns + [kind.hashColumn, "parent_hash"]
        }
    }

    private static let layouts = allCases.map { HashChain.Layout($0.kind, columns: $0.columns) }
    var layout: HashChain.Layout { Self.layouts[rawValue] }
    var columnCount: Int { layout.columns.count }

    /// Whether its rows have an id (`INTEGER PRIMARY KEY`), which the load gives them as SQLite would, the next after
    /// the largest: `record_numbers` needs a record's id as it goes in.
    var hasID: Bool { self != .asset }

    /// The insert of `rows` rows at once, each its id (if it has one) and `columns`: SQLite opens the table's and
    /// every index's cursor once for them all. `OR ROLLBACK`: whatever is refused ends the whole transaction, as it
    /// would anyway, so SQLite keeps no journal of each statement's pages to undo it alone.
    func insertSQL(rows: Int) -> String {
        let inserted = (hasID ? ["id"] : []) + columns
        let row = "(" + Array(repeating: "?", count: inserted.count).joined(separator: ", ") + ")"
        return "INSERT OR ROLLBACK INTO \(name) (\(inserted.joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// Where the key the sync journal notes an entry by is among `columns` (`<table>_are_journaled`).
    var journalKey: Int { Self.journalKeys[rawValue] }
    private static let journalKeys = allCases.map { table in
        table.columns.firstIndex(of: SyncJournal.tables.first { $0.name == table.name }!.key)!
    }

    /// The kind `record_numbers` keeps a record's number under, and where its uuid is among `columns`
    /// (`inspections_are_numbered`, `electrical_tests_are_numbered`); nil for entries that are not records.
    var number: (kind: String, uuid: Int)? {
        switch self {
        case .inspection: ("inspection", columns.firstIndex(of: "record_uuid")!)
        case .test: ("electrical_test", columns.firstIndex(of: "test_uuid")!)
        default: nil
        }
    }

    /// The triggers on these tables, each either done by the load itself or one that an insert never fires (the
    /// guards against updates and deletes; the guard against a REPLACE, since the load only inserts and the unique
    /// indexes refuse a duplicate as the guard would). A register with any other trigger on them is loaded row by
    /// row, through its triggers: the load would miss what that trigger writes.
    static let triggersStoodIn: Set<String> = {
        var names: Set<String> = ["inspections_are_numbered", "electrical_tests_are_numbered",
                                  "assets_statuses_on_insert", "assets_statuses_on_update",
                                  "assets_statuses_are_derived", "assets_summaries_are_folded"]
        for table in allCases.map(\.name) {
            for what in ["journaled", "never_updated", "never_deleted", "never_replaced"] {
                names.insert("\(table)_are_\(what)")
            }
        }
        return names
    }()
}
