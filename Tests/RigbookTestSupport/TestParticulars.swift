import Foundation
import RigbookCore

/// Particulars complete enough for a report of thorough examination, for tests that save one.
public enum TestParticulars {
    public static let particulars: Particulars = {
        var p = Particulars.initial
        p.apply(.organisation(ExaminingOrganisation(name: "Test Examinations Ltd", address: "1 Test Street, Testby")))
        p.apply(.employer(Employer(uuid: Particulars.mainEmployerUUID, name: "Test Quay Ltd",
                                   address: "Quay Office, Harbour Road, Testport")))
        p.apply(.site(Site(uuid: Particulars.mainSiteUUID, employerUUID: Particulars.mainEmployerUUID,
                           name: "Main site", address: "Harbour Road, Testport")))
        return p
    }()

    /// The changes that give a new register these particulars.
    public static var changes: [ParticularsChange] { particulars.changes }

    /// What a report on `assetUUID` copies from them.
    public static func report(for assetUUID: UUID, examiner: String = "") -> ReportParticulars {
        particulars.report(assetUUID: assetUUID, examinerName: examiner)
    }
}
