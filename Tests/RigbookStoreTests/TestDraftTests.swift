import Foundation
import Testing
import RigbookCore
import RigbookStore

/// Electrical test form drafts: `Drafts/test-<uuid>.json` with `form_kind: test`, read back whole, tidied at
/// start like an inspection's, and a draft of a kind this build does not know left where it is.
extension DraftStoreTests {
    static func electricalAsset() -> Asset {
        Asset.electrical(tag: "EL-0001", name: "Drill charger",
                         particulars: ElectricalParticulars(equipmentClass: .classI, environment: .factory),
                         commissioned: CalendarDate(iso: "2025-01-10"))
    }

    static func testDraft(_ asset: Asset, session: String, earth: String = "2.5") -> DraftFile {
        var values = TestValues(prefill: TestProfile(technician: "Ana Reyes"), today: CalendarDate(iso: "2026-11-30")!)
        values.earthContinuityOhm = earth
        return DraftFile(draftID: DraftIdentity.testDraftID(assetUUID: asset.uuid), sessionID: session,
                         assetUUID: asset.uuid.uuidString.lowercased(), assetTag: asset.tag, amends: nil,
                         values: InspectionValues(), createdAt: Timestamp.now(), updatedAt: Timestamp.now(),
                         operatorName: "Ana Reyes", revision: 1, focusedField: "earth_continuity").holding(values)
    }

    @Test func aTestDraftIsWrittenAndReadBackWhole() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let asset = DraftStoreTests.electricalAsset()
        let draft = DraftStoreTests.testDraft(asset, session: DraftIdentity.testSessionID(assetUUID: asset.uuid))
        try temp.store.write(draft)
        #expect(temp.names(in: temp.store.folder) == ["test-\(asset.uuid.uuidString.lowercased()).json"])
        let read = try #require(try temp.store.read(id: draft.draftID))
        #expect(read.isTest && read.testValues?.earthContinuityOhm == "2.5" && read.assetValues == nil)
        #expect(read == draft)
        let register = try temp.openRegister()
        try register.addAsset(asset)
        let report = temp.store.housekeeping(register: register, retentionDays: 30)
        #expect(report.isEmpty)
        #expect(try temp.store.read(id: draft.draftID) != nil)
    }

    @Test func aTestDraftAlreadySavedIsRemovedAtStart() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let asset = DraftStoreTests.electricalAsset()
        let register = try temp.openRegister()
        try register.addAsset(asset)
        let session = DraftIdentity.testSessionID(assetUUID: asset.uuid)
        var draft = DraftStoreTests.testDraft(asset, session: session, earth: "0.4")
        draft.testValues?.visual = .pass
        draft.testValues?.insulationMOhm = "50"
        draft.testValues?.authenticated = true
        try temp.store.write(draft)
        let context = TestGate.Context(assetUUID: asset.uuid, equipmentClass: .classI,
                                       today: CalendarDate(iso: "2026-11-30")!, sessionID: session)
        guard case .success(let test) = TestGate.validate(draft.testValues!, context) else {
            Issue.record("the gate refused the test")
            return
        }
        try register.insert(test: test)
        let report = temp.store.housekeeping(register: register, retentionDays: 30)
        #expect(report.alreadySaved == [draft.draftID])
        #expect(try temp.store.read(id: draft.draftID) == nil)
    }

    @Test func draftsOfAKindThisBuildDoesNotKnowAreNeverSetAside() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let asset = DraftStoreTests.electricalAsset()
        let register = try temp.openRegister()
        try register.addAsset(asset)
        try FileManager.default.createDirectory(atPath: temp.store.folder, withIntermediateDirectories: true)
        let uuid = asset.uuid.uuidString.lowercased()
        // A newer build's form kind, by its file name, with its journal; and one under a known name whose
        // `form_kind` is new.
        let foreign = "calibration-\(uuid).json"
        let body = #"{"schema_version":1,"draft_id":"x","form_kind":"calibration","values":{}}"#
        try Data(body.utf8).write(to: URL(fileURLWithPath: temp.store.folder + "/" + foreign))
        try Data(body.utf8).write(to: URL(fileURLWithPath: temp.store.folder + "/calibration-\(uuid).journal"))
        let known = "test-\(uuid).json"
        try Data(body.utf8).write(to: URL(fileURLWithPath: temp.store.folder + "/" + known))
        let report = temp.store.housekeeping(register: register, retentionDays: 30)
        #expect(report.setAside.isEmpty, "set aside: \(report.setAside.map(\.file))")
        #expect(temp.names(in: temp.store.folder).contains(foreign))
        #expect(temp.names(in: temp.store.folder).contains(known))
        #expect(temp.store.entries().setAside.isEmpty)
        // An older inspection draft without `form_kind` still reads as an inspection.
        let inspection = DraftFile(draftID: DraftIdentity.draftID(assetUUID: asset.uuid), sessionID: "s",
                                   assetUUID: uuid, assetTag: asset.tag, amends: nil, values: InspectionValues(),
                                   createdAt: Timestamp.now(), updatedAt: Timestamp.now(), operatorName: "x",
                                   revision: 1)
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(inspection))
                                  as? [String: Any])
        object["form_kind"] = nil
        try JSONSerialization.data(withJSONObject: object)
            .write(to: URL(fileURLWithPath: temp.store.path(for: inspection.draftID)))
        #expect(try temp.store.read(id: inspection.draftID)?.formKind == "inspection")
    }

    @Test func theTestProfileIsKeptBesideTheInspectorsAndReadsOldFilesAsEmpty() throws {
        let temp = TempHome()
        defer { temp.remove() }
        try FileManager.default.createDirectory(atPath: temp.root, withIntermediateDirectories: true)
        #expect(TestProfile.load(from: temp.home.testProfilePath) == TestProfile())
        let profile = TestProfile(technician: "Ana", licenceNumber: "TT-1", calibrationDate: "2026-06-01")
        try profile.save(to: temp.home.testProfilePath)
        try Profile(inspectorName: "Sam").save(to: temp.home.profilePath)
        #expect(TestProfile.load(from: temp.home.testProfilePath) == profile)
        let text = try String(contentsOfFile: temp.home.testProfilePath, encoding: .utf8)
        #expect(text.contains("\"licence_number\""))
    }
}
