import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// Electrical tests in the store: saved through the gate, chained, and counted for status.
@Suite("Electrical tests in the register")
struct ElectricalTestStoreTests {
    static let today = CalendarDate(year: 2026, month: 11, day: 30)!

    static func validated(_ asset: Asset, date: String, earth: String, notes: String = "") throws -> ValidatedTest {
        var v = TestValues(prefill: TestProfile(technician: "Ana Reyes"), today: today)
        v.testDate = date
        v.visual = .pass
        v.earthContinuityOhm = earth
        v.insulationMOhm = "50"
        v.notes = notes
        v.authenticated = true
        v.attachments = [RigbookCore.Attachment(sha256: String(repeating: "b", count: 64), name: "plug.jpg", size: 10)]
        let context = TestGate.Context(assetUUID: asset.uuid, equipmentClass: .classI, commissioned: asset.commissioned,
                                       today: today, sessionID: DraftIdentity.testSessionID(assetUUID: asset.uuid))
        return try TestGate.validate(v, context).get()
    }

    @Test("a failed test is DO NOT USE until a passing retest; the retest restarts the interval; the chain verifies")
    func statusFollowsTests() throws {
        try withRegister(holding: ElectricalAssetStoreTests.drill()) { register, drill in
            try register.insert(test: try Self.validated(drill, date: "2026-11-02", earth: "1.8", notes: "earth high"))
            var row = try #require(try register.asset(tag: "TT-0001"))
            #expect(row.status(on: Self.today).status == .doNotUse)
            try register.insert(test: try Self.validated(drill, date: "2026-11-20", earth: "0.3"))
            row = try #require(try register.asset(tag: "TT-0001"))
            let report = row.status(on: Self.today)
            #expect(report.status == .ok)
            #expect(report.nextDue == CalendarDate(iso: "2027-02-20"), "3 months for construction")
            let tests = try register.tests(assetUUID: drill.uuid)
            #expect(tests.map(\.passed) == [true, false], "newest first")
            #expect(tests[0].values.attachments.map(\.name) == ["plug.jpg"])
            #expect(tests[1].verdicts.first?.outcome == "fail")
            #expect(try register.verifyChain().problem == nil)
        }
    }

    @Test("a test session saves once; tests are never updated or deleted")
    func evidenceRules() throws {
        try withRegister(holding: ElectricalAssetStoreTests.drill()) { register, drill in
            let test = try Self.validated(drill, date: "2026-11-20", earth: "0.3")
            try register.insert(test: test)
            #expect(try register.containsSession(id: test.sessionID))
            #expect(throws: RegisterError.self) { try register.insert(test: test) }
            #expect(throws: (any Error).self) { try register.db.execute("UPDATE electrical_tests SET result = 'fail'") }
            #expect(throws: (any Error).self) { try register.db.execute("DELETE FROM electrical_tests") }
        }
    }

    @Test("a test of an item retired since its form opened is refused under the write lock")
    func retiredMeanwhileIsRefused() throws {
        try withRegister(holding: ElectricalAssetStoreTests.drill()) { register, drill in
            let test = try Self.validated(drill, date: "2026-11-20", earth: "0.3")
            try register.retire(assetUUID: drill.uuid, as: .disposedOf, on: Self.today, reason: "binned",
                                stamp: SaveStamp(savedAt: "2026-11-30T09:00:00.000Z"))
            let refused = #expect(throws: RegisterError.self) { try register.insert(test: test) }
            #expect(refused?.description == "TT-0001 was retired (disposed of, 2026-11-30); nothing was saved.")
            #expect(try register.tests(assetUUID: drill.uuid).isEmpty)
        }
    }

    @Test("a test of lifting equipment is refused")
    func liftingRefused() throws {
        try withRegister(holding: makeAsset()) { register, sling in
            let test = try Self.validated(sling, date: "2026-11-20", earth: "0.3")
            #expect(throws: RegisterError.self) { try register.insert(test: test) }
        }
    }
}
