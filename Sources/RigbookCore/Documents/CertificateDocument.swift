import Foundation

extension Certificate {
    /// One record's report of thorough examination as a printed document (the PDF's): the same Schedule 1 items
    /// as the page, made by the same `itemValues`. Everything in it comes from the record, its saved time and its
    /// hash included, never the clock or the register's head: a certificate reissued from the same record is the
    /// same document, whatever was saved since. The record's hash is in the footer of every page, for
    /// `rigbook verify` to check.
    public static func document(_ entry: Entry) -> PrintedDocument {
        let record = entry.record
        let number = record.reportNumber ?? "record #\(record.id)"
        let organisation = record.particulars?.organisation.name ?? ""
        return PrintedDocument(
            title: "Report of thorough examination \(number) — \(entry.asset.tag)",
            author: record.particulars?.examiner?.name ?? record.values.inspectorName,
            created: PrintedDocument.date(record.savedAt),
            footer: [organisation, "report \(number)", "record #\(record.id)", "SHA-256 \(hash(record))"]
                .filter { !$0.isEmpty }.joined(separator: " · "),
            blocks: blocks(entry))
    }

    /// A visit's certificate as a printed document: the cover with the summary and the schedule (defects
    /// first), then each record's report from a page of its own, with its hash under it. Its dates are its
    /// newest record's saved time.
    public static func visitDocument(_ visit: Visit, entries: [Entry]) -> PrintedDocument {
        let ordered = visitOrder(entries)
        let dates = visit.from == visit.through ? visit.from.iso : "\(visit.from.iso) to \(visit.through.iso)"
        var blocks: [PrintedDocument.Block] = [
            .heading("Schedule of thorough examinations", level: 1),
            .paragraph("Lifting Operations and Lifting Equipment Regulations 1998 (LOLER), regulation 10 and "
                       + "Schedule 1: the reports of thorough examination made at one site, each on its own page.",
                       .small),
            .fields(coverFields(visit, ordered).map { .init($0.0, $0.1) }),
            .heading("Schedule", level: 2),
            // A report number (15 characters) and a date each keep to one line.
            .table(.init(columns: zip(scheduleColumns, [0.45, 1.15, 2.1, 2.0, 1.35, 1.5, 1.35])
                            .map { .init($0, share: $1, numeric: $0 == "No.") },
                         rows: zip(ordered, scheduleRows(ordered)).map { entry, cells in
                             .init(cells, data: [.init("record", entry.record.recordUUID.uuidString.lowercased()),
                                                 .init("result", entry.record.values.result?.rawValue ?? "")])
                         })),
        ]
        for entry in ordered { blocks += [.pageBreak] + self.blocks(entry) }
        let newest = ordered.map(\.record.savedAt).max() ?? ""
        return PrintedDocument(
            title: "Schedule of thorough examinations — \(visit.site.name), \(dates)",
            author: distinct(ordered.map { $0.record.particulars?.examiner?.name ?? $0.record.values.inspectorName })
                .joined(separator: ", "),
            created: PrintedDocument.date(newest),
            footer: "\(visit.site.name) · \(dates) · \(ordered.count) report\(ordered.count == 1 ? "" : "s")",
            blocks: blocks)
    }

    private static func hash(_ record: StoredInspection) -> String { record.recordHash ?? notRecorded }

    /// One record's report, its identification then the Schedule 1 items, its notes, files and notices.
    static func blocks(_ entry: Entry) -> [PrintedDocument.Block] {
        let record = entry.record, v = record.values
        var blocks: [PrintedDocument.Block] = [
            .heading("Report of thorough examination", level: 1,
                     id: "record-\(record.recordUUID.uuidString.lowercased())"),
            .paragraph("Lifting Operations and Lifting Equipment Regulations 1998 (LOLER), regulation 10 and "
                       + "Schedule 1", .small),
            .fields([
                .init("Report number", record.reportNumber.map { "\($0)" } ?? .notRecorded),
                .init("Equipment", .data(entry.asset.tag)),
                .init("Record", "#\(record.id) · \(record.recordUUID.uuidString.lowercased())"),
                .init("Result", resultBadge(v.result)),
                .init("Type", "\(v.inspectionType.label)"),
            ]),
        ]
        if let by = record.supersededBy {
            blocks.append(.paragraph("\(registerBannerOpenings[0])\(by): this report was corrected, and the amendment "
                                     + "is the report that stands.", .banner))
        } else if let other = record.outrankedBy {
            blocks.append(.paragraph("\(registerBannerOpenings[1]) record #\(other) amends the same record and was "
                                     + "saved later; it is the report that stands until an amendment of either settles "
                                     + "them.", .banner))
        }
        if let amends = record.amends {
            blocks.append(.paragraph(amendmentBanner(number: "\(amends)", reason: v.amendmentReason), .banner))
        }
        if entry.isFromBeforeParticulars {
            blocks.append(.paragraph("Saved before reports carried their particulars: what it does not hold reads "
                                     + "\u{201C}\(notRecorded)\u{201D}.", .small))
        }
        let values = itemValues(entry)
        blocks.append(.heading("Schedule 1", level: 2))
        blocks.append(.fields(items.map { item in
            .init("\(item.number)  \(item.heading)", values[item.number] ?? .notRecorded,
                  data: [.init("item", item.number)])
        }))
        if !v.notes.isEmpty { blocks.append(.paragraph("Notes: \(lines: v.notes)", .plain)) }
        if !v.attachments.isEmpty {
            blocks.append(.heading("Attachments", level: 2))
            blocks.append(.table(.init(columns: [.init("File", share: 3), .init("Size", share: 1),
                                                 .init("SHA-256", share: 4)],
                                       cells: v.attachments.map {
                                           [.data($0.name), "\($0.sizeText)", "\($0.sha256)"]
                                       })))
        }
        blocks.append(.heading("Notices under regulation 10", level: 2))
        let notices = newestNotices(entry)
        if notices.isEmpty {
            blocks.append(.paragraph(entry.isFromBeforeParticulars ? .notRecorded + " (saved before notices were kept)"
                                     : "None.", .plain))
        } else {
            blocks.append(.table(.init(
                columns: [.init("Duty", share: 3), .init("Where it stands", share: 2), .init("To", share: 2)],
                rows: notices.map { notice in
                    let since = notice.enteredOn?.iso ?? String(notice.recordedAt.prefix(10))
                    let risk: RichText = notice.seriousRisk == true ? " (serious risk of injury)" : ""
                    return .init(["\(notice.duty.label)" + risk,
                                  notice.doneOn.map { "Done on \($0.iso)" } ?? "Not yet done (open since \(since))",
                                  .orNone(notice.recipient)],
                                 data: [.init("duty", notice.duty.rawValue), .init("done", "\(notice.isDone)")])
                })))
        }
        return blocks + evidence("Record #\(record.id)", hash: hash(record), proof: entry.proof)
    }

    /// The record's own hash, which `rigbook verify` finds in the register, and who signed it, with the proof carried
    /// for anyone to check it with (or that it was saved before keys): the same on every reissue.
    static func evidence(_ name: String, hash: String, proof: RecordProof?) -> [PrintedDocument.Block] {
        let hashed: RichText = "\(name), SHA-256 " + code(hash)
        guard let proof else {
            return [.paragraph(hashed + ", unsigned (before keys): " + code("rigbook verify")
                               + " on the register checks its hash.", .small)]
        }
        return [.paragraph(hashed + ", signed by \(data: proof.examiner) with key " + code(proof.fingerprint)
                           + ". It carries the signed record: " + code("rigbook verify --certificate FILE")
                           + " checks it anywhere, " + code("rigbook verify") + " the register.", .small),
                .embedded(name: proof.fileName, json: proof.json)]
    }

    /// How the banners the register prints of a record begin (amended by a later record, or outranked by a
    /// conflicting one): `verify --certificate` takes them on a page beside the record's own.
    public static let registerBannerOpenings = ["Amended by record #", "Conflicting amendment:"]

    /// A cell of a certificate's page that its signed record alone decides, for `verify --certificate` to compare
    /// with the page: where it is, which of the row's value cells, and what the page may print there.
    public struct PrintedCell: Sendable, Equatable {
        /// Where on the page a cell is, and how it is found there.
        public enum Place: Sendable, Equatable {
            /// A row of the record's own report, found by `row`.
            case report
            /// The record's row of a visit's schedule, on the cover before the reports: `row` is the record's uuid
            /// (`data-record`), and `column` counts the cells after the row's number.
            case schedule
            /// A line of a visit's cover, found by its label `row`: what the page's records decide together.
            case cover
            /// A boxed paragraph of the record's report that opens with the words `row`, printed exactly when `html`
            /// is not empty. After an opening that ends in "#", the number is the register's: any is taken.
            case banner
        }

        /// A numbered item's number ("8f", "11"), the text of the row's first cell (a field's heading, a reading's
        /// name), a schedule row's record uuid, or a banner's opening words.
        public var row: String
        /// Which of the row's value cells (those after its first), from 0.
        public var column: Int
        /// How a finding names it: "item 8f", "result".
        public var name: String
        /// What the record prints there, as the page's HTML.
        public var html: String
        /// What else the same record prints there beside another asset (a test's reading beside an equipment class
        /// it does not apply to): the asset is the register's now, not the record's.
        public var alternatives: [String]
        public var place: Place

        public init(row: String, column: Int = 0, name: String? = nil, html: String, alternatives: [String] = [],
                    place: Place = .report) {
            self.row = row
            self.column = column
            self.place = place
            let shown = row.hasSuffix("#") ? row + "…" : row
            self.name = name ?? (place == .banner ? "the \u{201C}\(shown)\u{201D} banner"
                                 : row.first?.isNumber == true ? "item \(row)" : row.lowercased())
            self.html = html
            self.alternatives = alternatives
        }

        /// Whether the row is a numbered item's, found by its `data-item`.
        public var isItem: Bool { place == .report && row.first?.isNumber == true }

        /// The row's first cell, or the banner's opening, as the page prints it.
        public var rowHTML: String { Certificate.text(row) }
    }

    /// What a record's page prints that the record alone decides, as the page's HTML: its report number and result
    /// (by their labels), every Schedule 1 item but the equipment's identity (item 3: the asset as the register
    /// holds it), by number, and the banner saying what it amends. On a visit's page, also its row of the schedule
    /// but its number, tag and equipment (the visit's order and the asset's). `verify --certificate` compares a
    /// page with these, made again from the signed record.
    public static func cellsFromTheRecord(_ record: StoredInspection) -> [PrintedCell] {
        let entry = Entry(record: record, asset: anyAsset)
        let items = itemValues(entry)
        let report = record.reportNumber.map { "report \($0)" } ?? "the record"
        let uuid = record.recordUUID.uuidString.lowercased()
        // Which of the record it amends is the register's number, not the record's.
        let amends = record.amendsUUID == nil ? "" : amendmentBanner(number: "", reason: record.values.amendmentReason)
        let schedule = zip(scheduleColumns, scheduleRows([entry])[0]).enumerated().compactMap { column, cell in
            // A record without a report number is numbered there by its row in the register.
            scheduleCellsFromTheRecord[cell.0].flatMap { what in
                what == "report number" && record.reportNumber == nil ? nil
                    : PrintedCell(row: uuid, column: column - 1, name: "the \(what) of \(report) in its schedule",
                                  html: cell.1.html, place: .schedule)
            }
        }
        return [PrintedCell(row: "Report number", html: record.reportNumber.map(text) ?? RichText.notRecorded.html),
                PrintedCell(row: "Result", html: resultBadge(record.values.result).html),
                PrintedCell(row: "Type", html: text(record.values.inspectionType.label)),
                PrintedCell(row: amendmentOpening, html: amends.html, place: .banner)]
            + Certificate.items.filter { $0.number != "3" }.map {
                PrintedCell(row: $0.number, html: items[$0.number]?.html ?? "")
            }
            + schedule
    }

    /// What a visit's cover prints that its records decide together, given in the order the page reports them: the
    /// employers and sites they copied at save (the register's when none did), the examiners and the count of items
    /// by result. Not the dates, which are the visit's as asked for.
    public static func cellsFromTheRecords(_ records: [StoredInspection]) -> [PrintedCell] {
        let entries = records.map { Entry(record: $0, asset: anyAsset) }
        // The visit's own site and employer are printed only where no record copied its own; its dates are left out.
        let day = CalendarDate(dayNumber: 0)
        let anywhere = Visit(site: Site(employerUUID: UUID(), name: ""), employer: nil, from: day, through: day)
        let copied = records.contains { $0.particulars != nil }
        return coverFields(anywhere, entries).filter { label, _ in
            label != "Dates" && (copied || (label != "Employer" && label != "Site"))
        }.map { PrintedCell(row: $0.0, name: "the cover's \($0.0.lowercased())", html: $0.1.html, place: .cover) }
    }

    /// The schedule's columns that its record decides, by title, and how a finding names them.
    private static let scheduleCellsFromTheRecord = ["Report number": "report number",
                                                     "Examined": "date of examination", "Result": "result",
                                                     "Next by": "date of the next examination"]

    /// An asset for what the record alone prints: only item 3 and the schedule's tag and equipment read it.
    private static let anyAsset = Asset(tag: "", name: "", type: .other, wllKg: 1, intervalMonths: 12)

    /// The banner of an amendment: what it amends, and why.
    static let amendmentOpening = "This report amends record #"

    static func amendmentBanner(number: String, reason: String) -> RichText {
        "\(amendmentOpening)\(number): \(data: reason)"
    }

    /// What the reader types or checks, set as code.
    static func code(_ text: String) -> RichText {
        RichText(html: "<code>\(Certificate.text(text))</code>", plain: text)
    }
}
