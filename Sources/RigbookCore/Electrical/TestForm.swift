import Foundation

/// TagWorks' test form (SPEC §12): the 16 fields, the readings the standard asks for by class,
/// the limits they are judged by and the gate a test passes before it becomes evidence.

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

/// A file attached to a draft or a record: kept in `Documents/Attachments/` under its SHA-256.
public struct Attachment: Hashable, Sendable, Codable {
    /// Lower-case hex SHA-256 of the content: the file's name in the attachments folder.
    public var sha256: String
    /// The name the file had where it was attached from (shown, never used as a path).
    public var name: String
    public var size: Int64

    public init(sha256: String, name: String, size: Int64) {
        self.sha256 = sha256
        self.name = name
        self.size = size
    }

    /// Images and PDFs only, at most 20 MB.
    public static let maxSize: Int64 = 20 * 1024 * 1024
}

/// What the profile keeps for the test form (TagWorks' five keys and the licence), written back on save.
public struct TestProfile: Hashable, Sendable, Codable {
    public var technician = ""
    public var licenceNumber = ""
    public var instrumentModel = ""
    public var instrumentSerial = ""
    public var procedureReference = ""
    public var calibrationDate = ""

    public init(technician: String = "", licenceNumber: String = "", instrumentModel: String = "",
                instrumentSerial: String = "", procedureReference: String = "", calibrationDate: String = "") {
        self.technician = technician
        self.licenceNumber = licenceNumber
        self.instrumentModel = instrumentModel
        self.instrumentSerial = instrumentSerial
        self.procedureReference = procedureReference
        self.calibrationDate = calibrationDate
    }

    enum CodingKeys: String, CodingKey {
        case technician, licenceNumber = "licence_number", instrumentModel = "instrument_model"
        case instrumentSerial = "instrument_serial", procedureReference = "procedure_reference"
        case calibrationDate = "calibration_date"
    }

    /// A key a profile written by another build lacks reads as empty: the profile only prefills.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) -> String { (try? c.decodeIfPresent(String.self, forKey: key)) ?? "" }
        technician = text(.technician)
        licenceNumber = text(.licenceNumber)
        instrumentModel = text(.instrumentModel)
        instrumentSerial = text(.instrumentSerial)
        procedureReference = text(.procedureReference)
        calibrationDate = text(.calibrationDate)
    }

    /// What a saved test writes back: its own particulars (an empty calibration date leaves the profile's).
    public func writingBack(_ v: TestValues) -> TestProfile {
        var p = self
        p.technician = v.technician
        p.licenceNumber = v.licenceNumber
        p.instrumentModel = v.instrumentModel
        p.instrumentSerial = v.instrumentSerial
        p.procedureReference = v.procedureReference
        if !v.calibrationDate.isEmpty { p.calibrationDate = v.calibrationDate }
        return p
    }
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

/// One reading judged against its limit.
public struct ReadingVerdict: Hashable, Sendable {
    public enum Outcome: String, Hashable, Sendable { case pass, fail, missing, notTaken = "not_taken" }
    public var field: TestField
    public var outcome: Outcome
    /// "0.42 Ω ≤ 1.0 Ω": what the record, the form and the certificate show.
    public var text: String
}

/// A complete, authenticated test record. Only `TestGate.validate` makes one; the register's test insert
/// takes nothing else.
public struct ValidatedTest: Sendable {
    public let assetUUID: UUID
    public let sessionID: String
    /// Trimmed values as stored.
    public let values: TestValues
    public let testDate: CalendarDate
    /// The result the record carries: pass or fail (automatic resolved).
    public let passed: Bool
    public let verdicts: [ReadingVerdict]
    public let limits: TestLimits

    fileprivate init(assetUUID: UUID, sessionID: String, values: TestValues, testDate: CalendarDate, passed: Bool,
                     verdicts: [ReadingVerdict], limits: TestLimits) {
        self.assetUUID = assetUUID
        self.sessionID = sessionID
        self.values = values
        self.testDate = testDate
        self.passed = passed
        self.verdicts = verdicts
        self.limits = limits
    }
}

/// The test form's gate: TagWorks' rules plus the limits and conditional readings of SPEC §12.
public enum TestGate {
    public struct Context: Sendable {
        public var assetUUID: UUID
        public var equipmentClass: ElectricalClass
        public var commissioned: CalendarDate?
        public var today: CalendarDate
        public var sessionID: String
        public var limits: TestLimits

        public init(assetUUID: UUID, equipmentClass: ElectricalClass, commissioned: CalendarDate? = nil,
                    today: CalendarDate, sessionID: String, limits: TestLimits = .defaults) {
            self.assetUUID = assetUUID
            self.equipmentClass = equipmentClass
            self.commissioned = commissioned
            self.today = today
            self.sessionID = sessionID
            self.limits = limits
        }
    }

    public struct Evaluation: Sendable {
        /// Every unmet rule, tied to its field, in form order.
        public var problems: [(field: TestField, message: String)]
        /// Warnings the technician must see (an old calibration), even once acknowledged.
        public var warnings: [(field: TestField, message: String)]
        public var verdicts: [ReadingVerdict]
        /// What the readings and the visual inspection say: pass only when every required one passes.
        public var readingsPass: Bool
        /// The result a save would record (nil while the manual choice is refused).
        public var result: PassFail?
    }

    public static let maxNotes = 4000
    public static let maxText = 200

    /// A reading: empty → nil; otherwise a finite non-negative number or a sentence.
    static func number(_ text: String) -> Result<Double?, Never>? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty { return .success(nil) }
        guard let value = NumberText.decimal(t), value >= 0 else { return nil }
        return .success(value)
    }

    static func format(_ value: Double) -> String { ExportValue.numberText(value) }

    /// Why a reading's text is not a number.
    static func readingProblem(_ field: TestField, _ text: String) -> String {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard NumberText.decimal(t) != nil else { return NumberText.problem(t, what: "a reading") }
        return "\(field.label) must be a number of 0 or more (not \(VisibleText.make(t)))."
    }

    public static func evaluate(_ v: TestValues, _ context: Context) -> Evaluation {
        var problems: [(TestField, String)] = []
        var warnings: [(TestField, String)] = []
        var verdicts: [ReadingVerdict] = []
        let limits = context.limits
        let cls = context.equipmentClass

        // Readings: non-negative and finite when given.
        var parsed: [TestField: Double] = [:]
        let readings: [(TestField, String)] = [
            (.earthContinuity, v.earthContinuityOhm), (.insulation, v.insulationMOhm), (.leakage, v.leakageMA),
            (.rcdTripTime, v.rcdTripTimeMs), (.loadCurrent, v.loadCurrentA),
        ]
        for (field, text) in readings {
            guard let outcome = number(text) else {
                problems.append((field, readingProblem(field, text)))
                continue
            }
            if case .success(let value?) = outcome { parsed[field] = value }
        }
        // Each reading the class needs, judged.
        func judge(_ field: TestField, required: Bool, pass: (Double) -> Bool, limit: String) {
            guard let value = parsed[field] else {
                if required { verdicts.append(ReadingVerdict(field: field, outcome: .missing, text: "not measured")) }
                return
            }
            let ok = pass(value)
            verdicts.append(ReadingVerdict(field: field, outcome: ok ? .pass : .fail,
                                           text: "\(format(value)) \(ok ? "within" : "outside") \(limit)"))
        }
        if cls.needsEarthContinuity {
            judge(.earthContinuity, required: true, pass: { $0 <= limits.earthContinuityMaxOhm },
                  limit: "≤ \(format(limits.earthContinuityMaxOhm)) Ω")
        }
        if !cls.isRCD {
            // Insulation resistance, or leakage current in its place: one of them is required.
            let leakageLimit = limits.leakageMaxMA(cls)
            if parsed[.insulation] != nil || parsed[.leakage] == nil {
                judge(.insulation, required: parsed[.leakage] == nil, pass: { $0 >= limits.insulationMinMOhm },
                      limit: "≥ \(format(limits.insulationMinMOhm)) MΩ")
            }
            judge(.leakage, required: false, pass: { $0 <= leakageLimit }, limit: "≤ \(format(leakageLimit)) mA")
        }
        func observation(_ field: TestField, _ value: PassFail?) {
            verdicts.append(ReadingVerdict(field: field, outcome: value.map { $0 == .pass ? .pass : .fail } ?? .missing,
                                           text: value?.label ?? "not checked"))
        }
        if cls.needsPolarity { observation(.polarity, v.polarity) }
        if cls.isRCD {
            observation(.rcdPushButton, v.rcdPushButton)
            let tripLimit = limits.tripMaxMs(v.rcdType)
            judge(.rcdTripTime, required: true, pass: { $0 <= tripLimit }, limit: "≤ \(format(tripLimit)) ms")
        }
        let visualPass = v.visual == .pass
        let readingsPass = visualPass && verdicts.allSatisfy { $0.outcome == .pass }

        // TagWorks' rules.
        if v.visual == nil { problems.append((.visual, "Choose the visual inspection's result.")) }
        for verdict in verdicts where verdict.outcome == .missing {
            // "Class I equipment", "cord set equipment": a class's Roman numeral keeps its capital.
            let className = cls == .classI || cls == .classII ? cls.label : cls.label.lowercased()
            problems.append((verdict.field, "\(verdict.field.label) is required for \(className) "
                             + (verdict.field == .insulation ? "(or a leakage current in its place)." : "equipment.")))
        }
        var result: PassFail?
        switch v.result {
        // Undecided while what is missing could still pass: only a failed observation or reading makes it a fail.
        case .automatic:
            result = readingsPass ? .pass : v.visual == .fail || verdicts.contains { $0.outcome == .fail } ? .fail : nil
        case .fail: result = .fail
        case .pass:
            if readingsPass { result = .pass } else {
                let why = !visualPass ? (v.visual == nil ? "a missing visual inspection" : "a failed visual inspection")
                    : verdicts.contains { $0.outcome == .fail } ? "a failed reading" : "a missing required reading"
                problems.append((.result, "A manual Pass cannot override \(why)."))
            }
        }
        let failed = result == .fail || (v.result == .pass && !readingsPass)
        if failed, v.notes.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.append((.notes, "A failed test needs notes: what failed and what was done with the item."))
        }
        if v.technician.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append((.technician, "Enter the technician's name."))
        }
        // Dates.
        let dateText = v.testDate.trimmingCharacters(in: .whitespaces)
        let date = CalendarDate(iso: dateText)
        if let date {
            if date > context.today {
                problems.append((.testDate,
                                 "The test date \(date.iso) is in the future (today is \(context.today.iso))."))
            }
            if let tooEarly = RecordDates.tooEarly(date, what: "test date") {
                problems.append((.testDate, tooEarly))
            } else if let commissioned = context.commissioned, date < commissioned, v.testType != .initial {
                problems.append((.testDate,
                                 "The test date is before the asset was commissioned (\(commissioned.iso))."))
            }
        } else {
            problems.append((.testDate, RelativeDate.outOfRange(dateText, from: context.today, today: context.today)
                             ?? "Write the test date as YYYY-MM-DD (a real date)."))
        }
        let calibrationText = v.calibrationDate.trimmingCharacters(in: .whitespaces)
        if !calibrationText.isEmpty {
            if let calibrated = CalendarDate(iso: calibrationText) {
                if calibrated > context.today {
                    problems.append((.calibrationDate, "The calibration date \(calibrated.iso) is in the future."))
                } else if let date, calibrated > date {
                    // An instrument calibrated after the test did not test with that calibration.
                    problems.append((.calibrationDate, "The calibration date \(calibrated.iso) is after the test "
                                     + "date \(date.iso): give the calibration in force on the day of the test."))
                } else if let tooEarly = RecordDates.tooEarly(calibrated, what: "calibration date") {
                    problems.append((.calibrationDate, tooEarly))
                } else if let date, calibrated.addingMonths(limits.calibrationWarningMonths) < date {
                    let warning = "The instrument was calibrated \(calibrated.iso), over "
                        + "\(limits.calibrationWarningMonths) months before the test."
                    warnings.append((.calibrationDate, warning))
                    if !v.calibrationAcknowledged {
                        problems.append((.calibrationAcknowledged, warning + " Tick that you have noted it."))
                    }
                }
            } else {
                problems.append((.calibrationDate,
                                 RelativeDate.outOfRange(calibrationText, from: context.today, today: context.today)
                                    ?? "Write the calibration date as YYYY-MM-DD, or leave it empty."))
            }
        }
        // Text: bounded, no control characters.
        let texts: [(TestField, String)] = [
            (.technician, v.technician), (.licenceNumber, v.licenceNumber), (.instrumentModel, v.instrumentModel),
            (.instrumentSerial, v.instrumentSerial), (.procedureReference, v.procedureReference),
        ]
        for (field, text) in texts {
            if text.count > maxText { problems.append((field, "\(field.label) is longer than \(maxText) characters.")) }
            if TextRules.containsControlCharacters(text) {
                problems.append((field, "\(field.label) holds control characters."))
            }
        }
        if v.notes.count > maxNotes { problems.append((.notes, "The notes are longer than \(maxNotes) characters.")) }
        if TextRules.containsControlCharacters(v.notes, allowingNewlines: true) {
            problems.append((.notes, "The notes hold control characters."))
        }
        if !v.authenticated { problems.append((.authenticated, "Tick “I authenticate this test”.")) }
        let order = TestField.allCases
        problems.sort { order.firstIndex(of: $0.0)! < order.firstIndex(of: $1.0)! }
        let refused = problems.contains { $0.0 == .result }
        return Evaluation(problems: problems, warnings: warnings, verdicts: verdicts, readingsPass: readingsPass,
                          result: refused ? nil : result)
    }

    /// The validated test, or every unmet rule.
    public static func validate(_ values: TestValues, _ context: Context)
        -> Result<ValidatedTest, TestGateFailure> {
        let evaluation = evaluate(values, context)
        guard evaluation.problems.isEmpty, let result = evaluation.result,
              let date = CalendarDate(iso: values.testDate.trimmingCharacters(in: .whitespaces)) else {
            return .failure(TestGateFailure(problems: evaluation.problems.map { "\($0.field.label): \($0.message)" },
                                            fields: evaluation.problems.map(\.field)))
        }
        var v = values
        for path in [\TestValues.technician, \.licenceNumber, \.instrumentModel, \.instrumentSerial,
                     \.procedureReference, \.calibrationDate, \.earthContinuityOhm, \.insulationMOhm, \.loadCurrentA,
                     \.leakageMA, \.rcdTripTimeMs, \.testDate] {
            v[keyPath: path] = v[keyPath: path].trimmingCharacters(in: .whitespaces)
        }
        v.notes = v.notes.trimmingCharacters(in: .whitespacesAndNewlines)
        return .success(ValidatedTest(assetUUID: context.assetUUID, sessionID: context.sessionID, values: v,
                                      testDate: date, passed: result == .pass, verdicts: evaluation.verdicts,
                                      limits: context.limits))
    }
}

public struct TestGateFailure: Error, Sendable {
    public var problems: [String]
    public var fields: [TestField]
}

extension DraftIdentity {
    /// The electrical test form's draft id: `test-<uuid>`.
    public static func testDraftID(assetUUID: UUID) -> String { "test-" + assetUUID.uuidString.lowercased() }

    public static func testSessionID(assetUUID: UUID, session: UUID = UUID()) -> String {
        testDraftID(assetUUID: assetUUID) + ":" + session.uuidString.lowercased()
    }
}

/// A saved test as the register keeps it (append-only, in the hash chain like an inspection record).
public struct StoredTest: Sendable, Equatable {
    public var id: Int64
    public var testUUID: UUID
    public var assetUUID: UUID
    public var sessionID: String
    public var values: TestValues
    public var passed: Bool
    public var verdicts: [StoredVerdict]
    public var savedAt: String
    public var appVersion: String
    public var operatorName: String
    public var entryHash: String?
    /// The limits the readings were judged by (the register's when the form opened); nil when the stored
    /// JSON cannot be read.
    public var limits: TestLimits?

    public init(id: Int64, testUUID: UUID, assetUUID: UUID, sessionID: String, values: TestValues, passed: Bool,
                verdicts: [StoredVerdict], savedAt: String, appVersion: String, operatorName: String,
                entryHash: String?, limits: TestLimits? = nil) {
        self.limits = limits
        self.id = id
        self.testUUID = testUUID
        self.assetUUID = assetUUID
        self.sessionID = sessionID
        self.values = values
        self.passed = passed
        self.verdicts = verdicts
        self.savedAt = savedAt
        self.appVersion = appVersion
        self.operatorName = operatorName
        self.entryHash = entryHash
    }

    /// A test counts for status as a thorough examination of its kind: a pass restarts the interval, a fail
    /// makes the asset DO NOT USE until a later passing test (SPEC §12, §7).
    public var facts: RecordFacts {
        TestFacts.facts(id: id, passed: passed, date: CalendarDate(iso: values.testDate) ?? CalendarDate(dayNumber: 0))
    }
}

/// One reading's verdict as stored (JSON in the record): field, outcome, text.
public struct StoredVerdict: Hashable, Sendable, Codable {
    public var field: String
    public var outcome: String
    public var text: String

    public init(_ v: ReadingVerdict) {
        field = v.field.rawValue
        outcome = v.outcome.rawValue
        text = v.text
    }
}

public enum TestFacts {
    public static func facts(id: Int64, passed: Bool, date: CalendarDate) -> RecordFacts {
        RecordFacts(id: id, type: .thoroughPeriodic, result: passed ? .pass : .failDangerous,
                    action: .none, remedyDeadline: nil, inspectionDate: date)
    }
}

extension ValidatedTest {
    public func facts(id: Int64) -> RecordFacts { TestFacts.facts(id: id, passed: passed, date: testDate) }
}
