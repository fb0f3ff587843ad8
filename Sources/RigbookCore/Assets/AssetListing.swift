/// One asset as scripts see it (`asset list --format json|csv`, exports). Field names are stable
/// snake_case; dates are `YYYY-MM-DD`; absent values are null.
public struct AssetListing: Sendable, Equatable {
    public var asset: Asset
    public var lastThoroughExamination: String?
    public var latestResult: String?
    public var nextDue: String?
    public var remedyDeadline: String?
    public var status: String
    /// What is due, as the register list shows it ("before use" for DO NOT USE); not a column of the formats,
    /// whose `next_due` stays the next examination's date.
    public var due: DueNext

    public init(row: RegisterRow, today: CalendarDate) {
        let report = row.status(on: today)
        asset = row.asset
        lastThoroughExamination = row.summary.lastThoroughDate?.iso
        latestResult = row.summary.latestResult?.rawValue
        nextDue = report.nextDue?.iso
        remedyDeadline = report.remedyDeadline?.iso
        status = report.status.rawValue
        due = report.due
    }

    /// The documented columns, in order: JSON keys and CSV columns alike. They are the asset's fields
    /// (`AssetField.added`, under their names), with its status and uuid after `lifts_persons` and its kind after
    /// `examination_scheme`, where they were first documented; a field added since comes at the end.
    public static let table = ExportTable<AssetListing>(AssetField.added.flatMap { field -> [Column] in
        [(field.rawValue, { @Sendable in $0.value(of: field) })] + (placedAfter[field] ?? [])
    })

    private typealias Column = (name: String, value: @Sendable (AssetListing) -> ExportValue)

    private static let placedAfter: [AssetField: [Column]] = [
        .liftsPersons: [
            ("last_thorough_examination", { .text($0.lastThoroughExamination) }),
            ("latest_result", { .text($0.latestResult) }),
            ("next_due", { .text($0.nextDue) }),
            ("remedy_deadline", { .text($0.remedyDeadline) }),
            ("status", { .text($0.status) }),
            ("uuid", { .text($0.asset.uuid.uuidString.lowercased()) }),
        ],
        .examinationScheme: [("kind", { .text($0.asset.kind.rawValue) })],
    ]

    /// A field's cell; an electrical asset has no working load limit (null, where the register keeps 0).
    private func value(of field: AssetField) -> ExportValue {
        field == .wllKg && asset.isElectrical ? .number(nil) : field.value(in: asset).export
    }

    public static var csvHeader: [String] { table.header }
    public var csvFields: [String] { AssetListing.table.csvFields(self) }
    /// The asset as one JSON object (same names as the CSV header).
    public var json: String { AssetListing.table.json(self) }
}
