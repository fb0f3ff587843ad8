import Foundation
import RigbookCore
import RigbookPDF
import RigbookStore
import RigbookUI

/// Certificates as PDF files on this machine: what P on a record or the history writes, drawn by `PDFRenderer` from
/// the record alone, into `Documents/Certificates` of the data home (private, like the home's other folders).
public enum CertificatePrinting {
    public static func folder(_ home: DataHome) -> String { home.documents + "/Certificates" }

    /// Writes the certificate of `printed` and returns its path; a visit whose records are on several sites gets
    /// one certificate a site (a visit's certificate is of one site: one client's reports never go to another).
    /// Each file is named for the asset and the record (`SL-0042-report-7F3A91C2-000123.pdf`) or the site and
    /// date, and created exclusively, with a counter on a clash (-2, -3, …): a reissue beside an earlier print
    /// keeps both.
    public static func write(_ printed: PrintedRecord, register: Register, home: DataHome) throws -> [String] {
        let folder = folder(home)
        try DataHome.makePrivateDirectory(folder)
        return try documents(printed, register: register).map { document, stem in
            let bytes = try PDFRenderer.render(document)
            let safe = fileName(stem)
            return try AtomicFile.createNew(in: folder, named: { $0 == 0 ? safe + ".pdf" : safe + "-\($0 + 1).pdf" }) {
                try $0.write(contentsOf: Data(bytes))
            }
        }
    }

    /// The documents `printed` names, each with the stem of its file's name.
    static func documents(_ printed: PrintedRecord, register: Register) throws -> [(PrintedDocument, String)] {
        switch printed {
        case .inspection(let uuid):
            guard let record = try register.inspection(uuid: uuid) else { throw Refusal("That record is gone.") }
            guard record.values.inspectionType.isThorough else {
                throw Refusal("Record #\(record.id) is a \(record.values.inspectionType.label.lowercased()): only a "
                              + "thorough examination has a report under LOLER regulation 10.")
            }
            let entry = try register.certificateEntry(for: record)
            return [(Certificate.document(entry), "\(entry.asset.tag)-report-\(record.reportNumber ?? "\(record.id)")")]
        case .test(let uuid):
            guard let test = try register.test(uuid: uuid) else { throw Refusal("That test is gone.") }
            let entry = try register.certificateEntry(for: test)
            return [(TestCertificate.document(entry), "\(entry.asset.tag)-test-\(test.id)")]
        case .visit(let uuid):
            let particulars = try register.particulars()
            // The site each record copied at save; the register's for its asset when it copied none.
            var bySite: [(site: Site, entries: [Certificate.Entry])] = []
            for record in try register.records(visit: uuid) {
                let entry = try register.certificateEntry(for: record)
                guard let site = record.particulars?.site ?? particulars.site(ofAsset: entry.asset.uuid) else {
                    throw Refusal("The site of \(entry.asset.tag) is not in the register.")
                }
                if let index = bySite.firstIndex(where: { $0.site.uuid == site.uuid }) {
                    bySite[index].entries.append(entry)
                } else {
                    bySite.append((site, [entry]))
                }
            }
            guard !bySite.isEmpty else { throw Refusal("That visit has no records.") }
            return bySite.map { site, entries in
                let dates = entries.compactMap { CalendarDate(iso: $0.record.values.inspectionDate) }.sorted()
                let from = dates.first ?? CalendarDate(iso: "1970-01-01")!, through = dates.last ?? from
                let visit = Certificate.Visit(site: site, employer: particulars.employers[site.employerUUID],
                                              from: from, through: through)
                return (Certificate.visitDocument(visit, entries: entries), "visit-\(site.name)-\(from.iso)")
            }
        }
    }

    /// A name any file system takes: letters, digits, `-`, `_` and `.` kept, anything else `_`.
    static func fileName(_ stem: String) -> String {
        String(stem.unicodeScalars.map { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        })
    }

    /// What cannot be printed, said to the person.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
