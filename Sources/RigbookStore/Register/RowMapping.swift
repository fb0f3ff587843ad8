import Foundation
import RigbookCore

/// Column lists and row mapping for the assets table, kept in one place so reads and writes agree. An asset's
/// columns are its fields' (`AssetField`, under their names): a field added there is read and written here.
enum AssetColumns {
    /// Its fields, kept: `allCases` makes an array each time, and every row read goes through them.
    private static let fields = AssetField.allCases

    /// The asset's own columns: its uuid, its fields, and its kind (NULL for lifting equipment, `electrical`).
    private static let assetColumns = ["uuid"] + fields.map(\.rawValue) + ["asset_kind"]

    /// What `row` reads: the asset's own columns, then the summary columns `HistorySummary` holds.
    static let select = (assetColumns + ["last_thorough_date", "last_thorough_result", "latest_result", "latest_action",
                                         "open_remedy_deadline", "unresolved_fail_date", "out_of_service",
                                         "record_count", "next_examination_by"]).joined(separator: ", ")

    /// `select` as the arguments of `rigbook_row`, for reads of many rows (`Database.eachRow`).
    static let selectThroughFunction = "rigbook_row(\(select))"

    /// The columns `values` fills, in its order; the insert adds `entry_hash` and `parent_hash`. An asset is added
    /// in service: its retirement comes by a change.
    static let written = ["uuid"] + AssetField.added.map(\.rawValue) + ["asset_kind", "created_at", "tag_key"]
        + summaryColumns

    static let insertSQL = "INSERT INTO assets (\((written + ["entry_hash", "parent_hash"]).joined(separator: ", ")))"
        + " VALUES (" + Array(repeating: "?", count: written.count + 2).joined(separator: ", ") + ")"

    /// How many columns `select` reads.
    static let selectCount = select.split(separator: ",").count

    /// What an asset's history folds to (`summaryValues`, in this order): written only by the fold.
    static let summaryColumns = [
        "last_thorough_date", "last_thorough_result", "latest_result", "latest_action", "open_remedy_deadline",
        "unresolved_fail", "next_due", "record_count", "out_of_service", "unresolved_fail_date",
        "next_examination_by",
    ]

    static let summaryAssignments = summaryColumns.map { "\($0) = ?" }.joined(separator: ", ")

    static func values(_ a: Asset, summary: HistorySummary, createdAt: String) -> [SQLValue] {
        [.text(a.uuid.text)] + AssetField.added.map { AssetChangeStore.sqlValue($0.value(in: a)) }
            + [a.electrical == nil ? .null : .text(AssetKind.electrical.rawValue), .text(createdAt),
               .text(Tags.key(a.tag))] + summaryValues(a, summary)
    }

    static func summaryValues(_ a: Asset, _ s: HistorySummary) -> [SQLValue] {
        let due = StatusRules.nextDue(intervalMonths: a.intervalMonths, commissioned: a.commissioned, summary: s)
        return [.date(s.lastThoroughDate), .word(s.lastThoroughResult), .word(s.latestResult),
                .word(s.latestAction), .date(s.openRemedyDeadline), .bool(s.unresolvedFail), .date(due),
                .integer(Int64(s.recordCount)), .word(s.outOfService), .date(s.unresolvedFailDate),
                .date(s.nextExaminationBy)]
    }

    static func row(_ s: some RowColumns) -> RegisterRow {
        var asset = Asset(uuid: s.uuid(0) ?? UUID(), tag: "", name: "", type: .other, wllKg: 0, intervalMonths: 0)
        // An electrical asset's fields are set on its particulars, which start from these.
        if s.optionalText(Int32(fields.count + 1)) == AssetKind.electrical.rawValue {
            asset.electrical = ElectricalParticulars(equipmentClass: .other, environment: .factory)
        }
        for (offset, field) in fields.enumerated() { read(field, s, Int32(offset + 1), into: &asset) }
        let at = Int32(assetColumns.count)
        let summary = HistorySummary(
            lastThoroughDate: s.date(at), lastThoroughResult: s.word(at + 1), latestResult: s.word(at + 2),
            latestAction: s.word(at + 3), openRemedyDeadline: s.date(at + 4), unresolvedFailDate: s.date(at + 5),
            outOfService: s.word(at + 6), recordCount: s.int(at + 7), nextExaminationBy: s.date(at + 8))
        return RegisterRow(asset: asset, summary: summary)
    }

    /// Sets `field` of `a` from column `c`, read as the field's type straight from its bytes, never boxed as an
    /// `AssetFieldValue`: every row of the list passes here, and boxing made opening 100,000 assets a fifth slower.
    private static func read(_ field: AssetField, _ s: some RowColumns, _ c: Int32, into a: inout Asset) {
        switch field {
        case .tag: a.tag = s.text(c)
        case .name: a.name = s.text(c)
        case .type: a.type = s.word(c) ?? .other
        case .wllKg: a.wllKg = s.double(c)
        case .lengthM: a.lengthM = s.isNull(c) ? nil : s.double(c)
        case .location: a.location = s.text(c)
        case .manufacturer: a.manufacturer = s.text(c)
        case .serialNumber: a.serialNumber = s.text(c)
        case .manufactured: a.manufactured = s.date(c)
        case .commissioned: a.commissioned = s.date(c)
        case .intervalMonths: a.intervalMonths = s.int(c)
        case .liftsPersons: a.liftsPersons = s.int(c) != 0
        case .examinationScheme: a.examinationScheme = s.text(c)
        case .retiredOn: a.retiredOn = s.date(c)
        case .disposition: a.disposition = s.word(c)
        case .equipmentClass: a.electrical?.equipmentClass = s.word(c) ?? .other
        case .environment: a.electrical?.environment = s.word(c) ?? .factory
        case .risk: a.electrical?.risk = s.word(c) ?? .normal
        case .intervalReason: a.electrical?.intervalReason = s.text(c)
        case .clientRef: a.clientRef = s.text(c)
        }
    }
}

/// Column lists and row mapping for the inspections table. A record names the record it amends by
/// uuid; the ids shown for it (amends, superseded by) are looked up through that uuid.
enum InspectionColumns {
    /// The 17 fields, in form order (the amendment's reason has a column of its own, NULL when none).
    static let fieldColumns = FormField.inspectionFields.map(\.key)

    /// The report particulars of Schedule 1, in form order, and the particulars copied at save:
    /// NULL for records saved before them (and the ones that do not apply to a record).
    static let reportColumns = FormField.reportFields.map(\.key) + ["particulars"]

    static let written = ["asset_uuid", "draft_id", "amends"] + fieldColumns
        + ["saved_at", "app_version", "operator", "asset_wll_kg", "asset_location",
           "record_uuid", "amends_uuid", "amendment_reason"] + reportColumns + [visitColumn, alsoAmendsColumn]
        + ["report_number", "record_hash", "parent_hash"]

    /// The visit a batch inspection's records share (migration 007); NULL on every other record.
    static let visitColumn = "visit_uuid"

    /// The other live amendments an amendment supersedes (migration 011): a JSON array of uuids; NULL on
    /// every record that supersedes one record or none.
    static let alsoAmendsColumn = "also_amends"

    /// Read as `SELECT \(select) FROM \(from) WHERE …` (the record is `i`).
    static let select = "i.id, " + written.map { "i." + $0 }.joined(separator: ", ") + ", a.id, s.id, s.record_uuid, "
        + alsoAmendsIDs("i")

    /// The ids here of the records `also_amends` names on `record` (a table alias), comma-separated.
    static func alsoAmendsIDs(_ record: String) -> String {
        "(SELECT group_concat(x.id) FROM json_each(\(record).also_amends) j "
            + "JOIN inspections x ON x.record_uuid = j.value)"
    }

    static func ids(_ text: String?) -> [Int64] { text?.split(separator: ",").compactMap { Int64($0) } ?? [] }

    /// The record, the record it amends (`a`) and the first record that amends it (`s`).
    static let from = """
        inspections i
        LEFT JOIN inspections a ON a.record_uuid = i.amends_uuid
        LEFT JOIN inspections s ON s.id = coalesce(
            (SELECT min(n.id) FROM inspections n WHERE n.amends_uuid = i.record_uuid),
            (SELECT min(n.id) FROM inspections n, json_each(n.also_amends) j
             WHERE n.also_amends IS NOT NULL AND j.value = i.record_uuid))
        """

    static let insertSQL = "INSERT INTO inspections (\(written.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: written.count).joined(separator: ", ") + ")"

    /// `amendsID` is the amended record's id in this register, looked up from its uuid by the insert.
    /// The record's values without its three chain columns (report number, hash, parent), which
    /// `Register.chained` adds.
    static func values(_ r: ValidatedInspection, recordUUID: UUID, amendsID: Int64?, asset: Asset,
                       saved: SaveStamp, particularsJSON: String?, visit: UUID? = nil,
                       alsoAmends: [UUID] = []) -> [SQLValue] {
        let v = r.values
        return [.text(r.assetUUID.text), .text(r.sessionID), amendsID.map(SQLValue.integer) ?? .null,
                .text(v.inspectionType.rawValue), .text(v.inspectorName), .text(v.certificationNumber),
                .bool(v.checkMarking), .bool(v.checkCuts), .bool(v.checkDeformation), .bool(v.checkFittings),
                .bool(v.checkCorrosion), .text(r.result.rawValue), .text(v.notes), .text(v.schemeReference),
                .text(v.defectDescription), .text(v.action.rawValue), .bool(v.remedyDeadlineSet),
                .date(r.remedyDeadline), .text(r.inspectionDate.iso), .bool(true),
                .text(saved.savedAt), .text(saved.appVersion), .text(saved.operatorName),
                .real(asset.wllKg), .text(asset.location),
                .text(recordUUID.text), r.amends.map { .text($0.uuidString) } ?? .null,
                r.amends == nil ? .null : .text(v.amendmentReason)]
            + reportValues(r, particularsJSON: particularsJSON) + [visit.map { .text($0.uuidString) } ?? .null,
                                                                    alsoAmendsValue(alsoAmends)]
    }

    /// A thorough examination's report particulars (each that applies, `particulars` as JSON); NULL for the
    /// others, as for records saved before them.
    private static func reportValues(_ r: ValidatedInspection, particularsJSON: String?) -> [SQLValue] {
        let v = r.values
        guard v.inspectionType.isThorough else { return Array(repeating: .null, count: reportColumns.count) }
        func text(_ field: FormField, _ value: String) -> SQLValue { field.applies(to: v) ? .text(value) : .null }
        return [.word(v.examinationBasis),
                FormField.installedCorrectly.applies(to: v) ? .bool(v.installedCorrectly) : .null,
                text(.testParticulars, v.testParticulars), text(.repairParticulars, v.repairParticulars),
                text(.remedyParticulars, v.remedyParticulars), .date(r.nextExaminationBy),
                particularsJSON.map(SQLValue.text) ?? .null]
    }

    static func alsoAmendsValue(_ uuids: [UUID]) -> SQLValue {
        uuids.isEmpty ? .null : .text("[" + uuids.map { "\"\($0.uuidString)\"" }.joined(separator: ",") + "]")
    }

    static func alsoAmendsUUIDs(_ text: String?) -> [UUID] {
        guard let text, let data = text.data(using: .utf8),
              let words = try? JSONDecoder().decode([String].self, from: data) else { return [] }
        return words.compactMap(UUID.init(uuidString:))
    }

    static func record(_ s: Statement) -> StoredInspection {
        let values = InspectionValues(
            inspectionType: s.word(4) ?? .thoroughPeriodic, inspectorName: s.text(5),
            certificationNumber: s.text(6), checkMarking: s.int(7) != 0, checkCuts: s.int(8) != 0,
            checkDeformation: s.int(9) != 0, checkFittings: s.int(10) != 0, checkCorrosion: s.int(11) != 0,
            result: s.word(12), notes: s.text(13), schemeReference: s.text(14), defectDescription: s.text(15),
            action: s.word(16) ?? .none, remedyDeadlineSet: s.int(17) != 0, remedyDeadline: s.text(18),
            inspectionDate: s.text(19), confirmed: s.int(20) != 0, amendmentReason: s.text(28),
            examinationBasis: s.word(29), installedCorrectly: s.int(30) != 0, testParticulars: s.text(31),
            repairParticulars: s.text(32), remedyParticulars: s.text(33), nextExaminationBy: s.text(34))
        let particulars = s.optionalText(35).flatMap { ParticularsJSON.decode(ReportParticulars.self, from: $0) }
        // The record's own columns end at 40; the joined amended and amending records follow.
        var record = StoredInspection(
            id: s.int64(0), recordUUID: s.uuid(26) ?? UUID(), assetUUID: s.uuid(1) ?? UUID(), sessionID: s.text(2),
            amends: s.isNull(41) ? nil : s.int64(41), amendsUUID: s.uuid(27),
            supersededBy: s.isNull(42) ? nil : s.int64(42), supersededByUUID: s.uuid(43),
            values: values, savedAt: s.text(21), appVersion: s.text(22), operatorName: s.text(23),
            assetWLLKg: s.double(24), assetLocation: s.text(25), reportNumber: s.optionalText(38),
            recordHash: s.optionalText(39), particulars: particulars)
        record.visitUUID = s.uuid(36)
        record.alsoAmendsUUIDs = alsoAmendsUUIDs(s.optionalText(37))
        record.alsoAmends = ids(s.optionalText(44))
        return record
    }
}

extension SQLValue {
    static func date(_ date: CalendarDate?) -> SQLValue { date.map { .text($0.iso) } ?? .null }
    static func word<W: RawRepresentable>(_ word: W?) -> SQLValue where W.RawValue == String {
        word.map { .text($0.rawValue) } ?? .null
    }
    static func bool(_ flag: Bool) -> SQLValue { .integer(flag ? 1 : 0) }
}

/// Each byte's value as a hex digit, 0xFF for a byte that is not one.
private let hexDigits: [UInt8] = (0...255).map { byte in
    switch UInt8(byte) {
    case 0x30...0x39: UInt8(byte) - 0x30
    case 0x41...0x46: UInt8(byte) - 0x41 + 10
    case 0x61...0x66: UInt8(byte) - 0x61 + 10
    default: 0xFF
    }
}

extension RowColumns {
    /// An asset field's column read as the field's kind (a date from its bytes); none for NULL.
    func fieldValue(_ field: AssetField, _ column: Int32) -> AssetFieldValue {
        if isNull(column) { return .none }
        switch field {
        case .wllKg, .lengthM: return .number(double(column))
        case .intervalMonths: return .integer(int(column))
        case .liftsPersons: return .flag(int(column) != 0)
        case .manufactured, .commissioned, .retiredOn:
            return date(column).map(AssetFieldValue.date) ?? .text(text(column))
        default: return .text(text(column))
        }
    }

    /// Parsed straight from SQLite's bytes: opening 100,000 assets parses 300,000 dates and UUIDs,
    /// and going through String (or Foundation's sscanf-based UUID parser) was most of the cost.
    func date(_ column: Int32) -> CalendarDate? {
        withBytes(column) { bytes -> CalendarDate? in
            guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return nil }
            // Each digit's value, or more than 9 for a byte that is not a digit (it wraps below "0").
            func digit(_ index: Int) -> Int { Int(bytes[index] &- 0x30) }
            let digits = (digit(0), digit(1), digit(2), digit(3), digit(5), digit(6), digit(8), digit(9))
            guard max(digits.0, digits.1, digits.2, digits.3, digits.4, digits.5, digits.6, digits.7) <= 9
            else { return nil }
            return CalendarDate(year: digits.0 * 1000 + digits.1 * 100 + digits.2 * 10 + digits.3,
                                month: digits.4 * 10 + digits.5, day: digits.6 * 10 + digits.7)
        }
    }

    /// The uuid in its 36 characters, read with a table: every row of the list has one (a million at start-up).
    func uuid(_ column: Int32) -> UUID? {
        withBytes(column) { bytes -> UUID? in
            guard bytes.count == 36, bytes[8] == 0x2D, bytes[13] == 0x2D, bytes[18] == 0x2D, bytes[23] == 0x2D
            else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let ok = hexDigits.withUnsafeBufferPointer { digits in
                withUnsafeMutableBytes(of: &value) { out -> Bool in
                    var invalid: UInt8 = 0
                    var i = 0
                    for n in 0..<16 {
                        if i == 8 || i == 13 || i == 18 || i == 23 { i += 1 }
                        let high = digits[Int(bytes[i])], low = digits[Int(bytes[i + 1])]
                        invalid |= (high | low) & 0xF0
                        out[n] = high &<< 4 | low
                        i += 2
                    }
                    return invalid == 0
                }
            }
            return ok ? UUID(uuid: value) : nil
        }
    }

    /// A stored word (type, result, action) matched on its bytes, without making a String.
    func word<W: RawRepresentable & CaseIterable>(_ column: Int32) -> W? where W.RawValue == String {
        withBytes(column) { bytes in
            guard !bytes.isEmpty else { return nil }
            return W.allCases.first { word in
                var raw = word.rawValue
                return raw.withUTF8 {
                    $0.count == bytes.count && memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
                }
            }
        }
    }
}
