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
        text += ExportValue.numberText(value)
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

/// One exported cell: the same column gives the CSV text and the JSON value, so the two formats
/// cannot drift apart.
public enum ExportValue: Sendable {
    case text(String?)
    case number(Double?)
    case integer(Int64?)
    case flag(Bool)
    /// A value with a shape of its own in each format: CSV text, and JSON already encoded (an array).
    case structured(csv: String, json: String)

    public var csv: String {
        switch self {
        case .structured(let csv, _): csv
        case .text(let value): value ?? ""
        case .number(let value): value.map(ExportValue.numberText) ?? ""
        case .integer(let value): value.map(String.init) ?? ""
        case .flag(let value): value ? "true" : "false"
        }
    }

    static func numberText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

extension JSONObject {
    public mutating func add(_ name: String, _ value: ExportValue) {
        switch value {
        case .text(let text): add(name, text)
        case .number(let number): add(name, number: number)
        case .integer(let integer): add(name, integer)
        case .flag(let flag): add(name, flag)
        case .structured(_, let json): add(name, raw: json)
        }
    }
}

/// A table for export: named columns in the documented order, each reading its value from a row.
public struct ExportTable<Row>: Sendable {
    public let columns: [(name: String, value: @Sendable (Row) -> ExportValue)]

    public init(_ columns: [(name: String, value: @Sendable (Row) -> ExportValue)]) { self.columns = columns }

    public var header: [String] { columns.map(\.name) }
    public func csvFields(_ row: Row) -> [String] { columns.map { $0.value(row).csv } }
    public func json(_ row: Row) -> String {
        var object = JSONObject()
        for column in columns { object.add(column.name, column.value(row)) }
        return object.string
    }
}

/// A JSON array of already-encoded objects, one per line.
public func jsonArray(_ objects: [String]) -> String {
    objects.isEmpty ? "[]" : "[\n" + objects.joined(separator: ",\n") + "\n]"
}

/// One saved record for exports and `history`: the fixed, documented columns. Columns are only ever added
/// at the end, so a reader of an older export still finds its columns where they were.
public enum RecordExport {
    public typealias Row = (record: StoredInspection, tag: String)

    public static let table = ExportTable<Row>([
        ("id", { .integer($0.record.id) }),
        ("asset_tag", { .text($0.tag) }),
        ("asset_uuid", { .text($0.record.assetUUID.uuidString.lowercased()) }),
        ("saved_at", { .text($0.record.savedAt) }),
        ("draft_id", { .text($0.record.sessionID) }),
        ("amends", { .integer($0.record.amends) }),
        ("operator", { .text($0.record.operatorName) }),
        ("app_version", { .text($0.record.appVersion) }),
        ("asset_wll_kg", { .number($0.record.assetWLLKg) }),
        ("asset_location", { .text($0.record.assetLocation) }),
        ("inspection_type", { .text($0.record.values.inspectionType.rawValue) }),
        ("inspector_name", { .text($0.record.values.inspectorName) }),
        ("certification_number", { .text($0.record.values.certificationNumber) }),
        ("check_marking", { .flag($0.record.values.checkMarking) }),
        ("check_cuts", { .flag($0.record.values.checkCuts) }),
        ("check_deformation", { .flag($0.record.values.checkDeformation) }),
        ("check_fittings", { .flag($0.record.values.checkFittings) }),
        ("check_corrosion", { .flag($0.record.values.checkCorrosion) }),
        ("result", { .text($0.record.values.result?.rawValue) }),
        ("notes", { .text($0.record.values.notes) }),
        ("scheme_reference", { .text($0.record.values.schemeReference) }),
        ("defect_description", { .text($0.record.values.defectDescription) }),
        ("action", { .text($0.record.values.action.rawValue) }),
        ("remedy_deadline_set", { .flag($0.record.values.remedyDeadlineSet) }),
        ("remedy_deadline", { .text($0.record.values.remedyDeadline) }),
        ("inspection_date", { .text($0.record.values.inspectionDate) }),
        ("confirmed", { .flag($0.record.values.confirmed) }),
        ("record_uuid", { .text($0.record.recordUUID.uuidString.lowercased()) }),
        ("amends_uuid", { .text($0.record.amendsUUID?.uuidString.lowercased()) }),
        // The amendment that stands in its place. A conflicting amendment that does not stand is not superseded
        // by the one that does (that one amends another record): `outranked_by` names it.
        ("superseded_by", { .integer($0.record.supersededBy) }),
        ("superseded_by_uuid", { .text($0.record.supersededByUUID?.uuidString.lowercased()) }),
        ("amendment_reason", { .text($0.record.amendsUUID == nil ? nil : $0.record.values.amendmentReason) }),
        ("report_number", { .text($0.record.reportNumber) }),
        // Schedule 1: null where it does not apply and on records saved before it was kept.
        ("examination_basis", { .text(reported(.examinationBasis, $0.record)?.examinationBasis?.rawValue) }),
        ("installed_correctly", { r in reported(.installedCorrectly, r.record).map { .flag($0.installedCorrectly) }
            ?? .text(nil) }),
        ("test_particulars", { .text(reported(.testParticulars, $0.record)?.testParticulars) }),
        ("repair_particulars", { .text(reported(.repairParticulars, $0.record)?.repairParticulars) }),
        ("remedy_particulars", { .text(reported(.remedyParticulars, $0.record)?.remedyParticulars) }),
        ("next_examination_by", { .text(reported(.nextExaminationBy, $0.record)?.nextExaminationBy) }),
        ("employer_name", { .text($0.record.particulars?.employer.name) }),
        ("employer_address", { .text($0.record.particulars?.employer.address) }),
        ("site_name", { .text($0.record.particulars?.site.name) }),
        ("site_address", { .text($0.record.particulars?.site.address) }),
        ("previous_thorough_examination", { .text($0.record.particulars?.previousThoroughExamination) }),
        ("record_hash", { .text($0.record.recordHash) }),
        // The other live amendments an amendment that settled conflicting amendments superseded.
        ("also_amends_uuids", { r in .text(r.record.alsoAmendsUUIDs.isEmpty ? nil
            : r.record.alsoAmendsUUIDs.map { $0.uuidString.lowercased() }.joined(separator: " ")) }),
        // The files the record names. JSON: an array of {sha256, name, size}; CSV: one line per file,
        // `<sha256> <size> <name>` (the name is the rest of the line), empty when there are none.
        ("attachments", { attachments($0.record.values.attachments) }),
        // A conflicting amendment that does not stand: the one that does (it amends the same record), else null.
        ("outranked_by", { .integer($0.record.outrankedBy) }),
        ("outranked_by_uuid", { .text($0.record.outrankedByUUID?.uuidString.lowercased()) }),
    ])

    /// The attachments column's value in both formats.
    public static func attachments(_ files: [Attachment]) -> ExportValue {
        .structured(csv: files.map { "\($0.sha256) \($0.size) \($0.name)" }.joined(separator: "\n"),
                    json: "[" + files.map { file in
                        var o = JSONObject()
                        o.add("sha256", file.sha256)
                        o.add("name", file.name)
                        o.add("size", file.size)
                        return o.string
                    }.joined(separator: ",") + "]")
    }

    /// The record's values when `field` is one of its report particulars: nil where the field does not apply
    /// and on a record saved before report particulars were kept.
    private static func reported(_ field: FormField, _ record: StoredInspection) -> InspectionValues? {
        record.particulars != nil && field.applies(to: record.values) ? record.values : nil
    }

    public static var columns: [String] { table.header }
    public static func fields(_ record: StoredInspection, tag: String) -> [String] { table.csvFields((record, tag)) }
    public static func json(_ record: StoredInspection, tag: String) -> String { table.json((record, tag)) }
}
