import Foundation

/// How `ICalendar.document` writes the feed.
public struct ICalendarOptions: Sendable, Hashable {
    /// One display alarm per entry, this many days before the date (0 = at the start of the day).
    /// Negative values are ignored, duplicates collapse, and alarms are written furthest first.
    public var alarmDaysBefore: [Int] = [30, 1]
    /// Leave tags and names out of every summary, description and alarm (what a lock screen shows).
    public var redact = false
    /// One event per day with a count, instead of one event per asset.
    public var digest = false
    public var calendarName = "Rigbook due dates"

    public init(alarmDaysBefore: [Int] = [30, 1], redact: Bool = false, digest: Bool = false,
                calendarName: String = "Rigbook due dates") {
        self.alarmDaysBefore = alarmDaysBefore
        self.redact = redact
        self.digest = digest
        self.calendarName = calendarName
    }
}

/// Due dates as an iCalendar (RFC 5545) feed. The feed is a pure function of the register and
/// today's date: it is rebuilt whole on every export, writes nothing back to the register, and the
/// same register always gives the same UIDs, so a calendar that subscribes to it (and replaces the
/// whole feed) never doubles an event and drops events whose date has moved.
public enum ICalendar {
    /// `kind` for the next thorough examination.
    public static let thoroughKind = "thorough"
    /// `kind` for an open remedy deadline (REMEDY BY, or DO NOT USE after a missed deadline).
    public static let remedyKind = "remedy"
    /// `kind` for a per-day digest event.
    public static let digestKind = "digest"

    /// One VCALENDAR: one all-day VEVENT per asset due date (next thorough examination, or the open
    /// remedy deadline for REMEDY BY / a missed deadline), skipping WITHDRAWN assets and assets with
    /// no date. `generated` is the DTSTAMP (UTC), passed in so output is reproducible.
    public static func document(_ rows: [RegisterRow], today: CalendarDate, generated: Date,
                                options: ICalendarOptions) -> String {
        let entries = self.entries(rows, today: today)
        let stamp = timestamp(generated)
        var lines = [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//Rigbook//Rigbook 0.1//EN",
            "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
            "X-WR-CALNAME:" + escapeText(options.calendarName),
        ]
        let alarms = alarmDays(options.alarmDaysBefore)
        if options.digest {
            var start = 0
            while start < entries.count {
                var end = start + 1
                while end < entries.count, entries[end].date == entries[start].date { end += 1 }
                let group = Array(entries[start..<end])
                lines += event(uid: digestUID(date: group[0].date), stamp: stamp, date: group[0].date,
                               summary: digestSummary(group),
                               description: digestDescription(group, today: today, redact: options.redact),
                               alarms: alarms)
                start = end
            }
        } else {
            for entry in entries {
                lines += event(uid: uid(assetUUID: entry.row.asset.uuid, date: entry.date, kind: entry.kind),
                               stamp: stamp, date: entry.date,
                               summary: summary(entry, redact: options.redact),
                               description: description(entry, today: today, redact: options.redact),
                               alarms: alarms)
            }
        }
        lines.append("END:VCALENDAR")
        return lines.map { fold($0) + "\r\n" }.joined()
    }

    /// "<16 hex digits>@rigbook": FNV-1a 64 of "uuid|YYYY-MM-DD|kind". Stable across exports and
    /// machines; a new date (or kind) gives a new UID.
    public static func uid(assetUUID: UUID, date: CalendarDate, kind: String) -> String {
        hashUID("\(assetUUID.uuidString.lowercased())|\(date.iso)|\(kind)")
    }

    /// The UID of the digest event for a day.
    static func digestUID(date: CalendarDate) -> String {
        hashUID("\(date.iso)|\(digestKind)")
    }

    // MARK: - What goes in the feed

    struct Entry {
        var row: RegisterRow
        var report: StatusReport
        var date: CalendarDate
        var kind: String
        var isRemedy: Bool { kind == ICalendar.remedyKind }
    }

    /// Every asset with a date that matters, sorted by date, then tag (then kind and UUID, so that
    /// equal tags still give one order). The date rule is the one `DueReport` uses.
    static func entries(_ rows: [RegisterRow], today: CalendarDate) -> [Entry] {
        var entries: [Entry] = []
        for row in rows {
            let report = row.status(on: today)
            if report.status == .withdrawn { continue }
            let remedy = report.status == .remedyBy || (report.status == .doNotUse && report.remedyDeadline != nil)
            if remedy, let deadline = report.remedyDeadline {
                entries.append(Entry(row: row, report: report, date: deadline, kind: remedyKind))
            } else if let due = report.nextDue {
                entries.append(Entry(row: row, report: report, date: due, kind: thoroughKind))
            }
        }
        return entries.sorted {
            ($0.date.dayNumber, $0.row.asset.tag, $0.kind, $0.row.asset.uuid.uuidString)
                < ($1.date.dayNumber, $1.row.asset.tag, $1.kind, $1.row.asset.uuid.uuidString)
        }
    }

    static func summary(_ entry: Entry, redact: Bool) -> String {
        let what = entry.isRemedy ? "Remedy deadline" : "Thorough examination due"
        if redact { return what + " (1 item)" }
        return "\(what): \(entry.row.asset.tag) \(entry.row.asset.name)"
    }

    static func description(_ entry: Entry, today: CalendarDate, redact: Bool) -> String {
        let asset = entry.row.asset
        var lines: [String] = []
        if !redact { lines.append("\(asset.tag) \(asset.name)") }
        lines.append("Status on \(today.iso): \(entry.report.status.label)")
        if entry.isRemedy {
            lines.append("Remedy deadline: \(entry.date.iso)")
            if let due = entry.report.nextDue { lines.append("Next thorough examination due: \(due.iso)") }
        } else {
            lines.append("Thorough examination due: \(entry.date.iso)")
        }
        if let last = entry.row.summary.lastThoroughDate {
            lines.append("Last thorough examination: \(last.iso)")
        } else if let commissioned = asset.commissioned {
            lines.append("Commissioned: \(commissioned.iso)")
        }
        lines.append("Type: \(asset.type.label)")
        if !asset.location.isEmpty { lines.append("Location: \(asset.location)") }
        lines.append("WLL: \(Asset.wllText(asset.wllKg))")
        lines.append("Interval: \(asset.intervalMonths) month\(asset.intervalMonths == 1 ? "" : "s")")
        return lines.joined(separator: "\n")
    }

    static func digestSummary(_ group: [Entry]) -> String {
        let remedies = group.filter(\.isRemedy).count
        let thorough = group.count - remedies
        func items(_ n: Int) -> String { "\(n) item\(n == 1 ? "" : "s")" }
        if remedies == 0 { return "\(items(thorough)) due for thorough examination" }
        if thorough == 0 { return "\(items(remedies)) with a remedy deadline" }
        return "\(items(group.count)) due: \(thorough) thorough examination\(thorough == 1 ? "" : "s"), "
            + "\(remedies) remedy deadline\(remedies == 1 ? "" : "s")"
    }

    static func digestDescription(_ group: [Entry], today: CalendarDate, redact: Bool) -> String {
        var lines: [String] = []
        if redact {
            for status in AssetStatus.allCases {
                let count = group.filter { $0.report.status == status }.count
                if count > 0 { lines.append("\(count) \(status.label) on \(today.iso)") }
            }
        } else {
            for entry in group {
                let what = entry.isRemedy ? "remedy deadline" : "thorough examination"
                lines.append("\(entry.row.asset.tag) \(entry.row.asset.name): \(what) (\(entry.report.status.label))")
            }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Writing

    static func event(uid: String, stamp: String, date: CalendarDate, summary: String, description: String,
                      alarms: [Int]) -> [String] {
        var lines = [
            "BEGIN:VEVENT",
            "UID:" + uid,
            "DTSTAMP:" + stamp,
            "DTSTART;VALUE=DATE:" + basicDate(date),
        ]
        // An all-day event ends (exclusively) the next day; past 9999-12-31 there is no date to write.
        if date.year == 9999, date.month == 12, date.day == 31 {
            lines.append("DURATION:P1D")
        } else {
            lines.append("DTEND;VALUE=DATE:" + basicDate(date.addingDays(1)))
        }
        lines += [
            "SUMMARY:" + escapeText(summary),
            "DESCRIPTION:" + escapeText(description),
            "CATEGORIES:Rigbook",
            "TRANSP:TRANSPARENT",
        ]
        for days in alarms {
            lines += [
                "BEGIN:VALARM",
                "ACTION:DISPLAY",
                "TRIGGER:" + (days == 0 ? "PT0S" : "-P\(days)D"),
                "DESCRIPTION:" + escapeText(summary),
                "END:VALARM",
            ]
        }
        lines.append("END:VEVENT")
        return lines
    }

    static func alarmDays(_ days: [Int]) -> [Int] {
        Array(Set(days.filter { $0 >= 0 })).sorted(by: >)
    }

    /// YYYYMMDD.
    static func basicDate(_ date: CalendarDate) -> String {
        date.iso.replacingOccurrences(of: "-", with: "")
    }

    /// yyyyMMdd'T'HHmmss'Z' in UTC, computed from the seconds since 1970 (no locale, no zone).
    static func timestamp(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        var dayNumber = seconds / 86400
        var secondOfDay = seconds % 86400
        if secondOfDay < 0 { secondOfDay += 86400; dayNumber -= 1 }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return basicDate(CalendarDate(dayNumber: dayNumber)) + "T" + two(secondOfDay / 3600)
            + two(secondOfDay / 60 % 60) + two(secondOfDay % 60) + "Z"
    }

    static func hashUID(_ key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "@rigbook"
    }

    /// Folds a content line at 75 octets (RFC 5545 §3.1): CRLF plus one space before each
    /// continuation, the space counting toward the 75. Breaks fall between characters where a
    /// character fits on a line, else between Unicode scalars, so a UTF-8 sequence is never split.
    /// The result has no trailing CRLF.
    static func fold(_ line: String) -> String {
        let limit = 75
        var out = ""
        var used = 0                       // octets on the current physical line
        func append(_ piece: String, octets: Int) {
            if used + octets > limit {
                out += "\r\n "
                used = 1
            }
            out += piece
            used += octets
        }
        for character in line {
            let octets = character.utf8.count
            if octets <= limit - 1 {
                append(String(character), octets: octets)
            } else {
                // A cluster too long for any line (long combining sequence): break between scalars.
                for scalar in character.unicodeScalars {
                    append(String(scalar), octets: String(scalar).utf8.count)
                }
            }
        }
        return out
    }

    /// TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma, and newline (LF, CR LF or a
    /// lone CR) as `\n`. Other control characters, which TEXT cannot carry, are dropped; tab stays.
    static func escapeText(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case ";": out.append(contentsOf: "\\;".unicodeScalars)
            case ",": out.append(contentsOf: "\\,".unicodeScalars)
            case "\r": out.append(contentsOf: "\\n".unicodeScalars)
            case "\n": if !previousWasCR { out.append(contentsOf: "\\n".unicodeScalars) }
            case "\t": out.append(scalar)
            default: if !TextRules.isControl(scalar) { out.append(scalar) }
            }
        }
        return String(out)
    }
}
