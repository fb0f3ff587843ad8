import Foundation
import Testing
@testable import RigbookCore

/// The electrical test form's gate, its limits row by row, and the readings each class needs.
@Suite("Test gate and limits")
struct TestGateTests {
    static let today = CalendarDate(year: 2026, month: 11, day: 30)!

    static func context(_ c: ElectricalClass, limits: TestLimits = .defaults) -> TestGate.Context {
        TestGate.Context(assetUUID: UUID(), equipmentClass: c, commissioned: CalendarDate(iso: "2025-01-01"),
                         today: today, sessionID: "test-x:y", limits: limits)
    }

    /// A passing test of a Class I appliance; tests change what they need.
    static func passing() -> TestValues {
        var v = TestValues(prefill: TestProfile(technician: "Ana Reyes", licenceNumber: "TT-123",
                                                instrumentModel: "PAT 420", instrumentSerial: "S-1",
                                                procedureReference: "AS/NZS 3760:2022",
                                                calibrationDate: "2026-06-01"), today: today)
        v.visual = .pass
        v.earthContinuityOhm = "0.2"
        v.insulationMOhm = "200"
        v.authenticated = true
        return v
    }

    @Test("readings only missing leave the result undecided: no failed test's notes are asked for")
    func missingReadingsAreNoFailure() {
        var v = Self.passing()
        v.earthContinuityOhm = ""
        v.insulationMOhm = ""
        let evaluation = TestGate.evaluate(v, Self.context(.classI))
        #expect(evaluation.result == nil)
        #expect(!evaluation.problems.contains { $0.field == .notes }, "\(evaluation.problems)")
        v.earthContinuityOhm = "5"
        #expect(TestGate.evaluate(v, Self.context(.classI)).result == .fail, "a failed reading decides it")
    }

    @Test("a complete passing test validates, with every reading judged")
    func passes() throws {
        let test = try TestGate.validate(Self.passing(), Self.context(.classI)).get()
        #expect(test.passed)
        #expect(test.verdicts.map(\.field) == [.earthContinuity, .insulation])
        #expect(test.verdicts.allSatisfy { $0.outcome == .pass })
    }

    /// Each limit at, just inside and just outside its boundary: (class, field, value, passes).
    static let limitRows: [(ElectricalClass, TestField, String, Bool)] = [
        (.classI, .earthContinuity, "1.0", true),
        (.classI, .earthContinuity, "0.99", true),
        (.classI, .earthContinuity, "1.01", false),
        (.cordSet, .earthContinuity, "1", true),
        (.extensionSet, .earthContinuity, "1.5", false),
        (.classI, .insulation, "1.0", true),
        (.classI, .insulation, "0.99", false),
        (.classII, .insulation, "1", true),
        (.classII, .insulation, "0.5", false),
        (.classI, .leakage, "5.0", true),
        (.classI, .leakage, "5.01", false),
        (.classII, .leakage, "1.0", true),
        (.classII, .leakage, "1.01", false),
        (.other, .leakage, "1.01", false),
        (.portableRCD, .rcdTripTime, "300", true),
        (.portableRCD, .rcdTripTime, "301", false),
    ]

    @Test("each limit, row by row", arguments: limitRows)
    func limit(_ row: (ElectricalClass, TestField, String, Bool)) {
        let (cls, field, value, passes) = row
        var v = Self.passing()
        v.earthContinuityOhm = cls.needsEarthContinuity ? "0.1" : ""
        v.insulationMOhm = ""
        v.polarity = .pass
        v.rcdPushButton = .pass
        v.notes = "noted"
        switch field {
        case .earthContinuity: v.earthContinuityOhm = value; v.insulationMOhm = "100"
        case .insulation: v.insulationMOhm = value
        case .leakage: v.leakageMA = value
        case .rcdTripTime: v.rcdTripTimeMs = value
        default: Issue.record("no such limit row")
        }
        let evaluation = TestGate.evaluate(v, Self.context(cls))
        #expect(evaluation.verdicts.first { $0.field == field }?.outcome == (passes ? .pass : .fail), "\(row)")
        #expect(evaluation.readingsPass == passes, "\(evaluation.verdicts)")
        #expect(evaluation.result == (passes ? .pass : .fail))
    }

    @Test("a Type I RCD trips within 40 ms; limits come from the settings")
    func rcdTypeAndSettings() {
        var v = Self.passing()
        v.earthContinuityOhm = ""
        v.insulationMOhm = ""
        v.rcdPushButton = .pass
        v.rcdType = .typeI
        v.rcdTripTimeMs = "40"
        #expect(TestGate.evaluate(v, Self.context(.portableRCD)).readingsPass)
        v.rcdTripTimeMs = "41"
        #expect(!TestGate.evaluate(v, Self.context(.portableRCD)).readingsPass)
        var strict = TestLimits()
        strict.earthContinuityMaxOhm = 0.1
        #expect(!TestGate.evaluate(Self.passing(), Self.context(.classI, limits: strict)).readingsPass)
    }

    @Test("required readings by class: each one missing is a problem on its field",
          arguments: [
            (ElectricalClass.classI, [TestField.earthContinuity, .insulation]),
            (.classII, [.insulation]),
            (.cordSet, [.earthContinuity, .insulation, .polarity]),
            (.extensionSet, [.earthContinuity, .insulation, .polarity]),
            (.portableRCD, [.rcdPushButton, .rcdTripTime]),
            (.other, [.insulation]),
          ])
    func requiredReadings(_ row: (ElectricalClass, [TestField])) {
        var v = Self.passing()
        v.earthContinuityOhm = ""
        v.insulationMOhm = ""
        v.notes = "x"
        let problems = TestGate.evaluate(v, Self.context(row.0)).problems.map(\.field)
        #expect(problems == row.1, "\(row.0)")
    }

    @Test("leakage current stands in for insulation resistance")
    func leakageInPlace() {
        var v = Self.passing()
        v.insulationMOhm = ""
        v.leakageMA = "0.3"
        let evaluation = TestGate.evaluate(v, Self.context(.classI))
        #expect(evaluation.problems.isEmpty && evaluation.readingsPass)
    }

    @Test("a manual Pass cannot override a failed reading, a missing one or a failed visual")
    func manualPassRefused() {
        var v = Self.passing()
        v.result = .pass
        v.notes = "earth high"
        v.earthContinuityOhm = "2.5"
        var evaluation = TestGate.evaluate(v, Self.context(.classI))
        #expect(evaluation.problems.map(\.message).contains("A manual Pass cannot override a failed reading."))
        #expect(evaluation.result == nil)
        v.earthContinuityOhm = ""
        evaluation = TestGate.evaluate(v, Self.context(.classI))
        #expect(evaluation.problems.map(\.message)
                    .contains("A manual Pass cannot override a missing required reading."))
        v = Self.passing()
        v.visual = .fail
        v.result = .pass
        v.notes = "cracked plug"
        evaluation = TestGate.evaluate(v, Self.context(.classI))
        #expect(evaluation.problems.map(\.message) == ["A manual Pass cannot override a failed visual inspection."])
        v.result = .automatic
        #expect(TestGate.evaluate(v, Self.context(.classI)).result == .fail)
        v.result = .fail
        v.visual = .pass
        #expect(TestGate.evaluate(v, Self.context(.classI)).result == .fail, "a manual Fail always holds")
    }

    @Test("a failure needs notes; readings are non-negative and finite; the technician is named")
    func tagWorksRules() {
        var v = Self.passing()
        v.earthContinuityOhm = "3"
        #expect(TestGate.evaluate(v, Self.context(.classI)).problems.map(\.field) == [.notes])
        for bad in ["-1", "nan", "inf", "abc", "1,5"] {
            v = Self.passing()
            v.loadCurrentA = bad
            #expect(TestGate.evaluate(v, Self.context(.classI)).problems.map(\.field) == [.loadCurrent], "\(bad)")
        }
        v = Self.passing()
        v.technician = "  "
        v.authenticated = false
        v.visual = nil
        v.notes = "x"
        #expect(TestGate.evaluate(v, Self.context(.classI)).problems.map(\.field)
                == [.technician, .visual, .authenticated])
    }

    @Test("a calibration over 12 months before the test warns, and must be acknowledged")
    func oldCalibration() {
        var v = Self.passing()
        v.calibrationDate = "2025-11-30"
        var evaluation = TestGate.evaluate(v, Self.context(.classI))
        #expect(evaluation.warnings.isEmpty, "exactly 12 months is not over 12")
        v.calibrationDate = "2025-11-29"
        evaluation = TestGate.evaluate(v, Self.context(.classI))
        #expect(evaluation.warnings.map(\.field) == [.calibrationDate])
        #expect(evaluation.problems.map(\.field) == [.calibrationAcknowledged])
        v.calibrationAcknowledged = true
        evaluation = TestGate.evaluate(v, Self.context(.classI))
        #expect(evaluation.problems.isEmpty && evaluation.warnings.count == 1)
    }

    @Test("test dates: real, not in the future, not before commissioning (except an initial test)")
    func dates() {
        var v = Self.passing()
        v.calibrationDate = ""  // the calibration's own rules are in datesRowByRow
        v.testDate = "2026-12-01"
        #expect(TestGate.evaluate(v, Self.context(.classI)).problems.map(\.field) == [.testDate])
        v.testDate = "2024-12-31"
        #expect(TestGate.evaluate(v, Self.context(.classI)).problems.map(\.field) == [.testDate])
        v.testType = .initial
        #expect(TestGate.evaluate(v, Self.context(.classI)).problems.isEmpty)
        v.testDate = "2026-02-30"
        #expect(TestGate.evaluate(v, Self.context(.classI)).problems.map(\.field) == [.testDate])
    }

    @Test("the fields shown follow the class")
    func shownFields() {
        #expect(!TestField.shown(for: .classII).contains(.earthContinuity))
        #expect(TestField.shown(for: .cordSet).contains(.polarity))
        #expect(TestField.shown(for: .portableRCD).contains(.rcdTripTime))
        #expect(!TestField.shown(for: .portableRCD).contains(.insulation)
                && !TestField.shown(for: .portableRCD).contains(.leakage))
        #expect(!TestField.shown(for: .classI).contains(.rcdTripTime))
    }

    @Test("the draft model round-trips, and the profile is written back")
    func draftAndProfile() throws {
        var v = Self.passing()
        v.attachments = [RigbookCore.Attachment(sha256: String(repeating: "a", count: 64), name: "plug.jpg",
                                                size: 1234)]
        let data = try JSONEncoder().encode(v)
        #expect(try JSONDecoder().decode(TestValues.self, from: data) == v)
        #expect(try JSONDecoder().decode(TestValues.self, from: Data("{}".utf8)) == TestValues())
        var typed = v
        typed.instrumentModel = "PAT 500"
        typed.calibrationDate = ""
        let profile = TestProfile(calibrationDate: "2026-06-01").writingBack(typed)
        #expect(profile.instrumentModel == "PAT 500" && profile.calibrationDate == "2026-06-01")
        #expect(DraftIdentity.testDraftID(assetUUID: UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!)
                == "test-00000000-0000-0000-0000-00000000000a")
    }
}

extension TestGateTests {
    /// A reading whose text holds a comma or a space is refused, naming the character: never read as 05.
    static let separatorRows: [(TestField, String)] = [
        (.insulation, "0,5"), (.insulation, "0 5"), (.earthContinuity, ",5"), (.earthContinuity, "1,000"),
        (.leakage, "0, 3"),
    ]

    @Test("a comma or a space in a reading is refused on its field", arguments: separatorRows)
    func separatorsRefused(_ row: (TestField, String)) {
        let (field, text) = row
        var v = Self.passing()
        switch field {
        case .insulation: v.insulationMOhm = text
        case .earthContinuity: v.earthContinuityOhm = text
        default: v.leakageMA = text
        }
        let evaluation = TestGate.evaluate(v, Self.context(.classI))
        let problem = evaluation.problems.first { $0.field == field }
        #expect(problem?.message.contains("is not a reading") == true, "\(evaluation.problems)")
        #expect(problem?.message.contains("decimal point as “.”") == true)
        #expect(!evaluation.verdicts.contains { $0.field == field && $0.outcome == .pass })
        if case .success = TestGate.validate(v, Self.context(.classI)) { Issue.record("\(text) was accepted") }
    }
}

extension TestGateTests {
    /// Test and calibration dates, row by row: (commissioned, test type, test date, calibration date, the fields
    /// refused). The floor is the inspection gate's (`RecordDates`).
    static let dateRows: [(String?, TestType, String, String, [TestField])] = [
        (nil, .periodic, "2026-02-01", "2026-01-31", []),
        (nil, .periodic, "2026-02-01", "2026-02-01", []),
        (nil, .periodic, "2026-02-01", "2026-02-02", [.calibrationDate]),
        (nil, .periodic, "2026-02-01", "2026-11-01", [.calibrationDate]),
        (nil, .periodic, "1900-01-01", "", [.testDate]),
        (nil, .periodic, "1969-12-31", "", [.testDate]),
        (nil, .periodic, "1970-01-01", "", []),
        (nil, .initial, "1900-01-01", "", [.testDate]),
        ("2025-01-01", .initial, "1900-01-01", "", [.testDate]),
        ("2025-01-01", .periodic, "1900-01-01", "", [.testDate]),
        (nil, .periodic, "2026-02-01", "1900-01-01", [.calibrationDate]),
    ]

    @Test("a calibration after the test date is refused, and so is a test or calibration before 1970",
          arguments: dateRows)
    func datesRowByRow(_ row: (String?, TestType, String, String, [TestField])) {
        let (commissioned, type, testDate, calibration, refused) = row
        var v = Self.passing()
        v.testType = type
        v.testDate = testDate
        v.calibrationDate = calibration
        v.calibrationAcknowledged = true
        let context = TestGate.Context(assetUUID: UUID(), equipmentClass: .classI,
                                       commissioned: commissioned.flatMap(CalendarDate.init(iso:)), today: Self.today,
                                       sessionID: "test-x:y")
        let problems = TestGate.evaluate(v, context).problems
        #expect(problems.map(\.field) == refused, "\(problems)")
        if refused == [.calibrationDate], calibration > testDate {
            #expect(problems.first?.message == "The calibration date \(calibration) is after the test date "
                    + "\(testDate): give the calibration in force on the day of the test.")
        }
        if refused == [.testDate] {
            #expect(problems.first?.message == "The test date \(testDate) is before 1970-01-01, the earliest date a "
                    + "record may carry: check the year.")
        }
    }
}
