import Foundation

/// TagWorks' electrical test and tag (SPEC §12, AS/NZS 3760): what an electrical asset is beside an
/// item of lifting equipment. The raw values are the command-line and CSV spellings.

/// The two kinds of asset a register holds. Stored as `assets.asset_kind`, NULL for lifting equipment (so an
/// asset added before the kind existed keeps its hash).
public enum AssetKind: String, CaseIterable, Sendable, Codable {
    case lifting
    case electrical

    public var label: String {
        switch self {
        case .lifting: "Lifting equipment"
        case .electrical: "Electrical (test and tag)"
        }
    }
}

/// TagWorks' equipment classes (SPEC §12). Which readings a test needs depends on it.
public enum ElectricalClass: String, CaseIterable, Sendable, Codable {
    case classI = "class-1"
    case classII = "class-2"
    case cordSet = "cord-set"
    case extensionSet = "extension-set"
    case portableRCD = "portable-rcd"
    case other

    public var label: String {
        switch self {
        case .classI: "Class I"
        case .classII: "Class II"
        case .cordSet: "Cord set"
        case .extensionSet: "Extension set"
        case .portableRCD: "Portable RCD"
        case .other: "Other"
        }
    }

    /// Also takes `class-i`, `class i`, `Class I`, `classII`…: what a spreadsheet or a person types.
    public init?(word: String) {
        let folded = word.trimmingCharacters(in: .whitespaces).lowercased()
            .replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: "_", with: "-")
        switch folded {
        case "class-1", "class-i", "classi", "class1", "i", "1": self = .classI
        case "class-2", "class-ii", "classii", "class2", "ii", "2": self = .classII
        case "rcd", "portable-rcd", "prcd": self = .portableRCD
        case "extension", "extension-lead", "extension-set": self = .extensionSet
        case "cord", "cord-set": self = .cordSet
        default:
            guard let value = ElectricalClass(rawValue: folded) else { return nil }
            self = value
        }
    }

    /// Earth continuity applies to equipment with a protective earth: Class I, cord sets and extension sets.
    public var needsEarthContinuity: Bool { self == .classI || self == .cordSet || self == .extensionSet }
    /// Polarity (correct wiring of active and neutral) is checked on cord sets and extension sets.
    public var needsPolarity: Bool { self == .cordSet || self == .extensionSet }
    /// A portable RCD is tested by its push-button and by its trip time at rated residual current.
    public var isRCD: Bool { self == .portableRCD }
}

/// The environments of AS/NZS 3760 Table 4 (as SPEC §12 lists them), each with its interval.
public enum ElectricalEnvironment: String, CaseIterable, Sendable, Codable {
    case construction
    case hire
    case factory
    case cleaning
    case hostile
    case healthCare = "health-care"
    case residential
    case nonHostile = "non-hostile"

    public var label: String {
        switch self {
        case .construction: "Building, construction and demolition"
        case .hire: "Hire equipment"
        case .factory: "Factories, workshops, manufacturing, maintenance"
        case .cleaning: "Commercial cleaning"
        case .hostile: "Hostile: flexing, abuse or hostile environment"
        case .healthCare: "Health care, education, office kitchens"
        case .residential: "Residential-type areas (hotels, hostels)"
        case .nonHostile: "Non-hostile: no flexing, no abuse (offices)"
        }
    }

    /// AS/NZS 3760 Table 4, the maximum interval between tests, in months (verified against published
    /// copies of the table; see docs/DECISIONS.md "Electrical test and tag").
    public var intervalMonths: Int {
        switch self {
        case .construction: 3
        case .hire: 3
        case .factory: 6
        case .cleaning: 6
        case .hostile: 12
        case .healthCare: 12
        case .residential: 24
        case .nonHostile: 60
        }
    }
}

/// Risk of the item's use: high risk halves the interval (rounded down, never below a month).
public enum ElectricalRisk: String, CaseIterable, Sendable, Codable {
    case normal
    case high

    public var label: String { self == .normal ? "Normal" : "High (halves the interval)" }
}

/// What an electrical asset has that an item of lifting equipment has not.
public struct ElectricalParticulars: Hashable, Sendable, Codable {
    public var equipmentClass: ElectricalClass
    public var environment: ElectricalEnvironment
    public var risk: ElectricalRisk
    /// Why the asset's interval is not the table's; needed whenever it differs.
    public var intervalReason: String

    public init(equipmentClass: ElectricalClass, environment: ElectricalEnvironment, risk: ElectricalRisk = .normal,
                intervalReason: String = "") {
        self.equipmentClass = equipmentClass
        self.environment = environment
        self.risk = risk
        self.intervalReason = intervalReason
    }

    /// The interval the table gives for this environment and risk.
    public var tableIntervalMonths: Int { ElectricalParticulars.intervalMonths(environment, risk) }

    public static func intervalMonths(_ environment: ElectricalEnvironment, _ risk: ElectricalRisk) -> Int {
        let months = environment.intervalMonths
        return risk == .high ? max(1, months / 2) : months
    }
}

extension Asset {
    public var kind: AssetKind { electrical == nil ? .lifting : .electrical }
    public var isElectrical: Bool { electrical != nil }

    /// What the list's TYPE column shows: the equipment type, or the electrical class.
    public var typeLabel: String { electrical?.equipmentClass.label ?? type.label }

    /// A new electrical asset: its interval from the table unless one is given (then with a reason).
    public static func electrical(uuid: UUID = UUID(), tag: String, name: String, site: String = "",
                                  particulars: ElectricalParticulars, intervalMonths: Int? = nil,
                                  commissioned: CalendarDate? = nil) -> Asset {
        var asset = Asset(uuid: uuid, tag: tag, name: name, type: .other, wllKg: 0, location: site,
                          commissioned: commissioned,
                          intervalMonths: intervalMonths ?? particulars.tableIntervalMonths)
        asset.electrical = particulars
        return asset
    }

    /// The sentence when an electrical asset's interval is not the table's and no reason says why.
    public var electricalIntervalProblem: String? {
        guard let e = electrical, intervalMonths != e.tableIntervalMonths,
              e.intervalReason.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return "AS/NZS 3760 gives \(e.tableIntervalMonths) months for \(e.environment.label.lowercased())"
            + (e.risk == .high ? " at high risk" : "") + ": give a reason for \(intervalMonths) months, or use "
            + "\(e.tableIntervalMonths)."
    }
}
