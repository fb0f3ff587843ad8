import Foundation
import Testing
@testable import RigbookCore
import RigbookTestSupport

/// The test limits as register settings: each limit read and set as text, refused with a sentence when it is
/// not a positive finite number or absurd, and stored additively in the organisation's particulars.
@Suite("Test limits as settings")
struct TestLimitsSettingsTests {
    @Test("the defaults are SPEC §12's and pass the checks")
    func defaults() {
        let d = TestLimits.defaults
        #expect(d.problems.isEmpty)
        #expect(ParticularField.limitFields.map { d.text(of: $0) } == ["1", "1", "5", "1", "300", "40", "12"])
    }

    @Test("every limit reads back what was set", arguments: ParticularField.limitFields)
    func readsBack(field: ParticularField) {
        let set = TestLimits.defaults.setting(field, to: " 7 ")
        #expect(set.text(of: field) == "7")
        #expect(set.problems.isEmpty)
        #expect(ParticularField.limitFields.filter { $0 != field }.allSatisfy {
            set.text(of: $0) == TestLimits.defaults.text(of: $0)
        }, "the others stay")
    }

    @Test("a limit that is not a positive finite number is refused with a sentence",
          arguments: ["", "abc", "0", "-1", "inf", "nan"])
    func notAPositiveNumber(text: String) {
        let problems = TestLimits.defaults.setting(.earthContinuityMaxOhm, to: text).problems
        #expect(problems.map(\.field) == [.earthContinuityMaxOhm])
        #expect(problems.first?.message == "The earth continuity limit must be a number of Ω greater than 0.")
    }

    @Test("an absurd limit is refused, saying why", arguments: [
        (ParticularField.earthContinuityMaxOhm, "10.5", "at most 10 Ω"),
        (.insulationMinMOhm, "0.005", "at least 0.01 MΩ"),
        (.insulationMinMOhm, "2000", "at most 1000 MΩ"),
        (.leakageMaxMAClassI, "31", "at most 30 mA"),
        (.leakageMaxMAOther, "50", "at most 30 mA"),
        (.rcdTripMaxMsTypeII, "1001", "at most 1000 ms"),
        (.rcdTripMaxMsTypeI, "5000", "at most 1000 ms"),
        (.calibrationWarningMonths, "61", "from 1 to 60"),
        (.calibrationWarningMonths, "0", "from 1 to 60"),
        (.calibrationWarningMonths, "6.5", "whole number"),
    ])
    func absurd(field: ParticularField, text: String, words: String) {
        let problems = TestLimits.defaults.setting(field, to: text).problems
        #expect(problems.count == 1)
        #expect(problems.first?.field == field)
        let message = problems.first?.message ?? ""
        #expect(message.contains(words), "\(message)")
        #expect(message.contains(": ") && message.hasSuffix("."), "a reason, as a sentence: \(message)")
    }

    @Test("limits at the edges of reason are kept")
    func edges() {
        var limits = TestLimits.defaults
        for (field, text) in [(ParticularField.earthContinuityMaxOhm, "10"), (.insulationMinMOhm, "0.01"),
                              (.leakageMaxMAClassI, "30"), (.rcdTripMaxMsTypeII, "1000"),
                              (.calibrationWarningMonths, "1")] {
            limits = limits.setting(field, to: text)
        }
        #expect(limits.problems.isEmpty)
    }

    @Test("the organisation's change refuses absurd limits like any other particular")
    func throughTheChange() {
        let change = ParticularsChange.organisation(ExaminingOrganisation()).setting(.earthContinuityMaxOhm, to: "20")
        #expect(change[.earthContinuityMaxOhm] == "20")
        let problems = change.fieldProblems(in: .initial)
        #expect(problems.map(\.field) == [.earthContinuityMaxOhm])
        #expect(change.setting(.earthContinuityMaxOhm, to: "0.5").problems(in: .initial).isEmpty)
        let employer = ParticularsChange.employer(Employer(name: "A"))
        #expect(employer.setting(.earthContinuityMaxOhm, to: "2") == employer, "another kind has no limits")
    }

    @Test("an organisation kept before limits were settings reads as the defaults; defaults are not written")
    func additive() throws {
        let old = try #require(ParticularsJSON.decode(ExaminingOrganisation.self,
                                                      from: #"{"address":"1 Quay Road","name":"Lift Check Ltd"}"#))
        #expect(old.testLimits == .defaults)
        #expect(try ParticularsJSON.encode(old) == #"{"address":"1 Quay Road","name":"Lift Check Ltd"}"#)
        var changed = old
        changed.testLimits.earthContinuityMaxOhm = 0.5
        let json = try ParticularsJSON.encode(changed)
        #expect(json.contains(#""test_limits":{"calibration_warning_months":12,"earth_continuity_max_ohm":0.5,"#))
        #expect(ParticularsJSON.decode(ExaminingOrganisation.self, from: json) == changed)
        // A later build's limits with a key this one lacks, or one missing, still read.
        let partial = #"{"address":"","name":"","test_limits":{"insulation_min_mohm":2,"future_limit":9}}"#
        let read = try #require(ParticularsJSON.decode(ExaminingOrganisation.self, from: partial))
        #expect(read.testLimits.insulationMinMOhm == 2)
        #expect(read.testLimits.earthContinuityMaxOhm == 1)
    }

    @Test("a test's limits stored under the earlier property names read back")
    func earlierTestLimitsJSON() throws {
        let earlier = #"{"calibrationWarningMonths":6,"earthContinuityMaxOhm":0.5,"insulationMinMOhm":1,"#
            + #""leakageMaxMAClassI":5,"leakageMaxMAClassII":0.75,"rcdTripMaxMsTypeI":40,"rcdTripMaxMsTypeII":300}"#
        let limits = try #require(ParticularsJSON.decode(TestLimits.self, from: earlier))
        #expect(limits.earthContinuityMaxOhm == 0.5)
        #expect(limits.leakageMaxMAClassII == 0.75)
        #expect(limits.calibrationWarningMonths == 6)
    }

    @Test("the gate judges by the limits it is given: 0.8 Ω passes at 1.0 Ω and fails at 0.5 Ω")
    func gateUsesTheLimits() {
        var v = TestValues.classI(earth: "0.8")
        func context(_ limits: TestLimits) -> TestGate.Context {
            TestGate.Context(assetUUID: UUID(), equipmentClass: .classI, today: CalendarDate(iso: "2026-11-30")!,
                             sessionID: "test-x:y", limits: limits)
        }
        #expect(TestGate.evaluate(v, context(.defaults)).readingsPass)
        let strict = TestLimits.defaults.setting(.earthContinuityMaxOhm, to: "0.5")
        let evaluation = TestGate.evaluate(v, context(strict))
        #expect(!evaluation.readingsPass)
        #expect(evaluation.verdicts.first?.text == "0.8 outside ≤ 0.5 Ω")
        if case .success(let test) = TestGate.validate(v, context(strict)) { Issue.record("saved \(test)") }
        v.notes = "earth high"
        let saved = try? TestGate.validate(v, context(strict)).get()
        #expect(saved?.limits == strict, "the validated test carries the limits it was judged by")
    }
}
