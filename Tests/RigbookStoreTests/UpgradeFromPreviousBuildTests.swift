import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

/// `Fixtures/register-before-particulars.sqlite` was made by the build before report particulars (commit
/// f3a1308, `RIGBOOK_TODAY=2026-11-30 rigbook sample --assets 40`): migrations 001–005, 40 assets, 189
/// records, its chain's head below. Opening it must upgrade it in place and rewrite nothing.
@Suite("A register made by the build before report particulars")
struct UpgradeFromPreviousBuildTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/register-before-particulars.sqlite")
    static let headBefore = "4a53ddb87f15e2c8216e7798e9a2f9c9e6ec2133ce45cf4bf628faa894217fcc"

    /// A copy of the fixture in a temporary folder, as that build left it.
    private func copy(in folder: URL) throws -> String {
        let path = registerPath(in: folder)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: UpgradeFromPreviousBuildTests.fixture.path, toPath: path)
        return path
    }

    @Test("it upgrades in place: every old row as it was, the old head still in the chain, the same due dates")
    func upgradesInPlace() throws {
        try withTemporaryDirectory { folder in
            let path = try copy(in: folder)
            let before = try Database(path: path, mode: .readOnly)
            let ids = try (1...189).map(Int64.init)
            let oldRows = try ids.map { try rawInspectionRow(before, id: $0) }
            #expect(oldRows.allSatisfy { !$0.isEmpty })
            var oldDue: [String: String] = [:]
            let due = try before.prepare("SELECT tag, coalesce(next_due, '') FROM assets")
            while try due.step() { oldDue[due.text(0)] = due.text(1) }
            #expect(try before.scalar("SELECT head_hash FROM register_chain")
                    == .text(UpgradeFromPreviousBuildTests.headBefore))

            #expect(Register.willBeBroughtUpToDate(path: path), "the program announces the one-time upgrade")
            let register = try Register.open(path: path)
            #expect(!Register.willBeBroughtUpToDate(path: path), "and only once")
            #expect(!Register.willBeBroughtUpToDate(path: path + "-missing"))
            #expect(try RegisterSchema.appliedNames(register.db).contains("006-report-particulars-and-notices"))
            for (index, id) in ids.enumerated() {
                let row = try rawInspectionRow(register.db, id: id)
                #expect(row.prefix(oldRows[index].count) == oldRows[index][...], "record #\(id) was rewritten")
                #expect(row.dropFirst(oldRows[index].count).allSatisfy { $0 == "NULL" }, "record #\(id): \(row)")
            }
            let verification = try register.verifyChain(expectedHead: UpgradeFromPreviousBuildTests.headBefore)
            #expect(verification.problem == nil, "\(verification)")
            #expect(verification.entries == 229 + 2, "the old entries and the register's first employer and site")

            // Old records: no particulars, so a report says "not recorded"; their due dates stand.
            for row in try register.rows() {
                let history = try register.history(assetUUID: row.asset.uuid)
                #expect(history.allSatisfy { $0.particulars == nil && $0.values.nextExaminationBy.isEmpty })
                let status = row.status(on: testTodayOfFixture)
                #expect(status.nextDue?.iso ?? "" == oldDue[row.asset.tag], "\(row.asset.tag)")
            }
            let particulars = try register.particulars()
            #expect(particulars.employers[Particulars.mainEmployerUUID]?.name == "Main employer")
            #expect(particulars.sites[Particulars.mainSiteUUID]?.name == "Main site")
        }
    }

    @Test("after the upgrade a thorough examination needs the particulars, then saves and chains on")
    func newRecordsAfterUpgrade() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: try copy(in: folder))
            let row = try #require(try register.rows().first { $0.summary.lastThoroughDate != nil })
            let context = { try SaveGate.Context(asset: row.asset, today: testTodayOfFixture,
                                                 sessionID: "after-upgrade-\(UUID().uuidString)",
                                                 particulars: register.reportParticulars(assetUUID: row.asset.uuid,
                                                                                         examinerName: "Alan Hughes")) }
            let values = passingValues(on: "2026-11-30")
            let refused = SaveGate.problems(values, context: try context())
            #expect(refused.map(\.field) == [.inspectionType], "the main employer has no address yet: \(refused)")
            for change in TestParticulars.changes { try register.record(change) }
            let record = try SaveGate.validate(values, context: try context()).get()
            let id = try register.insert(record, saved: testStamp)
            let saved = try #require(try register.inspection(id: id))
            #expect(saved.particulars?.employer.name == "Test Quay Ltd")
            #expect(saved.particulars?.previousThoroughExamination == row.summary.lastThoroughDate?.iso)
            #expect(saved.reportNumber != nil)
            #expect(try register.verifyChain(expectedHead: UpgradeFromPreviousBuildTests.headBefore).problem == nil)
        }
    }
}

/// The day the fixture was made on.
private let testTodayOfFixture = CalendarDate(year: 2026, month: 11, day: 30)!
