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
        return proofs.map { proof in
            var problem = SignedRecord.problem(proof) ?? namedProblem(proof)
            if problem == nil, let page { problem = printedProblem(page, proof) }
            return Finding(recordUUID: proof.recordUUID, examiner: VisibleText.make(proof.examiner),
                           fingerprint: proof.fingerprint, shortFingerprint: proof.shortFingerprint, problem: problem)
        }
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

    /// Where the page prints its record other than the record says: the report made again from the signed record
    /// alone (`SignedRecord.inspection`), its report number and result, and every Schedule 1 item but the
    /// equipment's identity (item 3, the asset as the register holds it, which the record does not carry), compared
    /// with the page's own report of that record, markup and all.
    static func printedProblem(_ page: String, _ proof: RecordProof) -> String? {
        guard let fields = SignedRecord.fields(proof) else { return "the record it carries cannot be read" }
        guard fields["kind"] == "inspection" else { return nil }
        guard let record = SignedRecord.inspection(proof) else { return "the record it carries cannot be read" }
        guard let report = report(in: page, uuid: proof.recordUUID.lowercased()) else {
            return "the page prints no report of record \(proof.recordUUID.lowercased())"
        }
        // The hash and the key the page prints for the record are the proof's.
        for (what, value) in [("hash", proof.recordHash), ("key", proof.fingerprint)]
        where !report.contains("<code>\(value)</code>") {
            return "the page prints another \(what) for record \(proof.recordUUID.lowercased()) than its proof: "
                + "the page was edited"
        }
        let expected = Certificate.cellsFromTheRecord(record)
        for (label, html) in expected where cell(report, label) != html {
            let name = label.first?.isNumber == true ? "item \(label)" : label.lowercased()
            let printed = cell(report, label).map(plainText) ?? "nothing"
            return "the page prints \(name) as \u{201C}\(printed)\u{201D} where the signed record says "
                + "\u{201C}\(plainText(html))\u{201D}: the page was edited"
        }
        return nil
    }

    /// The page's report of the record `uuid`: from its heading to the next report's.
    private static func report(in page: String, uuid: String) -> Substring? {
        guard let start = page.range(of: "id=\"record-\(uuid)\"") else { return nil }
        let rest = page[start.upperBound...]
        let end = rest.range(of: "id=\"record-")?.lowerBound ?? rest.endIndex
        return rest[..<end]
    }

    /// The value cell of the row whose label is `label` (a field's heading, or a Schedule 1 item's number).
    private static func cell(_ report: Substring, _ label: String) -> String? {
        let opening = label.first?.isNumber == true ? "<tr data-item=\"\(label)\"><th>" : "<tr><th>\(label)</th>"
        guard let row = report.range(of: opening) else { return nil }
        let rest = report[row.upperBound...]
        guard let td = rest.range(of: "<td"), let open = rest[td.upperBound...].range(of: ">"),
              let close = rest[open.upperBound...].range(of: "</td></tr>") else { return nil }
        return String(rest[open.upperBound..<close.lowerBound])
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
