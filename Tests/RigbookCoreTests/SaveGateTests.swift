import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore

// MARK: - Fixtures

/// A complete, valid, confirmed record: thorough periodic, passed, every check ticked, action None,
/// inspected today. Each case of the table changes one thing.
private func validValues() -> InspectionValues {
    InspectionValues(inspectionType: .thoroughPeriodic, inspectorName: "Ada Lovelace",
                     certificationNumber: "LEEA-12345", checkMarking: true, checkCuts: true,
                     checkDeformation: true, checkFittings: true, checkCorrosion: true,
                     result: .pass, action: .none, inspectionDate: "2026-11-30", confirmed: true,
                     installedCorrectly: true)
}

private let gateAsset = UUID(uuidString: "00000000-0000-0000-0000-000000000042")!

/// An asset commissioned `commissioned`, examined every 12 months.
private func gateAssetValue(_ uuid: UUID = gateAsset, commissioned: CalendarDate? = day("2024-01-01")) -> Asset {
    Asset(uuid: uuid, tag: "G-42", name: "Gate sling", type: .webSling, wllKg: 1000, commissioned: commissioned,
          intervalMonths: 12)
}

/// Today 2026-11-30, asset commissioned 2024-01-01, the register's particulars complete.
private func gateContext(sessionID: String = "draft-1", amending: StoredInspection? = nil) -> SaveGate.Context {
    SaveGate.Context(asset: gateAssetValue(), today: day("2026-11-30"), sessionID: sessionID, amending: amending,
                     particulars: TestParticulars.report(for: gateAsset))
}

/// Record #17 as the register returns it, saying what `values` say.
private func storedRecord(_ values: InspectionValues, id: Int64 = 17) -> StoredInspection {
    StoredInspection(id: id, recordUUID: UUID(uuidString: "AAAAAAAA-0000-4000-8000-000000000017")!,
                     assetUUID: gateAsset, sessionID: "earlier", amends: nil, values: values,
                     savedAt: "2026-11-29T10:00:00.000Z", appVersion: "0.1.0", operatorName: "ann",
                     assetWLLKg: 2000, assetLocation: "Bay 4")
}

/// A non-Pass result that satisfies every other rule (defect described, deadline after the date,
/// action not None), so a case can vary one thing on top of it.
private func withResult(_ result: InspectionResult, _ v: inout InspectionValues) {
    v.result = result
    v.defectDescription = "Eye of the sling: abrasion on the outer cover"
    v.repairParticulars = "Renew the outer cover"
    v.remedyParticulars = "Renew the cover at the maker's works"
    switch result {
    case .pass: v.action = .none
    case .passWithObservations: v.action = .monitor
    case .defectToBeRemedied:
        v.action = .repair
        v.remedyDeadlineSet = true
        v.remedyDeadline = "2026-12-15"
    case .failDangerous: v.action = .withdraw
    }
}

/// One row of the save-gate table: which rule, what changes, and the exact fields whose problems
/// the gate must report (empty: the record must be accepted).
struct GateCase: Sendable, CustomTestStringConvertible {
    var rule: Int
    var name: String
    var expected: [FormField]
    var change: @Sendable (inout InspectionValues) -> Void

    init(_ rule: Int, _ name: String, fails expected: [FormField] = [],
         _ change: @escaping @Sendable (inout InspectionValues) -> Void) {
        self.rule = rule
        self.name = name
        self.expected = expected
        self.change = change
    }

    var values: InspectionValues {
        var v = validValues()
        change(&v)
        return v
    }

    var passes: Bool { expected.isEmpty }
    var testDescription: String { "rule \(rule): \(name) → " + (passes ? "accepted" : "\(expected)") }
}

private let checkFields: [FormField] = [.checkMarking, .checkCuts, .checkDeformation, .checkFittings, .checkCorrosion]

private func setCheck(_ field: FormField, _ value: Bool, in v: inout InspectionValues) {
    switch field {
    case .checkMarking: v.checkMarking = value
    case .checkCuts: v.checkCuts = value
    case .checkDeformation: v.checkDeformation = value
    case .checkFittings: v.checkFittings = value
    case .checkCorrosion: v.checkCorrosion = value
    default: Issue.record("not a check: \(field)")
    }
}

private let gateCases: [GateCase] = {
    var cases: [GateCase] = [
        GateCase(0, "the complete valid record") { _ in },

        // Rule 1: confirmation.
        GateCase(1, "confirmation ticked") { $0.confirmed = true },
        GateCase(1, "confirmation not ticked", fails: [.confirmed]) { $0.confirmed = false },

        // Rule 2: inspector name; certification for thorough examinations only.
        GateCase(2, "name with surrounding spaces") { $0.inspectorName = "  Ada Lovelace \n" },
        GateCase(2, "one-letter name") { $0.inspectorName = "A" },
        GateCase(2, "empty name", fails: [.inspectorName]) { $0.inspectorName = "" },
        GateCase(2, "whitespace-only name", fails: [.inspectorName]) { $0.inspectorName = "   " },
        GateCase(2, "name of tabs and newlines only", fails: [.inspectorName]) { $0.inspectorName = " \t\n " },
        GateCase(2, "empty certification, periodic", fails: [.certificationNumber]) { $0.certificationNumber = "" },
        GateCase(2, "whitespace-only certification, periodic", fails: [.certificationNumber]) {
            $0.certificationNumber = "  \t "
        },
        GateCase(2, "empty certification, pre-use check") {
            $0.inspectionType = .preUse; $0.certificationNumber = ""
        },
        GateCase(2, "empty certification, interim inspection") {
            $0.inspectionType = .interim; $0.certificationNumber = "   "
        },
        GateCase(2, "pre-use check with a certification") { $0.inspectionType = .preUse },
        GateCase(2, "empty certification, per scheme", fails: [.certificationNumber]) {
            $0.inspectionType = .thoroughScheme; $0.schemeReference = "SCH-7"; $0.certificationNumber = ""
        },
    ]
    for type in [InspectionType.thoroughInitial, .thoroughAfterInstallation, .thoroughPeriodic, .thoroughExceptional] {
        cases.append(GateCase(2, "empty certification, \(type.rawValue)", fails: [.certificationNumber]) {
            $0.inspectionType = type; $0.certificationNumber = ""
        })
        cases.append(GateCase(2, "certification given, \(type.rawValue)") { $0.inspectionType = type })
    }

    // Equipment is examined before its first use (LOLER reg 9(1)), so an initial or
    // after-installation examination may come before the commission date, never in the future; no other
    // type may.
    for type in InspectionType.allCases {
        let mayPrecede = type == .thoroughInitial || type == .thoroughAfterInstallation
        cases.append(GateCase(3, "\(type.rawValue) the day before commissioning",
                              fails: mayPrecede ? [] : [.inspectionDate]) {
            $0.inspectionType = type; $0.schemeReference = "SCH-7"; $0.inspectionDate = "2023-12-31"
        })
        cases.append(GateCase(3, "\(type.rawValue) tomorrow", fails: [.inspectionDate]) {
            $0.inspectionType = type; $0.schemeReference = "SCH-7"; $0.inspectionDate = "2026-12-01"
        })
    }
    cases += [
        // Rule 3: inspection date valid, not in the future, not before commissioning.
        GateCase(3, "date is today") { $0.inspectionDate = "2026-11-30" },
        GateCase(3, "date in the past") { $0.inspectionDate = "2025-06-15" },
        GateCase(3, "date is the commission day") { $0.inspectionDate = "2024-01-01" },
        GateCase(3, "leap day 2024-02-29") { $0.inspectionDate = "2024-02-29" },
        GateCase(3, "2026-02-30 does not exist", fails: [.inspectionDate]) { $0.inspectionDate = "2026-02-30" },
        GateCase(3, "month 13", fails: [.inspectionDate]) { $0.inspectionDate = "2026-13-01" },
        GateCase(3, "empty date", fails: [.inspectionDate]) { $0.inspectionDate = "" },
        GateCase(3, "2025-02-29 (not a leap year)", fails: [.inspectionDate]) { $0.inspectionDate = "2025-02-29" },
        GateCase(3, "unpadded date", fails: [.inspectionDate]) { $0.inspectionDate = "2026-1-5" },
        GateCase(3, "day-first date", fails: [.inspectionDate]) { $0.inspectionDate = "30-11-2026" },
        GateCase(3, "tomorrow is in the future", fails: [.inspectionDate]) { $0.inspectionDate = "2026-12-01" },
        GateCase(3, "next year is in the future", fails: [.inspectionDate]) { $0.inspectionDate = "2027-11-30" },
        GateCase(3, "the day before commissioning", fails: [.inspectionDate]) { $0.inspectionDate = "2023-12-31" },
        // Before 1970 is a slip of the keyboard, even for the examinations that may precede commissioning.
        GateCase(3, "initial examination on 1900-01-01", fails: [.inspectionDate]) {
            $0.inspectionType = .thoroughInitial; $0.inspectionDate = "1900-01-01"
        },
        GateCase(3, "initial examination on 1969-12-31", fails: [.inspectionDate]) {
            $0.inspectionType = .thoroughInitial; $0.inspectionDate = "1969-12-31"
        },
        GateCase(3, "initial examination on 1970-01-01") {
            $0.inspectionType = .thoroughInitial; $0.inspectionDate = "1970-01-01"
        },
        GateCase(3, "long before commissioning", fails: [.inspectionDate]) { $0.inspectionDate = "2000-01-01" },

        // Rule 4: a result is chosen.
        GateCase(4, "result Pass chosen") { $0.result = .pass },
        GateCase(4, "no result chosen", fails: [.result]) { $0.result = nil },
    ]
    for result in InspectionResult.allCases {
        cases.append(GateCase(4, "result \(result.rawValue) chosen (complete)") { withResult(result, &$0) })
    }

    // Rule 5: Pass needs all five checks, action None and no deadline.
    for field in checkFields {
        cases.append(GateCase(5, "Pass with \(field.key) unticked", fails: [field]) { setCheck(field, false, in: &$0) })
    }
    cases += [
        GateCase(5, "Pass with every check ticked, action None, no deadline") { _ in },
        GateCase(5, "Pass with action Monitor", fails: [.action]) { $0.action = .monitor },
        GateCase(5, "Pass with action Repair", fails: [.action]) { $0.action = .repair },
        GateCase(5, "Pass with action Withdraw", fails: [.action]) { $0.action = .withdraw },
        GateCase(5, "Pass with a remedy deadline", fails: [.remedyDeadlineSet]) {
            $0.remedyDeadlineSet = true; $0.remedyDeadline = "2026-12-15"
        },
        GateCase(5, "Pass with a deadline typed but the toggle off") { $0.remedyDeadline = "2026-12-15" },
        GateCase(5, "Pass with observations needs no ticked checks") {
            withResult(.passWithObservations, &$0); $0.checkCuts = false; $0.checkCorrosion = false
        },

        // Rule 6: every result other than Pass needs a defect description.
        GateCase(6, "Pass needs no defect description") { $0.defectDescription = "" },
        GateCase(6, "Pass with observations, defect described") { withResult(.passWithObservations, &$0) },
        GateCase(6, "Pass with observations, no defect", fails: [.defectDescription]) {
            withResult(.passWithObservations, &$0); $0.defectDescription = ""
        },
        GateCase(6, "Pass with observations, whitespace-only defect", fails: [.defectDescription]) {
            withResult(.passWithObservations, &$0); $0.defectDescription = " \n\t \n"
        },
        GateCase(6, "Defect to be remedied, no defect", fails: [.defectDescription]) {
            withResult(.defectToBeRemedied, &$0); $0.defectDescription = ""
        },
        GateCase(6, "Fail – dangerous, no defect", fails: [.defectDescription]) {
            withResult(.failDangerous, &$0); $0.defectDescription = "   "
        },
        GateCase(6, "Fail – dangerous, defect described") { withResult(.failDangerous, &$0) },

        // Rule 7: Defect to be remedied needs a deadline after the inspection date.
        GateCase(7, "deadline the day after the inspection") {
            withResult(.defectToBeRemedied, &$0); $0.remedyDeadline = "2026-12-01"
        },
        GateCase(7, "deadline months later") {
            withResult(.defectToBeRemedied, &$0); $0.remedyDeadline = "2027-03-01"
        },
        GateCase(7, "deadline after a past inspection date") {
            withResult(.defectToBeRemedied, &$0); $0.inspectionDate = "2026-10-01"; $0.remedyDeadline = "2026-10-02"
        },
        GateCase(7, "deadline toggle off", fails: [.remedyDeadlineSet]) {
            withResult(.defectToBeRemedied, &$0); $0.remedyDeadlineSet = false
        },
        GateCase(7, "deadline typed but toggle off", fails: [.remedyDeadlineSet]) {
            withResult(.defectToBeRemedied, &$0); $0.remedyDeadlineSet = false; $0.remedyDeadline = "2026-12-15"
        },
        GateCase(7, "deadline the same day as the inspection", fails: [.remedyDeadline]) {
            withResult(.defectToBeRemedied, &$0); $0.remedyDeadline = "2026-11-30"
        },
        GateCase(7, "deadline before the inspection", fails: [.remedyDeadline]) {
            withResult(.defectToBeRemedied, &$0); $0.remedyDeadline = "2026-11-29"
        },
        GateCase(7, "deadline 2026-02-30 does not exist", fails: [.remedyDeadline]) {
            withResult(.defectToBeRemedied, &$0); $0.remedyDeadline = "2026-02-30"
        },
        GateCase(7, "deadline month 13", fails: [.remedyDeadline]) {
            withResult(.defectToBeRemedied, &$0); $0.remedyDeadline = "2026-13-01"
        },
        GateCase(7, "deadline set but empty", fails: [.remedyDeadline]) {
            withResult(.defectToBeRemedied, &$0); $0.remedyDeadline = ""
        },
        GateCase(7, "deadline set but gibberish", fails: [.remedyDeadline]) {
            withResult(.defectToBeRemedied, &$0); $0.remedyDeadline = "next week"
        },
    ]

    // Rule 8: Fail – dangerous forbids None and Monitor.
    for action in InspectionAction.allCases {
        let refused = action == .none || action == .monitor
        cases.append(GateCase(8, "Fail – dangerous with action \(action.rawValue)", fails: refused ? [.action] : []) {
            withResult(.failDangerous, &$0); $0.action = action
        })
    }
    cases += [
        // Rule 8 concerns Fail only: other non-Pass results may monitor.
        GateCase(8, "Defect to be remedied with action Monitor") {
            withResult(.defectToBeRemedied, &$0); $0.action = .monitor
        },

        // Rule 9: per-scheme type needs a scheme reference.
        GateCase(9, "per scheme with a reference") {
            $0.inspectionType = .thoroughScheme; $0.schemeReference = "SCH-2026/07 rev B"
        },
        GateCase(9, "per scheme without a reference", fails: [.schemeReference]) {
            $0.inspectionType = .thoroughScheme; $0.schemeReference = ""
        },
        GateCase(9, "per scheme with a whitespace-only reference", fails: [.schemeReference]) {
            $0.inspectionType = .thoroughScheme; $0.schemeReference = " \t "
        },
        GateCase(9, "periodic needs no reference") { $0.schemeReference = "" },
        GateCase(9, "pre-use needs no reference") { $0.inspectionType = .preUse; $0.schemeReference = "" },

        // Rule 10: trimming, control characters, bounds.
        GateCase(10, "padded text everywhere") {
            $0.inspectorName = "\t Ada Lovelace  "; $0.certificationNumber = " LEEA-12345\n"
            $0.notes = "\n  Stored dry.  \n"; $0.schemeReference = "  SCH-7 "
        },
        GateCase(10, "ESC in the name", fails: [.inspectorName]) { $0.inspectorName = "Ada\u{1B}[31m Lovelace" },
        GateCase(10, "BEL at the end of the name", fails: [.inspectorName]) { $0.inspectorName = "Ada\u{07}" },
        GateCase(10, "NUL in the name", fails: [.inspectorName]) { $0.inspectorName = "Ada\u{00}Lovelace" },
        GateCase(10, "DEL in the certification", fails: [.certificationNumber]) {
            $0.certificationNumber = "LEEA\u{7F}1"
        },
        GateCase(10, "C1 CSI in the scheme reference", fails: [.schemeReference]) {
            $0.inspectionType = .thoroughScheme; $0.schemeReference = "SCH\u{9B}31m"
        },
        GateCase(10, "newline inside the name", fails: [.inspectorName]) { $0.inspectorName = "Ada\nLovelace" },
        GateCase(10, "newline inside the certification", fails: [.certificationNumber]) {
            $0.certificationNumber = "LEEA\n12345"
        },
        GateCase(10, "newline inside the notes") { $0.notes = "line one\nline two\n\nline four" },
        GateCase(10, "tab inside the notes", fails: [.notes]) { $0.notes = "torque\t45 Nm" },
        GateCase(10, "ESC inside the notes", fails: [.notes]) { $0.notes = "ok\u{1B}[2J" },
        GateCase(10, "carriage return inside the notes", fails: [.notes]) { $0.notes = "one\rtwo" },
        GateCase(10, "newline inside the defect description") {
            withResult(.passWithObservations, &$0); $0.defectDescription = "Eye: abrasion\nBody: fine"
        },
        GateCase(10, "tab inside the defect description", fails: [.defectDescription]) {
            withResult(.passWithObservations, &$0); $0.defectDescription = "Eye:\tabrasion"
        },
        GateCase(10, "name of 200 characters") { $0.inspectorName = String(repeating: "a", count: 200) },
        GateCase(10, "name of 201 characters", fails: [.inspectorName]) {
            $0.inspectorName = String(repeating: "a", count: 201)
        },
        GateCase(10, "name of 200 CJK characters (600 UTF-8 bytes)") {
            $0.inspectorName = String(repeating: "検", count: 200)
        },
        GateCase(10, "name of 201 CJK characters", fails: [.inspectorName]) {
            $0.inspectorName = String(repeating: "検", count: 201)
        },
        GateCase(10, "name of 200 accented characters (400 scalars)") {
            $0.inspectorName = String(repeating: "e\u{301}", count: 200)
        },
        GateCase(10, "name of 200 characters plus padding") {
            $0.inspectorName = "   " + String(repeating: "a", count: 200) + "\n "
        },
        GateCase(10, "certification of 201 characters", fails: [.certificationNumber]) {
            $0.certificationNumber = String(repeating: "9", count: 201)
        },
        GateCase(10, "scheme reference of 200 characters") {
            $0.inspectionType = .thoroughScheme; $0.schemeReference = String(repeating: "S", count: 200)
        },
        GateCase(10, "scheme reference of 201 characters", fails: [.schemeReference]) {
            $0.inspectionType = .thoroughScheme; $0.schemeReference = String(repeating: "S", count: 201)
        },
        GateCase(10, "notes of 4000 characters") { $0.notes = String(repeating: "n", count: 4000) },
        GateCase(10, "notes of 4001 characters", fails: [.notes]) { $0.notes = String(repeating: "n", count: 4001) },
        GateCase(10, "notes of 4000 CJK characters") { $0.notes = String(repeating: "語", count: 4000) },
        GateCase(10, "notes of 4001 CJK characters", fails: [.notes]) {
            $0.notes = String(repeating: "語", count: 4001)
        },
        GateCase(10, "notes of 4000 characters with newlines") {
            $0.notes = String(repeating: "abcdefghi\n", count: 399) + "abcdefghij"
        },
        GateCase(10, "defect description of 4000 characters") {
            withResult(.failDangerous, &$0); $0.defectDescription = String(repeating: "d", count: 4000)
        },
        GateCase(10, "defect description of 4001 characters", fails: [.defectDescription]) {
            withResult(.failDangerous, &$0); $0.defectDescription = String(repeating: "d", count: 4001)
        },
        // Schedule 1: the report particulars of a thorough examination.
        GateCase(11, "basis left to the type") { $0.examinationBasis = nil },
        GateCase(11, "periodic within 6 months on a 12-month asset") { $0.examinationBasis = .within6Months },
        GateCase(11, "periodic examination on the basis of a scheme", fails: [.examinationBasis]) {
            $0.examinationBasis = .examinationScheme
        },
        GateCase(11, "after installation on the basis of 12 months", fails: [.examinationBasis]) {
            $0.inspectionType = .thoroughAfterInstallation; $0.examinationBasis = .within12Months
        },
        GateCase(11, "a pre-use check keeps no basis, whatever was chosen") {
            $0.inspectionType = .preUse; $0.examinationBasis = .examinationScheme
        },
        GateCase(12, "after installation, passed and said to be installed correctly") {
            $0.inspectionType = .thoroughAfterInstallation
        },
        GateCase(12, "after installation, passed without the tick", fails: [.installedCorrectly]) {
            $0.inspectionType = .thoroughAfterInstallation; $0.installedCorrectly = false
        },
        GateCase(12, "after installation, not installed correctly: a defect without the tick") {
            $0.inspectionType = .thoroughAfterInstallation; $0.installedCorrectly = false
            withResult(.failDangerous, &$0)
        },
        GateCase(13, "dangerous fail without the repair required", fails: [.repairParticulars]) {
            withResult(.failDangerous, &$0); $0.repairParticulars = "  "
        },
        GateCase(13, "defect to be remedied without the remedy", fails: [.remedyParticulars]) {
            withResult(.defectToBeRemedied, &$0); $0.remedyParticulars = ""
        },
        GateCase(13, "a pass needs neither") { $0.repairParticulars = ""; $0.remedyParticulars = "" },
        GateCase(13, "test particulars of 4001 characters", fails: [.testParticulars]) {
            $0.testParticulars = String(repeating: "t", count: 4001)
        },
        GateCase(13, "test particulars holding an escape", fails: [.testParticulars]) {
            $0.testParticulars = "Proof load \u{1B}[2J 2.5 t"
        },
        GateCase(14, "next examination left to the interval") { $0.nextExaminationBy = "" },
        GateCase(14, "next examination brought forward") { $0.nextExaminationBy = "2027-05-31" },
        GateCase(14, "next examination on the interval's last day") { $0.nextExaminationBy = "2027-11-30" },
        GateCase(14, "next examination put off past the interval", fails: [.nextExaminationBy]) {
            $0.nextExaminationBy = "2027-12-01"
        },
        GateCase(14, "next examination on the day of this one", fails: [.nextExaminationBy]) {
            $0.nextExaminationBy = "2026-11-30"
        },
        GateCase(14, "next examination not a real date", fails: [.nextExaminationBy]) {
            $0.nextExaminationBy = "2027-02-30"
        },
        GateCase(14, "an interim inspection sets no next examination") {
            $0.inspectionType = .interim; $0.nextExaminationBy = "nonsense"
        },
    ]
    return cases
}()

// MARK: - Tests

@Suite("SaveGate")
struct SaveGateTests {
    @Test("each rule: the record is accepted, or refused with exactly the expected fields", arguments: gateCases)
    func table(_ c: GateCase) {
        let problems = SaveGate.problems(c.values, context: gateContext())
        #expect(problems.map(\.field) == c.expected, "\(problems)")
        for problem in problems {
            #expect(problem.message.hasSuffix("."), "not a sentence: \(problem.message)")
            #expect(problem.message.first?.isUppercase == true, "not a sentence: \(problem.message)")
            #expect(!problem.message.contains("\n"), "\(problem.message)")
            #expect(problem.message.count > 10, "\(problem.message)")
        }
    }

    @Test("problems is empty exactly when validate succeeds", arguments: gateCases)
    func problemsMatchValidate(_ c: GateCase) {
        let problems = SaveGate.problems(c.values, context: gateContext())
        switch SaveGate.validate(c.values, context: gateContext()) {
        case .success:
            #expect(problems.isEmpty)
            #expect(c.passes)
        case .failure(let failure):
            #expect(!failure.problems.isEmpty)
            #expect(failure.problems == problems)
            #expect(!c.passes)
        }
    }

    @Test("every rule of the table has a case that passes and a case that fails", arguments: 1...14)
    func tableCoversRule(_ rule: Int) {
        let cases = gateCases.filter { $0.rule == rule }
        #expect(cases.contains { $0.passes })
        #expect(cases.contains { !$0.passes })
    }

    @Test("a control character is refused in every text field",
          arguments: [FormField.inspectorName, .certificationNumber, .notes, .schemeReference, .defectDescription],
          ["\u{1B}", "\u{00}", "\u{07}", "\u{08}", "\t", "\u{7F}", "\u{85}", "\u{9B}", "\u{9F}"] as [Text])
    func controlInEveryTextField(_ field: FormField, _ control: Text) {
        var v = validValues()
        withResult(.passWithObservations, &v)
        v.inspectionType = .thoroughScheme
        v.schemeReference = "SCH-7"
        let text = "ab" + control.value + "cd"
        switch field {
        case .inspectorName: v.inspectorName = text
        case .certificationNumber: v.certificationNumber = text
        case .notes: v.notes = text
        case .schemeReference: v.schemeReference = text
        case .defectDescription: v.defectDescription = text
        default: Issue.record("not a text field: \(field)")
        }
        let problems = SaveGate.problems(v, context: gateContext())
        #expect(problems.map(\.field) == [field], "\(problems)")
        #expect(problems.first?.message.hasSuffix(".") == true)
    }

    @Test("several unmet rules are all reported, sorted in form order")
    func severalProblemsSorted() {
        var v = validValues()
        v.confirmed = false                 // rule 1
        v.inspectorName = "  "              // rule 2
        v.certificationNumber = ""          // rule 2
        v.inspectionType = .thoroughScheme  // rule 9
        v.schemeReference = ""
        v.result = .failDangerous           // rule 8 (Monitor)
        v.action = .monitor
        v.defectDescription = ""            // rule 6
        v.inspectionDate = "2027-01-01"     // rule 3
        v.nextExaminationBy = "2026-01-01"  // rule 14: before the examination
        v.notes = "a\u{1B}b"                // rule 10
        let problems = SaveGate.problems(v, context: gateContext())
        let expected: [FormField] = [.inspectorName, .certificationNumber, .notes, .schemeReference,
                                     .defectDescription, .action, .inspectionDate, .repairParticulars,
                                     .nextExaminationBy, .confirmed]
        #expect(problems.map(\.field) == expected, "\(problems)")
        #expect(problems.map(\.field) == problems.map(\.field).sorted())
        #expect(Set(problems.map(\.message)).count == problems.count, "each problem is its own sentence")
        #expect(problems.allSatisfy { $0.message.hasSuffix(".") })
        guard case .failure(let failure) = SaveGate.validate(v, context: gateContext()) else {
            Issue.record("validate accepted a record with eight unmet rules")
            return
        }
        #expect(failure.problems == problems)
    }

    @Test("the untouched blank form reports every rule it leaves unmet, in form order")
    func blankForm() {
        let blank = InspectionValues.blank(inspectorName: "", certificationNumber: "", today: day("2026-11-30"))
        let problems = SaveGate.problems(blank, context: gateContext())
        #expect(problems.map(\.field) == [.inspectorName, .certificationNumber, .result, .confirmed], "\(problems)")
        var all = InspectionValues()
        all.inspectionType = .thoroughScheme
        #expect(SaveGate.problems(all, context: gateContext()).map(\.field)
                == [.inspectorName, .certificationNumber, .result, .schemeReference, .inspectionDate, .confirmed])
    }

    @Test("a Pass with several unticked checks points at the first of them")
    func firstUntickedCheck() {
        var v = validValues()
        v.checkFittings = false
        v.checkDeformation = false
        let problems = SaveGate.problems(v, context: gateContext())
        #expect(problems.map(\.field) == [.checkDeformation], "\(problems)")
        v.checkMarking = false
        v.checkCuts = false
        v.checkCorrosion = false
        #expect(SaveGate.problems(v, context: gateContext()).map(\.field) == [.checkMarking])
    }

    @Test("an invalid inspection date with a deadline set is reported once, on the date")
    func invalidDateWithDeadline() {
        var v = validValues()
        withResult(.defectToBeRemedied, &v)
        v.inspectionDate = "2026-02-30"
        #expect(SaveGate.problems(v, context: gateContext()).map(\.field) == [.inspectionDate])
    }

    @Test("with no commission date, any past date is accepted")
    func noCommissionDate() {
        var v = validValues()
        v.inspectionDate = "1990-05-05"
        let context = SaveGate.Context(asset: gateAssetValue(commissioned: nil), today: day("2026-11-30"),
                                       sessionID: "d", particulars: TestParticulars.report(for: gateAsset))
        #expect(SaveGate.problems(v, context: context).isEmpty)
        v.inspectionDate = "2026-12-01"
        #expect(SaveGate.problems(v, context: context).map(\.field) == [.inspectionDate])
    }

    @Test("the commission message names the commission date")
    func commissionMessage() {
        var v = validValues()
        v.inspectionDate = "2023-12-31"
        let problems = SaveGate.problems(v, context: gateContext())
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("2024-01-01") == true, "\(problems)")
        #expect(problems.first?.message.contains("initial") == true, "says which examinations may: \(problems)")
    }

    // MARK: The validated record

    private func validated(_ v: InspectionValues, context: SaveGate.Context = gateContext(),
                           sourceLocation: SourceLocation = #_sourceLocation) -> ValidatedInspection? {
        switch SaveGate.validate(v, context: context) {
        case .success(let record): return record
        case .failure(let failure):
            Issue.record("refused: \(failure.problems)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test("the validated record carries the context's session id, asset and the amended record's uuid and id")
    func carriesContext() throws {
        let uuid = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!
        var earlier = validValues()
        earlier.notes = "Said something else"
        let amended = storedRecord(earlier)
        let context = SaveGate.Context(asset: gateAssetValue(uuid), today: day("2026-11-30"),
                                       sessionID: "7f3c-draft", amending: amended,
                                       particulars: TestParticulars.report(for: uuid))
        var values = validValues()
        values.amendmentReason = "Notes belonged to another sling"
        let record = try #require(validated(values, context: context))
        #expect(record.assetUUID == uuid)
        #expect(record.sessionID == "7f3c-draft")
        #expect(record.amends == amended.recordUUID)
        #expect(record.amendsID == 17)
        #expect(record.values.amendmentReason == "Notes belonged to another sling")
        #expect(record.result == .pass)

        let plain = try #require(validated(validValues(), context: gateContext(sessionID: "other")))
        #expect(plain.sessionID == "other")
        #expect(plain.amends == nil)
        #expect(plain.assetUUID == gateAsset)
    }

    @Test("the validated record holds the parsed inspection date")
    func parsedDate() throws {
        var v = validValues()
        v.inspectionDate = "2025-02-28"
        let record = try #require(validated(v))
        #expect(record.inspectionDate == day("2025-02-28"))
        #expect(record.values.inspectionDate == "2025-02-28")
    }

    @Test("the validated record holds trimmed text")
    func trimmedText() throws {
        var v = validValues()
        withResult(.passWithObservations, &v)
        v.inspectionType = .thoroughScheme
        v.inspectorName = "  Ada Lovelace\t"
        v.certificationNumber = "\nLEEA-12345  "
        v.notes = "\n  first line\nsecond line \n\n"
        v.schemeReference = " SCH-7 "
        v.defectDescription = "\t Eye: abrasion\n"
        let record = try #require(validated(v))
        #expect(record.values.inspectorName == "Ada Lovelace")
        #expect(record.values.certificationNumber == "LEEA-12345")
        #expect(record.values.notes == "first line\nsecond line")
        #expect(record.values.schemeReference == "SCH-7")
        #expect(record.values.defectDescription == "Eye: abrasion")
        #expect(record.values.inspectionType == .thoroughScheme)
        #expect(record.values.action == .monitor)
        #expect(record.result == .passWithObservations)
    }

    @Test("remedy deadline is nil and its text cleared when the toggle is off")
    func deadlineOff() throws {
        var v = validValues()
        withResult(.passWithObservations, &v)
        v.remedyDeadlineSet = false
        v.remedyDeadline = "2026-12-15"
        let record = try #require(validated(v))
        #expect(record.remedyDeadline == nil)
        #expect(record.values.remedyDeadline == "")
        #expect(record.values.remedyDeadlineSet == false)

        let pass = try #require(validated(validValues()))
        #expect(pass.remedyDeadline == nil)
        #expect(pass.values.remedyDeadline == "")
    }

    @Test("remedy deadline is parsed when the toggle is on")
    func deadlineOn() throws {
        var v = validValues()
        withResult(.defectToBeRemedied, &v)
        v.remedyDeadline = "2027-01-31"
        let record = try #require(validated(v))
        #expect(record.remedyDeadline == day("2027-01-31"))
        #expect(record.values.remedyDeadlineSet)
        #expect(record.values.remedyDeadline == "2027-01-31")

        v.remedyDeadline = " 2027-02-01 "
        let padded = try #require(validated(v))
        #expect(padded.remedyDeadline == day("2027-02-01"))
        #expect(padded.values.remedyDeadline == "2027-02-01", "stored exactly as the register holds it")
        let facts = record.facts(id: 9)
        #expect(facts.id == 9)
        #expect(facts.remedyDeadline == day("2027-01-31"))
        #expect(facts.inspectionDate == day("2026-11-30"))
        #expect(facts.result == .defectToBeRemedied)
        #expect(facts.action == .repair)
        #expect(facts.type == .thoroughPeriodic)
    }

    @Test("validation does not depend on anything but the values and the context")
    func deterministic() {
        for c in gateCases {
            #expect(SaveGate.problems(c.values, context: gateContext())
                    == SaveGate.problems(c.values, context: gateContext()), "\(c.name)")
        }
    }
}

/// An amendment needs a reason and must say something the record it amends did not.
@Suite("SaveGate: amendments")
struct AmendmentGateTests {
    /// Record #17, a pass, amended with `change` applied and `reason` given.
    private func problems(reason: String, _ change: (inout InspectionValues) -> Void) -> [GateProblem] {
        let amended = storedRecord(validValues())
        var values = amended.values
        values.confirmed = false  // the form makes the confirmation be given again
        change(&values)
        values.amendmentReason = reason
        return SaveGate.problems(values, context: gateContext(amending: amended))
    }

    @Test("no change at all (the confirmation ticked again, text padded) is refused under the reason")
    func noChange() {
        let found = problems(reason: "Checked again") {
            $0.confirmed = true
            $0.inspectorName = "  " + $0.inspectorName + " "
            $0.remedyDeadline = "2027-01-01"  // typed, but no deadline is set: not part of the record
        }
        #expect(found.map(\.field) == [.amendmentReason])
        #expect(found.first?.message == "Nothing differs from record #17: "
                + "change what was wrong, or close the form to leave the record as it is.")
    }

    @Test("an amendment without a reason is refused under the reason; blanks are no reason")
    func reasonNeeded() {
        for reason in ["", "   ", "\n"] {
            let found = problems(reason: reason) { $0.confirmed = true; $0.notes = "Corrected" }
            let expected = GateProblem(field: .amendmentReason, message: "Give the reason for amending record #17.")
            #expect(found == [expected], "\(reason.debugDescription)")
        }
    }

    @Test("a changed record with a reason passes; the reason is stored trimmed")
    func changedWithReason() throws {
        let amended = storedRecord(validValues())
        var values = amended.values
        values.result = .failDangerous
        values.checkCuts = false
        values.action = .withdraw
        values.defectDescription = "Cut through at the eye"
        values.repairParticulars = "Replace the sling"
        values.amendmentReason = "  Wrong result entered  "
        let record = try SaveGate.validate(values, context: gateContext(amending: amended)).get()
        #expect(record.values.amendmentReason == "Wrong result entered")
        #expect(record.amends == amended.recordUUID)
    }

    @Test("the reason is text like the others: no control characters, at most 200 characters")
    func reasonIsCheckedText() {
        let long = problems(reason: String(repeating: "x", count: 201)) { $0.confirmed = true; $0.notes = "n" }
        #expect(long.map(\.message) == ["Reason for amendment is longer than 200 characters."])
        let control = problems(reason: "bad\u{1B}[2J") { $0.confirmed = true; $0.notes = "n" }
        #expect(control.map(\.message) == ["Reason for amendment holds control characters."])
    }

    @Test("a fresh inspection has no reason: one left in the values is not stored")
    func freshInspectionHasNoReason() throws {
        var values = validValues()
        values.amendmentReason = "stray"
        let record = try SaveGate.validate(values, context: gateContext()).get()
        #expect(record.values.amendmentReason == "")
        #expect(record.amends == nil)
    }

    @Test("the reason's problems come first, as the reason comes first in an amendment's form")
    func reasonFirst() {
        let found = problems(reason: "") { $0.inspectorName = "" }
        #expect(found.map(\.field) == [.amendmentReason, .inspectorName, .confirmed])
    }
}

@Suite("SaveGate: the report particulars of LOLER Schedule 1")
struct ReportParticularsGateTests {
    private func context(particulars: ReportParticulars?, intervalMonths: Int = 12) -> SaveGate.Context {
        var asset = gateAssetValue()
        asset.intervalMonths = intervalMonths
        return SaveGate.Context(asset: asset, today: day("2026-11-30"), sessionID: "d", particulars: particulars)
    }

    @Test("a thorough examination needs the employer's name and address and the site's address; other records not")
    func particularsAreRequired() throws {
        var incomplete = TestParticulars.report(for: gateAsset)
        incomplete.employer.address = " "
        incomplete.site.address = ""
        let problems = SaveGate.problems(validValues(), context: context(particulars: incomplete))
        #expect(problems.map(\.field) == [.inspectionType])
        let message = try #require(problems.first?.message)
        #expect(message.contains("employer's address") && message.contains("Main site") && message.contains("Settings"))
        #expect(SaveGate.problems(validValues(), context: context(particulars: nil)).map(\.field) == [.inspectionType])
        var check = validValues()
        check.inspectionType = .preUse
        #expect(SaveGate.problems(check, context: context(particulars: nil)).isEmpty)
    }

    @Test("the validated record resolves the basis and the next examination, and keeps only what applies")
    func resolved() throws {
        var v = validValues()
        v.testParticulars = "  Proof load 2.5 t (1.25 × WLL), certificate PL-77  "
        v.repairParticulars = "left from a defect chosen earlier"
        let record = try SaveGate.validate(v, context: context(particulars: TestParticulars.report(for: gateAsset)))
            .get()
        #expect(record.values.examinationBasis == .within12Months)
        #expect(record.values.nextExaminationBy == "2027-11-30")
        #expect(record.nextExaminationBy == day("2027-11-30"))
        #expect(record.values.testParticulars == "Proof load 2.5 t (1.25 × WLL), certificate PL-77")
        #expect(record.values.repairParticulars == "", "a pass has no repair: what the form hid is not kept")
        #expect(record.values.installedCorrectly == false, "only an examination after installation has the tick")
        #expect(record.particulars?.employer.name == "Test Quay Ltd")

        var check = validValues()
        check.inspectionType = .preUse
        check.testParticulars = "hidden"
        let preUse = try SaveGate.validate(check, context: context(particulars: nil)).get()
        #expect(preUse.values.examinationBasis == nil && preUse.values.nextExaminationBy == ""
                && preUse.values.testParticulars == "" && preUse.particulars == nil && preUse.nextExaminationBy == nil)
    }

    @Test("an asset examined every 6 months is examined within 6 months; the next date follows its interval")
    func sixMonthInterval() {
        var v = validValues()
        let six = context(particulars: TestParticulars.report(for: gateAsset), intervalMonths: 6)
        #expect(SaveGate.problems(v, context: six).isEmpty)
        v.examinationBasis = .within12Months
        #expect(SaveGate.problems(v, context: six).map(\.field) == [.examinationBasis])
        v.examinationBasis = nil
        v.nextExaminationBy = "2027-06-01"
        let problems = SaveGate.problems(v, context: six)
        #expect(problems.map(\.field) == [.nextExaminationBy])
        #expect(problems.first?.message.contains("2027-05-30") == true, "names the latest date: \(problems)")
    }
}

@Suite("SaveGate: a retired asset")
struct RetiredAssetGateTests {
    @Test("a fresh inspection of a retired asset is refused; correcting one of its records is not")
    func retiredAsset() {
        var asset = Asset(uuid: UUID(), tag: "WS-36", name: "Web sling", type: .webSling, wllKg: 1000,
                          commissioned: day("2024-01-01"), intervalMonths: 12)
        asset.retiredOn = day("2026-10-01")
        asset.disposition = .scrapped
        let context = SaveGate.Context(asset: asset, today: day("2026-11-30"), sessionID: "s",
                                       particulars: TestParticulars.report(for: asset.uuid))
        let problems = SaveGate.problems(validValues(), context: context)
        #expect(problems.map(\.field) == [.inspectionType])
        #expect(problems.first?.message.contains("retired (scrapped, 2026-10-01)") == true, "\(problems)")
    }
}

@Suite("Particulars read as what they are")
struct InvisibleParticularsTests {
    @Test("names, addresses and who was told refuse invisible characters and look-alike spaces",
          arguments: ["Acme\u{200B} Ltd", "Acme \u{202E}dtL", "Acme\u{00A0}Ltd", "Acme\u{2028}Ltd"])
    func invisibleRefused(_ text: String) {
        let employer = ParticularsChange.employer(Employer(name: text, address: "1 Quay"))
        #expect(employer.problems(in: .initial).contains { $0.contains("employer name holds U+") }, "\(text)")
        let notice = Notice(recordUUID: UUID(), duty: .employerTold, recipient: text, doneOn: day("2026-11-30"))
        #expect(notice.problems(recordDate: day("2026-11-30"), today: day("2026-11-30"))
            .contains { $0.contains("holds U+") }, "\(text)")
    }
}

// MARK: - Judging only the rules a changed field takes part in

/// `SaveGate.problems(changing:previous:)` judges again only what a change of one field can alter; these cases
/// change every field of the form, one at a time, from records valid and invalid, fresh and amending, and expect
/// exactly what the whole gate says.
@Suite("Save gate: a change judged by its field's rules")
struct PartialGateTests {
    static let texts = ["", "  ", "Sling inspected", "  trimmed  ", "line\nbreak", "bell\u{07}", "tab\there",
                        String(repeating: "n", count: 4001), " " + String(repeating: "é", count: 4000) + " ",
                        String(repeating: "x", count: 201), "2026-11-31", "2026-12-01", "+14", "today"]

    static var textPaths: [FormField: WritableKeyPath<InspectionValues, String>] { [
        .inspectorName: \.inspectorName, .certificationNumber: \.certificationNumber, .notes: \.notes,
        .schemeReference: \.schemeReference, .defectDescription: \.defectDescription,
        .remedyDeadline: \.remedyDeadline, .inspectionDate: \.inspectionDate, .amendmentReason: \.amendmentReason,
        .testParticulars: \.testParticulars, .repairParticulars: \.repairParticulars,
        .remedyParticulars: \.remedyParticulars, .nextExaminationBy: \.nextExaminationBy,
    ] }

    static var flagPaths: [FormField: WritableKeyPath<InspectionValues, Bool>] { [
        .checkMarking: \.checkMarking, .checkCuts: \.checkCuts, .checkDeformation: \.checkDeformation,
        .checkFittings: \.checkFittings, .checkCorrosion: \.checkCorrosion, .remedyDeadlineSet: \.remedyDeadlineSet,
        .confirmed: \.confirmed, .installedCorrectly: \.installedCorrectly,
    ] }

    /// Every value `field` may be changed to from `v`.
    static func changes(of field: FormField, from v: InspectionValues) -> [InspectionValues] {
        var out: [InspectionValues] = []
        func with(_ change: (inout InspectionValues) -> Void) { var c = v; change(&c); out.append(c) }
        if let path = textPaths[field] { for text in texts { with { $0[keyPath: path] = text } } }
        if let path = flagPaths[field] { with { $0[keyPath: path].toggle() } }
        switch field {
        case .inspectionType: for type in InspectionType.allCases { with { $0.inspectionType = type } }
        case .result: for result in InspectionResult.allCases + [nil] { with { $0.result = result } }
        case .action: for action in InspectionAction.allCases { with { $0.action = action } }
        case .examinationBasis: for basis in ExaminationBasis.allCases + [nil] { with { $0.examinationBasis = basis } }
        default: break
        }
        return out
    }

    /// Records to start from: valid, blank, failing in several rules, with notes already at fault.
    static var starts: [InspectionValues] {
        var failing = validValues()
        withResult(.defectToBeRemedied, &failing)
        failing.inspectorName = ""
        failing.remedyDeadline = "2026-11-01"
        var badNotes = validValues()
        badNotes.notes = "bell\u{07}" + String(repeating: "n", count: 4001)
        var blank = InspectionValues.blank(inspectorName: "", certificationNumber: "", today: day("2026-11-30"))
        blank.notes = "  "
        return [validValues(), failing, badNotes, blank]
    }

    @Test(arguments: FormField.allCases)
    func aChangeIsJudgedAsTheWholeGateJudgesIt(_ field: FormField) {
        let amended = storedRecord(validValues())
        for context in [gateContext(), gateContext(amending: amended)] {
            for start in PartialGateTests.starts {
                let before = SaveGate.problems(start, context: context)
                for changed in PartialGateTests.changes(of: field, from: start) {
                    let partial = SaveGate.problems(changed, context: context, changing: field, previous: before)
                    #expect(partial == SaveGate.problems(changed, context: context),
                            "\(field) changed from \(start) to \(changed)")
                }
            }
        }
    }

    /// A run of changes to the notes, each judged from the last partial answer, never drifts from the gate.
    @Test func typingIntoNotesKeyByKeyStaysTheWholeGate() {
        let context = gateContext()
        var values = PartialGateTests.starts[1]
        var problems = SaveGate.problems(values, context: context)
        let typed = Array("Abrasion\u{07} on the cover\n  ") + Array(repeating: "z", count: 12)
        for (n, character) in typed.enumerated() {
            // Past the first line, close to the limit, so the last keys cross it.
            if n == 30 { values.notes += String(repeating: "y", count: 3960) }
            values.notes.append(character)
            problems = SaveGate.problems(values, context: context, changing: .notes, previous: problems)
            #expect(problems == SaveGate.problems(values, context: context))
        }
    }
}
