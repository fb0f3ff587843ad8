import Foundation

/// Labels for the equipment: one self-contained printable HTML page of labels on A4 sheets,
/// each with a QR code of its payload (`LabelPayload`), the employer's name and, when the register chooses
/// one, the colour code. Pure: items and a QR encoder in, HTML out, so the same register gives the same bytes
/// and this module never links the QR library.
///
/// Layouts are a closed list drawn by one function each. The lifting-equipment layouts are the two of the
/// seeds: SlingGuard's card and TagWorks' due label. The electrical tags of AS/NZS 3760 (the test tag:
/// tester, test date, retest date; the out-of-service DANGER tag) are layouts of the same kind, added with
/// the electrical assets: a case here, a `LabelItem` made from an electrical asset and its last
/// test, and a drawing function; the sheets, the QR codes, the payload and the page are shared.
public enum Labels {
    /// What a label looks like.
    public enum Layout: String, CaseIterable, Sendable {
        /// SlingGuard's 360×220 card: tag, type, WLL, colour code, interval; the QR holds the tag.
        case card
        /// TagWorks' 800×420 label: NEXT EXAMINATION DUE in large print (month and year, the full date below).
        case due
        /// The AS/NZS 3760 test tag of an electrical item: tester and licence, test date, RETEST DATE in large
        /// print, the tag and class, the employer.
        case tag
        /// The out-of-service tag: DANGER — DO NOT USE, the tag, the date, why, and who tagged it out.
        case danger

        public var summary: String {
            switch self {
            case .card: "tag, type, WLL, colour code and interval, with the QR code (SlingGuard's card)"
            case .due: "NEXT EXAMINATION DUE in large print, the full date below, with the QR code (TagWorks' label)"
            case .tag: "the AS/NZS 3760 test tag of an electrical item: tester and licence, test date, RETEST "
                + "date in large print, tag and class"
            case .danger: "the out-of-service DANGER — DO NOT USE tag: tag, date, reason and tester"
            }
        }

        /// The layout an item gets when `requested` is asked for (nil: none was). An electrical item always gets
        /// its test tag, or the DANGER tag when its last test failed (AS/NZS 3760: a failed item is tagged out of
        /// service); `danger` asks for the DANGER tag on every item. Lifting equipment keeps the card or due
        /// label (`tag` means nothing on a sling: it gets the card).
        public static func resolved(_ requested: Layout?, for item: Item) -> Layout {
            if requested == .danger { return .danger }
            if let test = item.electricalTest { return test.failed ? .danger : .tag }
            switch requested {
            case .due: return .due
            default: return .card
            }
        }
    }

    /// A sheet of labels on A4, as the common label stationery is cut (sizes in millimetres).
    public struct Sheet: Sendable, Hashable {
        public var name: String
        public var columns: Int
        public var rows: Int
        public var labelWidth: Double
        public var labelHeight: Double
        public var top: Double
        public var left: Double
        public var columnGap: Double
        public var rowGap: Double

        public var perSheet: Int { columns * rows }
        /// Short labels: a line or two fewer.
        public var isSmall: Bool { labelHeight < 50 }

        /// 14 labels of 99.1 × 38.1 mm (2 across, 7 down).
        public static let small = Sheet(name: "2x7", columns: 2, rows: 7, labelWidth: 99.1, labelHeight: 38.1,
                                        top: 15.15, left: 4.65, columnGap: 2.5, rowGap: 0)
        /// 8 labels of 99.1 × 67.7 mm (2 across, 4 down).
        public static let large = Sheet(name: "2x4", columns: 2, rows: 4, labelWidth: 99.1, labelHeight: 67.7,
                                        top: 13.1, left: 4.65, columnGap: 2.5, rowGap: 0)
        public static let all = [small, large]

        public static func named(_ name: String) -> Sheet? { all.first { $0.name == name.lowercased() } }

        public var summary: String {
            "\(columns)×\(rows) of \(Labels.mm(labelWidth))×\(Labels.mm(labelHeight)) mm"
        }
    }

    /// Everything one label says, worked out from the register (`init(row:…)`), so drawing decides nothing.
    public struct Item: Sendable, Hashable {
        public var tag: String
        public var name: String
        /// The owner's own plant number; empty when none.
        public var clientRef: String
        public var type: String
        public var wll: String
        public var intervalMonths: Int
        public var lastThorough: CalendarDate?
        public var due: CalendarDate?
        public var status: AssetStatus
        public var colour: LabelColour?
        public var period: String?
        public var employer: String
        public var site: String
        public var payload: LabelPayload
        /// An electrical item's last test, for its test tag or DANGER tag; nil for lifting equipment.
        public var electricalTest: ElectricalTag?
        /// Why the item is out of use and since when, for the DANGER tag of an item that is not electrical.
        public var outOfUseReason: String?

        /// What the test tag and the DANGER tag of an electrical item say (AS/NZS 3760).
        public struct ElectricalTag: Sendable, Hashable {
            public var equipmentClass: String
            /// The last test's date, tester and licence; empty when the item has never been tested.
            public var testDate: CalendarDate?
            public var tester: String
            public var licence: String
            public var failed: Bool
            /// The retest date: the next test due (none for a failed item: it is not used until retested).
            public var retest: CalendarDate?
            /// What failed and the technician's notes, for the DANGER tag.
            public var reason: String
        }

        public init(row: RegisterRow, particulars: Particulars, today: CalendarDate, scheme: ColourCodeScheme,
                    lastTest: StoredTest? = nil) {
            let asset = row.asset
            let report = row.status(on: today)
            tag = asset.tag
            name = asset.name
            clientRef = asset.clientRef
            type = asset.type.label
            wll = Asset.wllText(asset.wllKg)
            intervalMonths = asset.intervalMonths
            lastThorough = row.summary.lastThoroughDate
            due = report.examinationDue.date
            status = report.status
            colour = scheme.colour(for: row, report: report)
            period = colour == nil ? nil : row.summary.lastThoroughDate.flatMap(scheme.period(of:))
            let site = particulars.site(ofAsset: asset.uuid)
            self.site = site?.name ?? ""
            employer = site.flatMap { particulars.employers[$0.employerUUID]?.name } ?? ""
            payload = LabelPayload(tag: asset.tag, due: report.nextDue)
            if let electrical = asset.electrical {
                type = electrical.equipmentClass.label
                wll = "—"
                let failed = lastTest.map { !$0.passed } ?? false
                var reason = ""
                if let lastTest, failed {
                    let notes = lastTest.values.notes.split(whereSeparator: \.isNewline).joined(separator: " ")
                    reason = TestCertificate.failures(lastTest) + (notes.isEmpty ? "" : ". " + notes)
                }
                electricalTest = ElectricalTag(
                    equipmentClass: electrical.equipmentClass.label,
                    testDate: lastTest.flatMap { CalendarDate(iso: $0.values.testDate) },
                    tester: lastTest?.values.technician ?? "", licence: lastTest?.values.licenceNumber ?? "",
                    failed: failed, retest: failed ? nil : report.examinationDue.date, reason: reason)
            }
            if report.status == .doNotUse || report.status == .quarantined || report.status == .withdrawn {
                outOfUseReason = report.reason ?? report.status.label
            }
        }

        /// Out of use: the label says so instead of a due date.
        public var outOfUse: Bool { [.doNotUse, .quarantined, .withdrawn, .retired].contains(status) }
    }

    /// The page: `items` in order, `sheet.perSheet` to an A4 page, each page a CSS page break so the count of
    /// pages does not depend on fonts. `qr` turns a payload into modules (nil: it cannot, and the label says so).
    /// `layout` is the one asked for (nil: none), resolved for each item by `Layout.resolved`.
    public static func render(_ items: [Item], layout requested: Layout?, sheet: Sheet, qr: (String) -> QRMatrix?,
                              printedAt: String) -> String {
        var writer = PageWriter(layout: requested, sheet: sheet)
        var out = PageWriter.head(count: items.count, sheet: sheet, printedAt: printedAt)
        for item in items { out += writer.label(item, qr: qr) }
        return out + writer.tail()
    }

    /// The page written as it is made (`rigbook labels` at any number of assets holds one sheet of them): the head,
    /// then each label's HTML in turn (a sheet's section opened before its first label and closed after its
    /// last), then the tail.
    public struct PageWriter {
        public let requested: Layout?
        public let sheet: Sheet
        /// Labels written so far.
        public private(set) var count = 0

        public init(layout requested: Layout?, sheet: Sheet) {
            self.requested = requested
            self.sheet = sheet
        }

        /// The page's head, which says how many labels it holds.
        public static func head(count: Int, sheet: Sheet, printedAt: String) -> String {
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"generator\" content=\"Rigbook \(text(RigbookVersion.current))\">\n"
                + "<title>Labels, \(sheet.name) — \(count) label\(count == 1 ? "" : "s"), printed \(text(printedAt))"
                + "</title>\n<style>\n\(css(sheet))</style>\n</head>\n<body>\n"
        }

        /// The next label, in its place on its sheet.
        public mutating func label(_ item: Item, qr: (String) -> QRMatrix?) -> String {
            let slot = count % sheet.perSheet
            var out = slot == 0 ? section(count / sheet.perSheet) : ""
            let layout = Layout.resolved(requested, for: item)
            let column = slot % sheet.columns, row = slot / sheet.columns
            let left = sheet.left + Double(column) * (sheet.labelWidth + sheet.columnGap)
            let top = sheet.top + Double(row) * (sheet.labelHeight + sheet.rowGap)
            out += "<div class=\"label \(layout.rawValue)\" data-tag=\"\(text(item.tag))\" "
                + "data-payload=\"\(text(item.payload.text))\" style=\"left: \(mm(left))mm; top: \(mm(top))mm\">"
            out += code(item, sheet: sheet, layout: layout, qr: qr)
            out += face(item, layout: layout, small: sheet.isSmall).html + "</div>\n"
            count += 1
            if count % sheet.perSheet == 0 { out += "</section>\n" }
            return out
        }

        /// The end of the page: the last sheet closed (a page with no labels still has one, empty).
        public func tail() -> String {
            (count == 0 ? section(0) + "</section>\n" : count % sheet.perSheet == 0 ? "" : "</section>\n")
                + "</body>\n</html>\n"
        }

        private func section(_ page: Int) -> String {
            "<section class=\"sheet s\(sheet.name)\" data-page=\"\(page + 1)\">\n"
        }
    }

    // MARK: - Layouts

    /// What a label says beside its QR code, line by line: made once per layout, drawn by the page (HTML) and the
    /// PDF alike.
    public struct Face: Sendable, Hashable {
        public var lines: [Line]

        public struct Line: Sendable, Hashable {
            public var kind: Kind
            public var text: RichText
            /// A colour code's band: its background and ink, as hex.
            public var band: LabelColour?

            init(_ kind: Kind, _ text: RichText, band: LabelColour? = nil) {
                self.kind = kind
                self.text = text
                self.band = band
            }
        }

        /// How a line reads; the raw value is its CSS class.
        public enum Kind: String, Sendable, Hashable {
            case tag, line, small = "line small", band, stop = "band stop", head, head2, big, bigStop = "big stop"
            case bigRetest = "big retest", full, wrap = "line wrap", smallWrap = "line small wrap"
            case dangerHead = "danger-head wrap", reason, employer
        }

        /// The face as the page's `<div class="body">`.
        var html: String {
            "<div class=\"body\">" + lines.map { line in
                let style = line.band.map { " style=\"background: \($0.hex); color: \($0.inkHex)\"" } ?? ""
                return "<div class=\"\(line.kind.rawValue)\"\(style)>\(line.text.html)</div>"
            }.joined() + "</div>"
        }
    }

    /// One label as a renderer other than the page draws it: its layout (the DANGER tag is framed in red), its
    /// face, and its QR code (nil: the tag is too long for one).
    public struct Printed: Sendable, Hashable {
        public var layout: Layout
        public var face: Face
        public var qr: QRMatrix?
        public var payload: String

        /// `item` as `requested` resolves for it on `sheet`, its payload encoded by `qr`.
        public init(_ item: Item, requested: Layout?, sheet: Sheet, qr: (String) -> QRMatrix?) {
            layout = Layout.resolved(requested, for: item)
            face = Labels.face(item, layout: layout, small: sheet.isSmall)
            payload = item.payload.text
            self.qr = qr(payload)
        }
    }

    /// The face of `item` in `layout`; `small`: the sheet's labels are short (a line or two fewer).
    public static func face(_ item: Item, layout: Layout, small: Bool) -> Face {
        switch layout {
        case .card: card(item)
        case .due: dueLabel(item)
        case .tag: testTag(item, small: small)
        case .danger: dangerTag(item, small: small)
        }
    }

    private static func card(_ item: Item) -> Face {
        var lines: [Face.Line] = [
            .init(.tag, .data(item.tag)),
            .init(.line, "\(data: item.type) · " + .strong("WLL \(item.wll)", tag: "b")),
            .init(.small, .data(item.name)),
        ]
        if !item.clientRef.isEmpty { lines.append(.init(.small, "Client ref \(data: item.clientRef)")) }
        lines.append(.init(.small, "Examined every \(item.intervalMonths) months"
                                + (item.lastThorough.map { " · last \($0.iso)" } ?? "")))
        if item.outOfUse {
            lines.append(.init(.stop, "\(item.status.label)"))
        } else if let colour = item.colour {
            lines.append(.init(.band, "\(colour.word)\(item.period.map { " · " + $0 } ?? "")", band: colour))
        }
        return Face(lines: lines + [employerLine(item)])
    }

    private static func dueLabel(_ item: Item) -> Face {
        var lines: [Face.Line] = []
        if item.outOfUse {
            lines += [.init(.head, "DO NOT USE"), .init(.bigStop, "\(item.status.label)"),
                      .init(.full, "Not to be used until a thorough examination passes it")]
        } else if let due = item.due {
            lines += [.init(.head, "NEXT EXAMINATION DUE"),
                      .init(.big, "\(monthNames[due.month - 1].prefix(3).uppercased()) \(due.year)"),
                      .init(.full, "by \(due.day) \(monthNames[due.month - 1]) \(due.year) (\(due.iso))")]
        } else {
            lines += [.init(.head, "NEXT EXAMINATION DUE"), .init(.big, "—"),
                      .init(.full, "No due date in the register")]
        }
        lines.append(.init(.line, .strong(.data(item.tag), tag: "b") + " · \(data: item.type) · WLL \(item.wll)"))
        return Face(lines: lines + [employerLine(item)])
    }

    /// The AS/NZS 3760 test tag: who tested it (and their licence), when, and the retest date large; the tag,
    /// its class and the employer. An item never tested says so instead of dates.
    private static func testTag(_ item: Item, small: Bool) -> Face {
        let test = item.electricalTest
        let tested = test?.testDate != nil
        var lines: [Face.Line] = [.init(.head, "\(tested ? "TESTED" : "TEST TAG") · AS/NZS 3760"),
                                  .init(.head2, "RETEST DATE")]
        if let retest = item.due, tested {
            let month = monthNames[retest.month - 1].prefix(3).uppercased()
            lines.append(.init(.bigRetest, "\(retest.day) \(month) \(retest.year)"))
        } else {
            lines.append(.init(.bigRetest, "NOT TESTED"))
        }
        let date: RichText = test?.testDate.map { "Tested \($0.iso)" } ?? "Not yet tested"
        lines.append(.init(.wrap, date + testedBy(test, lead: " by ")))
        lines.append(.init(.line, .strong(.data(item.tag), tag: "b") + " · \(data: item.type)"))
        if !small { lines.append(.init(.small, .data(item.name))) }
        return Face(lines: lines + [employerLine(item)])
    }

    /// The out-of-service tag: red, and legible in black and white (the words carry it; the colour only adds).
    private static func dangerTag(_ item: Item, small: Bool) -> Face {
        let test = item.electricalTest
        let date = test?.testDate ?? nil
        let when = date.map { "\(test?.failed == true ? "Failed test" : "Tagged out") \($0.iso)" } ?? "Out of service"
        let reason = (test?.reason).flatMap { $0.isEmpty ? nil : $0 } ?? item.outOfUseReason ?? "Out of service"
        var lines: [Face.Line] = [
            .init(.dangerHead, "DANGER — DO NOT USE"),
            .init(.line, .strong(.data(item.tag), tag: "b") + " · \(data: item.type) · \(data: item.name)"),
            .init(.line, "\(when)"),
            .init(.reason, .data(reason)),
        ]
        let tester = testedBy(test, lead: "Tagged by ")
        if !tester.plain.isEmpty { lines.append(.init(.smallWrap, tester)) }
        if !small { lines.append(.init(.smallWrap, "Leave this tag on until a retest passes")) }
        return Face(lines: lines + [employerLine(item)])
    }

    /// "by Ana Reyes · Lic. EL-204518" after `lead`; nothing without a tester.
    private static func testedBy(_ test: Item.ElectricalTag?, lead: String) -> RichText {
        guard let test, !test.tester.isEmpty else { return "" }
        return "\(lead)\(data: test.tester)" + (test.licence.isEmpty ? "" : " · Lic. \(data: test.licence)")
    }

    private static func employerLine(_ item: Item) -> Face.Line {
        .init(.employer, item.employer.isEmpty ? "" : .data(item.employer))
    }

    /// The QR code, as many whole CSS pixels a module as fit the label's height (at most 6), so each module is
    /// at least 4 device pixels at a device scale factor of 2.
    private static func code(_ item: Item, sheet: Sheet, layout: Layout, qr: (String) -> QRMatrix?) -> String {
        guard let matrix = qr(item.payload.text) else {
            return "<div class=\"qr missing\">No QR code: the tag is too long for one</div>"
        }
        let room = (sheet.labelHeight - 2 * padding) * pixelsPerMM
        let pixels = max(2, min(layout == .card ? 6 : 5, Int(room) / matrix.span()))
        return "<div class=\"qr\">" + matrix.svg(modulePixels: pixels, title: item.payload.text) + "</div>"
    }

    // MARK: - Style

    /// The space inside a label's edge, in millimetres.
    public static let padding = 1.5
    static let pixelsPerMM = 96 / 25.4
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]

    static func mm(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func text(_ value: String) -> String { Certificate.text(value) }

    /// A4 with no margins: the sheet's own margins place the labels. Labels are cut out of the stationery, so
    /// their outlines show on screen only.
    static func css(_ sheet: Sheet) -> String {
        let small = sheet.labelHeight < 50
        return """
        @page { size: A4; margin: 0; }
        html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        body { margin: 0; background: #fff; color: #000; font-family: "Helvetica Neue", Helvetica, Arial,
          "Liberation Sans", "Noto Sans", "Noto Sans CJK SC", sans-serif; }
        .sheet { position: relative; width: 210mm; height: 297mm; overflow: hidden;
          page-break-after: always; break-after: page; }
        .sheet:last-child { page-break-after: auto; break-after: auto; }
        .label { position: absolute; box-sizing: border-box; width: \(mm(sheet.labelWidth))mm;
          height: \(mm(sheet.labelHeight))mm; padding: \(mm(padding))mm; overflow: hidden; display: flex;
          gap: 1.5mm; align-items: center; }
        @media screen { .label { outline: 0.2mm dashed #bbb; } }
        .qr { flex: none; line-height: 0; }
        .qr svg { display: block; }
        .qr.missing { width: 20mm; font-size: 6pt; line-height: 1.2; }
        .body { flex: 1; min-width: 0; display: flex; flex-direction: column; gap: \(small ? "0.3" : "1")mm; }
        .body > div { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        .tag { font-size: \(small ? 15 : 24)pt; font-weight: bold; line-height: 1.05; }
        .line { font-size: \(small ? 7.5 : 10)pt; }
        .small { font-size: \(small ? 6.5 : 8.5)pt; }
        .band { font-size: \(small ? 7 : 10)pt; font-weight: bold; padding: 0.3mm 1.5mm; border: 0.3pt solid #000; }
        .band.stop, .big.stop { background: #fff; color: #c62828; border: 0.6pt solid #c62828; }
        .head { font-size: \(small ? 7 : 11)pt; font-weight: bold; letter-spacing: 0.04em; }
        .big { font-size: \(small ? 17 : 30)pt; font-weight: bold; line-height: 1.05; }
        .full { font-size: \(small ? 6.5 : 9)pt; }
        .employer { font-size: \(small ? 6 : 8)pt; color: #333; border-top: 0.3pt solid #999; padding-top: 0.3mm; }
        .head2 { font-size: \(small ? 6 : 9)pt; font-weight: bold; }
        .label.danger { border: \(small ? 0.8 : 1.2)mm solid #c62828; }
        .danger-head { font-size: \(small ? 11 : 15)pt; font-weight: 900; color: #fff; background: #c62828;
          padding: 0.3mm 1.5mm; letter-spacing: 0.02em; }
        @media print and (monochrome) { .danger-head { color: #000; background: #fff; border: 0.6mm solid #000; } }
        .big.retest { font-size: \(small ? 15 : 22)pt; }
        .body > div.wrap { white-space: normal; }
        .reason { font-size: \(small ? 6.5 : 9)pt; white-space: normal !important; max-height: \(small ? 5.5 : 16)mm; }

        """
    }
}
