/// One asset as scripts see it (`asset list --format json|csv`, exports). Field names are stable
/// snake_case; dates are `YYYY-MM-DD`; absent values are null.
public struct AssetListing: Sendable, Equatable {
    public var uuid: String
    public var tag: String
    public var name: String
    public var type: String
    /// Nil for an electrical asset, which has no working load limit.
    public var wllKg: Double?
    public var lengthM: Double?
    public var location: String
    public var manufacturer: String
    public var serialNumber: String
    public var manufactured: String?
    public var commissioned: String?
    public var intervalMonths: Int
    public var liftsPersons: Bool
    public var lastThoroughExamination: String?
    public var latestResult: String?
    public var nextDue: String?
    public var remedyDeadline: String?
    public var status: String
    public var examinationScheme: String
    /// `lifting` or `electrical`, and an electrical asset's own fields (null on lifting equipment).
    public var kind: String
    public var equipmentClass: String?
    public var environment: String?
    public var risk: String?
    public var intervalReason: String?
    /// What a table shows in its TYPE column: the equipment type or the electrical class.
    public var typeLabel: String

    public init(row: RegisterRow, today: CalendarDate) {
        let a = row.asset
        let report = row.status(on: today)
        uuid = a.uuid.uuidString.lowercased()
        tag = a.tag
        name = a.name
        type = a.type.rawValue
        wllKg = a.isElectrical ? nil : a.wllKg
        lengthM = a.lengthM
        location = a.location
        manufacturer = a.manufacturer
        serialNumber = a.serialNumber
        manufactured = a.manufactured?.iso
        commissioned = a.commissioned?.iso
        intervalMonths = a.intervalMonths
        liftsPersons = a.liftsPersons
        lastThoroughExamination = row.summary.lastThoroughDate?.iso
        latestResult = row.summary.latestResult?.rawValue
        nextDue = report.nextDue?.iso
        remedyDeadline = report.remedyDeadline?.iso
        status = report.status.rawValue
        examinationScheme = a.examinationScheme
        kind = a.kind.rawValue
        equipmentClass = a.electrical?.equipmentClass.rawValue
        environment = a.electrical?.environment.rawValue
        risk = a.electrical?.risk.rawValue
        intervalReason = a.electrical?.intervalReason
        typeLabel = a.typeLabel
    }

    /// The documented columns, in order: JSON keys and CSV columns alike.
    public static let table = ExportTable<AssetListing>([
        ("tag", { .text($0.tag) }),
        ("name", { .text($0.name) }),
        ("type", { .text($0.type) }),
        ("wll_kg", { .number($0.wllKg) }),
        ("length_m", { .number($0.lengthM) }),
        ("location", { .text($0.location) }),
        ("manufacturer", { .text($0.manufacturer) }),
        ("serial_number", { .text($0.serialNumber) }),
        ("manufactured", { .text($0.manufactured) }),
        ("commissioned", { .text($0.commissioned) }),
        ("interval_months", { .integer(Int64($0.intervalMonths)) }),
        ("lifts_persons", { .flag($0.liftsPersons) }),
        ("last_thorough_examination", { .text($0.lastThoroughExamination) }),
        ("latest_result", { .text($0.latestResult) }),
        ("next_due", { .text($0.nextDue) }),
        ("remedy_deadline", { .text($0.remedyDeadline) }),
        ("status", { .text($0.status) }),
        ("uuid", { .text($0.uuid) }),
        ("examination_scheme", { .text($0.examinationScheme) }),
        ("kind", { .text($0.kind) }),
        ("equipment_class", { .text($0.equipmentClass) }),
        ("environment", { .text($0.environment) }),
        ("risk", { .text($0.risk) }),
        ("interval_reason", { .text($0.intervalReason) }),
    ])

    public static var csvHeader: [String] { table.header }
    public var csvFields: [String] { AssetListing.table.csvFields(self) }
    /// The asset as one JSON object (same names as the CSV header).
    public var json: String { AssetListing.table.json(self) }
}
