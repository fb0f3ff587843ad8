import Foundation
import RigbookCore

/// `rigbook history`: an asset's records and its changes (issue 14 §1) together, newest first.
enum HistoryExport {
    /// One change as `history --format json` writes it; `kind` tells it from a record.
    static func json(_ change: AssetChange, tag: String) -> String {
        var o = JSONObject()
        o.add("kind", "asset_change")
        o.add("change_uuid", change.changeUUID.uuidString.lowercased())
        o.add("asset_tag", tag)
        o.add("asset_uuid", change.assetUUID.uuidString.lowercased())
        o.add("field", change.field.rawValue)
        o.add("old_value", change.oldValue.text)
        o.add("new_value", change.newValue.text)
        o.add("reason", change.reason)
        o.add("changed_at", change.changedAt)
        o.add("operator", change.operatorName)
        o.add("entry_hash", change.entryHash)
        return o.string
    }

    /// Records (newest first, as the register gives them) and changes, merged by day, newest first: a change
    /// goes before the records of its own day and older ones.
    static func entries(records: [StoredInspection], changes: [AssetChange], tag: String) -> [String] {
        var out: [String] = []
        var pending = changes.sorted(by: AssetChange.isNewer)[...]
        for record in records {
            while let change = pending.first, String(change.changedAt.prefix(10)) >= record.values.inspectionDate {
                out.append(json(change, tag: tag))
                pending = pending.dropFirst()
            }
            out.append(RecordExport.json(record, tag: tag))
        }
        return out + pending.map { json($0, tag: tag) }
    }

    /// The text format's table of changes, under the records; nothing when there are none.
    static func changesTable(_ changes: [AssetChange]) -> String {
        guard !changes.isEmpty else { return "" }
        let rows = changes.sorted(by: AssetChange.isNewer).map { c in
            [String(c.changedAt.prefix(16)).replacingOccurrences(of: "T", with: " "), c.field.rawValue,
             c.oldValue.text ?? "—", c.newValue.text ?? "—", c.operatorName, c.reason]
        }
        return "\nChanges of the asset, newest first:\n"
            + TextTable.render(header: ["CHANGED (UTC)", "FIELD", "OLD", "NEW", "BY", "REASON"], rows: rows)
    }
}
