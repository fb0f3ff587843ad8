import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

@Suite("Certificates: what the register is asked")
struct CertificateQueryTests {
    private static let oldAsset = "00000000-0000-4000-8000-000000000042"
    private static let dock = Site(uuid: UUID(uuidString: "00000000-0000-4000-8000-0000000000D0")!,
                                   employerUUID: Particulars.mainEmployerUUID, name: "Dock 2", address: "Dock Road")

    /// A register made by the first build (two records of OLD-1, without particulars), upgraded, given the
    /// test particulars and a second site.
    private func upgradedRegister(at path: String) throws -> Register {
        let db = try firstSchemaDatabase(at: path)
        try db.run("""
            INSERT INTO assets (tag, uuid, name, type, wll_kg, interval_months, lifts_persons, created_at)
            VALUES ('OLD-1', ?, '2 t web sling', 'web-sling', 2000, 6, 0, '2026-01-01T00:00:00.000Z')
            """, [.text(Self.oldAsset)])
        for (id, date) in [(1, "2026-02-01"), (2, "2026-03-01")] {
            try insertFirstSchemaRecord(db, FirstSchemaRecord(
                id: Int64(id), asset: Self.oldAsset, result: "pass", action: "none", date: date,
                inspector: "Ann Smith", operatorName: "ann", savedAt: "\(date)T10:00:00.000Z", wllKg: 2000,
                location: "Bay A"))
        }
        let register = try Register.open(path: path)
        for change in TestParticulars.changes + [.site(Self.dock)] { try register.record(change) }
        return register
    }

    private func save(_ register: Register, _ asset: Asset, _ values: InspectionValues,
                      amending: StoredInspection? = nil) throws -> StoredInspection {
        let context = SaveGate.Context(asset: asset, today: testToday, sessionID: "s-\(UUID().uuidString)",
                                       amending: amending,
                                       particulars: try register.reportParticulars(assetUUID: asset.uuid,
                                                                                   examinerName: values.inspectorName))
        let id = try register.insert(try SaveGate.validate(values, context: context).get(), saved: SaveStamp())
        return try #require(try register.inspection(id: id))
    }

    @Test("a visit finds the records that name the site, and for older ones the asset's site now")
    func bySite() throws {
        try withTemporaryDirectory { folder in
            let register = try upgradedRegister(at: registerPath(in: folder))
            let main = Particulars.mainSiteUUID
            let march = (day("2026-03-01"), testToday)
            // The older records carry no site: the asset's, in the particulars in force, stands in.
            #expect(try register.thoroughExaminations(atSite: main, from: march.0, through: march.1).map(\.id) == [2])
            #expect(try register.thoroughExaminations(atSite: main, from: day("2026-01-01"), through: testToday)
                .map(\.id) == [1, 2])

            let new = makeAsset(tag: "NEW-1", intervalMonths: 6)
            try register.addAsset(new)
            try register.record(.asset(AssetParticulars(assetUUID: new.uuid, siteUUID: Self.dock.uuid)))
            let atDock = try save(register, new, passingValues(on: "2026-03-10"))
            #expect(atDock.particulars?.site.uuid == Self.dock.uuid)
            #expect(try register.thoroughExaminations(atSite: Self.dock.uuid, from: march.0, through: march.1)
                .map(\.id) == [atDock.id])

            // Moving the assets: a record keeps the site it copied; an older one follows its asset.
            try register.record(.asset(AssetParticulars(assetUUID: new.uuid, siteUUID: main)))
            let oldUUID = try #require(UUID(uuidString: Self.oldAsset))
            try register.record(.asset(AssetParticulars(assetUUID: oldUUID, siteUUID: Self.dock.uuid)))
            #expect(try register.thoroughExaminations(atSite: Self.dock.uuid, from: march.0, through: march.1)
                .map(\.id) == [2, atDock.id])
            #expect(try register.thoroughExaminations(atSite: main, from: march.0, through: march.1).isEmpty)
        }
    }

    @Test("only thorough examinations that still count: not a pre-use check, not an amended record")
    func stillCounting() throws {
        try withTemporaryDirectory { folder in
            let register = try upgradedRegister(at: registerPath(in: folder))
            let asset = makeAsset(tag: "NEW-1", intervalMonths: 6)
            try register.addAsset(asset)
            let first = try save(register, asset, passingValues(on: "2026-03-10"))
            _ = try save(register, asset, passingValues(.preUse, on: "2026-03-11"))
            var corrected = passingValues(on: "2026-03-10")
            corrected.notes = "Label re-read"
            corrected.amendmentReason = "Notes left out"
            let amendment = try save(register, asset, corrected, amending: first)
            let found = try register.thoroughExaminations(atSite: Particulars.mainSiteUUID, from: day("2026-03-05"),
                                                          through: testToday)
            #expect(found.map(\.id) == [amendment.id])
        }
    }

    @Test("a record is found by its report number, whatever the letter case")
    func byReportNumber() throws {
        try withTemporaryDirectory { folder in
            let register = try upgradedRegister(at: registerPath(in: folder))
            let asset = makeAsset(tag: "NEW-1", intervalMonths: 6)
            try register.addAsset(asset)
            let record = try save(register, asset, passingValues(on: "2026-03-10"))
            let number = try #require(record.reportNumber)
            #expect(try register.inspection(reportNumber: number)?.id == record.id)
            #expect(try register.inspection(reportNumber: number.lowercased())?.id == record.id)
            #expect(try register.inspection(reportNumber: "00000000-000001") == nil)
        }
    }
}
