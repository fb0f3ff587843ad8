import Foundation
import Testing
@testable import RigbookCore

// MARK: - Fixture

/// A small register on 2026-03-01 with every status, an asset whose name is markup, a CJK location
/// and an asset with no location.
private enum Fixture {
    static let today = day("2026-03-01")
    static let generatedAt = "2026-03-01T09:30:00Z"

    static func uuid(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!
    }

    static func asset(_ n: Int, tag: String, name: String, type: EquipmentType = .webSling, wll: Double = 2000,
                      location: String, commissioned: String? = "2024-01-01", interval: Int = 12) -> Asset {
        Asset(uuid: uuid(n), tag: tag, name: name, type: type, wllKg: wll, lengthM: type == .webSling ? 3 : nil,
              location: location, manufacturer: "Acme Lifting", serialNumber: "SN-\(n)",
              manufactured: n == 1 ? day("2023-06-30") : nil, commissioned: optionalDay(commissioned),
              intervalMonths: interval)
    }

    static func row(_ asset: Asset, _ history: [RecordFacts]) -> RegisterRow {
        RegisterRow(asset: asset, summary: HistorySummary(history: history))
    }

    static let scriptName = "<script>alert(1)</script> & co"

    static let rows: [RegisterRow] = [
        // OK, due 2026-04-10 (week 5), with a full thorough examination record.
        row(asset(1, tag: "SL-0001", name: "2 t web sling, 3 m", location: "Bay 4", interval: 6),
            [record(11, .thoroughPeriodic, on: "2025-10-10")]),
        // OK, due 2026-07-20: beyond the chart.
        row(asset(2, tag: "SH-0002", name: "Bow shackle 3.25 t", type: .shackle, wll: 3250, location: "Bay 4",
                  interval: 6),
            [record(21, .thoroughPeriodic, on: "2026-01-20")]),
        // DUE SOON: due 2026-03-20 (week 2).
        row(asset(3, tag: "CB-0003", name: "Chain block 1 t", type: .chainBlock, wll: 1000, location: "Workshop"),
            [record(31, .thoroughPeriodic, on: "2025-03-20")]),
        // OVERDUE: due 2026-01-15.
        row(asset(4, tag: "LH-0004", name: "Lever hoist 750 kg", type: .leverHoist, wll: 750, location: "Workshop"),
            [record(41, .thoroughPeriodic, on: "2025-01-15")]),
        // REMEDY BY 2026-03-20.
        row(asset(5, tag: "CS-0005", name: "Chain sling 2-leg", type: .chainSling, wll: 5000, location: "Yard",
                  interval: 6),
            [record(51, .thoroughPeriodic, on: "2026-01-10", .defectToBeRemedied, action: .repair,
                    deadline: "2026-03-20")]),
        // DO NOT USE: last thorough result is Fail.
        row(asset(6, tag: "EB-0006", name: "Eyebolt M20", type: .eyebolt, wll: 1000, location: "Yard", interval: 6),
            [record(61, .thoroughPeriodic, on: "2026-02-05", .failDangerous, action: .quarantine)]),
        // QUARANTINED.
        row(asset(7, tag: "HK-0007", name: "Hook 5 t", type: .hook, wll: 5000, location: "Yard", interval: 6),
            [record(71, .thoroughPeriodic, on: "2026-02-01", .passWithObservations, action: .quarantine)]),
        // WITHDRAWN.
        row(asset(8, tag: "WR-0008", name: "Wire rope sling 1 t", type: .wireRopeSling, wll: 1000, location: "Workshop",
                  interval: 6),
            [record(81, .thoroughPeriodic, on: "2026-01-10", .passWithObservations, action: .withdraw)]),
        // UNTESTED: no commission date, no history.
        row(asset(9, tag: "BC-0009", name: "Beam clamp", type: .beamClamp, wll: 2000, location: "",
                  commissioned: nil), []),
        // DUE SOON, due 2026-03-28 (week 3; commissioned, never examined): name is markup, location is CJK.
        row(asset(10, tag: "RS-0010", name: scriptName, type: .roundSling, wll: 1500, location: "仓库 A",
                  commissioned: "2025-09-28", interval: 6), []),
        // DUE SOON with no location: due 2026-03-01 (today, week 0).
        row(asset(11, tag: "SB-0011", name: "Spreader beam", type: .spreaderBeam, wll: 10000, location: "  ",
                  commissioned: "2025-09-01", interval: 6), []),
    ]

    static func stored(_ n: Int, id: Int64, _ values: InspectionValues, wll: Double = 2000,
                       location: String = "Bay 4") -> StoredInspection {
        StoredInspection(id: id, recordUUID: uuid(100 + Int(id)), assetUUID: uuid(n),
                         sessionID: "inspection-\(uuid(n).uuidString.lowercased())",
                         amends: nil, values: values, savedAt: "2026-01-20T10:00:00Z", appVersion: "0.1.0",
                         operatorName: "jo", assetWLLKg: wll, assetLocation: location)
    }

    static let latestThorough: [UUID: StoredInspection] = [
        uuid(1): stored(1, id: 11, InspectionValues(
            inspectionType: .thoroughPeriodic, inspectorName: "Jo Bloggs", certificationNumber: "LEEA-12345",
            checkMarking: true, checkCuts: true, checkDeformation: true, checkFittings: true, checkCorrosion: true,
            result: .pass, inspectionDate: "2025-10-10", confirmed: true)),
        uuid(5): stored(5, id: 51, InspectionValues(
            inspectionType: .thoroughScheme, inspectorName: "Ann Examiner", certificationNumber: "CERT-9",
            result: .defectToBeRemedied, schemeReference: "SCHEME-7/rev 2",
            defectDescription: "Leg 2: link worn 9%\nMaster link nicked", action: .repair,
            remedyDeadlineSet: true, remedyDeadline: "2026-03-20", inspectionDate: "2026-01-10", confirmed: true),
            wll: 5000, location: "Yard"),
        uuid(6): stored(6, id: 61, InspectionValues(
            inspectionType: .thoroughExceptional, inspectorName: "王伟", certificationNumber: "C-<7>",
            result: .failDangerous, defectDescription: "Thread stripped", action: .quarantine,
            inspectionDate: "2026-02-05", confirmed: true), wll: 1000, location: "Yard"),
    ]

    static func html(rows: [RegisterRow] = Fixture.rows) -> String {
        HTMLReport.render(rows: rows, latestThorough: latestThorough, today: today, generatedAt: generatedAt)
    }
}

// MARK: - Helpers

/// Checks that every element opened is closed, in order. Void elements, `<!…>` and self-closing
/// tags (`<rect …/>` in SVG) open nothing; the contents of `<style>` and `<script>` are raw text.
/// Returns the problems found (empty: balanced).
private func tagBalanceProblems(_ html: String) -> [String] {
    let void: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                             "source", "track", "wbr"]
    var stack: [String] = []
    var problems: [String] = []
    var rest = html[...]
    while let lt = rest.firstIndex(of: "<") {
        guard let gt = rest[lt...].firstIndex(of: ">") else {
            problems.append("unterminated tag at \(rest[lt...].prefix(40))")
            break
        }
        let inside = rest[rest.index(after: lt)..<gt]
        rest = rest[rest.index(after: gt)...]
        if inside.hasPrefix("!") || inside.hasPrefix("?") { continue }
        if inside.hasPrefix("/") {
            let name = inside.dropFirst().trimmingCharacters(in: .whitespaces).lowercased()
            if stack.last == name {
                stack.removeLast()
            } else {
                problems.append("</\(name)> closes <\(stack.last ?? "nothing")>")
                return problems
            }
            continue
        }
        let name = String(inside.prefix { !$0.isWhitespace && $0 != "/" }).lowercased()
        if name.isEmpty || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) {
            problems.append("bad tag name in <\(inside.prefix(40))>")
            continue
        }
        if void.contains(name) || inside.hasSuffix("/") { continue }
        if name == "style" || name == "script" {
            guard let end = rest.range(of: "</\(name)>") else {
                problems.append("<\(name)> never closed")
                return problems
            }
            rest = rest[end.upperBound...]
            continue
        }
        stack.append(name)
    }
    if !stack.isEmpty { problems.append("left open: \(stack)") }
    return problems
}

/// The text between `start` (inclusive) and the first `end` after it.
private func slice(_ html: String, from start: String, to end: String) -> Substring {
    guard let a = html.range(of: start) else {
        Issue.record("missing \(start)")
        return ""
    }
    let b = html.range(of: end, range: a.upperBound..<html.endIndex)?.lowerBound ?? html.endIndex
    return html[a.lowerBound..<b]
}

/// The examination block (a section of its own) of fixture asset `n`.
private func examBlock(_ html: String, asset n: Int) -> Substring {
    slice(html, from: "<section class=\"part\" data-asset=\"\(Fixture.uuid(n).uuidString)\">", to: "</section>")
}

/// The locations the register section groups by, in order.
private func locationNames(in section: Substring) -> [String] {
    section.matches(of: /<section class="part" data-location="([^"]*)">/).map { String($0.output.1) }
}

private func assetIDs(in text: Substring, element: String = "tr") -> [String] {
    text.matches(of: try! Regex("<\(element) [^>]*data-asset=\"([0-9A-F-]+)\"")).map {
        String($0.output[1].substring ?? "")
    }
}

private func occurrences(of needle: String, in text: some StringProtocol) -> Int {
    text.ranges(of: needle).count
}

/// A test argument that names itself with every control character (C0, DEL and C1) written as
/// `\u{…}`, so no table entry can send a control sequence to the terminal showing the test log.
struct ReportTestText: Sendable, ExpressibleByStringLiteral, CustomTestStringConvertible {
    var value: String
    init(stringLiteral value: String) { self.value = value }
    var testDescription: String {
        var text = "\""
        for scalar in value.unicodeScalars {
            if TextRules.isControl(scalar) || scalar == "\"" || scalar == "\\" {
                text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}

// MARK: - Tests

@Suite("HTMLReport")
struct HTMLReportTests {
    @Test("the page is well-formed HTML with a head, a style and a body")
    func wellFormed() {
        let html = Fixture.html()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        for part in ["<html", "<head>", "<style>", "</style>", "<body>", "</body>", "</html>",
                     "<meta charset=\"utf-8\">"] {
            #expect(html.contains(part), "missing \(part)")
        }
        #expect(tagBalanceProblems(html) == [])
        // The checker itself catches a misnested and an unclosed element.
        #expect(!tagBalanceProblems("<p><b>x</p></b>").isEmpty)
        #expect(!tagBalanceProblems("<div><p>x</p>").isEmpty)
        #expect(tagBalanceProblems("<div><br><meta charset=x><svg><rect/></svg></div>") == [])
    }

    @Test("an empty register still gives a well-formed page")
    func emptyRegister() {
        let html = HTMLReport.render(rows: [], latestThorough: [:], today: Fixture.today, generatedAt: "now")
        #expect(tagBalanceProblems(html) == [])
        #expect(html.contains("data-status=\"total\" data-count=\"0\""))
        #expect(html.contains("Nothing needs attention as of 2026-03-01."))
        #expect(occurrences(of: "<g class=\"bar\"", in: html) == 12)
    }

    @Test("the page is self-contained: no scripts, no external resources")
    func selfContained() {
        let html = Fixture.html()
        for banned in ["src=", "href=\"http", "<script", "@import", "url(", "<link", "<img", "<iframe", "@font-face"] {
            #expect(!html.lowercased().contains(banned.lowercased()), "found \(banned)")
        }
        #expect(html.contains("@page { size: A4;"))
        #expect(html.contains("page-break-inside: avoid"))
    }

    @Test("title, as-of date and generated-at line")
    func header() {
        let html = Fixture.html()
        #expect(html.contains("<h1>Lifting equipment register</h1>"))
        #expect(html.contains("as of <time datetime=\"2026-03-01\">2026-03-01</time>"))
        #expect(html.contains("Generated 2026-03-01T09:30:00Z"))
        let custom = HTMLReport.render(rows: [], latestThorough: [:], today: Fixture.today,
                                       generatedAt: "x", title: "Depot <B> & \"C\"")
        #expect(custom.contains("<h1>Depot &lt;B&gt; &amp; &quot;C&quot;</h1>"))
        #expect(custom.contains("<title>Depot &lt;B&gt; &amp; &quot;C&quot;"))
    }

    @Test("the counts per status are the status function's counts, for all eight statuses")
    func countsPerStatus() throws {
        let html = Fixture.html()
        var expected: [String: Int] = [:]
        for status in AssetStatus.active { expected[status.rawValue] = 0 }
        for row in Fixture.rows { expected[row.status(on: Fixture.today).status.rawValue, default: 0] += 1 }
        // The fixture really covers every status.
        #expect(expected.values.allSatisfy { $0 > 0 }, "\(expected)")

        let summary = slice(html, from: "<section id=\"summary\">", to: "</section>")
        var found: [String: Int] = [:]
        for match in summary.matches(of: /data-status="([a-z_]+)" data-count="(\d+)"/) {
            found[String(match.output.1)] = Int(match.output.2)
        }
        #expect(found["total"] == Fixture.rows.count)
        found["total"] = nil
        #expect(found == expected)
        // Shown in words, in attention order.
        var last = summary.startIndex
        for status in AssetStatus.active {
            let range = try #require(summary.range(of: ">\(status.label)</span>", range: last..<summary.endIndex),
                                     "\(status.label) missing or out of order")
            last = range.upperBound
        }
    }

    @Test("the chart has 12 bars with DueForecast's counts and week starts")
    func forecastChart() {
        let html = Fixture.html()
        let expected = DueForecast.weeks(Fixture.rows, today: Fixture.today, count: 12)
        #expect(expected.reduce(0, +) > 0)
        let chart = slice(html, from: "<section id=\"forecast\">", to: "</section>")
        #expect(chart.contains("<svg"))
        let bars = chart.matches(of: /<g class="bar" data-week="(\d+)" data-start="([0-9-]+)" data-count="(\d+)">/)
        #expect(bars.count == 12)
        #expect(bars.map { Int($0.output.3)! } == expected)
        #expect(bars.map { Int($0.output.1)! } == Array(0..<12))
        let weekStarts = (0..<12).map { DueForecast.weekStart($0, today: Fixture.today).iso }
        #expect(bars.map { String($0.output.2) } == weekStarts)
        // Each bar is labelled with its week's first day and its count, in text.
        for (index, count) in expected.enumerated() {
            let start = DueForecast.weekStart(index, today: Fixture.today).iso
            #expect(chart.contains("Week of \(start)</text>"))
            #expect(chart.contains(">\(count)</text></g>"))
        }
        // Bars with items are drawn, empty weeks are not.
        #expect(occurrences(of: "<rect", in: chart) == expected.filter { $0 > 0 }.count)
    }

    @Test("the attention list follows DueReport.items")
    func attentionOrder() {
        let html = Fixture.html()
        let items = DueReport.items(Fixture.rows, today: Fixture.today)
        #expect(items.count >= 4)
        let section = slice(html, from: "<section id=\"attention\">", to: "</section>")
        // Grouped by status under a heading row each (a row then carries no status of its own).
        let tags = section.matches(of: /<tr><td><\/td><td>([^<]+)<\/td>/).map { String($0.output.1) }
        #expect(tags == items.map { HTMLReport.escape($0.row.asset.tag) })
        let groups = section.matches(of: /<tr class="group" data-status="([a-z_]+)">/).map { String($0.output.1) }
        var statuses: [String] = []
        for item in items where statuses.last != item.status.rawValue { statuses.append(item.status.rawValue) }
        #expect(groups == statuses)
        for item in items {
            #expect(section.contains("<td>\(HTMLReport.escape(DueReport.when(item)))</td>"))
        }
        #expect(section.contains(DueReport.summary(items, today: Fixture.today)))
        // The date column holds the remedy deadline for REMEDY BY (and Needs says so).
        #expect(section.contains(">CS-0005</td><td>Chain sling 2-leg</td><td>Yard</td><td>remedy</td>"
            + "<td>2026-03-20</td>"))
    }

    @Test("DO NOT USE says why in the report, and a withdrawn asset shows no next due date")
    func doNotUseSaysWhy() {
        let html = Fixture.html()
        let reason = "failed dangerous on 2026-02-05, not cleared by a thorough examination"
        let attention = slice(html, from: "<section id=\"attention\">", to: "</section>")
        #expect(attention.contains(
            ">EB-0006</td><td>Eyebolt M20</td><td>Yard</td><td>thorough examination</td><td>before use</td>"
            + "<td>\(reason)</td>"))
        #expect(!attention.contains("due in 158 days"))
        let locations = slice(html, from: "<section id=\"locations\">", to: "<section id=\"particulars\">")
        #expect(locations.contains(
            "<span class=\"st st-do_not_use\">DO NOT USE</span> <span class=\"sub\">\(reason)</span>"))
        #expect(locations.contains("<td>WR-0008</td><td>Wire rope sling 1 t</td><td>Wire rope sling</td>"
            + "<td class=\"num\">1 t</td><td>2026-01-10</td><td>—</td>"))
    }

    @Test("assets with an interval longer than LOLER reg 9(3) allows and no scheme are flagged; none, no section")
    func intervalsFlagged() {
        #expect(!Fixture.html().contains("<section id=\"intervals\">"))
        let flagged = Fixture.row(Fixture.asset(20, tag: "WS-0020", name: "Web sling <2 t>", location: "Bay 4"), [])
        var schemed = Fixture.asset(21, tag: "WS-0021", name: "Web sling 3 t", location: "Bay 4")
        schemed.examinationScheme = "ES-7"
        let html = Fixture.html(rows: Fixture.rows + [flagged, Fixture.row(schemed, [])])
        let section = slice(html, from: "<section id=\"intervals\">", to: "</section>")
        #expect(section.contains("<h2>Intervals longer than LOLER regulation 9(3) allows</h2>"))
        #expect(assetIDs(in: section) == [Fixture.uuid(20).uuidString])
        #expect(section.contains("<td>WS-0020</td><td>Web sling &lt;2 t&gt;</td><td>Web sling</td>"
            + "<td class=\"num\">12 months</td><td class=\"num\">6 months</td>"))
    }

    /// A record as the register keeps it, for a dangerous finding.
    static func found(_ n: Int, id: Int64, _ type: InspectionType, on date: String, _ result: InspectionResult,
                      _ action: InspectionAction) -> DangerFinding? {
        DangerFinding(Fixture.stored(n, id: id, InspectionValues(
            inspectionType: type, inspectorName: "Jo Bloggs", result: result, defectDescription: "Cut",
            action: action, inspectionDate: date, confirmed: true)))
    }

    @Test("a finding is a Fail – dangerous or a withdrawal, in words")
    func findingText() throws {
        #expect(Self.found(1, id: 1, .preUse, on: "2026-02-20", .pass, .none) == nil)
        #expect(Self.found(1, id: 1, .preUse, on: "2026-02-20", .passWithObservations, .quarantine) == nil)
        let withdrawn = try #require(Self.found(8, id: 81, .preUse, on: "2026-02-20", .passWithObservations,
                                                .withdraw))
        #expect(withdrawn.text == "withdrawn on 2026-02-20 · Pre-use check #81")
        let both = try #require(Self.found(6, id: 61, .thoroughPeriodic, on: "2026-02-05", .failDangerous,
                                           .withdraw))
        #expect(both.text == "failed dangerous and withdrawn on 2026-02-05 · Thorough examination (periodic) #61")
        #expect(both.assetUUID == Fixture.uuid(6))
        #expect(both.date == day("2026-02-05"))
    }

    @Test("dangerous findings of the report's period stay in the attention list, whatever the status now")
    func findingsStayVisible() throws {
        // WR-0008 was withdrawn on 2026-02-20 (not otherwise listed: WITHDRAWN); SL-0001 failed dangerous on
        // 2026-02-10 and passed a thorough examination since (OK now); EB-0006 is DO NOT USE from its own
        // fail, listed already, and gets no second row; LH-0004 failed before the period.
        let findings = try [Self.found(8, id: 82, .preUse, on: "2026-02-20", .passWithObservations, .withdraw),
                            Self.found(1, id: 12, .preUse, on: "2026-02-10", .failDangerous, .quarantine),
                            Self.found(6, id: 61, .thoroughPeriodic, on: "2026-02-05", .failDangerous, .quarantine)]
            .map { try #require($0) }
        let html = HTMLReport.render(rows: Fixture.rows, latestThorough: Fixture.latestThorough,
                                     today: Fixture.today, generatedAt: Fixture.generatedAt,
                                     findings: findings, findingsSince: day("2026-01-30"))
        let section = slice(html, from: "<section id=\"attention\">", to: "</section>")
        let items = DueReport.items(Fixture.rows, today: Fixture.today)
        let tags = section.matches(of: /<tr><td><\/td><td>([^<]+)<\/td>/).map { String($0.output.1) }
        #expect(tags == items.map { HTMLReport.escape($0.row.asset.tag) })
        #expect(assetIDs(in: section) == [Fixture.uuid(1), Fixture.uuid(8)].map(\.uuidString),
                "found rows follow, by date")
        #expect(section.contains("<tr data-finding=\"true\" data-asset=\"\(Fixture.uuid(8).uuidString)\" "
            + "data-status=\"withdrawn\"><td><span class=\"st st-withdrawn\">WITHDRAWN</span></td><td>WR-0008</td>"
            + "<td>Wire rope sling 1 t</td><td>Workshop</td><td>—</td><td>2026-02-20</td>"
            + "<td>withdrawn on 2026-02-20 · Pre-use check #82</td></tr>"))
        #expect(section.contains(">SL-0001</td><td>2 t web sling, 3 m</td><td>Bay 4</td><td>—</td><td>2026-02-10</td>"
            + "<td>failed dangerous on 2026-02-10 · Pre-use check #12</td></tr>"))
        #expect(occurrences(of: Fixture.uuid(6).uuidString, in: section) == 0)  // EB-0006: listed once, by tag
        #expect(occurrences(of: "<td>EB-0006</td>", in: section) == 1)
        #expect(section.contains("3 dangerous findings from 2026-01-30 to 2026-03-01 stay listed"), "\(section)")
        #expect(tagBalanceProblems(html) == [])
    }

    @Test("per-location tables hold each asset exactly once, locations sorted, empty location last")
    func locationTables() {
        let html = Fixture.html()
        let section = slice(html, from: "<section id=\"locations\">", to: "<section id=\"particulars\">")
        let ids = assetIDs(in: section)
        #expect(ids.count == Fixture.rows.count)
        #expect(Set(ids) == Set(Fixture.rows.map(\.asset.uuid.uuidString)))
        #expect(locationNames(in: section) == ["Bay 4", "Workshop", "Yard", "仓库 A", "(no location)"])
        // Each asset sits under its own location.
        let yard = slice(html, from: "data-location=\"Yard\"", to: "</section>")
        #expect(Set(assetIDs(in: yard)) == Set([5, 6, 7].map { Fixture.uuid($0).uuidString }))
        let none = slice(html, from: "data-location=\"(no location)\"", to: "</section>")
        #expect(Set(assetIDs(in: none)) == Set([9, 11].map { Fixture.uuid($0).uuidString }))
        // Columns: tag, name, type, WLL, last thorough, next due, status in words.
        #expect(section.contains("<td>SH-0002</td><td>Bow shackle 3.25 t</td><td>Shackle</td>"
            + "<td class=\"num\">3.25 t</td><td>2026-01-20</td><td>2026-07-20</td>"
            + "<td><span class=\"st st-ok\">OK</span></td>"))
        #expect(section.contains("<td>BC-0009</td><td>Beam clamp</td><td>Beam clamp</td>"
            + "<td class=\"num\">2 t</td><td>—</td><td>now</td>"
            + "<td><span class=\"st st-untested\">UNTESTED</span></td>"))
        #expect(section.contains("<span class=\"st st-withdrawn\">WITHDRAWN</span>"))
    }

    @Test("the particulars of a thorough examination are shown; none for an asset without one")
    func particulars() throws {
        let html = Fixture.html()
        // To the end: each block is a section within it.
        let section = slice(html, from: "<section id=\"particulars\">", to: "</body>")
        #expect(assetIDs(in: section, element: "section") == [5, 6, 1].map { Fixture.uuid($0).uuidString },
                "one block per asset with a record, in tag order")

        let first = examBlock(html, asset: 1)
        let due = try #require(Fixture.rows[0].status(on: Fixture.today).nextDue)
        for expected in ["Jo Bloggs", "LEEA-12345", ">Pass<", ">\(due.iso)<", "2025-10-10", "SL-0001",
                         "2 t web sling, 3 m", "Web sling", "SN-1", "Acme Lifting", "2023-06-30", ">2 t<", ">3 m<",
                         "Thorough examination (periodic)", "None reported", "#11, saved 2026-01-20T10:00:00Z"] {
            #expect(first.contains(expected), "particulars lack \(expected)")
        }
        #expect(first.contains("<th>Next examination due</th><td>2026-04-10</td>"))
        #expect(first.contains("<th>Person making the report</th><td>Jo Bloggs</td>"
            + "<th>Certification no.</th><td>LEEA-12345</td>"))
        #expect(first.contains("<th>Safe to operate (result)</th><td>Pass</td>"))

        let remedy = examBlock(html, asset: 5)
        for expected in ["Ann Examiner", "CERT-9", "Defect to be remedied", "SCHEME-7/rev 2",
                         "Thorough examination (per examination scheme)", "Leg 2: link worn 9%\nMaster link nicked",
                         "Repair / renew / alter", "<th>Remedy by</th><td>2026-03-20</td>",
                         "Location when examined</th><td>Yard</td>"] {
            #expect(remedy.contains(expected), "particulars lack \(expected)")
        }
        let fail = examBlock(html, asset: 6)
        #expect(fail.contains("王伟"))
        #expect(fail.contains("C-&lt;7&gt;"))
        #expect(fail.contains("Fail – dangerous, do not use"))
        #expect(fail.contains("Date of manufacture</th><td>unknown</td>"))

        // No block for assets without a latest thorough examination.
        for n in [2, 3, 4, 7, 8, 9, 10, 11] {
            #expect(!html.contains("<section class=\"part\" data-asset=\"\(Fixture.uuid(n).uuidString)\""))
        }
        // A record for an asset not in the rows is not shown.
        var extra = Fixture.latestThorough
        extra[Fixture.uuid(99)] = Fixture.stored(99, id: 990, InspectionValues(inspectorName: "Ghost", result: .pass))
        let withExtra = HTMLReport.render(rows: Fixture.rows, latestThorough: extra, today: Fixture.today,
                                          generatedAt: Fixture.generatedAt)
        #expect(!withExtra.contains("Ghost"))
    }

    @Test("an amendment's record line names the amended record by id and uuid, and gives the reason")
    func amendmentIsTraceable() {
        var latest = Fixture.latestThorough
        var amendment = try! #require(latest[Fixture.uuid(1)])
        amendment.amends = 7
        amendment.amendsUUID = Fixture.uuid(107)
        amendment.values.amendmentReason = "Certificate number mistyped"
        latest[Fixture.uuid(1)] = amendment
        let html = HTMLReport.render(rows: Fixture.rows, latestThorough: latest, today: Fixture.today,
                                     generatedAt: Fixture.generatedAt)
        let block = examBlock(html, asset: 1)
        #expect(block.contains("uuid \(Fixture.uuid(111).uuidString.lowercased())"), "\(block)")
        #expect(block.contains("amends #7 (\(Fixture.uuid(107).uuidString.lowercased())): Certificate number mistyped"),
                "\(block)")
    }

    @Test("the WLL at the examination is shown, with the register's value when it changed since")
    func changedWLL() {
        var rows = Fixture.rows
        rows[0].asset.wllKg = 1500
        let html = HTMLReport.render(rows: rows, latestThorough: Fixture.latestThorough, today: Fixture.today,
                                     generatedAt: Fixture.generatedAt)
        let block = examBlock(html, asset: 1)
        #expect(block.contains("2 t <span class=\"sub\">(register now: 1.5 t)</span>"))
    }

    @Test("text from data is escaped; CJK passes through")
    func escaping() {
        let html = Fixture.html()
        #expect(!html.contains("<script"))
        #expect(!html.contains(Fixture.scriptName))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"))
        // Once in the attention list (DUE SOON), once in its location's table.
        #expect(occurrences(of: "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co", in: html) == 2)
        #expect(html.contains("data-location=\"仓库 A\""))
        #expect(html.contains("<h3><bdi>仓库 A</bdi> <span"))
        #expect(tagBalanceProblems(html) == [])
    }

    @Test("escape: markup characters, quotes and control characters", arguments: [
        ("a & b", "a &amp; b"),
        ("<b>", "&lt;b&gt;"),
        ("say \"hi\" it's", "say &quot;hi&quot; it&#39;s"),
        ("plain text", "plain text"),
        ("", ""),
        ("仓库 Ⅱ — ok", "仓库 Ⅱ — ok"),
        ("line 1\nline 2\tend", "line 1\nline 2\tend"),
        ("bell\u{07} esc\u{1B}[31m", "bell\u{2407} esc\u{241B}[31m"),
        ("nul\u{00}del\u{7F}", "nul\u{2400}del\u{2421}"),
        ("c1\u{85}csi\u{9B}", "c1\u{FFFD}csi\u{FFFD}"),
        ("cr\r", "cr\u{240D}"),
        ("<\u{301}x", "&lt;\u{301}x"),
        ("&amp;", "&amp;amp;"),
    ] as [(ReportTestText, ReportTestText)])
    func escapeCases(input: ReportTestText, expected: ReportTestText) {
        let escaped = HTMLReport.escape(input.value)
        #expect(escaped == expected.value)
        #expect(!escaped.unicodeScalars.contains { TextRules.isControl($0) && $0 != "\n" && $0 != "\t" })
        #expect(!escaped.contains("<") && !escaped.contains(">") && !escaped.contains("\"") && !escaped.contains("'"))
    }

    @Test("the same inputs give the same page, whatever the row order")
    func deterministic() {
        let a = Fixture.html()
        let b = Fixture.html()
        #expect(a == b)
        #expect(Fixture.html(rows: Fixture.rows.reversed()) == a)
        #expect(Fixture.html(rows: Fixture.rows.shuffled()) == a)
    }

    @Test("a larger register: every asset once, every record once, still well-formed")
    func largerRegister() {
        var rows: [RegisterRow] = []
        var latest: [UUID: StoredInspection] = [:]
        let locations = ["Bay 1", "bay 2", "Yard", "", "仓库"]
        for n in 0..<600 {
            let date = day("2025-03-01").addingDays(n % 365).iso
            let a = Fixture.asset(1000 + n, tag: String(format: "T-%05d", n), name: "Item \(n)",
                                  location: locations[n % locations.count])
            rows.append(Fixture.row(a, [record(Int64(n), .thoroughPeriodic, on: date)]))
            if n % 2 == 0 {
                latest[a.uuid] = Fixture.stored(1000 + n, id: Int64(n), InspectionValues(
                    inspectorName: "I \(n)", certificationNumber: "C \(n)", result: .pass, inspectionDate: date))
            }
        }
        let html = HTMLReport.render(rows: rows, latestThorough: latest, today: Fixture.today, generatedAt: "g")
        #expect(tagBalanceProblems(html) == [])
        let locationSection = slice(html, from: "<section id=\"locations\">", to: "<section id=\"particulars\">")
        #expect(assetIDs(in: locationSection).count == 600)
        #expect(Set(assetIDs(in: locationSection)).count == 600)
        #expect(occurrences(of: "<section class=\"part\" data-asset=", in: html) == 300)
        #expect(locationNames(in: locationSection) == ["Bay 1", "bay 2", "Yard", "仓库", "(no location)"])
        let weeks = DueForecast.weeks(rows, today: Fixture.today, count: 12)
        let bars = html.matches(of: /data-count="(\d+)"><text/).map { Int($0.output.1)! }
        #expect(bars == weeks)
    }
}

// MARK: - Streaming

@Suite("HTMLReport streams")
struct HTMLReportStreamingTests {
    private func streamed(_ source: RowReadRecorder<ReportInMemory>, scope: ReportDocument.Scope) throws -> String {
        var page = ""
        let report = ReportDocument(today: Fixture.today, generatedAt: Fixture.generatedAt, scope: scope)
        try HTMLDocument.write(report.cover, content: { try report.write(from: source, to: $0) }, to: { page += $0 })
        return page
    }

    @Test("the default report reads the register once, then only its lists' assets by uuid, in their order")
    func defaultReadsListsAgain() throws {
        let source = RowReadRecorder(ReportInMemory(rows: Fixture.rows, latestThorough: Fixture.latestThorough))
        let page = try streamed(source, scope: ReportDocument.Scope())
        #expect(page == HTMLReport.render(rows: Fixture.rows, latestThorough: Fixture.latestThorough,
                                          today: Fixture.today, generatedAt: Fixture.generatedAt, scope: .init()))
        #expect(source.fullReads == 1)
        let items = DueReport.items(Fixture.rows, today: Fixture.today)
        // The attention list, then what was found on the assets out of use or with a defect (by tag).
        #expect(source.readsByUUID.first == items.map(\.row.asset.uuid))
        let defects = [Fixture.uuid(5), Fixture.uuid(6)]  // CS-0005, EB-0006: the two with an examination
        #expect(source.readsByUUID.dropFirst().last == defects)
        #expect(source.examinationsRead == defects)
        #expect(source.readsByUUID.joined().count < items.count + Fixture.rows.count, "no read of every row again")
    }

    @Test("the whole book streams too: every asset again by location, then by tag for the particulars")
    func wholeBookReadsByUUID() throws {
        let source = RowReadRecorder(ReportInMemory(rows: Fixture.rows, latestThorough: Fixture.latestThorough))
        let page = try streamed(source, scope: .everything)
        #expect(page == Fixture.html())
        #expect(source.fullReads == 1)
        let byLocation = try #require(source.readsByUUID.dropLast().last)
        #expect(Set(byLocation) == Set(Fixture.rows.map(\.asset.uuid)) && byLocation.count == Fixture.rows.count)
        let particulars = Fixture.rows.map(\.asset).filter { Fixture.latestThorough[$0.uuid] != nil }
            .sorted { $0.tag < $1.tag }.map(\.uuid)
        #expect(source.readsByUUID.last == particulars)
        #expect(source.examinationsRead == particulars)
    }

    @Test("any order of the same rows gives the same page, narrowed or whole", arguments: [false, true])
    func orderOfRows(_ whole: Bool) {
        let scope = whole ? ReportDocument.Scope.everything : ReportDocument.Scope(narrowedTo: "Site: Yard")
        func page(_ rows: [RegisterRow]) -> String {
            HTMLReport.render(rows: rows, latestThorough: Fixture.latestThorough, today: Fixture.today,
                              generatedAt: Fixture.generatedAt, scope: scope)
        }
        #expect(page(Fixture.rows.reversed()) == page(Fixture.rows))
        #expect(page(Fixture.rows.shuffled()) == page(Fixture.rows))
    }
}
