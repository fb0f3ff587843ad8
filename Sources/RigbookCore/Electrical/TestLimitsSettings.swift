import Foundation

/// The electrical test limits as register settings (SPEC §12 "Limits live in the register settings"): kept in
/// the examining organisation's particulars, one field each, with the sentences that refuse a limit no test
/// could sensibly be judged by. See docs/DECISIONS.md "Test limits in the organisation's particulars".

extension ParticularField {
    /// The limits' fields, in the order the Settings screen and `rigbook settings get` show them.
    public static let limitFields: [ParticularField] = [
        .earthContinuityMaxOhm, .insulationMinMOhm, .leakageMaxMAClassI, .leakageMaxMAOther,
        .rcdTripMaxMsTypeII, .rcdTripMaxMsTypeI, .calibrationWarningMonths,
    ]

    /// One of the test limits: typed as a number, kept in the organisation's particulars.
    public var isLimit: Bool { ParticularField.limitFields.contains(self) }
}

extension TestLimits {
    /// The range a limit may take, and why beyond it is refused: a limit outside it is a slip of the
    /// keyboard (10 for 1.0) that would pass dangerous equipment, or fail every sound one.
    struct Bound {
        let what: String
        let unit: String
        let minimum: Double
        let maximum: Double
        /// Why over the maximum is refused; why under the minimum (when it is above 0).
        let why: String
        var whyLow = ""
    }

    static func bound(_ field: ParticularField) -> Bound? {
        switch field {
        case .earthContinuityMaxOhm:
            Bound(what: "The earth continuity limit", unit: "Ω", minimum: 0, maximum: 10,
                  why: "over 10 Ω an earth conductor would not carry a fault current to trip the protection")
        case .insulationMinMOhm:
            Bound(what: "The insulation resistance limit", unit: "MΩ", minimum: 0.01, maximum: 1000,
                  why: "insulation testers read no more, so every item would fail",
                  whyLow: "under 0.01 MΩ (10 kΩ) insulation that leaks dangerously would pass")
        case .leakageMaxMAClassI:
            Bound(what: "The Class I leakage current limit", unit: "mA", minimum: 0, maximum: 30,
                  why: "over 30 mA the leakage would trip a 30 mA RCD, let alone harm a person")
        case .leakageMaxMAOther:
            Bound(what: "The leakage current limit of other classes", unit: "mA", minimum: 0, maximum: 30,
                  why: "over 30 mA the leakage would trip a 30 mA RCD, let alone harm a person")
        case .rcdTripMaxMsTypeII:
            Bound(what: "The Type II RCD trip time limit", unit: "ms", minimum: 0, maximum: 1000,
                  why: "an RCD that takes over 1000 ms to trip does not protect a person")
        case .rcdTripMaxMsTypeI:
            Bound(what: "The Type I RCD trip time limit", unit: "ms", minimum: 0, maximum: 1000,
                  why: "an RCD that takes over 1000 ms to trip does not protect a person")
        case .calibrationWarningMonths:
            Bound(what: "The calibration warning", unit: "months", minimum: 1, maximum: 60,
                  why: "an instrument is calibrated at least every five years")
        default: nil
        }
    }

    /// A limit's value; nil for a field that is not a limit.
    public func value(of field: ParticularField) -> Double? {
        switch field {
        case .earthContinuityMaxOhm: earthContinuityMaxOhm
        case .insulationMinMOhm: insulationMinMOhm
        case .leakageMaxMAClassI: leakageMaxMAClassI
        case .leakageMaxMAOther: leakageMaxMAClassII
        case .rcdTripMaxMsTypeII: rcdTripMaxMsTypeII
        case .rcdTripMaxMsTypeI: rcdTripMaxMsTypeI
        case .calibrationWarningMonths: Double(calibrationWarningMonths)
        default: nil
        }
    }

    /// A limit as text: "1", "0.5", "12".
    public func text(of field: ParticularField) -> String { value(of: field).map(ExportValue.numberText) ?? "" }

    /// These limits with one set from text. Text that is not a number is kept as not-a-number (months as 0),
    /// so that the check refuses it with a sentence rather than the text vanishing.
    public func setting(_ field: ParticularField, to text: String) -> TestLimits {
        let number = NumberText.decimal(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
        var limits = self
        switch field {
        case .earthContinuityMaxOhm: limits.earthContinuityMaxOhm = number
        case .insulationMinMOhm: limits.insulationMinMOhm = number
        case .leakageMaxMAClassI: limits.leakageMaxMAClassI = number
        case .leakageMaxMAOther: limits.leakageMaxMAClassII = number
        case .rcdTripMaxMsTypeII: limits.rcdTripMaxMsTypeII = number
        case .rcdTripMaxMsTypeI: limits.rcdTripMaxMsTypeI = number
        case .calibrationWarningMonths:
            limits.calibrationWarningMonths = number.isFinite && number == number.rounded() && abs(number) < 1e6
                ? Int(number) : 0
        default: break
        }
        return limits
    }

    /// Why these limits cannot be kept, a sentence each, with the field it is about; empty when they can.
    public var problems: [(field: ParticularField, message: String)] {
        ParticularField.limitFields.compactMap { field in
            guard let bound = TestLimits.bound(field), let value = value(of: field) else { return nil }
            if field == .calibrationWarningMonths {
                guard value >= bound.minimum && value <= bound.maximum else {
                    return (field, "\(bound.what) must be a whole number of months from 1 to 60: \(bound.why).")
                }
                return nil
            }
            guard value.isFinite, value > 0 else {
                return (field, "\(bound.what) must be a number of \(bound.unit) greater than 0.")
            }
            if value < bound.minimum {
                return (field, "\(bound.what) must be at least \(ExportValue.numberText(bound.minimum)) "
                        + "\(bound.unit): \(bound.whyLow).")
            }
            if value > bound.maximum {
                return (field, "\(bound.what) must be at most \(ExportValue.numberText(bound.maximum)) "
                        + "\(bound.unit): \(bound.why).")
            }
            return nil
        }
    }

    /// One line of the limits, as Settings and the record view show them.
    public var summary: String {
        "earth ≤ \(text(of: .earthContinuityMaxOhm)) Ω · insulation ≥ \(text(of: .insulationMinMOhm)) MΩ"
            + " · leakage ≤ \(text(of: .leakageMaxMAClassI)) mA Class I,"
            + " ≤ \(text(of: .leakageMaxMAOther)) mA others"
            + " · RCD trip ≤ \(text(of: .rcdTripMaxMsTypeII)) ms Type II,"
            + " ≤ \(text(of: .rcdTripMaxMsTypeI)) ms Type I"
            + " · calibration warning after \(calibrationWarningMonths) months"
    }
}

/// Stored under the names of the settings keys (`earth_continuity_max_ohm`), in the organisation's
/// particulars and in each test's `limits` column. A key that is missing reads as its default, and the
/// property names a test's `limits` was written under before they were settings read as well.
extension TestLimits {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case earthContinuityMaxOhm = "earth_continuity_max_ohm"
        case insulationMinMOhm = "insulation_min_mohm"
        case leakageMaxMAClassI = "leakage_max_ma_class_i"
        case leakageMaxMAOther = "leakage_max_ma_other"
        case rcdTripMaxMsTypeII = "rcd_trip_max_ms_type_ii"
        case rcdTripMaxMsTypeI = "rcd_trip_max_ms_type_i"
        case calibrationWarningMonths = "calibration_warning_months"

        /// The key the limit was stored under before it was a setting (Swift's own property names).
        var earlierName: String {
            switch self {
            case .earthContinuityMaxOhm: "earthContinuityMaxOhm"
            case .insulationMinMOhm: "insulationMinMOhm"
            case .leakageMaxMAClassI: "leakageMaxMAClassI"
            case .leakageMaxMAOther: "leakageMaxMAClassII"
            case .rcdTripMaxMsTypeII: "rcdTripMaxMsTypeII"
            case .rcdTripMaxMsTypeI: "rcdTripMaxMsTypeI"
            case .calibrationWarningMonths: "calibrationWarningMonths"
            }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        func number(_ key: CodingKeys, _ fallback: Double) -> Double {
            for name in [key.stringValue, key.earlierName] {
                if let value = try? container.decodeIfPresent(Double.self, forKey: AnyKey(stringValue: name)) {
                    return value
                }
            }
            return fallback
        }
        let d = TestLimits.defaults
        self.init()
        earthContinuityMaxOhm = number(.earthContinuityMaxOhm, d.earthContinuityMaxOhm)
        insulationMinMOhm = number(.insulationMinMOhm, d.insulationMinMOhm)
        leakageMaxMAClassI = number(.leakageMaxMAClassI, d.leakageMaxMAClassI)
        leakageMaxMAClassII = number(.leakageMaxMAOther, d.leakageMaxMAClassII)
        rcdTripMaxMsTypeII = number(.rcdTripMaxMsTypeII, d.rcdTripMaxMsTypeII)
        rcdTripMaxMsTypeI = number(.rcdTripMaxMsTypeI, d.rcdTripMaxMsTypeI)
        let months = number(.calibrationWarningMonths, Double(d.calibrationWarningMonths))
        calibrationWarningMonths = months.isFinite && abs(months) < 1e6 ? Int(months) : d.calibrationWarningMonths
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(earthContinuityMaxOhm, forKey: .earthContinuityMaxOhm)
        try container.encode(insulationMinMOhm, forKey: .insulationMinMOhm)
        try container.encode(leakageMaxMAClassI, forKey: .leakageMaxMAClassI)
        try container.encode(leakageMaxMAClassII, forKey: .leakageMaxMAOther)
        try container.encode(rcdTripMaxMsTypeII, forKey: .rcdTripMaxMsTypeII)
        try container.encode(rcdTripMaxMsTypeI, forKey: .rcdTripMaxMsTypeI)
        try container.encode(calibrationWarningMonths, forKey: .calibrationWarningMonths)
    }
}
