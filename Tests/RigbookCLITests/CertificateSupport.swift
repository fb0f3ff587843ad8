import Foundation
import Testing
// Records go into a test register the way the save path puts them there (SaveGate, then Register.insert),
// since no subcommand saves records; see ReportingCommandTests.
import RigbookCore
import RigbookStore
import RigbookTestSupport

/// A data home in a private temporary folder for the certificate and notices tests; `remove()` in a `defer`.
struct CertificateHome {
    let dir = TempDir("rigbook-certificate")
    var path: String { dir.sub("home") }
    var registerPath: String { DataHome(root: path).registerPath }
    func sub(_ name: String) -> String { dir.sub(name) }
    func remove() { dir.remove() }

    func run(_ args: [String], env: [String: String] = [:]) -> RunResult {
        runRigbookResult(args, home: path, env: env)
    }

    /// `asset add` (6-monthly, so a periodic examination is lawful for any type), failing the test unless it exits 0.
    func addAsset(_ tag: String, _ name: String, type: String = "web-sling", commissioned: String = "2025-01-10",
                  extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        let result = run(["asset", "add", "--tag", tag, "--name", name, "--type", type, "--wll", "2000",
                          "--interval", "6", "--commissioned", commissioned, "--manufacturer", "Acme Lifting",
                          "--serial", "SN-\(tag)", "--location", "Bay 4"] + extra)
        #expect(result.status == 0, "asset add \(tag): \(result)", sourceLocation: sourceLocation)
    }

    /// The register's particulars for a report (employer and site with addresses), and any given here.
    func recordParticulars(_ extra: [ParticularsChange] = []) throws {
        let register = try Register.open(path: registerPath)
        for change in TestParticulars.changes + extra { try register.record(change) }
    }

    /// Saves a record through the gate with the register's particulars in force, as the form does, and
    /// returns its id. `defectNotices` are the answers a defect asks for at save (none: employer not yet told);
    /// `amending`, the record it amends (the values then need their amendment reason). `signed`: by the examiner's
    /// key on this machine, as the form signs (one is made when there is none).
    @discardableResult
    func addRecord(_ tag: String, _ values: InspectionValues, defectNotices: DefectNotices? = nil,
                   amending: StoredInspection? = nil, signed: Bool = false,
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let register = try Register.open(path: registerPath)
        let row = try #require(try register.asset(tag: tag), "no asset \(tag)", sourceLocation: sourceLocation)
        let uuid = row.asset.uuid.uuidString.lowercased()
        let context = SaveGate.Context(asset: row.asset, today: try #require(CalendarDate(iso: fixedToday)),
                                       sessionID: "inspection-\(uuid):\(UUID().uuidString.lowercased())",
                                       amending: amending,
                                       particulars: try register.reportParticulars(assetUUID: row.asset.uuid,
                                                                                   examinerName: values.inspectorName))
        switch SaveGate.validate(values, context: context) {
        case .success(let record):
            let signer = signed ? try KeyRing(home: DataHome(root: path))
                .signer(for: values.inspectorName, register: register, passphrase: { _ in nil }) : nil
            return try register.signing(with: signer) {
                try register.insert(record, saved: SaveStamp(savedAt: "2026-11-30T09:00:00.000Z",
                                                             appVersion: "0.1.0", operatorName: "tester"),
                                    defectNotices: defectNotices)
            }
        case .failure(let failure):
            Issue.record("the save gate refused a test record for \(tag): \(failure.problems.map(\.message))",
                         sourceLocation: sourceLocation)
            throw failure
        }
    }

    /// A stored record, read back.
    func record(_ id: Int64, sourceLocation: SourceLocation = #_sourceLocation) throws -> StoredInspection {
        let register = try Register.openForReading(path: registerPath)
        return try #require(try register.inspection(id: id), "no record #\(id)", sourceLocation: sourceLocation)
    }
}

/// Inspection values the gate accepts, for the certificate tests.
enum CertificateValues {
    static func pass(on date: String, test: String = "") -> InspectionValues {
        InspectionValues(inspectionType: .thoroughPeriodic, inspectorName: "Jo Examiner", certificationNumber: "LEEA-1",
                         checkMarking: true, checkCuts: true, checkDeformation: true, checkFittings: true,
                         checkCorrosion: true, result: .pass, inspectionDate: date, confirmed: true,
                         testParticulars: test)
    }

    static func remedy(on date: String, deadline: String, defect: String = "Stitching cut at the label")
        -> InspectionValues {
        InspectionValues(inspectionType: .thoroughPeriodic, inspectorName: "Jo Examiner", certificationNumber: "LEEA-1",
                         checkMarking: true, checkCuts: false, checkDeformation: true, checkFittings: true,
                         checkCorrosion: true, result: .defectToBeRemedied, defectDescription: defect,
                         action: .repair, remedyDeadlineSet: true, remedyDeadline: deadline, inspectionDate: date,
                         confirmed: true, repairParticulars: "Restitch the label panel",
                         remedyParticulars: "Restitch by a competent person, then re-examine")
    }

    static func fail(on date: String, defect: String = "Hook throat opened 12 %") -> InspectionValues {
        InspectionValues(inspectionType: .thoroughPeriodic, inspectorName: "Jo Examiner", certificationNumber: "LEEA-1",
                         checkMarking: true, checkCuts: true, checkDeformation: false, checkFittings: true,
                         checkCorrosion: true, result: .failDangerous, defectDescription: defect,
                         action: .withdraw, inspectionDate: date, confirmed: true,
                         repairParticulars: "Replace the hook")
    }

    static func preUse(on date: String) -> InspectionValues {
        InspectionValues(inspectionType: .preUse, inspectorName: "Jo Examiner", checkMarking: true, checkCuts: true,
                         checkDeformation: true, checkFittings: true, checkCorrosion: true, result: .pass,
                         inspectionDate: date, confirmed: true)
    }
}

/// A register on 2026-11-30 with particulars: PASS-1 passed (proof-load tested) on 2026-11-20, REM-1 a defect
/// to be remedied and FAIL-1 a dangerous fail on 2026-11-20, PRE-1 only a pre-use check. Returns the ids.
struct VisitRegister {
    var pass: Int64
    var remedy: Int64
    var fail: Int64
    var preUse: Int64

    static func make(_ home: CertificateHome) throws -> VisitRegister {
        home.addAsset("PASS-1", "2 t web sling 3 m")
        home.addAsset("REM-1", "1 t round sling", type: "round-sling")
        home.addAsset("FAIL-1", "5 t hook", type: "hook")
        home.addAsset("PRE-1", "3 t shackle", type: "shackle")
        try home.recordParticulars()
        let pass = try home.addRecord("PASS-1", CertificateValues.pass(on: "2026-11-20",
                                                                      test: "Proof load 2.5 t, certificate PL-77"))
        let remedy = try home.addRecord("REM-1", CertificateValues.remedy(on: "2026-11-20", deadline: "2026-12-20"))
        let fail = try home.addRecord("FAIL-1", CertificateValues.fail(on: "2026-11-20"))
        let preUse = try home.addRecord("PRE-1", CertificateValues.preUse(on: "2026-11-21"))
        return VisitRegister(pass: pass, remedy: remedy, fail: fail, preUse: preUse)
    }
}

/// The item blocks of a certificate's HTML, by Schedule 1 item number, for each record in page order.
func certificateItems(_ html: String) -> [[String: String]] {
    html.components(separatedBy: "Report of thorough examination</h1>").dropFirst().map { article in
        var items: [String: String] = [:]
        for block in article.components(separatedBy: "<tr data-item=\"").dropFirst() {
            guard let quote = block.firstIndex(of: "\"") else { continue }
            items[String(block[..<quote])] = String(block[block.index(after: quote)...])
        }
        return items
    }
}
