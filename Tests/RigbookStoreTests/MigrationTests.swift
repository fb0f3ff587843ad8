import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

@Suite("A new register: schema, pragmas, permissions")
struct MigrationTests {
    @Test("migrations from empty create every table and record every migration name")
    func migratesFromEmpty() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            #expect(!FileManager.default.fileExists(atPath: path))
            let register = try Register.open(path: path)

            let tables = try register.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            var names: [String] = []
            while try tables.step() { names.append(tables.text(0)) }
            #expect(names == ["asset_changes", "assets", "attachments", "electrical_tests", "examiner_keys",
                              "inspections", "key_retirements", "merges", "notices", "particulars", "record_numbers",
                              "register_chain", "rigbook_migrations", "signatures", "sync_journal", "sync_servers"])

            let triggers = try register.db.prepare(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
            var triggerNames: [String] = []
            while try triggers.step() { triggerNames.append(triggers.text(0)) }
            // Evidence refuses edits; every kind of entry is noted for sync; records are numbered as they come in;
            // summaries are written by the fold alone, and the status columns follow them.
            #expect(triggerNames == (["asset_changes", "attachments", "electrical_tests", "inspections", "merges",
                                      "notices", "particulars", "examiner_keys", "key_retirements",
                                      "signatures"].flatMap { table in
                ["deleted", "replaced", "updated"].map { "\(table)_are_never_\($0)" }
            } + SyncJournal.tables.map { "\($0.name)_are_journaled" }
              + ["inspections_are_numbered", "electrical_tests_are_numbered", "record_numbers_are_never_updated",
                 "record_numbers_are_never_deleted", "assets_summaries_are_folded", "assets_statuses_on_insert",
                 "assets_statuses_on_update", "assets_statuses_are_derived"]).sorted())

            let recorded = try RegisterSchema.appliedNames(register.db)
            #expect(!RegisterSchema.migrations.isEmpty)
            #expect(recorded == Set(RegisterSchema.migrations.map(\.name)))
            #expect(try register.assetCount() == 0)
            #expect(try register.recordCount() == 0)
        }
    }

    @Test("the connection runs in WAL mode, synchronous=FULL, foreign keys on, with Rigbook's application id")
    func connectionPragmas() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            #expect(try register.db.scalar("PRAGMA journal_mode") == .text("wal"))
            #expect(try register.db.scalar("PRAGMA synchronous") == .integer(2))
            #expect(try register.db.scalar("PRAGMA foreign_keys") == .integer(1))
            #expect(try register.db.scalar("PRAGMA application_id") == .integer(0x5249_4742))
            #expect(RegisterSchema.applicationID == 0x5249_4742)
        }
    }

    @Test("the header on disk carries 'RIGB' and WAL marks, readable without SQLite")
    func headerOnDisk() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            do { _ = try Register.open(path: path) } // closed again at the end of the scope
            let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(100)
            #expect(header.prefix(16) == Data("SQLite format 3\0".utf8))
            #expect(Array(header[68..<72]) == Array("RIGB".utf8))
            // Bytes 18 and 19 (file format write/read version) are 2 in WAL mode.
            #expect(header[18] == 2 && header[19] == 2)
        }
    }

    @Test("the register file is 0600, its WAL companions too, and the folders it creates are 0700")
    func permissionsOfNewFiles() throws {
        try withTemporaryDirectory { folder in
            let home = DataHome(root: folder.appendingPathComponent("home").path)
            let register = try Register.open(path: home.registerPath)
            try register.addAsset(makeAsset()) // makes SQLite create the -wal and -shm files
            #expect(permissions(home.registerPath) == 0o600)
            #expect(permissions(home.documents) == 0o700)
            for companion in ["-wal", "-shm"]
                where FileManager.default.fileExists(atPath: home.registerPath + companion) {
                #expect(permissions(home.registerPath + companion) == 0o600, "\(companion)")
            }
        }
    }

    @Test("intermediate folders created for the register are private too (SPEC §2: directories 0700)")
    func intermediateFoldersArePrivate() throws {
        try withTemporaryDirectory { folder in
            let home = DataHome(root: folder.appendingPathComponent("home").path)
            _ = try Register.open(path: home.registerPath)
            #expect(permissions(home.root) == 0o700)
            #expect(permissions(home.documents) == 0o700)
        }
    }

    @Test("opening twice is idempotent: no duplicate migration rows, no changed data")
    func openingTwiceIsIdempotent() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let asset = makeAsset()
            let appliedSQL = "SELECT name || '@' || applied_at FROM rigbook_migrations ORDER BY name"
            var firstApplied: [String] = []
            do {
                let register = try Register.open(path: path)
                try register.addAsset(asset)
                let statement = try register.db.prepare(appliedSQL)
                while try statement.step() { firstApplied.append(statement.text(0)) }
            }
            let again = try Register.open(path: path)
            let third = try Register.open(path: path) // while the second is still open
            for register in [again, third] {
                #expect(try register.db.scalar("SELECT count(*) FROM rigbook_migrations")
                        == .integer(Int64(RegisterSchema.migrations.count)))
                let statement = try register.db.prepare(appliedSQL)
                var applied: [String] = []
                while try statement.step() { applied.append(statement.text(0)) }
                #expect(applied == firstApplied)
                #expect(try register.assetCount() == 1)
                #expect(try register.asset(uuid: asset.uuid)?.asset == asset)
            }
        }
    }
}


/// A register file exactly as the first schema left it: only migration 001 applied. The caller adds rows.
func firstSchemaDatabase(at path: String) throws -> Database {
    try DataHome.makePrivateDirectory((path as NSString).deletingLastPathComponent)
    let db = try Database(path: path)
    try db.execute("PRAGMA application_id = \(RegisterSchema.applicationID)")
    try db.execute("CREATE TABLE rigbook_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    let first = RegisterSchema.migrations[0]
    #expect(first.name == "001-assets-and-inspections")
    try db.execute(first.sql)
    try db.run("INSERT INTO rigbook_migrations (name, applied_at) VALUES (?, '2026-01-01 00:00:00')",
               [.text(first.name)])
    return db
}


/// One record as the first build wrote it (its columns spelled out, so later columns cannot change it).
struct FirstSchemaRecord {
    var id: Int64
    var asset: String
    var amends: Int64?
    var type = "thorough_periodic"
    var result: String
    var action: String
    var deadline: String?
    var date: String
    var inspector: String
    var operatorName: String
    var savedAt: String
    var wllKg: Double
    var location: String
}

func insertFirstSchemaRecord(_ db: Database, _ r: FirstSchemaRecord) throws {
    try db.run("""
        INSERT INTO inspections (id, asset_uuid, draft_id, amends, inspection_type, inspector_name,
            certification_number, check_marking, check_cuts, check_deformation, check_fittings,
            check_corrosion, result, notes, scheme_reference, defect_description, action,
            remedy_deadline_set, remedy_deadline, inspection_date, confirmed, saved_at, app_version,
            operator, asset_wll_kg, asset_location)
        VALUES (?, ?, ?, ?, ?, ?, 'LEEA-1', 1, 1, 1, 1, 1, ?, '', '', ?, ?, ?, ?, ?, 1, ?, '0.1.0', ?, ?, ?)
        """, [.integer(r.id), .text(r.asset), .text("session-\(r.id)"), r.amends.map(SQLValue.integer) ?? .null,
              .text(r.type), .text(r.inspector), .text(r.result), .text(r.result == "pass" ? "" : "Cut"),
              .text(r.action), .integer(r.deadline == nil ? 0 : 1), r.deadline.map(SQLValue.text) ?? .null,
              .text(r.date), .text(r.savedAt), .text(r.operatorName), .real(r.wllKg), .text(r.location)])
}

@Suite("Migrating a register made by an earlier build")
struct TagKeyMigrationTests {
    /// A register as the first build left it (migration 001 only), holding `tags`, oldest first.
    static func firstBuildRegister(at path: String, tags: [String]) throws {
        let db = try firstSchemaDatabase(at: path)
        for (index, tag) in tags.enumerated() {
            // The columns the first build wrote, spelled out so later columns cannot change this file.
            try db.run("""
                INSERT INTO assets (tag, uuid, name, type, wll_kg, interval_months, lifts_persons, created_at)
                VALUES (?, ?, 'Sling', 'web-sling', 1000, 6, 0, ?)
                """, [.text(tag), .text(UUID().uuidString), .text("2026-01-0\(index + 1)T08:00:00.000Z")])
        }
    }

    @Test("tags that collide once folded are all kept; exact lookups reach each, folded ones refuse to guess")
    func collidingTagsAreKept() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            // ASCII-only NOCASE let these in as four different tags; with full folding SL-SS, SL-ß and SL-ẞ
            // are one tag.
            try TagKeyMigrationTests.firstBuildRegister(at: path, tags: ["SL-SS", "SL-ß", "HK-1", "SL-ẞ"])
            let register = try Register.open(path: path)
            #expect(try RegisterSchema.appliedNames(register.db) == Set(RegisterSchema.migrations.map(\.name)))
            #expect(try register.assetCount() == 4, "nothing is lost")
            #expect(try register.rows().map(\.asset.tag).sorted() == ["HK-1", "SL-SS", "SL-ß", "SL-ẞ"])
            // The key is filled for every tag, the oldest of a colliding group keeping it.
            #expect(try register.db.scalar("SELECT tag_key FROM assets WHERE tag = 'HK-1'") == .text("hk-1"))
            #expect(try register.db.scalar("SELECT tag FROM assets WHERE tag_key = 'sl-ss'") == .text("SL-SS"))
            for tag in ["SL-SS", "SL-ß", "SL-ẞ", "HK-1"] {
                #expect(try register.asset(tag: tag)?.asset.tag == tag, "the exact tag reaches \(tag)")
            }
            #expect(try register.asset(tag: "hk-1")?.asset.tag == "HK-1")
            #expect(throws: RegisterError.ambiguousTag("sl-ss", matches: ["SL-SS", "SL-ß", "SL-ẞ"])) {
                _ = try register.asset(tag: "sl-ss")
            }
            // No new tag can join the group, and other tags still go in.
            #expect(throws: RegisterError.self) { try register.addAsset(makeAsset(tag: "sl-ss")) }
            try register.addAsset(makeAsset(tag: "HK-2"))
            #expect(try register.asset(tag: "hk-2")?.asset.tag == "HK-2")
            #expect(try register.assetCount() == 5)
        }
    }

    @Test("a register without collisions gets a key for every tag and opens again unchanged")
    func plainRegisterMigrates() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try TagKeyMigrationTests.firstBuildRegister(at: path, tags: ["SL-0001", "ÉV-1", "吊-7"])
            do {
                let register = try Register.open(path: path)
                #expect(try register.db.scalar("SELECT count(*) FROM assets WHERE tag_key IS NULL") == .integer(0))
                #expect(try register.asset(tag: "év-1")?.asset.tag == "ÉV-1")
                #expect(try register.asset(tag: "sl-0001")?.asset.tag == "SL-0001")
            }
            let again = try Register.open(path: path)
            #expect(try again.assetCount() == 3)
            #expect(try again.db.scalar("SELECT count(*) FROM rigbook_migrations")
                    == .integer(Int64(RegisterSchema.migrations.count)))
        }
    }
}

@Suite("Records gain a lasting identity: the record-uuid migration")
struct RecordIdentityMigrationTests {
    /// A register as the first schema left it: migration 001 only, one asset and three records,
    /// the second amending the first by integer id.
    private func makeOldRegister(at path: String) throws {
        let db = try firstSchemaDatabase(at: path)
        let asset = "00000000-0000-4000-8000-000000000042"
        try db.run("""
            INSERT INTO assets (tag, uuid, name, type, wll_kg, interval_months, lifts_persons, created_at)
            VALUES ('SL-0042', ?, '2 t web sling', 'web-sling', 2000, 12, 0, '2026-01-01T00:00:00.000Z')
            """, [.text(asset)])
        let records: [(id: Int, amends: Int?, result: String)] = [(1, nil, "pass"), (2, 1, "fail_dangerous"),
                                                                  (3, nil, "pass")]
        for (id, amends, result) in records {
            try insertFirstSchemaRecord(db, FirstSchemaRecord(
                id: Int64(id), asset: asset, amends: amends.map(Int64.init), result: result,
                action: result == "pass" ? "none" : "withdraw", date: "2026-02-0\(id)", inspector: "Ann Smith",
                operatorName: "ann", savedAt: "2026-02-01T10:00:00.000Z", wllKg: 2000, location: "Bay A"))
        }
    }

    @Test("an older register opens and migrates in place: every record gets a uuid, amends gets its uuid")
    func migratesOldRecords() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try makeOldRegister(at: path)
            let before = try Database(path: path, mode: .readOnly)
            let oldRows = try (1...3).map { try rawInspectionRow(before, id: Int64($0)) }

            let register = try Register.open(path: path)
            #expect(try RegisterSchema.appliedNames(register.db) == Set(RegisterSchema.migrations.map(\.name)))
            let columns = try register.db.prepare("PRAGMA table_info(inspections)")
            var names: [String] = []
            while try columns.step() { names.append(columns.text(1)) }
            #expect(names.suffix(15) == ["record_uuid", "amends_uuid", "amendment_reason",
                                         "report_number", "record_hash", "parent_hash", "examination_basis",
                                         "installed_correctly", "test_particulars", "repair_particulars",
                                         "remedy_particulars", "next_examination_by", "particulars", "visit_uuid",
                                         "also_amends"])
            // The columns the records already had are exactly as they were.
            for id in 1...3 {
                #expect(try rawInspectionRow(register.db, id: Int64(id)).prefix(oldRows[id - 1].count)
                        == oldRows[id - 1][...])
            }
            let uuids = try (1...3).map { id in
                try #require(try register.db.scalar("SELECT record_uuid FROM inspections WHERE id = ?",
                                                     [.integer(Int64(id))]))
            }
            #expect(Set(uuids).count == 3)
            for case .text(let text) in uuids {
                let uuid = try #require(UUID(uuidString: text), "\(text)")
                #expect(uuid.uuidString == text, "stored as Swift writes it: upper case")
                #expect(Array(text)[14] == "4", "a version 4 uuid: \(text)")
            }
            #expect(try register.db.scalar("SELECT amends_uuid FROM inspections WHERE id = 2") == uuids[0])
            #expect(try register.db.scalar("SELECT amends_uuid FROM inspections WHERE id = 3") == .null)

            // Evidence stays evidence: the triggers are back and guard the new columns too.
            let error = #expect(throws: DatabaseError.self) {
                try register.db.run("UPDATE inspections SET record_uuid = 'x' WHERE id = 1")
            }
            #expect(error?.message.contains("evidence") == true)
            #expect(throws: DatabaseError.self) {
                try register.db.run("UPDATE inspections SET amendment_reason = 'x' WHERE id = 2")
            }

            // Opening again changes nothing.
            let again = try Register.open(path: path)
            #expect(try (1...3).map { try rawInspectionRow(again.db, id: Int64($0)) }
                    == (1...3).map { try rawInspectionRow(register.db, id: Int64($0)) })
        }
    }
}

@Suite("An older register migrates in place")
struct StatusRulesMigrationTests {
    /// A register exactly as the first schema left it: only migration 001, summaries folded by the old status
    /// rules, no `user_version`.
    static func makeFirstSchemaRegister(at path: String) throws {
        let db = try firstSchemaDatabase(at: path)
        // (uuid, tag, last thorough date, result, latest result, latest action, open deadline, unresolved fail)
        let assets: [(String, String, String, String, String, String, String?, Int64)] = [
            // Withdrawn by the examination, then a passing pre-use check: the old fold saw DO NOT USE.
            ("00000000-0000-0000-0000-000000000001", "SL-0001", "2026-01-10", "fail_dangerous", "pass", "none",
             nil, 1),
            // A repair signed off by a passing interim inspection: the old fold kept the deadline open.
            ("00000000-0000-0000-0000-000000000002", "HK-0002", "2026-01-10", "defect_to_be_remedied", "pass",
             "none", "2026-02-10", 0),
        ]
        for a in assets {
            try db.run("""
                INSERT INTO assets (uuid, tag, name, type, wll_kg, location, interval_months, lifts_persons,
                    commissioned, created_at, last_thorough_date, last_thorough_result, latest_result, latest_action,
                    open_remedy_deadline, unresolved_fail, next_due, record_count)
                VALUES (?, ?, 'Old asset', 'web-sling', 1000, 'Bay 1', 12, 0, '2025-01-01', '2025-01-01T00:00:00Z',
                    ?, ?, ?, ?, ?, ?, '2027-01-10', 2)
                """, [.text(a.0), .text(a.1), .text(a.2), .text(a.3), .text(a.4), .text(a.5),
                      a.6.map(SQLValue.text) ?? .null, .integer(a.7)])
        }
        // (id, asset, type, result, action, deadline, date)
        let records: [(Int64, String, String, String, String, String?, String)] = [
            (1, assets[0].0, "thorough_periodic", "fail_dangerous", "withdraw", nil, "2026-01-10"),
            (2, assets[0].0, "pre_use", "pass", "none", nil, "2026-01-20"),
            (3, assets[1].0, "thorough_periodic", "defect_to_be_remedied", "repair", "2026-02-10", "2026-01-10"),
            (4, assets[1].0, "interim", "pass", "none", nil, "2026-02-05"),
        ]
        for r in records {
            try insertFirstSchemaRecord(db, FirstSchemaRecord(
                id: r.0, asset: r.1, type: r.2, result: r.3, action: r.4, deadline: r.5, date: r.6,
                inspector: "Alan Hughes", operatorName: "alan", savedAt: "2026-01-01T00:00:00.000Z", wllKg: 1000,
                location: "Bay 1"))
        }
    }

    @Test("004-status-rules adds its columns, refolds the summaries under the new rules and keeps every record")
    func migratesAndRefolds() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try Self.makeFirstSchemaRegister(at: path)
            let register = try Register.open(path: path)
            #expect(try RegisterSchema.appliedNames(register.db).contains("004-status-rules"))
            #expect(try register.db.scalar("PRAGMA user_version") == .integer(Int64(HistorySummary.foldVersion)))
            #expect(try register.recordCount() == 4)
            let sling = try #require(try register.asset(tag: "SL-0001"))
            #expect(sling.summary.outOfService == .withdraw)
            #expect(sling.summary.unresolvedFailDate == day("2026-01-10"))
            #expect(sling.status(on: testToday).status == .withdrawn)
            let hook = try #require(try register.asset(tag: "HK-0002"))
            #expect(hook.summary.openRemedyDeadline == nil)
            #expect(hook.status(on: testToday).status == .ok)
            #expect(hook.asset.examinationScheme == "")
            // What the register now folds is what the status rules fold from the records.
            for row in [sling, hook] {
                let history = try register.history(assetUUID: row.asset.uuid).map(\.facts)
                #expect(row.summary == HistorySummary(history: history))
            }
        }
    }

    @Test("a migrated register opens again unchanged, and a newer fold version is read, never written")
    func reopening() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try Self.makeFirstSchemaRegister(at: path)
            do {
                let register = try Register.open(path: path)
                try register.db.execute("PRAGMA user_version = 99")
                // A summary a newer fold might have written: not refolded by this build.
                try register.db.folding {
                    try register.db.run("UPDATE assets SET out_of_service = 'quarantine' WHERE tag = 'HK-0002'")
                }
            }
            #expect(throws: RegisterError.self) { try Register.open(path: path) }
            let again = try Register.openForReading(path: path)
            #expect(try again.db.scalar("PRAGMA user_version") == .integer(99))
            #expect(try again.asset(tag: "HK-0002")?.summary.outOfService == .quarantine)
            #expect(try again.db.scalar("SELECT count(*) FROM rigbook_migrations")
                    == .integer(Int64(RegisterSchema.migrations.count)))
        }
    }
}
