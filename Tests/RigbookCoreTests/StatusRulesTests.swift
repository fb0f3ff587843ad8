import Testing
@testable import RigbookCore

/// One row of a status table: an asset's commission date and interval, its history, a day, and
/// what `StatusRules.evaluate` must say on that day.
struct StatusCase: Sendable, CustomTestStringConvertible {
    var name: String
    var commissioned: String? = nil
    var interval: Int = 12
    var history: [RecordFacts] = []
    var today: String
    var expected: AssetStatus
    var expectedDue: String?? = .none          // .none: not checked; .some(nil): must be nil
    var expectedDeadline: String?? = .none

    var testDescription: String { name }
}

private func check(_ c: StatusCase, sourceLocation: SourceLocation = #_sourceLocation) {
    let asset = sampleAsset(commissioned: c.commissioned, intervalMonths: c.interval)
    let report = StatusRules.evaluate(asset: asset, history: c.history, today: day(c.today))
    #expect(report.status == c.expected, "\(c.name)", sourceLocation: sourceLocation)
    if case .some(let due) = c.expectedDue {
        #expect(report.nextDue == optionalDay(due), "nextDue for \(c.name)", sourceLocation: sourceLocation)
    }
    if case .some(let deadline) = c.expectedDeadline {
        #expect(report.remedyDeadline == optionalDay(deadline), "remedyDeadline for \(c.name)",
                sourceLocation: sourceLocation)
    }
}

// MARK: - Each status on its own

@Suite("StatusRules: each status")
struct EachStatusTests {
    static let cases: [StatusCase] = [
        StatusCase(name: "withdrawn: latest action is withdraw",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .passWithObservations, action: .withdraw)],
                   today: "2026-03-01", expected: .withdrawn, expectedDue: .some(nil)),
        StatusCase(name: "do_not_use: last thorough result is Fail",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .failDangerous, action: .repair)],
                   today: "2026-02-01", expected: .doNotUse, expectedDue: "2027-01-10", expectedDeadline: .some(nil)),
        StatusCase(name: "do_not_use: remedy deadline passed without a later thorough examination",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .defectToBeRemedied,
                                    action: .repair, deadline: "2026-02-10")],
                   today: "2026-02-11", expected: .doNotUse, expectedDue: "2027-01-10", expectedDeadline: "2026-02-10"),
        StatusCase(name: "quarantined: latest action is quarantine",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .passWithObservations,
                                    action: .quarantine)],
                   today: "2026-02-01", expected: .quarantined, expectedDue: "2027-01-10"),
        StatusCase(name: "remedy_by: open remedy deadline not yet passed",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .defectToBeRemedied,
                                    action: .repair, deadline: "2026-02-10")],
                   today: "2026-02-01", expected: .remedyBy, expectedDue: "2027-01-10", expectedDeadline: "2026-02-10"),
        StatusCase(name: "untested: no thorough examination and no commission date",
                   commissioned: nil, history: [],
                   today: "2026-02-01", expected: .untested, expectedDue: .some(nil), expectedDeadline: .some(nil)),
        StatusCase(name: "overdue: today after the due date",
                   commissioned: "2024-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2025-01-10")],
                   today: "2026-01-11", expected: .overdue, expectedDue: "2026-01-10", expectedDeadline: .some(nil)),
        StatusCase(name: "due_soon: due within 30 days",
                   commissioned: "2024-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2025-01-10")],
                   today: "2026-01-01", expected: .dueSoon, expectedDue: "2026-01-10"),
        StatusCase(name: "ok: passed, due far ahead",
                   commissioned: "2024-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2025-01-10")],
                   today: "2025-06-01", expected: .ok, expectedDue: "2026-01-10", expectedDeadline: .some(nil)),
        StatusCase(name: "ok: pass with observations and monitor",
                   commissioned: "2024-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2025-01-10", .passWithObservations, action: .monitor)],
                   today: "2025-06-01", expected: .ok, expectedDue: "2026-01-10"),
        StatusCase(name: "ok: new asset, commission date anchors",
                   commissioned: "2026-01-05", interval: 6, history: [],
                   today: "2026-01-05", expected: .ok, expectedDue: "2026-07-05"),
    ]

    @Test(arguments: cases)
    func status(_ c: StatusCase) { check(c) }

    @Test("every status is reachable through the table")
    func everyStatusCovered() {
        let reached = Set(Self.cases.map(\.expected))
        #expect(reached == Set(AssetStatus.active), "RETIRED comes from the asset: see the retirement tests")
    }
}

// MARK: - Precedence: where two conditions hold, the higher one wins

@Suite("""
    StatusRules: precedence WITHDRAWN › DO NOT USE › QUARANTINED › OVERDUE › REMEDY BY › UNTESTED \
    › DUE SOON › OK
    """)
struct PrecedenceTests {
    static let adjacentPairs: [StatusCase] = [
        StatusCase(name: "WITHDRAWN › DO NOT USE (Fail and withdraw)",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .failDangerous, action: .withdraw)],
                   today: "2026-02-01", expected: .withdrawn),
        StatusCase(name: "WITHDRAWN › DO NOT USE (missed deadline and withdraw)",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .defectToBeRemedied,
                                    action: .withdraw, deadline: "2026-02-10")],
                   today: "2026-03-01", expected: .withdrawn),
        StatusCase(name: "DO NOT USE › QUARANTINED (Fail and quarantine)",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .failDangerous, action: .quarantine)],
                   today: "2026-02-01", expected: .doNotUse),
        StatusCase(name: "DO NOT USE › QUARANTINED (missed deadline and quarantine)",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .defectToBeRemedied,
                                    action: .quarantine, deadline: "2026-02-10")],
                   today: "2026-02-11", expected: .doNotUse, expectedDeadline: "2026-02-10"),
        StatusCase(name: "QUARANTINED › OVERDUE",
                   commissioned: "2020-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2021-01-10", .passWithObservations,
                                    action: .quarantine)],
                   today: "2026-02-01", expected: .quarantined),
        // The old REMEDY BY › OVERDUE is reversed: an item must not be used past its examination date.
        StatusCase(name: "OVERDUE › REMEDY BY",
                   commissioned: "2024-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2025-01-10", .defectToBeRemedied,
                                    action: .repair, deadline: "2026-02-01")],
                   today: "2026-01-20", expected: .overdue, expectedDue: "2026-01-10", expectedDeadline: "2026-02-01"),
        StatusCase(name: "QUARANTINED › REMEDY BY (open deadline and quarantine)",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .defectToBeRemedied,
                                    action: .quarantine, deadline: "2026-02-10")],
                   today: "2026-02-01", expected: .quarantined),
        StatusCase(name: "REMEDY BY › UNTESTED (deadline from an interim inspection, no anchor)",
                   commissioned: nil,
                   history: [record(1, .interim, on: "2026-01-10", .defectToBeRemedied,
                                    action: .repair, deadline: "2026-02-10")],
                   today: "2026-02-01", expected: .remedyBy, expectedDue: .some(nil), expectedDeadline: "2026-02-10"),
        // UNTESTED has no due date, so OVERDUE cannot hold with it; the nearest case is an asset whose only
        // records are old non-thorough ones: they must not anchor a due date.
        StatusCase(name: "UNTESTED, never OVERDUE (only old pre-use and interim records, no commission date)",
                   commissioned: nil,
                   history: [record(1, .preUse, on: "2019-03-01"), record(2, .interim, on: "2020-03-01")],
                   today: "2026-02-01", expected: .untested, expectedDue: .some(nil)),
        StatusCase(name: "OVERDUE › DUE SOON (one day past due is within 30 days of it, but overdue)",
                   commissioned: "2024-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2025-03-15")],
                   today: "2026-03-16", expected: .overdue, expectedDue: "2026-03-15"),
        StatusCase(name: "DUE SOON › OK (30 days before due, nothing else wrong)",
                   commissioned: "2024-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2025-03-15")],
                   today: "2026-02-13", expected: .dueSoon, expectedDue: "2026-03-15"),
    ]

    @Test(arguments: adjacentPairs)
    func adjacentPair(_ c: StatusCase) { check(c) }

    /// Non-adjacent pairs that also occur in practice.
    static let widerPairs: [StatusCase] = [
        StatusCase(name: "WITHDRAWN › OVERDUE",
                   commissioned: "2020-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2021-01-10", .passWithObservations, action: .withdraw)],
                   today: "2026-02-01", expected: .withdrawn),
        StatusCase(name: "DO NOT USE › OVERDUE",
                   commissioned: "2020-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2021-01-10", .failDangerous, action: .repair)],
                   today: "2026-02-01", expected: .doNotUse),
        StatusCase(name: "REMEDY BY › DUE SOON",
                   commissioned: "2024-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2025-01-10", .defectToBeRemedied,
                                    action: .repair, deadline: "2026-02-01")],
                   today: "2026-01-05", expected: .remedyBy),
        StatusCase(name: "QUARANTINED › UNTESTED (interim quarantine, no anchor)",
                   commissioned: nil,
                   history: [record(1, .interim, on: "2026-01-10", .passWithObservations, action: .quarantine)],
                   today: "2026-02-01", expected: .quarantined),
        StatusCase(name: "DO NOT USE › QUARANTINED (a Fail from an interim inspection, before any thorough exam)",
                   commissioned: nil,
                   history: [record(1, .interim, on: "2026-01-10", .failDangerous, action: .quarantine)],
                   today: "2026-02-01", expected: .doNotUse),
        StatusCase(name: "a thorough Pass after an interim Fail clears DO NOT USE",
                   commissioned: "2024-01-01",
                   history: [record(1, .interim, on: "2026-01-10", .failDangerous, action: .repair),
                             record(2, .thoroughPeriodic, on: "2026-01-20", .pass)],
                   today: "2026-02-01", expected: .ok),
        StatusCase(name: "WITHDRAWN › UNTESTED (pre-use check withdraws, no anchor)",
                   commissioned: nil,
                   history: [record(1, .preUse, on: "2026-01-10", .failDangerous, action: .withdraw)],
                   today: "2026-02-01", expected: .withdrawn),
    ]

    @Test(arguments: widerPairs)
    func widerPair(_ c: StatusCase) { check(c) }

    /// The same answer whether `evaluate` gets the asset, the summary or the raw arguments.
    @Test(arguments: adjacentPairs + widerPairs)
    func overloadsAgree(_ c: StatusCase) {
        let asset = sampleAsset(commissioned: c.commissioned, intervalMonths: c.interval)
        let summary = HistorySummary(history: c.history)
        let today = day(c.today)
        let a = StatusRules.evaluate(asset: asset, history: c.history, today: today)
        let b = StatusRules.evaluate(asset: asset, summary: summary, today: today)
        let d = StatusRules.evaluate(intervalMonths: c.interval, commissioned: optionalDay(c.commissioned),
                                     summary: summary, today: today)
        #expect(a == b)
        #expect(b == d)
    }
}

// MARK: - Due date anchors

@Suite("StatusRules: what anchors the due date")
struct DueAnchorTests {
    static let nonThorough: [InspectionType] = InspectionType.allCases.filter { !$0.isThorough }
    static let thorough: [InspectionType] = InspectionType.allCases.filter(\.isThorough)

    @Test("pre-use and interim are the only non-thorough types")
    func typeSplit() {
        #expect(Set(Self.nonThorough) == [.preUse, .interim])
        #expect(Set(Self.thorough) == [.thoroughInitial, .thoroughAfterInstallation, .thoroughPeriodic,
                                       .thoroughScheme, .thoroughExceptional])
    }

    @Test("a later pre-use check or interim inspection does not move the due date", arguments: nonThorough)
    func nonThoroughDoesNotMoveDue(_ type: InspectionType) {
        let history = [record(1, .thoroughPeriodic, on: "2025-07-15"),
                       record(2, type, on: "2025-12-01"),
                       record(3, type, on: "2026-01-14")]
        let asset = sampleAsset(commissioned: "2025-01-15", intervalMonths: 6)
        let report = StatusRules.evaluate(asset: asset, history: history, today: day("2026-01-16"))
        #expect(report.nextDue == day("2026-01-15"))
        #expect(report.status == .overdue)
        #expect(HistorySummary(history: history).lastThoroughDate == day("2025-07-15"))
    }

    @Test("a later thorough examination of any kind moves the due date", arguments: thorough)
    func thoroughMovesDue(_ type: InspectionType) {
        let history = [record(1, .thoroughPeriodic, on: "2025-07-15"),
                       record(2, type, on: "2025-12-01")]
        let asset = sampleAsset(commissioned: "2025-01-15", intervalMonths: 6)
        let report = StatusRules.evaluate(asset: asset, history: history, today: day("2026-01-16"))
        #expect(report.nextDue == day("2026-06-01"))
        #expect(report.status == .ok)
    }

    @Test("with no thorough examination the commission date anchors (pre-use checks do not)",
          arguments: [[], [record(1, .preUse, on: "2025-12-01")], [record(1, .interim, on: "2026-02-20")]])
    func commissionAnchors(_ history: [RecordFacts]) {
        let asset = sampleAsset(commissioned: "2025-08-31", intervalMonths: 6)
        let report = StatusRules.evaluate(asset: asset, history: history, today: day("2026-03-01"))
        #expect(report.nextDue == day("2026-02-28"))
        #expect(report.status == .overdue)
    }

    @Test("a thorough examination replaces the commission date as anchor")
    func thoroughBeatsCommission() {
        let asset = sampleAsset(commissioned: "2020-01-01", intervalMonths: 12)
        let history = [record(1, .thoroughInitial, on: "2025-03-03")]
        let report = StatusRules.evaluate(asset: asset, history: history, today: day("2025-12-01"))
        #expect(report.nextDue == day("2026-03-03"))
        #expect(report.status == .ok)
    }

    @Test("no anchor: untested, whatever the non-thorough history and the day",
          arguments: [[], [record(1, .preUse, on: "2026-01-02")], [record(1, .interim, on: "2010-01-02")]],
          ["2026-01-03", "2040-01-01"])
    func noAnchorIsUntested(_ history: [RecordFacts], _ today: String) {
        let asset = sampleAsset(commissioned: nil, intervalMonths: 6)
        let report = StatusRules.evaluate(asset: asset, history: history, today: day(today))
        #expect(report.status == .untested)
        #expect(report.nextDue == nil)
        #expect(StatusRules.nextDue(intervalMonths: 6, commissioned: nil,
                                    summary: HistorySummary(history: history)) == nil)
    }

    @Test("a thorough examination without a commission date gives a due date")
    func thoroughWithoutCommission() {
        let asset = sampleAsset(commissioned: nil, intervalMonths: 6)
        let report = StatusRules.evaluate(asset: asset, history: [record(1, .thoroughInitial, on: "2026-01-31")],
                                          today: day("2026-02-01"))
        #expect(report.nextDue == day("2026-07-31"))
        #expect(report.status == .ok)
    }

    @Test("the asset's interval is used", arguments: [(1, "2026-02-28"), (6, "2026-07-31"), (12, "2027-01-31"),
                                                      (13, "2027-02-28"), (60, "2031-01-31")])
    func intervalUsed(_ months: Int, _ due: String) {
        let summary = HistorySummary(history: [record(1, .thoroughPeriodic, on: "2026-01-31")])
        #expect(StatusRules.nextDue(intervalMonths: months, commissioned: day("2020-01-01"), summary: summary)
                == day(due))
    }
}

// MARK: - Boundary days

@Suite("StatusRules: boundary days around the due date")
struct BoundaryDayTests {
    /// (last thorough date, interval, due date, today, expected status)
    static let cases: [(String, Int, String, String, AssetStatus)] = [
        // due 2026-03-15
        ("2025-03-15", 12, "2026-03-15", "2026-02-12", .ok),        // due − 31
        ("2025-03-15", 12, "2026-03-15", "2026-02-13", .dueSoon),   // due − 30
        ("2025-03-15", 12, "2026-03-15", "2026-03-01", .dueSoon),
        ("2025-03-15", 12, "2026-03-15", "2026-03-14", .dueSoon),   // due − 1
        ("2025-03-15", 12, "2026-03-15", "2026-03-15", .dueSoon),   // due
        ("2025-03-15", 12, "2026-03-15", "2026-03-16", .overdue),   // due + 1
        ("2025-03-15", 12, "2026-03-15", "2027-03-16", .overdue),
        // clamped leap-day due date: 31 Aug 2027 + 6 months = 29 Feb 2028
        ("2027-08-31", 6, "2028-02-29", "2028-01-29", .ok),         // due − 31
        ("2027-08-31", 6, "2028-02-29", "2028-01-30", .dueSoon),    // due − 30
        ("2027-08-31", 6, "2028-02-29", "2028-02-29", .dueSoon),    // due
        ("2027-08-31", 6, "2028-02-29", "2028-03-01", .overdue),    // due + 1
        // across a year end: due 2026-01-05
        ("2025-01-05", 12, "2026-01-05", "2025-12-05", .ok),        // due − 31
        ("2025-01-05", 12, "2026-01-05", "2025-12-06", .dueSoon),   // due − 30
        ("2025-01-05", 12, "2026-01-05", "2026-01-06", .overdue),   // due + 1
    ]

    @Test(arguments: cases)
    func boundary(_ last: String, _ interval: Int, _ due: String, _ today: String, _ expected: AssetStatus) {
        let asset = sampleAsset(commissioned: "2020-01-01", intervalMonths: interval)
        let report = StatusRules.evaluate(asset: asset, history: [record(1, .thoroughPeriodic, on: last)],
                                          today: day(today))
        #expect(report.nextDue == day(due))
        #expect(report.status == expected)
    }

    @Test func dueSoonWindowIs30Days() {
        #expect(StatusRules.dueSoonDays == 30)
    }
}

// MARK: - Remedy deadline

@Suite("StatusRules: remedy deadline")
struct RemedyDeadlineTests {
    static let defect = record(1, .thoroughPeriodic, on: "2026-01-10", .defectToBeRemedied,
                               action: .repair, deadline: "2026-02-10")

    static let cases: [StatusCase] = [
        StatusCase(name: "the day before the deadline: remedy_by",
                   commissioned: "2025-01-01", history: [defect],
                   today: "2026-02-09", expected: .remedyBy, expectedDeadline: "2026-02-10"),
        StatusCase(name: "today == deadline: remedy_by",
                   commissioned: "2025-01-01", history: [defect],
                   today: "2026-02-10", expected: .remedyBy, expectedDeadline: "2026-02-10"),
        StatusCase(name: "deadline + 1: do_not_use",
                   commissioned: "2025-01-01", history: [defect],
                   today: "2026-02-11", expected: .doNotUse, expectedDeadline: "2026-02-10"),
        // The old rule is reversed: a passing interim inspection signs the repair off.
        StatusCase(name: "a later passing interim inspection closes it, without moving the due date",
                   commissioned: "2025-01-01",
                   history: [defect, record(2, .interim, on: "2026-02-01")],
                   today: "2026-02-11", expected: .ok, expectedDue: "2027-01-10", expectedDeadline: .some(nil)),
        StatusCase(name: "a later pre-use check does not close it",
                   commissioned: "2025-01-01",
                   history: [defect, record(2, .preUse, on: "2026-02-05")],
                   today: "2026-02-11", expected: .doNotUse, expectedDeadline: "2026-02-10"),
        StatusCase(name: "a later thorough examination before the deadline closes it",
                   commissioned: "2025-01-01",
                   history: [defect, record(2, .thoroughPeriodic, on: "2026-02-05")],
                   today: "2026-02-11", expected: .ok, expectedDue: "2027-02-05", expectedDeadline: .some(nil)),
        StatusCase(name: "a later thorough examination after the deadline closes it",
                   commissioned: "2025-01-01",
                   history: [defect, record(2, .thoroughExceptional, on: "2026-02-20")],
                   today: "2026-02-21", expected: .ok, expectedDue: "2027-02-20", expectedDeadline: .some(nil)),
        StatusCase(name: "a deadline set by an interim inspection is closed by a later thorough examination",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2025-06-01"),
                             record(2, .interim, on: "2025-09-01", .defectToBeRemedied, action: .repair,
                                    deadline: "2025-10-01"),
                             record(3, .thoroughPeriodic, on: "2025-09-20")],
                   today: "2025-12-01", expected: .ok, expectedDue: "2026-09-20", expectedDeadline: .some(nil)),
        StatusCase(name: "a deadline set by an interim inspection is closed by a later passing interim",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2025-06-01"),
                             record(2, .interim, on: "2025-09-01", .defectToBeRemedied, action: .repair,
                                    deadline: "2025-10-01"),
                             record(3, .interim, on: "2025-09-20")],
                   today: "2025-10-02", expected: .ok, expectedDue: "2026-06-01", expectedDeadline: .some(nil)),
        StatusCase(name: "a later thorough examination that sets a new deadline replaces the old one",
                   commissioned: "2025-01-01",
                   history: [defect, record(2, .thoroughPeriodic, on: "2026-02-05", .defectToBeRemedied,
                                            action: .repair, deadline: "2026-03-05")],
                   today: "2026-02-20", expected: .remedyBy, expectedDeadline: "2026-03-05"),
        StatusCase(name: "same-day thorough examination saved after the defect closes it",
                   commissioned: "2025-01-01",
                   history: [defect, record(2, .thoroughPeriodic, on: "2026-01-10")],
                   today: "2026-02-11", expected: .ok, expectedDeadline: .some(nil)),
        StatusCase(name: "same-day thorough examination saved before the defect does not close it",
                   commissioned: "2025-01-01",
                   history: [record(2, .thoroughPeriodic, on: "2026-01-10", .defectToBeRemedied,
                                    action: .repair, deadline: "2026-02-10"),
                             record(1, .thoroughPeriodic, on: "2026-01-10")],
                   today: "2026-02-11", expected: .doNotUse, expectedDeadline: "2026-02-10"),
        StatusCase(name: "history order in the array does not matter (inspection-date order counts)",
                   commissioned: "2025-01-01",
                   history: [record(3, .thoroughPeriodic, on: "2026-02-05"), defect],
                   today: "2026-02-11", expected: .ok, expectedDeadline: .some(nil)),
        StatusCase(name: "an earlier thorough examination saved later does not close it",
                   commissioned: "2025-01-01",
                   history: [defect, record(5, .thoroughPeriodic, on: "2026-01-05")],
                   today: "2026-02-11", expected: .doNotUse, expectedDue: "2027-01-10", expectedDeadline: "2026-02-10"),
    ]

    @Test(arguments: cases)
    func deadline(_ c: StatusCase) { check(c) }

    @Test("summary: the deadline is open until a later thorough examination or passing interim inspection",
          arguments: [
            ([defect], "2026-02-10"),
            ([defect, record(2, .interim, on: "2026-01-20")], nil),
            ([defect, record(2, .interim, on: "2026-01-20", .defectToBeRemedied, action: .repair)], "2026-02-10"),
            ([defect, record(2, .preUse, on: "2026-01-20")], "2026-02-10"),
            ([defect, record(2, .thoroughPeriodic, on: "2026-01-20")], nil),
          ] as [([RecordFacts], String?)])
    func summaryDeadline(_ history: [RecordFacts], _ open: String?) {
        #expect(HistorySummary(history: history).openRemedyDeadline == optionalDay(open))
    }
}

// MARK: - Amendments and the history fold

@Suite("HistorySummary: the fold and amendments")
struct HistoryFoldTests {
    @Test("an empty history folds to the empty summary")
    func emptyHistory() {
        #expect(HistorySummary(history: []) == HistorySummary.empty)
        #expect(HistorySummary.empty.recordCount == 0)
    }

    @Test("the fold keeps the last thorough examination and the latest record")
    func foldFacts() {
        let s = HistorySummary(history: [
            record(3, .preUse, on: "2026-01-20", .passWithObservations, action: .monitor),
            record(1, .thoroughPeriodic, on: "2025-06-01", .passWithObservations, action: .monitor),
            record(2, .thoroughExceptional, on: "2025-12-01", .defectToBeRemedied, action: .repair,
                   deadline: "2026-01-31"),
        ])
        #expect(s.lastThoroughDate == day("2025-12-01"))
        #expect(s.lastThoroughResult == .defectToBeRemedied)
        #expect(s.latestResult == .passWithObservations)
        #expect(s.latestAction == .monitor)
        #expect(s.openRemedyDeadline == day("2026-01-31"))
        #expect(s.recordCount == 3)
    }

    static let cases: [StatusCase] = [
        StatusCase(name: "a Fail corrected to a Pass: the Fail no longer counts",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .failDangerous, action: .repair),
                             record(2, .thoroughPeriodic, on: "2026-01-10", amends: 1)],
                   today: "2026-02-01", expected: .ok, expectedDue: "2027-01-10"),
        StatusCase(name: "a Pass corrected to a Fail: the correction counts",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10"),
                             record(2, .thoroughPeriodic, on: "2026-01-10", .failDangerous, action: .repair,
                                    amends: 1)],
                   today: "2026-02-01", expected: .doNotUse),
        StatusCase(name: "an amended record's remedy deadline no longer counts",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .defectToBeRemedied, action: .repair,
                                    deadline: "2026-02-10"),
                             record(2, .thoroughPeriodic, on: "2026-01-10", .passWithObservations, action: .monitor,
                                    amends: 1)],
                   today: "2026-03-01", expected: .ok, expectedDeadline: .some(nil)),
        StatusCase(name: "an amended withdrawal no longer counts",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .passWithObservations, action: .withdraw),
                             record(2, .thoroughPeriodic, on: "2026-01-10", .passWithObservations, action: .monitor,
                                    amends: 1)],
                   today: "2026-02-01", expected: .ok),
        StatusCase(name: "an amended quarantine no longer counts",
                   commissioned: "2025-06-01",
                   history: [record(1, .interim, on: "2026-01-10", .passWithObservations, action: .quarantine),
                             record(2, .interim, on: "2026-01-10", .passWithObservations, action: .monitor, amends: 1)],
                   today: "2026-02-01", expected: .ok, expectedDue: "2026-06-01"),
        StatusCase(name: "a corrected examination date moves the due date",
                   commissioned: "2020-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2025-06-01"),
                             record(2, .thoroughPeriodic, on: "2025-07-01", amends: 1)],
                   today: "2026-06-15", expected: .dueSoon, expectedDue: "2026-07-01"),
        StatusCase(name: "an examination corrected to a pre-use check no longer anchors",
                   commissioned: nil,
                   history: [record(1, .thoroughPeriodic, on: "2025-06-01"),
                             record(2, .preUse, on: "2025-06-01", amends: 1)],
                   today: "2025-07-01", expected: .untested, expectedDue: .some(nil)),
        StatusCase(name: "an amendment listed before the record it amends",
                   commissioned: "2025-01-01",
                   history: [record(2, .thoroughPeriodic, on: "2026-01-10", amends: 1),
                             record(1, .thoroughPeriodic, on: "2026-01-10", .failDangerous, action: .repair)],
                   today: "2026-02-01", expected: .ok),
        StatusCase(name: "a chain of amendments: only the last one counts",
                   commissioned: "2025-01-01",
                   history: [record(1, .thoroughPeriodic, on: "2026-01-10", .failDangerous, action: .repair),
                             record(2, .thoroughPeriodic, on: "2026-01-10", .passWithObservations, action: .quarantine,
                                    amends: 1),
                             record(3, .thoroughPeriodic, on: "2026-01-10", amends: 2)],
                   today: "2026-02-01", expected: .ok),
    ]

    @Test(arguments: cases)
    func amendment(_ c: StatusCase) { check(c) }

    @Test("amended records are not counted",
          arguments: [
            ([record(1, .thoroughPeriodic, on: "2026-01-10")], 1),
            ([record(1, .thoroughPeriodic, on: "2026-01-10"),
              record(2, .thoroughPeriodic, on: "2026-01-10", amends: 1)], 1),
            ([record(1, .thoroughPeriodic, on: "2026-01-10"), record(2, .thoroughPeriodic, on: "2026-01-10", amends: 1),
              record(3, .thoroughPeriodic, on: "2026-01-10", amends: 2)], 1),
            ([record(1, .thoroughPeriodic, on: "2026-01-10"), record(2, .preUse, on: "2026-01-11"),
              record(3, .preUse, on: "2026-01-11", amends: 2)], 2),
          ] as [([RecordFacts], Int)])
    func recordCount(_ history: [RecordFacts], _ count: Int) {
        #expect(HistorySummary(history: history).recordCount == count)
    }

    @Test("the fold does not depend on the order of the input")
    func orderIndependent() {
        let history = [
            record(1, .thoroughPeriodic, on: "2025-06-01", .passWithObservations, action: .monitor),
            record(2, .interim, on: "2025-09-01", .defectToBeRemedied, action: .repair, deadline: "2025-10-01"),
            record(3, .preUse, on: "2025-09-01"),
            record(4, .thoroughPeriodic, on: "2025-12-01", .failDangerous, action: .quarantine),
            record(5, .thoroughPeriodic, on: "2025-12-01", .defectToBeRemedied, action: .repair, deadline: "2026-01-15",
                   amends: 4),
        ]
        let expected = HistorySummary(history: history)
        #expect(expected.lastThoroughResult == .defectToBeRemedied)
        #expect(expected.openRemedyDeadline == day("2026-01-15"))
        #expect(expected.recordCount == 4)
        for permutation in [history.reversed(), [history[2], history[4], history[0], history[3], history[1]],
                            [history[4], history[3], history[2], history[1], history[0]]] {
            #expect(HistorySummary(history: Array(permutation)) == expected)
        }
    }
}

// MARK: - Status rules that never hide danger

/// Concrete histories where the old rules said something misleading.
@Suite("StatusRules: rules that never hide danger")
struct NeverHideDangerTests {
    /// Examined 2025-01-10 every 12 months (due 2026-01-10) with a defect to remedy by 2026-02-01.
    static let defectDueJanuary = record(1, .thoroughPeriodic, on: "2025-01-10", .defectToBeRemedied,
                                         action: .repair, deadline: "2026-02-01")

    @Test("overdue beats REMEDY BY: the examination date has passed, the remedy deadline has not")
    func overdueBeatsRemedyBy() {
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2024-01-01"),
                                          history: [Self.defectDueJanuary], today: day("2026-01-20"))
        #expect(report.status == .overdue)
        #expect(report.nextDue == day("2026-01-10"))
        #expect(report.remedyDeadline == day("2026-02-01"))
        // The date that matters is the earlier of the two: the missed examination.
        #expect(report.keyDate == day("2026-01-10"))
        #expect(!report.deadlineMatters)
    }

    @Test("REMEDY BY: the date that matters is the earlier of the remedy deadline and the due date",
          arguments: [
            // deadline first: the deadline matters
            ("2025-03-10", "2026-01-20", "2025-12-01", "2026-01-20", true),
            // due date first (due 2026-03-10, deadline 2026-03-20): the examination matters
            ("2025-03-10", "2026-03-20", "2026-03-01", "2026-03-10", false),
            // the same day: the deadline (either way the same date)
            ("2025-03-10", "2026-03-10", "2026-03-01", "2026-03-10", true),
          ])
    func remedyByKeyDate(_ examined: String, _ deadline: String, _ today: String, _ key: String, _ matters: Bool) {
        let history = [record(1, .thoroughPeriodic, on: examined, .defectToBeRemedied, action: .repair,
                              deadline: deadline)]
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2024-01-01"), history: history,
                                          today: day(today))
        #expect(report.status == .remedyBy)
        #expect(report.keyDate == day(key))
        #expect(report.deadlineMatters == matters)
    }

    @Test("only a thorough examination ends WITHDRAWN or QUARANTINED: a later check with action None does not",
          arguments: [InspectionAction.withdraw, .quarantine], [InspectionType.preUse, .interim])
    func outOfServiceStays(_ action: InspectionAction, _ later: InspectionType) {
        let history = [record(1, .thoroughPeriodic, on: "2026-01-10", .failDangerous, action: action),
                       record(2, later, on: "2026-01-20", .pass, action: .none)]
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-01-01"), history: history,
                                          today: day("2026-02-01"))
        // A quarantined item that failed dangerous is DO NOT USE, which outranks QUARANTINED.
        #expect(report.status == (action == .withdraw ? .withdrawn : .doNotUse))
        #expect(HistorySummary(history: history).outOfService == action)
    }

    @Test("a sling withdrawn by a pre-use check stays withdrawn after the next pre-use check passes")
    func withdrawnByPreUse() {
        let history = [record(1, .thoroughPeriodic, on: "2025-12-01"),
                       record(2, .preUse, on: "2026-01-10", .passWithObservations, action: .withdraw),
                       record(3, .preUse, on: "2026-01-11", .pass, action: .none)]
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-01-01"), history: history,
                                          today: day("2026-01-12"))
        #expect(report.status == .withdrawn)
    }

    @Test("a quarantine stays until a thorough examination; a later one does not soften a withdrawal",
          arguments: [(InspectionAction.quarantine, InspectionAction.none, AssetStatus.quarantined),
                      (.withdraw, .quarantine, .withdrawn)])
    func laterChecks(_ first: InspectionAction, _ then: InspectionAction, _ expected: AssetStatus) {
        let history = [record(1, .preUse, on: "2026-01-10", .passWithObservations, action: first),
                       record(2, .interim, on: "2026-01-11", .passWithObservations, action: then)]
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-06-01"), history: history,
                                          today: day("2026-01-12"))
        #expect(report.status == expected)
    }

    @Test("a thorough examination ends WITHDRAWN and QUARANTINED",
          arguments: [InspectionAction.withdraw, .quarantine])
    func thoroughEndsOutOfService(_ action: InspectionAction) {
        let history = [record(1, .preUse, on: "2026-01-10", .failDangerous, action: action),
                       record(2, .thoroughExceptional, on: "2026-01-20", .pass, action: .none)]
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-06-01"), history: history,
                                          today: day("2026-02-01"))
        #expect(report.status == .ok)
        #expect(report.nextDue == day("2027-01-20"))
    }

    /// A defect found 2026-01-10 to be remedied by 2026-02-10.
    static let defect = record(1, .thoroughPeriodic, on: "2026-01-10", .defectToBeRemedied, action: .repair,
                               deadline: "2026-02-10")

    @Test("a repair is signed off by a later passing interim or thorough record; only an examination moves the due",
          arguments: [InspectionResult.pass, .passWithObservations],
          [(InspectionType.interim, "2027-01-10"), (.thoroughPeriodic, "2027-02-05")])
    func passSignsRepairOff(_ result: InspectionResult, _ later: (type: InspectionType, due: String)) {
        let history = [Self.defect, record(2, later.type, on: "2026-02-05", result, action: .none)]
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-01-01"), history: history,
                                          today: day("2026-02-11"))
        #expect(report.status == .ok)
        #expect(report.remedyDeadline == nil)
        #expect(report.nextDue == day(later.due))
        #expect(HistorySummary(history: history).openRemedyDeadline == nil)
    }

    @Test("a pre-use check, or an interim inspection that does not pass, leaves the deadline open",
          arguments: [(InspectionType.preUse, InspectionResult.pass), (.interim, .defectToBeRemedied)])
    func notSignedOff(_ type: InspectionType, _ result: InspectionResult) {
        let later = record(2, type, on: "2026-02-05", result, action: result == .pass ? .none : .repair)
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-01-01"),
                                          history: [Self.defect, later], today: day("2026-02-11"))
        #expect(report.status == .doNotUse)
        #expect(report.remedyDeadline == day("2026-02-10"))
    }

    @Test("the DUE SOON window fits the interval: 30 days from 6 months up, a quarter of the interval below",
          arguments: [(1, 7), (2, 15), (3, 22), (4, 30), (5, 38), (6, 30), (12, 30), (60, 30)])
    func dueSoonWindow(_ months: Int, _ days: Int) {
        #expect(StatusRules.dueSoonWindow(intervalMonths: months) == days)
    }

    @Test("a 1-month item is not DUE SOON on the day it was examined")
    func monthlyItemOnTheDayExamined() {
        let asset = sampleAsset(commissioned: "2025-01-01", intervalMonths: 1)
        let history = [record(1, .thoroughPeriodic, on: "2026-02-02")]
        let examinedToday = StatusRules.evaluate(asset: asset, history: history, today: day("2026-02-02"))
        #expect(examinedToday.status == .ok)
        #expect(examinedToday.nextDue == day("2026-03-02"))
        // due − 7 is DUE SOON, due − 8 is not.
        #expect(StatusRules.evaluate(asset: asset, history: history, today: day("2026-02-23")).status == .dueSoon)
        #expect(StatusRules.evaluate(asset: asset, history: history, today: day("2026-02-22")).status == .ok)
    }

    @Test("a 3-month item: DUE SOON from due − 22")
    func quarterlyItem() {
        let asset = sampleAsset(commissioned: "2025-01-01", intervalMonths: 3)
        let history = [record(1, .thoroughPeriodic, on: "2026-01-15")]   // due 2026-04-15
        #expect(StatusRules.evaluate(asset: asset, history: history, today: day("2026-03-24")).status == .dueSoon)
        #expect(StatusRules.evaluate(asset: asset, history: history, today: day("2026-03-23")).status == .ok)
    }

    @Test("DO NOT USE after a missed remedy deadline says so, and its date is the deadline")
    func doNotUseSaysMissedDeadline() {
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-01-01"), history: [Self.defect],
                                          today: day("2026-07-01"))
        #expect(report.status == .doNotUse)
        #expect(report.reasons == [.remedyDeadlinePassed(day("2026-02-10"))])
        #expect(report.reason == "remedy deadline 2026-02-10 passed")
        #expect(report.keyDate == day("2026-02-10"))
        #expect(report.deadlineMatters)
    }

    @Test("DO NOT USE after a dangerous fail says so, never \"due in 182 days\"")
    func doNotUseSaysFailed() {
        let history = [record(1, .thoroughPeriodic, on: "2025-12-01"),
                       record(2, .preUse, on: "2026-01-10", .failDangerous, action: .repair)]
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-01-01"), history: history,
                                          today: day("2026-06-01"))
        #expect(report.status == .doNotUse)
        #expect(report.reasons == [.failedDangerous(day("2026-01-10"))])
        #expect(report.reason == "failed dangerous on 2026-01-10, not cleared by a thorough examination")
        #expect(report.keyDate == day("2026-01-10"))
        #expect(!report.deadlineMatters)
    }

    @Test("DO NOT USE names every cause, the earliest date first matters")
    func doNotUseEveryCause() {
        let history = [Self.defect, record(2, .preUse, on: "2026-03-01", .failDangerous, action: .repair)]
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-01-01"), history: history,
                                          today: day("2027-02-01"))
        #expect(report.status == .doNotUse)
        #expect(report.reason == "failed dangerous on 2026-03-01, not cleared by a thorough examination; "
                + "remedy deadline 2026-02-10 passed; thorough examination was due 2027-01-10")
        #expect(report.keyDate == day("2026-02-10"))
    }

    @Test("statuses other than DO NOT USE give no reason")
    func noReasonOtherwise() {
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2024-01-01"),
                                          history: [Self.defectDueJanuary], today: day("2026-01-20"))
        #expect(report.reasons.isEmpty)
        #expect(report.reason == nil)
    }

    @Test("a withdrawn asset shows no next due date and no date that matters")
    func withdrawnHasNoDates() {
        let history = [record(1, .thoroughPeriodic, on: "2026-01-10", .defectToBeRemedied, action: .withdraw,
                              deadline: "2026-02-10")]
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-01-01"), history: history,
                                          today: day("2026-03-01"))
        #expect(report.status == .withdrawn)
        #expect(report.nextDue == nil)
        #expect(report.remedyDeadline == nil)
        #expect(report.keyDate == nil)
    }

    @Test("each status explains itself in words, for the history headers",
          arguments: [
            // DO NOT USE: why, and what is due before use, no date still ahead
            ([defect], "2026-07-01", "remedy deadline 2026-02-10 passed · remedy due before use"),
            // REMEDY BY: the earlier date first
            ([defect], "2026-02-01", "remedy by 2026-02-10 · next thorough examination due 2027-01-10"),
            // OK
            ([record(1, .thoroughPeriodic, on: "2026-01-10")], "2026-02-01",
             "next thorough examination due 2027-01-10"),
            // WITHDRAWN: no next due date
            ([record(1, .preUse, on: "2026-01-10", .failDangerous, action: .withdraw)], "2026-02-01",
             "withdrawn from service: no examination due"),
          ] as [([RecordFacts], String, String)])
    func explanation(_ history: [RecordFacts], _ today: String, _ expected: String) {
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-01-01"), history: history,
                                          today: day(today))
        #expect(report.explanation == expected)
        #expect(!report.explanation.contains("due in"))
    }

    @Test("what is due: a date, before use for DO NOT USE (never the day it failed), now for UNTESTED, else nothing",
          arguments: [
            ([record(1, .thoroughPeriodic, on: "2026-01-10", .failDangerous, action: .quarantine)], "2025-01-01",
             DueNext.beforeUse, DueNext.beforeUse, "thorough examination"),
            ([defect], "2025-01-01", DueNext.beforeUse, DueNext.beforeUse, "remedy"),
            ([record(1, .thoroughPeriodic, on: "2026-01-10")], "2025-01-01", DueNext.on(day("2027-01-10")),
             DueNext.on(day("2027-01-10")), "thorough examination"),
            ([record(1, .preUse, on: "2026-01-10", .failDangerous, action: .withdraw)], "2025-01-01", DueNext.nothing,
             DueNext.nothing, "thorough examination"),
            ([], nil, DueNext.now, DueNext.now, "thorough examination"),
          ] as [([RecordFacts], String?, DueNext, DueNext, String)])
    func whatIsDue(_ history: [RecordFacts], _ commissioned: String?, _ due: DueNext, _ examination: DueNext,
                   _ needs: String) {
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: commissioned), history: history,
                                          today: day("2026-07-01"))
        #expect(report.due == due, "\(report.status)")
        #expect(report.examinationDue == examination, "\(report.status)")
        #expect(report.needs == needs)
        if report.status == .doNotUse {
            #expect(report.due.text == "before use" && report.due.date == nil && report.due.word == "before_use")
            #expect(report.explanation.hasSuffix(" · \(needs) due before use"), "\(report.explanation)")
        }
    }

    @Test("REMEDY BY: NEXT DUE is the deadline when earlier; the examination's own date stays for the labels")
    func remedyByDue() {
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: "2025-01-01"), history: [Self.defect],
                                          today: day("2026-02-01"))
        #expect(report.due == .on(day("2026-02-10")) && report.due.text == "2026-02-10")
        #expect(report.examinationDue == .on(day("2027-01-10")))
    }

    @Test("an asset never examined and never commissioned explains that")
    func untestedExplanation() {
        let report = StatusRules.evaluate(asset: sampleAsset(commissioned: nil), history: [], today: day("2026-02-01"))
        #expect(report.explanation == "never examined, no commission date · thorough examination due now")
    }
}
