import Foundation
import RigbookCore

/// `rigbook history`: an asset's records and its changes together, newest first.
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

    /// Conflicting amendments as `history --format json` writes them, ahead of the records: `warning` holds the
    /// words the full-screen history heads the asset with.
    static func json(_ conflict: ConflictingAmendments, tag: String) -> String {
        var o = JSONObject()
        o.add("kind", "conflicting_amendments")
        o.add("asset_tag", tag)
        o.add("amends", conflict.original.id)
        o.add("amends_uuid", conflict.original.recordUUID.uuidString.lowercased())
        o.add("heads", raw: "[" + conflict.heads.map { "\($0.id)" }.joined(separator: ",") + "]")
        o.add("head_uuids", raw: "[" + conflict.heads.map { "\"\($0.recordUUID.uuidString.lowercased())\"" }
            .joined(separator: ",") + "]")
        o.add("stands", conflict.standing?.id)
        o.add("stands_uuid", conflict.standing?.recordUUID.uuidString.lowercased())
        o.add("warning", conflict.warning)
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

extension HistoryExport {
    /// One electrical test as `history --format json` writes it; `kind` tells it from a record.
    static func json(_ t: StoredTest, tag: String) -> String {
        let v = t.values
        var o = JSONObject()
        o.add("kind", "electrical_test")
        o.add("id", t.id)
        o.add("test_uuid", t.testUUID.uuidString.lowercased())
        o.add("asset_tag", tag)
        o.add("asset_uuid", t.assetUUID.uuidString.lowercased())
        o.add("draft_id", t.sessionID)
        o.add("saved_at", t.savedAt)
        o.add("operator", t.operatorName)
        o.add("app_version", t.appVersion)
        o.add("test_type", v.testType.rawValue)
        o.add("test_date", v.testDate)
        o.add("technician", v.technician)
        o.add("licence_number", v.licenceNumber)
        o.add("instrument_model", v.instrumentModel)
        o.add("instrument_serial", v.instrumentSerial)
        o.add("procedure_reference", v.procedureReference)
        o.add("calibration_date", v.calibrationDate.isEmpty ? nil : v.calibrationDate)
        o.add("calibration_acknowledged", v.calibrationAcknowledged)
        o.add("visual", v.visual?.rawValue)
        func reading(_ name: String, _ text: String) { o.add(name, TestExport.reading(text)) }
        reading("earth_continuity_ohm", v.earthContinuityOhm)
        reading("insulation_mohm", v.insulationMOhm)
        reading("leakage_ma", v.leakageMA)
        reading("load_current_a", v.loadCurrentA)
        o.add("polarity", v.polarity?.rawValue)
        o.add("rcd_push_button", v.rcdPushButton?.rawValue)
        reading("rcd_trip_time_ms", v.rcdTripTimeMs)
        o.add("result_choice", v.result.rawValue)
        o.add("result", t.passed ? "pass" : "fail")
        o.add("notes", v.notes)
        o.add("verdicts", raw: jsonArray(t.verdicts.map { verdict in
            var j = JSONObject()
            j.add("field", verdict.field)
            j.add("outcome", verdict.outcome)
            j.add("text", verdict.text)
            return j.string
        }))
        // The limits the readings were judged by, as the record keeps them (not the register's today).
        if let limits = t.limits, let json = try? ParticularsJSON.encode(limits) { o.add("limits", raw: json) }
        else { o.add("limits", raw: "null") }
        o.add("attachments", raw: jsonArray(v.attachments.map { a in
            var j = JSONObject()
            j.add("sha256", a.sha256)
            j.add("name", a.name)
            j.add("size", a.size)
            return j.string
        }))
        o.add("authenticated", v.authenticated)
        o.add("entry_hash", t.entryHash)
        return o.string
    }
}
