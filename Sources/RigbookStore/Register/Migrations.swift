import RigbookCore
/// One named, ordered schema change. Applied migrations are recorded in the database by name, so a
/// register written by a newer Rigbook (with names this build does not know) is recognised and left alone.
struct Migration {
    let name: String
    let sql: String
    /// Work SQL alone cannot do (hashing with libcrypto), run after `sql` in the same transaction.
    var then: (@Sendable (Database) throws -> Void)? = nil
    /// A migration that rebuilds a table others refer to runs with foreign keys off (they cannot be switched
    /// inside a transaction), and checks them itself.
    var foreignKeysOff = false
}

enum RegisterSchema {
    /// 'RIGB': SQLite's application_id header field marks a file as a Rigbook register.
    static let applicationID: Int32 = 0x5249_4742

    /// The trigger that keeps records from being edited: made by the first migration, and put back by the
    /// one that fills the record uuids (the only update records ever get).
    private static let refuseUpdates = """
        CREATE TRIGGER inspections_are_never_updated BEFORE UPDATE ON inspections
        BEGIN SELECT RAISE(ABORT, \
        'inspection records are evidence and cannot be changed; save an amendment instead'); END;
        """

    /// A random (version 4) UUID in upper case, as Swift's `uuidString` writes one.
    private static let randomUUID = """
        hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4'
            || substr(hex(randomblob(2)), 2) || '-' || substr('89AB', 1 + (random() & 3), 1)
            || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))
        """

    static let migrations: [Migration] = [
        Migration(name: "001-assets-and-inspections", sql: """
            -- Stored in tag order (WITHOUT ROWID, keyed by tag): the list reads it front to back.
            CREATE TABLE assets (
                tag TEXT NOT NULL PRIMARY KEY COLLATE NOCASE,
                uuid TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                type TEXT NOT NULL,
                wll_kg REAL NOT NULL CHECK (wll_kg > 0),
                length_m REAL CHECK (length_m IS NULL OR length_m > 0),
                location TEXT NOT NULL DEFAULT '',
                manufacturer TEXT NOT NULL DEFAULT '',
                serial_number TEXT NOT NULL DEFAULT '',
                manufactured TEXT,
                commissioned TEXT,
                interval_months INTEGER NOT NULL CHECK (interval_months BETWEEN 1 AND 60),
                lifts_persons INTEGER NOT NULL CHECK (lifts_persons IN (0, 1)),
                created_at TEXT NOT NULL,
                -- Summary of the history, kept in the transaction that inserts a record.
                last_thorough_date TEXT,
                last_thorough_result TEXT,
                latest_result TEXT,
                latest_action TEXT,
                open_remedy_deadline TEXT,
                unresolved_fail INTEGER NOT NULL DEFAULT 0,
                next_due TEXT,
                record_count INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            CREATE TABLE inspections (
                id INTEGER PRIMARY KEY,
                asset_uuid TEXT NOT NULL REFERENCES assets(uuid),
                draft_id TEXT NOT NULL UNIQUE,
                amends INTEGER REFERENCES inspections(id),
                inspection_type TEXT NOT NULL,
                inspector_name TEXT NOT NULL,
                certification_number TEXT NOT NULL,
                check_marking INTEGER NOT NULL,
                check_cuts INTEGER NOT NULL,
                check_deformation INTEGER NOT NULL,
                check_fittings INTEGER NOT NULL,
                check_corrosion INTEGER NOT NULL,
                result TEXT NOT NULL,
                notes TEXT NOT NULL,
                scheme_reference TEXT NOT NULL,
                defect_description TEXT NOT NULL,
                action TEXT NOT NULL,
                remedy_deadline_set INTEGER NOT NULL,
                remedy_deadline TEXT,
                inspection_date TEXT NOT NULL,
                confirmed INTEGER NOT NULL CHECK (confirmed = 1),
                saved_at TEXT NOT NULL,
                app_version TEXT NOT NULL,
                operator TEXT NOT NULL,
                asset_wll_kg REAL NOT NULL,
                asset_location TEXT NOT NULL
            );
            CREATE INDEX inspections_by_asset ON inspections(asset_uuid, inspection_date);
            CREATE INDEX inspections_by_amends ON inspections(amends) WHERE amends IS NOT NULL;
            -- Evidence is never edited: a correction is a new record that amends the old one.
            \(refuseUpdates)
            CREATE TRIGGER inspections_are_never_deleted BEFORE DELETE ON inspections
            BEGIN SELECT RAISE(ABORT, 'inspection records are evidence and cannot be deleted'); END;
            -- INSERT OR REPLACE deletes without firing DELETE triggers: refuse any insert that collides.
            CREATE TRIGGER inspections_are_never_replaced BEFORE INSERT ON inspections
            WHEN EXISTS (SELECT 1 FROM inspections WHERE id = NEW.id OR draft_id = NEW.draft_id)
            BEGIN SELECT RAISE(ABORT, 'inspection records are evidence and cannot be replaced'); END;
            """),
        // `tag COLLATE NOCASE` folds ASCII letters only, so SL-ß and SL-SS were two tags.
        Migration(name: "002-folded-tag-keys", sql: """
            -- The key two tags are compared by: Tags.key (NFC + full Unicode case folding), which Rigbook
            -- defines on each connection as rigbook_tag_key (Database.swift); inserts write it.
            ALTER TABLE assets ADD COLUMN tag_key TEXT;
            UPDATE assets SET tag_key = rigbook_tag_key(tag);
            -- Tags that became one tag only with full folding are all kept: the oldest keeps the key, the
            -- others get NULL (the unique index allows it). Register.asset(tag:) still finds each by its
            -- exact tag, and no new tag can join them.
            UPDATE assets SET tag_key = NULL WHERE uuid IN (
                SELECT uuid FROM (SELECT uuid, row_number() OVER (PARTITION BY tag_key ORDER BY created_at, tag) AS n
                                  FROM assets)
                WHERE n > 1);
            CREATE UNIQUE INDEX assets_by_tag_key ON assets(tag_key);
            """),
        // Records get a lasting identity: `record_uuid`, made at save; `amends_uuid` names the
        // amended record by it (the integer `amends` stays, for display); an amendment carries its reason.
        // Filling the uuids of records already saved is the one UPDATE evidence ever gets: the trigger that
        // refuses updates steps aside inside this migration's transaction and is back before it commits.
        Migration(name: "003-record-uuids-and-amendment-reasons", sql: """
            ALTER TABLE inspections ADD COLUMN record_uuid TEXT;
            DROP TRIGGER inspections_are_never_updated;
            UPDATE inspections SET record_uuid = \(randomUUID);
            CREATE UNIQUE INDEX inspections_by_uuid ON inspections(record_uuid);
            -- Added once record_uuid is unique: a foreign key needs a unique parent key.
            ALTER TABLE inspections ADD COLUMN amends_uuid TEXT REFERENCES inspections(record_uuid);
            UPDATE inspections
            SET amends_uuid = (SELECT a.record_uuid FROM inspections a WHERE a.id = inspections.amends)
            WHERE amends IS NOT NULL;
            CREATE INDEX inspections_by_amends_uuid ON inspections(amends_uuid) WHERE amends_uuid IS NOT NULL;
            ALTER TABLE inspections ADD COLUMN amendment_reason TEXT;
            \(refuseUpdates)
            -- REPLACE must not delete a record through the new unique column either.
            DROP TRIGGER inspections_are_never_replaced;
            CREATE TRIGGER inspections_are_never_replaced BEFORE INSERT ON inspections
            WHEN EXISTS (SELECT 1 FROM inspections
                         WHERE id = NEW.id OR draft_id = NEW.draft_id OR record_uuid = NEW.record_uuid)
            BEGIN SELECT RAISE(ABORT, 'inspection records are evidence and cannot be replaced'); END;
            """),
        // Status rules: the fold keeps who took an item out of service and when it failed dangerous (the
        // summaries are then refolded, see `refoldSummaries`); an asset may name its examination scheme.
        Migration(name: "004-status-rules", sql: """
            ALTER TABLE assets ADD COLUMN out_of_service TEXT;
            ALTER TABLE assets ADD COLUMN unresolved_fail_date TEXT;
            ALTER TABLE assets ADD COLUMN examination_scheme TEXT NOT NULL DEFAULT '';
            """),
        // One hash chain per register, and report numbers. `register_chain` is one row:
        // the register's identity (made here, so also when a register is created), the head of the chain
        // and the last report sequence taken. Assets and records already saved are hashed, assets first (the
        // records' one UPDATE besides 003's: the trigger steps aside in this transaction); records get no
        // report number.
        Migration(name: "005-hash-chain-and-report-numbers", sql: """
            CREATE TABLE register_chain (
                only INTEGER PRIMARY KEY CHECK (only = 1),
                identity TEXT NOT NULL,
                head_hash TEXT,
                report_sequence INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO register_chain (only, identity) VALUES (1, \(randomUUID));
            ALTER TABLE inspections ADD COLUMN report_number TEXT;
            ALTER TABLE inspections ADD COLUMN record_hash TEXT;
            ALTER TABLE inspections ADD COLUMN parent_hash TEXT;
            ALTER TABLE assets ADD COLUMN entry_hash TEXT;
            ALTER TABLE assets ADD COLUMN parent_hash TEXT;
            DROP TRIGGER inspections_are_never_updated;
            """, then: { db in
                try HashChain.hashExistingEntries(db)
                try db.execute("""
                    CREATE UNIQUE INDEX inspections_by_hash ON inspections(record_hash);
                    CREATE UNIQUE INDEX assets_by_hash ON assets(entry_hash);
                    CREATE UNIQUE INDEX inspections_by_report_number ON inspections(report_number);
                    \(refuseUpdates)
                    -- REPLACE must not delete a record through the new unique columns either.
                    DROP TRIGGER inspections_are_never_replaced;
                    CREATE TRIGGER inspections_are_never_replaced BEFORE INSERT ON inspections
                    WHEN EXISTS (SELECT 1 FROM inspections
                                 WHERE id = NEW.id OR draft_id = NEW.draft_id OR record_uuid = NEW.record_uuid
                                    OR record_hash = NEW.record_hash OR report_number = NEW.report_number)
                    BEGIN SELECT RAISE(ABORT, 'inspection records are evidence and cannot be replaced'); END;
                    """)
            }),
        // The report particulars of Schedule 1 on records (NULL for records saved
        // before; hashed only when not NULL, so their hashes stand), the examiner's date for the next
        // examination in the summary, the register's particulars and reg 10 notices. Particulars and notices
        // are append-only entries of the hash chain, like records.
        Migration(name: "006-report-particulars-and-notices", sql: """
            ALTER TABLE inspections ADD COLUMN examination_basis TEXT;
            ALTER TABLE inspections ADD COLUMN installed_correctly INTEGER;
            ALTER TABLE inspections ADD COLUMN test_particulars TEXT;
            ALTER TABLE inspections ADD COLUMN repair_particulars TEXT;
            ALTER TABLE inspections ADD COLUMN remedy_particulars TEXT;
            ALTER TABLE inspections ADD COLUMN next_examination_by TEXT;
            ALTER TABLE inspections ADD COLUMN particulars TEXT;
            ALTER TABLE assets ADD COLUMN next_examination_by TEXT;
            CREATE TABLE particulars (
                id INTEGER PRIMARY KEY,
                entry_uuid TEXT NOT NULL UNIQUE,
                subject_kind TEXT NOT NULL
                    CHECK (subject_kind IN ('organisation', 'employer', 'site', 'examiner', 'asset')),
                subject_uuid TEXT NOT NULL,
                content TEXT NOT NULL,
                changed_at TEXT NOT NULL,
                operator TEXT NOT NULL,
                entry_hash TEXT NOT NULL UNIQUE,
                parent_hash TEXT
            );
            CREATE INDEX particulars_by_subject ON particulars(subject_kind, subject_uuid, id);
            CREATE TABLE notices (
                id INTEGER PRIMARY KEY,
                notice_uuid TEXT NOT NULL UNIQUE,
                record_uuid TEXT NOT NULL REFERENCES inspections(record_uuid),
                duty TEXT NOT NULL
                    CHECK (duty IN ('employer_told', 'enforcing_authority', 'report_to_employer', 'report_to_lessor')),
                recipient TEXT NOT NULL,
                done_on TEXT,
                serious_risk INTEGER,
                recorded_at TEXT NOT NULL,
                operator TEXT NOT NULL,
                entry_hash TEXT NOT NULL UNIQUE,
                parent_hash TEXT
            );
            CREATE INDEX notices_by_record ON notices(record_uuid, duty, id);
            \(appendOnly("particulars", "particulars are kept with their history: record a new version instead"))
            \(appendOnly("notices", "notices are evidence: record a new notice instead"))
            """, then: { db in
                for change in Particulars.initial.changes {
                    try ParticularsStore.append(db, change, stamp: SaveStamp(savedAt: "1970-01-01T00:00:00Z",
                                                                              operatorName: "rigbook"))
                }
            }),
        // Assets over their life. Each change of an asset field is an append-only entry of the hash
        // chain (`asset_changes`, old and new values typed as the asset's columns store them); the asset's
        // current values stay in `assets`, changed in the same transaction. `as_added` keeps the asset's
        // canonical columns as it was added (what its hash covers) from its first change on. Retirement is
        // two fields. A merge of another register is an entry naming that register's head (`merges`).
        Migration(name: "007-asset-changes-retirement-and-merges", sql: """
            ALTER TABLE assets ADD COLUMN retired_on TEXT;
            ALTER TABLE assets ADD COLUMN disposition TEXT;
            ALTER TABLE assets ADD COLUMN as_added TEXT;
            CREATE TABLE asset_changes (
                id INTEGER PRIMARY KEY,
                change_uuid TEXT NOT NULL UNIQUE,
                asset_uuid TEXT NOT NULL REFERENCES assets(uuid),
                field TEXT NOT NULL,
                old_value,
                new_value,
                reason TEXT NOT NULL,
                changed_at TEXT NOT NULL,
                operator TEXT NOT NULL,
                session_id TEXT,
                entry_hash TEXT NOT NULL UNIQUE,
                parent_hash TEXT
            );
            CREATE INDEX asset_changes_by_asset ON asset_changes(asset_uuid, field, changed_at, change_uuid);
            CREATE INDEX asset_changes_by_session ON asset_changes(session_id) WHERE session_id IS NOT NULL;
            CREATE TABLE merges (
                id INTEGER PRIMARY KEY,
                merge_uuid TEXT NOT NULL UNIQUE,
                other_identity TEXT NOT NULL,
                other_head TEXT NOT NULL,
                merged_at TEXT NOT NULL,
                operator TEXT NOT NULL,
                entry_hash TEXT NOT NULL UNIQUE,
                parent_hash TEXT
            );
            \(appendOnly("asset_changes", "asset changes are evidence: change the asset again instead"))
            \(appendOnly("merges", "merges are evidence and cannot be changed"))
            """),
        // The records a batch inspection saves together share a visit id (NULL on any other
        // record). An extension column of the hash chain, so records saved before keep their hashes.
        Migration(name: "008-visits", sql: """
            ALTER TABLE inspections ADD COLUMN visit_uuid TEXT;
            CREATE INDEX inspections_by_visit ON inspections(visit_uuid) WHERE visit_uuid IS NOT NULL;
            """),
        // Electrical assets (TagWorks, AS/NZS 3760) beside lifting equipment. Their own fields are
        // extension columns of the asset's hash (NULL on lifting equipment, so its hashes stand). An electrical
        // asset has no working load limit: the table is rebuilt with `wll_kg > 0` asked of lifting equipment
        // only (SQLite cannot change a CHECK in place), with foreign keys off for the swap, as SQLite's own
        // procedure for a table change says, and checked before it commits.
        Migration(name: "009-electrical-assets", sql: """
            ALTER TABLE assets ADD COLUMN asset_kind TEXT CHECK (asset_kind IS NULL OR asset_kind = 'electrical');
            ALTER TABLE assets ADD COLUMN equipment_class TEXT;
            ALTER TABLE assets ADD COLUMN environment TEXT;
            ALTER TABLE assets ADD COLUMN risk TEXT;
            ALTER TABLE assets ADD COLUMN interval_reason TEXT;
            """, then: { db in try rebuildAssetsWithoutWLLCheck(db) }, foreignKeysOff: true),
        // Electrical tests (TagWorks' 16 fields and the readings SPEC §12 adds), append-only entries
        // of the hash chain like inspection records. Readings are kept as typed (trimmed); the verdicts, the
        // limits they were judged by and the attachments (hash, name, size) as JSON.
        Migration(name: "010-electrical-tests", sql: """
            CREATE TABLE electrical_tests (
                id INTEGER PRIMARY KEY,
                test_uuid TEXT NOT NULL UNIQUE,
                asset_uuid TEXT NOT NULL REFERENCES assets(uuid),
                draft_id TEXT NOT NULL UNIQUE,
                test_type TEXT NOT NULL,
                test_date TEXT NOT NULL,
                technician TEXT NOT NULL,
                licence_number TEXT NOT NULL,
                instrument_model TEXT NOT NULL,
                instrument_serial TEXT NOT NULL,
                procedure_reference TEXT NOT NULL,
                calibration_date TEXT NOT NULL,
                calibration_acknowledged INTEGER NOT NULL,
                visual TEXT NOT NULL,
                earth_continuity_ohm TEXT NOT NULL,
                insulation_mohm TEXT NOT NULL,
                load_current_a TEXT NOT NULL,
                leakage_ma TEXT NOT NULL,
                polarity TEXT,
                rcd_type TEXT,
                rcd_push_button TEXT,
                rcd_trip_time_ms TEXT NOT NULL,
                attachments TEXT NOT NULL,
                notes TEXT NOT NULL,
                result_choice TEXT NOT NULL,
                result TEXT NOT NULL CHECK (result IN ('pass', 'fail')),
                verdicts TEXT NOT NULL,
                limits TEXT NOT NULL,
                authenticated INTEGER NOT NULL CHECK (authenticated = 1),
                saved_at TEXT NOT NULL,
                app_version TEXT NOT NULL,
                operator TEXT NOT NULL,
                entry_hash TEXT NOT NULL UNIQUE,
                parent_hash TEXT
            );
            CREATE INDEX electrical_tests_by_asset ON electrical_tests(asset_uuid, test_date);
            \(appendOnly("electrical_tests", "electrical tests are evidence: save a new test instead"))
            """),
        // An amendment that settles conflicting amendments (two machines amended one record, a
        // merge kept both) supersedes every live amendment of the chain: the others' uuids, as a JSON array.
        // NULL on every other record; hashed as an extension column (only when not NULL).
        Migration(name: "011-amendments-superseding-several", sql: """
            ALTER TABLE inspections ADD COLUMN also_amends TEXT;
            CREATE INDEX inspections_also_amending ON inspections(id) WHERE also_amends IS NOT NULL;
            """),
        // The files attached to a record (hash, name, size), one append-only row each, entries of the
        // hash chain (`kind attachment`) made in the record's transaction. `record_kind` and `record_uuid` name the
        // record, an inspection or an electrical test, so both kinds share the table (docs/FORMATS.md).
        Migration(name: "012-attachments", sql: """
            CREATE TABLE attachments (
                id INTEGER PRIMARY KEY,
                entry_uuid TEXT NOT NULL UNIQUE,
                record_kind TEXT NOT NULL CHECK (record_kind IN ('inspection', 'electrical_test')),
                record_uuid TEXT NOT NULL,
                position INTEGER NOT NULL CHECK (position >= 0),
                sha256 TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
                name TEXT NOT NULL,
                size INTEGER NOT NULL CHECK (size >= 0),
                attached_at TEXT NOT NULL,
                entry_hash TEXT NOT NULL UNIQUE,
                parent_hash TEXT,
                UNIQUE (record_uuid, position)
            );
            CREATE INDEX attachments_by_file ON attachments(sha256);
            \(appendOnly("attachments", "attachments are evidence: save an amendment instead"))
            """),
        // Sync with the organisation's server. Every entry of evidence, however it arrives (saved,
        // merged, pulled), is noted in `sync_journal` by a trigger, so a sync pushes what came after the last
        // entry it pushed; `sync_servers` keeps, per server, how far each side has gone and the URL last given.
        // Neither is evidence nor hashed: a sync that stops halfway is simply run again.
        Migration(name: "013-sync-journal", sql: """
            CREATE TABLE sync_journal (
                seq INTEGER PRIMARY KEY,
                entry_table TEXT NOT NULL,
                entry_key TEXT NOT NULL,
                -- The server an entry was pulled from (not pushed back there).
                pulled_from TEXT
            );
            \(SyncJournal.triggers(for: SyncJournal.firstJournaled))
            \(SyncJournal.fill(SyncJournal.firstJournaled))
            CREATE TABLE sync_servers (
                identity TEXT PRIMARY KEY,
                url TEXT NOT NULL,
                pulled_through INTEGER NOT NULL DEFAULT 0,
                pushed_through INTEGER NOT NULL DEFAULT 0,
                last_synced_at TEXT,
                last_used_at TEXT NOT NULL
            );
            """),
        // A batch inspection of 300 records at 100,000 assets spent much of its time on two indexes keyed by
        // SHA-256 (random by nature, so a leaf page read and written per record): the records' hash and the
        // notices' entry hash. Nothing looks an entry up by its hash (merge and sync match by uuid), and a hash
        // covers its entry's uuid, which stays unique, so the hashes stay unique without an index. `notices`
        // is rebuilt without its UNIQUE on the hash (a table constraint cannot be dropped in place); the
        // triggers that refuse REPLACE no longer probe the hash columns (no constraint there to replace through).
        Migration(name: "014-no-hash-indexes-on-records-and-notices", sql: """
            DROP INDEX inspections_by_hash;
            DROP TRIGGER inspections_are_never_replaced;
            CREATE TRIGGER inspections_are_never_replaced BEFORE INSERT ON inspections
            WHEN EXISTS (SELECT 1 FROM inspections
                         WHERE id = NEW.id OR draft_id = NEW.draft_id OR record_uuid = NEW.record_uuid
                            OR report_number = NEW.report_number)
            BEGIN SELECT RAISE(ABORT, 'inspection records are evidence and cannot be replaced'); END;
            """, then: { db in
                try rebuild(db, table: "notices") { table in
                    table.replacingOccurrences(of: "entry_hash TEXT NOT NULL UNIQUE", with: "entry_hash TEXT NOT NULL")
                }
                try db.execute("""
                    DROP TRIGGER notices_are_never_replaced;
                    CREATE TRIGGER notices_are_never_replaced BEFORE INSERT ON notices
                    WHEN EXISTS (SELECT 1 FROM notices WHERE id = NEW.id OR notice_uuid = NEW.notice_uuid)
                    BEGIN SELECT RAISE(ABORT, 'notices are evidence: record a new notice instead'); END;
                    """)
            }, foreignKeysOff: true),
        // An asset's summary columns are written by the fold alone (see `FoldPermit`): a plain UPDATE of them made
        // a DO NOT USE item read OK.
        Migration(name: "015-summaries-written-only-by-the-fold", sql: summariesAreFolded),
        // A record's number (`#17`, what `notices done`, certificates and the amends columns name it by) is kept
        // with its uuid as it was when the record came in, so numbers swapped behind Rigbook's back are found by
        // verify. Records already there keep the numbers they have now. Local to this register: a merge or a
        // pull numbers what it brings in afresh, so the table is neither merged nor synced.
        Migration(name: "016-record-numbers", sql: """
            CREATE TABLE record_numbers (
                record_kind TEXT NOT NULL CHECK (record_kind IN ('inspection', 'electrical_test')),
                number INTEGER NOT NULL,
                record_uuid TEXT NOT NULL,
                PRIMARY KEY (record_kind, number)
            ) WITHOUT ROWID;
            INSERT INTO record_numbers (record_kind, number, record_uuid)
                SELECT 'inspection', id, record_uuid FROM inspections;
            INSERT INTO record_numbers (record_kind, number, record_uuid)
                SELECT 'electrical_test', id, test_uuid FROM electrical_tests;
            CREATE TRIGGER inspections_are_numbered AFTER INSERT ON inspections
            BEGIN INSERT INTO record_numbers (record_kind, number, record_uuid)
                  VALUES ('inspection', NEW.id, NEW.record_uuid); END;
            CREATE TRIGGER electrical_tests_are_numbered AFTER INSERT ON electrical_tests
            BEGIN INSERT INTO record_numbers (record_kind, number, record_uuid)
                  VALUES ('electrical_test', NEW.id, NEW.test_uuid); END;
            CREATE TRIGGER record_numbers_are_never_updated BEFORE UPDATE ON record_numbers
            BEGIN SELECT RAISE(ABORT, 'record numbers are evidence and cannot be changed'); END;
            CREATE TRIGGER record_numbers_are_never_deleted BEFORE DELETE ON record_numbers
            BEGIN SELECT RAISE(ABORT, 'record numbers are evidence and cannot be deleted'); END;
            """),
        // The owner's own plant number (`AssetField.clientRef`): NULL when none, on every asset added before it
        // too, so as an extension column of the asset's hash it leaves their hashes as they were.
        Migration(name: "017-asset-client-refs", sql: "ALTER TABLE assets ADD COLUMN client_ref TEXT;"),
        // Examiners' keys, their retirements and records' signatures: entries of the chain, journaled for sync.
        Migration(name: "018-examiner-keys-and-signatures", sql: SignatureStore.migrationSQL(appendOnly: appendOnly)
            + "\n" + SyncJournal.triggers(for: ["examiner_keys", "key_retirements", "signatures"])),
        // What decides each asset's status, kept and indexed, so the list reads a screenful and range counts
        // (`StatusColumns`), not every row. Triggers make them again from whatever a merge or a pull brings in.
        Migration(name: "019-status-columns", sql: StatusColumns.migrationSQL),
    ]

    /// Rebuilds `assets` from its own definition, its WLL check now asked of lifting equipment only.
    static func rebuildAssetsWithoutWLLCheck(_ db: Database) throws {
        try rebuild(db, table: "assets") { table in
            table.replacingOccurrences(of: "CHECK (wll_kg > 0)",
                                       with: "CHECK (wll_kg > 0 OR asset_kind IS 'electrical')")
        }
    }

    /// Rebuilds a table from its own definition as `change` rewrites it (SQLite cannot drop a constraint in
    /// place): rows copied, its indexes and triggers made again, and every foreign key still holding (checked
    /// before the migration commits). Nothing happens when `change` leaves the definition as it is.
    static func rebuild(_ db: Database, table name: String, change: (String) -> String) throws {
        guard case .text(let table)? = try db.scalar(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) else { return }
        let changed = change(table)
        guard changed != table else { return }
        // Everything from the column list on; the name before it may be quoted (SQLite quotes a renamed table's).
        guard let columns = changed.firstIndex(of: "(") else { return }
        let rebuilt = "CREATE TABLE \(name)_rebuilt " + changed[columns...]
        let dependents = try db.prepare("""
            SELECT sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = ? AND sql IS NOT NULL
            ORDER BY type, name
            """)
        try dependents.bind([.text(name)])
        var dependentSQL: [String] = []
        while try dependents.step() { dependentSQL.append(dependents.text(0)) }
        try db.execute(rebuilt)
        try db.execute("INSERT INTO \(name)_rebuilt SELECT * FROM \(name)")
        try db.execute("DROP TABLE \(name)")
        try db.execute("ALTER TABLE \(name)_rebuilt RENAME TO \(name)")
        for sql in dependentSQL { try db.execute(sql) }
        if try db.scalar("SELECT count(*) FROM pragma_foreign_key_check") != .integer(0) {
            throw RegisterError.invalidAsset(["rebuilding the \(name) table broke a foreign key"])
        }
    }

    /// Triggers that keep an append-only table's rows from being edited, deleted or replaced.
    private static func appendOnly(_ table: String, _ why: String) -> String {
        """
        CREATE TRIGGER \(table)_are_never_updated BEFORE UPDATE ON \(table)
        BEGIN SELECT RAISE(ABORT, '\(why)'); END;
        CREATE TRIGGER \(table)_are_never_deleted BEFORE DELETE ON \(table)
        BEGIN SELECT RAISE(ABORT, '\(why)'); END;
        CREATE TRIGGER \(table)_are_never_replaced BEFORE INSERT ON \(table)
        WHEN EXISTS (SELECT 1 FROM \(table) WHERE id = NEW.id OR entry_hash = NEW.entry_hash)
        BEGIN SELECT RAISE(ABORT, '\(why)'); END;
        """
    }

    /// Applies the migrations this database lacks, each in its own transaction.
    static func migrate(_ db: Database) throws {
        try db.execute(
            "CREATE TABLE IF NOT EXISTS rigbook_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        for migration in migrations where !(try appliedNames(db).contains(migration.name)) {
            if migration.foreignKeysOff { try db.execute("PRAGMA foreign_keys = OFF") }
            defer { if migration.foreignKeysOff { try? db.execute("PRAGMA foreign_keys = ON") } }
            try db.transaction {
                // Read again under the write lock: another process may have applied it meanwhile.
                guard !(try appliedNames(db).contains(migration.name)) else { return }
                try db.execute(migration.sql)
                try migration.then?(db)
                try db.run("INSERT INTO rigbook_migrations (name, applied_at) VALUES (?, datetime('now'))",
                           [.text(migration.name)])
            }
        }
        try refoldSummaries(db)
    }

    static func appliedNames(_ db: Database) throws -> Set<String> {
        let statement = try db.prepare("SELECT name FROM rigbook_migrations")
        var names = Set<String>()
        while try statement.step() { names.insert(statement.text(0)) }
        return names
    }
}
