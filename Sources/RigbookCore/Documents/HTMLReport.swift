import Foundation

/// A printable register report: one self-contained HTML page (inline CSS and SVG, no scripts, no
/// fonts, no images by URL) for A4. Every status and date comes from the one status function
/// (`RegisterRow.status(on:)`, `DueReport`, `DueForecast`); every string from data is escaped.
/// The output depends only on the inputs, so the same register gives the same bytes.
public enum HTMLReport {
    static let forecastWeeks = 12
    /// Heading for assets whose location is empty.
    static let noLocation = "(no location)"

    /// What a report holds beyond its counts, chart and attention list (the whole register's
    /// particulars at 100,000 assets were 94 MB of a 125 MB page).
    public struct Scope: Sendable, Equatable {
        /// Every asset's latest thorough examination in full, and the register by location: the whole book.
        public var allParticulars: Bool
        /// What narrowed the rows (`--site`, `--type`), for the header; nil: the whole register.
        public var narrowedTo: String?

        public init(allParticulars: Bool = false, narrowedTo: String? = nil) {
            self.allParticulars = allParticulars
            self.narrowedTo = narrowedTo
        }

        /// Every section in full, as the report was before it had a scope.
        public static let everything = Scope(allParticulars: true)

        /// The register by location, table by table: in the whole book, and in a report narrowed to a site or type.
        var locationTables: Bool { allParticulars || narrowedTo != nil }
    }

    /// The page, every section in full, from rows in memory (`write` reads a register).
    /// `findings` are the dangerous findings of the report's period, `findingsSince` through `today`
    /// (`Register.dangerousFindings`); each of an asset in `rows` stays in the attention list.
    public static func render(rows: [RegisterRow], latestThorough: [UUID: StoredInspection], today: CalendarDate,
                              generatedAt: String, title: String = "Lifting equipment register",
                              findings: [DangerFinding] = [], findingsSince: CalendarDate? = nil,
                              scope: Scope = .everything, latestTests: [UUID: StoredTest] = [:]) -> String {
        var page = ""
        page.reserveCapacity(4096 + rows.count * 700 + latestThorough.count * 1400)
        let source = ReportInMemory(rows: rows, latestThorough: latestThorough, latestTests: latestTests)
        try? write(from: source, today: today, generatedAt: generatedAt, title: title, findings: findings,
                   findingsSince: findingsSince, scope: scope) { page += $0 }
        return page
    }

    /// Out of use or with a defect to remedy: the assets whose latest thorough examination the default report
    /// shows (what the reader must act on).
    static let defectStatuses: Set<AssetStatus> = [.doNotUse, .remedyBy, .quarantined]

    /// The page written in pieces of about 64 KB to `write` as it is made, in bounded memory however large the
    /// register or the page: a first read of `source` finds the counts and the chart and keeps a key per listed
    /// asset (`ReportTally`); each list then reads its rows, and their examinations, again by uuid as it writes
    /// them. Run it on one read snapshot of the register. Findings of assets not in the source's rows are
    /// left out.
    public static func write(from source: some ReportSource, today: CalendarDate, generatedAt: String,
                             title: String = "Lifting equipment register", findings: [DangerFinding] = [],
                             findingsSince: CalendarDate? = nil, scope: Scope = Scope(),
                             to write: @escaping (String) throws -> Void) throws {
        var tally = ReportTally(today: today, scope: scope, findingAssets: Set(findings.map(\.assetUUID)),
                                rowBound: try source.rowCountBound())
        try source.forEachRow { tally.add($0) }
        let out = Sink(write)

        out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta name=\"generator\" content=\"Rigbook \(escape(RigbookVersion.current))\">\n"
        out += "<title>\(escape(title)) — \(today.iso)</title>\n<style>\n\(css)</style>\n</head>\n<body>\n"

        // Electrical items are counted, charted and listed with the rest; the page says so.
        let electrical = tally.electricalTotal > 0
        header(out, title: title, today: today, generatedAt: generatedAt, scope: scope, electrical: electrical)
        summary(out, tally: tally, electrical: electrical)
        forecast(out, weeks: tally.weeks, today: today, electrical: electrical)
        try attention(out, source, due: &tally.due, findingRows: tally.findingRows, today: today,
                      findings: findings, since: findingsSince ?? today)
        tally.due = DueList(today: today)  // its keys are done with: room for the whole book's
        try intervals(out, source, overlong: tally.overlong)
        if scope.locationTables { try locations(out, source, tally: &tally) }
        if scope.allParticulars {
            try particulars(out, source, all: &tally.all, today: today)
        } else {
            try defects(out, source, defects: tally.defects, today: today)
        }
        if electrical { try failedTests(out, source, outOfUse: tally.electricalOutOfUse, today: today) }

        out += "</body>\n</html>\n"
        try out.finish()
    }

    /// Collects the page and hands it on in pieces; the first error stops the writing and is thrown at the end.
    final class Sink {
        private var buffer = ""
        private let write: (String) throws -> Void
        private var failure: Error?

        init(_ write: @escaping (String) throws -> Void) {
            self.write = write
            buffer.reserveCapacity(1 << 17)
        }

        static func += (sink: Sink, text: String) {
            sink.buffer += text
            if sink.buffer.utf8.count >= 1 << 16 { sink.flush() }
        }

        private func flush() {
            guard failure == nil, !buffer.isEmpty else { buffer = ""; return }
            do { try write(buffer) } catch { failure = error }
            buffer.removeAll(keepingCapacity: true)
        }

        func finish() throws {
            flush()
            if let failure { throw failure }
        }
    }

    // MARK: - Sections

    private static func header(_ out: Sink, title: String, today: CalendarDate, generatedAt: String,
                               scope: Scope, electrical: Bool) {
        out += "<header>\n<h1>\(escape(title))</h1>\n"
        if let narrowed = scope.narrowedTo { out += "<p class=\"asof\">\(escape(narrowed))</p>\n" }
        out += "<p class=\"asof\">Status as of <time datetime=\"\(today.iso)\">\(today.iso)</time></p>\n"
        out += "<p class=\"generated\">Generated \(escape(generatedAt)) by Rigbook \(escape(RigbookVersion.current)). "
        out += "Statuses follow LOLER 1998 thorough examination intervals as recorded in the register"
        out += electrical ? ", and for electrical items the AS/NZS 3760 test intervals.</p>\n" : ".</p>\n"
        out += "</header>\n"
    }

    /// Counts per status; with electrical items, split into lifting equipment and electrical beside the total.
    private static func summary(_ out: Sink, tally: ReportTally, electrical: Bool) {
        let counts = tally.counts, electricalCounts = tally.electricalCounts, total = tally.total
        func split(_ total: Int, _ electric: Int) -> String {
            electrical ? "<td class=\"num\">\(total - electric)</td><td class=\"num\">\(electric)</td>" : ""
        }
        out += "<section id=\"summary\">\n<h2>Summary</h2>\n"
        out += "<table class=\"counts\">\n"
        out += "<thead><tr><th>Status</th>"
        if electrical { out += "<th class=\"num\">Lifting</th><th class=\"num\">Electrical</th>" }
        out += "<th class=\"num\">Assets</th></tr></thead>\n<tbody>\n"
        for status in AssetStatus.active {
            let count = counts[status.attentionRank], electric = electricalCounts[status.attentionRank]
            out += "<tr data-status=\"\(status.rawValue)\" data-count=\"\(count)\""
            out += electrical ? " data-electrical=\"\(electric)\">" : ">"
            out += "<td>\(statusBadge(status))</td>\(split(count, electric))<td class=\"num\">\(count)</td></tr>\n"
        }
        out += "</tbody>\n<tfoot><tr data-status=\"total\" data-count=\"\(total)\""
        out += electrical ? " data-electrical=\"\(tally.electricalTotal)\">" : ">"
        out += "<th>Total assets</th>\(split(total, tally.electricalTotal))"
        out += "<td class=\"num\">\(total)</td></tr></tfoot>\n</table>\n</section>\n"
    }

    /// Horizontal bars in one inline SVG: black outline, grey fill, the count written beside each bar,
    /// so the chart reads the same in black and white and when backgrounds are not printed.
    private static func forecast(_ out: Sink, weeks: [Int], today: CalendarDate, electrical: Bool) {
        let maxCount = weeks.max() ?? 0
        let labelWidth = 150, barMax = 440, rowHeight = 22, top = 4
        let width = labelWidth + barMax + 70
        let height = top * 2 + rowHeight * weeks.count
        let total = weeks.reduce(0, +)
        out += "<section id=\"forecast\">\n<h2>Falling due in the next \(forecastWeeks) weeks</h2>\n"
        out += "<p class=\"note\">Thorough examinations\(electrical ? " and electrical tests" : "") falling due per "
        out += "week, from \(today.iso) "
        out += "(assets in service, not already overdue): \(total) in all.</p>\n"
        out += "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" "
        out += "width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-labelledby=\"forecast-title\">\n"
        out += "<title id=\"forecast-title\">Items falling due per week for the next \(forecastWeeks) weeks</title>\n"
        for (index, count) in weeks.enumerated() {
            let start = DueForecast.weekStart(index, today: today).iso
            let y = top + index * rowHeight
            // Integer widths keep the output identical on every platform.
            let barWidth = maxCount == 0 ? 0 : (count * barMax + maxCount / 2) / maxCount
            let visibleWidth = count > 0 ? max(barWidth, 2) : 0
            out += "<g class=\"bar\" data-week=\"\(index)\" data-start=\"\(start)\" data-count=\"\(count)\">"
            out += "<text x=\"0\" y=\"\(y + 15)\">Week of \(start)</text>"
            if visibleWidth > 0 {
                out += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" "
                out += "width=\"\(visibleWidth)\" height=\"\(rowHeight - 6)\"/>"
            }
            out += "<text x=\"\(labelWidth + visibleWidth + 6)\" y=\"\(y + 15)\">\(count)</text></g>\n"
        }
        out += "</svg>\n</section>\n"
    }

    private static func attention(_ out: Sink, _ source: some RowSource, due: inout DueList,
                                  findingRows: [UUID: (row: RegisterRow, listedReasons: [StatusReason]?)],
                                  today: CalendarDate, findings: [DangerFinding], since: CalendarDate) throws {
        // Only the findings on the report's assets; one already explained by its asset's DO NOT USE needs no row
        // of its own.
        let findings = findings.filter { findingRows[$0.assetUUID] != nil }
        let found = findings.filter { finding in
            guard let reasons = findingRows[finding.assetUUID]?.listedReasons else { return true }
            return !(finding.failedDangerous && reasons.contains(.failedDangerous(finding.date)))
        }.sorted { ($0.date, $0.recordID) < ($1.date, $1.recordID) }
        out += "<section id=\"attention\">\n<h2>Needs attention</h2>\n"
        out += "<p class=\"note\">\(escape(DueReport.summary(counts: due.counts, today: today)))"
        if !findings.isEmpty {
            let count = findings.count, tests = findings.filter(\.isTest).count, dangerous = count - tests
            let parts = [dangerous > 0 ? "\(dangerous) dangerous finding\(dangerous == 1 ? "" : "s")" : nil,
                         tests > 0 ? "\(tests) failed test\(tests == 1 ? "" : "s")" : nil].compactMap { $0 }
            out += " \(parts.joined(separator: " and ")) from \(since.iso) to \(today.iso) stay"
            out += "\(count == 1 ? "s" : "") listed, whatever the status now."
        }
        out += "</p>\n"
        guard !due.isEmpty || !found.isEmpty else {
            out += "</section>\n"
            return
        }
        out += "<table class=\"attention\">\n<thead><tr><th>Status</th><th>Tag</th><th>Name</th><th>Location</th>"
        out += "<th>Needs</th><th>Date</th><th>When</th></tr></thead>\n<tbody>\n"
        // Items come in attention order, so each status is one group under a heading row that says it in words:
        // a row then needs no status of its own (at 100,000 assets the list has some 26,000 rows).
        var group: AssetStatus?
        let counts = due.counts
        try due.forEachItem(from: source) { item in
            if item.status != group {
                if group != nil { out += "</tbody>\n<tbody>\n" }
                group = item.status
                out += "<tr class=\"group\" data-status=\"\(item.status.rawValue)\"><th colspan=\"7\">"
                out += "\(statusBadge(item.status)) <span class=\"sub\">\(counts[item.status] ?? 0)</span></th></tr>\n"
            }
            let asset = item.row.asset
            out += "<tr><td></td><td>\(escape(asset.tag))</td><td>\(escape(asset.name))</td>"
            out += "<td>\(escape(locationName(asset.location)))</td><td>\(escape(DueReport.what(item)))</td>"
            out += "<td>\(item.report.due.text)</td><td>\(escape(DueReport.when(item)))</td></tr>\n"
        }
        if !found.isEmpty && !due.isEmpty { out += "</tbody>\n<tbody>\n" }
        for finding in found {
            guard let row = findingRows[finding.assetUUID]?.row else { continue }
            let asset = row.asset, status = row.status(on: today).status
            out += "<tr class=\"found\" data-asset=\"\(asset.uuid.uuidString)\" data-status=\"\(status.rawValue)\">"
            out += "<td>\(statusBadge(status))</td><td>\(escape(asset.tag))</td><td>\(escape(asset.name))</td>"
            out += "<td>\(escape(locationName(asset.location)))</td><td>\(finding.isTest ? "retest" : "—")</td>"
            out += "<td>\(finding.date.iso)</td><td>\(escape(finding.text))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</section>\n"
    }

    /// Assets whose interval is longer than LOLER reg 9(3) allows with no examination scheme: flagged,
    /// never changed (a new asset like them is refused). The section is left out when there are none.
    private static func intervals(_ out: Sink, _ source: some RowSource, overlong: RowOrder<ReportKey>) throws {
        var flagged = overlong
        flagged.sort { $0.tag < $1.tag }
        guard !flagged.isEmpty else { return }
        out += "<section id=\"intervals\">\n<h2>Intervals longer than LOLER regulation 9(3) allows</h2>\n"
        out += "<p class=\"note\">\(flagged.count) asset\(flagged.count == 1 ? " is" : "s are") examined less often "
        out += "than regulation 9(3) allows without an examination scheme, and name none: record the scheme, or "
        out += "shorten the interval.</p>\n"
        out += "<table class=\"intervals\">\n<thead><tr><th>Tag</th><th>Name</th><th>Type</th>"
        out += "<th class=\"num\">Interval</th><th class=\"num\">Allowed</th></tr></thead>\n<tbody>\n"
        try flagged.forEachRow(from: source) { _, row in
            let asset = row.asset
            out += "<tr data-asset=\"\(asset.uuid.uuidString)\"><td>\(escape(asset.tag))</td>"
            out += "<td>\(escape(asset.name))</td><td>\(escape(asset.type.label))</td>"
            out += "<td class=\"num\">\(asset.intervalMonths) months</td>"
            out += "<td class=\"num\">\(asset.lolerMaximumIntervalMonths) months</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</section>\n"
    }

    /// Every asset under its location, as the first read numbered them; the locations in case-insensitive order
    /// (the empty one, "(no location)", last), each table by tag.
    private static func locations(_ out: Sink, _ source: some RowSource, tally: inout ReportTally) throws {
        let ranks = tally.locationRanks(), names = tally.locationNames, sizes = tally.locationSizes
        tally.all.sort { a, b in
            let x = ranks[Int(a.location)], y = ranks[Int(b.location)]
            return x != y ? x < y : ReportKey.byTagThenUUID(a, b)
        }
        out += "<section id=\"locations\">\n<h2>Register by location</h2>\n"
        if names.isEmpty { out += "<p class=\"note\">The register holds no assets.</p>\n" }
        var group: Int32 = -1
        let today = tally.today
        try tally.all.forEachRow(from: source) { key, row in
            if key.location != group {
                if group >= 0 { out += "</tbody>\n</table>\n</section>\n" }
                group = key.location
                let name = names[Int(group)].isEmpty ? noLocation : names[Int(group)], count = sizes[Int(group)]
                out += "<section class=\"location\" data-location=\"\(escape(name))\">\n"
                let assets = "\(count) asset\(count == 1 ? "" : "s")"
                out += "<h3>\(escape(name)) <span class=\"sub\">(\(assets))</span></h3>\n"
                out += "<table class=\"register\">\n"
                out += "<thead><tr><th>Tag</th><th>Name</th><th>Type</th><th class=\"num\">WLL</th>"
                out += "<th>Last thorough examination or test</th><th>Next due</th><th>Status</th></tr></thead>\n"
                out += "<tbody>\n"
            }
            let asset = row.asset, report = row.status(on: today)
            out += "<tr data-asset=\"\(asset.uuid.uuidString)\" data-status=\"\(report.status.rawValue)\">"
            out += "<td>\(escape(asset.tag))</td><td>\(escape(asset.name))</td>"
            let wll = asset.isElectrical ? "—" : escape(Asset.wllText(asset.wllKg))
            out += "<td>\(escape(asset.typeLabel))</td><td>\(wll)</td>"
            out += "<td>\(row.summary.lastThoroughDate?.iso ?? "—")</td>"
            out += "<td>\(report.due.text)</td><td>\(statusText(report))</td></tr>\n"
        }
        if group >= 0 { out += "</tbody>\n</table>\n</section>\n" }
        out += "</section>\n"
    }

    /// LOLER 1998 Schedule 1: the particulars of a report of thorough examination the register holds.
    /// Every asset's block, by tag: its row and its examination read as the block is written.
    private static func particulars(_ out: Sink, _ source: some ReportSource, all order: inout RowOrder<ReportKey>,
                                    today: CalendarDate) throws {
        order.sort(by: ReportKey.byTagThenUUID)
        // Counted before they are shown (the note comes first); a uuid is the register's unique key, so no asset
        // comes twice.
        try order.removeAll { try !source.hasLatestThoroughExamination(of: $0.uuid) }
        out += "<section id=\"particulars\">\n<h2>Reports of thorough examination</h2>\n"
        out += "<p class=\"note\">The particulars of LOLER 1998 Schedule 1 held in the register, from each asset's "
        out += "latest thorough examination (\(order.count) asset\(order.count == 1 ? "" : "s")).</p>\n"
        try order.forEachRow(from: source) { _, row in
            let asset = row.asset
            guard let record = try source.latestThoroughExamination(of: asset.uuid) else { return }
            let v = record.values
            out += "<article class=\"exam\" data-asset=\"\(asset.uuid.uuidString)\">\n"
            out += "<h3>\(escape(asset.tag)) — \(escape(asset.name))</h3>\n<table class=\"pt\">\n"
            // Two label/value pairs a line keeps a block short; `nil` as the second pair spans the line.
            func line(_ label: String, _ html: String, _ label2: String? = nil, _ html2: String = "") {
                out += "<tr><th>\(label)</th>"
                if let label2 {
                    out += "<td>\(html)</td><th>\(label2)</th><td>\(html2)</td></tr>\n"
                } else {
                    out += "<td colspan=\"3\">\(html)</td></tr>\n"
                }
            }
            // Identification of the equipment.
            line("Type of equipment", escape(asset.type.label), "Serial number", orDash(asset.serialNumber))
            line("Manufacturer", orDash(asset.manufacturer),
                 "Date of manufacture", asset.manufactured?.iso ?? "unknown")
            var wll = escape(Asset.wllText(record.assetWLLKg))
            if record.assetWLLKg != asset.wllKg {
                wll += " <span class=\"sub\">(register now: \(escape(Asset.wllText(asset.wllKg))))</span>"
            }
            line("Safe working load (WLL)", wll, "Length", asset.lengthM.map { escape(lengthText($0)) } ?? "—")
            // The examination.
            line("Date of examination", orDash(v.inspectionDate),
                 "Next examination due", row.status(on: today).examinationDue.text)
            line("Type of examination", escape(v.inspectionType.label)
                 + (v.schemeReference.isEmpty ? "" : " — scheme \(escape(v.schemeReference))"))
            line("Safe to operate (result)", escape(v.result?.label ?? "—"),
                 "Location when examined", orDash(record.assetLocation))
            // Defects.
            if v.defectDescription.isEmpty && v.action == .none && !v.remedyDeadlineSet {
                line("Defect", "None reported")
            } else {
                let defect = "<span class=\"pre\">\(escape(v.defectDescription))</span>"
                line("Defect", v.defectDescription.isEmpty ? "—" : defect)
                line("Action", escape(v.action.label),
                     "Remedy by", v.remedyDeadlineSet ? orDash(v.remedyDeadline) : "—")
            }
            if !v.notes.isEmpty { line("Notes", "<span class=\"pre\">\(escape(v.notes))</span>") }
            // Who made the report, and the record.
            line("Person making the report", orDash(v.inspectorName),
                 "Certification no.", orDash(v.certificationNumber))
            var recordText = (record.reportNumber.map { "report number \(escape($0)), " } ?? "")
                + "#\(record.id), saved \(escape(record.savedAt)), "
                + "uuid \(record.recordUUID.uuidString.lowercased())"
            if let amends = record.amends {
                // The amended record is not in this report: name it so `rigbook history` finds it, and say why.
                let uuid = record.amendsUUID.map { " (\($0.uuidString.lowercased()))" } ?? ""
                recordText += ", amends #\(amends)\(uuid): \(escape(record.values.amendmentReason))"
            }
            line("Record", recordText)
            out += "</table>\n</article>\n"
        }
        out += "</section>\n"
    }

    /// The default report's particulars: for each asset out of use or with a defect to remedy, what its latest
    /// thorough examination found, one row each (the full Schedule 1 blocks are `--all-particulars`).
    private static func defects(_ out: Sink, _ source: some ReportSource, defects: RowOrder<ReportKey>,
                                today: CalendarDate) throws {
        var order = defects
        order.sort(by: ReportKey.byTagThenUUID)
        try order.removeAll { try !source.hasLatestThoroughExamination(of: $0.uuid) }
        out += "<section id=\"particulars\">\n<h2>Reports of thorough examination: what was found</h2>\n"
        out += "<p class=\"note\">From the latest thorough examination of each asset out of use or with a defect to "
        out += "remedy (\(order.count) asset\(order.count == 1 ? "" : "s")). Every asset's full LOLER 1998 Schedule 1 "
        out += "particulars: <code>rigbook report --all-particulars</code>, or narrowed with <code>--site</code> "
        out += "or <code>--type</code>.</p>\n"
        guard !order.isEmpty else {
            out += "</section>\n"
            return
        }
        out += "<table class=\"defects\">\n<thead><tr><th>Tag</th><th>Examined</th><th>Result</th><th>Defect</th>"
        out += "<th>Action</th><th>Remedy by</th><th>Examiner</th><th>Report</th></tr></thead>\n<tbody>\n"
        try order.forEachRow(from: source) { _, row in
            let asset = row.asset
            guard let record = try source.latestThoroughExamination(of: asset.uuid) else { return }
            let v = record.values
            out += "<tr data-status=\"\(row.status(on: today).status.rawValue)\"><td>\(escape(asset.tag))</td>"
            out += "<td>\(orDash(v.inspectionDate))</td><td>\(escape(v.result?.label ?? "—"))</td>"
            out += "<td class=\"pre\">\(orDash(v.defectDescription))</td><td>\(escape(v.action.label))</td>"
            out += "<td>\(v.remedyDeadlineSet ? orDash(v.remedyDeadline) : "—")</td>"
            out += "<td>\(orDash(v.inspectorName))</td>"
            out += "<td>\(record.reportNumber.map(escape) ?? "#\(record.id)")</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</section>\n"
    }

    /// Electrical items out of use: what their latest test found, one row each, as `defects` does for
    /// thorough examinations. Left out when none is out of use.
    private static func failedTests(_ out: Sink, _ source: some ReportSource, outOfUse: RowOrder<ReportKey>,
                                    today: CalendarDate) throws {
        guard !outOfUse.isEmpty else { return }
        let latestTests = try source.latestTests(of: Set(outOfUse.orderedKeys.lazy.map(\.uuid)))
        var order = outOfUse
        order.removeAll { latestTests[$0.uuid].map { !$0.passed } != true }
        order.sort(by: ReportKey.byTag)
        guard !order.isEmpty else { return }
        out += "<section id=\"failed-tests\">\n<h2>Electrical tests: what failed</h2>\n"
        out += "<p class=\"note\">From the latest test of each electrical item out of use (AS/NZS 3760: tagged out "
        out += "of service until a passing retest); \(order.count) item\(order.count == 1 ? "" : "s"). The test "
        out += "certificate: <code>rigbook certificate --test ID</code>.</p>\n"
        out += "<table class=\"defects\">\n<thead><tr><th>Tag</th><th>Tested</th><th>Class</th><th>Failed</th>"
        out += "<th>Notes</th><th>Technician</th><th>Test</th></tr></thead>\n<tbody>\n"
        try order.forEachRow(from: source) { _, row in
            let asset = row.asset
            guard let test = latestTests[asset.uuid] else { return }
            out += "<tr data-status=\"\(row.status(on: today).status.rawValue)\" data-test=\"\(test.id)\">"
            out += "<td>\(escape(asset.tag))</td><td>\(orDash(test.values.testDate))</td>"
            out += "<td>\(escape(asset.typeLabel))</td><td>\(escape(TestCertificate.failures(test)))</td>"
            out += "<td class=\"pre\">\(orDash(test.values.notes))</td><td>\(orDash(test.values.technician))</td>"
            out += "<td>#\(test.id)</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</section>\n"
    }

    // MARK: - Pieces

    private static func locationName(_ location: String) -> String {
        let trimmed = location.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? noLocation : trimmed
    }

    private static func statusBadge(_ status: AssetStatus) -> String {
        "<span class=\"st st-\(status.rawValue)\">\(status.label)</span>"
    }

    /// The status in words: why, for DO NOT USE; the remedy deadline for REMEDY BY.
    private static func statusText(_ report: StatusReport) -> String {
        var text = statusBadge(report.status)
        if let reason = report.reason {
            text += " <span class=\"sub\">\(escape(reason))</span>"
        } else if report.status == .remedyBy, let deadline = report.remedyDeadline {
            text += " <span class=\"sub\">\(deadline.iso)</span>"
        }
        return text
    }

    private static func orDash(_ text: String) -> String { text.isEmpty ? "—" : escape(text) }

    /// "3 m", "2.5 m": as entered, never rounded.
    static func lengthText(_ metres: Double) -> String {
        if metres == metres.rounded(), abs(metres) < 1e15 { return "\(Int(metres)) m" }
        return "\(metres) m"
    }

    /// Makes text safe in HTML element content and in quoted attribute values: `&`, `<`, `>`, `"`
    /// and `'` become character references; control characters (C0, DEL, C1) become visible
    /// symbols, except newline and tab, which HTML treats as plain white space. Works on Unicode
    /// scalars, so a `<` carrying a combining mark is still escaped.
    static func escape(_ text: String) -> String {
        // Fast path: most register text needs nothing. C1 controls are U+0080…U+009F, i.e. 0xC2 0x80…0x9F.
        var needs = false
        var previous: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0x7F:
                needs = true
            case 0x00...0x1F where byte != 0x0A && byte != 0x09:
                needs = true
            case 0x80...0x9F where previous == 0xC2:
                needs = true
            default:
                break
            }
            if needs { break }
            previous = byte
        }
        guard needs else { return text }

        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: result += "&amp;"
            case 0x3C: result += "&lt;"
            case 0x3E: result += "&gt;"
            case 0x22: result += "&quot;"
            case 0x27: result += "&#39;"
            case 0x0A, 0x09: result.unicodeScalars.append(scalar)
            case 0x00...0x1F: result.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!) // ␀…␟
            case 0x7F: result += "\u{2421}" // ␡
            case 0x80...0x9F: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: - Style

    /// Print first: A4, 15 mm margins, table headers repeated on each page, an examination block never
    /// split across pages. Status is always written in words; colour only adds to it.
    static let css = """
    @page { size: A4; margin: 15mm; }
    html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    body { font-family: "Helvetica Neue", Helvetica, Arial, "Noto Sans", "Noto Sans CJK SC", sans-serif;
      font-size: 10pt; line-height: 1.35; color: #000; background: #fff; margin: 0 auto; max-width: 190mm; }
    h1 { font-size: 18pt; margin: 0 0 2mm; }
    h2 { font-size: 13pt; margin: 7mm 0 2mm; border-bottom: 0.5pt solid #000;
      page-break-after: avoid; break-after: avoid; }
    h3 { font-size: 11pt; margin: 4mm 0 1.5mm; page-break-after: avoid; break-after: avoid; }
    p { margin: 1mm 0; }
    .asof { font-size: 12pt; font-weight: bold; }
    .generated, .note, .sub { color: #333; font-size: 9pt; }
    table { border-collapse: collapse; width: 100%; font-size: 9pt; margin: 1mm 0 3mm; }
    th, td { border: 0.5pt solid #000; padding: 1mm 1.5mm; text-align: left; vertical-align: top; }
    thead th { background: #e6e6e6; }
    thead { display: table-header-group; }
    tr { page-break-inside: avoid; break-inside: avoid; }
    table.counts { width: auto; min-width: 70mm; }
    tfoot th, tfoot td { font-weight: bold; }
    .num { text-align: right; white-space: nowrap; }
    table.attention td:nth-child(-n+2), table.attention td:nth-child(5),
      table.register td:nth-child(1), table.register td:nth-child(n+4) { white-space: nowrap; }
    table.register td:nth-child(4) { text-align: right; }
    .pre { white-space: pre-line; }
    .st { font-weight: bold; white-space: nowrap; }
    .st-do_not_use { color: #b00000; }
    .st-overdue { color: #b00000; }
    .st-remedy_by { color: #9a4a00; }
    .st-quarantined { color: #6a1b9a; }
    .st-due_soon { color: #7a5d00; }
    .st-untested { color: #444; font-style: italic; }
    .st-ok { color: #1b5e20; font-weight: normal; }
    .st-withdrawn { color: #555; font-weight: normal; text-decoration: line-through; }
    svg.chart { display: block; max-width: 100%; height: auto; font-size: 12px;
      page-break-inside: avoid; break-inside: avoid; }
    svg.chart text { fill: #000; font-family: inherit; }
    svg.chart rect { fill: #9e9e9e; stroke: #000; stroke-width: 1; }
    section.location { page-break-inside: auto; }
    article.exam { page-break-inside: avoid; break-inside: avoid; margin: 0 0 3mm; }
    article.exam h3 { margin: 3mm 0 1mm; }
    table.pt { margin: 0; }
    table.pt th { width: 20%; font-weight: normal; background: #f2f2f2; }
    table.pt td { width: 30%; }
    @media screen { body { padding: 10mm; } }

    """
}
