import Foundation

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

    /// What AS/NZS 3760 has a test record name beside the readings: who may test, and the instrument. A test
    /// saves without them, but each one left empty warns under its field.
    /// Made once: the test form asks for each field on every key. Key paths are immutable, so sharing them across
    /// threads is safe though the compiler cannot see it.
    nonisolated(unsafe) public static let recordedParticulars:
        [(field: TestField, path: KeyPath<TestValues, String>, why: String)] = [
        (.licenceNumber, \.licenceNumber, "No licence number: the record says who may test."),
        (.instrumentModel, \.instrumentModel, "No instrument: AS/NZS 3760 records the instrument."),
        (.instrumentSerial, \.instrumentSerial, "No serial: it says which instrument was used."),
        (.calibrationDate, \.calibrationDate, "No calibration date: it shows the readings held."),
    ]

    /// The recorded particulars left empty, each with why it matters.
    public static func unrecorded(_ v: TestValues) -> [(field: TestField, message: String)] {
        recordedParticulars.filter { v[keyPath: $0.path].trimmingCharacters(in: .whitespaces).isEmpty }
            .map { ($0.field, $0.why) }
    }
    public static let maxText = 200
    public static let maxReading = 32

    /// A reading: empty → nil; otherwise a finite non-negative number or a sentence.
    static func number(_ text: String) -> Result<Double?, Never>? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty { return .success(nil) }
        guard let value = NumberText.decimal(t), value >= 0 else { return nil }
        return .success(value)
    }

    /// The bound of an over-range reading, `>99`: what a tester shows when the insulation is above what it can
    /// measure. Only a lower bound on a reading that passes at or above its limit can be judged, so only insulation
    /// resistance is read this way.
    public static func overRange(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix(">"), let value = NumberText.decimal(String(t.dropFirst())), value >= 0 else { return nil }
        return value
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
        let insulationOver = overRange(v.insulationMOhm)
        let readings: [(TestField, String)] = [
            (.earthContinuity, v.earthContinuityOhm), (.insulation, v.insulationMOhm), (.leakage, v.leakageMA),
            (.rcdTripTime, v.rcdTripTimeMs), (.loadCurrent, v.loadCurrentA),
        ]
        for (field, text) in readings {
            // No instrument shows more digits; a pasted page is refused, not stored.
            if text.count > maxReading {
                problems.append((field, "\(field.label) is longer than \(maxReading) characters."))
                continue
            }
            if field == .insulation, let bound = insulationOver {
                parsed[field] = bound
                continue
            }
            guard let outcome = number(text) else {
                problems.append((field, overRange(text) != nil
                                 ? "Only an insulation reading may be over the range (>N); give this one as measured."
                                 : readingProblem(field, text)))
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
            // Over the range says only "more than": it passes a lower limit it clears, and says nothing below it.
            if field == .insulation, insulationOver != nil, !ok {
                problems.append((field, "Over \(format(value)) does not show the reading clears \(limit): give the "
                                 + "reading as measured."))
            }
            let shown = field == .insulation && insulationOver != nil ? "over \(format(value))" : format(value)
            verdicts.append(ReadingVerdict(field: field, outcome: ok ? .pass : .fail,
                                           text: "\(shown) \(ok ? "within" : "outside") \(limit)"))
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
