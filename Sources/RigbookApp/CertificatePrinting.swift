import Foundation
import RigbookCore
import RigbookPDF
import RigbookStore
import RigbookUI

/// Certificates as PDF files on this machine: what P on a record or the history writes, drawn by `PDFRenderer` from
/// the record alone, into `Documents/Certificates` of the data home (private, like the home's other folders).
public enum CertificatePrinting {
    public static func folder(_ home: DataHome) -> String { home.documents + "/Certificates" }

    /// Writes the certificate of `printed` and returns its path. The file is named for the asset and the record
    /// (`SL-0042-report-7F3A91C2-000123.pdf`) and created exclusively, with a counter on a clash (-2, -3, …):
    /// a reissue beside an earlier print keeps both.
    public static func write(_ printed: PrintedRecord, register: Register, home: DataHome) throws -> String {
        let document: PrintedDocument, stem: String
        switch printed {
        case .inspection(let uuid):
            guard let record = try register.inspection(uuid: uuid) else { throw Refusal("That record is gone.") }
            guard record.values.inspectionType.isThorough else {
                throw Refusal("Record #\(record.id) is a \(record.values.inspectionType.label.lowercased()): only a "
                              + "thorough examination has a report under LOLER regulation 10.")
            }
            let entry = try register.certificateEntry(for: record)
            document = Certificate.document(entry)
            stem = "\(entry.asset.tag)-report-\(record.reportNumber ?? "\(record.id)")"
        case .test(let uuid):
            var found: StoredTest?
            try register.forEachTest { if $0.testUUID == uuid { found = $0 } }
            guard let test = found else { throw Refusal("That test is gone.") }
            let entry = try register.certificateEntry(for: test)
            document = TestCertificate.document(entry)
            stem = "\(entry.asset.tag)-test-\(test.id)"
        case .visit(let uuid):
            let entries = try register.records(visit: uuid).map { try register.certificateEntry(for: $0) }
            let dates = entries.compactMap { CalendarDate(iso: $0.record.values.inspectionDate) }.sorted()
            guard let from = dates.first, let through = dates.last else { throw Refusal("That visit has no records.") }
            let particulars = try register.particulars()
            // The site the records copied at save; the register's for the first asset when they copied none.
            guard let site = entries.lazy.compactMap({ $0.record.particulars?.site }).first
                    ?? particulars.site(ofAsset: entries[0].asset.uuid) else {
                throw Refusal("The visit's site is not in the register.")
            }
            let visit = Certificate.Visit(site: site, employer: particulars.employers[site.employerUUID], from: from,
                                          through: through)
            document = Certificate.visitDocument(visit, entries: entries)
            stem = "visit-\(site.name)-\(from.iso)"
        }
        let bytes = try PDFRenderer.render(document)
        let folder = folder(home)
        try DataHome.makePrivateDirectory(folder)
        let safe = fileName(stem)
        return try AtomicFile.createNew(in: folder, named: { $0 == 0 ? safe + ".pdf" : safe + "-\($0 + 1).pdf" }) {
            try $0.write(Data(bytes))
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
