import Foundation

/// A calendar date with no time and no zone: inspection, due and deadline dates are local calendar
/// days, so all arithmetic happens on year/month/day, never on seconds.
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// Year, month and day in one word (`year << 9 | month << 5 | day`): a register row holds nine dates, so at
    /// a million assets three `Int`s each would be some 200 MB more; the packing also orders as the date does.
    private let packed: UInt32

    public var year: Int { Int(packed >> 9) }
    public var month: Int { Int(packed >> 5 & 0xF) }
    public var day: Int { Int(packed & 0x1F) }

    /// Returns nil for a date that does not exist (2026-02-30): dates are refused, never clamped.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...CalendarDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        packed = UInt32(year) << 9 | UInt32(month) << 5 | UInt32(day)
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?(iso text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// `YYYY-MM-DD`, always ten ASCII bytes (years are 1...9999), written digit by digit into one small string: the
    /// list formats two dates for the row a ↓ brings in, and three strings joined took 2,600 instructions a date.
    public var iso: String {
        let y = year, m = month, d = day
        return String(unsafeUninitializedCapacity: 10) { bytes in
            let zero = UInt8(ascii: "0"), dash = UInt8(ascii: "-")
            bytes[0] = zero + UInt8(y / 1000)
            bytes[1] = zero + UInt8(y / 100 % 10)
            bytes[2] = zero + UInt8(y / 10 % 10)
            bytes[3] = zero + UInt8(y % 10)
            bytes[4] = dash
            bytes[5] = zero + UInt8(m / 10)
            bytes[6] = zero + UInt8(m % 10)
            bytes[7] = dash
            bytes[8] = zero + UInt8(d / 10)
            bytes[9] = zero + UInt8(d % 10)
            return 10
        }
    }

    public var description: String { iso }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool { a.packed < b.packed }

    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Adds months to this anchor date, clamping to the end of the target month
    /// (31 Aug + 6 months = 28/29 Feb). Always add to the original anchor: chaining drifts.
    public func addingMonths(_ months: Int) -> CalendarDate {
        let zeroBased = year * 12 + (month - 1) + months
        let y = zeroBased / 12, m = zeroBased % 12 + 1
        // Saturate at the ends of the four-digit calendar rather than invent an unwritable date.
        if y > 9999 { return CalendarDate(year: 9999, month: 12, day: 31)! }
        if y < 1 { return CalendarDate(year: 1, month: 1, day: 1)! }
        return CalendarDate(year: y, month: m, day: min(day, CalendarDate.daysIn(month: m, year: y)))!
    }

    /// Days since 1970-01-01 (proleptic Gregorian), for day differences.
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    public init(dayNumber z0: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        // Saturate at the ends of the four-digit calendar, as `addingMonths` does.
        if y > 9999 { self = CalendarDate(year: 9999, month: 12, day: 31)! } else if y < 1 {
            self = CalendarDate(year: 1, month: 1, day: 1)!
        } else {
            packed = UInt32(y) << 9 | UInt32(m) << 5 | UInt32(d)
        }
    }

    public func addingDays(_ days: Int) -> CalendarDate { CalendarDate(dayNumber: dayNumber + days) }

    /// Calendar days from `self` to `other` (positive when `other` is later).
    public func days(until other: CalendarDate) -> Int { other.dayNumber - dayNumber }

    /// Today's date in the local time zone, unless `RIGBOOK_TODAY=YYYY-MM-DD` fixes it.
    public static func today(environment: [String: String] = ProcessInfo.processInfo.environment,
                             now: Date = Date()) -> CalendarDate {
        if let fixed = environment["RIGBOOK_TODAY"], let date = CalendarDate(iso: fixed) { return date }
        return localDay(of: now)
    }

    /// The day `instant` falls on in the local time zone: the clock `today` reads when nothing fixes it.
    public static func localDay(of instant: Date) -> CalendarDate {
        let parts = localCalendar.dateComponents([.year, .month, .day], from: instant)
        return CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!)!
    }

    /// The day a stored timestamp (ISO 8601 in UTC, `2026-11-30T09:00:00.000Z`) falls on by that same clock, so
    /// that it is compared with today in one calendar; nil for text that is no timestamp.
    public init?(dayOfTimestamp text: String) {
        guard let instant = (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text)) else { return nil }
        self = CalendarDate.localDay(of: instant)
    }

    /// `instant` moved by whole local days onto `day`, its time of day kept: the wall clock's now on the day
    /// the program is told it is.
    public static func instant(_ instant: Date, movedOnto day: CalendarDate) -> Date {
        let days = localDay(of: instant).days(until: day)
        guard days != 0 else { return instant }
        return localCalendar.date(byAdding: .day, value: days, to: instant) ?? instant
    }

    private static var localCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        return calendar
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = CalendarDate(iso: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a YYYY-MM-DD date: \(text)")
        }
        self = date
    }
}
