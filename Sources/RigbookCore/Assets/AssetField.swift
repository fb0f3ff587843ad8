import Foundation

/// How an asset left service for good. Its records stay: LOLER reg 11 keeps a report
/// until the next one or for two years.
public enum Disposition: String, CaseIterable, Sendable, Codable {
    case disposedOf = "disposed_of"
    case lost
    case sold
    case scrapped

    public var label: String {
        switch self {
        case .disposedOf: "disposed of"
        case .lost: "lost"
        case .sold: "sold"
        case .scrapped: "scrapped"
        }
    }

    /// The word typed on the command line or in a spreadsheet: `disposed`, `disposed-of`, `disposed of`,
    /// `lost`, `sold`, `scrapped`, in any letter case.
    public init?(word: String) {
        let folded = word.trimmingCharacters(in: .whitespaces).lowercased()
            .replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
        if folded == "disposed" { self = .disposedOf; return }
        self.init(rawValue: folded)
    }
}

/// One value of an asset field, typed as the register keeps it.
public enum AssetFieldValue: Hashable, Sendable {
    case none
    case text(String)
    case number(Double)
    case integer(Int)
    case flag(Bool)
    case date(CalendarDate)

    /// The value as `asset list --format csv` writes it; nil for none.
    public var text: String? { self == .none ? nil : export.csv }

    /// The value as an export's cell (`asset list`, `export`): a date as `YYYY-MM-DD`, none as null.
    public var export: ExportValue {
        switch self {
        case .none: .text(nil)
        case .text(let text): .text(text)
        case .number(let number): .number(number)
        case .integer(let integer): .integer(Int64(integer))
        case .flag(let flag): .flag(flag)
        case .date(let date): .text(date.iso)
        }
    }
}

/// The fields of an asset that can change over its life, under the names of `asset list --format csv`
/// (and of the `asset_changes.field` column). Retirement is two fields of its own.
public enum AssetField: String, CaseIterable, Sendable, Codable {
    case tag, name, type
    case wllKg = "wll_kg"
    case lengthM = "length_m"
    case location, manufacturer
    case serialNumber = "serial_number"
    case manufactured, commissioned
    case intervalMonths = "interval_months"
    case liftsPersons = "lifts_persons"
    case examinationScheme = "examination_scheme"
    case retiredOn = "retired_on"
    case disposition
    /// An electrical asset's own fields; none on lifting equipment.
    case equipmentClass = "equipment_class"
    case environment, risk
    case intervalReason = "interval_reason"
    /// The owner's own plant number (Snipe-IT's, PATorganiser's, a hire register's), beside the tag. A field added
    /// later goes last: the field order orders one edit's changes and puts an export's new column at its end.
    case clientRef = "client_ref"

    public var label: String {
        switch self {
        case .tag: "tag"
        case .name: "name"
        case .type: "type"
        case .wllKg: "WLL"
        case .lengthM: "length"
        case .location: "location"
        case .manufacturer: "manufacturer"
        case .serialNumber: "serial number"
        case .manufactured: "date of manufacture"
        case .commissioned: "commission date"
        case .intervalMonths: "interval"
        case .liftsPersons: "lifts persons"
        case .examinationScheme: "examination scheme"
        case .retiredOn: "retired on"
        case .disposition: "disposition"
        case .equipmentClass: "equipment class"
        case .environment: "environment"
        case .risk: "risk"
        case .intervalReason: "interval reason"
        case .clientRef: "client ref"
        }
    }

    /// A value as the screens word it: a disposition, type or class by its label ("disposed of", not
    /// `disposed_of`), yes or no, "(empty)" for empty text, "—" for none. Exports keep the stored text.
    public func shown(_ value: AssetFieldValue) -> String {
        guard let text = value.text else { return "—" }
        if text.isEmpty { return "(empty)" }
        switch self {
        case .disposition: return Disposition(rawValue: text)?.label ?? text
        case .type: return EquipmentType(rawValue: text)?.label ?? text
        case .equipmentClass: return ElectricalClass(rawValue: text)?.label ?? text
        case .liftsPersons: return text == "true" ? "yes" : "no"
        default: return text
        }
    }

    /// Position in field order.
    public var order: Int { AssetField.allCases.firstIndex(of: self)! }

    /// The fields an electrical asset has (the others stay as added: type other, WLL 0).
    public static let electricalFields: [AssetField] = [.tag, .name, .location, .commissioned, .intervalMonths,
                                                        .retiredOn, .disposition, .equipmentClass, .environment,
                                                        .risk, .intervalReason, .clientRef]

    /// The fields an asset is added with, in field order: all but its retirement, which only a change gives it.
    /// They are the register's columns written at its addition, its hashed columns and the exports' columns.
    public static let added = allCases.filter { $0 != .retiredOn && $0 != .disposition }

    public func value(in asset: Asset) -> AssetFieldValue {
        switch self {
        case .tag: .text(asset.tag)
        case .name: .text(asset.name)
        case .type: .text(asset.type.rawValue)
        case .wllKg: .number(asset.wllKg)
        case .lengthM: asset.lengthM.map(AssetFieldValue.number) ?? .none
        case .location: .text(asset.location)
        case .manufacturer: .text(asset.manufacturer)
        case .serialNumber: .text(asset.serialNumber)
        case .manufactured: asset.manufactured.map(AssetFieldValue.date) ?? .none
        case .commissioned: asset.commissioned.map(AssetFieldValue.date) ?? .none
        case .intervalMonths: .integer(asset.intervalMonths)
        case .liftsPersons: .flag(asset.liftsPersons)
        case .examinationScheme: .text(asset.examinationScheme)
        case .retiredOn: asset.retiredOn.map(AssetFieldValue.date) ?? .none
        case .disposition: asset.disposition.map { .text($0.rawValue) } ?? .none
        case .equipmentClass: asset.electrical.map { .text($0.equipmentClass.rawValue) } ?? .none
        case .environment: asset.electrical.map { .text($0.environment.rawValue) } ?? .none
        case .risk: asset.electrical.map { .text($0.risk.rawValue) } ?? .none
        case .intervalReason: asset.electrical.map { .text($0.intervalReason) } ?? .none
        // None when empty, so the register keeps NULL there: an asset without one hashes as every asset did
        // before the field, and an emptied one reads as one that never had any.
        case .clientRef: asset.clientRef.isEmpty ? .none : .text(asset.clientRef)
        }
    }

    /// The fields in which `edited` differs from `original`, in field order.
    public static func differences(from original: Asset, to edited: Asset) -> [AssetField] {
        allCases.filter { $0.value(in: original) != $0.value(in: edited) }
    }
}

/// One change of one field of an asset, as the register keeps it (`asset_changes`): append-only, in the
/// hash chain. The asset keeps its uuid whatever changes, its tag included.
public struct AssetChange: Hashable, Sendable {
    public var changeUUID: UUID
    public var assetUUID: UUID
    public var field: AssetField
    public var oldValue: AssetFieldValue
    public var newValue: AssetFieldValue
    public var reason: String
    /// ISO 8601 UTC with milliseconds: with the change uuid, what orders changes of one field.
    public var changedAt: String
    public var operatorName: String
    /// The editor session (or command) that made it; the changes of one edit share it.
    public var sessionID: String?
    public var entryHash: String?

    public init(changeUUID: UUID = UUID(), assetUUID: UUID, field: AssetField, oldValue: AssetFieldValue,
                newValue: AssetFieldValue, reason: String, changedAt: String, operatorName: String,
                sessionID: String? = nil, entryHash: String? = nil) {
        self.changeUUID = changeUUID
        self.assetUUID = assetUUID
        self.field = field
        self.oldValue = oldValue
        self.newValue = newValue
        self.reason = reason
        self.changedAt = changedAt
        self.operatorName = operatorName
        self.sessionID = sessionID
        self.entryHash = entryHash
    }

    /// The order in which changes of one field count: the later `(changed_at, change uuid)` wins, on
    /// every register, whatever order a merge brought them in. The changes of one edit share their time and
    /// are listed in field order (which leaves the order of one field's changes as it is).
    public static func isEarlier(_ a: AssetChange, _ b: AssetChange) -> Bool {
        (a.changedAt, a.field.order, a.changeUUID.uuidString) < (b.changedAt, b.field.order, b.changeUUID.uuidString)
    }

    /// Newest first, for histories; the changes of one edit still in field order.
    public static func isNewer(_ a: AssetChange, _ b: AssetChange) -> Bool {
        a.changedAt != b.changedAt ? a.changedAt > b.changedAt
            : (a.field.order, a.changeUUID.uuidString) < (b.field.order, b.changeUUID.uuidString)
    }

    /// "WLL 2000 → 2500", "disposition — → disposed of": what the history and the editor's save say, in the
    /// words the screens use for a value (`AssetField.shown`), never its stored spelling.
    public var summary: String {
        "\(field.label) \(field.shown(oldValue)) → \(field.shown(newValue))"
    }
}

extension Asset {
    /// Why a changed asset cannot be kept, tied to fields: the checks of adding one (`admissionProblems`),
    /// except that an interval longer than LOLER reg 9(3) allows, already in the register, is refused only
    /// when the edit touches what decides it (type, interval, lifts persons, scheme).
    public func editProblems(from original: Asset, today: CalendarDate) -> [(field: Field, message: String)] {
        let deciding: [AssetField] = [.type, .intervalMonths, .liftsPersons, .examinationScheme, .environment, .risk,
                                      .intervalReason]
        let touched = AssetField.differences(from: original, to: self).contains { deciding.contains($0) }
        var problems = fieldProblems(today: today)
        if touched, let interval = intervalProblem { problems.append((.examinationScheme, interval)) }
        if touched, let interval = electricalIntervalProblem { problems.append((.intervalReason, interval)) }
        if (original.electrical == nil) != (electrical == nil) {
            problems.append((.kind, "An asset stays the kind it was added as (lifting or electrical)."))
        }
        if let retired = retiredOn {
            if retired > today { problems.append((.retiredOn, "The retirement date \(retired.iso) is in the future.")) }
            if let commissioned, retired < commissioned {
                problems.append((.retiredOn, "The retirement date is before the commission date."))
            }
            if disposition == nil { problems.append((.disposition, "Say how it left service.")) }
        } else if disposition != nil {
            problems.append((.retiredOn, "Give the date it left service."))
        }
        return problems
    }
}
