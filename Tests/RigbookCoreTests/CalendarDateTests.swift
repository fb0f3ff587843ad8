import Foundation
import Testing
@testable import RigbookCore

@Suite("CalendarDate: parsing and formatting")
struct CalendarDateParsingTests {
    @Test("valid YYYY-MM-DD parses to its parts",
          arguments: [
            ("2024-02-29", 2024, 2, 29),
            ("2000-02-29", 2000, 2, 29),
            ("2400-02-29", 2400, 2, 29),
            ("2026-01-01", 2026, 1, 1),
            ("2026-12-31", 2026, 12, 31),
            ("2026-04-30", 2026, 4, 30),
            ("1970-01-01", 1970, 1, 1),
            ("0001-01-01", 1, 1, 1),
            ("9999-12-31", 9999, 12, 31),
          ])
    func parsesValid(_ text: String, _ y: Int, _ m: Int, _ d: Int) {
        let date = CalendarDate(iso: text)
        #expect(date?.year == y)
        #expect(date?.month == m)
        #expect(date?.day == d)
        #expect(date == CalendarDate(year: y, month: m, day: d))
    }

    @Test("dates that do not exist and bad shapes are refused",
          arguments: [
            "2026-02-30", "2023-02-29", "1900-02-29", "2100-02-29", "2026-04-31", "2026-06-31",
            "2026-13-01", "2026-00-10", "2026-01-00", "2026-01-32", "0000-01-01",
            "2026-2-01", "2026-02-1", "20260201", "abcd-ef-gh", "", " 2026-02-01", "2026-02-01 ",
            "2026/02/01", "2026-02-01T00:00", "+026-02-01", "-026-02-01", "2026-0a-01", "2026-02-0 ",
            "2026--2-01", "２０２６-02-01", "2026-02-01\n", "26-02-01", "02-01-2026", "2026_02_01",
          ] as [Text])
    func refusesInvalid(_ text: Text) {
        #expect(CalendarDate(iso: text.value) == nil)
    }

    @Test("components that do not exist are refused, never clamped",
          arguments: [(2026, 2, 30), (2023, 2, 29), (1900, 2, 29), (2100, 2, 29), (2026, 13, 1), (2026, 0, 1),
                      (2026, 1, 0), (2026, 1, -1), (0, 1, 1), (10000, 1, 1), (-1, 6, 1), (2026, 11, 31)])
    func refusesComponents(_ y: Int, _ m: Int, _ d: Int) {
        #expect(CalendarDate(year: y, month: m, day: d) == nil)
    }

    @Test("iso round trip", arguments: ["2024-02-29", "2026-01-01", "2026-12-31", "0001-01-01", "0099-09-09",
                                        "0999-10-10", "1900-02-28", "2000-02-29", "9999-12-31"])
    func isoRoundTrip(_ text: String) {
        let date = CalendarDate(iso: text)
        #expect(date?.iso == text)
        #expect(date?.description == text)
    }

    @Test("iso pads every part", arguments: [((5, 3, 7), "0005-03-07"), ((2026, 1, 9), "2026-01-09"),
                                             ((987, 11, 30), "0987-11-30")])
    func isoPads(_ parts: (Int, Int, Int), _ text: String) {
        #expect(CalendarDate(year: parts.0, month: parts.1, day: parts.2)?.iso == text)
    }

    @Test("iso is the parts written with String(_:) and padded, for every day of years short and long")
    func isoMatchesThePartsPadded() {
        func padded(_ value: Int, _ digits: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        for year in [1, 9, 10, 99, 100, 999, 1000, 2000, 2024, 2026, 9999] {
            for month in 1...12 {
                for day in 1...CalendarDate.daysIn(month: month, year: year) {
                    let date = CalendarDate(year: year, month: month, day: day)!
                    #expect(date.iso == "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))")
                }
            }
        }
    }

    @Test("Codable uses the YYYY-MM-DD string")
    func codable() throws {
        let date = day("2028-02-29")
        let data = try JSONEncoder().encode([date])
        #expect(String(decoding: data, as: UTF8.self) == #"["2028-02-29"]"#)
        #expect(try JSONDecoder().decode([CalendarDate].self, from: data) == [date])
    }

    @Test("Codable refuses a date that does not exist",
          arguments: [#"["2026-02-30"]"#, #"["2026-2-1"]"#, #"[20260201]"#])
    func codableRefuses(_ json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([CalendarDate].self, from: Data(json.utf8))
        }
    }

    @Test("order is chronological")
    func ordering() {
        let sorted = ["1999-12-31", "2000-01-01", "2000-01-02", "2000-02-01", "2000-10-01", "2001-01-01"]
            .map { day($0) }
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            #expect(a < b)
            #expect(!(b < a))
        }
        #expect(!(day("2026-05-05") < day("2026-05-05")))
    }

    @Test("leap years", arguments: [(2024, true), (2023, false), (2000, true), (1900, false), (2100, false),
                                    (2400, true), (1600, true), (2028, true), (1, false), (4, true)])
    func leapYears(_ year: Int, _ leap: Bool) {
        #expect(CalendarDate.isLeap(year) == leap)
        #expect(CalendarDate.daysIn(month: 2, year: year) == (leap ? 29 : 28))
    }

    @Test("days in each month of a common year")
    func daysInMonths() {
        #expect((1...12).map { CalendarDate.daysIn(month: $0, year: 2026) }
                == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
    }
}

@Suite("CalendarDate: day numbers and differences")
struct CalendarDateDayNumberTests {
    @Test("known day numbers", arguments: [
        ("1970-01-01", 0), ("1969-12-31", -1), ("1970-01-02", 1), ("2000-01-01", 10957),
        ("2000-02-29", 11016), ("2000-03-01", 11017), ("1900-01-01", -25567), ("1900-02-28", -25509),
        ("1900-03-01", -25508), ("2024-02-29", 19782), ("2026-02-01", 20485), ("1600-02-29", -135081),
        ("2400-02-29", 157113), ("0001-01-01", -719162), ("9999-12-31", 2932896),
    ])
    func knownDayNumbers(_ text: String, _ number: Int) {
        #expect(day(text).dayNumber == number)
        #expect(CalendarDate(dayNumber: number) == day(text))
    }

    /// Every day from 1887 to 2052 (covering 1900 and 2000): dayNumber ↔ date round trip, each date
    /// valid, each the calendar successor of the day before.
    @Test("dayNumber round trip over a range of days")
    func roundTripRange() {
        var previous = CalendarDate(dayNumber: -30_001)
        var failures = 0
        for n in -30_000...30_000 {
            let date = CalendarDate(dayNumber: n)
            var ok = date.dayNumber == n
                && CalendarDate(year: date.year, month: date.month, day: date.day) == date
            // Successor: next day in the month, or the 1st of the next month / year.
            if previous.day < CalendarDate.daysIn(month: previous.month, year: previous.year) {
                ok = ok && date.year == previous.year && date.month == previous.month && date.day == previous.day + 1
            } else if previous.month < 12 {
                ok = ok && date.year == previous.year && date.month == previous.month + 1 && date.day == 1
            } else {
                ok = ok && date.year == previous.year + 1 && date.month == 1 && date.day == 1
            }
            if !ok {
                failures += 1
                if failures <= 5 { Issue.record("day \(n) → \(date.iso) (previous \(previous.iso))") }
            }
            previous = date
        }
        #expect(failures == 0)
    }

    /// An independent oracle: Foundation's Gregorian calendar in UTC (proleptic only after 1582, so the
    /// range starts in 1614).
    @Test("dayNumber agrees with Foundation's calendar",
          arguments: Array(stride(from: -130_000, through: 200_000, by: 997)) + [0, 10957, 11016, -25509])
    func agreesWithFoundation(_ n: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let instant = Date(timeIntervalSince1970: Double(n) * 86_400)
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        let date = CalendarDate(dayNumber: n)
        #expect([date.year, date.month, date.day] == [parts.year, parts.month, parts.day])
    }

    @Test("a date is one 4-byte word, and day numbers past the calendar's ends saturate")
    func packedAndSaturating() {
        // A register row holds nine dates: at a million assets their size is the list's memory.
        #expect(MemoryLayout<CalendarDate>.size == 4)
        #expect(CalendarDate(dayNumber: 2_932_897) == day("9999-12-31"))
        #expect(CalendarDate(dayNumber: -719_163) == day("0001-01-01"))
        #expect(day("9999-12-31").addingDays(400) == day("9999-12-31"))
        #expect(day("0001-01-01") < day("0001-01-02") && day("2026-12-31") < day("2027-01-01"))
    }

    @Test("leap centuries: 2000-02-29 exists, 1900-02-29 does not")
    func leapCenturies() {
        #expect(day("2000-02-28").addingDays(1) == day("2000-02-29"))
        #expect(day("2000-02-29").addingDays(1) == day("2000-03-01"))
        #expect(day("1900-02-28").addingDays(1) == day("1900-03-01"))
        #expect(day("2100-03-01").addingDays(-1) == day("2100-02-28"))
        #expect(CalendarDate(iso: "2000-02-29") != nil)
        #expect(CalendarDate(iso: "1900-02-29") == nil)
    }

    @Test("days(until:)", arguments: [
        ("2026-01-01", "2026-01-01", 0), ("2026-01-01", "2026-01-02", 1), ("2026-01-02", "2026-01-01", -1),
        ("2026-01-01", "2026-12-31", 364), ("2024-01-01", "2024-12-31", 365), ("2026-01-01", "2027-01-01", 365),
        ("1999-12-31", "2000-03-01", 61), ("1900-02-28", "1900-03-01", 1), ("2026-02-13", "2026-03-15", 30),
        ("2026-02-12", "2026-03-15", 31), ("2026-03-16", "2026-03-15", -1), ("1970-01-01", "2000-01-01", 10957),
        ("2028-01-30", "2028-02-29", 30),
    ])
    func daysUntil(_ from: String, _ to: String, _ count: Int) {
        #expect(day(from).days(until: day(to)) == count)
        #expect(day(to).days(until: day(from)) == -count)
        #expect(day(from).addingDays(count) == day(to))
    }
}

@Suite("CalendarDate: month arithmetic")
struct MonthArithmeticTests {
    @Test("adding months clamps to the end of the target month", arguments: [
        ("2025-08-31", 6, "2026-02-28"),   // 31 Aug + 6 months, non-leap
        ("2027-08-31", 6, "2028-02-29"),   // 31 Aug + 6 months, leap year
        ("2028-02-29", 12, "2029-02-28"),
        ("2028-02-29", 48, "2032-02-29"),
        ("2028-01-31", 1, "2028-02-29"),
        ("2026-01-31", 1, "2026-02-28"),
        ("2099-08-31", 6, "2100-02-28"),   // 2100 is not a leap year
        ("2399-08-31", 6, "2400-02-29"),   // 2400 is
        ("2026-10-31", 1, "2026-11-30"),
        ("2026-03-31", 1, "2026-04-30"),
        ("2026-05-31", 4, "2026-09-30"),
        ("2026-11-30", 3, "2027-02-28"),
        ("2026-12-31", 2, "2027-02-28"),
        ("2026-12-15", 1, "2027-01-15"),
        ("2026-12-31", 12, "2027-12-31"),
        ("2026-01-15", 11, "2026-12-15"),
        ("2026-01-15", 12, "2027-01-15"),
        ("2026-03-31", 60, "2031-03-31"),
        ("2026-02-28", 6, "2026-08-28"),
        ("2026-05-31", 0, "2026-05-31"),
    ])
    func addingMonths(_ anchor: String, _ months: Int, _ expected: String) {
        #expect(day(anchor).addingMonths(months) == day(expected))
    }

    @Test("adding to the anchor does not drift: 31 Aug keeps coming back as 31 Aug", arguments: 1...10)
    func noDrift(_ periods: Int) {
        let anchor = day("2025-08-31")
        let due = anchor.addingMonths(6 * periods)
        let expectedMonth = periods.isMultiple(of: 2) ? 8 : 2
        let expectedYear = 2025 + (periods + 1) / 2
        #expect(due.year == expectedYear)
        #expect(due.month == expectedMonth)
        #expect(due.day == (expectedMonth == 8 ? 31 : CalendarDate.daysIn(month: 2, year: expectedYear)))
    }

    @Test("the due date is added to the anchor, not chained through clamped due dates")
    func dueFromAnchor() {
        // 31 Aug 2025 + 12 months is 31 Aug 2026, although 31 Aug + 6 = 28 Feb and 28 Feb + 6 = 28 Aug.
        let summary = HistorySummary(history: [record(1, .thoroughPeriodic, on: "2025-08-31")])
        #expect(StatusRules.nextDue(intervalMonths: 12, commissioned: nil, summary: summary) == day("2026-08-31"))
        #expect(StatusRules.nextDue(intervalMonths: 6, commissioned: nil, summary: summary) == day("2026-02-28"))
        #expect(day("2025-08-31").addingMonths(6).addingMonths(6) == day("2026-08-28"))   // what chaining would give
        let commissioned = StatusRules.evaluate(intervalMonths: 12, commissioned: day("2025-08-31"),
                                                summary: .empty, today: day("2026-08-29"))
        #expect(commissioned.nextDue == day("2026-08-31"))
        #expect(commissioned.status == .dueSoon)
    }
}

@Suite("CalendarDate: today")
struct TodayTests {
    /// 2026-06-15 12:00 UTC: the same calendar day, or at most one day off, in any time zone.
    static let noon = Date(timeIntervalSince1970: 1_781_524_800)

    @Test("RIGBOOK_TODAY fixes today", arguments: ["2026-03-15", "2028-02-29", "1999-12-31"])
    func fixed(_ text: String) {
        #expect(CalendarDate.today(environment: ["RIGBOOK_TODAY": text], now: Self.noon) == day(text))
        #expect(CalendarDate.today(environment: ["RIGBOOK_TODAY": text, "HOME": "/tmp"],
                                   now: Date(timeIntervalSince1970: 0)) == day(text))
    }

    @Test("without a valid RIGBOOK_TODAY, today comes from the clock",
          arguments: [[:], ["RIGBOOK_TODAY": ""], ["RIGBOOK_TODAY": "2026-02-30"], ["RIGBOOK_TODAY": "tomorrow"],
                      ["rigbook_today": "2026-03-15"]] as [[String: String]])
    func fallsBackToClock(_ environment: [String: String]) {
        let today = CalendarDate.today(environment: environment, now: Self.noon)
        #expect(abs(today.days(until: day("2026-06-15"))) <= 1, "got \(today.iso)")
    }

    @Test("the noon constant is what the test thinks it is")
    func noonConstant() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour], from: Self.noon)
        #expect([parts.year, parts.month, parts.day, parts.hour] == [2026, 6, 15, 12])
    }
}
