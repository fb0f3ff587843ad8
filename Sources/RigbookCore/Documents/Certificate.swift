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
        /// The record's signature and what checks it; nil for a record saved before keys.
        public var proof: RecordProof?

        public init(record: StoredInspection, asset: Asset, notices: [Notice] = [], proof: RecordProof? = nil) {
            self.record = record
            self.asset = asset
            self.notices = notices
            self.proof = proof
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

    /// One record's report of thorough examination as an HTML page: its printed document (`document`), which
    /// the PDF draws too.
    public static func render(_ entry: Entry) -> String { HTMLDocument.render(document(entry)) }

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

    /// A visit's certificate as an HTML page (`visitDocument`): the cover, then each record's report from a page
    /// of its own (a CSS page break, so the page count does not depend on the fonts a printer has).
    public static func renderVisit(_ visit: Visit, entries: [Entry]) -> String {
        HTMLDocument.render(visitDocument(visit, entries: entries))
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

    /// Each reg 10 duty's newest notice, in the order of the regulation.
    static func newestNotices(_ entry: Entry) -> [Notice] {
        var newest: [NoticeDuty: Notice] = [:]
        for notice in entry.notices { newest[notice.duty] = notice }
        return NoticeDuty.allCases.compactMap { newest[$0] }
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

    static func resultBadge(_ result: InspectionResult?) -> RichText {
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
}
