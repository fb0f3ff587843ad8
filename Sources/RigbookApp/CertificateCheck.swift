import Foundation
import RigbookCore
import RigbookPDF
import RigbookStore

/// `rigbook verify --certificate FILE`: a certificate checked on any machine, without the register. Each signed record
/// it carries (a PDF's embedded `rigbook-proof-….json`, a page's `<script type="application/json">`) must hold by
/// itself (`SignedRecord.problem`: its bytes, its key, its signature), and a page's printed particulars must say what
/// the record it carries says.
public enum CertificateCheck {
    /// What the check found: each record's verdict, a line each.
    public struct Finding: Sendable, Equatable {
        public var recordUUID: String
        public var examiner: String
        public var fingerprint: String
        public var shortFingerprint: String
        /// Nil when the record holds.
        public var problem: String?
    }

    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    public static func check(_ bytes: [UInt8]) throws -> [Finding] {
        let isPDF = bytes.starts(with: Array("%PDF-".utf8))
        let page = isPDF ? nil : String(decoding: bytes, as: UTF8.self)
        let proofs: [RecordProof]
        if isPDF {
            let files: [EmbeddedFiles.File]
            do { files = try EmbeddedFiles.files(in: bytes) } catch {
                throw Refusal(description: "it is not a PDF that can be read (\(error.description))")
            }
            proofs = try files.filter { $0.name.hasPrefix("rigbook-proof-") }.map { file in
                guard let proof = RecordProof(json: String(decoding: file.bytes, as: UTF8.self)) else {
                    throw Refusal(description: "its proof \(file.name) cannot be read: it was damaged or altered")
                }
                return proof
            }
        } else {
            guard let page, page.contains("<html") else {
                throw Refusal(description: "it is neither a PDF nor an HTML page")
            }
            if let problem = markupProblem(page) { throw Refusal(description: problem) }
            proofs = try scripts(in: page).map { json in
                guard let proof = RecordProof(json: json) else {
                    throw Refusal(description: "a proof it carries cannot be read: it was damaged or altered")
                }
                return proof
            }
        }
        guard !proofs.isEmpty else {
            throw Refusal(description: "it carries no signed record: a certificate of records saved before keys, or "
                          + "not a Rigbook certificate")
        }
        var findings = proofs.map { proof in
            var problem = SignedRecord.problem(proof) ?? namedProblem(proof)
            if problem == nil, let page { problem = printedProblem(page, proof) }
            return Finding(recordUUID: proof.recordUUID, examiner: VisibleText.make(proof.examiner),
                           fingerprint: proof.fingerprint, shortFingerprint: proof.shortFingerprint, problem: problem)
        }
        // A visit's cover is the page's records' together: said once, by the first.
        if let page, findings.allSatisfy({ $0.problem == nil }), let problem = coverProblem(page, proofs) {
            findings[0].problem = problem
        }
        return findings
    }

    /// Markup Rigbook never prints in a certificate, which could hide what the page shows or show what it does not
    /// hold (a comment or a template around a genuine row with a forged one after it, a style that hides a banner,
    /// a script): the page is refused before its text is read.
    static func markupProblem(_ page: String) -> String? {
        let lowered = page.lowercased()
        let foreign = ["<!--": "an HTML comment", "<template": "a template", "<iframe": "a frame", "<frame": "a frame",
                       "<object": "an embedded object", "<embed": "an embedded object", "<link": "a linked file",
                       "<img": "an image", "<base": "a base address", "<form": "a form", "<input": "a form",
                       "<button": "a form", "<noscript": "a noscript block", "<svg": "a drawing",
                       "<math": "a formula", "<audio": "a sound", "<video": "a video", "<canvas": "a canvas",
                       "http-equiv": "a meta instruction"]
        for (markup, what) in foreign.sorted(by: { $0.key < $1.key }) where lowered.contains(markup) {
            return "it holds \(what) (\(markup)), which Rigbook never prints on a certificate: the page was edited"
        }
        let scripts = lowered.components(separatedBy: "<script").count - 1
        let proofs = page.components(separatedBy: "<script type=\"application/json\" id=\"rigbook-proof-").count - 1
        if scripts != proofs {
            return "it holds a script beside its proofs, which Rigbook never prints: the page was edited"
        }
        let styles = lowered.components(separatedBy: "<style").dropFirst()
        if styles.count != 1 {
            return "it holds \(styles.count) style sheets where Rigbook prints one: the page was edited"
        }
        if let open = page.range(of: "<style>"), let close = page[open.upperBound...].range(of: "</style>"),
           HTMLDocument.isOwnStyle(page[open.upperBound..<close.lowerBound]) {
        } else {
            return "its style sheet is not the one Rigbook prints (a style can hide or add text): the page was edited"
        }
        // The only inline style Rigbook writes is a table column's width.
        var rest = Substring(lowered)
        while let found = rest.range(of: "style=") {
            let before = rest[..<found.lowerBound].suffix(5)
            let after = rest[found.upperBound...]
            guard before == "<col ", after.hasPrefix("\"width: "),
                  let end = after.dropFirst().firstIndex(of: "\""),
                  after[after.index(after.startIndex, offsetBy: 8)..<end].allSatisfy({
                      $0.isNumber || $0 == "." || $0 == "%"
                  }) else {
                return "it holds an inline style, which Rigbook prints only for a column's width: the page was edited"
            }
            rest = after[end...]
        }
        return nil
    }

    /// Where the proof's name for the examiner is not the one in the record the examiner signed (the name is in
    /// the record: the proof's copy of it is not signed).
    static func namedProblem(_ proof: RecordProof) -> String? {
        guard let fields = SignedRecord.fields(proof) else { return "the record it carries cannot be read" }
        let signed = fields["kind"] == "electrical_test" ? fields["technician"] : fields["inspector_name"]
        guard let signed, signed != proof.examiner else { return nil }
        return "the proof names \(VisibleText.make(proof.examiner)) where the signed record names "
            + "\(VisibleText.make(signed)): the proof was altered"
    }

    /// The JSON of the page's `rigbook-proof` scripts.
    static func scripts(in page: String) -> [String] {
        page.components(separatedBy: "<script type=\"application/json\" id=\"rigbook-proof-").dropFirst().compactMap {
            guard let start = $0.range(of: ">"), let end = $0.range(of: "</script>"),
                  start.upperBound <= end.lowerBound else { return nil }
            return String($0[start.upperBound..<end.lowerBound])
        }
    }

    /// Where the page prints its record other than the record says: what the page prints from the record alone,
    /// made again from the signed record alone (`SignedRecord.inspection`, `SignedRecord.test`), compared with the
    /// page's own report of that record, markup and all. For an inspection, `Certificate.cellsFromTheRecord`: its
    /// report number, result and type, every Schedule 1 item but the equipment's identity (item 3, the asset as the
    /// register holds it, which the record does not carry), its amendment's banner and, on a visit's page, its row
    /// of the schedule; for a test, `TestCertificate.cellsFromTheTest`.
    static func printedProblem(_ page: String, _ proof: RecordProof) -> String? {
        let unreadable = "the record it carries cannot be read"
        guard let fields = SignedRecord.fields(proof) else { return unreadable }
        let uuid = proof.recordUUID.lowercased()
        let expected: [Certificate.PrintedCell]
        let found: Substring?
        switch fields["kind"] {
        case "inspection":
            guard let record = SignedRecord.inspection(proof) else { return unreadable }
            let visit = isVisit(page)
            expected = Certificate.cellsFromTheRecord(record).filter { $0.place != .schedule || visit }
            found = report(in: page, uuid: uuid)
        case "electrical_test":
            guard let test = SignedRecord.test(proof) else { return unreadable }
            expected = TestCertificate.cellsFromTheTest(test)
            // A test's certificate is a page of its own, one test: the whole page is its report.
            found = page[...]
        default: return nil
        }
        guard let report = found else { return "the page prints no report of record \(uuid)" }
        // The hash and the key the page prints for the record are the proof's.
        for (what, value) in [("hash", proof.recordHash), ("key", proof.fingerprint)]
        where !report.contains("<code>\(value)</code>") {
            return "the page prints another \(what) for record \(uuid) than its proof: the page was edited"
        }
        return difference(expected, report: report, cover: cover(of: page), says: "the signed record says")
            ?? extraProblem(expected, report: report, cover: cover(of: page),
                            ownItems: fields["kind"] == "inspection" ? ["3"] : [])
    }

    /// Where a visit's cover prints what its records decide together (`Certificate.cellsFromTheRecords`) other than
    /// they say. Only where every report on the page carries its signed record: one without cannot be made again.
    static func coverProblem(_ page: String, _ proofs: [RecordProof]) -> String? {
        guard isVisit(page) else { return nil }
        var records: [StoredInspection] = []
        for section in page.components(separatedBy: "id=\"record-").dropFirst() {
            let uuid = section.prefix { $0 != "\"" }
            guard let proof = proofs.first(where: { $0.recordUUID.lowercased() == uuid }),
                  let record = SignedRecord.inspection(proof) else { return nil }
            records.append(record)
        }
        return difference(Certificate.cellsFromTheRecords(records), report: cover(of: page), cover: cover(of: page),
                          says: "its signed records say")
    }

    /// The first of `cells` the page prints other than it should, said; nil when the page prints each as it should.
    /// A cell is looked for in `report` (the record's report), or in `cover` (a visit's, before the reports).
    private static func difference(_ cells: [Certificate.PrintedCell], report: Substring, cover: Substring,
                                   says: String) -> String? {
        for cell in cells {
            let due: String? = cell.place == .banner && cell.html.isEmpty ? nil : cell.html
            let printed: String?
            switch cell.place {
            case .banner: printed = banner(report, cell)
            case .report: printed = value(report, cell)
            case .schedule, .cover: printed = value(cover, cell)
            }
            if printed == due || printed.map(cell.alternatives.contains) == true { continue }
            let edited = ": the page was edited"
            switch (printed, due) {
            case (nil, let due?) where cell.place == .banner:
                return "the page leaves out \(cell.name), where \(says) \u{201C}\(shown(due, cell))\u{201D}" + edited
            case (_, nil):
                return "the page prints \(cell.name) where the signed record calls for none" + edited
            default:
                return "the page prints \(cell.name) as \u{201C}\(printed.map { shown($0, cell) } ?? "nothing")"
                    + "\u{201D} where \(says) \u{201C}\(shown(due ?? "", cell))\u{201D}" + edited
            }
        }
        return nil
    }

    /// What the page prints beside what the record decides, in the record's report: a row it decides printed twice
    /// (the first one genuine, the second forged), a numbered item the report has not (`ownItems`: those the
    /// register fills, item 3), or a banner that is neither the record's nor one the register prints.
    private static func extraProblem(_ cells: [Certificate.PrintedCell], report: Substring, cover: Substring,
                                     ownItems: Set<String>) -> String? {
        let edited = ": the page was edited"
        for cell in cells where cell.place != .banner && cell.column == 0 {
            if rows(cell.place == .report ? report : cover, cell).count > 1 {
                return "the page prints \(cell.name) twice" + edited
            }
        }
        let items = Set(cells.filter { $0.isItem && $0.place == .report }.map(\.row)).union(ownItems)
        for part in report.components(separatedBy: "<tr data-item=\"").dropFirst() {
            let item = String(part.prefix { $0 != "\"" })
            if !items.contains(item) { return "the page prints an item \(item) its report has not" + edited }
        }
        let openings = cells.filter { $0.place == .banner }.map(\.rowHTML) + Certificate.registerBannerOpenings
        for part in report.components(separatedBy: "<p class=\"banner").dropFirst() {
            guard let start = part.firstIndex(of: ">") else { continue }
            let text = part[part.index(after: start)...]
            if !openings.contains(where: { text.hasPrefix($0) }) {
                return "the page prints a banner the signed record does not: \u{201C}"
                    + plainText(String(text.prefix { $0 != "<" })) + "\u{201D}" + edited
            }
        }
        return nil
    }

    /// A cell's text as a finding quotes it: a banner's register number as "…".
    private static func shown(_ html: String, _ cell: Certificate.PrintedCell) -> String {
        let text = plainText(html)
        guard cell.place == .banner, cell.row.hasSuffix("#"), text.hasPrefix(cell.row) else { return text }
        return cell.row + "…" + text.dropFirst(cell.row.count)
    }

    /// The page's cover: all before its first report (nothing on a report's page).
    private static func cover(of page: String) -> Substring {
        page[..<(page.range(of: "id=\"record-")?.lowerBound ?? page.startIndex)]
    }

    /// Whether the page is a visit's, with a summary and a schedule: a report's page has nothing before its report.
    private static func isVisit(_ page: String) -> Bool { cover(of: page).contains("<tr") }

    /// The page's report of the record `uuid`: from its heading to the next report's.
    private static func report(in page: String, uuid: String) -> Substring? {
        guard let start = page.range(of: "id=\"record-\(uuid)\"") else { return nil }
        let rest = page[start.upperBound...]
        let end = rest.range(of: "id=\"record-")?.lowerBound ?? rest.endIndex
        return rest[..<end]
    }

    /// The cell `cell` names in `scope`, markup and all.
    private static func value(_ scope: Substring, _ cell: Certificate.PrintedCell) -> String? {
        cells(scope, cell).flatMap { cell.column < $0.count ? $0[cell.column] : nil }
    }

    /// The first boxed paragraph of `report` that opens with the banner `cell`'s opening, as HTML; after an opening
    /// that ends in "#", without the number there (the register's record number, which the record does not carry).
    private static func banner(_ report: Substring, _ cell: Certificate.PrintedCell) -> String? {
        let start = cell.rowHTML
        var rest = report
        while let open = rest.range(of: "<p class=\"banner"), let tag = rest[open.upperBound...].range(of: ">"),
              let close = rest[tag.upperBound...].range(of: "</p>") {
            let html = rest[tag.upperBound..<close.lowerBound]
            rest = rest[close.upperBound...]
            guard html.hasPrefix(start) else { continue }
            let after = html.dropFirst(start.count)
            return start + (cell.row.hasSuffix("#") ? after.drop { $0.isASCII && $0.isNumber } : after)
        }
        return nil
    }

    /// The value cells (those after its first) of the first row of `scope` that `cell` names: a numbered item's
    /// (`data-item`), a schedule's row of a record (`data-record`), or one whose first cell is its label (a field's
    /// heading, a reading's name in a table).
    private static func cells(_ scope: Substring, _ cell: Certificate.PrintedCell) -> [String]? {
        rows(scope, cell).first
    }

    /// The value cells of every row of `scope` that `cell` names.
    private static func rows(_ scope: Substring, _ cell: Certificate.PrintedCell) -> [[String]] {
        var found: [[String]] = []
        var rest = scope
        while let open = rest.range(of: "<tr"), let close = rest[open.upperBound...].range(of: "</tr>") {
            let row = rest[open.upperBound..<close.lowerBound]
            rest = rest[close.upperBound...]
            let contents = self.contents(row)
            let named = switch cell.place {
            case .schedule: row.hasPrefix(" data-record=\"\(cell.row)\"")
            default: cell.isItem ? row.hasPrefix(" data-item=\"\(cell.row)\">") : contents.first == cell.rowHTML
            }
            if named { found.append(Array(contents.dropFirst())) }
        }
        return found
    }

    /// What each `<th>` and `<td>` of a row holds, markup and all (a cell's data is escaped: no cell holds another).
    private static func contents(_ row: Substring) -> [String] {
        var found: [String] = []
        var rest = row
        while let open = rest.firstRange(of: /<t[hd][ >]/) {
            let name = rest[rest.index(after: open.lowerBound)..<rest.index(open.lowerBound, offsetBy: 3)]
            guard let start = rest[open.lowerBound...].range(of: ">"),
                  let end = rest[start.upperBound...].range(of: "</\(name)>") else { break }
            found.append(String(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// A cell's text as the page shows it: tags out, line breaks kept, entities read.
    private static func plainText(_ html: String) -> String {
        var text = html.replacingOccurrences(of: "<br>", with: "\n")
        while let open = text.range(of: "<"), let close = text[open.lowerBound...].range(of: ">") {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
