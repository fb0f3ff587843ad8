/// One asset as scripts see it (`asset list --format json|csv`, exports). Field names are stable
/// snake_case; dates are `YYYY-MM-DD`; absent values are null.
public struct AssetListing: Sendable, Equatable {
    public var uuid: String
    public var tag: String
    public var name: String
    public var type: String
    public var wllKg: Double
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

    public init(row: RegisterRow, today: CalendarDate) {
        let a = row.asset
        let report = row.status(on: today)
        uuid = a.uuid.uuidString.lowercased()
        tag = a.tag
        name = a.name
        type = a.type.rawValue
        wllKg = a.wllKg
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
    }

    /// The documented names, in order: JSON keys and CSV columns alike.
    public enum CodingKeys: String, CaseIterable {
        case tag, name, type
        case wllKg = "wll_kg"
        case lengthM = "length_m"
        case location, manufacturer
        case serialNumber = "serial_number"
        case manufactured, commissioned
        case intervalMonths = "interval_months"
        case liftsPersons = "lifts_persons"
        case lastThoroughExamination = "last_thorough_examination"
        case latestResult = "latest_result"
        case nextDue = "next_due"
        case remedyDeadline = "remedy_deadline"
        case status, uuid
    }

    /// The CSV columns, in the same order and with the same names as the JSON.
    public static var csvHeader: [String] { CodingKeys.allCases.map(\.rawValue) }

    public var csvFields: [String] {
        func number(_ value: Double?) -> String {
            guard let value else { return "" }
            return value == value.rounded() ? String(Int(value)) : String(value)
        }
        return [tag, name, type, number(wllKg), number(lengthM), location, manufacturer, serialNumber,
                manufactured ?? "", commissioned ?? "", String(intervalMonths), liftsPersons ? "true" : "false",
                lastThoroughExamination ?? "", latestResult ?? "", nextDue ?? "", remedyDeadline ?? "", status, uuid]
    }
}
