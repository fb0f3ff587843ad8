import Foundation
import Testing
@testable import RigbookCore

// MARK: - Fixture

private enum Due {
    static let today = day("2026-11-30")

    static func uuid(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!
    }

    static func row(_ n: Int, _ tag: String, commissioned: String? = "2026-01-01", interval: Int = 12,
                    _ history: [RecordFacts] = []) -> RegisterRow {
        let asset = Asset(uuid: uuid(n), tag: tag, name: "Asset \(tag)", type: .other, wllKg: 1000, lengthM: nil,
                          location: "Yard", manufacturer: "", serialNumber: "", manufactured: nil,
                          commissioned: optionalDay(commissioned), intervalMonths: interval, liftsPersons: false)
        return RegisterRow(asset: asset, summary: HistorySummary(history: history))
    }

    /// Every status on 2026-11-30; in each listed pair the later tag falls due first.
    static let rows: [RegisterRow] = [
        row(1, "OK-1", commissioned: "2026-06-01"),                                   // OK, due 2027-06-01
        row(2, "UT-1", commissioned: nil),                                            // UNTESTED
        row(3, "DS-1", commissioned: "2025-12-15"),                                   // DUE SOON 2026-12-15
        row(4, "DS-2", commissioned: "2025-12-05"),                                   // DUE SOON 2026-12-05
        row(5, "OV-1", commissioned: "2025-11-01"),                                   // OVERDUE 2026-11-01
        row(6, "OV-2", commissioned: "2025-10-15"),                                   // OVERDUE 2026-10-15
        row(7, "RB-1", [record(71, .thoroughPeriodic, on: "2026-11-25", .defectToBeRemedied, action: .repair,
                               deadline: "2026-12-20")]),                             // REMEDY BY 2026-12-20
        row(8, "RB-2", [record(81, .thoroughPeriodic, on: "2026-11-26", .defectToBeRemedied, action: .repair,
                               deadline: "2026-12-10")]),                             // REMEDY BY 2026-12-10
        row(9, "DN-1", [record(91, .thoroughPeriodic, on: "2026-11-20", .failDangerous, action: .quarantine)]),
        row(10, "DN-2", [record(101, .thoroughPeriodic, on: "2026-10-01", .defectToBeRemedied, action: .repair,
                                deadline: "2026-11-15")]),                            // DO NOT USE: deadline missed
        row(11, "QU-1", [record(111, .thoroughPeriodic, on: "2026-11-20", .passWithObservations, action: .quarantine)]),
        row(12, "WD-1", [record(121, .thoroughPeriodic, on: "2026-11-20", .passWithObservations, action: .withdraw)]),
    ]
}

struct DueBoundaryCase: Sendable, CustomTestStringConvertible {
    let label: String
    let commissioned: String
    let interval: Int
    let today: String
    let status: AssetStatus?
    let days: Int?
    let when: String?
    var testDescription: String { label }
}

/// Cases for an asset commissioned on `commissioned` with an `interval`-month interval, never examined:
/// each is a label, the day it is judged on and what that day should give.
private func boundaries(commissioned: String, interval: Int,
                        _ cases: [(label: String, today: String, status: AssetStatus?, days: Int?, when: String?)])
    -> [DueBoundaryCase] {
    cases.map {
        DueBoundaryCase(label: $0.label, commissioned: commissioned, interval: interval, today: $0.today,
                        status: $0.status, days: $0.days, when: $0.when)
    }
}

private let boundaryCases = boundaries(commissioned: "2025-12-15", interval: 12, [
    ("due − 31", "2026-11-14", nil, nil, nil),
    ("due − 30", "2026-11-15", .dueSoon, 30, "due in 30 days"),
    ("due − 1", "2026-12-14", .dueSoon, 1, "due in 1 day"),
    ("due day", "2026-12-15", .dueSoon, 0, "due today"),
    ("due + 1", "2026-12-16", .overdue, -1, "due 1 day ago"),
    ("due + 2", "2026-12-17", .overdue, -2, "due 2 days ago"),
]) + boundaries(commissioned: "2026-08-31", interval: 6, [
    // 31 Aug + 6 months = 28 Feb 2027.
    ("clamped: due − 31", "2027-01-28", nil, nil, nil),
    ("clamped: due − 30", "2027-01-29", .dueSoon, 30, "due in 30 days"),
    ("clamped: 28 Feb", "2027-02-28", .dueSoon, 0, "due today"),
    ("clamped: 1 Mar", "2027-03-01", .overdue, -1, "due 1 day ago"),
])

// MARK: - Tests

@Suite("DueReport")
struct DueReportTests {
    @Test("most urgent first, earliest date first within a status, not-for-attention statuses left out")
    func ordering() {
        let items = DueReport.items(Due.rows, today: Due.today)
        #expect(items.map(\.row.asset.tag)
                == ["DN-2", "DN-1", "OV-2", "OV-1", "RB-2", "RB-1", "DS-2", "DS-1", "UT-1"])
        #expect(items.map(\.status)
                == [.doNotUse, .doNotUse, .overdue, .overdue, .remedyBy, .remedyBy, .dueSoon, .dueSoon, .untested])
        // DN-1's date is the day it failed dangerous, no longer its examination a year ahead.
        #expect(items.map { $0.date?.iso ?? "-" } == ["2026-11-15", "2026-11-20", "2026-10-15", "2026-11-01",
                                                       "2026-12-10", "2026-12-20", "2026-12-05", "2026-12-15", "-"])
        #expect(items.map { $0.days ?? 999 } == [-15, -10, -46, -29, 10, 20, 5, 15, 999])
        // The input order does not matter.
        #expect(DueReport.items(Due.rows.reversed(), today: Due.today) == items)
    }

    @Test("each item carries the one status function's verdict")
    func oneStatusFunction() {
        for offset in stride(from: -400, through: 400, by: 7) {
            let today = Due.today.addingDays(offset)
            for item in DueReport.items(Due.rows, today: today, within: 45) {
                #expect(item.report == item.row.status(on: today), "\(item.row.asset.tag) on \(today.iso)")
                #expect(item.days == item.date.map { today.days(until: $0) })
            }
            // Exactly the rows that need attention, plus DUE SOON / OK within the horizon, are listed.
            let listed = Set(DueReport.items(Due.rows, today: today, within: 45).map(\.row.asset.tag))
            for row in Due.rows {
                let report = row.status(on: today)
                let days = report.nextDue.map { today.days(until: $0) }
                let expected = DueReport.urgent.contains(report.status)
                    || ((report.status == .dueSoon || report.status == .ok) && days.map { $0 >= 0 && $0 <= 45 } == true)
                #expect(listed.contains(row.asset.tag) == expected,
                        "\(row.asset.tag) on \(today.iso): \(report.status)")
            }
        }
    }

    @Test("QUARANTINED, WITHDRAWN and OK are not listed by default")
    func leftOut() {
        let tags = Set(DueReport.items(Due.rows, today: Due.today).map(\.row.asset.tag))
        for tag in ["QU-1", "WD-1", "OK-1"] { #expect(!tags.contains(tag), "\(tag)") }
        let statuses = Dictionary(uniqueKeysWithValues: Due.rows.map {
            ($0.asset.tag, $0.status(on: Due.today).status)
        })
        #expect(statuses["QU-1"] == .quarantined && statuses["WD-1"] == .withdrawn && statuses["UT-1"] == .untested
                && statuses["OK-1"] == .ok)
    }

    @Test("the date is the remedy deadline for REMEDY BY and a missed deadline, the fail for a Fail, else the due date")
    func itemDate() throws {
        let items = Dictionary(uniqueKeysWithValues: DueReport.items(Due.rows, today: Due.today).map {
            ($0.row.asset.tag, $0)
        })
        #expect(items["RB-1"]?.date == day("2026-12-20"))
        #expect(items["DN-2"]?.date == day("2026-11-15"))
        #expect(items["DN-2"]?.report.nextDue == day("2027-10-01"))
        #expect(items["DN-1"]?.date == day("2026-11-20"))
        #expect(items["DN-1"]?.report.nextDue == day("2027-11-20"))
        #expect(items["OV-1"]?.date == day("2026-11-01"))
        #expect(DueReport.when(try #require(items["DN-2"])) == "remedy deadline 2026-11-15 passed")
        #expect(DueReport.when(try #require(items["RB-2"])) == "remedy deadline in 10 days")
        // DO NOT USE says why, never "due in 355 days".
        #expect(DueReport.when(try #require(items["DN-1"]))
                == "failed dangerous on 2026-11-20, not cleared by a thorough examination")
        #expect(DueReport.when(try #require(items["OV-2"])) == "due 46 days ago")
    }

    @Test("UNTESTED is listed whatever the horizon, due now: never examined, or an electrical item never tested")
    func untestedIsDueNow() throws {
        var drill = Due.row(13, "TT-1", commissioned: nil)
        drill.asset.electrical = ElectricalParticulars(equipmentClass: .classI, environment: .factory)
        for within in [nil, 0, 45] {
            let items = DueReport.items(Due.rows + [drill], today: Due.today, within: within)
            let untested = items.filter { $0.status == .untested }
            #expect(untested.map(\.row.asset.tag) == ["TT-1", "UT-1"], "within \(within ?? -1)")
            #expect(untested.map(DueReport.when) == ["never tested", "never examined"])
            #expect(untested.map(DueReport.what) == ["test", "thorough examination"])
        }
        #expect(AssetStatus.untested.needsAttention)
        #expect(DueReport.summary(DueReport.items([drill], today: Due.today), today: Due.today)
                == "1 UNTESTED as of 2026-11-30.")
    }

    @Test("equal dates fall back to tag order")
    func tagTieBreak() {
        let rows = [Due.row(1, "B-1", commissioned: "2025-11-01"), Due.row(2, "A-1", commissioned: "2025-11-01"),
                    Due.row(3, "C-1", commissioned: "2025-11-01")]
        #expect(DueReport.items(rows, today: Due.today).map(\.row.asset.tag) == ["A-1", "B-1", "C-1"])
    }

    @Test("boundary days", arguments: boundaryCases)
    func boundary(_ c: DueBoundaryCase) {
        let rows = [Due.row(1, "BD-1", commissioned: c.commissioned, interval: c.interval)]
        let items = DueReport.items(rows, today: day(c.today))
        if let status = c.status {
            #expect(items.count == 1)
            #expect(items.first?.status == status)
            #expect(items.first?.days == c.days)
            #expect(items.first.map(DueReport.when) == c.when)
        } else {
            #expect(items.isEmpty)
            #expect(rows[0].status(on: day(c.today)).status == .ok)
        }
    }

    @Test("within: the horizon for DUE SOON and OK items, never for urgent ones")
    func within() {
        let five = DueReport.items(Due.rows, today: Due.today, within: 5).map(\.row.asset.tag)
        #expect(five == ["DN-2", "DN-1", "OV-2", "OV-1", "RB-2", "RB-1", "DS-2", "UT-1"])
        let zero = DueReport.items(Due.rows, today: Due.today, within: 0).map(\.row.asset.tag)
        #expect(zero == ["DN-2", "DN-1", "OV-2", "OV-1", "RB-2", "RB-1", "UT-1"])
        #expect(DueReport.items(Due.rows, today: day("2026-12-05"), within: 0).contains { $0.row.asset.tag == "DS-2" })
        // 45 days ahead: an OK asset due 2027-01-14 joins, with its status still OK.
        let okSoon = Due.row(20, "OK-2", commissioned: "2026-01-14")
        let sixty = DueReport.items(Due.rows + [okSoon], today: Due.today, within: 60).filter { $0.status == .ok }
        #expect(sixty.map(\.row.asset.tag) == ["OK-2"])
        #expect(sixty.last?.days == 45)
        let fortyFour = DueReport.items(Due.rows + [okSoon], today: Due.today, within: 44)
        #expect(!fortyFour.contains { $0.row.asset.tag == "OK-2" })
    }

    @Test("by default each asset's own DUE SOON window: a monthly item 20 days from due is not listed")
    func defaultIsTheDueSoonWindow() {
        let monthly = Due.row(30, "MO-1", commissioned: "2026-11-20", interval: 1)        // due 2026-12-20
        #expect(monthly.status(on: Due.today).status == .ok)
        #expect(DueReport.items([monthly], today: Due.today).isEmpty)
        #expect(DueReport.items([monthly], today: day("2026-12-13")).map(\.status) == [.dueSoon])   // due − 7
        #expect(DueReport.items([monthly], today: Due.today, within: 30).map(\.days) == [20])
    }

    @Test("summary: counts in attention order, or nothing")
    func summary() {
        #expect(DueReport.summary([], today: Due.today) == "Nothing needs attention as of 2026-11-30.")
        #expect(DueReport.summary(DueReport.items(Due.rows, today: Due.today), today: Due.today)
                == "2 DO NOT USE, 2 OVERDUE, 2 REMEDY BY, 2 DUE SOON, 1 UNTESTED as of 2026-11-30.")
        let one = DueReport.items([Due.row(1, "OV-1", commissioned: "2025-11-01")], today: Due.today)
        #expect(DueReport.summary(one, today: Due.today) == "1 OVERDUE as of 2026-11-30.")
        #expect(DueReport.items([], today: Due.today).isEmpty)
    }
}
