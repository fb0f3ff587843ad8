import Foundation

/// The 12 asset fields as typed (text), turned into an `Asset` with every problem named. Used by the
/// add-asset screen; numbers and dates stay text until then so nothing typed is lost.
public struct AssetDraft: Sendable, Equatable {
    public var tag = ""
    public var name = ""
    public var type: EquipmentType = .webSling
    public var wllKg = ""
    public var lengthM = ""
    public var location = ""
    public var manufacturer = ""
    public var serialNumber = ""
    public var manufactured = ""
    public var commissioned = ""
    /// Empty means the default for the type (6 or 12 months).
    public var intervalMonths = ""
    public var liftsPersons = false
    /// Needed only for an interval longer than LOLER reg 9(3) allows.
    public var examinationScheme = ""

    public init() {}

    public var defaultInterval: Int { type.defaultIntervalMonths(liftsPersons: liftsPersons) }

    public typealias Field = Asset.Field

    /// The asset, or every reason it cannot be one, tied to fields. Dates after `today` are refused;
    /// the tag is stored in Unicode NFC.
    public func validated(today: CalendarDate) -> Result<Asset, Problems> {
        var problems: [(Field, String)] = []
        func trimmed(_ s: String) -> String { s.trimmingCharacters(in: .whitespaces) }
        func number(_ text: String, _ field: Field, optional: Bool) -> Double? {
            let t = trimmed(text)
            if t.isEmpty {
                let what = field == .wll ? "working load limit in kg" : field.label.lowercased()
                if !optional { problems.append((field, "Enter the \(what).")) }
                return nil
            }
            guard let value = Double(t), value.isFinite, value > 0 else {
                problems.append((field, "\(field.label) must be a number greater than 0.")); return nil
            }
            return value
        }
        func date(_ text: String, _ field: Field) -> CalendarDate? {
            let t = trimmed(text)
            if t.isEmpty { return nil }
            guard let date = CalendarDate(iso: t) else {
                problems.append((field, "Write the date as YYYY-MM-DD (a real date).")); return nil
            }
            return date
        }
        let wll = number(wllKg, .wll, optional: false)
        let length = number(lengthM, .length, optional: true)
        let made = date(manufactured, .manufactured)
        let commission = date(commissioned, .commissioned)
        var interval = defaultInterval
        if !trimmed(intervalMonths).isEmpty {
            if let value = Int(trimmed(intervalMonths)), Asset.intervalRange.contains(value) { interval = value }
            else { problems.append((.interval, "The interval must be a whole number of months from 1 to 60.")) }
        }
        let asset = Asset(tag: Tags.normalized(trimmed(tag)), name: trimmed(name), type: type, wllKg: wll ?? 1,
                          lengthM: length, location: trimmed(location), manufacturer: trimmed(manufacturer),
                          serialNumber: trimmed(serialNumber), manufactured: made, commissioned: commission,
                          intervalMonths: interval, liftsPersons: liftsPersons,
                          examinationScheme: trimmed(examinationScheme))
        // The WLL's own message is already there when it did not parse.
        problems += asset.admissionProblems(today: today).filter { wll != nil || $0.field != .wll }
            .map { ($0.field, $0.message) }
        guard problems.isEmpty, wll != nil else { return .failure(Problems(items: problems)) }
        return .success(asset)
    }

    public struct Problems: Error, Sendable, Equatable {
        public var items: [(Field, String)]
        public static func == (a: Problems, b: Problems) -> Bool {
            a.items.map(\.0) == b.items.map(\.0) && a.items.map(\.1) == b.items.map(\.1)
        }
    }
}
