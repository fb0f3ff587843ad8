import Foundation

/// The organisation's register on PostgreSQL: the union of every replica's entries of evidence, each
/// kept as the replica hashed it (its hashed columns, its hash and parent), numbered in the order the server
/// received them (`seq`, one sequence for all tables: a replica pulls what came after the last number it saw).
/// Made by named migrations like the SQLite register; docs/FORMATS.md ("The server") describes it.
enum ServerSchema {
    struct Migration {
        let name: String
        let sql: String
    }

    /// Arbitrary, fixed: the advisory lock that serialises migrations and pushes (`pg_advisory_xact_lock`).
    static let lockKey: Int64 = 0x5249_4742_5359_4E43

    /// Triggers that keep an evidence table's rows from being changed, deleted or truncated.
    private static func appendOnly(_ table: String) -> String {
        """
        CREATE TRIGGER \(table)_are_never_changed BEFORE UPDATE OR DELETE ON \(table)
            FOR EACH ROW EXECUTE FUNCTION rigbook_refuse_change();
        CREATE TRIGGER \(table)_are_never_truncated BEFORE TRUNCATE ON \(table)
            FOR EACH STATEMENT EXECUTE FUNCTION rigbook_refuse_change();
        """
    }

    /// The columns every evidence table starts with.
    private static let seq = "seq bigint PRIMARY KEY DEFAULT nextval('rigbook_entry_seq'),"

    static let migrations: [Migration] = [
        // Values are typed as SQLite declares them (TEXT → text, INTEGER → bigint, REAL → double precision), so
        // a value reads back as the replica hashed it. The asset changes' old and new values have no type in
        // SQLite: they are kept tagged (`i:`, `r:` or `t:` and the value), see `ServerValue`.
        Migration(name: "001-evidence", sql: """
            CREATE TABLE rigbook_server (
                one integer PRIMARY KEY CHECK (one = 1),
                application text NOT NULL CHECK (application = 'rigbook'),
                identity text NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now()
            );
            INSERT INTO rigbook_server (one, application, identity) VALUES (1, 'rigbook', gen_random_uuid()::text);
            CREATE SEQUENCE rigbook_entry_seq;
            CREATE FUNCTION rigbook_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '% on the Rigbook server are evidence and cannot be changed or deleted', TG_TABLE_NAME;
            END $$;
            CREATE TABLE assets (
                \(seq)
                uuid text NOT NULL UNIQUE, tag text NOT NULL, name text NOT NULL, type text NOT NULL,
                wll_kg double precision, length_m double precision, location text NOT NULL,
                manufacturer text NOT NULL, serial_number text NOT NULL, manufactured text, commissioned text,
                interval_months bigint NOT NULL, lifts_persons bigint NOT NULL, examination_scheme text NOT NULL,
                created_at text NOT NULL,
                asset_kind text, equipment_class text, environment text, risk text, interval_reason text,
                entry_hash text NOT NULL UNIQUE, parent_hash text
            );
            CREATE TABLE particulars (
                \(seq)
                entry_uuid text NOT NULL UNIQUE, subject_kind text NOT NULL, subject_uuid text NOT NULL,
                content text NOT NULL, changed_at text NOT NULL, operator text NOT NULL,
                entry_hash text NOT NULL UNIQUE, parent_hash text
            );
            CREATE TABLE inspections (
                \(seq)
                record_uuid text NOT NULL UNIQUE, asset_uuid text NOT NULL, draft_id text NOT NULL,
                amends_uuid text, inspection_type text NOT NULL, inspector_name text NOT NULL,
                certification_number text NOT NULL, check_marking bigint NOT NULL, check_cuts bigint NOT NULL,
                check_deformation bigint NOT NULL, check_fittings bigint NOT NULL, check_corrosion bigint NOT NULL,
                result text NOT NULL, notes text NOT NULL, scheme_reference text NOT NULL,
                defect_description text NOT NULL, action text NOT NULL, remedy_deadline_set bigint NOT NULL,
                remedy_deadline text, inspection_date text NOT NULL, confirmed bigint NOT NULL,
                amendment_reason text, saved_at text NOT NULL, app_version text NOT NULL, operator text NOT NULL,
                asset_wll_kg double precision NOT NULL, asset_location text NOT NULL, report_number text UNIQUE,
                examination_basis text, installed_correctly bigint, test_particulars text, repair_particulars text,
                remedy_particulars text, next_examination_by text, particulars text, visit_uuid text,
                record_hash text NOT NULL UNIQUE, parent_hash text
            );
            CREATE INDEX inspections_by_asset ON inspections (asset_uuid);
            CREATE TABLE notices (
                \(seq)
                notice_uuid text NOT NULL UNIQUE, record_uuid text NOT NULL, duty text NOT NULL,
                recipient text NOT NULL, done_on text, serious_risk bigint, recorded_at text NOT NULL,
                operator text NOT NULL, entry_hash text NOT NULL UNIQUE, parent_hash text
            );
            CREATE TABLE asset_changes (
                \(seq)
                change_uuid text NOT NULL UNIQUE, asset_uuid text NOT NULL, field text NOT NULL,
                old_value text, new_value text, reason text NOT NULL, changed_at text NOT NULL,
                operator text NOT NULL, session_id text, entry_hash text NOT NULL UNIQUE, parent_hash text
            );
            CREATE INDEX asset_changes_by_asset ON asset_changes (asset_uuid);
            CREATE TABLE merges (
                \(seq)
                merge_uuid text NOT NULL UNIQUE, other_identity text NOT NULL, other_head text NOT NULL,
                merged_at text NOT NULL, operator text NOT NULL, entry_hash text NOT NULL UNIQUE, parent_hash text
            );
            CREATE TABLE electrical_tests (
                \(seq)
                test_uuid text NOT NULL UNIQUE, asset_uuid text NOT NULL, draft_id text NOT NULL,
                test_type text NOT NULL, test_date text NOT NULL, technician text NOT NULL,
                licence_number text NOT NULL, instrument_model text NOT NULL, instrument_serial text NOT NULL,
                procedure_reference text NOT NULL, calibration_date text NOT NULL,
                calibration_acknowledged bigint NOT NULL, visual text NOT NULL, earth_continuity_ohm text NOT NULL,
                insulation_mohm text NOT NULL, load_current_a text NOT NULL, leakage_ma text NOT NULL,
                polarity text, rcd_type text, rcd_push_button text, rcd_trip_time_ms text NOT NULL,
                attachments text NOT NULL, notes text NOT NULL, result_choice text NOT NULL, result text NOT NULL,
                verdicts text NOT NULL, limits text NOT NULL, authenticated bigint NOT NULL, saved_at text NOT NULL,
                app_version text NOT NULL, operator text NOT NULL, entry_hash text NOT NULL UNIQUE, parent_hash text
            );
            \(["assets", "particulars", "inspections", "notices", "asset_changes", "merges", "electrical_tests"]
                .map(appendOnly).joined(separator: "\n"))
            """),
        // The replicas' migrations 011 and 012: an amendment settling conflicting amendments names the others it
        // supersedes; files attached to records are entries of their own (the files stay on the machines).
        Migration(name: "002-amendments-superseding-several-and-attachments", sql: """
            ALTER TABLE inspections ADD COLUMN also_amends text;
            CREATE TABLE attachments (
                \(seq)
                entry_uuid text NOT NULL UNIQUE, record_kind text NOT NULL, record_uuid text NOT NULL,
                position bigint NOT NULL, sha256 text NOT NULL, name text NOT NULL, size bigint NOT NULL,
                attached_at text NOT NULL, entry_hash text NOT NULL UNIQUE, parent_hash text
            );
            \(appendOnly("attachments"))
            """),
        // The files the attachments name: pushed by the replicas that have them, pulled by those that
        // lack them, each kept once under its SHA-256, which the server checks against the content.
        Migration(name: "003-attachment-files", sql: """
            CREATE TABLE attachment_files (
                sha256 text PRIMARY KEY, content bytea NOT NULL, received_at timestamptz NOT NULL DEFAULT now(),
                CONSTRAINT attachment_files_are_named_by_their_sha256 CHECK (sha256 = encode(sha256(content), 'hex'))
            );
            \(appendOnly("attachment_files"))
            """),
        // The replicas' migration 017: the owner's own plant number, an extension column of the asset's hash.
        Migration(name: "004-asset-client-refs", sql: "ALTER TABLE assets ADD COLUMN client_ref text;"),
        // The replicas' migration 018: examiners' keys, their retirements and records' signatures.
        Migration(name: "005-examiner-keys-and-signatures", sql: """
            CREATE TABLE examiner_keys (
                \(seq)
                entry_uuid text NOT NULL UNIQUE, fingerprint text NOT NULL UNIQUE, public_key text NOT NULL,
                examiner_name text NOT NULL, sample bigint NOT NULL, added_at text NOT NULL, operator text NOT NULL,
                entry_hash text NOT NULL UNIQUE, parent_hash text
            );
            \(appendOnly("examiner_keys"))
            CREATE TABLE key_retirements (
                \(seq)
                entry_uuid text NOT NULL UNIQUE, fingerprint text NOT NULL UNIQUE, reason text NOT NULL,
                retired_at text NOT NULL, operator text NOT NULL, entry_hash text NOT NULL UNIQUE, parent_hash text
            );
            \(appendOnly("key_retirements"))
            CREATE TABLE signatures (
                \(seq)
                entry_uuid text NOT NULL UNIQUE, record_kind text NOT NULL, record_uuid text NOT NULL,
                record_hash text NOT NULL, fingerprint text NOT NULL, signature text NOT NULL, signed_at text NOT NULL,
                entry_hash text NOT NULL UNIQUE, parent_hash text
            );
            \(appendOnly("signatures"))
            """),
    ]

    /// Checks the database at the other end is a Rigbook server this build understands, making one of an empty
    /// database; returns the server's identity. A database holding anything else, or made by a newer Rigbook,
    /// is refused untouched.
    static func prepare(_ server: PostgresConnection) throws(ServerError) -> String {
        let where_ = ServerURL.redacted(server.url)
        func refuseForeign() throws(ServerError) {
            let tables = try server.query("""
                SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
                  AND c.relkind IN ('r', 'v', 'm', 'S', 'p', 'f') ORDER BY 1 LIMIT 4
                """)
            guard tables.count > 0 else { return }
            let names = (0..<tables.count).map { tables.text($0, 0) }.joined(separator: ", ")
            throw ServerError("\(where_) is not a Rigbook server: it holds other tables (\(names)), so nothing"
                              + " was written to it; give the URL of an empty database made with createdb",
                              cause: .needsAction(problem: "not a Rigbook database"))
        }
        func ledger() throws(ServerError) -> Set<String>? {
            // pg_class read by a query (a fresh snapshot), not to_regclass: after waiting on the advisory lock the
            // catalog cache may not yet know a table another replica's first sync just made.
            guard try server.scalar("""
                SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'public' AND c.relname = 'rigbook_server_migrations'
                """) == .integer(1) else { return nil }
            let rows = try server.query("SELECT name FROM rigbook_server_migrations")
            return Set((0..<rows.count).map { rows.text($0, 0) })
        }
        if let applied = try ledger() {
            let unknown = applied.subtracting(migrations.map(\.name))
            if !unknown.isEmpty {
                throw ServerError("\(where_) was made by a newer Rigbook "
                                  + "(it has \(unknown.sorted().joined(separator: ", "))"
                                  + "): update Rigbook on this machine to sync with it; nothing was written",
                                  cause: .needsAction(problem: "update Rigbook"))
            }
            if applied.isSuperset(of: migrations.map(\.name)) { return try identity(server) }
        }
        // Checked again under the lock, where another replica's first sync has either made the server or not.
        do {
            try server.transaction {
                try server.query("SELECT pg_advisory_xact_lock($1)", [.integer(lockKey)])
                // Read again under the lock: another replica may have made the server meanwhile.
                var applied = try ledger()
                if applied == nil {
                    try refuseForeign()
                    try server.execute("""
                        CREATE TABLE rigbook_server_migrations (name text PRIMARY KEY,
                                                                applied_at timestamptz NOT NULL DEFAULT now())
                        """)
                    applied = []
                }
                for migration in migrations where !(applied ?? []).contains(migration.name) {
                    try server.execute(migration.sql)
                    try server.query("INSERT INTO rigbook_server_migrations (name) VALUES ($1)",
                                     [.text(migration.name)])
                }
            }
        } catch let error as ServerError { throw error } catch { throw ServerError("\(error)") }
        return try identity(server)
    }

    private static func identity(_ server: PostgresConnection) throws(ServerError) -> String {
        guard case .text(let identity)? = try server.scalar("SELECT identity FROM rigbook_server") else {
            throw ServerError("\(ServerURL.redacted(server.url)) is a Rigbook server without its identity row")
        }
        return identity
    }
}

/// How a value without a declared type (an asset change's old and new value) is kept on the server: its SQLite
/// type as a letter, a colon and the value, so it reads back as the same type (its hash depends on it).
enum ServerValue {
    static func encode(_ value: SQLValue) -> SQLValue {
        switch value {
        case .null: .null
        case .integer(let v): .text("i:\(v)")
        case .real(let v): .text("r:\(v)")
        case .text(let v): .text("t:" + v)
        }
    }

    static func decode(_ value: SQLValue) -> SQLValue {
        guard case .text(let text) = value, text.count >= 2 else { return value }
        let body = String(text.dropFirst(2))
        switch text.prefix(2) {
        case "i:": return Int64(body).map(SQLValue.integer) ?? value
        case "r:": return Double(body).map(SQLValue.real) ?? value
        case "t:": return .text(body)
        default: return value
        }
    }
}
