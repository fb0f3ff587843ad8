import Foundation
import RigbookCore

/// Electrical tests in the register: the only write path takes the gate's `ValidatedTest`;
/// a test folds into the asset's summary as a thorough examination of its kind.
enum TestColumns {
    static let written = [
        "test_uuid", "asset_uuid", "draft_id", "test_type", "test_date", "technician", "licence_number",
        "instrument_model", "instrument_serial", "procedure_reference", "calibration_date",
        "calibration_acknowledged", "visual", "earth_continuity_ohm", "insulation_mohm", "load_current_a",
        "leakage_ma", "polarity", "rcd_type", "rcd_push_button", "rcd_trip_time_ms", "attachments", "notes",
        "result_choice", "result", "verdicts", "limits", "authenticated", "saved_at", "app_version", "operator",
    ]

    static let select = "id, " + written.joined(separator: ", ") + ", entry_hash"

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func values(_ t: ValidatedTest, testUUID: UUID, asset: Asset, saved: SaveStamp) throws -> [SQLValue] {
        let v = t.values
        let cls = asset.electrical?.equipmentClass ?? .other
        return [
            .text(testUUID.text), .text(t.assetUUID.text), .text(t.sessionID), .text(v.testType.rawValue),
            .text(t.testDate.iso), .text(v.technician), .text(v.licenceNumber), .text(v.instrumentModel),
            .text(v.instrumentSerial), .text(v.procedureReference), .text(v.calibrationDate),
            .bool(v.calibrationAcknowledged), .word(v.visual), .text(v.earthContinuityOhm), .text(v.insulationMOhm),
            .text(v.loadCurrentA), .text(v.leakageMA), cls.needsPolarity ? .word(v.polarity) : .null,
            cls.isRCD ? .word(v.rcdType) : .null, cls.isRCD ? .word(v.rcdPushButton) : .null,
            .text(v.rcdTripTimeMs), .text(try json(v.attachments)), .text(v.notes), .text(v.result.rawValue),
            .text(t.passed ? "pass" : "fail"), .text(try json(t.verdicts.map(StoredVerdict.init))),
            .text(try json(t.limits)), .bool(true), .text(saved.savedAt), .text(saved.appVersion),
            .text(saved.operatorName),
        ]
    }

    static func record(_ s: Statement) -> StoredTest {
        func decode<T: Decodable>(_ type: T.Type, _ column: Int32) -> T? {
            try? JSONDecoder().decode(type, from: Data(s.text(column).utf8))
        }
        var v = TestValues()
        v.testType = s.word(4) ?? .periodic
        v.testDate = s.text(5)
        v.technician = s.text(6)
        v.licenceNumber = s.text(7)
        v.instrumentModel = s.text(8)
        v.instrumentSerial = s.text(9)
        v.procedureReference = s.text(10)
        v.calibrationDate = s.text(11)
        v.calibrationAcknowledged = s.int(12) != 0
        v.visual = s.word(13)
        v.earthContinuityOhm = s.text(14)
        v.insulationMOhm = s.text(15)
        v.loadCurrentA = s.text(16)
        v.leakageMA = s.text(17)
        v.polarity = s.word(18)
        v.rcdType = s.word(19) ?? .typeII
        v.rcdPushButton = s.word(20)
        v.rcdTripTimeMs = s.text(21)
        v.attachments = decode([Attachment].self, 22) ?? []
        v.notes = s.text(23)
        v.result = s.word(24) ?? .automatic
        v.authenticated = s.int(28) != 0
        return StoredTest(id: s.int64(0), testUUID: s.uuid(1) ?? UUID(), assetUUID: s.uuid(2) ?? UUID(),
                          sessionID: s.text(3), values: v, passed: s.text(25) == "pass",
                          verdicts: decode([StoredVerdict].self, 26) ?? [], savedAt: s.text(29),
                          appVersion: s.text(30), operatorName: s.text(31), entryHash: s.optionalText(32),
                          limits: decode(TestLimits.self, 27))
    }
}

extension Register {
    /// The only write path for an electrical test: one transaction inserts it onto the hash chain and
    /// refreshes the asset's summary. Returns the test's id.
    @discardableResult
    public func insert(test: ValidatedTest, saved: SaveStamp = SaveStamp()) throws(RegisterError) -> Int64 {
        try perform { try db.transaction { try insertTestInTransaction(test, saved: saved) } }
    }

    /// The test saved inside the caller's write transaction: the asset checked under the write lock, the test on
    /// the chain, the summary folded again.
    func insertTestInTransaction(_ test: ValidatedTest, saved: SaveStamp) throws -> Int64 {
        let row = try db.withKept("SELECT \(AssetColumns.select) FROM assets WHERE uuid = ?",
                                  [.text(test.assetUUID.uuidString)]) {
            try $0.step() ? AssetColumns.row($0) : nil
        }
        guard let row, row.asset.isElectrical else {
            throw RegisterError.unknownAsset(test.assetUUID.uuidString)
        }
        // Under the write lock, as for an inspection: retired since the form opened.
        if let retired = RegisterError.RetiredAsset(row.asset) { throw RegisterError.retired([retired]) }
        if try db.scalar("SELECT 1 FROM electrical_tests WHERE draft_id = ?", [.text(test.sessionID)]) != nil {
            throw RegisterError.duplicateSession(test.sessionID)
        }
        let history = try facts(assetUUID: test.assetUUID)
        let id = try appendTest(test, testUUID: UUID(), asset: row.asset, saved: saved)
        try storeSummary(asset: row.asset, HistorySummary(history: history + [test.facts(id: id)]))
        return id
    }

    /// Puts the test onto the hash chain with its attachments and returns its id: inside the write transaction
    /// of a save, or of a bulk load (`load`, which folds the summary itself).
    func appendTest(_ test: ValidatedTest, testUUID: UUID, asset: Asset, saved: SaveStamp) throws -> Int64 {
        let id = try HashChain.append(db, HashChain.electricalTest,
                                      try TestColumns.values(test, testUUID: testUUID, asset: asset, saved: saved))
        // The attachments table names them too, so `attachments(recordUUID:)` serves both kinds.
        try AttachmentColumns.append(db, test.values.attachments, kind: AttachmentColumns.testKind,
                                     recordUUID: testUUID, attachedAt: saved.savedAt)
        return id
    }

    /// An asset's tests, newest first.
    public func tests(assetUUID: UUID) throws(RegisterError) -> [StoredTest] {
        try perform {
            let statement = try db.prepare("SELECT \(TestColumns.select) FROM electrical_tests WHERE asset_uuid = ?"
                                           + " ORDER BY test_date DESC, id DESC")
            try statement.bind([.text(assetUUID.uuidString)])
            var tests: [StoredTest] = []
            while try statement.step() { tests.append(TestColumns.record(statement)) }
            return tests
        }
    }

    /// Whether a test form's session is saved already (a crash between commit and draft removal).
    public func containsTestSession(id sessionID: String) throws(RegisterError) -> Bool {
        try perform { try db.scalar("SELECT 1 FROM electrical_tests WHERE draft_id = ?", [.text(sessionID)]) != nil }
    }

    /// The test facts of an asset, for the status fold.
    func testFacts(assetUUID: UUID) throws -> [RecordFacts] {
        try db.withKept("SELECT id, result, test_date FROM electrical_tests WHERE asset_uuid = ?",
                        [.text(assetUUID.uuidString)]) { s in
            var facts: [RecordFacts] = []
            while try s.step() {
                facts.append(TestFacts.facts(id: s.int64(0), passed: s.text(1) == "pass",
                                             date: s.date(2) ?? CalendarDate(dayNumber: 0)))
            }
            return facts
        }
    }
}
