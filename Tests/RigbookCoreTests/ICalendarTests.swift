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

/// REMEDY BY 2026-03-10 (the same day the sling falls due); next examination 2027-01-20.
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
                                        latestResult: .passWithObservations, latestAction: .withdraw, recordCount: 3))
}

private var register: [RegisterRow] { [sling(), hook(), chainBlock(), withdrawnShackle()] }

// MARK: - A tiny reader, independent of the writer

/// Unfolds (CRLF + one space) and splits on CRLF. Records an issue for a bare LF or CR.
private func logicalLines(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
    var lines = unfolded.components(separatedBy: "\r\n")
    #expect(lines.last == "", "document must end with CRLF", sourceLocation: sourceLocation)
    lines.removeLast()
    for line in lines where line.contains("\n") || line.contains("\r") {
        Issue.record("bare line break in \(line.debugDescription)", sourceLocation: sourceLocation)
    }
    return lines
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

// MARK: - Tests

@Suite("ICalendar")
struct ICalendarTests {
    @Test("DUMP")
    func dump() {
        let text = ICalendar.document(register, today: today, generated: generated, options: ICalendarOptions())
        try! text.replacingOccurrences(of: "\r\n", with: "\n").write(toFile: "/tmp/ical_dump.txt", atomically: true, encoding: .utf8)
        let d = ICalendar.document(register, today: today, generated: generated, options: ICalendarOptions(digest: true))
        try! d.replacingOccurrences(of: "\r\n", with: "\n").write(toFile: "/tmp/ical_digest.txt", atomically: true, encoding: .utf8)
        let r = ICalendar.document(register, today: today, generated: generated, options: ICalendarOptions(alarmDaysBefore: [7], redact: true))
        try! r.replacingOccurrences(of: "\r\n", with: "\n").write(toFile: "/tmp/ical_redact.txt", atomically: true, encoding: .utf8)
    }
}
