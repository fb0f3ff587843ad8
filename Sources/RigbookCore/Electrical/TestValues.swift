import Foundation

/// TagWorks' test form (SPEC §12) as values: its choices, the 16 fields as typed, in form order, and the limits
/// the readings are judged by.

public enum TestType: String, CaseIterable, Sendable, Codable {
    case initial
    case periodic
    case retest
    case afterRepair = "after_repair"

    public var label: String {
        switch self {
        case .initial: "Initial"
        case .periodic: "Periodic"
        case .retest: "Retest"
        case .afterRepair: "After repair or service"
        }
    }
}

/// A pass/fail observation (visual inspection, polarity, the RCD's push-button).
public enum PassFail: String, CaseIterable, Sendable, Codable {
    case pass
    case fail

    public var label: String { self == .pass ? "Pass" : "Fail" }
}

/// Field 15: automatic follows the readings; a manual Pass cannot override a failed or missing reading.
public enum TestResultChoice: String, CaseIterable, Sendable, Codable {
    case automatic
    case pass
    case fail

    public var label: String {
        switch self {
        case .automatic: "Automatic (from readings)"
        case .pass: "Pass"
        case .fail: "Fail"
        }
    }
}

/// The RCD's type by rated residual current (AS/NZS 3190): Type I 10 mA, Type II 30 mA. Their trip-time limits
/// differ (40 ms and 300 ms at rated current).
public enum RCDType: String, CaseIterable, Sendable, Codable {
    case typeII = "type_2"
    case typeI = "type_1"

    public var label: String { self == .typeI ? "Type I (10 mA)" : "Type II (30 mA)" }
}

/// The pass limits of the readings. The register's settings hold them (the organisation's particulars,
/// `TestLimitsSettings.swift`); these are the defaults of SPEC §12,
/// verified against published summaries of AS/NZS 3760 (docs/DECISIONS.md "Electrical test and tag").
public struct TestLimits: Hashable, Sendable, Codable {
    /// Earth continuity passes at or below this many ohms.
    public var earthContinuityMaxOhm: Double = 1.0
    /// Insulation resistance passes at or above this many megohms.
    public var insulationMinMOhm: Double = 1.0
    /// Leakage current (in place of insulation resistance) passes at or below: Class I, and every other class.
    public var leakageMaxMAClassI: Double = 5.0
    public var leakageMaxMAClassII: Double = 1.0
    /// Trip time at rated residual current passes at or below: Type II (30 mA) and Type I (10 mA) RCDs.
    public var rcdTripMaxMsTypeII: Double = 300
    public var rcdTripMaxMsTypeI: Double = 40
    /// An instrument calibrated longer ago than this many months warns (the technician acknowledges it).
    public var calibrationWarningMonths: Int = 12

    public init() {}

    public static let defaults = TestLimits()

    public func leakageMaxMA(_ equipmentClass: ElectricalClass) -> Double {
        equipmentClass == .classI ? leakageMaxMAClassI : leakageMaxMAClassII
    }

    public func tripMaxMs(_ type: RCDType) -> Double { type == .typeI ? rcdTripMaxMsTypeI : rcdTripMaxMsTypeII }
}

/// A test's fields as typed: the draft model of the test form (a value with equality, so unsaved input is
/// `values != baseline`). Readings stay text until the gate, so half a number is never lost.
public struct TestValues: Hashable, Sendable, Codable {
    public var testType: TestType = .periodic
    public var testDate = ""
    public var technician = ""
    public var licenceNumber = ""
    public var instrumentModel = ""
    public var instrumentSerial = ""
    public var procedureReference = ""
    public var calibrationDate = ""
    /// The technician has read the warning that the instrument's calibration is over 12 months old.
    public var calibrationAcknowledged = false
    public var visual: PassFail?
    public var earthContinuityOhm = ""
    public var insulationMOhm = ""
    public var loadCurrentA = ""
    /// Beyond TagWorks' three readings, because the standard asks for them (SPEC §12).
    public var leakageMA = ""
    public var polarity: PassFail?
    public var rcdType: RCDType = .typeII
    public var rcdPushButton: PassFail?
    public var rcdTripTimeMs = ""
    public var attachments: [Attachment] = []
    public var notes = ""
    public var result: TestResultChoice = .automatic
    public var authenticated = false

    public init() {}

    /// A new form: today's date, and the technician's five particulars and licence from the profile.
    public init(prefill profile: TestProfile, today: CalendarDate, type: TestType = .periodic) {
        testType = type
        testDate = today.iso
        technician = profile.technician
        licenceNumber = profile.licenceNumber
        instrumentModel = profile.instrumentModel
        instrumentSerial = profile.instrumentSerial
        procedureReference = profile.procedureReference
        calibrationDate = profile.calibrationDate
    }

    /// The values as JSON, field by field. Every field may be absent from a draft another build wrote (it reads as
    /// the blank form's); an observation not made is left out.
    public static let jsonFields: [JSONField<TestValues>] = [
        .added("test_type", \.testType, absent: .periodic),
        .added("test_date", \.testDate, absent: ""),
        .added("technician", \.technician, absent: ""),
        .added("licence_number", \.licenceNumber, absent: ""),
        .added("instrument_model", \.instrumentModel, absent: ""),
        .added("instrument_serial", \.instrumentSerial, absent: ""),
        .added("procedure_reference", \.procedureReference, absent: ""),
        .added("calibration_date", \.calibrationDate, absent: ""),
        .added("calibration_acknowledged", \.calibrationAcknowledged, absent: false),
        .added("visual", \.visual, absent: nil, omitted: { $0 == nil }),
        .added("earth_continuity_ohm", \.earthContinuityOhm, absent: ""),
        .added("insulation_mohm", \.insulationMOhm, absent: ""),
        .added("load_current_a", \.loadCurrentA, absent: ""),
        .added("leakage_ma", \.leakageMA, absent: ""),
        .added("polarity", \.polarity, absent: nil, omitted: { $0 == nil }),
        .added("rcd_type", \.rcdType, absent: .typeII),
        .added("rcd_push_button", \.rcdPushButton, absent: nil, omitted: { $0 == nil }),
        .added("rcd_trip_time_ms", \.rcdTripTimeMs, absent: ""),
        .added("attachments", \.attachments, absent: []),
        .added("notes", \.notes, absent: ""),
        .added("result", \.result, absent: .automatic),
        .added("authenticated", \.authenticated, absent: false),
    ]

    /// Every name this build reads and writes (a draft keeps the others as they were, `UnknownDraftKeys`).
    public static let jsonKeys = jsonFields.keys()

    public init(from decoder: Decoder) throws { self = try Self.jsonFields.read(from: decoder, into: TestValues()) }
    public func encode(to encoder: Encoder) throws { try Self.jsonFields.write(self, to: encoder) }
}

/// The fields of the test form in form order (the readings that do not apply to a class are not shown).
public enum TestField: String, CaseIterable, Sendable {
    case testType, testDate, technician, licenceNumber, instrumentModel, instrumentSerial, procedureReference
    case calibrationDate, calibrationAcknowledged, visual, earthContinuity, insulation, leakage, polarity
    case rcdType, rcdPushButton, rcdTripTime, loadCurrent, attachments, notes, result, authenticated

    public var label: String {
        switch self {
        case .testType: "Test type"
        case .testDate: "Test date"
        case .technician: "Technician"
        case .licenceNumber: "Licence / competency no."
        case .instrumentModel: "Instrument model"
        case .instrumentSerial: "Instrument serial"
        case .procedureReference: "Procedure / standard"
        case .calibrationDate: "Calibration date"
        case .calibrationAcknowledged: "Old calibration noted"
        case .visual: "Visual inspection"
        case .earthContinuity: "Earth continuity (Ω)"
        // One wording on every screen, message and reading row; it fits the form's 22-column labels.
        case .insulation: "Insulation (MΩ)"
        case .leakage: "Leakage current (mA)"
        case .polarity: "Polarity"
        case .rcdType: "RCD type"
        case .rcdPushButton: "RCD push-button test"
        case .rcdTripTime: "RCD trip time (ms)"
        case .loadCurrent: "Load current (A)"
        case .attachments: "Photos / attachments"
        case .notes: "Notes"
        case .result: "Result"
        case .authenticated: "I authenticate this test"
        }
    }

    /// The fields a test of an asset of this class shows, in order.
    public static func shown(for equipmentClass: ElectricalClass) -> [TestField] {
        allCases.filter { field in
            switch field {
            case .earthContinuity: equipmentClass.needsEarthContinuity
            case .polarity: equipmentClass.needsPolarity
            case .rcdType, .rcdPushButton, .rcdTripTime: equipmentClass.isRCD
            // A portable RCD is judged by its push-button and trip time (DECISIONS): no insulation reading.
            case .insulation, .leakage: !equipmentClass.isRCD
            default: true
            }
        }
    }
}
