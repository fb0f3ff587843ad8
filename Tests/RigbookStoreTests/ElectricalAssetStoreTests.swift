import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// In the store, an electrical asset is kept, chained, changed and verified like any other.
@Suite("Electrical assets in the register")
struct ElectricalAssetStoreTests {
    static func drill() -> Asset {
        Asset.electrical(tag: "TT-0001", name: "Drill charger", site: "North Quay",
                         particulars: ElectricalParticulars(equipmentClass: .classI, environment: .construction),
                         commissioned: CalendarDate(iso: "2026-01-10"))
    }

    @Test("added, read back with its fields, edited with history, and the chain verifies")
    func roundTrip() throws {
        try withRegister(holding: Self.drill()) { register, drill in
            let row = try #require(try register.asset(tag: "TT-0001"))
            #expect(row.asset == drill)
            #expect(row.asset.wllKg == 0 && row.asset.kind == .electrical)
            var edited = row.asset
            edited.electrical?.environment = .nonHostile
            edited.intervalMonths = 60
            let changes = try register.change(assetUUID: drill.uuid, to: edited, reason: "moved to the office")
            #expect(changes.map(\.field) == [.intervalMonths, .environment])
            #expect(try register.asset(tag: "TT-0001")?.asset.electrical?.environment == .nonHostile)
            let verification = try register.verifyChain()
            #expect(verification.problem == nil, "\(verification)")
            // A lifting asset beside it keeps NULL in every electrical column (its hash as before).
            try register.addAsset(makeAsset())
            #expect(try register.db.scalar("SELECT count(*) FROM assets WHERE asset_kind IS NULL AND "
                                           + "equipment_class IS NULL") == .integer(1))
            #expect(try register.verifyChain().problem == nil)
        }
    }

    @Test("the schema still refuses a lifting asset without a WLL, and allows an electrical one")
    func wllCheck() throws {
        try withRegister(holding: Self.drill()) { register, _ in
            #expect(throws: (any Error).self) {
                try register.db.execute("UPDATE assets SET wll_kg = 0 WHERE asset_kind IS NULL")
                try register.db.execute("INSERT INTO assets (tag, uuid, name, type, wll_kg, interval_months, "
                                        + "lifts_persons, created_at) VALUES ('X', 'u', 'n', 'other', 0, 6, 0, 'now')")
            }
            let broken = try register.db.scalar("PRAGMA foreign_key_check")
            let foreignKeys = try register.db.scalar("PRAGMA foreign_keys")
            #expect(broken == nil)
            #expect(foreignKeys == .integer(1))
        }
    }

    @Test("a register of the build before upgrades: its assets and records as they were, the chain verifies")
    func upgrade() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: UpgradeFromPreviousBuildTests.fixture.path, toPath: path)
            let register = try Register.open(path: path)
            #expect(try RegisterSchema.appliedNames(register.db).contains("009-electrical-assets"))
            #expect(try register.verifyChain().problem == nil)
            #expect(try register.rows().allSatisfy { $0.asset.kind == .lifting })
            try register.addAsset(Self.drill())
            #expect(try register.verifyChain().problem == nil)
        }
    }
}
