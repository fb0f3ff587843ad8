/// A small JSON writer for exports: one object at a time, keys in the documented order, so half a
/// million records stream out without building an object graph.
public struct JSONObject {
    private var text = "{"
    private var first = true

    public init() {}

    private mutating func key(_ name: String) {
        text += first ? "\"" : ",\""
        first = false
        text += name
        text += "\":"
    }

    public mutating func add(_ name: String, _ value: String?) {
        key(name)
        if let value { text += JSONObject.quote(value) } else { text += "null" }
    }

    public mutating func add(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    public mutating func add(_ name: String, _ value: Int64?) {
        key(name)
        text += value.map(String.init) ?? "null"
    }

    public mutating func add(_ name: String, _ value: Int) { add(name, Int64(value)) }

    public mutating func add(_ name: String, number value: Double?) {
        key(name)
        guard let value, value.isFinite else { text += "null"; return }
        text += value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Adds an already-encoded JSON value.
    public mutating func add(_ name: String, raw: String) {
        key(name)
        text += raw
    }

    public var string: String { text + "}" }

    public static func quote(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension AssetListing {
    /// The asset as one JSON object (same names as `asset list --format json`).
    public var json: String {
        var o = JSONObject()
        o.add("tag", tag); o.add("name", name); o.add("type", type); o.add("wll_kg", number: wllKg)
        o.add("length_m", number: lengthM); o.add("location", location); o.add("manufacturer", manufacturer)
        o.add("serial_number", serialNumber); o.add("manufactured", manufactured); o.add("commissioned", commissioned)
        o.add("interval_months", intervalMonths); o.add("lifts_persons", liftsPersons)
        o.add("last_thorough_examination", lastThoroughExamination); o.add("latest_result", latestResult)
        o.add("next_due", nextDue); o.add("remedy_deadline", remedyDeadline); o.add("status", status); o.add("uuid", uuid)
        return o.string
    }
}

/// A JSON array of already-encoded objects, one per line.
public func jsonArray(_ objects: [String]) -> String {
    objects.isEmpty ? "[]" : "[\n" + objects.joined(separator: ",\n") + "\n]"
}

/// One saved record for exports and `history`: the fixed, documented columns.
public enum RecordExport {
    public static let columns = ["id", "asset_tag", "asset_uuid", "saved_at", "draft_id", "amends", "operator",
                                 "app_version", "asset_wll_kg", "asset_location"]
        + InspectionValues.CodingKeys.allCases.map(\.rawValue)

    public static func fields(_ r: StoredInspection, tag: String) -> [String] {
        let v = r.values
        func flag(_ b: Bool) -> String { b ? "true" : "false" }
        func number(_ d: Double) -> String { d == d.rounded() ? String(Int64(d)) : String(d) }
        return [String(r.id), tag, r.assetUUID.uuidString.lowercased(), r.savedAt, r.draftID, r.amends.map(String.init) ?? "",
                r.operatorName, r.appVersion, number(r.assetWLLKg), r.assetLocation,
                v.inspectionType.rawValue, v.inspectorName, v.certificationNumber, flag(v.checkMarking), flag(v.checkCuts),
                flag(v.checkDeformation), flag(v.checkFittings), flag(v.checkCorrosion), v.result?.rawValue ?? "",
                v.notes, v.schemeReference, v.defectDescription, v.action.rawValue, flag(v.remedyDeadlineSet),
                v.remedyDeadline, v.inspectionDate, flag(v.confirmed)]
    }

    public static func json(_ r: StoredInspection, tag: String) -> String {
        let v = r.values
        var o = JSONObject()
        o.add("id", r.id); o.add("asset_tag", tag); o.add("asset_uuid", r.assetUUID.uuidString.lowercased())
        o.add("saved_at", r.savedAt); o.add("draft_id", r.draftID); o.add("amends", r.amends)
        o.add("operator", r.operatorName); o.add("app_version", r.appVersion)
        o.add("asset_wll_kg", number: r.assetWLLKg); o.add("asset_location", r.assetLocation)
        o.add("inspection_type", v.inspectionType.rawValue); o.add("inspector_name", v.inspectorName)
        o.add("certification_number", v.certificationNumber); o.add("check_marking", v.checkMarking)
        o.add("check_cuts", v.checkCuts); o.add("check_deformation", v.checkDeformation)
        o.add("check_fittings", v.checkFittings); o.add("check_corrosion", v.checkCorrosion)
        o.add("result", v.result?.rawValue); o.add("notes", v.notes); o.add("scheme_reference", v.schemeReference)
        o.add("defect_description", v.defectDescription); o.add("action", v.action.rawValue)
        o.add("remedy_deadline_set", v.remedyDeadlineSet); o.add("remedy_deadline", v.remedyDeadline)
        o.add("inspection_date", v.inspectionDate); o.add("confirmed", v.confirmed)
        return o.string
    }
}
