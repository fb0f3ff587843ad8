import Foundation

/// One electrical test for `rigbook export`: its fields, each reading beside its verdict, and the
/// result. The same table gives the CSV cells and the JSON keys. Columns are only ever added at the end.
public enum TestExport {
    public typealias Row = (test: StoredTest, tag: String)

    /// `kind` in an export: a test is told from an inspection record by it.
    public static let kind = "electrical_test"

    /// A reading's verdict word (`pass`, `fail`, `missing`, `not_taken`), null when the reading was not judged
    /// (it does not apply to the item's class, or it was not taken and not required).
    static func verdict(_ field: TestField, _ test: StoredTest) -> ExportValue {
        .text(test.verdicts.first { $0.field == field.rawValue }?.outcome)
    }

    /// A reading as a number, null when empty; an over-range reading as its text (`">99"`).
    public static func reading(_ text: String) -> ExportValue {
        TestGate.overRange(text) != nil ? .text(text) : .number(Double(text))
    }

    public static let table = ExportTable<Row>([
        ("kind", { _ in .text(kind) }),
        ("id", { .integer($0.test.id) }),
        ("asset_tag", { .text($0.tag) }),
        ("asset_uuid", { .text($0.test.assetUUID.uuidString.lowercased()) }),
        ("saved_at", { .text($0.test.savedAt) }),
        ("draft_id", { .text($0.test.sessionID) }),
        ("operator", { .text($0.test.operatorName) }),
        ("app_version", { .text($0.test.appVersion) }),
        ("test_uuid", { .text($0.test.testUUID.uuidString.lowercased()) }),
        ("test_type", { .text($0.test.values.testType.rawValue) }),
        ("test_date", { .text($0.test.values.testDate) }),
        ("technician", { .text($0.test.values.technician) }),
        ("licence_number", { .text($0.test.values.licenceNumber) }),
        ("instrument_model", { .text($0.test.values.instrumentModel) }),
        ("instrument_serial", { .text($0.test.values.instrumentSerial) }),
        ("procedure_reference", { .text($0.test.values.procedureReference) }),
        ("calibration_date", { .text($0.test.values.calibrationDate.isEmpty ? nil : $0.test.values.calibrationDate) }),
        ("calibration_acknowledged", { .flag($0.test.values.calibrationAcknowledged) }),
        ("visual", { .text($0.test.values.visual?.rawValue) }),
        ("earth_continuity_ohm", { reading($0.test.values.earthContinuityOhm) }),
        ("earth_continuity_verdict", { verdict(.earthContinuity, $0.test) }),
        ("insulation_mohm", { reading($0.test.values.insulationMOhm) }),
        ("insulation_verdict", { verdict(.insulation, $0.test) }),
        ("leakage_ma", { reading($0.test.values.leakageMA) }),
        ("leakage_verdict", { verdict(.leakage, $0.test) }),
        ("polarity", { .text($0.test.values.polarity?.rawValue) }),
        ("rcd_type", { .text($0.test.verdicts.contains { $0.field == TestField.rcdTripTime.rawValue }
                                ? $0.test.values.rcdType.rawValue : nil) }),
        ("rcd_push_button", { .text($0.test.values.rcdPushButton?.rawValue) }),
        ("rcd_trip_time_ms", { reading($0.test.values.rcdTripTimeMs) }),
        ("rcd_trip_time_verdict", { verdict(.rcdTripTime, $0.test) }),
        ("load_current_a", { reading($0.test.values.loadCurrentA) }),
        ("result_choice", { .text($0.test.values.result.rawValue) }),
        ("test_result", { .text($0.test.passed ? "pass" : "fail") }),
        ("notes", { .text($0.test.values.notes) }),
        ("record_hash", { .text($0.test.entryHash) }),
        // As an inspection record's: JSON an array of {sha256, name, size}; CSV a `<sha256> <size> <name>` line each.
        ("attachments", { RecordExport.attachments($0.test.values.attachments) }),
    ])

    public static var columns: [String] { table.header }
    public static func json(_ test: StoredTest, tag: String) -> String { table.json((test, tag)) }

    /// The records table of a CSV export holding both kinds: the inspection record's columns, then `kind`, then
    /// the test's own columns. A test fills the columns it shares by name (id, asset_tag, …, notes,
    /// record_hash) and its own; an inspection record leaves the test's empty.
    public static let combinedColumns: [String] = {
        let recordColumns = RecordExport.columns
        return recordColumns + ["kind"] + columns.filter { $0 != "kind" && !recordColumns.contains($0) }
    }()

    /// An inspection record's cells under `combinedColumns`.
    public static func combinedFields(_ record: StoredInspection, tag: String) -> [String] {
        let own = RecordExport.fields(record, tag: tag)
        return own + ["inspection"] + Array(repeating: "", count: combinedColumns.count - own.count - 1)
    }

    /// A test's cells under `combinedColumns`.
    public static func combinedFields(_ test: StoredTest, tag: String) -> [String] {
        let cells = Dictionary(uniqueKeysWithValues: zip(columns, table.csvFields((test, tag))))
        return combinedColumns.map { cells[$0] ?? "" }
    }
}
