import Foundation
import RigbookCore
import RigbookPDF
import RigbookStore

/// `certificate`, `notices` and `notices done`.
extension Commands {
    struct CertificateOptions: OptionTable {
        let target = Operand("RECORD|TAG", missing: "the RECORD or TAG", kind: .tag)
        let test = Option("--test", "ID", "An electrical test's certificate: the test's id or uuid.")
        let site = Option("--site", "SITE", "A visit's certificate: every record of this site (name or uuid).")
        let from = Option("--from", "YYYY-MM-DD", "The visit's first day.")
        let to = Option("--to", "YYYY-MM-DD", "The visit's last day (default: --from).")
        let format = Option.documentFormat
        let out = Option.out
    }

    static let certificate = CommandSpec(
        name: "certificate",
        abstract: "Print a report of thorough examination (LOLER Schedule 1) for A4, or a visit's schedule.",
        usage: """
            rigbook certificate RECORD|TAG [--format html|pdf] [--out FILE.html|FILE.pdf]
                   rigbook certificate --test ID [--format html|pdf] [--out FILE]
                   rigbook certificate --site SITE --from YYYY-MM-DD [--to YYYY-MM-DD] [--format html|pdf] [--out FILE]
            """,
        discussion: """
            A self-contained HTML page (no external files, no scripts) that prints on A4: every item of LOLER
            Schedule 1 with its number (8a-8f for item 8), the report number, the record's SHA-256 and the
            register's head at printing, and the record's reg 10 notices. Values a record saved before
            reports carried their particulars does not hold read "not recorded".
            RECORD is #ID or ID (the record id), a report number (7F3A91C2-000123) or a record uuid; a TAG
            prints the asset's latest thorough examination that still counts (not amended).
            --site prints one certificate for a visit: a cover with the employer, site, examiners, dates and
            a schedule of every item examined (defects first), then a page per record. SITE is a site's name
            or uuid; --to defaults to --from (a one-day visit). Exit 1 when the record is not a thorough
            examination, nothing was examined at the site in those dates, or the register does not verify.
            An electrical item's test (AS/NZS 3760) has a test certificate instead: --test ID (the test's id
            or uuid, as `history TAG` shows it), or the TAG of an electrical item for its latest test. It holds
            the test form's 16 fields, the readings against their limits, the result, the technician and
            licence, and the same evidence footer.
            Without --out it goes to standard output.
            Every certificate is also written as PDF (A4, fonts embedded, drawn with cairo and pango), with
            --format pdf or an --out name ending .pdf: everything in it comes from the records, their saved times
            and hashes included, so the same records give the same file (a test certificate's employer and site
            are the register's now: a test does not copy them). A PDF is never written to a terminal (exit 64);
            --out - sends it to a pipe.
            """,
        options: CertificateOptions.self
    ) { arguments, context in
        let testWord = try arguments.value(\.test)
        let site = try arguments.value(\.site)
        let from = try arguments.date(\.from)
        let to = try arguments.date(\.to)
        let out = try arguments.value(\.out)
        let format = try Parse.documentFormat(try arguments.value(\.format), out: out)
        let target = arguments.isEmpty ? nil : try arguments.operand(\.target)
        try arguments.finish()
        if let testWord {
            guard target == nil, site == nil, from == nil, to == nil else {
                throw UsageError("--test names one test; give no RECORD, TAG or --site with it")
            }
            return try testCertificate(context, test: testWord, tag: nil, format: format, out: out)
        }
        switch (target, site) {
        case (nil, nil):
            throw UsageError("give a RECORD or TAG, or --site SITE with --from (see `rigbook help certificate`)")
        case (.some, .some):
            throw UsageError("give a RECORD or TAG, or --site, not both")
        case (.some, nil) where from != nil || to != nil:
            throw UsageError("--from and --to go with --site; a RECORD or TAG names one report")
        default: break
        }
        var visitDates: ClosedRange<CalendarDate>?
        if site != nil {
            guard let from else { throw UsageError("--site needs --from (and --to, which defaults to --from)") }
            let through = to ?? from
            if through < from { throw UsageError("--to \(through.iso) is before --from \(from.iso)") }
            visitDates = from...through
        }

        let register = try context.readRegister()
        // An electrical item's TAG prints its latest test's certificate.
        if let target, site == nil,
           let row = try? register.asset(tag: target.hasPrefix("#") ? "" : target), row.asset.isElectrical {
            return try testCertificate(context, test: nil, tag: row, format: format, out: out)
        }
        let document: PrintedDocument
        do {
            try requireVerified(register)
            if let site, let dates = visitDates {
                let (visit, entries) = try visitEntries(register, site: site, dates: dates)
                document = Certificate.visitDocument(visit, entries: entries)
            } else {
                let record = try RecordReference.resolve(target ?? "", in: register, allowingTag: true)
                try requireThorough(record)
                document = Certificate.document(try register.certificateEntry(for: record))
            }
        } catch { throw CommandFailure.from(error) }
        try write(document, format: format, out: out, home: context.home)
        return ExitCode.success
    }

    /// A test certificate: the test `--test` names (id or uuid), or the latest test of the electrical item `tag`.
    private static func testCertificate(_ context: Context, test word: String?, tag row: RegisterRow?,
                                        format: String, out: String?) throws -> Int32 {
        let register = try context.readRegister()
        let document: PrintedDocument
        do {
            try requireVerified(register)
            let test: StoredTest
            if let row {
                guard let latest = try register.tests(assetUUID: row.asset.uuid).first else {
                    throw refusal("\(row.asset.tag) has not been tested yet; no certificate was printed")
                }
                test = latest
            } else {
                test = try resolveTest(word ?? "", in: register)
            }
            document = TestCertificate.document(try register.certificateEntry(for: test))
        } catch { throw CommandFailure.from(error) }
        try write(document, format: format, out: out, home: context.home)
        return ExitCode.success
    }

    /// `--test` takes the test's id (`12` or `#12`) or its uuid.
    private static func resolveTest(_ word: String, in register: Register) throws -> StoredTest {
        let trimmed = word.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
        if let id = Int64(digits), id > 0, let test = try register.test(id: id) { return test }
        if let uuid = UUID(uuidString: trimmed), let test = try register.test(uuid: uuid) { return test }
        throw refusal("no electrical test \(word) in the register (give its id or uuid, as `rigbook history TAG` "
                      + "shows it)")
    }

    /// A certificate is printed once the whole chain has been checked: a certificate is proof, and a register whose
    /// chain is broken cannot give any.
    private static func requireVerified(_ register: Register) throws {
        if let problem = try register.onOneSnapshot({ try register.verifyChain() }).problem {
            throw refusal("the register does not verify (\(problem)); no certificate was printed, since its "
                          + "hashes would prove nothing. See `rigbook verify`.")
        }
    }

    /// The certificate's document drawn as its page (`--format html`, through `withSink`) or as PDF (through
    /// `writeBytes`).
    private static func write(_ document: PrintedDocument, format: String, out: String?, home: DataHome) throws {
        guard format == "pdf" else {
            let page = HTMLDocument.render(document)
            return try withSink(out, home: home) { try $0(page) }
        }
        let pdf: [UInt8]
        do throws(PDFError) { pdf = try PDFRenderer.render(document) } catch {
            throw CommandFailure("rigbook: cannot draw the PDF: \(error.description); nothing was written")
        }
        try writeBytes(pdf, to: out, home: home, what: "a PDF")
    }

    private static func visitEntries(_ register: Register, site word: String, dates: ClosedRange<CalendarDate>)
        throws -> (Certificate.Visit, [Certificate.Entry]) {
        let particulars = try register.particulars()
        let site = try SiteReference.resolve(word, in: particulars)
        let records = try register.thoroughExaminations(atSite: site.uuid, from: dates.lowerBound,
                                                        through: dates.upperBound)
        guard !records.isEmpty else {
            let span = dates.lowerBound == dates.upperBound ? "on \(dates.lowerBound.iso)"
                : "from \(dates.lowerBound.iso) to \(dates.upperBound.iso)"
            throw refusal("no thorough examination at \(site.name) \(span); no certificate was written")
        }
        let entries = try records.map { try register.certificateEntry(for: $0) }
        let visit = Certificate.Visit(site: site, employer: particulars.employers[site.employerUUID],
                                      from: dates.lowerBound, through: dates.upperBound)
        return (visit, entries)
    }

    /// Only a thorough examination is reported under reg 10 (pre-use checks and interim inspections are not).
    static func requireThorough(_ record: StoredInspection) throws {
        guard record.values.inspectionType.isThorough else {
            let type = record.values.inspectionType.label.lowercased()
            throw refusal("record #\(record.id) is a \(type), not a thorough examination: only a thorough "
                          + "examination has a report under LOLER regulation 10")
        }
    }
}

/// What a RECORD (or TAG) argument names: `#12` or `12` (a record id), a report number, a record uuid, or,
/// where allowed, an asset's tag (its latest thorough examination that still counts).
enum RecordReference {
    static func resolve(_ word: String, in register: Register, allowingTag: Bool) throws -> StoredInspection {
        if word.hasPrefix("#") {
            guard let id = Int64(word.dropFirst()), id > 0 else {
                throw refusal("\(word) is not a record id: write it #12")
            }
            guard let record = try register.inspection(id: id) else { throw refusal("there is no record #\(id)") }
            return record
        }
        if let id = Int64(word), id > 0, word.allSatisfy(\.isASCII) {
            let record = try register.inspection(id: id)
            let tagged = allowingTag ? try? register.asset(tag: word) : nil
            if record != nil, tagged != nil {
                throw refusal("\(word) is both record #\(word) and the tag of an asset: write #\(word) for "
                              + "the record, or give the asset's report number")
            }
            if let record { return record }
            if tagged == nil { throw refusal("there is no record #\(word)") }
        } else if word.wholeMatch(of: /[0-9A-Fa-f]{8}-[0-9]{6}/) != nil {
            guard let record = try register.inspection(reportNumber: word) else {
                throw refusal("no record has the report number \(word.uppercased())")
            }
            return record
        } else if let uuid = UUID(uuidString: word) {
            guard let record = try register.inspection(uuid: uuid) else {
                if try register.test(uuid: uuid) != nil {
                    throw refusal(electricalTestRefusal("\(word.lowercased()) is an electrical test"))
                }
                throw refusal("there is no record \(word.lowercased())")
            }
            return record
        }
        guard allowingTag else {
            // A failed electrical test is never a reg 10 matter: say so rather than "not a record".
            if let row = try? register.asset(tag: word), row.asset.isElectrical {
                throw refusal(electricalTestRefusal("\(row.asset.tag) is an electrical item"))
            }
            throw refusal("\(VisibleText.make(word)) is not a record: give #ID, a report number "
                          + "(7F3A91C2-000123) or a record uuid")
        }
        return try latestThorough(tag: word, in: register)
    }

    /// Why an electrical item's test has no reg 10 notice or LOLER report.
    static func electricalTestRefusal(_ what: String) -> String {
        "\(what), tested to AS/NZS 3760: a test is not a thorough examination under LOLER and has no regulation "
            + "10 notice (a failed item is tagged out of service: `rigbook labels TAG`; its certificate: "
            + "`rigbook certificate --test ID`)"
    }

    /// The asset's latest thorough examination that still counts (its history is newest first).
    private static func latestThorough(tag: String, in register: Register) throws -> StoredInspection {
        guard let row = try register.asset(tag: tag) else {
            // An invisible character is named, never echoed: printed back, a bidi override would reorder the line.
            if let problem = Tags.invisibleCharacterProblem(tag) {
                throw refusal("no asset has that tag, and it is no record id, report number or uuid. " + problem)
            }
            throw refusal("no asset is tagged \(tag), and \(tag) is no record id, report number or record uuid")
        }
        let history = try register.history(assetUUID: row.asset.uuid)
        guard let latest = history.first(where: { $0.values.inspectionType.isThorough && $0.counts }) else {
            throw refusal("\(row.asset.tag) has no thorough examination in the register; nothing to certify")
        }
        return latest
    }
}

/// A site named by its uuid or its name (case and surrounding spaces aside). A name that is no site, or two, is the
/// command line's mistake (exit 64), as any word an option does not take.
enum SiteReference {
    static func resolve(_ word: String, in particulars: Particulars) throws -> Site {
        if let uuid = UUID(uuidString: word), let site = particulars.sites[uuid] { return site }
        let wanted = word.trimmingCharacters(in: .whitespaces).lowercased()
        let matches = particulars.siteList.filter {
            $0.name.trimmingCharacters(in: .whitespaces).lowercased() == wanted
        }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            let known = particulars.siteList.map(\.name).joined(separator: ", ")
            throw UsageError("no site is named \(VisibleText.make(word)); the register's sites: "
                             + (known.isEmpty ? "none" : known))
        }
        let listed = matches.map { site in
            let employer = particulars.employers[site.employerUUID]?.name ?? "no employer"
            return "\(site.uuid.uuidString.lowercased()) of \(employer)"
        }.joined(separator: ", ")
        throw UsageError("\(matches.count) sites are named \(VisibleText.make(word)) (\(listed)); give its uuid")
    }
}

// MARK: - Notices

extension Commands {
    /// The columns of `notices --format json|csv`, in the documented order.
    static let noticeTable = ExportTable<(OpenNotice, CalendarDate)>([
        ("tag", { .text($0.0.assetTag) }),
        ("asset_uuid", { .text($0.0.record.assetUUID.uuidString.lowercased()) }),
        ("record_id", { .integer($0.0.record.id) }),
        ("record_uuid", { .text($0.0.record.recordUUID.uuidString.lowercased()) }),
        ("report_number", { .text($0.0.record.reportNumber) }),
        ("inspection_date", { .text($0.0.record.values.inspectionDate) }),
        ("result", { .text($0.0.record.values.result?.rawValue) }),
        ("duty", { .text($0.0.notice.duty.rawValue) }),
        ("duty_label", { .text($0.0.notice.duty.label) }),
        ("recipient", { .text($0.0.notice.recipient) }),
        ("since", { .text(openSince($0.0).iso) }),
        // Never negative: a notice entered after the day the program is told it is has been open no days.
        ("days_open", { .integer(Int64(max(0, openSince($0.0).days(until: $0.1)))) }),
        ("notice_uuid", { .text($0.0.notice.uuid.uuidString.lowercased()) }),
    ])

    /// The day a duty has been open since: the day its open notice was entered (at save, for those a save opens).
    private static func openSince(_ open: OpenNotice) -> CalendarDate {
        open.notice.enteredOn ?? CalendarDate(iso: open.record.values.inspectionDate) ?? CalendarDate(dayNumber: 0)
    }

    /// Most urgent first: a defect the employer is to be told of forthwith (reg 10(1)(a)), a copy for the
    /// enforcing authority, then reports to send; oldest first within each.
    private static func urgency(_ duty: NoticeDuty) -> Int {
        switch duty {
        case .employerTold: 0
        case .enforcingAuthority: 1
        case .reportToEmployer: 2
        case .reportToLessor: 3
        }
    }

    struct NoticesOptions: OptionTable {
        let format = Option.choice("--format", ["text", "json", "csv"], "How to print the duties (default text).")
    }

    static let notices = CommandSpec(
        name: "notices", abstract: "List reg 10 duties not yet done (reports to send, defects to tell); exit 3 if any.",
        usage: "rigbook notices [--format text|json|csv]",
        discussion: """
            LOLER regulation 10 duties of each thorough examination whose newest notice says not yet done: the
            report to the employer (and to the lessor), a defect to report to the employer forthwith, and a
            copy to the enforcing authority where there is a serious risk of injury. Most urgent first. Exit
            codes: 0 none open, 3 some open (like `due`), 1 failure, 64 bad usage. json and csv columns are
            in docs/FORMATS.md. `rigbook notices done` records a duty done.
            """,
        options: NoticesOptions.self
    ) { arguments, context in
        let format = try arguments.choice(\.format, default: "text")
        try arguments.finish()
        let register = try context.readRegister()
        let open = try orFail { try register.openNotices() }
        let rows = open.sorted {
            (urgency($0.notice.duty), openSince($0), $0.record.id)
                < (urgency($1.notice.duty), openSince($1), $1.record.id)
        }.map { ($0, context.today) }
        let summary = rows.isEmpty ? "No reg 10 duty is open as of \(context.today.iso)."
            : "\(rows.count) reg 10 dut\(rows.count == 1 ? "y is" : "ies are") not yet done as of \(context.today.iso)."
        var out = Output()
        switch format {
        case "json":
            var document = JSONObject()
            document.add("schema_version", 1)
            document.add("as_of", context.today.iso)
            document.add("open", rows.count)
            document.add("summary", summary)
            document.add("items", raw: "[" + rows.map(noticeTable.json).joined(separator: ",") + "]")
            try out.write(document.string + "\n")
        case "csv":
            try out.write(CSV.row(noticeTable.header))
            for row in rows { try out.write(CSV.row(noticeTable.csvFields(row))) }
        default:
            if !rows.isEmpty {
                // The duty last: a table cuts other cells at 40 columns, and its sentence is read whole.
                let table = rows.map { open, _ in
                    [open.assetTag, "#\(open.record.id)", open.record.reportNumber ?? "—", openSince(open).iso,
                     open.notice.recipient.isEmpty ? "—" : open.notice.recipient, open.notice.duty.label]
                }
                try out.write(TextTable.render(header: ["TAG", "RECORD", "REPORT", "SINCE", "TO", "DUTY"], rows: table))
            }
            try out.write(summary + "\n")
        }
        try out.flush()
        return rows.isEmpty ? ExitCode.success : ExitCode.attention
    }

    struct NoticesDoneOptions: OptionTable {
        let record = Operand("RECORD", missing: "the RECORD (#ID, a report number or a record uuid)")
        let duty = Option.choice("--duty", NoticeDuty.allCases.map(\.rawValue), "The duty done.", value: "DUTY")
        let on = Option("--on", "YYYY-MM-DD", "The day it was done (default today).")
        let to = Option("--to", "NAME", "Who was told or sent it.")
    }

    static let noticesDone = CommandSpec(
        name: "notices done", abstract: "Record that a reg 10 duty on a thorough examination was done.",
        usage: """
            rigbook notices done RECORD --duty DUTY [--on YYYY-MM-DD] [--to NAME]
            """,
        discussion: """
            DUTY is one of: \(NoticeDuty.allCases.map(\.rawValue).joined(separator: " ")).
            RECORD is #ID or ID, a report number (7F3A91C2-000123) or a record uuid. --on is the day it was
            done (default today; not in the future, not before the examination); --to who was told or sent it
            (needed for employer_told: who at the employer was told of the defect). A notice is a new entry
            of the register's hash chain, never an edit: the newest notice of a duty says where it stands.
            """,
        options: NoticesDoneOptions.self
    ) { arguments, context in
        guard let dutyWord = try arguments.value(\.duty) else {
            throw UsageError("missing --duty (one of \(NoticeDuty.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let duty = NoticeDuty(rawValue: dutyWord) else {
            throw UsageError("--duty must be one of \(NoticeDuty.allCases.map(\.rawValue).joined(separator: ", ")),"
                             + " not \(dutyWord)")
        }
        let on = try arguments.date(\.on) ?? context.today
        let recipient = try arguments.value(\.to) ?? ""
        let word = try arguments.operand(\.record)
        try arguments.finish()

        let record: StoredInspection
        let notice: Notice
        do {
            // Read first: a missing register is said, not made, and the record is checked before writing.
            let reader = try context.readRegister()
            record = try RecordReference.resolve(word, in: reader, allowingTag: false)
            try requireThorough(record)
            // An employer told later keeps what the save said of the risk.
            let earlier = try reader.notices(recordUUID: record.recordUUID).last { $0.duty == duty }
            // ... and whom it was for, unless --to says otherwise.
            notice = Notice(recordUUID: record.recordUUID, duty: duty,
                            recipient: recipient.isEmpty ? earlier?.recipient ?? "" : recipient, doneOn: on,
                            seriousRisk: earlier?.seriousRisk)
        } catch { throw CommandFailure.from(error) }
        let recordDate = CalendarDate(iso: record.values.inspectionDate) ?? context.today
        let problems = notice.problems(recordDate: recordDate, today: context.today)
        if !problems.isEmpty { throw UsageError(problems.joined(separator: " ") + " Nothing was recorded.") }
        let register = try context.openRegister()
        // The person who made the report vouches for its notices, with their key on this machine.
        let signer = try context.signer(for: record.particulars?.examiner?.name ?? record.values.inspectorName,
                                        register: register)
        do {
            try register.signing(with: signer) {
                try register.addNotice(notice, today: context.today, stamp: SaveStamp(today: context.today))
            }
        }
        catch RegisterError.invalidNotice(let problems) {
            throw UsageError(problems.joined(separator: " ") + " Nothing was recorded.")
        }
        catch { throw refusal("\(error)") }
        let report = record.reportNumber.map { ", report \($0)" } ?? ""
        let to = recipient.isEmpty ? "" : ", to \(recipient.trimmingCharacters(in: .whitespaces))"
        try Output.line("Recorded: \(duty.label), record #\(record.id)\(report), done on \(on.iso)\(to).")
        return ExitCode.success
    }
}

extension CommandFailure {
    /// A failure as one line: the register's own sentence, or the command's; a usage error stays one (exit 64).
    static func from(_ error: Error) -> Error {
        error is CommandFailure || error is UsageError ? error : CommandFailure("rigbook: \(error)")
    }
}

/// A command's own failure: one line, exit 1.
private func refusal(_ message: String) -> CommandFailure { CommandFailure("rigbook: " + message) }
