import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

/// `Fixtures/4a701dc/` is a data home written by the build at commit 4a701dc, the last before the form-engine
/// refactor (its README says how): a 31-asset register and, left by `kill -9`, an inspection draft whose last
/// edit lives only in its keystroke journal, a batch draft of three chain slings and an electrical test's
/// draft. Formats only ever grow, so what that build wrote must still open, list and recover here with
/// every value as it was typed; a key renamed or dropped since would show up as an unknown key or a lost value.
@Suite("A register and drafts written by the build at 4a701dc")
struct OlderBuildFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/4a701dc/Documents")

    static let inspectionID = "inspection-d07d1fa3-38e8-2549-be0f-9728199bb741"
    static let batchID = "batch-0e0c78f0-d869-4b61-8fc3-18bf23c9d214"
    static let testID = "test-99bc9175-b942-458b-bd64-3689d67baf0c"
    /// The head `rigbook verify` printed on that build, after the last asset was added.
    static let headBefore = "233ff6f88610491c968449e520ff84c8420702470cc0c4aa27bc7a26e22ba392"

    static let notesInFile = "Pin thread worn on one side; re-check at next visit.\nMade by the build at 4a701dc."
    /// The notes after the edit typed just before the kill, which reached the journal but not the draft file.
    static let notesWithJournal = notesInFile + " Journal tail."

    /// After the drafts were written and within the 30 days' retention, whatever day the test runs: a fixed
    /// instant, so start-up's housekeeping never purges them for their age.
    static let now = Timestamp.parse("2026-12-07T12:00:00.000Z")!

    /// A copy of the fixture as a data home in `folder`: the register migrates when opened, so the checked-in
    /// files are never opened in place.
    private func home(in folder: URL) throws -> DataHome {
        let home = DataHome(root: folder.appendingPathComponent("home").path)
        try FileManager.default.createDirectory(atPath: home.root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: OlderBuildFixtureTests.fixture.path, toPath: home.documents)
        return home
    }

    @Test("the register opens, brought up to date by this build's migrations, lists its 31 assets and verifies")
    func registerOpensListsAndVerifies() throws {
        try withTemporaryDirectory { folder in
            let home = try home(in: folder)
            let before = try Database(path: home.registerPath, mode: .readOnly)
            let oldMigrations = try RegisterSchema.appliedNames(before)
            #expect(oldMigrations.contains("014-no-hash-indexes-on-records-and-notices"))

            #expect(Register.willBeBroughtUpToDate(path: home.registerPath), "this build has migrations to add")
            let register = try Register.open(path: home.registerPath)
            #expect(!Register.willBeBroughtUpToDate(path: home.registerPath))
            let applied = try RegisterSchema.appliedNames(register.db)
            #expect(applied.isSuperset(of: oldMigrations) && applied.count > oldMigrations.count, "\(applied)")

            let rows = try register.rows()
            #expect(rows.count == 31, "30 sample assets and the electrical one")
            let tags = Set(rows.map(\.asset.tag))
            #expect(tags.isSuperset(of: ["SH-0021", "CS-0004", "CS-0010", "CS-0016", "EL-0001"]), "\(tags.sorted())")
            #expect(try register.db.scalar("SELECT count(*) FROM inspections") == .integer(138))

            let verification = try register.verifyChain(expectedHead: OlderBuildFixtureTests.headBefore)
            #expect(verification.problems.isEmpty, "\(verification.problems)")
            #expect(verification.entries == 179, "the entries that build chained, no more, no fewer: \(verification)")
        }
    }

    @Test("the inspection draft recovers with what was typed, the edit its journal alone kept included")
    func inspectionDraftRecovers() throws {
        try withTemporaryDirectory { folder in
            let store = DraftStore(home: try home(in: folder))
            let inFile = try #require(try store.readFileOnly(id: OlderBuildFixtureTests.inspectionID))
            #expect(inFile.values.notes == OlderBuildFixtureTests.notesInFile)

            let draft = try #require(try store.read(id: OlderBuildFixtureTests.inspectionID))
            #expect(draft.formKind == DraftFile.formKind && !draft.isAmendment)
            #expect(draft.assetTag == "SH-0021")
            #expect(draft.values.inspectorName == "Zoë Ferreira")
            #expect(draft.values.certificationNumber == "LEEA-4A7-0001")
            #expect(draft.values.inspectionType == .thoroughPeriodic)
            #expect(draft.values.checkMarking && !draft.values.checkCuts)
            #expect(draft.values.result == .pass)
            #expect(draft.values.notes == OlderBuildFixtureTests.notesWithJournal)
            #expect(draft.values.inspectionDate == "2026-12-07")
            #expect(draft.focusedField == "notes")
            #expect(draft.unknownKeys.isEmpty, "every key that build wrote is still read: \(draft.unknownKeys)")
        }
    }

    @Test("the batch draft recovers its three assets and the values typed for them")
    func batchDraftRecovers() throws {
        try withTemporaryDirectory { folder in
            let store = DraftStore(home: try home(in: folder))
            let draft = try #require(try store.readBatch(id: OlderBuildFixtureTests.batchID))
            #expect(draft.assets.map(\.assetTag) == ["CS-0004", "CS-0010", "CS-0016"])
            #expect(draft.values.inspectorName == "Ahmed Okafor")
            #expect(draft.values.certificationNumber == "LEEA-4A7-0002")
            let v = draft.values
            #expect(v.checkMarking && v.checkCuts && v.checkDeformation && v.checkFittings && v.checkCorrosion)
            #expect(v.result == .pass)
            #expect(v.notes == "Three chain slings from the Yard van, all tags legible.")
            #expect(draft.focusedField == "notes")
            #expect(draft.unknownKeys.isEmpty, "every key that build wrote is still read: \(draft.unknownKeys)")
        }
    }

    @Test("the electrical test's draft recovers every reading and particular as typed")
    func testDraftRecovers() throws {
        try withTemporaryDirectory { folder in
            let store = DraftStore(home: try home(in: folder))
            let draft = try #require(try store.read(id: OlderBuildFixtureTests.testID))
            #expect(draft.isTest && draft.assetTag == "EL-0001")
            let v = try #require(draft.testValues)
            #expect(v.technician == "Priya Natarajan")
            #expect(v.licenceNumber == "EL-LIC-4A7")
            #expect(v.instrumentModel == "Fluke 6500-2")
            #expect(v.instrumentSerial == "FX-4A7-01")
            #expect(v.procedureReference == "AS/NZS 3760:2022")
            #expect(v.calibrationDate == "2026-09-01")
            #expect(v.testType == .periodic && v.testDate == "2026-12-07")
            #expect(v.visual == .pass)
            #expect(v.earthContinuityOhm == "0.42" && v.insulationMOhm == "250" && v.leakageMA.isEmpty)
            #expect(v.result == .automatic && !v.authenticated)
            #expect(v.notes == "Cord strain relief re-seated before the test.")
            #expect(draft.focusedField == "notes")
            #expect(draft.unknownKeys.isEmpty, "every key that build wrote is still read: \(draft.unknownKeys)")
        }
    }

    @Test("all three are listed, and start-up's housekeeping keeps them, folding the journal's edit into its draft")
    func draftsListAndSurviveHousekeeping() throws {
        try withTemporaryDirectory { folder in
            let home = try home(in: folder)
            let store = DraftStore(home: home)
            let single = store.entries()
            #expect(single.setAside.isEmpty, "\(single.setAside)")
            #expect(Set(single.drafts.map(\.draft.draftID))
                    == [OlderBuildFixtureTests.inspectionID, OlderBuildFixtureTests.testID])
            let batches = store.batchEntries()
            #expect(batches.setAside.isEmpty, "\(batches.setAside)")
            #expect(batches.drafts.map(\.draft.draftID) == [OlderBuildFixtureTests.batchID])
            #expect(store.anyIDs(startingWith: "").count == 3)

            let register = try Register.open(path: home.registerPath)
            let report = store.housekeeping(register: register, retentionDays: 30, now: OlderBuildFixtureTests.now)
            #expect(report.setAside.isEmpty, "\(report.setAside)")
            #expect(report.alreadySaved.isEmpty && report.expired.isEmpty, "\(report)")
            #expect(report.journalsFolded == [OlderBuildFixtureTests.inspectionID], "the test's journal was empty")

            let left = try FileManager.default.contentsOfDirectory(atPath: home.draftsFolder)
            #expect(!left.contains { $0.hasSuffix(".journal") }, "\(left.sorted())")
            let folded = try #require(try store.readFileOnly(id: OlderBuildFixtureTests.inspectionID))
            #expect(folded.values.notes == OlderBuildFixtureTests.notesWithJournal)
            #expect(folded.values.inspectorName == "Zoë Ferreira")
            #expect(try store.read(id: OlderBuildFixtureTests.testID)?.testValues?.technician == "Priya Natarajan")
            #expect(try store.readBatch(id: OlderBuildFixtureTests.batchID)?.values.inspectorName == "Ahmed Okafor")
        }
    }
}
