import Foundation

/// Labels for the equipment (issue 16 §1): one self-contained printable HTML page of labels on A4 sheets,
/// each with a QR code of its payload (`LabelPayload`), the employer's name and, when the register chooses
/// one, the colour code. Pure: items and a QR encoder in, HTML out, so the same register gives the same bytes
/// and this module never links the QR library.
///
/// Layouts are a closed list drawn by one function each. The lifting-equipment layouts are the two of the
/// seeds: SlingGuard's card and TagWorks' due label. The electrical tags of AS/NZS 3760 (the test tag:
/// tester, test date, retest date; the out-of-service DANGER tag) are layouts of the same kind, added with
/// the electrical assets of issue 15: a case here, a `LabelItem` made from an electrical asset and its last
/// test, and a drawing function; the sheets, the QR codes, the payload and the page are shared.
public enum Labels {
    /// What a label looks like.
    public enum Layout: String, CaseIterable, Sendable {
        /// SlingGuard's 360×220 card: tag, type, WLL, colour code, interval; the QR holds the tag.
        case card
        /// TagWorks' 800×420 label: NEXT EXAMINATION DUE in large print (month and year, the full date below).
        case due

        public var summary: String {
            switch self {
            case .card: "tag, type, WLL, colour code and interval, with the QR code (SlingGuard's card)"
            case .due: "NEXT EXAMINATION DUE in large print, the full date below, with the QR code (TagWorks' label)"
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

        public init(row: RegisterRow, particulars: Particulars, today: CalendarDate, scheme: ColourCodeScheme) {
            let asset = row.asset
            let report = row.status(on: today)
            tag = asset.tag
            name = asset.name
            type = asset.type.label
            wll = Asset.wllText(asset.wllKg)
            intervalMonths = asset.intervalMonths
            lastThorough = row.summary.lastThoroughDate
            due = report.nextDue
            status = report.status
            colour = scheme.colour(for: row, report: report)
            period = colour == nil ? nil : row.summary.lastThoroughDate.flatMap(scheme.period(of:))
            let site = particulars.sites[particulars.asset(asset.uuid).siteUUID]
            self.site = site?.name ?? ""
            employer = site.flatMap { particulars.employers[$0.employerUUID]?.name } ?? ""
            payload = LabelPayload(tag: asset.tag, due: report.nextDue)
        }

        /// Out of use: the label says so instead of a due date.
        public var outOfUse: Bool { [.doNotUse, .quarantined, .withdrawn, .retired].contains(status) }
    }

    /// The page: `items` in order, `sheet.perSheet` to an A4 page, each page a CSS page break so the count of
    /// pages does not depend on fonts. `qr` turns a payload into modules (nil: it cannot, and the label says so).
    public static func render(_ items: [Item], layout: Layout, sheet: Sheet, qr: (String) -> QRMatrix?,
                              printedAt: String) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"generator\" content=\"Rigbook \(text(RigbookVersion.current))\">\n"
        let count = "\(items.count) label\(items.count == 1 ? "" : "s")"
        out += "<title>Labels (\(layout.rawValue), \(sheet.name)) — \(count),"
            + " printed \(text(printedAt))</title>\n<style>\n\(css(sheet))</style>\n</head>\n<body>\n"
        let pages = max(1, (items.count + sheet.perSheet - 1) / sheet.perSheet)
        for page in 0..<pages {
            out += "<section class=\"sheet s\(sheet.name)\" data-page=\"\(page + 1)\">\n"
            for (slot, item) in items.dropFirst(page * sheet.perSheet).prefix(sheet.perSheet).enumerated() {
                let column = slot % sheet.columns, row = slot / sheet.columns
                let left = sheet.left + Double(column) * (sheet.labelWidth + sheet.columnGap)
                let top = sheet.top + Double(row) * (sheet.labelHeight + sheet.rowGap)
                out += "<div class=\"label \(layout.rawValue)\" data-tag=\"\(text(item.tag))\" "
                    + "data-payload=\"\(text(item.payload.text))\" style=\"left: \(mm(left))mm; top: \(mm(top))mm\">"
                out += code(item, sheet: sheet, layout: layout, qr: qr)
                switch layout {
                case .card: card(&out, item)
                case .due: dueLabel(&out, item)
                }
                out += "</div>\n"
            }
            out += "</section>\n"
        }
        out += "</body>\n</html>\n"
        return out
    }

    // MARK: - Layouts

    private static func card(_ out: inout String, _ item: Item) {
        out += "<div class=\"body\"><div class=\"tag\"><bdi>\(text(item.tag))</bdi></div>"
        out += "<div class=\"line\"><bdi>\(text(item.type))</bdi> · <b>WLL \(text(item.wll))</b></div>"
        out += "<div class=\"line small\"><bdi>\(text(item.name))</bdi></div>"
        out += "<div class=\"line small\">Examined every \(item.intervalMonths) months"
            + (item.lastThorough.map { " · last \($0.iso)" } ?? "") + "</div>"
        if item.outOfUse {
            out += "<div class=\"band stop\">\(text(item.status.label))</div>"
        } else if let colour = item.colour {
            out += "<div class=\"band\" style=\"background: \(colour.hex); color: \(colour.inkHex)\">"
                + "\(colour.word)\(item.period.map { " · " + text($0) } ?? "")</div>"
        }
        out += employerLine(item) + "</div>"
    }

    private static func dueLabel(_ out: inout String, _ item: Item) {
        out += "<div class=\"body\">"
        if item.outOfUse {
            out += "<div class=\"head\">DO NOT USE</div><div class=\"big stop\">\(text(item.status.label))</div>"
            out += "<div class=\"full\">Not to be used until a thorough examination passes it</div>"
        } else if let due = item.due {
            out += "<div class=\"head\">NEXT EXAMINATION DUE</div>"
            out += "<div class=\"big\">\(monthNames[due.month - 1].prefix(3).uppercased()) \(due.year)</div>"
            out += "<div class=\"full\">by \(due.day) \(monthNames[due.month - 1]) \(due.year) (\(due.iso))</div>"
        } else {
            out += "<div class=\"head\">NEXT EXAMINATION DUE</div><div class=\"big\">—</div>"
            out += "<div class=\"full\">No due date in the register</div>"
        }
        out += "<div class=\"line\"><b><bdi>\(text(item.tag))</bdi></b> · <bdi>\(text(item.type))</bdi> · "
            + "WLL \(text(item.wll))</div>"
        out += employerLine(item) + "</div>"
    }

    private static func employerLine(_ item: Item) -> String {
        let employer = item.employer.isEmpty ? "" : "<bdi>\(text(item.employer))</bdi>"
        return "<div class=\"employer\">\(employer)</div>"
    }

    /// The QR code, as many whole CSS pixels a module as fit the label's height (at most 6), so each module is
    /// at least 4 device pixels at a device scale factor of 2.
    private static func code(_ item: Item, sheet: Sheet, layout: Layout, qr: (String) -> QRMatrix?) -> String {
        guard let matrix = qr(item.payload.text) else {
            return "<div class=\"qr missing\">No QR code: the tag is too long for one</div>"
        }
        let room = (sheet.labelHeight - 2 * padding) * pixelsPerMM
        let pixels = max(2, min(layout == .due ? 5 : 6, Int(room) / matrix.span()))
        return "<div class=\"qr\">" + matrix.svg(modulePixels: pixels, title: item.payload.text) + "</div>"
    }

    // MARK: - Style

    static let padding = 1.5
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

        """
    }
}
