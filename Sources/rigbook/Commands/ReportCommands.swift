import Foundation
import RigbookCore
import RigbookPDF
import RigbookStore

/// Runs `body` with a `write` that goes to standard output (no `--out`, or `--out -` or `/dev/stdout`), or
/// to the file `--out` names, as `OutputFile` writes it (a folder that must already exist, and never one of
/// the home's own files), then says on stderr which file it wrote.
func withSink(_ path: String?, home: DataHome, _ body: (_ write: (String) throws -> Void) throws -> Void) throws {
    // Text goes out as its UTF-8 bytes: a terminal is shown them safely (`AtomicFile.Writer`), a file gets them.
    // `body` is called only while this runs.
    try withoutActuallyEscaping(body) { body in
        try withBytes(path, home: home) { write in try body { try write(Data($0.utf8)) } }
    }
}

/// A PDF's bytes to `--out` or to standard output, as `withSink` writes; never to a terminal, where they would be
/// noise (a usage error: exit 64).
func writeBytes(_ bytes: [UInt8], to path: String?, home: DataHome, what: String) throws {
    try withPDFSink(path, home: home, what: what) { write in try write(bytes) }
}

/// `writeBytes` for a PDF written as it is drawn: `body` hands its bytes to `write` piece by piece.
func withPDFSink(_ path: String?, home: DataHome, what: String,
                 _ body: (_ write: @escaping ([UInt8]) throws -> Void) throws -> Void) throws {
    let toStandardOutput = path.map { StandardStreams.outputNames.contains($0) } ?? true
    if toStandardOutput && isatty(STDOUT_FILENO) == 1 {
        throw UsageError("\(what) is not written to a terminal: give --out FILE.pdf, or send it to a pipe")
    }
    try withBytes(path, home: home) { write in
        try withoutActuallyEscaping(write) { write in try body { try write(Data($0)) } }
    }
}

/// `withSink`, for bytes.
private func withBytes(_ path: String?, home: DataHome,
                       _ body: (_ write: (Data) throws -> Void) throws -> Void) throws {
    guard let path, !StandardStreams.outputNames.contains(path) else {
        var out = Output()
        try body { try out.write(contentsOf: $0) }
        try out.flush()
        return
    }
    if let refusal = OwnFiles(home: home).refusal(writing: path) {
        throw CommandFailure("rigbook: \(refusal); nothing was written")
    }
    let folder = (path as NSString).deletingLastPathComponent
    var isDirectory: ObjCBool = false
    if !folder.isEmpty,
       !(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue) {
        throw CommandFailure("rigbook: cannot write \(path): \(folder) is not an existing folder; nothing was written")
    }
    do {
        try OutputFile.write(to: path) { writer in try body { try writer.write(contentsOf: $0) } }
    } catch let error as AtomicFile.WriteError {
        // Written in place (a FIFO, a terminal), part of it may have gone out before the error.
        throw CommandFailure("rigbook: \(error.description)" + (error.inPlace ? "" : "; nothing was written"))
    } catch let error as AtomicFile.Refusal {
        throw CommandFailure("rigbook: \(error.description); nothing was written")
    } catch let error as CommandFailure {
        throw error
    } catch let error as RegisterError {
        // Reading the register failed while the page was being made.
        throw CommandFailure("rigbook: \(error.description)")
    } catch {
        throw CommandFailure("rigbook: cannot write \(path): \(DataHome.reason(error)); nothing was written")
    }
    printError("rigbook: wrote \(path)")
}

/// A progress line on stderr, only when stderr is a terminal and the job is large.
struct Progress {
    let total: Int
    let label: String
    let enabled: Bool
    private var last = 0

    init(total: Int, label: String) {
        self.total = total
        self.label = label
        enabled = isatty(STDERR_FILENO) != 0 && total >= 10_000
    }

    mutating func update(_ done: Int) {
        guard enabled, done - last >= 5_000 || done == total else { return }
        last = done
        StandardStreams.toStandardError("\r\(label): \(done.formatted())/\(total.formatted())", ours: true)
        if done == total { StandardStreams.toStandardError("\n") }
    }
}

extension Commands {
    struct DueOptions: OptionTable {
        let within = Option("--within", "DAYS", "List the items falling due within DAYS instead of the due soon ones.",
                            range: 0...3650)
        let asOf = Option.asOf
        let format = Option.choice("--format", ["text", "json", "ics"], "How to print the list (default text).")
    }

    static let due = CommandSpec(
        name: "due", abstract: "List what needs attention; exits 3 when something does.",
        usage: "rigbook due [--within DAYS] [--as-of YYYY-MM-DD] [--format text|json|ics]",
        discussion: """
            Lists DO NOT USE (saying why), OVERDUE, REMEDY BY and UNTESTED items (never examined or tested:
            due now) and the DUE SOON ones (or, with --within, the items falling due within DAYS), most urgent
            first, then a one-line summary. NEEDS
            says what is due: a thorough examination, an electrical item's test (a retest after a failed
            one), or the remedy of a defect. Exit
            codes: 0 nothing needs attention, 3 something does, 1 failure, 64 bad usage. --format ics
            prints the calendar feed (as `rigbook calendar`). Drafts are never read.
            """,
        options: DueOptions.self
    ) { arguments, context in
        let format = try arguments.choice(\.format, default: "text")
        let within = try arguments.int(\.within)
        let asOf = try arguments.date(\.asOf)
        try arguments.finish()
        let today = asOf ?? context.today
        let register = try context.readRegister()
        let header = ["STATUS", "TAG", "NAME", "LOCATION", "NEEDS", "DATE", "WHEN"]
        func cells(_ item: DueItem) -> [String] {
            [item.status.label, item.row.asset.tag, item.row.asset.name, item.row.asset.location,
             DueReport.what(item), item.report.due.text, DueReport.when(item)]
        }
        // Two passes over one snapshot, holding no row: the first judges every asset and keeps, for each due
        // one, only its place in the order and its uuid, with the counts and (for text) the column widths; the
        // second reads the due assets again in that order and writes each as it comes. Holding the due rows
        // took 511 MB at 1,000,000 assets.
        // The calendar feed (ics) keeps its own keys: its exit code needs only the first due item.
        let source = RegisterSource(register)
        var due = DueList(today: today, within: within)
        var needsAttention = false
        var layout = TextTable.Layout(header: header)
        struct Answered: Error {}
        try orFail {
            try register.onOneSnapshot {
                if format == "ics" {
                    do {
                        try source.forEachRow { row in
                            if DueReport.item(row, today: today, within: within) != nil { throw Answered() }
                        }
                    } catch is Answered { needsAttention = true }
                } else {
                    due = DueList(today: today, within: within, reservingCapacity: try source.rowCountBound())
                    try source.forEachRow { row in
                        if let item = due.add(row), format == "text" { layout.widen(cells(item)) }
                    }
                    needsAttention = !due.isEmpty
                }
                let counts = due.counts
                try withSink(nil, home: context.home) { write in
                    switch format {
                    case "json":
                        var countsObject = JSONObject()
                        // UNTESTED, listed since, is counted after the keys scripts already read.
                        for status: AssetStatus in [.doNotUse, .overdue, .remedyBy, .dueSoon, .ok, .untested] {
                            countsObject.add(status.rawValue, counts[status] ?? 0)
                        }
                        var document = JSONObject()
                        document.add("schema_version", 1)
                        document.add("as_of", today.iso)
                        document.add("within_days", within.map(Int64.init))
                        document.add("needs_attention", needsAttention)
                        document.add("summary", DueReport.summary(counts: counts, today: today))
                        document.add("counts", raw: countsObject.string)
                        // The document up to its items' array (less the closing brace); then an item at a time.
                        document.add("items", raw: "[")
                        try write(String(document.string.dropLast()))
                        var first = true
                        try due.forEachItem(from: source) { item in
                            var o = JSONObject()
                            o.add("tag", item.row.asset.tag); o.add("name", item.row.asset.name)
                            o.add("location", item.row.asset.location); o.add("status", item.status.rawValue)
                            o.add("date", item.date?.iso); o.add("days", item.days.map(Int64.init))
                            o.add("reason", item.report.reason)
                            o.add("uuid", item.row.asset.uuid.uuidString.lowercased())
                            // What the item needs next, and its kind (keys added at the end).
                            o.add("kind", item.row.asset.kind.rawValue)
                            o.add("needs", DueReport.what(item))
                            // What is due, where `date` is the date that matters: "before_use", "now" or a date.
                            o.add("due", item.report.due.word)
                            try write((first ? "" : ",") + o.string)
                            first = false
                        }
                        try write("]}\n")
                    case "ics":
                        try ICalendar.write(from: source, today: today, generated: Date(),
                                            options: ICalendarOptions(), to: write)
                    default:
                        if !due.isEmpty {
                            try write(layout.line(header))
                            try due.forEachItem(from: source) { try write(layout.visibleLine(cells($0))) }
                        }
                        try write(DueReport.summary(counts: counts, today: today) + "\n")
                    }
                }
            }
        }
        return needsAttention ? ExitCode.attention : ExitCode.success
    }

    struct ExportOptions: OptionTable {
        let format = Option.choice("--format", ["csv", "json"], "csv (the default) or json.")
        let table = Option.choice("--table", ["assets", "records"], "The table a csv holds (default assets).")
        let out = Option.out
    }

    static let export = CommandSpec(
        name: "export", abstract: "Export assets with their status, or records, as CSV or JSON.",
        usage: "rigbook export [--format csv|json] [--table assets|records] [--out FILE]",
        discussion: """
            csv, the default, holds one table (--table, default assets) per RFC 4180, with cells that a
            spreadsheet would run as a formula neutralised. json holds both tables: {"schema_version": 1,
            "as_of", "generated_at", "assets": […], "records": […]}. Records are inspection records and
            electrical tests, told apart by kind (inspection, electrical_test); a test's readings and their
            verdicts are columns. --out writes the file atomically.
            Columns are fixed and documented in docs/FORMATS.md. Drafts are never exported.
            """,
        options: ExportOptions.self
    ) { arguments, context in
        let format = try arguments.choice(\.format, default: "csv")
        let table = try arguments.choice(\.table, default: "assets")
        if format == "json", table != "assets" {
            throw UsageError("--table is for csv; json holds assets and records together")
        }
        let out = try arguments.value(\.out)
        try arguments.finish()
        let register = try context.readRegister()
        let testTotal = try orFail { try register.testCount() }
        let recordTotal = try orFail { try register.recordCount() } + testTotal
        // Every table streamed on one snapshot, holding no row: the assets from a cursor, each record with its
        // asset's tag read by the same statement (the rows and a tag per asset were 1 GB at 1,000,000 assets).
        try orFail {
            try register.onOneSnapshot {
                try withSink(out, home: context.home) { write in
                    try exportTables(register, format: format, table: table, today: context.today,
                                     recordTotal: recordTotal, testTotal: testTotal, write: write)
                }
            }
        }
        return ExitCode.success
    }
}

extension Commands {
    /// The export's tables, written as they are read. Retired assets too (status retired): their records are
    /// exported, and name them.
    private static func exportTables(_ register: Register, format: String, table: String, today: CalendarDate,
                                     recordTotal: Int, testTotal: Int, write: (String) throws -> Void) throws {
        var progress = Progress(total: recordTotal, label: "export")
        func assets(_ each: (RegisterRow) throws -> Void) throws {
            try RegisterSource(register, includingRetired: true).forEachRow(each)
        }
        func records(_ each: (StoredInspection, String) throws -> Void) throws {
            var done = 0
            try register.forEachTaggedRecord { record, tag in
                try each(record, tag)
                done += 1
                progress.update(done)
            }
        }
        // Electrical tests follow the inspection records, told from them by `kind`.
        func tests(_ each: (StoredTest, String) throws -> Void) throws {
            var done = recordTotal - testTotal
            try register.forEachTaggedTest { test, tag in
                try each(test, tag)
                done += 1
                progress.update(done)
            }
        }
        if format == "json" {
            let asOf = JSONObject.quote(today.iso), generatedAt = JSONObject.quote(Timestamp.now())
            try write("{\"schema_version\":1,\"as_of\":\(asOf),\"generated_at\":\(generatedAt),\"assets\":[\n")
            var first = true
            func item(_ json: String) throws {
                try write((first ? "" : ",\n") + json)
                first = false
            }
            try assets { try item(AssetListing(row: $0, today: today).json) }
            try write("\n],\"records\":[\n")
            first = true
            try records { try item(RecordExport.json($0, tag: $1)) }
            try tests { try item(TestExport.json($0, tag: $1)) }
            try write("\n]}\n")
        } else if table == "records" {
            try write(CSV.row(TestExport.combinedColumns))
            try records { try write(CSV.row(TestExport.combinedFields($0, tag: $1))) }
            try tests { try write(CSV.row(TestExport.combinedFields($0, tag: $1))) }
        } else {
            try write(CSV.row(AssetListing.csvHeader))
            try assets { try write(CSV.row(AssetListing(row: $0, today: today).csvFields)) }
        }
    }
}

extension Commands {
    struct CalendarOptions: OptionTable {
        let out = Option.out
        let alarms = Option("--alarms", "DAYS,DAYS", "Alarms this many days before each date (default 30,1).")
        let redact = Flag("--redact", "Leave tags, names and types out of the events.")
        let digest = Flag("--digest", "One event a day, with the number of items due.")
        let asOf = Option.asOf
    }

    static let calendar = CommandSpec(
        name: "calendar", abstract: "Write an iCalendar feed of every due date for calendar apps.",
        usage: "rigbook calendar [--out FILE.ics] [--alarms DAYS,DAYS] [--redact] [--digest] [--as-of YYYY-MM-DD]",
        discussion: """
            One all-day event per asset due date (the next thorough examination, or the remedy deadline),
            with alarms 30 and 1 days before unless --alarms says otherwise. UIDs come from the asset and
            the date, so re-exporting never duplicates an event and a new due date replaces the old one;
            withdrawn assets drop out. --redact leaves tags, names and types out (a locked phone shows
            event titles); --digest makes one event per day with the number of items due. The feed is
            rebuilt from the register each time and never written into it.
            """,
        options: CalendarOptions.self
    ) { arguments, context in
        var options = ICalendarOptions()
        if let alarms = try arguments.value(\.alarms) {
            let days = alarms.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !days.isEmpty, days.allSatisfy({ $0 != nil && $0! >= 0 && $0! <= 365 }) else {
                throw UsageError("--alarms takes days before the date, e.g. 30,1 (each 0 to 365), not \(alarms)")
            }
            options.alarmDaysBefore = days.compactMap { $0 }
        }
        options.redact = arguments.flag(\.redact)
        options.digest = arguments.flag(\.digest)
        let asOf = try arguments.date(\.asOf)
        let out = try arguments.value(\.out)
        try arguments.finish()
        let register = try context.readRegister()
        try orFail {
            try register.onOneSnapshot {
                try withSink(out, home: context.home) { write in
                    try ICalendar.write(from: RegisterSource(register), today: asOf ?? context.today,
                                        generated: Date(), options: options, to: write)
                }
            }
        }
        return ExitCode.success
    }

    struct ReportOptions: OptionTable {
        let format = Option.documentFormat
        let out = Option.out
        let asOf = Option.asOf
        let since = Option("--since", "YYYY-MM-DD", "The start of the report's period (default: 30 days before).")
        let site = Option("--site", "SITE", "Only this site (name or uuid).")
        let type = Option.choice("--type", EquipmentType.allCases.map(\.rawValue), "Only this type of lifting"
                                 + " equipment.", value: "TYPE")
        let kind = Option.kind
        let allParticulars = Flag("--all-particulars", "Add every asset's LOLER Schedule 1 particulars.")
    }

    static let report = CommandSpec(
        name: "report",
        abstract: "Write a printable report (A4, HTML or PDF): counts, the 12-week chart, attention list, what was "
            + "found.",
        usage: "rigbook report [--format html|pdf] [--out FILE.html|FILE.pdf] [--as-of YYYY-MM-DD] "
            + "[--since YYYY-MM-DD] [--site SITE] [--type TYPE] [--kind lifting|electrical] [--all-particulars]",
        discussion: """
            A self-contained page (no external files, no scripts): counts per status, items falling due per
            week for the next 12 weeks, the attention list, and what the latest thorough examination found on
            each asset out of use or with a defect to remedy. The attention list also keeps every dangerous
            fail and withdrawal of the report's period, from --since (default: 30 days before the as-of date)
            to the as-of date, whatever the asset's status now. --site and --type narrow the whole report to
            one site or one type of lifting equipment, and add the register by location; --kind to lifting
            equipment or to electrical items (AS/NZS 3760 test and tag). Electrical items are counted,
            charted and listed with the rest; a failed test stays in the attention list for the period like
            a dangerous fail, and what failed is listed under the findings. --all-particulars adds, for
            every asset's latest thorough examination, the LOLER Schedule 1 particulars the register holds, and
            the register by location (a large page for a large register). The page is written as it is made.
            --format pdf, or an --out name ending .pdf, draws the same report as a PDF, page by page (header rows
            repeated, rows never split, "page N of M" on each page); a PDF is never written to a terminal.
            Without --out it goes to standard output.
            """,
        options: ReportOptions.self
    ) { arguments, context in
        let asOf = try arguments.date(\.asOf)
        let since = try arguments.date(\.since)
        let siteName = try arguments.value(\.site)
        let type = try arguments.value(\.type).map { (word: String) throws(UsageError) in try parseType(word) }
        let kind = try arguments.value(\.kind).map { (word: String) throws(UsageError) in try parseKind(word) }
        let allParticulars = arguments.flag(\.allParticulars)
        let out = try arguments.value(\.out)
        let format = try Parse.documentFormat(try arguments.value(\.format), out: out)
        try arguments.finish()
        let today = asOf ?? context.today
        let from = since ?? today.addingDays(-StatusRules.dueSoonDays)
        if from > today { throw UsageError("--since \(from.iso) is after the report's date \(today.iso)") }
        let register = try context.readRegister()
        // The narrowing, as one test the first read applies to each row.
        var keeps: [(RegisterRow) -> Bool] = []
        var narrowed: [String] = []
        if let siteName {
            let (particulars, site) = try findSite(register, siteName)
            keeps.append { particulars.asset($0.asset.uuid).siteUUID == site.uuid }
            narrowed.append("Site: \(site.name)")
        }
        if let type {
            // An electrical item's equipment type is a placeholder ("other"): only its class describes it.
            keeps.append { $0.asset.type == type && !$0.asset.isElectrical }
            narrowed.append("Type of equipment: \(type.label)")
        }
        if let kind {
            keeps.append { $0.asset.kind == kind }
            narrowed.append(kind.label)
        }
        let scope = ReportDocument.Scope(allParticulars: allParticulars,
                                     narrowedTo: narrowed.isEmpty ? nil : narrowed.joined(separator: " · "))
        let source = RegisterSource(register) { row in keeps.allSatisfy { $0(row) } }
        try orFail {
            try register.onOneSnapshot {
                // The period's findings (a few); the page keeps those on its own assets.
                var findings = try register.dangerousFindings(from: from, through: today)
                    .compactMap(DangerFinding.init)
                // Electrical items: failed tests of the period.
                findings += try register.failedTests(from: from, through: today)
                    .compactMap(DangerFinding.init(failedTest:))
                let report = ReportDocument(today: today, generatedAt: Timestamp.now(), findings: findings,
                                            findingsSince: from, scope: scope)
                try write(report, from: source, format: format, out: out, home: context.home)
            }
        }
        return ExitCode.success
    }
}

extension Commands {
    /// The report as a page (`withSink`) or as a PDF drawn page by page (`withPDFSink`), each written as it is made.
    private static func write(_ report: ReportDocument, from source: some ReportSource, format: String, out: String?,
                              home: DataHome) throws {
        guard format == "pdf" else {
            return try withSink(out, home: home) { write in
                // The sink lives only while the page is written.
                try withoutActuallyEscaping(write) { write in
                    try HTMLDocument.write(report.cover, content: { try report.write(from: source, to: $0) }, to: write)
                }
            }
        }
        try withPDFSink(out, home: home, what: "a PDF") { write in
            do {
                try PDFRenderer.write(report.cover, content: { try report.write(from: source, to: $0) }, to: write)
            } catch let error as PDFError {
                throw CommandFailure("rigbook: cannot draw the PDF: \(error.description)")
            }
        }
    }

    /// `--kind lifting|electrical` where a command narrows what it lists.
    static func parseKind(_ word: String) throws(UsageError) -> AssetKind {
        guard let kind = AssetKind(rawValue: word.lowercased()) else {
            throw UsageError("unknown --kind \(word); one of: lifting electrical")
        }
        return kind
    }
}
