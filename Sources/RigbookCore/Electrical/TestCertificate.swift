import Foundation

/// A test certificate (AS/NZS 3760): one saved electrical test as a printable, self-contained HTML
/// page for A4, on the page of the report of thorough examination (`Certificate`: its CSS, escaping and
/// evidence footer). The 16 fields of the test form, numbered as the form numbers them; the readings against
/// their limits; the result; the technician and licence. Pure: data in, HTML out.
public enum TestCertificate {
    public struct Entry: Sendable {
        public var test: StoredTest
        public var asset: Asset
        /// The employer and site the asset belongs to in the register now (a test record copies neither).
        public var employer: Employer?
        public var site: Site?
        /// The test's signature and what checks it; nil for a test saved before keys.
        public var proof: RecordProof?

        public init(test: StoredTest, asset: Asset, employer: Employer? = nil, site: Site? = nil,
                    proof: RecordProof? = nil) {
            self.test = test
            self.asset = asset
            self.employer = employer
            self.site = site
            self.proof = proof
        }
    }

    /// The 16 fields of the test form (SPEC §12), in its order.
    public static let fields: [(number: Int, label: String)] = [
        (1, "Test type"), (2, "Test date"), (3, "Technician"), (4, "Licence / competency no."),
        (5, "Instrument model"), (6, "Instrument serial"), (7, "Procedure / standard reference"),
        (8, "Instrument calibration date"), (9, "Visual inspection"), (10, "Earth continuity (Ω)"),
        (11, "Insulation resistance (MΩ)"), (12, "Load current (A)"), (13, "Photos / attachments"), (14, "Notes"),
        (15, "Result"), (16, "Authenticated"),
    ]

    /// One reading on the certificate: measured, limit and verdict, from the verdict stored with the test.
    public struct Reading: Sendable, Hashable {
        public var label: String
        public var measured: String
        public var limit: String
        /// `pass`, `fail`, `missing`, `not_taken`.
        public var outcome: String
    }

    /// The test's judged readings and observations, in form order. A verdict's text is "0.3 within ≤ 1 Ω" for a
    /// reading, "Pass" for an observation, "not measured" when a required reading is missing.
    public static func readings(_ test: StoredTest) -> [Reading] {
        func rank(_ verdict: StoredVerdict) -> Int {
            TestField.allCases.firstIndex { $0.rawValue == verdict.field } ?? TestField.allCases.count
        }
        return test.verdicts.sorted { rank($0) < rank($1) }.map { verdict in
            let label = TestField(rawValue: verdict.field)?.label ?? verdict.field
            for word in [" within ", " outside "] {
                if let range = verdict.text.range(of: word) {
                    let unit = unitOf(verdict.text[range.upperBound...])
                    return Reading(label: label, measured: String(verdict.text[..<range.lowerBound]) + unit,
                                   limit: String(verdict.text[range.upperBound...]), outcome: verdict.outcome)
                }
            }
            let limit = verdict.field == TestField.polarity.rawValue ? "correct" : "operates"
            return Reading(label: label, measured: verdict.text, limit: limit, outcome: verdict.outcome)
        }
    }

    /// The unit at the end of a limit ("≤ 1 Ω" → " Ω"), for the measured value beside it.
    private static func unitOf(_ limit: Substring) -> String {
        guard let space = limit.lastIndex(of: " ") else { return "" }
        return String(limit[space...])
    }

    /// What failed, in a line: "Polarity: Fail; Earth continuity (Ω): 1.8 Ω (limit ≤ 1 Ω)"; the visual
    /// inspection or a manual Fail when no reading did.
    public static func failures(_ test: StoredTest) -> String {
        var parts: [String] = []
        if test.values.visual == .fail { parts.append("Visual inspection: Fail") }
        for reading in readings(test) where reading.outcome != "pass" {
            let shown = reading.outcome == "fail" && reading.limit != "correct" && reading.limit != "operates"
                ? "\(reading.measured) (limit \(reading.limit))" : reading.measured
            parts.append("\(reading.label): \(shown)")
        }
        if parts.isEmpty { return test.passed ? "—" : "Failed by the technician (manual result)" }
        return parts.joined(separator: "; ")
    }

    /// The test's certificate as an HTML page: its printed document (`document`), which the PDF draws too.
    public static func render(_ entry: Entry) -> String { HTMLDocument.render(document(entry)) }

    /// The test as a printed document (the PDF's): the same 16 fields as the page, made by the same
    /// `fieldValues`, the readings against their limits, and who tested it. Everything comes from the test, so a
    /// reissue is the same document.
    public static func document(_ entry: Entry) -> PrintedDocument {
        let test = entry.test, v = test.values, asset = entry.asset
        let procedure: RichText = v.procedureReference.isEmpty ? "" : " (procedure: \(data: v.procedureReference))"
        var blocks: [PrintedDocument.Block] = [
            .heading("Electrical test certificate", level: 1),
            .paragraph("In-service safety inspection and testing of electrical equipment, AS/NZS 3760" + procedure,
                       .small),
            .fields([.init("Equipment", .data(asset.tag)), .init("Result", resultBadge(test.passed)),
                     .init("Test", "#\(test.id) · \(test.testUUID.uuidString.lowercased())"),
                     .init("Retest by", "\(retest(entry))"), .init("Item", identity(asset)),
                     .init("Employer", entry.employer.map(Certificate.nameAndAddress) ?? .notRecorded)]
                    + (entry.site.map { [.init("Site", Certificate.nameAndAddress($0))] } ?? [])),
        ]
        if !test.passed { blocks.append(.paragraph(danger, .banner)) }
        let values = fieldValues(test, class: asset.electrical?.equipmentClass)
        blocks.append(.heading("The test (AS/NZS 3760)", level: 2))
        blocks.append(.fields(fields.map {
            .init("\($0.number)  \($0.label)", values[$0.number] ?? "—", data: [.init("item", "\($0.number)")])
        }))
        blocks.append(.heading("Readings against their limits", level: 2))
        let readings = readings(test)
        blocks.append(readings.isEmpty ? .paragraph("No reading was judged.", .plain) : .table(.init(
            columns: [.init("Reading", share: 3), .init("Measured", share: 2), .init("Limit", share: 2),
                      .init("Verdict", share: 2)],
            rows: readings.map { .init(cells($0), data: [.init("outcome", $0.outcome)]) })))
        blocks.append(.heading("Tested by", level: 2))
        blocks.append(.fields(testedBy(test)))
        let hash = test.entryHash ?? Certificate.notRecorded
        blocks += Certificate.evidence("Test #\(test.id)", hash: hash, proof: entry.proof)
        return PrintedDocument(title: "Electrical test certificate #\(test.id) — \(asset.tag)", author: v.technician,
                               created: PrintedDocument.date(test.savedAt),
                               footer: "test #\(test.id) · \(asset.tag) · SHA-256 \(hash)", blocks: blocks)
    }

    /// The banner of a failed test's page.
    static let danger: RichText = "\(dangerOpening): this item failed its test and is to be tagged out of service "
        + "until a passing retest."
    static let dangerOpening = "DANGER — DO NOT USE"

    /// A reading's row of the table: its name, measured value, limit and verdict.
    private static func cells(_ reading: Reading) -> [RichText] {
        ["\(reading.label)", "\(reading.measured)", "\(reading.limit)", verdictBadge(reading.outcome)]
    }

    /// Who tested it and when it was saved, as "Tested by" prints it.
    private static func testedBy(_ test: StoredTest) -> [PrintedDocument.Field] {
        let v = test.values
        return [.init("Technician", .orNone(v.technician)), .init("Licence / competency", .orNone(v.licenceNumber)),
                .init("Saved", "\(test.savedAt) by \(RichText.orNone(test.operatorName))"),
                .init("Authenticated", v.authenticated ? "Yes, by the technician at save" : "No")]
    }

    /// What a test's page prints that the test alone decides, as the page's HTML, for `verify --certificate` to
    /// compare a page with, made again from the signed test: its result, the DANGER banner (exactly when it failed),
    /// a failed test's retest (before use), the 16 fields, each reading against its limit, and who tested it. Not
    /// the equipment, its identity, a passed test's retest date, employer or site (the asset as the register holds
    /// it now), nor the test's number (the register's row): the test carries none of them. Items 10 and 11 print a
    /// reading, or that it does not apply to the asset's class, which is the asset's too: there the page may print
    /// what the test prints beside any class.
    public static func cellsFromTheTest(_ test: StoredTest) -> [Certificate.PrintedCell] {
        let own = fieldValues(test, class: nil)
        let byClass = ElectricalClass.allCases.map { fieldValues(test, class: $0) }
        var printed = [Certificate.PrintedCell(row: "Result", html: resultBadge(test.passed).html),
                       .init(row: dangerOpening, html: test.passed ? "" : danger.html, place: .banner)]
        if !test.passed {
            printed.append(.init(row: "Retest by", name: "the retest", html: Certificate.text(failedRetest)))
        }
        for field in fields {
            let html = (own[field.number] ?? "—").html
            var others: [String] = []
            for values in byClass {
                let other = (values[field.number] ?? "—").html
                if other != html && !others.contains(other) { others.append(other) }
            }
            printed.append(.init(row: "\(field.number)", name: "item \(field.number) (\(field.label))", html: html,
                                 alternatives: others))
        }
        let columns = ["the measured value of", "the limit of", "the verdict on"]
        for reading in readings(test) {
            for (column, (what, cell)) in zip(columns, cells(reading).dropFirst()).enumerated() {
                printed.append(.init(row: reading.label, column: column, name: "\(what) \(reading.label)",
                                     html: cell.html))
            }
        }
        return printed + testedBy(test).map { .init(row: $0.label, html: $0.value.html) }
    }

    /// Each of the 16 fields' values, by number: as HTML for the page and as text for the PDF, made once. Only
    /// items 10 and 11 read the asset: its class `cls` (nil: a reading applies).
    static func fieldValues(_ test: StoredTest, class cls: ElectricalClass?) -> [Int: RichText] {
        let v = test.values
        func reading(_ text: String, _ unit: String, applies: Bool = true) -> RichText {
            if !applies { return "Not applicable to \(cls?.label ?? "this item")" }
            return text.isEmpty ? "Not measured" : "\(text) \(unit)"
        }
        var values: [Int: RichText] = [:]
        values[1] = "\(v.testType.label)"
        values[2] = "\(v.testDate)"
        values[3] = .orNone(v.technician)
        values[4] = .orNone(v.licenceNumber)
        values[5] = .orNone(v.instrumentModel)
        values[6] = .orNone(v.instrumentSerial)
        values[7] = .orNone(v.procedureReference)
        values[8] = v.calibrationDate.isEmpty ? "Not recorded"
            : "\(v.calibrationDate)" + (v.calibrationAcknowledged
                ? " " + .aside("(over 12 months before the test; noted by the technician)") : "")
        values[9] = v.visual.map { "\($0.label)" } ?? "—"
        values[10] = reading(v.earthContinuityOhm, "Ω", applies: cls?.needsEarthContinuity ?? true)
        var insulation = reading(v.insulationMOhm, "MΩ", applies: !(cls?.isRCD ?? false))
        if !v.leakageMA.isEmpty { insulation += "; leakage current \(v.leakageMA) mA in its place" }
        values[11] = insulation
        values[12] = v.loadCurrentA.isEmpty ? "Not measured" : "\(v.loadCurrentA) A"
        values[13] = v.attachments.isEmpty ? "None" : v.attachments.enumerated().reduce(RichText("")) { all, next in
            let a = next.element
            return all + (next.offset > 0 ? RichText.lineBreak : "")
                + "\(data: a.name) " + .aside("(\(a.size) bytes, SHA-256 \(String(a.sha256.prefix(12)))…)")
        }
        values[14] = v.notes.isEmpty ? "None" : .lines(v.notes)
        let how = v.result == .automatic ? "from the readings" : "chosen by the technician"
        values[15] = resultBadge(test.passed) + " " + .aside("(\(how))")
        values[16] = v.authenticated ? "Yes" : "No"
        return values
    }

    private static func identity(_ asset: Asset) -> RichText {
        var out: RichText = "\(data: asset.tag): \(data: asset.name)"
        if let e = asset.electrical {
            out += "\(RichText.lineBreak)\(e.equipmentClass.label) · \(e.environment.label) · risk \(e.risk.rawValue)"
                + " · tested every \(asset.intervalMonths) months"
        }
        return out
    }

    private static let failedRetest = "Before use: the item failed"

    /// The retest date: the test date plus the asset's interval; none for a failed item (retest before use).
    private static func retest(_ entry: Entry) -> String {
        guard entry.test.passed else { return failedRetest }
        guard let date = CalendarDate(iso: entry.test.values.testDate) else { return "—" }
        return date.addingMonths(entry.asset.intervalMonths).iso
    }

    private static func resultBadge(_ passed: Bool) -> RichText {
        passed ? RichText(html: "<span class=\"res res-pass\">PASS</span>", plain: "PASS")
            : RichText(html: "<span class=\"res res-fail\">FAIL</span>", plain: "FAIL")
    }

    /// A verdict in words, as the page's badge says it.
    private static func verdictText(_ outcome: String) -> String {
        switch outcome {
        case "pass": "Pass"
        case "fail": "Fail"
        case "missing": "Not measured (required)"
        default: "Not taken"
        }
    }

    private static func verdictBadge(_ outcome: String) -> RichText {
        let text = verdictText(outcome)
        return switch outcome {
        case "pass": RichText(html: "<span class=\"res res-pass\">\(text)</span>", plain: text)
        case "fail", "missing": RichText(html: "<span class=\"res res-fail\">\(text)</span>", plain: text)
        default: "\(text)"
        }
    }
}
