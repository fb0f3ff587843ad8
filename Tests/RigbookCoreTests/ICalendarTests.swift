import Foundation
import Testing
@testable import RigbookCore

// MARK: - A small register

private let today = day("2026-03-01")
/// 2026-03-01T08:30:00Z.
private let generated = Date(timeIntervalSince1970: 1_772_353_800)

private func uuid(_ last: Int) -> UUID {
    let hex = String(last, radix: 16)
    return UUID(uuidString: "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - hex.count) + hex)!
}

/// DUE SOON: examined 2025-09-10 every 6 months, due 2026-03-10.
private func sling(lastThorough: String = "2025-09-10") -> RegisterRow {
    RegisterRow(asset: Asset(uuid: uuid(0x42), tag: "SL-0042", name: "2 t web sling, 3 m", type: .webSling,
                             wllKg: 2000, lengthM: 3, location: "Bay 4", commissioned: day("2025-03-01"),
                             intervalMonths: 6),
                summary: HistorySummary(lastThoroughDate: day(lastThorough), lastThoroughResult: .pass,
                                        latestResult: .pass, latestAction: Optional.none, recordCount: 1))
}

/// REMEDY BY 2026-03-10 (the same day the sling falls due); next examination 2027-01-20: two events.
private func hook() -> RegisterRow {
    RegisterRow(asset: Asset(uuid: uuid(0x7), tag: "HK-0007", name: "Crane hook; swivel", type: .hook,
                             wllKg: 5000, location: "Workshop", commissioned: day("2024-06-01"),
                             intervalMonths: 12),
                summary: HistorySummary(lastThoroughDate: day("2026-01-20"), lastThoroughResult: .defectToBeRemedied,
                                        latestResult: .defectToBeRemedied, latestAction: .repair,
                                        openRemedyDeadline: day("2026-03-10"), recordCount: 2))
}

/// OVERDUE: due 2026-02-01.
private func chainBlock() -> RegisterRow {
    RegisterRow(asset: Asset(uuid: uuid(0x3), tag: "CB-0003", name: "1 t chain block", type: .chainBlock,
                             wllKg: 1000, location: "Yard\\North", commissioned: day("2024-02-01"),
                             intervalMonths: 12),
                summary: HistorySummary(lastThoroughDate: day("2025-02-01"), lastThoroughResult: .pass,
                                        latestResult: .pass, latestAction: Optional.none, recordCount: 1))
}

/// WITHDRAWN: has a due date but must not appear.
private func withdrawnShackle() -> RegisterRow {
    RegisterRow(asset: Asset(uuid: uuid(0x100), tag: "SH-0100", name: "Bow shackle 3.25 t", type: .shackle,
                             wllKg: 3250, location: "Store", commissioned: day("2024-01-01"), intervalMonths: 6),
                summary: HistorySummary(lastThoroughDate: day("2026-01-05"), lastThoroughResult: .passWithObservations,
                                        latestResult: .passWithObservations, latestAction: .withdraw,
                                        outOfService: .withdraw, recordCount: 3))
}

private var register: [RegisterRow] { [sling(), hook(), chainBlock(), withdrawnShackle()] }

// MARK: - A tiny reader, independent of the writer

/// Unfolds (CRLF + one space) and splits on CRLF. Records an issue for a bare LF or CR.
private func logicalLines(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    let unfolded = unfold(text)
    var lines = unfolded.components(separatedBy: "\r\n")
    #expect(lines.last == "", "document must end with CRLF", sourceLocation: sourceLocation)
    lines.removeLast()
    for line in lines where line.contains("\n") || line.contains("\r") {
        Issue.record("bare line break in \(line.debugDescription)", sourceLocation: sourceLocation)
    }
    return lines
}

/// Removes every CRLF followed by one space, on octets: a fold may fall before a combining mark,
/// where a Character-based search would not see the space.
private func unfold(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
        if bytes[i] == 13, i + 2 < bytes.count, bytes[i + 1] == 10, bytes[i + 2] == 32 {
            i += 3
        } else {
            out.append(bytes[i])
            i += 1
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// True when a `;` or `,` in escaped TEXT is not preceded by its backslash.
private func hasUnescapedSeparator(_ text: String) -> Bool {
    var escaping = false
    for c in text {
        if escaping {
            escaping = false
        } else if c == "\\" {
            escaping = true
        } else if c == ";" || c == "," {
            return true
        }
    }
    return false
}

/// A parsed component: its name, its properties (name with parameters → value) in order, children.
private struct Component {
    var name: String
    var properties: [(name: String, value: String)] = []
    var children: [Component] = []

    func values(_ property: String) -> [String] { properties.filter { $0.name == property }.map(\.value) }
    func value(_ property: String) -> String? { values(property).first }
    func all(_ name: String) -> [Component] { children.filter { $0.name == name } }
}

/// Parses BEGIN/END nesting; records an issue when they do not balance.
private func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Component? {
    var stack: [Component] = []
    var root: Component?
    for line in logicalLines(text, sourceLocation: sourceLocation) {
        guard let colon = line.firstIndex(of: ":") else {
            Issue.record("content line without a colon: \(line)", sourceLocation: sourceLocation)
            continue
        }
        let name = String(line[..<colon]), value = String(line[line.index(after: colon)...])
        if name == "BEGIN" {
            stack.append(Component(name: value))
        } else if name == "END" {
            guard let last = stack.popLast(), last.name == value else {
                Issue.record("END:\(value) does not close the open component", sourceLocation: sourceLocation)
                return nil
            }
            if stack.isEmpty {
                #expect(root == nil, "more than one top-level component", sourceLocation: sourceLocation)
                root = last
            } else {
                stack[stack.count - 1].children.append(last)
            }
        } else {
            guard !stack.isEmpty else {
                Issue.record("property outside any component: \(line)", sourceLocation: sourceLocation)
                continue
            }
            stack[stack.count - 1].properties.append((name, value))
        }
    }
    #expect(stack.isEmpty, "unclosed components: \(stack.map(\.name))", sourceLocation: sourceLocation)
    return root
}

/// Undoes RFC 5545 TEXT escaping.
private func unescape(_ text: String) -> String {
    var out = "", escaping = false
    for c in text {
        if escaping {
            out.append(c == "n" || c == "N" ? "\n" : c)
            escaping = false
        } else if c == "\\" {
            escaping = true
        } else {
            out.append(c)
        }
    }
    return out
}

private func physicalLines(_ text: String) -> [[UInt8]] {
    var lines: [[UInt8]] = [], current: [UInt8] = []
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count {
        if bytes[i] == 13, i + 1 < bytes.count, bytes[i + 1] == 10 {
            lines.append(current)
            current = []
            i += 2
        } else {
            current.append(bytes[i])
            i += 1
        }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
}

private func uids(_ text: String) -> [String] {
    logicalLines(text).filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
}

// MARK: - The expected feed

/// `document(register, today: 2026-03-01, generated: 2026-03-01T08:30:00Z, options: default)`, written
/// with LF here (a Swift literal cannot hold CR); the test turns every LF into CRLF. Raw literal: the
/// backslashes are the document's own.
private let fixture = #"""
BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Rigbook//Rigbook 0.1//EN
CALSCALE:GREGORIAN
METHOD:PUBLISH
X-WR-CALNAME:Rigbook due dates
BEGIN:VEVENT
UID:d33cd57641625ef5@rigbook
DTSTAMP:20260301T083000Z
DTSTART;VALUE=DATE:20260201
DTEND;VALUE=DATE:20260202
SUMMARY:Thorough examination due: CB-0003 1 t chain block
DESCRIPTION:CB-0003 1 t chain block\nStatus on 2026-03-01: OVERDUE\nThoroug
 h examination due: 2026-02-01\nLast thorough examination: 2025-02-01\nType
 : Chain block\nLocation: Yard\\North\nWLL: 1 t\nInterval: 12 months
CATEGORIES:Rigbook
TRANSP:TRANSPARENT
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-P30D
DESCRIPTION:Thorough examination due: CB-0003 1 t chain block
END:VALARM
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-P1D
DESCRIPTION:Thorough examination due: CB-0003 1 t chain block
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:0df24e53879b6e1a@rigbook
DTSTAMP:20260301T083000Z
DTSTART;VALUE=DATE:20260310
DTEND;VALUE=DATE:20260311
SUMMARY:Remedy deadline: HK-0007 Crane hook\; swivel
DESCRIPTION:HK-0007 Crane hook\; swivel\nStatus on 2026-03-01: REMEDY BY\nR
 emedy deadline: 2026-03-10\nNext thorough examination due: 2027-01-20\nLas
 t thorough examination: 2026-01-20\nType: Hook\nLocation: Workshop\nWLL: 5
  t\nInterval: 12 months
CATEGORIES:Rigbook
TRANSP:TRANSPARENT
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-P30D
DESCRIPTION:Remedy deadline: HK-0007 Crane hook\; swivel
END:VALARM
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-P1D
DESCRIPTION:Remedy deadline: HK-0007 Crane hook\; swivel
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:a3351a1c6ab006bf@rigbook
DTSTAMP:20260301T083000Z
DTSTART;VALUE=DATE:20260310
DTEND;VALUE=DATE:20260311
SUMMARY:Thorough examination due: SL-0042 2 t web sling\, 3 m
DESCRIPTION:SL-0042 2 t web sling\, 3 m\nStatus on 2026-03-01: DUE SOON\nTh
 orough examination due: 2026-03-10\nLast thorough examination: 2025-09-10
 \nType: Web sling\nLocation: Bay 4\nWLL: 2 t\nInterval: 6 months
CATEGORIES:Rigbook
TRANSP:TRANSPARENT
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-P30D
DESCRIPTION:Thorough examination due: SL-0042 2 t web sling\, 3 m
END:VALARM
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-P1D
DESCRIPTION:Thorough examination due: SL-0042 2 t web sling\, 3 m
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:ea2597b6728cc286@rigbook
DTSTAMP:20260301T083000Z
DTSTART;VALUE=DATE:20270120
DTEND;VALUE=DATE:20270121
SUMMARY:Thorough examination due: HK-0007 Crane hook\; swivel
DESCRIPTION:HK-0007 Crane hook\; swivel\nStatus on 2026-03-01: REMEDY BY\nT
 horough examination due: 2027-01-20\nRemedy deadline: 2026-03-10\nLast tho
 rough examination: 2026-01-20\nType: Hook\nLocation: Workshop\nWLL: 5 t\nI
 nterval: 12 months
CATEGORIES:Rigbook
TRANSP:TRANSPARENT
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-P30D
DESCRIPTION:Thorough examination due: HK-0007 Crane hook\; swivel
END:VALARM
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-P1D
DESCRIPTION:Thorough examination due: HK-0007 Crane hook\; swivel
END:VALARM
END:VEVENT
END:VCALENDAR
"""#

private func crlf(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n" }

// MARK: - Tests

@Suite("ICalendar: the document")
struct ICalendarDocumentTests {
    @Test("a small register gives exactly the expected feed, byte for byte")
    func exactFixture() {
        let text = ICalendar.document(register, today: today, generated: generated, options: ICalendarOptions())
        let expected = crlf(fixture)
        #expect(Array(text.utf8) == Array(expected.utf8))
        if text != expected {
            // Show the first line that differs, rather than two whole documents.
            let got = text.components(separatedBy: "\r\n"), want = expected.components(separatedBy: "\r\n")
            if let index = zip(got, want).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                Issue.record(
                    "line \(index + 1): got \(got[index].debugDescription), want \(want[index].debugDescription)")
            } else {
                Issue.record("got \(got.count) lines, want \(want.count)")
            }
        }
    }

    @Test("the same register in any order gives the same document")
    func orderOfRowsDoesNotMatter() {
        let forward = ICalendar.document(register, today: today, generated: generated, options: ICalendarOptions())
        let backward = ICalendar.document(register.reversed(), today: today, generated: generated,
                                          options: ICalendarOptions())
        #expect(forward == backward)
    }

    @Test("every line ends in CRLF: no bare LF or CR anywhere")
    func crlfEverywhere() {
        let text = ICalendar.document(register, today: today, generated: generated, options: ICalendarOptions())
        let bytes = Array(text.utf8)
        #expect(bytes.suffix(2) == [13, 10])
        for (i, byte) in bytes.enumerated() {
            if byte == 10 { #expect(i > 0 && bytes[i - 1] == 13, "LF at \(i) without CR") }
            if byte == 13 { #expect(i + 1 < bytes.count && bytes[i + 1] == 10, "CR at \(i) without LF") }
        }
    }

    @Test("parses back: BEGIN/END balance, the calendar's properties, and each event's UID, DTSTAMP, DTSTART")
    func parsesBack() throws {
        for options in [ICalendarOptions(), ICalendarOptions(redact: true), ICalendarOptions(digest: true),
                        ICalendarOptions(alarmDaysBefore: [], redact: true, digest: true)] {
            let text = ICalendar.document(register, today: today, generated: generated, options: options)
            let calendar = try #require(parse(text))
            #expect(calendar.name == "VCALENDAR")
            #expect(calendar.value("VERSION") == "2.0")
            #expect(calendar.value("PRODID") == "-//Rigbook//Rigbook 0.1//EN")
            #expect(calendar.value("CALSCALE") == "GREGORIAN")
            #expect(calendar.value("METHOD") == "PUBLISH")
            #expect(calendar.value("X-WR-CALNAME") == "Rigbook due dates")
            let events = calendar.all("VEVENT")
            #expect(events.count == (options.digest ? 3 : 4))
            #expect(calendar.children.count == events.count)
            var seen = Set<String>()
            for event in events {
                #expect(event.values("UID").count == 1)
                #expect(event.values("DTSTAMP") == ["20260301T083000Z"])
                #expect(event.values("DTSTART;VALUE=DATE").count == 1)
                #expect(event.values("SUMMARY").count == 1)
                #expect(event.values("DESCRIPTION").count == 1)
                #expect(event.value("CATEGORIES") == "Rigbook")
                #expect(event.value("TRANSP") == "TRANSPARENT")
                let uid = try #require(event.value("UID"))
                #expect(uid.hasSuffix("@rigbook"))
                #expect(seen.insert(uid).inserted, "UID \(uid) twice")
                let start = try #require(event.value("DTSTART;VALUE=DATE"))
                let end = try #require(event.value("DTEND;VALUE=DATE"))
                let startDate = try #require(basicDate(start))
                #expect(basicDate(end) == startDate.addingDays(1))
                #expect(event.children.allSatisfy { $0.name == "VALARM" })
            }
            let starts = events.compactMap { $0.value("DTSTART;VALUE=DATE") }
            #expect(starts == starts.sorted(), "events are in date order")
        }
    }

    @Test("withdrawn assets and assets with no date are left out; everything else has an event per open date")
    func whoIsIn() {
        let untested = RegisterRow(asset: Asset(uuid: uuid(0x1), tag: "EB-0001", name: "M20 eyebolt", type: .eyebolt,
                                                wllKg: 1000, intervalMonths: 6),
                                   summary: .empty)
        let rows = register + [untested]
        let text = ICalendar.document(rows, today: today, generated: generated, options: ICalendarOptions())
        let ids = uids(text)
        #expect(ids.count == 4)
        #expect(!text.contains("SH-0100"))
        #expect(!text.contains("EB-0001"))
        for kind in [ICalendar.thoroughKind, ICalendar.remedyKind] {
            #expect(!ids.contains(ICalendar.uid(assetUUID: uuid(0x100), date: day("2026-07-05"), kind: kind)))
        }
        #expect(ids == [ICalendar.uid(assetUUID: uuid(0x3), date: day("2026-02-01"), kind: "thorough"),
                        ICalendar.uid(assetUUID: uuid(0x7), date: day("2026-03-10"), kind: "remedy"),
                        ICalendar.uid(assetUUID: uuid(0x42), date: day("2026-03-10"), kind: "thorough"),
                        ICalendar.uid(assetUUID: uuid(0x7), date: day("2027-01-20"), kind: "thorough")])
    }

    @Test("DO NOT USE: no examination event (it is due before use, no date); a missed remedy deadline stays one")
    func doNotUseDates() {
        var missed = hook()
        missed.asset.uuid = uuid(0x8)
        missed.asset.tag = "HK-0008"
        missed.summary.openRemedyDeadline = day("2026-02-20")        // before today: DO NOT USE
        #expect(missed.status(on: today).status == .doNotUse)
        var failed = sling()
        failed.asset.uuid = uuid(0x43)
        failed.asset.tag = "SL-0043"
        failed.summary.lastThoroughResult = .failDangerous
        failed.summary.latestResult = .failDangerous
        #expect(failed.status(on: today).status == .doNotUse)
        let text = ICalendar.document([missed, failed], today: today, generated: generated,
                                      options: ICalendarOptions())
        let lines = logicalLines(text)
        #expect(lines.contains("SUMMARY:Remedy deadline: HK-0008 Crane hook\\; swivel"))
        // Not the periodic date (it would read as usable until then), nor the day it failed.
        #expect(!text.contains("SL-0043"))
        #expect(uids(text) == [ICalendar.uid(assetUUID: uuid(0x8), date: day("2026-02-20"), kind: "remedy")])
        #expect(lines.contains("DTSTART;VALUE=DATE:20260220"))
        #expect(unescape(unfold(text)).contains("Do not use: remedy deadline 2026-02-20 passed"))
        #expect(unescape(unfold(text)).contains("Next thorough examination due: before use"))
    }

    @Test("an empty register is a calendar with no events")
    func emptyRegister() throws {
        let text = ICalendar.document([], today: today, generated: generated, options: ICalendarOptions())
        let calendar = try #require(parse(text))
        #expect(calendar.children.isEmpty)
        #expect(logicalLines(text).count == 7)
    }

    @Test("the calendar name is escaped")
    func calendarName() {
        let text = ICalendar.document(register, today: today, generated: generated,
                                      options: ICalendarOptions(calendarName: "Site A; slings, hooks"))
        #expect(logicalLines(text).contains("X-WR-CALNAME:Site A\\; slings\\, hooks"))
    }

    @Test("a due date of 9999-12-31 has a one-day duration instead of an unwritable DTEND")
    func lastDay() {
        var row = sling(lastThorough: "9999-06-30")
        row.asset.intervalMonths = 60
        let text = ICalendar.document([row], today: today, generated: generated, options: ICalendarOptions())
        let lines = logicalLines(text)
        #expect(lines.contains("DTSTART;VALUE=DATE:99991231"))
        #expect(lines.contains("DURATION:P1D"))
        #expect(!lines.contains { $0.hasPrefix("DTEND") })
    }

    @Test("DTSTAMP is the UTC time of `generated`", arguments: [
        (0.0, "19700101T000000Z"),
        (1_772_353_800.0, "20260301T083000Z"),
        (1_772_353_800.999, "20260301T083000Z"),
        (-1.0, "19691231T235959Z"),
        (951_782_400.0, "20000229T000000Z"),
        (253_402_300_799.0, "99991231T235959Z"),
    ])
    func timestamp(seconds: Double, expected: String) {
        #expect(ICalendar.timestamp(Date(timeIntervalSince1970: seconds)) == expected)
        // Cross-check against Foundation's formatter.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        #expect(formatter.string(from: Date(timeIntervalSince1970: seconds)) == expected)
    }
}

@Suite("ICalendar: UIDs")
struct ICalendarUIDTests {
    @Test("FNV-1a 64 known values")
    func fnv() {
        #expect(ICalendar.hashUID("") == "cbf29ce484222325@rigbook")
        #expect(ICalendar.hashUID("a") == "af63dc4c8601ec8c@rigbook")
        #expect(ICalendar.hashUID("foobar") == "85944171f73967e8@rigbook")
        #expect(ICalendar.uid(assetUUID: uuid(0x42), date: day("2026-03-10"), kind: "thorough")
                == "a3351a1c6ab006bf@rigbook")
        #expect(ICalendar.digestUID(date: day("2026-03-10")) == "c660024268ccbba9@rigbook")
    }

    @Test("UIDs are 16 lower-case hex digits and @rigbook, and the UUID's case does not matter")
    func shape() {
        let id = ICalendar.uid(assetUUID: uuid(0xabc), date: day("2026-01-01"), kind: "thorough")
        #expect(id.count == 24)
        #expect(id.prefix(16).allSatisfy { "0123456789abcdef".contains($0) })
        let upper = UUID(uuidString: "ABCDEF00-0000-0000-0000-000000000ABC")!
        let lower = UUID(uuidString: "abcdef00-0000-0000-0000-000000000abc")!
        #expect(ICalendar.uid(assetUUID: upper, date: day("2026-01-01"), kind: "x")
                == ICalendar.uid(assetUUID: lower, date: day("2026-01-01"), kind: "x"))
    }

    @Test("re-exporting gives the same UIDs, even on another day and at another time")
    func stableAcrossRuns() {
        let first = ICalendar.document(register, today: today, generated: generated, options: ICalendarOptions())
        let second = ICalendar.document(register, today: today, generated: generated, options: ICalendarOptions())
        #expect(first == second)
        let later = ICalendar.document(register, today: day("2026-03-05"),
                                       generated: generated.addingTimeInterval(4 * 86_400 + 3_600),
                                       options: ICalendarOptions())
        #expect(uids(first) == uids(later))
        #expect(uids(first).count == 4)
    }

    @Test("a new thorough examination moves the due date and so changes that asset's UID only")
    func rescheduled() {
        let before = uids(ICalendar.document(register, today: today, generated: generated, options: ICalendarOptions()))
        let examined = [sling(lastThorough: "2026-02-27"), hook(), chainBlock(), withdrawnShackle()]
        let afterText = ICalendar.document(examined, today: today, generated: generated, options: ICalendarOptions())
        let after = uids(afterText)
        let oldUID = ICalendar.uid(assetUUID: uuid(0x42), date: day("2026-03-10"), kind: "thorough")
        let newUID = ICalendar.uid(assetUUID: uuid(0x42), date: day("2026-08-27"), kind: "thorough")
        #expect(before.contains(oldUID))
        #expect(!after.contains(oldUID))
        #expect(after.contains(newUID))
        #expect(Set(before).subtracting([oldUID]) == Set(after).subtracting([newUID]))
        #expect(logicalLines(afterText).contains("DTSTART;VALUE=DATE:20260827"))
    }

    @Test("date, kind and asset each change the UID")
    func inputsMatter() {
        let base = ICalendar.uid(assetUUID: uuid(1), date: day("2026-03-10"), kind: "thorough")
        #expect(base != ICalendar.uid(assetUUID: uuid(2), date: day("2026-03-10"), kind: "thorough"))
        #expect(base != ICalendar.uid(assetUUID: uuid(1), date: day("2026-03-11"), kind: "thorough"))
        #expect(base != ICalendar.uid(assetUUID: uuid(1), date: day("2026-03-10"), kind: "remedy"))
        #expect(ICalendar.digestUID(date: day("2026-03-10")) != ICalendar.digestUID(date: day("2026-03-11")))
    }

    @Test("10,000 assets on 10,000 days: no two UIDs collide")
    func noCollisions() {
        var seen = Set<String>()
        let start = day("2026-01-01")
        for i in 0..<10_000 {
            seen.insert(ICalendar.uid(assetUUID: uuid(i), date: start.addingDays(i % 731), kind: "thorough"))
        }
        #expect(seen.count == 10_000)
    }
}

@Suite("ICalendar: folding and escaping")
struct ICalendarFoldingTests {
    /// Checks a folded line: ≤ 75 octets a line, valid UTF-8 on its own, continuations start with
    /// one space, and unfolding gives the input back.
    private func checkFolded(_ folded: String, original: String,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = physicalLines(folded)
        for (index, line) in lines.enumerated() {
            #expect(line.count <= 75, "line \(index) has \(line.count) octets", sourceLocation: sourceLocation)
            #expect(String(validating: line, as: UTF8.self) != nil, "line \(index) is not valid UTF-8 on its own",
                    sourceLocation: sourceLocation)
            if index > 0 {
                #expect(line.first == 0x20, "continuation \(index) must start with a space",
                        sourceLocation: sourceLocation)
            }
            // Greedy: a line is only broken when the next scalar (≤ 4 octets) does not fit.
            if index < lines.count - 1 {
                #expect(line.count >= 72, "line \(index) broken early at \(line.count) octets",
                        sourceLocation: sourceLocation)
            }
        }
        #expect(!folded.hasSuffix("\r\n"), sourceLocation: sourceLocation)
        #expect(unfold(folded) == original, sourceLocation: sourceLocation)
    }

    @Test("75 octets stay on one line; 76 fold")
    func boundary() {
        let exact = String(repeating: "x", count: 75)
        #expect(ICalendar.fold(exact) == exact)
        let over = String(repeating: "x", count: 76)
        #expect(ICalendar.fold(over) == String(repeating: "x", count: 75) + "\r\n x")
        let long = String(repeating: "y", count: 75 + 74 + 1)
        #expect(ICalendar.fold(long) == String(repeating: "y", count: 75) + "\r\n " + String(repeating: "y", count: 74)
                + "\r\n y")
        #expect(ICalendar.fold("") == "")
    }

    @Test("multi-byte characters are never split, whatever the alignment", arguments: 0..<4)
    func multiByte(offset: Int) {
        let prefix = "SUMMARY:" + String(repeating: "a", count: offset)
        for body in ["王建国的吊带", "é", "€", "😀", "a王😀é"] {
            let line = prefix + String(repeating: body, count: 60)
            checkFolded(ICalendar.fold(line), original: line)
        }
    }

    @Test("emoji sequences and long combining sequences fold between scalars, each line valid UTF-8",
          arguments: 0..<4)
    func clusters(offset: Int) {
        let family = "👨‍👩‍👧‍👦"                                     // 25 octets, one character
        let line = "DESCRIPTION:" + String(repeating: "a", count: offset) + String(repeating: family, count: 10)
        checkFolded(ICalendar.fold(line), original: line)
        let zalgo = "e" + String(repeating: "\u{301}", count: 60)      // 121 octets, one character
        let huge = "X:" + String(repeating: "a", count: offset) + zalgo + zalgo
        checkFolded(ICalendar.fold(huge), original: huge)
    }

    @Test("a TEXT escape is never split across lines", arguments: 0..<3)
    func escapesStayWhole(offset: Int) {
        let line = "DESCRIPTION:" + String(repeating: "a", count: offset)
            + String(repeating: "\\n\\;\\,\\\\", count: 40)
        let folded = ICalendar.fold(line)
        checkFolded(folded, original: line)
        for piece in physicalLines(folded).map({ String(decoding: $0, as: UTF8.self) }) {
            // Count trailing backslashes: an odd number means an escape was cut.
            let trailing = piece.reversed().prefix { $0 == "\\" }.count
            #expect(trailing % 2 == 0, "line ends inside an escape: \(piece)")
        }
    }

    @Test("text escaping per RFC 5545 3.3.11", arguments: [
        ("plain", "plain"),
        ("a\\b", "a\\\\b"),
        ("a;b", "a\\;b"),
        ("a,b", "a\\,b"),
        ("a\nb", "a\\nb"),
        ("a\r\nb", "a\\nb"),
        ("a\rb", "a\\nb"),
        ("\\n", "\\\\n"),
        ("a:b \"c\"", "a:b \"c\""),
        ("tab\there", "tab\there"),
        ("bell\u{07}esc\u{1B}del\u{7F}", "bellescdel"),
        ("C1\u{85}next\u{9B}csi", "C1nextcsi"),
        ("© 2026\u{A0}Ä½", "© 2026\u{A0}Ä½"),
        ("\r\r\n\n", "\\n\\n\\n"),
        ("王建国的吊带, 3 m; heavy", "王建国的吊带\\, 3 m\\; heavy"),
    ] as [(String, String)])
    func escaping(input: String, expected: String) {
        #expect(ICalendar.escapeText(input) == expected)
        #expect(unescape(ICalendar.escapeText(input)) == input.replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\r", with: "\n").filter { !($0.unicodeScalars.count == 1
                && $0 != "\t" && $0 != "\n" && TextRules.isControl($0.unicodeScalars.first!)) })
    }

    @Test("a long name with commas, semicolons, a backslash and CJK survives the round trip")
    func longCJKName() throws {
        let name = String(repeating: "王建国的吊带, 3 m; heavy duty, very long name \\ 北区 ", count: 4)
        var row = sling()
        row.asset.name = name
        row.asset.location = "二号仓库; 货架 7, 第三层"
        for options in [ICalendarOptions(), ICalendarOptions(digest: true)] {
            let text = ICalendar.document([row], today: today, generated: generated, options: options)
            for (index, line) in physicalLines(text).enumerated() {
                #expect(line.count <= 75, "line \(index) has \(line.count) octets")
                #expect(String(validating: line, as: UTF8.self) != nil, "line \(index) splits a UTF-8 sequence")
            }
            let calendar = try #require(parse(text))
            let event = try #require(calendar.all("VEVENT").first)
            let summary = try #require(event.value("SUMMARY"))
            let description = try #require(event.value("DESCRIPTION"))
            // No unescaped separators in the values.
            #expect(!hasUnescapedSeparator(summary))
            #expect(!hasUnescapedSeparator(description))
            if options.digest {
                #expect(unescape(description) == "SL-0042 \(name): thorough examination (DUE SOON)")
            } else {
                #expect(unescape(summary) == "Thorough examination due: SL-0042 \(name)")
                #expect(summary == "Thorough examination due: SL-0042 " + ICalendar.escapeText(name))
                #expect(unescape(description).contains("\nLocation: 二号仓库; 货架 7, 第三层\n"))
                #expect(unescape(description).hasPrefix("SL-0042 \(name)\n"))
            }
            // Every folded logical line is the escaped logical line, restored exactly.
            #expect(logicalLines(text).contains("SUMMARY:" + ICalendar.escapeText(
                options.digest ? "1 item due for thorough examination" : "Thorough examination due: SL-0042 \(name)")))
        }
    }
}

@Suite("ICalendar: options")
struct ICalendarOptionsTests {
    @Test("redact leaves tags and names out of everything, in both layouts")
    func redact() throws {
        var rows = register
        rows[0].asset.name = "王建国的吊带, 3 m"
        rows[2].asset.name = "Chain block"                      // the same words as its type
        for digest in [false, true] {
            let text = ICalendar.document(rows, today: today, generated: generated,
                                          options: ICalendarOptions(redact: true, digest: digest))
            let unfolded = unfold(text)
            let plain = unescape(unfolded)
            for row in rows {
                for secret in [row.asset.tag, row.asset.name] {
                    #expect(!plain.contains(secret), "\(secret) in redacted output")
                    #expect(!unfolded.contains(ICalendar.escapeText(secret)), "\(secret) in redacted output")
                }
            }
            // Pieces of the names too, in case one were cut by a fold or escape.
            for fragment in ["SL-", "HK-", "CB-", "SH-", "sling", "hook", "chain", "swivel", "王建国"] {
                #expect(!plain.lowercased().contains(fragment.lowercased()), "\(fragment) in redacted output")
            }
            let calendar = try #require(parse(text))
            let events = calendar.all("VEVENT")
            #expect(events.count == (digest ? 3 : 4))
            if !digest {
                #expect(events.map { $0.value("SUMMARY") } == ["Thorough examination due (1 item)",
                                                              "Remedy deadline (1 item)",
                                                              "Thorough examination due (1 item)",
                                                              "Thorough examination due (1 item)"])
                // What is left is still useful: status, dates, WLL.
                #expect(unescape(events[0].value("DESCRIPTION") ?? "").contains("Status on 2026-03-01: OVERDUE"))
                #expect(unescape(events[1].value("DESCRIPTION") ?? "").contains("Remedy deadline: 2026-03-10"))
            } else {
                #expect(unescape(events[1].value("DESCRIPTION") ?? "")
                        == "1 REMEDY BY on 2026-03-01\n1 DUE SOON on 2026-03-01")
            }
            for event in events {
                for alarm in event.all("VALARM") { #expect(alarm.value("DESCRIPTION") == event.value("SUMMARY")) }
            }
        }
        // UIDs do not depend on redaction: switching it on does not duplicate events in a calendar.
        let redacted = ICalendar.document(rows, today: today, generated: generated,
                                          options: ICalendarOptions(redact: true))
        let plain = ICalendar.document(rows, today: today, generated: generated, options: ICalendarOptions())
        #expect(uids(redacted) == uids(plain))
    }

    @Test("digest: one event per date, with the count and the tags")
    func digest() throws {
        var extra = chainBlock()
        extra.asset.uuid = uuid(0x4)
        extra.asset.tag = "CB-0004"
        extra.summary.lastThoroughDate = day("2025-03-10")          // due 2026-03-10 too
        var another = sling()
        another.asset.uuid = uuid(0x44)
        another.asset.tag = "SL-0044"                               // due 2026-03-10, thorough
        let rows = register + [extra, another]
        let text = ICalendar.document(rows, today: today, generated: generated, options: ICalendarOptions(digest: true))
        let calendar = try #require(parse(text))
        let events = calendar.all("VEVENT")
        #expect(events.count == 3)
        #expect(events.map { $0.value("DTSTART;VALUE=DATE") } == ["20260201", "20260310", "20270120"])
        #expect(events.map { $0.value("UID") } == [ICalendar.digestUID(date: day("2026-02-01")),
                                                  ICalendar.digestUID(date: day("2026-03-10")),
                                                  ICalendar.digestUID(date: day("2027-01-20"))])
        #expect(events[0].value("SUMMARY") == "1 item due for thorough examination")
        #expect(events[1].value("SUMMARY") == "4 items due: 3 thorough examinations\\, 1 remedy deadline")
        let listed = unescape(events[1].value("DESCRIPTION") ?? "").components(separatedBy: "\n")
        #expect(listed.map { String($0.prefix(7)) } == ["CB-0004", "HK-0007", "SL-0042", "SL-0044"])
        #expect(listed[1] == "HK-0007 Crane hook; swivel: remedy deadline (REMEDY BY)")

        // Only examinations on a day, and only deadlines on a day.
        let three = [sling(), another, extra]
        let threeText = ICalendar.document(three, today: today, generated: generated,
                                           options: ICalendarOptions(digest: true))
        #expect(logicalLines(threeText).contains("SUMMARY:3 items due for thorough examination"))
        let deadlines = ICalendar.document([hook()], today: today, generated: generated,
                                           options: ICalendarOptions(digest: true))
        #expect(logicalLines(deadlines).contains("SUMMARY:1 item with a remedy deadline"))
        #expect(logicalLines(deadlines).contains("SUMMARY:1 item due for thorough examination"))
    }

    @Test("alarm days are configurable: [7] gives exactly one VALARM, TRIGGER:-P7D, per event")
    func oneAlarm() throws {
        for digest in [false, true] {
            let text = ICalendar.document(register, today: today, generated: generated,
                                          options: ICalendarOptions(alarmDaysBefore: [7], digest: digest))
            let calendar = try #require(parse(text))
            for event in calendar.all("VEVENT") {
                let alarms = event.all("VALARM")
                #expect(alarms.count == 1)
                #expect(alarms.first?.values("TRIGGER") == ["-P7D"])
                #expect(alarms.first?.values("ACTION") == ["DISPLAY"])
                #expect(alarms.first?.values("DESCRIPTION").count == 1)
                #expect(alarms.first?.value("DESCRIPTION") == event.value("SUMMARY"))
            }
            #expect(logicalLines(text).filter { $0 == "BEGIN:VALARM" }.count == (digest ? 3 : 4))
        }
    }

    @Test("default alarms are 30 days and 1 day before; none, duplicates, negatives and 0 are handled")
    func alarmVariants() throws {
        func triggers(_ days: [Int]) throws -> [[String]] {
            let text = ICalendar.document(register, today: today, generated: generated,
                                          options: ICalendarOptions(alarmDaysBefore: days))
            return try #require(parse(text)).all("VEVENT").map { $0.all("VALARM").compactMap { $0.value("TRIGGER") } }
        }
        #expect(ICalendarOptions().alarmDaysBefore == [30, 1])
        #expect(try triggers([30, 1]) == Array(repeating: ["-P30D", "-P1D"], count: 4))
        #expect(try triggers([]) == Array(repeating: [], count: 4))
        #expect(try triggers([1, 30, 30, -2, 0]) == Array(repeating: ["-P30D", "-P1D", "PT0S"], count: 4))
    }
}

/// Parses YYYYMMDD.
private func basicDate(_ text: String) -> CalendarDate? {
    guard text.count == 8 else { return nil }
    let t = Array(text)
    return CalendarDate(iso: String(t[0..<4]) + "-" + String(t[4..<6]) + "-" + String(t[6..<8]))
}

@Suite("ICalendar: streamed")
struct ICalendarStreamingTests {
    @Test("the feed reads the rows once, then each event's asset again by uuid in the feed's order",
          arguments: [false, true])
    func readsEachEventAgain(_ digest: Bool) throws {
        let options = ICalendarOptions(digest: digest)
        let source = RowReadRecorder(RowsInMemory(register))
        var text = ""
        try ICalendar.write(from: source, today: today, generated: generated, options: options) { text += $0 }
        #expect(text == ICalendar.document(register, today: today, generated: generated, options: options))
        #expect(source.fullReads == 1 && source.readsByUUID.count == 1)
        // One read per event (an asset with a remedy deadline and a due date is read twice), in date order.
        let events = register.flatMap { row -> [(CalendarDate, String, UUID)] in
            let report = row.status(on: today)
            return [report.nextDue.map { ($0, "thorough", row.asset.uuid) },
                    report.remedyDeadline.map { ($0, "remedy", row.asset.uuid) }].compactMap { $0 }
        }
        let tags = Dictionary(uniqueKeysWithValues: register.map { ($0.asset.uuid, $0.asset.tag) })
        let inFeedOrder = events.sorted { a, b in
            (a.0, tags[a.2] ?? "", a.1, a.2.uuidString) < (b.0, tags[b.2] ?? "", b.1, b.2.uuidString)
        }
        #expect(source.readsByUUID[0] == inFeedOrder.map(\.2))
    }
}
