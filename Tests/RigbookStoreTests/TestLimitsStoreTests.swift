import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// The test limits in the register: a version of the organisation's particulars, kept with history on the
/// hash chain; a register from before holds none and reads as the defaults; a saved test keeps its own.
@Suite("Test limits in the register")
struct TestLimitsStoreTests {
    @Test("a change of limits is a new version, with who and when; the chain verifies")
    func keptWithHistory() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            #expect(try register.particulars().organisation.testLimits == .defaults)
            var organisation = try register.particulars().organisation
            organisation.name = "Spark Test Ltd"
            #expect(try register.record(.organisation(organisation), stamp: SaveStamp(operatorName: "ana")))
            let stricter = ParticularsChange.organisation(organisation).setting(.earthContinuityMaxOhm, to: "0.5")
            #expect(try register.record(stricter, stamp: SaveStamp(operatorName: "ben")))
            #expect(try !register.record(stricter), "the same limits again add nothing")
            #expect(try register.particulars().organisation.testLimits.earthContinuityMaxOhm == 0.5)
            #expect(try register.particulars().organisation.name == "Spark Test Ltd")
            let history = try register.particularsHistory(subject: Particulars.organisationUUID)
            #expect(history.map { $0.change[.earthContinuityMaxOhm] } == ["1", "0.5"])
            #expect(history.map(\.operatorName) == ["ana", "ben"])
            #expect(history.allSatisfy { !$0.changedAt.isEmpty })
            #expect(try register.verifyChain().problem == nil)
            // Append-only: the version kept before stays, and the stored JSON says the limits by their keys.
            let contents = try register.db.withKept(
                "SELECT content FROM particulars WHERE subject_kind = 'organisation' ORDER BY changed_at", []) {
                    var texts: [String] = []
                    while try $0.step() { texts.append($0.text(0)) }
                    return texts
                }
            #expect(contents.count == 2)
            #expect(!contents[0].contains("test_limits"), "defaults are not written: \(contents[0])")
            #expect(contents[1].contains(#""earth_continuity_max_ohm":0.5"#))
        }
    }

    @Test("an absurd limit is refused by the register with a sentence, and nothing is appended")
    func refused() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let absurd = ParticularsChange.organisation(ExaminingOrganisation())
                .setting(.rcdTripMaxMsTypeII, to: "5000")
            #expect(throws: RegisterError.invalidParticulars([
                "The Type II RCD trip time limit must be at most 1000 ms: an RCD that takes over 1000 ms to trip "
                    + "does not protect a person."])) { try register.record(absurd) }
            #expect(try register.particularsHistory(subject: Particulars.organisationUUID).isEmpty)
        }
    }

    @Test("an organisation kept by an older build (JSON without limits) reads as the defaults")
    func olderOrganisationReadsAsDefaults() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            // What a build before limits were settings appended: the same chain, the JSON it wrote.
            try register.db.transaction {
                try HashChain.append(register.db, HashChain.particular, [
                    .text(UUID().uuidString), .text("organisation"), .text(Particulars.organisationUUID.uuidString),
                    .text(#"{"address":"1 Quay Road","colour_code":"au-quarters","name":"Old Ltd"}"#),
                    .text("2026-01-01T00:00:00Z"), .text("old build"),
                ])
            }
            let organisation = try register.particulars().organisation
            #expect(organisation.name == "Old Ltd")
            #expect(organisation.colourCode.rawValue == "au-quarters")
            #expect(organisation.testLimits == .defaults)
            #expect(try register.verifyChain().problem == nil)
        }
    }

    @Test("a saved test keeps the limits it was judged by, whatever the register says later")
    func testKeepsItsLimits() throws {
        try withRegister(holding: ElectricalAssetStoreTests.drill()) { register, drill in
            let strict = TestLimits.defaults.setting(.earthContinuityMaxOhm, to: "0.5")
            var v = TestValues(prefill: TestProfile(technician: "Ana Reyes"),
                               today: ElectricalTestStoreTests.today)
            v.testDate = "2026-11-20"
            v.visual = .pass
            v.earthContinuityOhm = "0.4"
            v.insulationMOhm = "50"
            v.authenticated = true
            let context = TestGate.Context(assetUUID: drill.uuid, equipmentClass: .classI,
                                           commissioned: drill.commissioned, today: ElectricalTestStoreTests.today,
                                           sessionID: DraftIdentity.testSessionID(assetUUID: drill.uuid),
                                           limits: strict)
            try register.insert(test: try TestGate.validate(v, context).get())
            let organisation = try register.particulars().organisation
            try register.record(ParticularsChange.organisation(organisation).setting(.earthContinuityMaxOhm, to: "2"))
            let test = try #require(try register.tests(assetUUID: drill.uuid).first)
            #expect(test.limits == strict)
            #expect(test.verdicts.first?.text == "0.4 within ≤ 0.5 Ω")
            #expect(try register.verifyChain().problem == nil)
        }
    }
}
