import Foundation

/// How `ICalendar.document` writes the feed.
public struct ICalendarOptions: Sendable, Hashable {
    /// One display alarm per entry, this many days before the date (0 = at the start of the day).
    /// Negative values are ignored, duplicates collapse, and alarms are written furthest first.
    public var alarmDaysBefore: [Int] = [30, 1]
    /// Leave tags, names (and the equipment type, which is often the name) out of every summary,
    /// description and alarm: what a lock screen or a shared calendar shows.
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
    /// `kind` for an open remedy deadline, passed or not.
    public static let remedyKind = "remedy"
    /// `kind` for a per-day digest event.
    public static let digestKind = "digest"

    /// One VCALENDAR: one all-day VEVENT per open date of an asset (its next thorough examination, and
    /// its remedy deadline while one is open, passed or not), none for WITHDRAWN assets. A DO NOT USE
    /// asset's examination is due before use, no date: it has no examination event
    /// (`StatusReport.examinationDue`). `generated` is
    /// the DTSTAMP (UTC), passed in so output is reproducible.
    public static func document(_ rows: [RegisterRow], today: CalendarDate, generated: Date,
                                options: ICalendarOptions) -> String {
        var out = ""
        try? write(from: RowsInMemory(rows), today: today, generated: generated, options: options) { out += $0 }
        return out
    }

    /// The feed `document` makes, written in pieces of about 64 KB to `write` as it is made, in bounded memory:
    /// a first read of `source` keeps a key per event (`CalendarKey`), the keys are sorted, and a
    /// second read fetches each event's row by uuid in that order. Run it on one read snapshot of the register.
    public static func write(from source: some RowSource, today: CalendarDate, generated: Date,
                             options: ICalendarOptions, to write: (String) throws -> Void) throws {
        // An asset has at most two open dates: room for both, of which only the used part is touched.
        var order = RowOrder<CalendarKey>(reservingCapacity: 2 * (try source.rowCountBound()))
        try source.forEachRow { row in
            let report = row.status(on: today)
            if let due = report.examinationDue.date { order.append(CalendarKey(row, date: due, isRemedy: false)) }
            if let deadline = report.remedyDeadline { order.append(CalendarKey(row, date: deadline, isRemedy: true)) }
        }
        order.sort(by: CalendarKey.inFeedOrder)

        let stamp = timestamp(generated)
        var out = ""
        out.reserveCapacity(1 << 17)
        func flushIfLarge() throws {
            guard out.utf8.count >= 1 << 16 else { return }
            try write(out)
            out.removeAll(keepingCapacity: true)
        }
        for line in ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Rigbook//Rigbook 0.1//EN", "CALSCALE:GREGORIAN",
                     "METHOD:PUBLISH", "X-WR-CALNAME:" + escapeText(options.calendarName)] {
            self.write(line, to: &out)
        }
        let alarms = alarmDays(options.alarmDaysBefore)
        // A digest's event is one day's entries: only that day's are held.
        var day: [Entry] = []
        func writeDigest() throws {
            guard let date = day.first?.date else { return }
            writeEvent(uid: digestUID(date: date), stamp: stamp, date: date, summary: digestSummary(day),
                       description: digestDescription(day, today: today, redact: options.redact),
                       alarms: alarms, to: &out)
            day.removeAll(keepingCapacity: true)
            try flushIfLarge()
        }
        try order.forEachRow(from: source) { key, row in
            let report = row.status(on: today)
            guard let date = key.isRemedy ? report.remedyDeadline : report.examinationDue.date else { return }
            let entry = Entry(row: row, report: report, date: date, kind: key.isRemedy ? remedyKind : thoroughKind)
            if options.digest {
                if let first = day.first, first.date != date { try writeDigest() }
                day.append(entry)
            } else {
                writeEvent(uid: uid(assetUUID: row.asset.uuid, date: date, kind: entry.kind), stamp: stamp,
                           date: date, summary: summary(entry, redact: options.redact),
                           description: description(entry, today: today, redact: options.redact),
                           alarms: alarms, to: &out)
                try flushIfLarge()
            }
        }
        try writeDigest()
        self.write("END:VCALENDAR", to: &out)
        try write(out)
    }

    /// "<16 hex digits>@rigbook": FNV-1a 64 of "uuid|YYYY-MM-DD|kind". Stable across exports and
    /// machines; a new date (or kind) gives a new UID.
    public static func uid(assetUUID: UUID, date: CalendarDate, kind: String) -> String {
        hashUID("\(assetUUID.uuidString.lowercased())|\(date.iso)|\(kind)")
    }

    static func digestUID(date: CalendarDate) -> String { hashUID("\(date.iso)|\(digestKind)") }

    // MARK: - What goes in the feed

    struct Entry {
        var row: RegisterRow
        var report: StatusReport
        var date: CalendarDate
        var kind: String
        var isRemedy: Bool { kind == ICalendar.remedyKind }
    }

    /// What the feed keeps of an event between its two reads: what orders it, and the asset's uuid.
    struct CalendarKey: RowKey {
        var tag: String
        var uuid: UUID
        var day: Int32
        var isRemedy: Bool

        init(_ row: RegisterRow, date: CalendarDate, isRemedy: Bool) {
            tag = row.asset.tag
            uuid = row.asset.uuid
            day = Int32(date.dayNumber)
            self.isRemedy = isRemedy
        }

        /// By date, then tag, then kind ("remedy" before "thorough"), then uuid, so that equal tags still give
        /// one order: the same events in any order of rows give the same feed.
        static func inFeedOrder(_ a: CalendarKey, _ b: CalendarKey) -> Bool {
            if a.day != b.day { return a.day < b.day }
            if a.tag != b.tag { return a.tag < b.tag }
            if a.isRemedy != b.isRemedy { return a.isRemedy }
            return a.uuid.uuidString < b.uuid.uuidString
        }
    }

    static func summary(_ entry: Entry, redact: Bool) -> String {
        let what = entry.isRemedy ? "Remedy deadline" : entry.row.asset.kind.dueTitle
        if redact { return what + " (1 item)" }
        return "\(what): \(entry.row.asset.tag) \(entry.row.asset.name)"
    }

    static func description(_ entry: Entry, today: CalendarDate, redact: Bool) -> String {
        let asset = entry.row.asset
        var lines: [String] = []
        if !redact { lines.append("\(asset.tag) \(asset.name)") }
        lines.append("Status on \(today.iso): \(entry.report.status.label)")
        if let reason = entry.report.reason { lines.append("Do not use: \(reason)") }
        let kind = asset.kind
        if entry.isRemedy {
            lines.append("Remedy deadline: \(entry.date.iso)")
            let due = entry.report.examinationDue
            if due != .nothing { lines.append("Next \(kind.dueWhat) due: \(due.text)") }
        } else {
            lines.append("\(kind.dueTitle): \(entry.date.iso)")
            if let deadline = entry.report.remedyDeadline { lines.append("Remedy deadline: \(deadline.iso)") }
        }
        if let last = entry.row.summary.lastThoroughDate {
            lines.append("\(kind.lastTitle): \(last.iso)")
        } else if let commissioned = asset.commissioned {
            lines.append("Commissioned: \(commissioned.iso)")
        }
        // The type often is the name ("Hook"), so a redacted feed leaves it out with the name.
        if !redact { lines.append("Type: \(asset.typeLabel)") }
        if !asset.location.isEmpty { lines.append("Location: \(asset.location)") }
        // An electrical item has no working load limit: its environment instead (never "0 kg").
        if let electrical = asset.electrical {
            lines.append("Environment: \(electrical.environment.label) (AS/NZS 3760)")
        } else {
            lines.append("WLL: \(Asset.wllText(asset.wllKg))")
        }
        lines.append("Interval: \(asset.intervalMonths) month\(asset.intervalMonths == 1 ? "" : "s")")
        return lines.joined(separator: "\n")
    }

    static func digestSummary(_ group: [Entry]) -> String {
        let remedies = group.filter(\.isRemedy).count
        let tests = group.filter { !$0.isRemedy && $0.row.asset.isElectrical }.count
        let thorough = group.count - remedies - tests
        func items(_ n: Int) -> String { "\(n) item\(n == 1 ? "" : "s")" }
        if remedies == 0 && tests == 0 { return "\(items(thorough)) due for thorough examination" }
        if thorough == 0 && tests == 0 { return "\(items(remedies)) with a remedy deadline" }
        if thorough == 0 && remedies == 0 { return "\(items(tests)) due for test and tag" }
        let parts = [(thorough, "thorough examination"), (tests, "test"), (remedies, "remedy deadline")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        return "\(items(group.count)) due: " + parts.joined(separator: ", ")
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
                let what = entry.isRemedy ? "remedy deadline" : entry.row.asset.kind.dueWhat
                lines.append("\(entry.row.asset.tag) \(entry.row.asset.name): \(what) (\(entry.report.status.label))")
            }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Writing

    /// One content line, folded, with its CRLF.
    static func write(_ line: String, to out: inout String) {
        out += fold(line)
        out += "\r\n"
    }

    static func writeEvent(uid: String, stamp: String, date: CalendarDate, summary: String, description: String,
                           alarms: [Int], to out: inout String) {
        // An all-day event ends (exclusively) the next day; past 9999-12-31 there is no date to write.
        let end = date.year == 9999 && date.month == 12 && date.day == 31 ? "DURATION:P1D"
            : "DTEND;VALUE=DATE:" + basicDate(date.addingDays(1))
        let summary = escapeText(summary)
        var lines = ["BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:" + stamp, "DTSTART;VALUE=DATE:" + basicDate(date), end,
                     "SUMMARY:" + summary, "DESCRIPTION:" + escapeText(description), "CATEGORIES:Rigbook",
                     "TRANSP:TRANSPARENT"]
        for days in alarms {
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:" + (days == 0 ? "PT0S" : "-P\(days)D"),
                      "DESCRIPTION:" + summary, "END:VALARM"]
        }
        for line in lines + ["END:VEVENT"] { write(line, to: &out) }
    }

    static func alarmDays(_ days: [Int]) -> [Int] { Array(Set(days.filter { $0 >= 0 })).sorted(by: >) }

    /// YYYYMMDD.
    static func basicDate(_ date: CalendarDate) -> String {
        var text = date.iso
        text.removeAll { $0 == "-" }
        return text
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
    /// continuation, the space counting toward the 75. Works on the UTF-8 octets and breaks only
    /// where a Unicode scalar starts, so a multi-byte sequence is never split, and never inside a
    /// TEXT escape such as `\n` (legal, but some readers trip on it). The result has no trailing CRLF.
    static func fold(_ line: String) -> String {
        let limit = 75
        if line.utf8.count <= limit { return line }
        let bytes = Array(line.utf8)
        func scalarLength(_ lead: UInt8) -> Int {
            switch lead {
            case ..<0xC0: 1
            case ..<0xE0: 2
            case ..<0xF0: 3
            default: 4
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / (limit - 1) * 3 + 3)
        var used = 0                       // octets on the current physical line
        var i = 0
        while i < bytes.count {
            var length = scalarLength(bytes[i])
            if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count { length += scalarLength(bytes[i + 1]) }
            length = min(length, bytes.count - i)
            if used + length > limit {
                out += [13, 10, 32]
                used = 1
            }
            out += bytes[i..<(i + length)]
            used += length
            i += length
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma, and newline (LF, CR LF or a
    /// lone CR) as `\n`. Other control characters (C0, DEL, C1), which TEXT cannot carry, are
    /// dropped; tab stays. Works on the UTF-8 octets: every byte it looks at is ASCII or the lead
    /// byte 0xC2 of a C1 control, so no multi-byte sequence is cut.
    static func escapeText(_ text: String) -> String {
        let bytes = Array(text.utf8)
        func special(_ i: Int) -> Bool {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","), 0x7F: return true
            case 0x09: return false
            case ..<0x20: return true
            case 0xC2: return i + 1 < bytes.count && (0x80...0x9F).contains(bytes[i + 1])
            default: return false
            }
        }
        guard bytes.indices.contains(where: special) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            defer { i += 1 }
            guard special(i) else { out.append(byte); continue }
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","):
                out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                if byte == UInt8(ascii: "\r"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\n") { i += 1 }
            case 0xC2:
                i += 1                     // a C1 control: drop both of its octets
            default:
                break                      // another control character: dropped
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
