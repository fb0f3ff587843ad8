import Foundation
import Testing
// Tests go into a test register the way the test form will put them there (TestGate, then Register.insert):
// no subcommand saves a test.
import RigbookCore
import RigbookStore

/// Electrical assets and their tests in a `CertificateHome`, for the outward views' tests.
extension CertificateHome {
    /// `asset add --kind electrical`, failing the test unless it exits 0.
    func addElectrical(_ tag: String, _ name: String, class equipmentClass: String = "class-1",
                       environment: String = "construction", location: String = "North Quay",
                       commissioned: String = "2026-06-01", sourceLocation: SourceLocation = #_sourceLocation) {
        let result = run(["asset", "add", "--kind", "electrical", "--tag", tag, "--name", name,
                          "--class", equipmentClass, "--environment", environment, "--location", location,
                          "--commissioned", commissioned])
        #expect(result.status == 0, "asset add --kind electrical \(tag): \(result)", sourceLocation: sourceLocation)
    }

    /// Saves a test through the gate, as the test form does; returns its id. `signed`: by the technician's key on
    /// this machine, as the form signs (`keys new --examiner` made it; one is made when there is none).
    @discardableResult
    func addTest(_ tag: String, _ values: TestValues, signed: Bool = false,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let register = try Register.open(path: registerPath)
        let row = try #require(try register.asset(tag: tag), "no asset \(tag)", sourceLocation: sourceLocation)
        let electrical = try #require(row.asset.electrical, "\(tag) is not electrical", sourceLocation: sourceLocation)
        let context = TestGate.Context(assetUUID: row.asset.uuid, equipmentClass: electrical.equipmentClass,
                                       commissioned: row.asset.commissioned,
                                       today: try #require(CalendarDate(iso: fixedToday)),
                                       sessionID: DraftIdentity.testSessionID(assetUUID: row.asset.uuid))
        switch TestGate.validate(values, context) {
        case .success(let test):
            let signer = signed ? try KeyRing(home: DataHome(root: path))
                .signer(for: values.technician, register: register, passphrase: { _ in nil }) : nil
            return try register.signing(with: signer) {
                try register.insert(test: test, saved: SaveStamp(savedAt: "2026-11-30T09:00:00.000Z",
                                                                 appVersion: "0.1.0", operatorName: "tester"))
            }
        case .failure(let failure):
            Issue.record("the test gate refused a test for \(tag): \(failure.problems)", sourceLocation: sourceLocation)
            throw failure
        }
    }
}

/// Test values the gate accepts, by class.
enum ElectricalTests {
    static func base(_ date: String) -> TestValues {
        var v = TestValues()
        v.testType = .periodic
        v.testDate = date
        v.technician = "Ana Reyes"
        v.licenceNumber = "EL-204518"
        v.instrumentModel = "Seaward PrimeTest 250+"
        v.instrumentSerial = "PT-99812"
        v.procedureReference = "AS/NZS 3760:2022"
        v.calibrationDate = "2026-03-01"
        v.visual = .pass
        v.authenticated = true
        return v
    }

    /// A Class I item: earth continuity and insulation resistance.
    static func classI(_ date: String, earth: String = "0.3", insulation: String = "50", notes: String = "")
        -> TestValues {
        var v = base(date)
        v.earthContinuityOhm = earth
        v.insulationMOhm = insulation
        v.notes = notes
        return v
    }

    /// A cord or extension set: earth, insulation and polarity.
    static func lead(_ date: String, polarity: PassFail = .pass, notes: String = "") -> TestValues {
        var v = classI(date, notes: notes)
        v.polarity = polarity
        return v
    }

    /// A portable RCD: push-button and trip time.
    static func rcd(_ date: String, tripMs: String = "22", notes: String = "") -> TestValues {
        var v = base(date)
        v.rcdPushButton = .pass
        v.rcdTripTimeMs = tripMs
        v.notes = notes
        return v
    }
}

/// A register on 2026-11-30 with lifting equipment (VisitRegister's four) and electrical items:
/// TT-PASS (Class I) passed on 2026-11-20, TT-FAIL (extension set) failed polarity on 2026-11-21,
/// TT-OVER (Class I) never tested, commissioned 2026-06-01 (3-monthly: OVERDUE), TT-RCD passed 2026-11-10.
struct ElectricalRegister {
    var lifting: VisitRegister
    var pass: Int64
    var fail: Int64
    var rcd: Int64

    static let failNotes = "Polarity reversed at the socket end; lead cut in half and tagged out"

    static func make(_ home: CertificateHome) throws -> ElectricalRegister {
        let lifting = try VisitRegister.make(home)
        home.addElectrical("TT-PASS", "Makita drill")
        home.addElectrical("TT-FAIL", "Extension lead 15 m", class: "extension-set", environment: "factory")
        home.addElectrical("TT-OVER", "Angle grinder")
        home.addElectrical("TT-RCD", "Portable RCD", class: "portable-rcd", environment: "hire")
        let pass = try home.addTest("TT-PASS", ElectricalTests.classI("2026-11-20"))
        let fail = try home.addTest("TT-FAIL", ElectricalTests.lead("2026-11-21", polarity: .fail, notes: failNotes))
        let rcd = try home.addTest("TT-RCD", ElectricalTests.rcd("2026-11-10"))
        return ElectricalRegister(lifting: lifting, pass: pass, fail: fail, rcd: rcd)
    }
}

/// Fills the home `RIGBOOK_TRY_HOME` names (an empty folder) with the register above, to try the commands by hand:
/// `RIGBOOK_TRY_HOME=/tmp/ow-home swift test --filter ElectricalTrialHome`.
@Suite("Electrical trial home")
struct ElectricalTrialHome {
    @Test("fills RIGBOOK_TRY_HOME", .enabled(if: ProcessInfo.processInfo.environment["RIGBOOK_TRY_HOME"] != nil))
    func fill() throws {
        let target = try #require(ProcessInfo.processInfo.environment["RIGBOOK_TRY_HOME"])
        let home = CertificateHome()
        defer { home.remove() }
        _ = try ElectricalRegister.make(home)
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: home.path, toPath: target)
    }
}
