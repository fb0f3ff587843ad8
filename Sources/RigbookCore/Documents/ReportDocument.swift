import Foundation

/// The register report as a printed document, written block by block to a renderer (HTML or PDF) as it is made, in
/// bounded memory however large the register: a first read of the source finds the counts and the chart and keeps
/// a key per listed asset (`ReportTally`); each list then reads its rows, and their examinations, again by uuid as
/// it writes them. Every status and date comes from the one status function (`RegisterRow.status(on:)`,
/// `DueReport`, `DueForecast`). Run it on one read snapshot of the register (the PDF writes it twice: the first pass
/// counts the pages).
public struct ReportDocument {
    public var today: CalendarDate
    /// When the report was made: a report is about the register now, and says when that was.
    public var generatedAt: String
    public var title: String
    /// The dangerous findings of the report's period, `findingsSince` through `today`
    /// (`Register.dangerousFindings`); each of an asset in the source's rows stays in the attention list.
    public var findings: [DangerFinding]
    public var findingsSince: CalendarDate?
    public var scope: Scope

    static let forecastWeeks = 12
    /// Heading for assets whose location is empty.
    static let noLocation = "(no location)"

    public init(today: CalendarDate, generatedAt: String, title: String = "Lifting equipment register",
                findings: [DangerFinding] = [], findingsSince: CalendarDate? = nil, scope: Scope = Scope()) {
        self.today = today
        self.generatedAt = generatedAt
        self.title = title
        self.findings = findings
        self.findingsSince = findingsSince
        self.scope = scope
    }

    /// What a report holds beyond its counts, chart and attention list (the whole register's particulars at
    /// 100,000 assets were 94 MB of a 125 MB page).
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

    /// The title, the footer and the dates: the report's making, which it may carry.
    public var cover: PrintedDocument.Cover {
        let narrowed = scope.narrowedTo.map { " · \($0)" } ?? ""
        return .init(title: "\(title) — \(today.iso)", created: PrintedDocument.date(generatedAt),
                     footer: "\(title)\(narrowed) · status as of \(today.iso) · generated \(generatedAt)")
    }

    /// Out of use or with a defect to remedy: the assets whose latest thorough examination the default report
    /// shows (what the reader must act on).
    static let defectStatuses: Set<AssetStatus> = [.doNotUse, .remedyBy, .quarantined]

    /// The report's blocks, to `out`. Findings of assets not in the source's rows are left out.
    public func write(from source: some ReportSource, to out: some DocumentWriter) throws {
        var tally = ReportTally(today: today, scope: scope, findingAssets: Set(findings.map(\.assetUUID)),
                                rowBound: try source.rowCountBound())
        try source.forEachRow { tally.add($0) }
        // Electrical items are counted, charted and listed with the rest; the page says so.
        let electrical = tally.electricalTotal > 0
        try header(out, electrical: electrical)
        try summary(out, tally: tally, electrical: electrical)
        try forecast(out, weeks: tally.weeks, electrical: electrical)
        try attention(out, source, due: &tally.due, findingRows: tally.findingRows)
        tally.due = DueList(today: today)  // its keys are done with: room for the whole book's
        try intervals(out, source, overlong: tally.overlong)
        if scope.locationTables { try locations(out, source, tally: &tally) }
        if scope.allParticulars {
            try particulars(out, source, all: &tally.all)
        } else {
            try defects(out, source, defects: tally.defects)
        }
        if electrical { try failedTests(out, source, outOfUse: tally.electricalOutOfUse) }
    }

    // MARK: - Sections

    private func header(_ out: some DocumentWriter, electrical: Bool) throws {
        try out.write(.heading("\(title)", level: 1))
        if let narrowed = scope.narrowedTo { try out.write(.paragraph("\(narrowed)", .strong)) }
        try out.write(.paragraph(RichText(html: "Status as of <time datetime=\"\(today.iso)\">\(today.iso)</time>",
                                          plain: "Status as of \(today.iso)"), .strong))
        try out.write(.paragraph("Generated \(generatedAt) by Rigbook \(RigbookVersion.current). Statuses follow LOLER "
                                 + "1998 thorough examination intervals as recorded in the register"
                                 + (electrical ? ", and for electrical items the AS/NZS 3760 test intervals." : "."),
                                 .small))
    }

    /// Counts per status; with electrical items, split into lifting equipment and electrical beside the total.
    private func summary(_ out: some DocumentWriter, tally: ReportTally, electrical: Bool) throws {
        try out.write(.heading("Summary", level: 2, id: "summary"))
        let counts = tally.counts, electricalCounts = tally.electricalCounts
        func row(_ label: RichText, _ total: Int, _ electric: Int, status: String, isTotal: Bool = false)
            -> PrintedDocument.Row {
            let split: [RichText] = electrical ? ["\(total - electric)", "\(electric)"] : []
            let data: [PrintedDocument.Datum] = [.init("status", status), .init("count", "\(total)")]
                + (electrical ? [.init("electrical", "\(electric)")] : [])
            return .init([label] + split + ["\(total)"], data: data, isTotal: isTotal)
        }
        let numbers = (electrical ? ["Lifting", "Electrical"] : []) + ["Assets"]
        try out.write(.table(.init(
            columns: [.init("Status", share: 2)] + numbers.map { .init($0, share: 1, numeric: true) },
            rows: AssetStatus.active.map { status in
                row(ReportDocument.badge(status), counts[status.attentionRank], electricalCounts[status.attentionRank],
                    status: status.rawValue)
            } + [row("Total assets", tally.total, tally.electricalTotal, status: "total", isTotal: true)])))
    }

    private func forecast(_ out: some DocumentWriter, weeks: [Int], electrical: Bool) throws {
        try out.write(.heading("Falling due in the next \(ReportDocument.forecastWeeks) weeks", level: 2,
                               id: "forecast"))
        let total = weeks.reduce(0, +)
        try out.write(.paragraph("Thorough examinations\(electrical ? " and electrical tests" : "") falling due per "
                                 + "week, from \(today.iso) (assets in service, not already overdue): \(total) in all.",
                                 .small))
        try out.write(.bars(weeks.enumerated().map { index, count in
            let start = DueForecast.weekStart(index, today: today).iso
            return .init("Week of \(start)", count: count, data: [.init("week", "\(index)"), .init("start", start)])
        }))
    }

    private func attention(_ out: some DocumentWriter, _ source: some RowSource, due: inout DueList,
                           findingRows: [UUID: FindingAsset]) throws {
        // Only the findings on the report's assets; one already explained by its asset's DO NOT USE needs no row
        // of its own.
        let findings = findings.filter { findingRows[$0.assetUUID] != nil }
        let found = findings.filter { finding in
            guard let reasons = findingRows[finding.assetUUID]?.listedReasons else { return true }
            return !(finding.failedDangerous && reasons.contains(.failedDangerous(finding.date)))
        }.sorted { ($0.date, $0.recordID) < ($1.date, $1.recordID) }
        try out.write(.heading("Needs attention", level: 2, id: "attention"))
        var note = DueReport.summary(counts: due.counts, today: today)
        if !findings.isEmpty {
            let count = findings.count, tests = findings.filter(\.isTest).count, dangerous = count - tests
            let parts = [dangerous > 0 ? "\(dangerous) dangerous finding\(dangerous == 1 ? "" : "s")" : nil,
                         tests > 0 ? "\(tests) failed test\(tests == 1 ? "" : "s")" : nil].compactMap { $0 }
            note += " \(parts.joined(separator: " and ")) from \((findingsSince ?? today).iso) to \(today.iso) stay"
                + "\(count == 1 ? "s" : "") listed, whatever the status now."
        }
        try out.write(.paragraph("\(note)", .small))
        guard !due.isEmpty || !found.isEmpty else { return }
        try out.startTable([.init("Status", share: 1.2), .init("Tag", share: 1.1), .init("Name", share: 2.1),
                            .init("Location", share: 1.3), .init("Needs", share: 1.7), .init("Date", share: 1.3),
                            .init("When", share: 2.2)])
        // Items come in attention order, so each status is one group under a heading row that says it in words:
        // a row then needs no status of its own (at 100,000 assets the list has some 26,000 rows).
        var group: AssetStatus?
        let counts = due.counts
        try due.forEachItem(from: source) { item in
            if item.status != group {
                group = item.status
                try out.writeRow(.group(ReportDocument.badge(item.status) + " "
                                        + .aside("\(counts[item.status] ?? 0)"),
                                        data: [.init("status", item.status.rawValue)]))
            }
            let asset = item.row.asset
            try out.writeRow(.init(["", .cell(asset.tag), .cell(asset.name),
                                    .cell(ReportDocument.locationName(asset.location)),
                                    .cell(DueReport.what(item)), "\(item.report.due.text)",
                                    .cell(DueReport.when(item))]))
        }
        if !found.isEmpty { try out.writeRow(.group("Findings of the period")) }
        for finding in found {
            guard let asset = findingRows[finding.assetUUID] else { continue }
            let status = asset.status
            try out.writeRow(.init([ReportDocument.badge(status), .cell(asset.tag), .cell(asset.name),
                                    .cell(ReportDocument.locationName(asset.location)),
                                    finding.isTest ? "retest" : "—", "\(finding.date.iso)", .cell(finding.text)],
                                   data: [.init("finding", "true"), .init("asset", asset.uuid.uuidString),
                                          .init("status", status.rawValue)]))
        }
        try out.endTable()
    }

    /// Assets whose interval is longer than LOLER reg 9(3) allows with no examination scheme: flagged, never
    /// changed (a new asset like them is refused). The section is left out when there are none.
    private func intervals(_ out: some DocumentWriter, _ source: some RowSource,
                           overlong: RowOrder<ReportKey>) throws {
        var flagged = overlong
        flagged.sort { $0.tag < $1.tag }
        guard !flagged.isEmpty else { return }
        try out.write(.heading("Intervals longer than LOLER regulation 9(3) allows", level: 2, id: "intervals"))
        try out.write(.paragraph("\(flagged.count) asset\(flagged.count == 1 ? " is" : "s are") examined less often "
                                 + "than regulation 9(3) allows without an examination scheme, and name none: record "
                                 + "the scheme, or shorten the interval.", .small))
        try out.startTable([.init("Tag"), .init("Name", share: 2.5), .init("Type", share: 1.5),
                            .init("Interval", numeric: true), .init("Allowed", numeric: true)])
        try flagged.forEachRow(from: source) { _, row in
            let asset = row.asset
            try out.writeRow(.init([.cell(asset.tag), .cell(asset.name), "\(asset.type.label)",
                                    "\(asset.intervalMonths) months", "\(asset.lolerMaximumIntervalMonths) months"],
                                   data: [.init("asset", asset.uuid.uuidString)]))
        }
        try out.endTable()
    }

    private static let registerColumns: [PrintedDocument.Column] = [
        .init("Tag", share: 1.2), .init("Name", share: 2.4), .init("Type", share: 1.6), .init("WLL", numeric: true),
        .init("Last thorough examination or test", share: 1.5), .init("Next due", share: 1.2),
        .init("Status", share: 1.8),
    ]

    /// Every asset under its location, as the first read numbered them; the locations in case-insensitive order
    /// (the empty one, "(no location)", last), each table by tag.
    private func locations(_ out: some DocumentWriter, _ source: some RowSource, tally: inout ReportTally) throws {
        let ranks = tally.locationRanks(), names = tally.locationNames, sizes = tally.locationSizes
        tally.all.sort { a, b in
            let x = ranks[Int(a.location)], y = ranks[Int(b.location)]
            return x != y ? x < y : ReportKey.byTagThenUUID(a, b)
        }
        try out.write(.heading("Register by location", level: 2, id: "locations"))
        if names.isEmpty { try out.write(.paragraph("The register holds no assets.", .small)) }
        var group: Int32 = -1
        try tally.all.forEachRow(from: source) { key, row in
            if key.location != group {
                if group >= 0 { try out.endTable() }
                group = key.location
                let name = names[Int(group)].isEmpty ? ReportDocument.noLocation : names[Int(group)]
                let count = sizes[Int(group)]
                try out.write(.heading("\(data: name) " + .aside("(\(count) asset\(count == 1 ? "" : "s"))"), level: 3,
                                       data: [.init("location", name)]))
                try out.startTable(ReportDocument.registerColumns)
            }
            let asset = row.asset, report = row.status(on: today)
            try out.writeRow(.init([.cell(asset.tag), .cell(asset.name), .cell(asset.typeLabel),
                                    asset.isElectrical ? "—" : "\(Asset.wllText(asset.wllKg))",
                                    "\(row.summary.lastThoroughDate?.iso ?? "—")", "\(report.due.text)",
                                    ReportDocument.statusText(report)],
                                   data: [.init("asset", asset.uuid.uuidString),
                                          .init("status", report.status.rawValue)]))
        }
        if group >= 0 { try out.endTable() }
    }

    /// LOLER 1998 Schedule 1: the particulars of a report of thorough examination the register holds. Every asset's
    /// block, by tag: its row and its examination read as the block is written.
    private func particulars(_ out: some DocumentWriter, _ source: some ReportSource,
                             all order: inout RowOrder<ReportKey>) throws {
        order.sort(by: ReportKey.byTagThenUUID)
        // Counted before they are shown (the note comes first); a uuid is the register's unique key, so no asset
        // comes twice.
        try order.removeAll { try !source.hasLatestThoroughExamination(of: $0.uuid) }
        try out.write(.heading("Reports of thorough examination", level: 2, id: "particulars"))
        try out.write(.paragraph("The particulars of LOLER 1998 Schedule 1 held in the register, from each asset's "
                                 + "latest thorough examination (\(order.count) asset\(order.count == 1 ? "" : "s")).",
                                 .small))
        try order.forEachRow(from: source) { _, row in
            let asset = row.asset
            guard let record = try source.latestThoroughExamination(of: asset.uuid) else { return }
            try out.write(.heading("\(data: asset.tag) — \(data: asset.name)", level: 3,
                                   data: [.init("asset", asset.uuid.uuidString)]))
            try out.write(.fields(ReportDocument.examinationFields(row, record, today: today), paired: true))
        }
    }

    /// One asset's latest thorough examination, two label/value pairs a line to keep the block short.
    private static func examinationFields(_ row: RegisterRow, _ record: StoredInspection,
                                          today: CalendarDate) -> [PrintedDocument.Field] {
        let asset = row.asset, v = record.values
        var wll: RichText = "\(Asset.wllText(record.assetWLLKg))"
        if record.assetWLLKg != asset.wllKg { wll += " " + .aside("(register now: \(Asset.wllText(asset.wllKg)))") }
        var fields: [PrintedDocument.Field] = [
            // Identification of the equipment.
            .init("Type of equipment", "\(asset.type.label)"),
            .init("Serial number", ReportDocument.orDash(asset.serialNumber)),
            .init("Manufacturer", ReportDocument.orDash(asset.manufacturer)),
            .init("Date of manufacture", "\(asset.manufactured?.iso ?? "unknown")"),
            .init("Safe working load (WLL)", wll),
            .init("Length", asset.lengthM.map { "\(HTMLReport.lengthText($0))" } ?? "—"),
            // The examination.
            .init("Date of examination", ReportDocument.orDash(v.inspectionDate)),
            .init("Next examination due", "\(row.status(on: today).examinationDue.text)"),
            .init("Type of examination", "\(v.inspectionType.label)"
                        + (v.schemeReference.isEmpty ? "" : " — scheme \(v.schemeReference)"), wide: true),
            .init("Safe to operate (result)", "\(v.result?.label ?? "—")"),
            .init("Location when examined", ReportDocument.orDash(record.assetLocation)),
        ]
        // Defects.
        if v.defectDescription.isEmpty && v.action == .none && !v.remedyDeadlineSet {
            fields.append(.init("Defect", "None reported", wide: true))
        } else {
            fields.append(.init("Defect", v.defectDescription.isEmpty ? "—" : .lines(v.defectDescription),
                                wide: true))
            fields += [.init("Action", "\(v.action.label)"),
                       .init("Remedy by", v.remedyDeadlineSet ? ReportDocument.orDash(v.remedyDeadline) : "—")]
        }
        if !v.notes.isEmpty { fields.append(.init("Notes", .lines(v.notes), wide: true)) }
        // Who made the report, and the record.
        fields += [.init("Person making the report", ReportDocument.orDash(v.inspectorName)),
                   .init("Certification no.", ReportDocument.orDash(v.certificationNumber))]
        var recordText: RichText = (record.reportNumber.map { "report number \($0), " } ?? "")
            + "#\(record.id), saved \(record.savedAt), uuid \(record.recordUUID.uuidString.lowercased())"
        if let amends = record.amends {
            // The amended record is not in this report: name it so `rigbook history` finds it, and say why.
            let uuid = record.amendsUUID.map { " (\($0.uuidString.lowercased()))" } ?? ""
            recordText += ", amends #\(amends)\(uuid): \(v.amendmentReason)"
        }
        fields.append(.init("Record", recordText, wide: true))
        return fields
    }

    /// The default report's particulars: for each asset out of use or with a defect to remedy, what its latest
    /// thorough examination found, one row each (the full Schedule 1 blocks are `--all-particulars`).
    private func defects(_ out: some DocumentWriter, _ source: some ReportSource,
                         defects: RowOrder<ReportKey>) throws {
        var order = defects
        order.sort(by: ReportKey.byTagThenUUID)
        try order.removeAll { try !source.hasLatestThoroughExamination(of: $0.uuid) }
        try out.write(.heading("Reports of thorough examination: what was found", level: 2, id: "particulars"))
        try out.write(.paragraph("From the latest thorough examination of each asset out of use or with a defect to "
                                 + "remedy (\(order.count) asset\(order.count == 1 ? "" : "s")). Every asset's full "
                                 + "LOLER 1998 Schedule 1 particulars: " + Certificate.code("rigbook report "
                                 + "--all-particulars") + ", or narrowed with " + Certificate.code("--site")
                                 + " or " + Certificate.code("--type") + ".", .small))
        guard !order.isEmpty else { return }
        try out.startTable([.init("Tag", share: 1.1), .init("Examined", share: 1.1), .init("Result", share: 1.3),
                            .init("Defect", share: 2.6), .init("Action", share: 1.3), .init("Remedy by", share: 1.1),
                            .init("Examiner", share: 1.3), .init("Report", share: 1.4)])
        try order.forEachRow(from: source) { _, row in
            let asset = row.asset
            guard let record = try source.latestThoroughExamination(of: asset.uuid) else { return }
            let v = record.values
            let dash = ReportDocument.orDash
            try out.writeRow(.init([.cell(asset.tag), dash(v.inspectionDate), "\(v.result?.label ?? "—")",
                                    v.defectDescription.isEmpty ? "—" : .lines(v.defectDescription),
                                    "\(v.action.label)", v.remedyDeadlineSet ? dash(v.remedyDeadline) : "—",
                                    dash(v.inspectorName), record.reportNumber.map { .cell($0) } ?? "#\(record.id)"],
                                   data: [.init("status", row.status(on: today).status.rawValue)]))
        }
        try out.endTable()
    }

    /// Electrical items out of use: what their latest test found, one row each, as `defects` does for thorough
    /// examinations. Left out when none is out of use.
    private func failedTests(_ out: some DocumentWriter, _ source: some ReportSource,
                             outOfUse: RowOrder<ReportKey>) throws {
        guard !outOfUse.isEmpty else { return }
        // Their latest tests are read a chunk of items at a time, once to find the failed ones and again as their
        // rows are written: every out-of-use item's test held at once was 11 MB at 1,000,000 assets.
        var failed = Set<UUID>()
        try ReportDocument.forEachChunk(of: Array(outOfUse.orderedKeys.lazy.map(\.uuid))) { chunk in
            for (uuid, test) in try source.latestTests(of: Set(chunk)) where !test.passed { failed.insert(uuid) }
        }
        var order = outOfUse
        order.removeAll { !failed.contains($0.uuid) }
        order.sort(by: ReportKey.byTag)
        guard !order.isEmpty else { return }
        try out.write(.heading("Electrical tests: what failed", level: 2, id: "failed-tests"))
        try out.write(.paragraph("From the latest test of each electrical item out of use (AS/NZS 3760: tagged out of "
                                 + "service until a passing retest); \(order.count) item\(order.count == 1 ? "" : "s")."
                                 + " The test certificate: " + Certificate.code("rigbook certificate --test ID")
                                 + ".", .small))
        try out.startTable([.init("Tag", share: 1.1), .init("Tested", share: 1.1), .init("Class", share: 1.4),
                            .init("Failed", share: 2.6), .init("Notes", share: 2), .init("Technician", share: 1.3),
                            .init("Test", share: 0.8)])
        try ReportDocument.forEachChunk(of: Array(order.orderedKeys.lazy.map(\.uuid))) { chunk in
            let latestTests = try source.latestTests(of: Set(chunk))
            try source.forEachRow(uuids: chunk) { row in
                let asset = row.asset
                guard let test = latestTests[asset.uuid] else { return }
                try out.writeRow(.init([.cell(asset.tag), ReportDocument.orDash(test.values.testDate),
                                        .cell(asset.typeLabel),
                                        .cell(TestCertificate.failures(test)),
                                        test.values.notes.isEmpty ? "—" : .lines(test.values.notes),
                                        ReportDocument.orDash(test.values.technician), "#\(test.id)"],
                                       data: [.init("status", row.status(on: today).status.rawValue),
                                              .init("test", "\(test.id)")]))
            }
        }
        try out.endTable()
    }

    /// `uuids` a thousand at a time, in order: as many as the register reads one by one, each by its index, before it
    /// reads every test instead (`Register.latestTests`).
    private static func forEachChunk(of uuids: [UUID], _ body: (ArraySlice<UUID>) throws -> Void) throws {
        for start in stride(from: 0, to: uuids.count, by: 1_000) {
            try body(uuids[start..<min(start + 1_000, uuids.count)])
        }
    }

    // MARK: - Pieces

    static func locationName(_ location: String) -> String {
        let trimmed = location.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? noLocation : trimmed
    }

    static func badge(_ status: AssetStatus) -> RichText {
        RichText(html: "<span class=\"st st-\(status.rawValue)\">\(status.label)</span>", plain: status.label)
    }

    /// The status in words: why, for DO NOT USE; the remedy deadline for REMEDY BY.
    static func statusText(_ report: StatusReport) -> RichText {
        var text = badge(report.status)
        if let reason = report.reason {
            text += " " + .aside("\(reason)")
        } else if report.status == .remedyBy, let deadline = report.remedyDeadline {
            text += " " + .aside("\(deadline.iso)")
        }
        return text
    }

    /// A value from data, or a dash for none.
    static func orDash(_ value: String) -> RichText { value.isEmpty ? "—" : .cell(value) }
}
