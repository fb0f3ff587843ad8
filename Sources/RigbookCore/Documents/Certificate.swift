import Foundation

/// A report of thorough examination (LOLER 1998 reg 10 and Schedule 1, SPEC §10): one saved
/// thorough examination as a printable, self-contained HTML page for A4, or a visit's schedule of them.
/// Pure: data in, HTML out, no clock and no files, so the same register gives the same bytes.
///
/// Every Schedule 1 item is printed with its number (item 8 as 8a–8f), whatever the record holds: a value
/// a record saved before the report particulars does not have reads "not recorded", never a guess. Every
/// text from data is escaped, and invisible format characters (bidi overrides, zero-width spaces) are shown
/// as their code, so no stored text can hide or reorder what the page says.
public enum Certificate {
    /// One record with what its report needs beside it: its asset (the identifying particulars, item 3)
    /// and its reg 10 notices, oldest first.
    public struct Entry: Sendable, Hashable {
        public var record: StoredInspection
        public var asset: Asset
        public var notices: [Notice]

        public init(record: StoredInspection, asset: Asset, notices: [Notice] = []) {
            self.record = record
            self.asset = asset
            self.notices = notices
        }

        /// A record saved before reports carried their particulars (employer, site, examiner, the Schedule 1
        /// fields): every thorough examination saved since has them copied in.
        public var isFromBeforeParticulars: Bool { record.particulars == nil }
    }

    /// A Schedule 1 item: its number as the Schedule numbers it, and what it asks for (SPEC §10).
    public struct Item: Sendable, Hashable {
        public let number: String
        public let heading: String
    }

    /// Every item a report carries, in the Schedule's order.
    public static let items: [Item] = [
        Item(number: "1", heading: "Name and address of the employer for whom the examination was made"),
        Item(number: "2", heading: "Address of the premises at which the examination was made"),
        Item(number: "3", heading: "Particulars to identify the equipment, including its date of manufacture if known"),
        Item(number: "4", heading: "Date of the last thorough examination"),
        Item(number: "5", heading: "Safe working load, or safe working loads for each configuration"),
        Item(number: "6", heading: "After installation or assembly: (a) that it is such an examination; "
             + "(b) that it has been installed correctly and is safe to operate"),
        Item(number: "7", heading: "Otherwise: (a) whether within 6 months, 12 months, an examination scheme, "
             + "or after exceptional circumstances; (b) that it is safe to operate"),
        Item(number: "8a", heading: "Any defect that is or could become a danger to persons, "
             + "with the part and a description"),
        Item(number: "8b", heading: "Particulars of any repair, renewal or alteration required to remedy it"),
        Item(number: "8c", heading: "A defect not yet dangerous: (i) the time by which it could become so; "
             + "(ii) particulars of the remedy"),
        Item(number: "8d", heading: "The latest date by which the next thorough examination must be carried out"),
        Item(number: "8e", heading: "Particulars of any test, where one was carried out"),
        Item(number: "8f", heading: "Date of the thorough examination"),
        Item(number: "9", heading: "Name, address and qualifications of the person making the report; "
             + "whether self-employed or employed, and the employer's name and address"),
        Item(number: "10", heading: "Name and address of a person signing or authenticating the report "
             + "on behalf of its author"),
        Item(number: "11", heading: "Date of the report"),
    ]

    /// What a value missing from a record saved before the report particulars reads as.
    public static let notRecorded = "not recorded"

    // MARK: - Pages

    /// One record's report of thorough examination, on one A4 page for a record of ordinary length.
    /// `head` is the register's head when printing (`ChainVerification.head`); `printedAt` a timestamp.
    public static func render(_ entry: Entry, head: String?, printedAt: String) -> String {
        let record = entry.record
        let number = record.reportNumber.map(text) ?? "record #\(record.id)"
        var out = page(title: "Report of thorough examination \(number) — \(text(entry.asset.tag))")
        article(&out, entry, head: head, printedAt: printedAt, startsPage: false)
        out += "</body>\n</html>\n"
        return out
    }

    /// What a visit's certificate covers: the site (as in the register now), its employer, the dates.
    public struct Visit: Sendable, Hashable {
        public var site: Site
        public var employer: Employer?
        public var from: CalendarDate
        public var through: CalendarDate

        public init(site: Site, employer: Employer?, from: CalendarDate, through: CalendarDate) {
            self.site = site
            self.employer = employer
            self.from = from
            self.through = through
        }
    }

    /// A visit's certificate: a cover with the summary (employer, site, examiners, dates) and the schedule of
    /// every item examined, defects first, then one page per record. Each record's page starts with a CSS page
    /// break, so the page count is the cover plus one a record, whatever fonts the printer has.
    public static func renderVisit(_ visit: Visit, entries: [Entry], head: String?, printedAt: String) -> String {
        let ordered = visitOrder(entries)
        var out = page(title: "Schedule of thorough examinations — \(text(visit.site.name)), "
                       + "\(visit.from.iso) to \(visit.through.iso)")
        cover(&out, visit, ordered, head: head, printedAt: printedAt)
        for entry in ordered { article(&out, entry, head: head, printedAt: printedAt, startsPage: true) }
        out += "</body>\n</html>\n"
        return out
    }

    /// Defects first: *Fail – dangerous*, then *Defect to be remedied*, then the rest; within each, by date
    /// of examination, tag and record id, so the order is the same every time.
    public static func visitOrder(_ entries: [Entry]) -> [Entry] {
        func rank(_ entry: Entry) -> Int {
            switch entry.record.values.result {
            case .failDangerous: 0
            case .defectToBeRemedied: 1
            default: 2
            }
        }
        return entries.sorted {
            (rank($0), $0.record.values.inspectionDate, $0.asset.tag, $0.record.id)
                < (rank($1), $1.record.values.inspectionDate, $1.asset.tag, $1.record.id)
        }
    }

    // MARK: - Sections

    static func page(title: String) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta name=\"generator\" content=\"Rigbook \(text(RigbookVersion.current))\">\n"
        out += "<title>\(title)</title>\n<style>\n\(css)</style>\n</head>\n<body>\n"
        return out
    }

    private static func cover(_ out: inout String, _ visit: Visit, _ entries: [Entry], head: String?,
                              printedAt: String) {
        out += "<section class=\"cover\">\n<h1>Schedule of thorough examinations</h1>\n"
        out += "<p class=\"law\">Lifting Operations and Lifting Equipment Regulations 1998 (LOLER), regulation 10 "
        out += "and Schedule 1: the reports of thorough examination made at one site, each on its own page.</p>\n"
        out += "<table class=\"summary\">\n"
        for (label, value) in coverFields(visit, entries) {
            out += "<tr><th>\(label)</th><td>\(value.html)</td></tr>\n"
        }
        out += "</table>\n"

        out += "<h2>Schedule</h2>\n<table class=\"schedule\">\n<thead><tr><th class=\"num\">No.</th>"
        out += scheduleColumns.dropFirst().map { "<th>\($0)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for (entry, cells) in zip(entries, scheduleRows(entries)) {
            let r = entry.record
            out += "<tr data-record=\"\(r.recordUUID.uuidString.lowercased())\" "
            out += "data-result=\"\(r.values.result?.rawValue ?? "")\"><td class=\"num\">\(cells[0].html)</td>"
            out += cells.dropFirst().map { "<td>\($0.html)</td>" }.joined() + "</tr>\n"
        }
        out += "</tbody>\n</table>\n"
        evidence(&out, recordHash: nil, head: head, printedAt: printedAt)
        out += "</section>\n"
    }

    /// A visit's summary: the employer and site as the records copied them at save (the register's now for
    /// older records), the examiners, the dates and the count of items by result.
    static func coverFields(_ visit: Visit, _ entries: [Entry]) -> [(String, RichText)] {
        func joined(_ values: [RichText]) -> RichText {
            values.enumerated().reduce(RichText("")) { $0 + ($1.offset > 0 ? .lineBreak : "") + $1.element }
        }
        let employers = distinct(entries.compactMap { $0.record.particulars.map { nameAndAddress($0.employer) } })
        let sites = distinct(entries.compactMap { $0.record.particulars.map { nameAndAddress($0.site) } })
        let examiners = distinct(entries.map { entry -> RichText in
            let v = entry.record.values
            let name = entry.record.particulars?.examiner?.name ?? v.inspectorName
            return "\(name)" + (v.certificationNumber.isEmpty ? "" : " (\(v.certificationNumber))")
        })
        let dangerous = entries.filter { $0.record.values.result == .failDangerous }.count
        let remedy = entries.filter { $0.record.values.result == .defectToBeRemedied }.count
        return [
            ("Employer", employers.isEmpty ? visit.employer.map(nameAndAddress) ?? .notRecorded : joined(employers)),
            ("Site", sites.isEmpty ? nameAndAddress(visit.site) : joined(sites)),
            ("Examiner\(examiners.count == 1 ? "" : "s")", examiners.isEmpty ? "—" : joined(examiners)),
            ("Dates", "\(visit.from == visit.through ? visit.from.iso : "\(visit.from.iso) to \(visit.through.iso)")"),
            ("Items examined", "\(entries.count): \(dangerous) fail – dangerous, \(remedy) defect to be remedied, "
                + "\(entries.count - dangerous - remedy) without a defect"),
        ]
    }

    static let scheduleColumns = ["No.", "Tag", "Equipment", "Report number", "Examined", "Result", "Next by"]

    /// The schedule's row of each record, in `scheduleColumns`.
    static func scheduleRows(_ entries: [Entry]) -> [[RichText]] {
        entries.enumerated().map { index, entry in
            let r = entry.record, v = r.values
            return ["\(index + 1)", .data(entry.asset.tag), .data(entry.asset.name),
                    "\(r.reportNumber ?? "#\(r.id)")", "\(v.inspectionDate)", resultBadge(v.result),
                    v.nextExaminationBy.isEmpty ? .notRecorded : "\(v.nextExaminationBy)"]
        }
    }

    /// One record's report: its identification, the Schedule 1 items, its reg 10 notices and its evidence.
    private static func article(_ out: inout String, _ entry: Entry, head: String?, printedAt: String,
                                startsPage: Bool) {
        let record = entry.record, v = record.values
        out += "<article class=\"certificate\(startsPage ? " page" : "")\" "
        out += "id=\"record-\(record.recordUUID.uuidString.lowercased())\">\n"
        out += "<header>\n<h1>Report of thorough examination</h1>\n"
        out += "<p class=\"law\">Lifting Operations and Lifting Equipment Regulations 1998 (LOLER), "
        out += "regulation 10 and Schedule 1</p>\n<table class=\"ids\">\n<tr><th>Report number</th>"
        out += "<td class=\"strong\">\(record.reportNumber.map(text) ?? notRecordedHTML)</td>"
        out += "<th>Equipment</th><td class=\"strong\">\(bidi(entry.asset.tag))</td></tr>\n"
        out += "<tr><th>Record</th><td>#\(record.id) · \(record.recordUUID.uuidString.lowercased())</td>"
        out += "<th>Result</th><td>\(resultBadge(v.result).html)</td></tr>\n"
        out += "<tr><th>Type</th><td colspan=\"3\">\(text(v.inspectionType.label))</td></tr>\n</table>\n"
        if let by = record.supersededBy {
            out += "<p class=\"banner\">Amended by record #\(by): this report was corrected, and the amendment is "
            out += "the report that stands.</p>\n"
        } else if let other = record.outrankedBy {
            out += "<p class=\"banner\">Conflicting amendment: record #\(other) amends the same record and was saved "
            out += "later; it is the report that stands until an amendment of either settles them.</p>\n"
        }
        if let amends = record.amends {
            out += "<p class=\"banner\">This report amends record #\(amends): \(bidi(v.amendmentReason))</p>\n"
        }
        if entry.isFromBeforeParticulars {
            out += "<p class=\"note\">Saved before reports carried their particulars: what it does not hold reads "
            out += "\u{201C}\(notRecorded)\u{201D}.</p>\n"
        }
        out += "</header>\n<dl class=\"items\">\n"
        let values = itemValues(entry)
        for item in items {
            out += "<div class=\"item\" data-item=\"\(item.number)\"><dt><span class=\"no\">\(item.number)</span> "
            out += "\(text(item.heading))</dt>\n<dd>\(values[item.number]?.html ?? notRecordedHTML)</dd></div>\n"
        }
        out += "</dl>\n"
        if !v.notes.isEmpty {
            out += "<p class=\"notes\"><span class=\"label\">Notes:</span> \(multiline(v.notes))</p>\n"
        }
        attachments(&out, v.attachments)
        notices(&out, entry)
        evidence(&out, recordHash: record.recordHash ?? "", head: head, printedAt: printedAt)
        out += "</article>\n"
    }

    /// The files the record names: name, size and SHA-256, which proves which bytes were meant.
    private static func attachments(_ out: inout String, _ files: [Attachment]) {
        guard !files.isEmpty else { return }
        out += "<section class=\"attachments\">\n<h2>Attachments</h2>\n<table>\n<thead><tr><th>File</th><th>Size</th>"
        out += "<th>SHA-256</th></tr></thead>\n<tbody>\n"
        for file in files {
            out += "<tr><td>\(bidi(file.name))</td><td>\(text(file.sizeText))</td>"
            out += "<td class=\"hash\">\(text(file.sha256))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</section>\n"
    }

    /// Each reg 10 duty where it stands: the newest notice of each, in the order of the regulation.
    private static func notices(_ out: inout String, _ entry: Entry) {
        out += "<section class=\"notices\">\n<h2>Notices under regulation 10</h2>\n"
        let newest = newestNotices(entry)
        guard !newest.isEmpty else {
            let none = entry.isFromBeforeParticulars ? "\(notRecordedHTML) (saved before notices were kept)" : "None."
            out += "<p class=\"plain\">\(none)</p>\n</section>\n"
            return
        }
        out += "<table class=\"notices\">\n<thead><tr><th>Duty</th><th>Where it stands</th><th>To</th></tr></thead>\n"
        out += "<tbody>\n"
        for notice in newest {
            let duty = notice.duty
            let since = notice.enteredOn?.iso ?? String(notice.recordedAt.prefix(10))
            let state = notice.doneOn.map { "Done on \($0.iso)" }
                ?? "<span class=\"open\">Not yet done</span> (open since \(text(since)))"
            let risk = notice.seriousRisk == true ? " <span class=\"sub\">serious risk of injury</span>" : ""
            out += "<tr data-duty=\"\(duty.rawValue)\" data-done=\"\(notice.isDone)\"><td>\(text(duty.label))\(risk)"
            out += "</td><td>\(state)</td><td>\(notice.recipient.isEmpty ? "—" : bidi(notice.recipient))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</section>\n"
    }

    /// Each reg 10 duty's newest notice, in the order of the regulation.
    static func newestNotices(_ entry: Entry) -> [Notice] {
        var newest: [NoticeDuty: Notice] = [:]
        for notice in entry.notices { newest[notice.duty] = notice }
        return NoticeDuty.allCases.compactMap { newest[$0] }
    }

    static func evidence(_ out: inout String, recordHash: String?, head: String?, printedAt: String) {
        out += "<footer class=\"evidence\">\n"
        if let recordHash {
            let hash = recordHash.isEmpty ? notRecordedHTML : text(recordHash)
            out += "<p>Record hash (SHA-256): <code>\(hash)</code></p>\n"
        }
        let headText = head.map(text) ?? "none"
        out += "<p>Register head at printing: <code>\(headText)</code></p>\n"
        out += "<p>Printed \(text(printedAt)) by Rigbook \(text(RigbookVersion.current)). "
        out += "<code>rigbook verify --head \(headText)</code> on the register checks every hash and that this head "
        out += "is still in it: no record altered or removed since printing.</p>\n</footer>\n"
    }

    // MARK: - The items

    /// Each item's value, by item number: as HTML for the page and as text for the PDF, made once.
    static func itemValues(_ entry: Entry) -> [String: RichText] {
        let record = entry.record, v = record.values, asset = entry.asset
        let particulars = record.particulars
        let old = entry.isFromBeforeParticulars
        let br = RichText.lineBreak, nr = RichText.notRecorded
        var items: [String: RichText] = [:]

        items["1"] = particulars.map { nameAndAddress($0.employer) } ?? nr
        if let particulars {
            items["2"] = nameAndAddress(particulars.site)
        } else {
            items["2"] = nr + located(record.assetLocation)
        }

        var identity: RichText = "\(data: asset.tag): \(data: asset.name)\(br)\(asset.type.label)"
        identity += "; manufacturer \(RichText.orNone(asset.manufacturer)); "
            + "serial number \(RichText.orNone(asset.serialNumber))"
        if !asset.clientRef.isEmpty { identity += "; client ref \(data: asset.clientRef)" }
        if let length = asset.lengthM { identity += "; length \(HTMLReport.lengthText(length))" }
        identity += "\(br)Date of manufacture: \(asset.manufactured?.iso ?? "not known")"
        if let declaration = particulars?.asset, !declaration.declarationReference.isEmpty {
            identity += "\(br)Declaration of conformity \(data: declaration.declarationReference)"
            if !declaration.declarationDate.isEmpty { identity += " of \(declaration.declarationDate)" }
        }
        items["3"] = identity

        if let particulars {
            items["4"] = particulars.previousThoroughExamination.map { RichText(stringLiteral: $0) }
                ?? "None: the first thorough examination of this equipment in the register"
        } else {
            items["4"] = nr
        }

        var load: RichText = "\(Asset.wllText(record.assetWLLKg))"
        if let particulars {
            let configurations = particulars.asset.swlConfigurations
            if !configurations.isEmpty { load += "\(br)\(lines: configurations)" }
        } else {
            load += "\(br)For each configuration: \(nr)"
        }
        items["5"] = load

        let safe = safety(v)
        if v.inspectionType == .thoroughAfterInstallation {
            let installed: RichText = old ? nr
                : v.installedCorrectly ? "Installed correctly." : "Not found to be installed correctly."
            items["6"] = "(a) Yes: an examination after installation or assembly.\(br)(b) \(installed) \(safe)"
            items["7"] = "Not applicable: see item 6."
        } else {
            items["6"] = "(a) No: not an examination after installation or assembly. (b) Not applicable."
            var basis = v.examinationBasis.map { RichText(stringLiteral: $0.label) } ?? nr
            if v.examinationBasis == .examinationScheme || v.inspectionType == .thoroughScheme,
               !v.schemeReference.isEmpty {
                basis += " (scheme \(data: v.schemeReference))"
            }
            items["7"] = "(a) \(basis)\(br)(b) \(safe)"
        }

        let defect = v.result == .defectToBeRemedied || v.result == .failDangerous
        switch v.result {
        case .defectToBeRemedied, .failDangerous: items["8a"] = .lines(v.defectDescription)
        case .passWithObservations:
            let observations: RichText = v.defectDescription.isEmpty ? ""
                : " Observations: \(lines: v.defectDescription)"
            items["8a"] = "None." + observations
        default: items["8a"] = "None."
        }
        if defect {
            items["8b"] = v.repairParticulars.isEmpty ? (old ? nr : "—") : .lines(v.repairParticulars)
        } else {
            items["8b"] = "None required."
        }
        switch v.result {
        case .defectToBeRemedied:
            let by: RichText = v.remedyDeadlineSet && !v.remedyDeadline.isEmpty ? "By \(v.remedyDeadline)." : nr
            let remedy: RichText = v.remedyParticulars.isEmpty ? (old ? nr : "—") : .lines(v.remedyParticulars)
            items["8c"] = "(i) \(by)\(br)(ii) \(remedy)"
        case .failDangerous: items["8c"] = "Not applicable: the defect is a danger now (item 8a)."
        default: items["8c"] = "None."
        }
        items["8d"] = v.nextExaminationBy.isEmpty ? nr : RichText(stringLiteral: v.nextExaminationBy)
        items["8e"] = !v.testParticulars.isEmpty ? .lines(v.testParticulars)
            : old ? nr : "No test carried out."
        items["8f"] = RichText(stringLiteral: v.inspectionDate)

        items["9"] = examiner(record)
        let name = RichText.orNone(v.inspectorName)
        items["10"] = v.confirmed
            ? "Authenticated by its author, \(name) (item 9), who "
                // Records saved before the authentication wording were confirmed "accurate" instead.
                + (old ? "confirmed the record as accurate"
                   : "ticked \u{201C}I, \(name), authenticate this report\u{201D}")
                + " when saving it (Rigbook user \(data: record.operatorName), \(record.savedAt))."
            : nr
        let reportDate = String(record.savedAt.prefix(10))
        items["11"] = CalendarDate(iso: reportDate) != nil ? RichText(stringLiteral: reportDate) : nr
        return items
    }

    /// Items 6(b) and 7(b): safe to operate, or not.
    private static func safety(_ v: InspectionValues) -> RichText {
        switch v.result {
        case .pass, .passWithObservations: "Safe to operate."
        case .defectToBeRemedied:
            "Safe to operate until the defect is remedied"
                + (v.remedyDeadline.isEmpty ? "." : ", by \(v.remedyDeadline) at the latest (item 8c).")
        case .failDangerous:
            .strong("Not safe to operate:", tag: "strong")
                + " not to be used until the defect is rectified (reg 10(3))."
        case nil: .notRecorded
        }
    }

    /// Item 9: the examiner as copied at save; for older records, the name and number the form held.
    private static func examiner(_ record: StoredInspection) -> RichText {
        let v = record.values
        let name = record.particulars?.examiner?.name ?? v.inspectorName
        var value: RichText = "\(RichText.orNone(name)); qualification \(RichText.orNone(v.certificationNumber))"
        guard let particulars = record.particulars else {
            return value + "\(RichText.lineBreak)Address, and whether self-employed or employed (with the employer's "
                + "name and address): \(RichText.notRecorded)"
        }
        if let examiner = particulars.examiner, examiner.selfEmployed {
            let address = examiner.address.isEmpty ? RichText.notRecorded : oneLine(examiner.address)
            value += "\(RichText.lineBreak)Self-employed; address: \(address)"
        } else {
            let organisation = particulars.organisation
            let employer = organisation.name.isEmpty && organisation.address.isEmpty
                ? RichText.notRecorded : nameAndAddress(name: organisation.name, address: organisation.address)
            value += "\(RichText.lineBreak)Employed by: \(employer)"
        }
        return value
    }

    // MARK: - Pieces

    static let notRecordedHTML = "<span class=\"nr\">\(notRecorded)</span>"

    static func nameAndAddress(_ employer: Employer) -> RichText {
        nameAndAddress(name: employer.name, address: employer.address)
    }

    static func nameAndAddress(_ site: Site) -> RichText {
        nameAndAddress(name: site.name, address: site.address)
    }

    /// A name in bold and its address below it on one line; either missing reads "not recorded".
    private static func nameAndAddress(name: String, address: String) -> RichText {
        let named = name.isEmpty ? RichText.notRecorded : .strong(.data(name))
        return named + .lineBreak + (address.isEmpty ? "Address: \(RichText.notRecorded)" : oneLine(address))
    }

    /// An address typed over several lines, on one: a page holds a whole report.
    private static func oneLine(_ address: String) -> RichText {
        .data(address.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: ", "))
    }

    private static func located(_ location: String) -> RichText {
        guard !location.isEmpty else { return "" }
        return " " + .aside("(location in the register when examined: \(data: location))")
    }

    private static func resultBadge(_ result: InspectionResult?) -> RichText {
        guard let result else { return .notRecorded }
        return RichText(html: "<span class=\"res res-\(result.rawValue)\">\(text(result.label))</span>",
                        plain: result.label)
    }

    static func orNone(_ value: String) -> String { value.isEmpty ? "—" : bidi(value) }

    /// Values in the order first seen, each once.
    static func distinct<Value: Hashable>(_ values: [Value]) -> [Value] {
        var seen = Set<Value>()
        return values.filter { seen.insert($0).inserted }
    }

    /// Text from data, kept apart from the text around it in both directions (a right-to-left name cannot
    /// reorder the punctuation beside it).
    static func bidi(_ value: String) -> String { "<bdi>\(text(value))</bdi>" }

    /// Text that may hold line breaks, which stay line breaks.
    static func multiline(_ value: String) -> String { "<bdi class=\"pre\">\(text(value))</bdi>" }

    /// Text made safe for HTML: invisible format characters (bidi overrides and isolates, zero-width spaces,
    /// the BOM) shown as their code, as on a terminal (`<202e>`), then escaped as the report escapes.
    static func text(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: VisibleText.isHiddenFormat) else { return HTMLReport.escape(value) }
        var shown = ""
        for scalar in value.unicodeScalars {
            if VisibleText.isHiddenFormat(scalar) {
                shown += "<\(String(scalar.value, radix: 16))>"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return HTMLReport.escape(shown)
    }

    // MARK: - Style

    /// Print first: A4 with 12 mm margins, one record a page. Page breaks are CSS, so the count of pages
    /// does not depend on the fonts a printer has. Results are written in words; colour only adds to them.
    static let css = """
    @page { size: A4; margin: 12mm 14mm; }
    html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    body { font-family: "Helvetica Neue", Helvetica, Arial, "Liberation Sans", "Noto Sans", "Noto Sans CJK SC",
      sans-serif; font-size: 8.5pt; line-height: 1.3; color: #000; background: #fff; margin: 0 auto;
      max-width: 182mm; }
    h1 { font-size: 14pt; margin: 0 0 1mm; }
    h2 { font-size: 10pt; margin: 3mm 0 1mm; border-bottom: 0.5pt solid #000;
      page-break-after: avoid; break-after: avoid; }
    p { margin: 1mm 0; }
    .law, .note, .sub { color: #333; font-size: 8pt; }
    .strong { font-weight: bold; }
    .pre { white-space: pre-line; }
    .nr { font-style: italic; color: #555; }
    .banner { border: 1pt solid #000; padding: 1mm 2mm; font-weight: bold; }
    table { border-collapse: collapse; width: 100%; margin: 1mm 0 2mm; }
    th, td { border: 0.5pt solid #000; padding: 0.8mm 1.5mm; text-align: left; vertical-align: top; }
    thead th { background: #e6e6e6; }
    thead { display: table-header-group; }
    tr { page-break-inside: avoid; break-inside: avoid; }
    table.ids th, table.summary th { width: 24mm; font-weight: normal; background: #f2f2f2; }
    table.summary th { width: 30mm; }
    .num { text-align: right; white-space: nowrap; }
    table.schedule td:nth-child(4), table.schedule td:nth-child(5), table.schedule td:nth-child(7) {
      white-space: nowrap; }
    dl.items { margin: 2mm 0; border-top: 0.5pt solid #000; }
    div.item { display: grid; grid-template-columns: 64mm 1fr; column-gap: 3mm; border-bottom: 0.5pt solid #000;
      padding: 0.8mm 0; page-break-inside: avoid; break-inside: avoid; }
    div.item dt { font-size: 7.5pt; color: #222; padding-left: 5mm; text-indent: -5mm; }
    div.item dt .no { font-weight: bold; font-size: 8.5pt; color: #000; }
    div.item dd { margin: 0; }
    .res { font-weight: bold; white-space: nowrap; }
    .res-fail_dangerous { color: #b00000; }
    .res-defect_to_be_remedied { color: #9a4a00; }
    .open { font-weight: bold; }
    footer.evidence { margin-top: 2mm; font-size: 7.5pt; color: #222; }
    footer.evidence code { font-size: 7.5pt; word-break: break-all; }
    section.attachments td.hash { font-family: monospace; font-size: 7.5pt; word-break: break-all; }
    article.page { page-break-before: always; break-before: page; }
    @media screen { body { padding: 10mm; } article.page { border-top: 1pt dashed #999; margin-top: 10mm; } }

    """
}
