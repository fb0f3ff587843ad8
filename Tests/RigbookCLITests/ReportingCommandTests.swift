import Foundation
import Testing
// The CLI target depends on the `rigbook` executable only; its library modules are built next to it
// and import fine. They are used to put inspection records into a test register the way the save
// path does (SaveGate, then Register.insert), since no subcommand saves records.
import RigbookCore
import RigbookStore
import RigbookTestSupport

// MARK: - A data home for one test

/// A temporary folder holding a data home, removed by `remove()` (call it in a `defer`).
private struct Home {
    let dir = TempDir("rigbook-reporting")
    var path: String { dir.sub("home") }
    var registerPath: String { DataHome(root: path).registerPath }
    func sub(_ name: String) -> String { dir.sub(name) }
    func remove() { dir.remove() }

    func run(_ args: [String], env: [String: String] = [:]) -> RunResult {
        runRigbookResult(args, home: path, env: env)
    }

    /// `asset add`, failing the test when it does not exit 0.
    func addAsset(_ tag: String, _ name: String, type: String = "web-sling", wll: String = "1000", interval: Int = 12,
                  commissioned: String?, location: String = "Yard", extra: [String] = [],
                  sourceLocation: SourceLocation = #_sourceLocation) {
        var args = ["asset", "add", "--tag", tag, "--name", name, "--type", type, "--wll", wll,
                    "--interval", String(interval), "--location", location]
        if let commissioned { args += ["--commissioned", commissioned] }
        // These fixtures examine every type every 12 months, lawful for accessories only under a scheme.
        if let kind = EquipmentType(rawValue: type), interval > kind.lolerMaximumIntervalMonths(liftsPersons: false),
           !extra.contains("--scheme") {
            args += ["--scheme", "ES-TEST"]
        }
        let result = run(args + extra)
        #expect(result.status == 0, "asset add \(tag): \(result)", sourceLocation: sourceLocation)
    }

    /// Saves an inspection record the way the form does: through the save gate, then the register's
    /// only insert. `today` is the gate's today (the inspection date may not be after it).
    /// `amending` names the record id an amendment corrects.
    func addRecord(_ tag: String, _ values: InspectionValues, today: String = fixedToday, amending: Int64? = nil,
                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let register = try Register.open(path: registerPath)
        let row = try #require(try register.asset(tag: tag), "no asset \(tag)", sourceLocation: sourceLocation)
        let uuid = row.asset.uuid.uuidString.lowercased()
        let context = SaveGate.Context(asset: row.asset, today: try #require(CalendarDate(iso: today)),
                                       sessionID: "inspection-\(uuid):\(UUID().uuidString.lowercased())",
                                       amending: try amending.flatMap { try register.inspection(id: $0) },
                                       particulars: TestParticulars.report(for: row.asset.uuid))
        switch SaveGate.validate(values, context: context) {
        case .success(let record):
            try register.insert(record, saved: SaveStamp(appVersion: "0.1.0", operatorName: "tester"))
        case .failure(let failure):
            Issue.record("the save gate refused a test record for \(tag): \(failure.problems.map(\.message))",
                         sourceLocation: sourceLocation)
            throw failure
        }
    }

    /// The register file's bytes (nil when there is none).
    var registerBytes: Data? { FileManager.default.contents(atPath: registerPath) }
}

// MARK: - Records

private func passValues(on date: String, notes: String = "") -> InspectionValues {
    InspectionValues(inspectionType: .thoroughPeriodic, inspectorName: "Jo Examiner", certificationNumber: "LEEA-1",
                     checkMarking: true, checkCuts: true, checkDeformation: true, checkFittings: true,
                     checkCorrosion: true, result: .pass, notes: notes, inspectionDate: date, confirmed: true)
}

private func failValues(on date: String) -> InspectionValues {
    InspectionValues(inspectionType: .thoroughPeriodic, inspectorName: "Jo Examiner", certificationNumber: "LEEA-1",
                     checkMarking: true, checkCuts: true, checkDeformation: false, checkFittings: true,
                     checkCorrosion: true, result: .failDangerous, defectDescription: "Eye deformed",
                     action: .quarantine, inspectionDate: date, confirmed: true,
                     repairParticulars: "Replace the eye")
}

private func remedyValues(on date: String, deadline: String, defect: String = "Stitching cut at the label",
                          notes: String = "") -> InspectionValues {
    InspectionValues(inspectionType: .thoroughPeriodic, inspectorName: "Jo Examiner", certificationNumber: "LEEA-1",
                     checkMarking: true, checkCuts: false, checkDeformation: true, checkFittings: true,
                     checkCorrosion: true, result: .defectToBeRemedied, notes: notes, defectDescription: defect,
                     action: .repair, remedyDeadlineSet: true, remedyDeadline: deadline, inspectionDate: date,
                     confirmed: true, repairParticulars: "Restitch", remedyParticulars: "Restitch by the maker")
}

private func observationValues(on date: String, action: InspectionAction) -> InspectionValues {
    InspectionValues(inspectionType: .thoroughPeriodic, inspectorName: "Jo Examiner", certificationNumber: "LEEA-1",
                     checkMarking: true, checkCuts: true, checkDeformation: true, checkFittings: true,
                     checkCorrosion: false, result: .passWithObservations, defectDescription: "Light surface rust",
                     action: action, inspectionDate: date, confirmed: true)
}

// MARK: - Registers

/// On 2026-11-30: OV-1 OVERDUE (due 2026-11-01), DS-1 DUE SOON (due 2026-12-15), OK-1 OK (due
/// 2027-06-01), UT-1 UNTESTED (no commission date, no history).
private func craftFour(_ home: Home) {
    home.addAsset("OV-1", "Zebra web sling", type: "web-sling", commissioned: "2025-11-01", location: "Yard")
    home.addAsset("DS-1", "Quokka shackle", type: "shackle", wll: "2000", commissioned: "2025-12-15", location: "Bay 4")
    home.addAsset("OK-1", "Heron hook", type: "hook", wll: "500", commissioned: "2026-06-01", location: "Workshop")
    home.addAsset("UT-1", "Ibis chain block", type: "chain-block", wll: "500", commissioned: nil, location: "Quay 1")
}

/// Every status on 2026-11-30, two of each listed one, each pair with the later tag falling due first:
/// DN-2 (missed remedy deadline 2026-11-15), DN-1 (failed, next due 2027-11-20), OV-2 (due 2026-10-15),
/// OV-1 (2026-11-01), RB-2 (deadline 2026-12-10), RB-1 (2026-12-20), DS-2 (due 2026-12-05),
/// DS-1 (2026-12-15), UT-1 (never examined: due now); and not listed: QU-1 quarantined, WD-1 withdrawn, OK-1.
private func craftAll(_ home: Home) throws {
    craftFour(home)
    home.addAsset("OV-2", "Osprey round sling", type: "round-sling", commissioned: "2025-10-15", location: "Yard")
    home.addAsset("DS-2", "Dingo eyebolt", type: "eyebolt", commissioned: "2025-12-05", location: "Bay 4")
    for (tag, name) in [("DN-1", "Newt lever hoist"), ("DN-2", "Narwhal beam clamp"), ("RB-1", "Robin chain sling"),
                        ("RB-2", "Raven spreader beam"), ("QU-1", "Quail hook"), ("WD-1", "Walrus wire rope sling")] {
        home.addAsset(tag, name, type: "other", commissioned: "2026-01-01", location: "Workshop")
    }
    try home.addRecord("DN-1", failValues(on: "2026-11-20"))
    try home.addRecord("DN-2", remedyValues(on: "2026-10-01", deadline: "2026-11-15"))
    try home.addRecord("RB-1", remedyValues(on: "2026-11-25", deadline: "2026-12-20"))
    try home.addRecord("RB-2", remedyValues(on: "2026-11-26", deadline: "2026-12-10"))
    try home.addRecord("QU-1", observationValues(on: "2026-11-20", action: .quarantine))
    try home.addRecord("WD-1", observationValues(on: "2026-11-20", action: .withdraw))
}

// MARK: - Output helpers

private func jsonObject(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
    guard let data = text.data(using: .utf8),
          let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
        Issue.record("not a JSON object: \(text.prefix(500))", sourceLocation: sourceLocation)
        return [:]
    }
    return object
}

/// The rows of `due`'s text table (header and summary left out), cells split at runs of 2+ spaces.
private func dueRows(_ stdout: String) -> [[String]] {
    let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.first?.hasPrefix("STATUS") == true else { return [] }
    return lines.dropFirst().filter { !$0.isEmpty && !$0.contains(" as of ") }
        .map { $0.split(separator: #/  +/#).map(String.init) }
}

/// The last non-empty line of the output.
private func lastLine(_ text: String) -> String {
    text.split(separator: "\n").last.map(String.init) ?? ""
}

/// Statuses by tag from `asset list --format json`.
private func statuses(_ home: Home) -> [String: String] {
    var out: [String: String] = [:]
    for object in listAssets(home: home.path) {
        if let tag = string(object, "tag"), let status = string(object, "status") { out[tag] = status }
    }
    return out
}

/// What a cell holds after export: a value starting with = + - @ tab or CR gets a leading apostrophe.
private func neutralised(_ value: String) -> String {
    guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
    return "'" + value
}

/// A JSON value as the CSV writes it: null empty, bools true/false, whole numbers without a point.
private func csvText(_ value: Any?, column: String) -> String {
    guard let value, !(value is NSNull) else { return "" }
    if let text = value as? String { return text }
    if column == "lifts_persons" || column.hasPrefix("check_") || column == "remedy_deadline_set"
        || column == "confirmed" {
        return (value as? Bool) == true ? "true" : "false"
    }
    if let number = value as? NSNumber {
        let d = number.doubleValue
        return d == d.rounded() ? String(Int64(d)) : String(d)
    }
    return "\(value)"
}

// MARK: iCalendar

/// Physical lines (split at CRLF; the text after the last CRLF is dropped when empty).
private func physicalLines(_ text: String) -> [Substring] {
    var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    return lines
}

/// Content lines: folded lines joined (CRLF + one space removed).
private func contentLines(_ text: String) -> [String] {
    physicalLines(text.replacingOccurrences(of: "\r\n ", with: "")).map(String.init)
}

/// TEXT unescaped: \n, \, \; \\ back to what they stand for.
private func unescapeText(_ text: String) -> String {
    var out = ""
    var escaped = false
    for c in text {
        if escaped {
            switch c {
            case "n", "N": out.append("\n")
            default: out.append(c)
            }
            escaped = false
        } else if c == "\\" {
            escaped = true
        } else {
            out.append(c)
        }
    }
    return out
}

private struct Event {
    var uid = ""
    var start = ""
    var summary = ""
    var description = ""
    var triggers: [String] = []
}

private func events(_ feed: String) -> [Event] {
    var events: [Event] = []
    var current: Event?
    var inAlarm = false
    for line in contentLines(feed) {
        switch line {
        case "BEGIN:VEVENT": current = Event()
        case "END:VEVENT": if let event = current { events.append(event) }; current = nil
        case "BEGIN:VALARM": inAlarm = true
        case "END:VALARM": inAlarm = false
        default:
            guard current != nil else { continue }
            if line.hasPrefix("TRIGGER:") { current!.triggers.append(String(line.dropFirst(8))) }
            if inAlarm { continue }
            if line.hasPrefix("UID:") { current!.uid = String(line.dropFirst(4)) }
            if line.hasPrefix("DTSTART;VALUE=DATE:") { current!.start = String(line.dropFirst(19)) }
            if line.hasPrefix("SUMMARY:") { current!.summary = unescapeText(String(line.dropFirst(8))) }
            if line.hasPrefix("DESCRIPTION:") { current!.description = unescapeText(String(line.dropFirst(12))) }
        }
    }
    return events
}

/// The feed without its DTSTAMP lines (the only part that depends on the clock).
private func withoutStamps(_ feed: String) -> String {
    physicalLines(feed).filter { !$0.hasPrefix("DTSTAMP:") }.joined(separator: "\r\n")
}

/// The UID of the event whose summary names `tag`.
private func uid(of tag: String, in feed: String) -> String? {
    events(feed).first { $0.summary.contains(": \(tag) ") }?.uid
}

// MARK: HTML

/// Every element opened is closed, in order; void elements, `<!…>` and `<…/>` open nothing; the
/// content of `<style>` is raw text. Returns the problems (empty: balanced).
private func tagBalanceProblems(_ html: String) -> [String] {
    let void: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                             "source", "track", "wbr"]
    var stack: [String] = []
    var rest = html[...]
    while let lt = rest.firstIndex(of: "<") {
        guard let gt = rest[lt...].firstIndex(of: ">") else { return ["unterminated tag at \(rest[lt...].prefix(40))"] }
        let inside = rest[rest.index(after: lt)..<gt]
        rest = rest[rest.index(after: gt)...]
        if inside.hasPrefix("!") { continue }
        if inside.hasPrefix("/") {
            let name = inside.dropFirst().trimmingCharacters(in: .whitespaces).lowercased()
            guard stack.last == name else { return ["</\(name)> closes <\(stack.last ?? "nothing")>"] }
            stack.removeLast()
            continue
        }
        let name = String(inside.prefix { !$0.isWhitespace && $0 != "/" }).lowercased()
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            return ["bad tag <\(inside.prefix(40))>"]
        }
        if void.contains(name) || inside.hasSuffix("/") { continue }
        if name == "style" || name == "script" {
            guard let end = rest.range(of: "</\(name)>") else { return ["<\(name)> never closed"] }
            rest = rest[end.upperBound...]
            continue
        }
        stack.append(name)
    }
    return stack.isEmpty ? [] : ["left open: \(stack)"]
}

// MARK: - Cases

struct DueBoundary: Sendable, CustomTestStringConvertible {
    let label: String
    let commissioned: String
    let interval: Int
    let asOf: String
    /// nil: nothing listed (exit 0).
    let status: String?
    let when: String?
    let days: Int?
    var testDescription: String { label }
}

private let dueBoundaries: [DueBoundary] = [
    // Due 2026-12-15.
    DueBoundary(label: "due − 31: not listed", commissioned: "2025-12-15", interval: 12, asOf: "2026-11-14",
                status: nil, when: nil, days: nil),
    DueBoundary(label: "due − 30: DUE SOON", commissioned: "2025-12-15", interval: 12, asOf: "2026-11-15",
                status: "due_soon", when: "due in 30 days", days: 30),
    DueBoundary(label: "due − 1: DUE SOON", commissioned: "2025-12-15", interval: 12, asOf: "2026-12-14",
                status: "due_soon", when: "due in 1 day", days: 1),
    DueBoundary(label: "due day: due today", commissioned: "2025-12-15", interval: 12, asOf: "2026-12-15",
                status: "due_soon", when: "due today", days: 0),
    DueBoundary(label: "due + 1: OVERDUE", commissioned: "2025-12-15", interval: 12, asOf: "2026-12-16",
                status: "overdue", when: "due 1 day ago", days: -1),
    // 31 Aug + 6 months = 28 Feb (clamped to the month's end).
    DueBoundary(label: "clamped due − 31: not listed", commissioned: "2026-08-31", interval: 6, asOf: "2027-01-28",
                status: nil, when: nil, days: nil),
    DueBoundary(label: "clamped due − 30: DUE SOON", commissioned: "2026-08-31", interval: 6, asOf: "2027-01-29",
                status: "due_soon", when: "due in 30 days", days: 30),
    DueBoundary(label: "clamped due day (28 Feb)", commissioned: "2026-08-31", interval: 6, asOf: "2027-02-28",
                status: "due_soon", when: "due today", days: 0),
    DueBoundary(label: "clamped due + 1 (1 Mar): OVERDUE", commissioned: "2026-08-31", interval: 6, asOf: "2027-03-01",
                status: "overdue", when: "due 1 day ago", days: -1),
]

struct BadUsage: Sendable, CustomTestStringConvertible {
    let label: String
    let args: [String]
    var env: [String: String] = [:]
    /// A word the one-line reason must mention.
    let mentions: String
    var testDescription: String { label }
}

private let badDueUsages: [BadUsage] = [
    BadUsage(label: "--within -1", args: ["due", "--within", "-1"], mentions: "--within"),
    BadUsage(label: "--within 3651", args: ["due", "--within", "3651"], mentions: "--within"),
    BadUsage(label: "--within abc", args: ["due", "--within", "abc"], mentions: "--within"),
    BadUsage(label: "--as-of 2026-02-30", args: ["due", "--as-of", "2026-02-30"], mentions: "--as-of"),
    BadUsage(label: "--as-of 30/11/2026", args: ["due", "--as-of", "30/11/2026"], mentions: "--as-of"),
    BadUsage(label: "--as-of without a value", args: ["due", "--as-of"], mentions: "--as-of"),
    BadUsage(label: "--format xml", args: ["due", "--format", "xml"], mentions: "--format"),
    BadUsage(label: "unknown option", args: ["due", "--colour"], mentions: "--colour"),
    BadUsage(label: "stray argument", args: ["due", "tomorrow"], mentions: "tomorrow"),
    BadUsage(label: "RIGBOOK_TODAY not a date", args: ["due"], env: ["RIGBOOK_TODAY": "2026-13-01"],
             mentions: "RIGBOOK_TODAY"),
]

private let badExportUsages: [BadUsage] = [
    BadUsage(label: "--format xml", args: ["export", "--format", "xml"], mentions: "--format"),
    BadUsage(label: "--format json --table records", args: ["export", "--format", "json", "--table", "records"],
             mentions: "--table"),
    BadUsage(label: "--table things", args: ["export", "--format", "csv", "--table", "things"], mentions: "--table"),
    BadUsage(label: "--out without a value", args: ["export", "--format", "csv", "--out"], mentions: "--out"),
    BadUsage(label: "unknown option", args: ["export", "--format", "csv", "--pretty"], mentions: "--pretty"),
]

private let badCalendarUsages: [BadUsage] = [
    BadUsage(label: "--alarms x", args: ["calendar", "--alarms", "x"], mentions: "--alarms"),
    BadUsage(label: "--alarms empty", args: ["calendar", "--alarms", ""], mentions: "--alarms"),
    BadUsage(label: "--alarms 7,x", args: ["calendar", "--alarms", "7,x"], mentions: "--alarms"),
    BadUsage(label: "--alarms -1", args: ["calendar", "--alarms", "-1"], mentions: "--alarms"),
    BadUsage(label: "--alarms 366", args: ["calendar", "--alarms", "366"], mentions: "--alarms"),
    BadUsage(label: "--as-of 2026-02-29", args: ["calendar", "--as-of", "2026-02-29"], mentions: "--as-of"),
    BadUsage(label: "unknown option", args: ["calendar", "--private"], mentions: "--private"),
    BadUsage(label: "report --as-of bad", args: ["report", "--as-of", "tomorrow"], mentions: "--as-of"),
    BadUsage(label: "report unknown option", args: ["report", "--pdf"], mentions: "--pdf"),
    BadUsage(label: "report --since bad", args: ["report", "--since", "2026-02-30"], mentions: "--since"),
    BadUsage(label: "report --since after --as-of", args: ["report", "--since", "2026-12-01"], mentions: "--since"),
]

private func expectUsage(_ bad: BadUsage, sourceLocation: SourceLocation = #_sourceLocation) {
    let home = Home(); defer { home.remove() }
    craftFour(home)
    let before = home.registerBytes
    let result = home.run(bad.args, env: bad.env)
    #expect(result.status == 64, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "nothing on stdout for bad usage: \(result)", sourceLocation: sourceLocation)
    #expect(result.stderrIsOneLine, "one line on stderr: \(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.contains(bad.mentions), "the reason names \(bad.mentions): \(result)",
            sourceLocation: sourceLocation)
    #expect(home.registerBytes == before, "bad usage left the register as it was", sourceLocation: sourceLocation)
}

// MARK: - Tests

extension RigbookCLITests {
    @Suite("Reporting: due") struct ReportingDue {
        @Test("the crafted register has exactly one OVERDUE, DUE SOON, OK and UNTESTED")
        func craftedStatuses() {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            #expect(statuses(home) == ["OV-1": "overdue", "DS-1": "due_soon", "OK-1": "ok", "UT-1": "untested"])
        }

        @Test("due lists OVERDUE, DUE SOON, then UNTESTED (due now), with the summary line, and exits 3")
        func listsWhatNeedsAttention() {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            let result = home.run(["due"])
            #expect(result.status == 3, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(result.stdout.hasPrefix("STATUS"), "\(result)")
            #expect(dueRows(result.stdout) == [
                ["OVERDUE", "OV-1", "Zebra web sling", "Yard", "thorough examination", "2026-11-01", "due 29 days ago"],
                ["DUE SOON", "DS-1", "Quokka shackle", "Bay 4", "thorough examination", "2026-12-15", "due in 15 days"],
                ["UNTESTED", "UT-1", "Ibis chain block", "Quay 1", "thorough examination", "now", "never examined"],
            ])
            #expect(lastLine(result.stdout) == "1 OVERDUE, 1 DUE SOON, 1 UNTESTED as of 2026-11-30.")
            // OK (far off) is not for `due`; UNTESTED, never examined, is due now.
            #expect(!result.stdout.contains("OK-1"), "\(result)")
        }

        /// `due` writes its items as it reads them again in order; what it writes must be what
        /// `DueReport.items` over every row in memory gives: the same items, order, counts and summary.
        @Test("due streamed lists what DueReport.items lists in memory, in its order", arguments: [
            ["2026-11-30"], ["2026-11-30", "--within", "0"], ["2026-11-30", "--within", "400"],
            ["2020-01-01"], ["2031-01-01", "--within", "3650"],
        ])
        func streamedMatchesInMemory(_ options: [String]) throws {
            let home = Home(); defer { home.remove() }
            let sample = home.run(["sample", "--assets", "600"])
            #expect(sample.status == 0, "\(sample)")
            let today = try #require(CalendarDate(iso: options[0]))
            let within = options.count > 1 ? Int(options[2]) : nil
            let rows = try Register.openForReading(path: home.registerPath).rows()
            let expected = DueReport.items(rows, today: today, within: within)
            #expect(expected.count > 20, "the sample should have items to order")
            let args = ["due", "--as-of"] + options

            let json = home.run(args + ["--format", "json"])
            #expect(json.status == (expected.isEmpty ? 0 : 3), "\(json)")
            let object = jsonObject(json.stdout)
            let items = try #require(object["items"] as? [[String: Any]])
            #expect(items.map { $0["tag"] as? String } == expected.map(\.row.asset.tag))
            #expect(items.map { $0["status"] as? String } == expected.map(\.status.rawValue))
            #expect(object["summary"] as? String == DueReport.summary(expected, today: today))
            let counts = try #require(object["counts"] as? [String: Int])
            for (status, count) in counts {
                #expect(count == expected.filter { $0.status.rawValue == status }.count, "\(status)")
            }

            let text = home.run(args)
            #expect(text.status == json.status, "\(text)")
            #expect(dueRows(text.stdout).map { $0[1] } == expected.map(\.row.asset.tag))
            #expect(lastLine(text.stdout) == DueReport.summary(expected, today: today))
        }

        @Test("an empty register needs nothing: exit 0, one summary line")
        func emptyRegister() {
            let home = Home(); defer { home.remove() }
            makeEmptyRegister(home: home.path)
            let text = home.run(["due"])
            #expect(text.status == 0, "\(text)")
            #expect(text.stdout == "Nothing needs attention as of 2026-11-30.\n", "\(text)")
            let json = home.run(["due", "--format", "json"])
            #expect(json.status == 0, "\(json)")
            let object = jsonObject(json.stdout)
            #expect(object["needs_attention"] as? Bool == false)
            #expect(json.stdout.contains("\"needs_attention\":false"), "\(json)")
            #expect((object["items"] as? [Any])?.isEmpty == true, "\(json)")
        }

        @Test("--as-of a day when all else is well: only UNTESTED is listed (due whatever the day), exit 3")
        func allOKAsOf() {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            let result = home.run(["due", "--as-of", "2026-06-02"])
            #expect(result.status == 3, "\(result)")
            #expect(dueRows(result.stdout).map { $0[1] } == ["UT-1"], "\(result)")
            #expect(lastLine(result.stdout) == "1 UNTESTED as of 2026-06-02.", "\(result)")
            // The same day through RIGBOOK_TODAY.
            let viaEnvironment = home.run(["due"], env: ["RIGBOOK_TODAY": "2026-06-02"])
            #expect(viaEnvironment.status == 3, "\(viaEnvironment)")
            #expect(viaEnvironment.stdout == result.stdout)
        }

        @Test("bad usage exits 64 with a one-line reason", arguments: badDueUsages)
        func badUsage(_ bad: BadUsage) {
            expectUsage(bad)
        }

        @Test("most urgent first: DO NOT USE, OVERDUE, REMEDY BY, DUE SOON, UNTESTED; earliest date first within each")
        func ordering() throws {
            let home = Home(); defer { home.remove() }
            try craftAll(home)
            #expect(statuses(home) == [
                "DN-1": "do_not_use", "DN-2": "do_not_use", "OV-1": "overdue", "OV-2": "overdue",
                "RB-1": "remedy_by", "RB-2": "remedy_by", "DS-1": "due_soon", "DS-2": "due_soon",
                "QU-1": "quarantined", "WD-1": "withdrawn", "OK-1": "ok", "UT-1": "untested",
            ])
            let text = home.run(["due"])
            #expect(text.status == 3, "\(text)")
            let rows = dueRows(text.stdout)
            #expect(rows.map { $0[1] } == ["DN-2", "DN-1", "OV-2", "OV-1", "RB-2", "RB-1", "DS-2", "DS-1", "UT-1"],
                    "\(text)")
            #expect(rows.map { $0[0] } == ["DO NOT USE", "DO NOT USE", "OVERDUE", "OVERDUE", "REMEDY BY", "REMEDY BY",
                                            "DUE SOON", "DUE SOON", "UNTESTED"])
            // DATE says what is due: a DO NOT USE item before use (not the day it failed), an UNTESTED one now.
            #expect(rows.map { $0[5] } == ["before use", "before use", "2026-10-15", "2026-11-01", "2026-12-10",
                                            "2026-12-20", "2026-12-05", "2026-12-15", "now"], "\(text)")
            // DO NOT USE says why, never "due in 355 days".
            #expect(rows.map { $0.last ?? "" } == [
                "remedy deadline 2026-11-15 passed",
                "failed dangerous on 2026-11-20, not cleared by a thorough examination",
                "due 46 days ago", "due 29 days ago",
                "remedy deadline in 10 days", "remedy deadline in 20 days", "due in 5 days", "due in 15 days",
                "never examined",
            ])
            #expect(lastLine(text.stdout)
                    == "2 DO NOT USE, 2 OVERDUE, 2 REMEDY BY, 2 DUE SOON, 1 UNTESTED as of 2026-11-30.")

            let json = home.run(["due", "--format", "json"])
            #expect(json.status == 3, "\(json)")
            let object = jsonObject(json.stdout)
            let items = (object["items"] as? [[String: Any]]) ?? []
            #expect(items.compactMap { $0["tag"] as? String }
                    == ["DN-2", "DN-1", "OV-2", "OV-1", "RB-2", "RB-1", "DS-2", "DS-1", "UT-1"])
            #expect(items.compactMap { $0["date"] as? String }
                    == ["2026-11-15", "2026-11-20", "2026-10-15", "2026-11-01",
                        "2026-12-10", "2026-12-20", "2026-12-05", "2026-12-15"])
            #expect(items.compactMap { ($0["days"] as? NSNumber)?.intValue } == [-15, -10, -46, -29, 10, 20, 5, 15])
            #expect(items.map { $0["reason"] as? String } == [
                "remedy deadline 2026-11-15 passed",
                "failed dangerous on 2026-11-20, not cleared by a thorough examination",
                nil, nil, nil, nil, nil, nil, nil,
            ])
            #expect(items.allSatisfy { $0.keys.contains("reason") })
            // `date` stays the date that matters; `due`, added after it, says what is due.
            #expect(items.map { $0["due"] as? String } == ["before_use", "before_use", "2026-10-15", "2026-11-01",
                                                           "2026-12-10", "2026-12-20", "2026-12-05", "2026-12-15",
                                                           "now"])
            let counts = object["counts"] as? [String: Any] ?? [:]
            #expect(counts.mapValues { ($0 as? NSNumber)?.intValue ?? -1 }
                    == ["do_not_use": 2, "overdue": 2, "remedy_by": 2, "due_soon": 2, "ok": 0, "untested": 1])
        }

        @Test("--within 5 drops DUE SOON items further off, never the urgent ones; --within 0 keeps only today")
        func within() throws {
            let home = Home(); defer { home.remove() }
            try craftAll(home)
            let five = home.run(["due", "--within", "5"])
            #expect(five.status == 3, "\(five)")
            #expect(dueRows(five.stdout).map { $0[1] }
                    == ["DN-2", "DN-1", "OV-2", "OV-1", "RB-2", "RB-1", "DS-2", "UT-1"], "\(five)")
            let four = home.run(["due", "--within", "4"])
            #expect(dueRows(four.stdout).map { $0[1] } == ["DN-2", "DN-1", "OV-2", "OV-1", "RB-2", "RB-1", "UT-1"],
                    "\(four)")
            #expect(lastLine(four.stdout) == "2 DO NOT USE, 2 OVERDUE, 2 REMEDY BY, 1 UNTESTED as of 2026-11-30.")
            let json = jsonObject(home.run(["due", "--within", "5", "--format", "json"]).stdout)
            #expect((json["within_days"] as? NSNumber)?.intValue == 5)
            // DS-2 is due 2026-12-05: --within 0 on that day keeps it ("due today"), the day before drops it.
            let dueDay = home.run(["due", "--within", "0", "--as-of", "2026-12-05"])
            #expect(dueRows(dueDay.stdout).contains { $0[1] == "DS-2" && $0.last == "due today" }, "\(dueDay)")
            let dayBefore = home.run(["due", "--within", "0", "--as-of", "2026-12-04"])
            #expect(!dayBefore.stdout.contains("DS-2"), "\(dayBefore)")
        }

        @Test("--within 60 adds OK items falling due within 60 days")
        func withinBeyondThirty() {
            let home = Home(); defer { home.remove() }
            // Due 2027-01-14: 45 days after 2026-11-30.
            home.addAsset("OK-2", "Gannet hook", type: "hook", commissioned: "2026-01-14", location: "Yard")
            #expect(home.run(["due"]).status == 0)
            let result = home.run(["due", "--within", "60", "--format", "json"])
            #expect(result.status == 3, "\(result)")
            let items = (jsonObject(result.stdout)["items"] as? [[String: Any]]) ?? []
            #expect(items.count == 1)
            #expect(items.first?["tag"] as? String == "OK-2")
            #expect(items.first?["status"] as? String == "ok")
            #expect((items.first?["days"] as? NSNumber)?.intValue == 45)
        }

        @Test("boundary days with --as-of", arguments: dueBoundaries)
        func boundary(_ c: DueBoundary) {
            let home = Home(); defer { home.remove() }
            home.addAsset("BD-1", "Boundary sling", interval: c.interval, commissioned: c.commissioned,
                          location: "Yard")
            let result = home.run(["due", "--as-of", c.asOf])
            let json = home.run(["due", "--as-of", c.asOf, "--format", "json"])
            let object = jsonObject(json.stdout)
            let items = (object["items"] as? [[String: Any]]) ?? []
            #expect(object["as_of"] as? String == c.asOf)
            if let status = c.status {
                #expect(result.status == 3, "\(result)")
                #expect(json.status == 3, "\(json)")
                #expect(items.count == 1)
                #expect(items.first?["status"] as? String == status)
                #expect((items.first?["days"] as? NSNumber)?.intValue == c.days)
                #expect(dueRows(result.stdout).first?.last == c.when, "\(result)")
                #expect(object["needs_attention"] as? Bool == true)
            } else {
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout == "Nothing needs attention as of \(c.asOf).\n", "\(result)")
                #expect(items.isEmpty)
                #expect(object["needs_attention"] as? Bool == false)
            }
        }

        @Test("history says why an asset is DO NOT USE, and shows a withdrawn one no next due date")
        func historyHeader() throws {
            let home = Home(); defer { home.remove() }
            try craftAll(home)
            let missed = home.run(["history", "DN-2"])
            #expect(missed.status == 0, "\(missed)")
            #expect(missed.stdout.hasPrefix(
                "DN-2 · Narwhal beam clamp · DO NOT USE: remedy deadline 2026-11-15 passed · remedy due before use\n"),
                    "\(missed)")
            let failed = home.run(["history", "DN-1"]).stdout
            #expect(failed.hasPrefix(
                "DN-1 · Newt lever hoist · DO NOT USE: failed dangerous on 2026-11-20, not cleared by a thorough "
                + "examination · thorough examination due before use\n"), "\(failed)")
            let withdrawn = home.run(["history", "WD-1"]).stdout
            #expect(withdrawn.hasPrefix("WD-1 · Walrus wire rope sling · WITHDRAWN: withdrawn from service: "
                                        + "no examination due\n"), "\(withdrawn)")
            let ok = home.run(["history", "OK-1"]).stdout
            #expect(ok.hasPrefix("OK-1 · Heron hook · OK: next thorough examination due 2027-06-01\n"), "\(ok)")
        }

        @Test("--format json: schema_version 1, typed fields, needs_attention a bool")
        func jsonSchema() throws {
            let home = Home(); defer { home.remove() }
            try craftAll(home)
            let result = home.run(["due", "--format", "json"])
            #expect(result.status == 3, "\(result)")
            #expect(result.stdout.hasSuffix("}\n"))
            let object = jsonObject(result.stdout)
            #expect((object["schema_version"] as? NSNumber)?.intValue == 1)
            #expect(object["as_of"] as? String == "2026-11-30")
            // Without --within each asset's own DUE SOON window applies: no one horizon.
            #expect(object["within_days"] is NSNull)
            #expect(object["needs_attention"] as? Bool == true)
            #expect(result.stdout.contains("\"needs_attention\":true"), "needs_attention must be a JSON bool")
            #expect(object["summary"] as? String
                    == "2 DO NOT USE, 2 OVERDUE, 2 REMEDY BY, 2 DUE SOON, 1 UNTESTED as of 2026-11-30.")
            let items = try #require(object["items"] as? [[String: Any]])
            #expect(items.count == 9)
            let known = Set(statuses(home).map { $0.key })
            for item in items {
                #expect(known.contains(item["tag"] as? String ?? ""), "\(item)")
                #expect(statusValues.contains(item["status"] as? String ?? ""), "\(item)")
                // UNTESTED has no date to count from: date and days are null.
                let dated = item["status"] as? String != "untested"
                #expect(isDateOrNull(item["date"]) && (item["date"] is NSNull) != dated, "\(item)")
                #expect((item["days"] is NSNumber) == dated, "\(item)")
                #expect(item["name"] is String && item["location"] is String, "\(item)")
                let uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/
                #expect((item["uuid"] as? String)?.wholeMatch(of: uuid) != nil, "\(item)")
            }
        }

        @Test("RIGBOOK_TODAY moves today for due")
        func todayFromEnvironment() {
            let home = Home(); defer { home.remove() }
            home.addAsset("BD-1", "Boundary sling", commissioned: "2025-12-15", location: "Yard")
            let result = home.run(["due"], env: ["RIGBOOK_TODAY": "2026-12-15"])
            #expect(result.status == 3, "\(result)")
            #expect(dueRows(result.stdout).first?.last == "due today", "\(result)")
            #expect(lastLine(result.stdout) == "1 DUE SOON as of 2026-12-15.")
            // --as-of wins over RIGBOOK_TODAY.
            let asOf = home.run(["due", "--as-of", "2026-12-16"], env: ["RIGBOOK_TODAY": "2026-12-15"])
            #expect(lastLine(asOf.stdout) == "1 OVERDUE as of 2026-12-16.", "\(asOf)")
        }
    }
}

extension RigbookCLITests {
    @Suite("Reporting: calendar") struct ReportingCalendar {
        @Test("CRLF line ends, physical lines of at most 75 octets, whole UTF-8 sequences, one event per dated asset")
        func wellFormed() {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            let longCJK = String(repeating: "吊带，蓝色；", count: 33)          // 198 characters, 594 octets
            home.addAsset("CJK-1", longCJK, type: "round-sling", commissioned: "2026-01-01",
                          location: "仓库 A, bay; 3")
            home.addAsset("ESC-1", #"Sling, "big"; back\slash, and a long tail to fold across the 75 octet line"#,
                          commissioned: "2026-01-01", location: "Bay, 4")
            let result = home.run(["calendar"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            let feed = result.stdout
            #expect(feed.hasPrefix("BEGIN:VCALENDAR\r\n"))
            #expect(feed.hasSuffix("END:VCALENDAR\r\n"))
            let bytes = Array(feed.utf8)
            let bareLF = bytes.indices.first { bytes[$0] == 10 && ($0 == 0 || bytes[$0 - 1] != 13) }
            let bareCR = bytes.indices.first { bytes[$0] == 13 && ($0 + 1 == bytes.count || bytes[$0 + 1] != 10) }
            #expect(bareLF == nil, "a bare LF at octet \(bareLF ?? -1)")
            #expect(bareCR == nil, "a bare CR at octet \(bareCR ?? -1)")
            // Split the octets at CRLF: each physical line ≤ 75 octets and valid UTF-8 on its own.
            var start = 0, lineNumber = 0, longest = 0
            var i = 0
            while i + 1 < bytes.count {
                if bytes[i] == 13 && bytes[i + 1] == 10 {
                    let line = Array(bytes[start..<i])
                    lineNumber += 1
                    longest = max(longest, line.count)
                    #expect(line.count <= 75, "line \(lineNumber) has \(line.count) octets")
                    #expect(String(validating: line, as: UTF8.self) != nil,
                            "line \(lineNumber) splits a UTF-8 sequence")
                    start = i + 2
                    i += 2
                    continue
                }
                i += 1
            }
            #expect(longest > 60, "the long names should have needed folding (longest line \(longest))")
            let all = events(feed)
            // UT-1 has no date: no event.
            #expect(all.count == 5, "\(all.map(\.summary))")
            #expect(!feed.contains("UT-1"))
            #expect(all.contains { $0.summary == "Thorough examination due: CJK-1 \(longCJK)" },
                    "CJK name survives folding")
            let escaped = #"Thorough examination due: ESC-1 Sling, "big"; back\slash, and a long tail"#
                + " to fold across the 75 octet line"
            #expect(all.contains { $0.summary == escaped })
            #expect(all.first { $0.summary.contains("OV-1") }?.start == "20261101")
            #expect(all.first { $0.summary.contains("DS-1") }?.start == "20261215")
        }

        @Test("UIDs are the same on every run")
        func stableUIDs() {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            let first = home.run(["calendar"]), second = home.run(["calendar"])
            #expect(first.status == 0 && second.status == 0)
            let uids = events(first.stdout).map(\.uid)
            #expect(uids.count == 3)
            #expect(Set(uids).count == uids.count, "UIDs are unique")
            #expect(uids.allSatisfy { $0.wholeMatch(of: /[0-9a-f]{16}@rigbook/) != nil }, "\(uids)")
            #expect(events(second.stdout).map(\.uid) == uids)
            #expect(withoutStamps(first.stdout) == withoutStamps(second.stdout))
        }

        @Test("a new due date gives that asset a new UID and leaves the others alone")
        func changedDueDateChangesUID() throws {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            let before = home.run(["calendar"]).stdout
            let oldDS = try #require(uid(of: "DS-1", in: before))
            let oldOV = uid(of: "OV-1", in: before), oldOK = uid(of: "OK-1", in: before)
            // A thorough examination moves DS-1's due date from 2026-12-15 to 2027-11-28.
            try home.addRecord("DS-1", passValues(on: "2026-11-28"))
            let after = home.run(["calendar"]).stdout
            let newDS = try #require(uid(of: "DS-1", in: after))
            #expect(newDS != oldDS)
            #expect(!after.contains(oldDS), "the old event is gone, not duplicated")
            #expect(events(after).first { $0.uid == newDS }?.start == "20271128")
            #expect(uid(of: "OV-1", in: after) == oldOV)
            #expect(uid(of: "OK-1", in: after) == oldOK)
            #expect(events(after).count == events(before).count)
        }

        @Test("--redact leaves every tag, name and type out", arguments: [["--redact"], ["--redact", "--digest"]])
        func redact(_ flags: [String]) throws {
            let home = Home(); defer { home.remove() }
            try craftAll(home)
            let plain = home.run(["calendar"] + flags.filter { $0 != "--redact" })
            let result = home.run(["calendar"] + flags)
            #expect(result.status == 0, "\(result)")
            let unfolded = contentLines(result.stdout).joined(separator: "\n")
            let text = unescapeText(unfolded)
            for object in listAssets(home: home.path) {
                let tag = string(object, "tag") ?? "?", name = string(object, "name") ?? "?"
                #expect(!text.contains(tag) && !result.stdout.contains(tag), "tag \(tag) in a redacted feed")
                #expect(!text.contains(name), "name \(name) in a redacted feed")
                // The plain feed does show them (so the check above can fail); nothing dated is due on a withdrawn,
                // untested or DO NOT USE asset (this one's remedy deadline aside).
                if !["withdrawn", "untested", "do_not_use"].contains(string(object, "status") ?? "")
                    && !flags.contains("--digest") {
                    #expect(unescapeText(contentLines(plain.stdout).joined(separator: "\n")).contains(tag))
                }
            }
            for type in ["Web sling", "Shackle", "Hook", "Chain block", "Round sling", "Eyebolt", "Other"] {
                #expect(!text.contains("Type: \(type)") && !text.contains(type), "type \(type) in a redacted feed")
            }
            #expect(events(result.stdout).count == events(plain.stdout).count, "redacting drops no event")
            #expect(events(result.stdout).map(\.uid) == events(plain.stdout).map(\.uid), "redacting keeps the UIDs")
        }

        @Test("--digest: one event per date")
        func digest() {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            home.addAsset("DS-3", "Tapir shackle", type: "shackle", commissioned: "2025-12-15", location: "Bay 4")
            let plain = events(home.run(["calendar"]).stdout)
            let result = home.run(["calendar", "--digest"])
            #expect(result.status == 0, "\(result)")
            let digest = events(result.stdout)
            #expect(plain.count == 4)
            #expect(digest.count == 3, "\(digest.map(\.summary))")
            #expect(Set(digest.map(\.start)).count == digest.count, "one event per date")
            #expect(Set(digest.map(\.start)) == Set(plain.map(\.start)))
            let shared = digest.first { $0.start == "20261215" }
            #expect(shared?.summary == "2 items due for thorough examination")
            #expect(shared?.description.contains("DS-1") == true && shared?.description.contains("DS-3") == true)
            #expect(Set(digest.map(\.uid)).isDisjoint(with: plain.map(\.uid)))
        }

        @Test("--alarms 7: one alarm, 7 days before, on every event")
        func alarms() {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            let standard = events(home.run(["calendar"]).stdout)
            #expect(standard.allSatisfy { $0.triggers == ["-P30D", "-P1D"] }, "\(standard.map(\.triggers))")
            let result = home.run(["calendar", "--alarms", "7"])
            #expect(result.status == 0, "\(result)")
            let seven = events(result.stdout)
            #expect(seven.count == 3)
            #expect(seven.allSatisfy { $0.triggers == ["-P7D"] }, "\(seven.map(\.triggers))")
            let triggerLines = contentLines(result.stdout).filter { $0.hasPrefix("TRIGGER") }
            #expect(triggerLines == Array(repeating: "TRIGGER:-P7D", count: 3))
            let zero = events(home.run(["calendar", "--alarms", "0"]).stdout)
            #expect(zero.allSatisfy { $0.triggers == ["PT0S"] }, "\(zero.map(\.triggers))")
        }

        @Test("bad calendar and report usage exits 64", arguments: badCalendarUsages)
        func badUsage(_ bad: BadUsage) {
            expectUsage(bad)
        }

        @Test("due --format ics is the calendar feed", arguments: [[], ["--as-of", "2026-12-20"]])
        func dueICSIsTheFeed(_ extra: [String]) throws {
            let home = Home(); defer { home.remove() }
            try craftAll(home)
            let calendar = home.run(["calendar"] + extra)
            let due = home.run(["due", "--format", "ics"] + extra)
            #expect(calendar.status == 0, "\(calendar)")
            #expect(due.status == 3, "due still exits 3 when something needs attention: \(due)")
            #expect(!withoutStamps(due.stdout).isEmpty)
            #expect(withoutStamps(due.stdout) == withoutStamps(calendar.stdout))
        }

        @Test("--out writes the feed; reporting never writes the register")
        func outAndRegisterUntouched() throws {
            let home = Home(); defer { home.remove() }
            try craftAll(home)
            let register = home.registerBytes
            #expect(register != nil)
            let stdout = home.run(["calendar"])
            let out = home.sub("feed.ics")
            let written = home.run(["calendar", "--out", out])
            #expect(written.status == 0, "\(written)")
            #expect(written.stdout.isEmpty)
            #expect(written.stderr == "rigbook: wrote \(out)\n")
            #expect(withoutStamps(readFile(out) ?? "") == withoutStamps(stdout.stdout))
            for args in [["due"], ["due", "--format", "json"], ["due", "--format", "ics"], ["calendar", "--digest"],
                         ["export", "--format", "json"], ["export", "--format", "csv", "--table", "records"],
                         ["report", "--out", home.sub("r.html")]] {
                let result = home.run(args)
                #expect([0, 3].contains(result.status), "\(args): \(result)")
            }
            #expect(home.registerBytes == register, "a reporting command changed the register file")
            let documents = try FileManager.default.contentsOfDirectory(atPath: DataHome(root: home.path).documents)
            #expect(documents.filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.sorted() == ["register.sqlite"],
                    "\(documents)")
        }
    }
}

extension RigbookCLITests {
    @Suite("Reporting: export") struct ReportingExport {
        static let awkwardNames = [
            #"Sling, "big" one"#,
            "吊带 2 吨，蓝色",
            "=SUM(1,2)",
            "+44 lever hoist",
            "-5 kg test weight",
            "@hoist",
            #""Quoted" at the start"#,
            "Plain name",
        ]

        @Test("CSV (assets) is RFC 4180 and round-trips awkward names, with formulas neutralised")
        func csvAssets() throws {
            let home = Home(); defer { home.remove() }
            for (index, name) in Self.awkwardNames.enumerated() {
                home.addAsset("EX-\(index)", name, commissioned: "2026-0\(index % 9 + 1)-01",
                              location: index == 0 ? "Bay 4, north" : "=cmd|' /C calc'!A0",
                              extra: ["--manufacturer", index == 1 ? "上海起重" : "+Acme",
                                      "--serial", "-SN\(index)"])
            }
            let result = home.run(["export", "--format", "csv"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            let records = try readCSV(result.stdout)
            #expect(records.first == documentedColumns)
            let rows = Array(records.dropFirst())
            let listed = listAssets(home: home.path)
            #expect(rows.count == listed.count)
            #expect(rows.count == Self.awkwardNames.count)
            for row in rows { #expect(row.count == documentedColumns.count, "\(row)") }
            for object in listed {
                let tag = string(object, "tag") ?? "?"
                guard let row = rows.first(where: { $0.first == tag }) else {
                    Issue.record("no CSV row for \(tag)")
                    continue
                }
                for (column, cell) in zip(documentedColumns, row) {
                    #expect(cell == neutralised(csvText(object[column], column: column)), "\(tag) \(column)")
                }
            }
            // Each name comes back exactly, apart from the apostrophe in front of a formula.
            let names = rows.map { $0[1] }
            for name in Self.awkwardNames {
                let expected = "=+-@".contains(name.first!) ? "'" + name : name
                #expect(names.contains(expected), "\(name.debugDescription) came back as one of \(names)")
            }
            #expect(names.contains("'=SUM(1,2)") && names.contains("'+44 lever hoist")
                    && names.contains("'-5 kg test weight") && names.contains("'@hoist"))
            #expect(rows.allSatisfy { $0[5] == "Bay 4, north" || $0[5] == "'=cmd|' /C calc'!A0" })
            #expect(result.stdout.contains("\"Sling, \"\"big\"\" one\""), "quotes doubled inside a quoted field")
        }

        @Test("a comma or quote followed by a combining mark is still quoted (a tag or name may hold one)")
        func csvCombiningMarks() throws {
            let home = Home(); defer { home.remove() }
            // U+0301 COMBINING ACUTE ACCENT right after the comma / quote.
            let tag = "HK,\u{301}1", name = "Hook \"\u{301}5 t\""
            home.addAsset(tag, name, type: "hook", commissioned: "2026-01-01", location: "Yard")
            let result = home.run(["export", "--format", "csv"])
            #expect(result.status == 0, "\(result)")
            do {
                let records = try readCSV(result.stdout)
                #expect(records.count == 2)
                #expect(records.dropFirst().first?.count == documentedColumns.count, "the tag's comma split the row")
                #expect(records.dropFirst().first?.first == tag)
                #expect(records.dropFirst().first?.dropFirst().first == name)
            } catch {
                let asset = "\(tag.debugDescription) / \(name.debugDescription)"
                Issue.record("export --format csv is not RFC 4180 for \(asset): \(error)")
            }
        }

        @Test("CSV records table: the documented columns, multi-line notes round-trip, formulas neutralised")
        func csvRecords() throws {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            let notes = "Line one, with a comma\nLine two \"quoted\"\n吊带检查完毕"
            try home.addRecord("OV-1", passValues(on: "2026-11-02", notes: notes))
            try home.addRecord("DS-1", remedyValues(on: "2026-11-20", deadline: "2027-01-15",
                                                    defect: "-5% stretch on leg 2", notes: "=1+1"))
            try home.addRecord("DS-1", passValues(on: "2026-11-25"))
            let result = home.run(["export", "--format", "csv", "--table", "records"])
            #expect(result.status == 0, "\(result)")
            let records = try readCSV(result.stdout)
            let columns = ["id", "asset_tag", "asset_uuid", "saved_at", "draft_id", "amends", "operator", "app_version",
                           "asset_wll_kg", "asset_location", "inspection_type", "inspector_name",
                           "certification_number",
                           "check_marking", "check_cuts", "check_deformation", "check_fittings", "check_corrosion",
                           "result", "notes", "scheme_reference", "defect_description", "action", "remedy_deadline_set",
                           "remedy_deadline", "inspection_date", "confirmed",
                           "record_uuid", "amends_uuid", "superseded_by", "superseded_by_uuid", "amendment_reason",
                           "report_number", "examination_basis", "installed_correctly", "test_particulars",
                           "repair_particulars", "remedy_particulars", "next_examination_by", "employer_name",
                           "employer_address", "site_name", "site_address", "previous_thorough_examination",
                           "record_hash", "also_amends_uuids", "attachments", "outranked_by", "outranked_by_uuid"]
            // The inspection record's columns come first; `kind` and the electrical test's follow.
            #expect(records.first.map { Array($0.prefix(columns.count)) } == columns)
            #expect(records.first.map { $0.count > columns.count ? $0[columns.count] : "" } == "kind")
            let rows = Array(records.dropFirst())
            #expect(rows.count == 3)
            for row in rows {
                #expect(row.count == records.first?.count, "\(row)")
                #expect(row.count > columns.count && row[columns.count] == "inspection", "\(row)")
            }
            // Every cell matches `history TAG --format json` (and the asset list for the asset's columns).
            let assets = Dictionary(uniqueKeysWithValues: listAssets(home: home.path).map {
                (string($0, "tag") ?? "", $0)
            })
            for tag in ["OV-1", "DS-1"] {
                let history = home.run(["history", tag, "--format", "json"])
                let objects = parseAssetJSON(history.stdout)
                for object in objects {
                    let id = csvText(object["id"], column: "id")
                    guard let row = rows.first(where: { $0[0] == id }) else {
                        Issue.record("record \(id) not exported"); continue
                    }
                    for (column, cell) in zip(columns, row) {
                        switch column {
                        case "asset_uuid": #expect(cell == string(assets[tag] ?? [:], "uuid"))
                        case "asset_wll_kg": #expect(cell == csvText(assets[tag]?["wll_kg"], column: column))
                        case "asset_location": #expect(cell == string(assets[tag] ?? [:], "location"))
                        case "attachments":  // JSON: an array; CSV: `<sha256> <size> <name>` per line (none here)
                            #expect(cell == "" && (object[column] as? [Any])?.isEmpty == true)
                        default:
                            #expect(cell == neutralised(csvText(object[column], column: column)),
                                    "record \(id) \(column)")
                        }
                    }
                }
            }
            #expect(rows.contains { $0[19] == notes }, "multi-line notes round-trip")
            #expect(rows.contains { $0[19] == "'=1+1" && $0[21] == "'-5% stretch on leg 2" }, "formulas neutralised")
            #expect(result.stdout.contains("\n"), "the notes' LF is inside a quoted field")
        }

        @Test("JSON: schema_version 1, every asset as asset list shows it, every record")
        func json() throws {
            let home = Home(); defer { home.remove() }
            try craftAll(home)
            try home.addRecord("OV-1", passValues(on: "2026-11-02", notes: "two\nlines"))
            let result = home.run(["export", "--format", "json"])
            #expect(result.status == 0, "\(result)")
            let object = jsonObject(result.stdout)
            #expect((object["schema_version"] as? NSNumber)?.intValue == 1)
            #expect(object["as_of"] as? String == "2026-11-30")
            let stamp = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/
            #expect((object["generated_at"] as? String)?.wholeMatch(of: stamp) != nil)
            let assets = try #require(object["assets"] as? [[String: Any]])
            let listed = listAssets(home: home.path)
            #expect(assets.count == listed.count)
            #expect(assets.count == 12)
            for (exported, shown) in zip(assets, listed) {
                let tag = string(shown, "tag") ?? "?"
                #expect(Set(exported.keys) == Set(documentedColumns), "\(tag): \(exported.keys.sorted())")
                // Compared as text (Foundation on Linux tells a JSON false from 0 inconsistently).
                for column in documentedColumns {
                    #expect(csvText(exported[column], column: column) == csvText(shown[column], column: column),
                            "\(tag) \(column) differs from asset list")
                    #expect((exported[column] is NSNull) == (shown[column] is NSNull), "\(tag) \(column) null")
                }
            }
            let records = try #require(object["records"] as? [[String: Any]])
            #expect(records.count == 7)
            #expect(Set(records.compactMap { ($0["id"] as? NSNumber)?.intValue }).count == 7)
            let tags = Set(listed.compactMap { string($0, "tag") })
            #expect(records.allSatisfy { tags.contains($0["asset_tag"] as? String ?? "") })
            #expect(records.contains { $0["notes"] as? String == "two\nlines" })
            #expect(records.allSatisfy { $0["confirmed"] as? Bool == true })
        }

        @Test("an empty register exports a header or empty arrays")
        func emptyRegister() {
            let home = Home(); defer { home.remove() }
            makeEmptyRegister(home: home.path)
            let csv = home.run(["export", "--format", "csv"])
            #expect(csv.status == 0, "\(csv)")
            #expect((try? readCSV(csv.stdout)) == [documentedColumns])
            let json = jsonObject(home.run(["export", "--format", "json"]).stdout)
            #expect((json["assets"] as? [Any])?.count == 0)
            #expect((json["records"] as? [Any])?.count == 0)
        }

        @Test("--out FILE writes the same bytes as standard output, atomically replacing an old file")
        func outFile() throws {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            try home.addRecord("OV-1", passValues(on: "2026-11-02"))
            let folder = home.sub("exports")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/assets.csv"
            try Data("old contents\n".utf8).write(to: URL(fileURLWithPath: path))
            let stdout = home.run(["export", "--format", "csv"])
            let written = home.run(["export", "--format", "csv", "--out", path])
            #expect(written.status == 0, "\(written)")
            #expect(written.stdout.isEmpty, "\(written)")
            #expect(written.stderr == "rigbook: wrote \(path)\n")
            #expect(readFile(path) == stdout.stdout)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["assets.csv"],
                    "no temp file left behind")

            let jsonPath = folder + "/all.json"
            let json = home.run(["export", "--format", "json", "--out", jsonPath])
            #expect(json.status == 0, "\(json)")
            var fromFile = jsonObject(readFile(jsonPath) ?? "")
            var fromStdout = jsonObject(home.run(["export", "--format", "json"]).stdout)
            #expect(fromFile["generated_at"] != nil)
            fromFile["generated_at"] = nil
            fromStdout["generated_at"] = nil
            #expect(NSDictionary(dictionary: fromFile).isEqual(to: fromStdout))
        }

        @Test("--out into a folder that does not exist: exit 1, a one-line reason, nothing written",
              arguments: [["export", "--format", "csv"], ["calendar"], ["report"]])
        func outMissingFolder(_ command: [String]) {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            let missing = home.sub("no-such-folder")
            let path = missing + "/out.file"
            let result = home.run(command + ["--out", path])
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(!fileExists(path), "\(path) was written")
            #expect(!fileExists(missing), "\(missing) was created")
        }

        @Test("--out under a regular file: exit 1, one line, nothing written")
        func outUnderAFile() throws {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            let blocker = home.sub("a-file")
            try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
            let result = home.run(["export", "--format", "csv", "--out", blocker + "/out.csv"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(readFile(blocker) == "x")
        }

        @Test("--out that cannot be written says why in plain words, like every other write failure")
        func outFailureIsPlain() throws {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            let blocker = home.sub("a-file")
            try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
            let result = home.run(["export", "--format", "csv", "--out", blocker + "/sub/out.csv"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.hasPrefix("rigbook: cannot write "), "\(result)")
            #expect(result.stderr.contains("nothing was written"), "\(result)")
            #expect(!result.stderr.contains("Error Domain="), "a raw Foundation error: \(result)")
        }

        @Test("bad export usage exits 64", arguments: badExportUsages)
        func badUsage(_ bad: BadUsage) {
            expectUsage(bad)
        }

        @Test("drafts are never read: due, list, exports, calendar and report are unchanged by one")
        func draftsNeverRead() throws {
            let home = Home(); defer { home.remove() }
            craftFour(home)
            try home.addRecord("OV-1", passValues(on: "2026-10-30"))
            let commands: [[String]] = [["due"], ["due", "--format", "json"], ["asset", "list", "--format", "json"],
                                        ["export", "--format", "csv"],
                                        ["export", "--format", "csv", "--table", "records"],
                                        ["export", "--format", "json"], ["calendar"], ["report"],
                                        ["history", "OK-1", "--format", "json"]]
            func snapshot() -> [String] {
                commands.map { args in
                    let result = home.run(args)
                    // The clock's marks out: DTSTAMP, generated_at, the report's "Generated …" line.
                    let lines = result.stdout
                        .replacing(/DTSTAMP:[0-9]{8}T[0-9]{6}Z/, with: "DTSTAMP:")
                        .replacing(/"generated_at":"[^"]*"/, with: "")
                        // The report's making, in its head, its first lines and its footer.
                        .replacing(/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z/, with: "")
                    return "exit \(result.status)\n" + lines
                }
            }
            let before = snapshot()
            #expect(before[0].hasPrefix("exit 3"))

            // Drafts saying OK-1 failed dangerously and DS-1 passed today: applied, either would change statuses.
            let listed = listAssets(home: home.path)
            let drafts = DataHome(root: home.path).draftsFolder
            try FileManager.default.createDirectory(atPath: drafts, withIntermediateDirectories: true)
            for (tag, result) in [("OK-1", "fail_dangerous"), ("DS-1", "pass")] {
                let uuid = try #require(listed.first { string($0, "tag") == tag }.flatMap { string($0, "uuid") })
                let now = Timestamp.now()
                let draft = """
                    {
                      "amends" : null,
                      "app_version" : "0.1.0",
                      "asset_tag" : "\(tag)",
                      "asset_uuid" : "\(uuid)",
                      "created_at" : "\(now)",
                      "draft_id" : "inspection-\(uuid)",
                      "form_kind" : "inspection",
                      "host" : "depot-laptop",
                      "operator" : "Jane Doe",
                      "os_user" : "jane",
                      "pid" : 18096,
                      "revision" : 7,
                      "schema_version" : 1,
                      "session_id" : "inspection-\(uuid):0b0c6f5e-0000-4000-8000-000000000001",
                      "updated_at" : "\(now)",
                      "values" : {
                        "inspection_type" : "thorough_periodic",
                        "inspector_name" : "Jane Doe",
                        "certification_number" : "LEEA-9",
                        "check_marking" : true,
                        "check_cuts" : true,
                        "check_deformation" : \(result == "pass"),
                        "check_fittings" : true,
                        "check_corrosion" : true,
                        "result" : "\(result)",
                        "notes" : "draft only",
                        "scheme_reference" : "",
                        "defect_description" : "\(result == "pass" ? "" : "Hook throat opened")",
                        "action" : "\(result == "pass" ? "none" : "withdraw")",
                        "remedy_deadline_set" : false,
                        "remedy_deadline" : "",
                        "inspection_date" : "2026-11-30",
                        "confirmed" : true
                      }
                    }
                    """
                try Data(draft.utf8).write(to: URL(fileURLWithPath: drafts + "/inspection-\(uuid).json"))
            }
            // The drafts are well-formed: the draft store reads both and sets none aside.
            let draftList = home.run(["drafts", "list", "--format", "json"])
            #expect(draftList.status == 0, "\(draftList)")
            #expect(parseAssetJSON(draftList.stdout).count == 2, "\(draftList)")
            #expect(!fileExists(drafts + "/Corrupt"))

            let after = snapshot()
            for (args, (old, new)) in zip(commands, zip(before, after)) {
                #expect(old == new, "\(args.joined(separator: " ")) changed because of a draft")
            }
            #expect(statuses(home) == ["OV-1": "ok", "DS-1": "due_soon", "OK-1": "ok", "UT-1": "untested"])
            let draftFiles = try FileManager.default.contentsOfDirectory(atPath: drafts)
                .filter { $0.hasSuffix(".json") }
            #expect(draftFiles.count == 2, "the drafts are still there")
        }
    }
}

extension RigbookCLITests {
    @Suite("Reporting: report") struct ReportingReport {
        @Test("report narrows with --type and --site, widens with --all-particulars; the default is the short page")
        func reportScopes() throws {
            let home = Home(); defer { home.remove() }
            #expect(home.run(["sample"]).status == 0)
            let page = home.run(["report"]).stdout
            #expect(!page.contains("<section class=\"part\" data-asset="),
                    "the default page holds no full Schedule 1 blocks")
            #expect(!page.contains("<section id=\"locations\">"))
            #expect(page.contains("<h2>Reports of thorough examination: what was found</h2>\n<p class=\"small\">"))
            #expect(tagBalanceProblems(page) == [])
            let whole = home.run(["report", "--all-particulars"]).stdout
            #expect(whole.contains("<section class=\"part\" data-asset=") && whole.contains("<section id=\"locations\">"))
            #expect(whole.utf8.count > page.utf8.count)
            let shackles = home.run(["report", "--type", "shackle"])
            #expect(shackles.status == 0, "\(shackles)")
            #expect(shackles.stdout.contains("Type of equipment: Shackle"))
            let types = shackles.stdout.matches(of: /<td>([A-Za-z -]+)<\/td><td class="num">[0-9.]+ (?:t|kg)<\/td>/)
            #expect(!types.isEmpty && types.allSatisfy { $0.output.1 == "Shackle" }, "\(types.map(\.output.1))")
            #expect(home.run(["report", "--type", "spoon"]).status == 64)
            #expect(home.run(["report", "--site", "Nowhere at all"]).status == 64)
        }

        @Test("report on a sample register: well-formed, self-contained, counts equal asset list's")
        func sampleReport() throws {
            let home = Home(); defer { home.remove() }
            let sample = home.run(["sample"])
            #expect(sample.status == 0, "\(sample)")
            let out = home.sub("r.html")
            let result = home.run(["report", "--out", out])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "rigbook: wrote \(out)\n")
            let html = try #require(readFile(out))
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            #expect(tagBalanceProblems(html) == [])

            // Self-contained: nothing fetched, nothing run.
            let lower = html.lowercased()
            for needle in ["src=", "href=", "<script", "<link", "<iframe", "<object", "<embed", "url(", "@import",
                           "javascript:"] {
                #expect(!lower.contains(needle), "the report holds \(needle)")
            }
            let withoutNamespace = lower.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
            #expect(!withoutNamespace.contains("http://") && !withoutNamespace.contains("https://"), "an http link")

            // Counts per status equal asset list's.
            var shown: [String: Int] = [:]
            // A register with electrical items splits each count in two columns besides.
            var electrical = 0
            for match in html.matches(of: /<tr data-status="([a-z_]+)" data-count="(\d+)" data-electrical="(\d+)"[^>]*>/) {
                shown[String(match.output.1)] = Int(match.output.2)
                if match.output.1 == "total" { electrical = Int(match.output.3) ?? -1 }
            }
            #expect(electrical == 40, "a fifth of the sample is electrical")
            let listed = listAssets(home: home.path)
            #expect(listed.count == 200)
            var counted: [String: Int] = Dictionary(uniqueKeysWithValues: statusValues.map { ($0, 0) })
            for object in listed { counted[string(object, "status") ?? "?", default: 0] += 1 }
            counted["total"] = listed.count
            #expect(shown == counted)
            #expect(counted.filter { $0.value > 0 }.count >= 4, "the sample has several statuses: \(counted)")

            // The attention list holds what `due` lists.
            let due = jsonObject(home.run(["due", "--format", "json"]).stdout)
            let dueTags = ((due["items"] as? [[String: Any]]) ?? []).compactMap { $0["tag"] as? String }
            #expect(!dueTags.isEmpty)
            let attention = html.range(of: "<section id=\"attention\">").flatMap { start in
                html.range(of: "</table>", range: start.upperBound..<html.endIndex)
                    .map { html[start.lowerBound..<$0.upperBound] }
            }
            // Rows of `due`, then (data-finding) the dangerous findings of the period not already listed.
            let attentionRows = attention.map { $0.matches(of: /<tr><td><\/td>/).count } ?? -1
            #expect(attentionRows == dueTags.count)
            #expect(html.contains(due["summary"] as? String ?? "—"))
        }

        @Test("the attention list keeps the period's dangerous fails and withdrawals, whatever the status now")
        func findingsStayVisible() throws {
            let home = Home(); defer { home.remove() }
            try craftAll(home)
            // DN-1 failed dangerous on 2026-11-20 (listed as DO NOT USE); WD-1 was withdrawn that day (WITHDRAWN:
            // not otherwise listed); SL-9 failed a pre-use check on 2026-11-25 and passed an examination since.
            home.addAsset("SL-9", "Shrike web sling", commissioned: "2026-01-01")
            var preUse = failValues(on: "2026-11-25")
            preUse.inspectionType = .preUse
            try home.addRecord("SL-9", preUse)
            try home.addRecord("SL-9", passValues(on: "2026-11-28"))
            let page = home.run(["report"]).stdout
            let start = try #require(page.range(of: "<section id=\"attention\">"))
            let end = try #require(page.range(of: "</section>", range: start.upperBound..<page.endIndex))
            let attention = String(page[start.lowerBound..<end.upperBound])
            let found = attention.matches(of: /<tr data-finding="true" data-asset="[^"]+" data-status="([a-z_]+)">/)
            #expect(found.map { String($0.output.1) } == ["withdrawn", "ok"], "\(attention)")
            #expect(attention.contains("<td>WD-1</td>"))
            #expect(attention.contains("failed dangerous on 2026-11-25 · Pre-use check #"))
            #expect(attention.contains("3 dangerous findings from 2026-10-31 to 2026-11-30 stay listed"),
                    "\(attention)")
            // A period that starts after them leaves them out.
            let later = home.run(["report", "--since", "2026-11-26"]).stdout
            #expect(!later.contains("data-finding="))
            #expect(!later.contains("dangerous finding"))
        }

        @Test("report to standard output is the same page")
        func reportToStdout() throws {
            let home = Home(); defer { home.remove() }
            try craftAll(home)
            let out = home.sub("r.html")
            #expect(home.run(["report", "--out", out]).status == 0)
            let stdout = home.run(["report"])
            #expect(stdout.status == 0, "\(stdout)")
            func stable(_ page: String) -> [Substring] {
                // The report's making, in its head, its first lines and its footer.
                page.replacing(/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z/, with: "")
                    .split(separator: "\n")
            }
            #expect(stable(stdout.stdout) == stable(readFile(out) ?? ""))
            #expect(tagBalanceProblems(stdout.stdout) == [])
            // --as-of moves the page's date.
            let later = home.run(["report", "--as-of", "2027-01-31"])
            #expect(later.stdout.contains("<time datetime=\"2027-01-31\">"), "\(later)")
        }
    }
}

extension RigbookCLITests {
    /// Which record amends which, by id and by uuid, wherever records are printed.
    @Suite("Reporting: amendments in history and exports") struct ReportingAmendments {
        /// AM-1 with #1 (a pass) and #2, which amends #1 to a dangerous fail.
        private func amendedHome() throws -> Home {
            let home = Home()
            home.addAsset("AM-1", "Avocet web sling", commissioned: "2025-11-01")
            try home.addRecord("AM-1", passValues(on: "2026-11-02"))
            var correction = failValues(on: "2026-11-02")
            correction.amendmentReason = "The sling was found cut"
            try home.addRecord("AM-1", correction, amending: 1)
            return home
        }

        /// `history --format json` of the amended home: the run and its two records, newest first.
        private func amendedHistoryJSON() throws -> (RunResult, [[String: Any]]) {
            let home = try amendedHome(); defer { home.remove() }
            let result = home.run(["history", "AM-1", "--format", "json"])
            #expect(result.status == 0, "\(result)")
            let records = parseAssetJSON(result.stdout)
            try #require(records.count == 2)
            return (result, records)
        }

        @Test("history --format json ends with report_number: the register's next number for each examination")
        func historyReportNumbers() throws {
            let (result, records) = try amendedHistoryJSON()
            let numbers = records.compactMap { string($0, "report_number") }
            try #require(numbers.count == 2, "\(result.stdout)")
            #expect(numbers[0].prefix(9) == numbers[1].prefix(9))
            #expect(numbers.map { $0.suffix(7) } == ["-000002", "-000001"])
            #expect(numbers[0].wholeMatch(of: /[0-9A-F]{8}-[0-9]{6}/) != nil, "\(numbers[0])")
            // Keys are only added at the end: the report number still follows the amendment's reason, and the
            // record's hash is followed only by keys added since (`also_amends_uuids`).
            #expect(result.stdout.matches(of: /"amendment_reason": ?[^,]*, ?"report_number": ?"[0-9A-F]{8}-[0-9]{6}"/)
                    .count == 2, "\(result.stdout)")
            // `also_amends_uuids`, `attachments` and `outranked_by` with its uuid follow it, in the order added.
            let tail = /"record_hash": ?"[0-9a-f]{64}", ?"also_amends_uuids": ?null, ?"attachments": ?\[\], ?/
            #expect(result.stdout.matches(of: tail).count == 2, "\(result.stdout)")
            #expect(result.stdout.matches(of: /"outranked_by": ?null, ?"outranked_by_uuid": ?null ?\}/).count == 2,
                    "\(result.stdout)")
        }

        @Test("verify: exit 0 with one line and the head; --head with a head not in the register exits 1")
        func verify() throws {
            let home = try amendedHome(); defer { home.remove() }
            let result = home.run(["verify"])
            #expect(result.status == 0, "\(result)")
            let line = result.stdout.trimmingCharacters(in: .newlines)
            // The asset, two records, the register's first employer and site, the examiner the first record added
            // the two examinations' notices of the report to send, and the dangerous fail's notice to the employer,
            // not yet given (saved without reg 10's answers).
            #expect(line.hasPrefix("verified 9 entries; head ") && !line.contains("\n"), "\(result)")
            let head = String(line.suffix(64))
            #expect(home.run(["verify", "--head", head]).status == 0)
            let other = home.run(["verify", "--head", String(repeating: "0", count: 64)])
            #expect(other.status == 1 && other.stderr.contains("not in the register"), "\(other)")
            #expect(home.run(["verify", "--head", "abc"]).status == 64)
            // A record edited with another SQLite tool, its triggers out of the way: exit 1 naming it.
            let raw = try Database(path: home.registerPath, mode: .readWrite)
            try raw.execute("DROP TRIGGER inspections_are_never_updated")
            try raw.execute("UPDATE inspections SET notes = 'x' WHERE id = 2")
            let tampered = home.run(["verify"])
            #expect(tampered.status == 1 && tampered.stderr.contains("record #2 ("), "\(tampered)")
            #expect(tampered.stdout.isEmpty && tampered.stderr.split(separator: "\n").count == 1, "\(tampered)")
        }

        @Test("history --format json: record_uuid, amends and amends_uuid, superseded_by and its uuid, the reason")
        func historyJSON() throws {
            let (_, records) = try amendedHistoryJSON()
            let (amendment, original) = (records[0], records[1])
            #expect(csvText(amendment["id"], column: "id") == "2")
            let originalUUID = try #require(string(original, "record_uuid"))
            let amendmentUUID = try #require(string(amendment, "record_uuid"))
            for uuid in [originalUUID, amendmentUUID] {
                #expect(UUID(uuidString: uuid) != nil && uuid == uuid.lowercased(), "\(uuid)")
            }
            #expect(csvText(amendment["amends"], column: "amends") == "1")
            #expect(string(amendment, "amends_uuid") == originalUUID)
            #expect(isNull(amendment["superseded_by"]) && isNull(amendment["superseded_by_uuid"]))
            #expect(string(amendment, "amendment_reason") == "The sling was found cut")
            #expect(isNull(original["amends"]) && isNull(original["amends_uuid"]))
            #expect(csvText(original["superseded_by"], column: "superseded_by") == "2")
            #expect(string(original, "superseded_by_uuid") == amendmentUUID)
            #expect(isNull(original["amendment_reason"]))
        }

        @Test("history's table shows each record's id, what it amends and what superseded it")
        func historyTable() throws {
            let home = try amendedHome(); defer { home.remove() }
            let result = home.run(["history", "AM-1"])
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            let header = try #require(lines.dropFirst().first)
            #expect(header.contains("AMENDS") && header.contains("SUPERSEDED BY"), "\(header)")
            let cells = lines.dropFirst(2).map { $0.split(separator: /\s{2,}/).map(String.init) }
            #expect(cells.first?.first == "#2" && cells.first?.last == "#1", "\(result.stdout)")
            #expect(cells.last?.first == "#1" && cells.last?.last == "#2", "\(result.stdout)")
        }

        @Test("export --format json carries the same links")
        func exportJSON() throws {
            let home = try amendedHome(); defer { home.remove() }
            let result = home.run(["export", "--format", "json"])
            #expect(result.status == 0, "\(result)")
            let records = try #require(jsonObject(result.stdout)["records"] as? [[String: Any]])
            let original = try #require(records.first { csvText($0["id"], column: "id") == "1" })
            #expect(csvText(original["superseded_by"], column: "superseded_by") == "2")
        }
    }
}

extension RigbookCLITests {
    /// `report`, `calendar` and `due --format ics` read the register twice, keeping a key per listed
    /// asset and reading the rows and examinations again one asset at a time. What they write must be what the
    /// same writers make from the whole register read into memory (every row, every latest examination).
    @Suite("Reporting: streamed pages match the register in memory") struct ReportingStreamed {
        @Test("report streamed is the page made from every row in memory", arguments: [
            [], ["--all-particulars"], ["--type", "shackle"], ["--site", "Alexandra Dock"], ["--kind", "lifting"],
            ["--as-of", "2027-06-01", "--since", "2026-01-01"],
        ])
        func reportMatchesInMemory(_ options: [String]) throws {
            let home = Home(); defer { home.remove() }
            let sample = home.run(["sample", "--assets", "400"])
            #expect(sample.status == 0, "\(sample)")
            let result = home.run(["report"] + options)
            #expect(result.status == 0, "\(result)")
            let generatedAt = try #require(result.stdout.firstMatch(of: /Generated ([^ ]+) by Rigbook/)?.output.1)

            let register = try Register.openForReading(path: home.registerPath)
            let asOf = options.firstIndex(of: "--as-of").map { options[$0 + 1] } ?? fixedToday
            let today = try #require(CalendarDate(iso: asOf))
            let from = try options.firstIndex(of: "--since").map { try #require(CalendarDate(iso: options[$0 + 1])) }
                ?? today.addingDays(-StatusRules.dueSoonDays)
            var rows = try register.rows()
            var narrowedTo: String?
            if options.first == "--type" {
                rows.removeAll { $0.asset.type != .shackle || $0.asset.isElectrical }
                narrowedTo = "Type of equipment: \(EquipmentType.shackle.label)"
            } else if options.first == "--site" {
                let particulars = try register.particulars()
                rows.removeAll { particulars.asset($0.asset.uuid).siteUUID != Particulars.mainSiteUUID }
                narrowedTo = "Site: Alexandra Dock"
            } else if options.first == "--kind" {
                rows.removeAll { $0.asset.kind != .lifting }
                narrowedTo = AssetKind.lifting.label
            }
            #expect(!rows.isEmpty)
            let findings = try register.dangerousFindings(from: from, through: today).compactMap(DangerFinding.init)
                + register.failedTests(from: from, through: today).compactMap(DangerFinding.init(failedTest:))
            let page = HTMLReport.render(
                rows: rows, latestThorough: try register.latestThoroughExaminations(), today: today,
                generatedAt: String(generatedAt), findings: findings, findingsSince: from,
                scope: ReportDocument.Scope(allParticulars: options.contains("--all-particulars"), narrowedTo: narrowedTo),
                latestTests: try register.latestTests())
            #expect(result.stdout == page, "the streamed page differs from the page made in memory")
        }

        @Test("calendar and due --format ics streamed are the feed made from every row in memory", arguments: [
            [], ["--digest"], ["--redact", "--alarms", "7,0"], ["--digest", "--redact"], ["--as-of", "2030-01-01"],
        ])
        func calendarMatchesInMemory(_ options: [String]) throws {
            let home = Home(); defer { home.remove() }
            let sample = home.run(["sample", "--assets", "400"])
            #expect(sample.status == 0, "\(sample)")
            let result = home.run(["calendar"] + options)
            #expect(result.status == 0, "\(result)")
            var settings = ICalendarOptions()
            settings.digest = options.contains("--digest")
            settings.redact = options.contains("--redact")
            if options.contains("--alarms") { settings.alarmDaysBefore = [7, 0] }
            let asOf = options.firstIndex(of: "--as-of").map { options[$0 + 1] } ?? fixedToday
            let today = try #require(CalendarDate(iso: asOf))
            let rows = try Register.openForReading(path: home.registerPath).rows()
            let feed = ICalendar.document(rows, today: today, generated: Date(), options: settings)
            // DTSTAMP is the time of the run: the one line of each event that may differ.
            func stamped(_ text: String) -> String { text.replacing(/DTSTAMP:[0-9TZ]+/, with: "DTSTAMP:") }
            #expect(stamped(result.stdout) == stamped(feed))
            if options.isEmpty {
                let due = home.run(["due", "--format", "ics"])
                #expect(due.status == (DueReport.items(rows, today: today).isEmpty ? 0 : 3), "\(due)")
                #expect(stamped(due.stdout) == stamped(feed))
            }
        }
    }
}
