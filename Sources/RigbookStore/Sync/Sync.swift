import Foundation
import RigbookCore

/// The kinds of entry a sync carries, each with the column that identifies it: every kind of the hash chain.
enum SyncJournal {
    struct Table {
        let kind: HashChain.Kind
        let key: String
        var name: String { kind.table }
    }

    static let tables = [
        Table(kind: HashChain.asset, key: "uuid"),
        Table(kind: HashChain.particular, key: "entry_uuid"),
        Table(kind: HashChain.inspection, key: "record_uuid"),
        Table(kind: HashChain.notice, key: "notice_uuid"),
        Table(kind: HashChain.assetChange, key: "change_uuid"),
        Table(kind: HashChain.merge, key: "merge_uuid"),
        Table(kind: HashChain.electricalTest, key: "test_uuid"),
        Table(kind: HashChain.attachment, key: "entry_uuid"),
        Table(kind: SignatureStore.key, key: "entry_uuid"),
        Table(kind: SignatureStore.retirement, key: "entry_uuid"),
        Table(kind: SignatureStore.signature, key: "entry_uuid"),
    ]

    /// The tables migration 013 journaled: frozen, since each later table's own migration journals it.
    static let firstJournaled: Set<String> = ["assets", "particulars", "inspections", "notices", "asset_changes",
                                              "merges", "electrical_tests", "attachments"]

    /// The triggers that note each new entry of the tables `names`.
    static func triggers(for names: Set<String>) -> String {
        tables.filter { names.contains($0.name) }.map { table in
            """
            CREATE TRIGGER \(table.name)_are_journaled AFTER INSERT ON \(table.name)
            BEGIN INSERT INTO sync_journal (entry_table, entry_key) VALUES ('\(table.name)', NEW.\(table.key)); END;
            """
        }.joined(separator: "\n")
    }

    /// Notes the entries already there of the tables `names`, in the chain's order (assets before the records that
    /// name them).
    static func fill(_ names: Set<String>) -> String {
        tables.filter { names.contains($0.name) }.map { table in
            "INSERT INTO sync_journal (entry_table, entry_key) SELECT '\(table.name)', \(table.key)"
                + " FROM \(table.name) ORDER BY \(table.kind.order);"
        }.joined(separator: "\n")
    }

    /// The columns a table has on the server: the hashed ones, the hash and the parent.
    static func serverColumns(_ table: Table) -> [String] {
        table.kind.hashed + [table.kind.hashColumn, "parent_hash"]
    }

    /// The columns whose values are kept tagged on the server (no type in SQLite).
    static let untyped: Set<String> = ["old_value", "new_value"]
}

/// What `rigbook sync` did: entries sent to the server and received from it, by kind, and the merge rules'
/// findings on what was received.
public struct SyncReport: Sendable, Equatable {
    public var serverIdentity = ""
    public var sent: [String: Int] = [:]
    public var received = MergeReport()
    /// How many times the push met another replica's push first and pulled again.
    public var retries = 0
    /// Attachment files sent and received, and those refused for their content.
    public var files = SyncedFiles()

    public var sentCount: Int { sent.values.reduce(0, +) }

    /// One line each way, then the field conflicts resolved and amendments in conflict.
    public var lines: [String] {
        func describe(_ counts: [(String, Int)]) -> String {
            let parts = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
            return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
        }
        let names = ["assets": "assets", "particulars": "particulars", "inspections": "records",
                     "notices": "notices", "asset_changes": "asset changes", "merges": "merges",
                     "electrical_tests": "electrical tests", "attachments": "attachments"]
        let sentParts = SyncJournal.tables.map { (names[$0.name] ?? $0.name, sent[$0.name] ?? 0) }
            + [("attachment files", files.sent)]
        let r = received
        let receivedParts = [("assets", r.assets), ("particulars", r.particulars), ("records", r.records),
                             ("notices", r.notices), ("asset changes", r.assetChanges), ("merges", r.merges),
                             ("electrical tests", r.electricalTests), ("attachments", r.attachments),
                             ("attachment files", files.received)]
        var lines = ["sent \(describe(sentParts))", "received \(describe(receivedParts))"]
        lines += files.problems
        lines += r.fieldConflicts.map { "conflict resolved: \($0)" }
        lines += r.conflictingAmendments.map { "conflicting amendments on \($0): both kept, amend again to settle" }
        return lines
    }
}

extension Register {
    /// Entries per page of a sync: each page is one transaction on the side that takes it.
    public static let syncPageSize = 50_000

    /// Rows a pull reads from the server at a time (one `FETCH` of a page's cursor): what it holds of them.
    static let syncFetchSize = 1_000

    /// The server URL last synced with, if any (`rigbook sync` without a URL uses it).
    public func rememberedServer() throws(RegisterError) -> String? {
        try perform {
            guard case .text(let url)? = try db.scalar(
                "SELECT url FROM sync_servers ORDER BY last_used_at DESC LIMIT 1") else { return nil }
            return url
        }
    }

    /// Syncs with the organisation's server: pulls what the server has and this register lacks, by
    /// the merge rules, in pages of `pageSize` entries, each one transaction here; then pushes what this
    /// register has and the server lacks, in pages, each one transaction there. A push that finds the server
    /// moved on since the pull pulls again first, so two replicas never push clashing tags past each other.
    /// Interrupted anywhere, each side holds whole pages and the next sync completes the work. Then the
    /// attachment files: fetched when the records here name them and they are not here, sent when the server
    /// lacks them (`carryingFiles`). `pushing: false` only pulls (a throwaway replica for reading).
    /// Throws `ServerError` for the server, `RegisterError` for this register or a refusal by the merge rules.
    public func sync(url: String, pushing: Bool = true, carryingFiles: Bool = true,
                     pageSize: Int = Register.syncPageSize, now: String = Timestamp.now()) throws -> SyncReport {
        let server = try PostgresConnection(url: url)
        let identity = try ServerSchema.prepare(server)
        var report = SyncReport(serverIdentity: identity)
        try perform {
            try db.transaction {
                try db.run("INSERT OR IGNORE INTO sync_servers (identity, url, last_used_at) VALUES (?, ?, ?)",
                           [.text(identity), .text(url), .text(now)])
                // Written only when it changes something: a sync that finds nothing new must leave the register
                // as it was, or every background sync would make the list re-read the register (data_version).
                try db.run("""
                    UPDATE sync_servers SET url = ?, last_used_at = ? WHERE identity = ?
                    AND (url <> ? OR last_used_at < (SELECT max(last_used_at) FROM sync_servers WHERE identity <> ?))
                    """, [.text(url), .text(now), .text(identity), .text(url), .text(identity)])
            }
        }
        for attempt in 0..<200 {
            report.retries = attempt
            let pulled = try pull(server, identity: identity, pageSize: pageSize)
            report.received = Self.adding(report.received, pulled)
            guard pushing else { break }
            if try push(server, identity: identity, pageSize: pageSize, sent: &report.sent) { break }
            if attempt == 199 {
                throw ServerError("the server kept changing while this register pushed; sync again", cause: .tryLater)
            }
        }
        if carryingFiles {
            report.files = try pullAttachmentFiles(server)
            if pushing {
                let pushed = try pushAttachmentFiles(server)
                report.files.sent = pushed.sent
                report.files.problems += pushed.problems
            }
        }
        if report.sentCount > 0 || report.received.entries > 0 || report.files.sent + report.files.received > 0 {
            try perform {
                try db.run("UPDATE sync_servers SET last_synced_at = ? WHERE identity = ?",
                           [.text(now), .text(identity)])
            }
        }
        return report
    }

    private static func adding(_ a: MergeReport, _ b: MergeReport) -> MergeReport {
        var sum = a
        sum.assets += b.assets
        sum.records += b.records
        sum.assetChanges += b.assetChanges
        sum.particulars += b.particulars
        sum.notices += b.notices
        sum.merges += b.merges
        sum.electricalTests += b.electricalTests
        sum.attachments += b.attachments
        sum.fieldConflicts += b.fieldConflicts
        sum.conflictingAmendments += b.conflictingAmendments
        return sum
    }

    private func marks(_ identity: String) throws -> (pulled: Int64, pushed: Int64) {
        let statement = try db.prepare("SELECT pulled_through, pushed_through FROM sync_servers WHERE identity = ?")
        try statement.bind([.text(identity)])
        guard try statement.step() else { return (0, 0) }
        return (statement.int64(0), statement.int64(1))
    }

    /// The highest number the server has given an entry (0 for an empty server).
    private static func serverHead(_ server: PostgresConnection) throws -> Int64 {
        let parts = SyncJournal.tables.map { "(SELECT coalesce(max(seq), 0) FROM \($0.name))" }
        guard case .integer(let head)? = try server.scalar("SELECT greatest(\(parts.joined(separator: ", ")))")
        else { return 0 }
        return head
    }

    // MARK: Pull

    /// Brings in what the server received after this register's mark, page by page (`pageSize` entries in the
    /// server's order, each page one transaction here), so memory stays bounded and an interrupted pull leaves
    /// whole pages: the next sync resumes after the last one.
    private func pull(_ server: PostgresConnection, identity: String, pageSize: Int, pages: Int = .max,
                      fetchSize: Int = Register.syncFetchSize) throws -> MergeReport {
        var report = MergeReport()
        var taken = 0
        while taken < pages,
              let page = try pullPage(server, identity: identity, pageSize: pageSize, fetchSize: fetchSize) {
            report = Self.adding(report, page.report)
            taken += 1
            if page.last { break }
        }
        return report
    }

    /// Only the first `pages` pages of a pull, then stops as an interrupted sync would, reading `fetchSize` rows
    /// from the server at a time (for tests).
    func pullPages(url: String, pageSize: Int, pages: Int,
                   fetchSize: Int = Register.syncFetchSize) throws -> MergeReport {
        let server = try PostgresConnection(url: url)
        let identity = try ServerSchema.prepare(server)
        try perform {
            try db.run("INSERT OR IGNORE INTO sync_servers (identity, url, last_used_at) VALUES (?, ?, ?)",
                       [.text(identity), .text(url), .text(Timestamp.now())])
        }
        return try pull(server, identity: identity, pageSize: pageSize, pages: pages, fetchSize: fetchSize)
    }

    /// One page: the entries after the mark up to the `size`-th (or the server's head), applied by the merge
    /// rules in one transaction with the mark moved past them. Nil when nothing came after the mark. A page the
    /// merge rules refuse while more follows is read again twice as long: a push is numbered table by table, so
    /// a page may end between a new asset and the change that gave its tag up on another (those pass together);
    /// only a refusal of everything up to the head is final.
    private func pullPage(_ server: PostgresConnection, identity: String, pageSize: Int,
                          fetchSize: Int) throws -> (report: MergeReport, last: Bool)? {
        let mark = try perform { try marks(identity).pulled }
        var size = max(1, pageSize)
        while true {
            // One snapshot of the server for every table: pushes are serialised, so what is numbered up to the
            // page's end is all there. Its rows come a batch at a time through a cursor into a snapshot on disk:
            // a page's 50,000 entries held whole by libpq and again in an in-memory database were most of a
            // first pull's 300 MB.
            let snapshot = try perform { try makeSnapshot() }
            var received: [String: Int] = [:]
            var head = mark, end = mark
            try server.transaction("ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                head = max(mark, try Self.serverHead(server))
                end = try Self.pageEnd(server, after: mark, size: size) ?? head
                for table in SyncJournal.tables {
                    received[table.name] = try receive(table, from: server, after: mark, through: end,
                                                       into: snapshot, fetchSize: fetchSize)
                }
            }
            guard received.values.contains(where: { $0 > 0 }) else { return nil }
            try perform { try foldSnapshotAssets(snapshot) }
            do {
                let report = try applyPage(snapshot, changesArrived: (received["asset_changes"] ?? 0) > 0,
                                           identity: identity, through: end)
                return (report, end >= head)
            } catch RegisterError.mergeRefused(let problems) {
                guard end < head else { throw RegisterError.mergeRefused(problems) }
                size *= 2
            }
        }
    }

    /// The number of the `size`-th entry after `mark`, nil when fewer follow.
    private static func pageEnd(_ server: PostgresConnection, after mark: Int64, size: Int) throws -> Int64? {
        let numbers = SyncJournal.tables.map { "SELECT seq FROM \($0.name) WHERE seq > $1" }
        guard case .integer(let end)? = try server.scalar(
            "SELECT seq FROM (\(numbers.joined(separator: " UNION ALL "))) entries ORDER BY seq OFFSET $2 LIMIT 1",
            [.integer(mark), .integer(Int64(size - 1))]) else { return nil }
        return end
    }

    /// The page cache while a page goes in: more than SQLite's 2 MB for the register's large indexes, within the
    /// bound a pull keeps to (100 MB resident at 100,000 assets, 37 MB of it the program itself). It was 128 MiB:
    /// at 16 a first pull of 100,000 assets peaks at 72 MB, not 192, for about 3 s more system CPU (35-36 s of CPU
    /// in all, against 32-33), pages the cache no longer holds read again from the operating system's.
    static let pullCacheMiB = 16

    /// Applies one page (`snapshot`, as `receive` filled it) by the merge rules, in one transaction here, the
    /// pull mark moved to `end`. `changesArrived`: the page holds asset changes (conflicts to look for).
    private func applyPage(_ snapshot: Database, changesArrived: Bool, identity: String,
                           through end: Int64) throws -> MergeReport {
        try perform { try db.withRoomForLargeWrite(cacheMiB: Self.pullCacheMiB) {
            try db.transaction {
                let pushed = try marks(identity).pushed
                // This register's changes the server has not seen: the conflicts reported are between them and
                // what arrives (none to look for when no change arrives).
                var unpushed = Set<String>()
                if changesArrived {
                    let changes = try db.prepare("""
                        SELECT entry_key FROM sync_journal WHERE entry_table = 'asset_changes' AND seq > ?
                        AND (pulled_from IS NULL OR pulled_from <> ?)
                        """)
                    try changes.bind([.integer(pushed), .text(identity)])
                    while try changes.step() { unpushed.insert(changes.text(0)) }
                }
                let before = try db.scalar("SELECT coalesce(max(seq), 0) FROM sync_journal") ?? .integer(0)
                let report = try bringIn(snapshot, report: MergeReport(), hereOnly: { unpushed.contains($0) })
                try db.run("UPDATE sync_journal SET pulled_from = ? WHERE seq > ?", [.text(identity), before])
                try db.run("UPDATE sync_servers SET pulled_through = ? WHERE identity = ?",
                           [.integer(end), .text(identity)])
                return report
            }
        } }
    }

    /// A database shaped like this register's evidence tables (their columns, no constraints), empty, for what
    /// the server sends: `bringIn` reads it as it reads another register. A private temporary file (SQLite's
    /// empty name), gone when closed: beyond a small cache its pages wait in the file, not in memory, so a page
    /// of any size fits.
    private func makeSnapshot() throws -> Database {
        let snapshot = try Database(path: "")
        try snapshot.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -2048")
        for table in SyncJournal.tables {
            try snapshot.execute("CREATE TABLE \(table.name) ("
                                 + "\(try columnDefinitions(table.name).joined(separator: ", ")))")
        }
        return snapshot
    }

    /// Streams into the snapshot's `table` the server's entries numbered after `mark` through `end`, a batch
    /// at a time, in the server's order (its number as the `id` where the table has one); returns how many.
    /// Runs in the server's transaction of the page. The server keeps an asset as it was added; the snapshot's
    /// assets get their changes applied afterwards (`foldSnapshotAssets`).
    private func receive(_ table: SyncJournal.Table, from server: PostgresConnection, after mark: Int64,
                         through end: Int64, into snapshot: Database, fetchSize: Int) throws -> Int {
        let serverColumns = SyncJournal.serverColumns(table)
        let hasID = try perform { try columnNamesOf(table.name) }.contains("id")
        let names = serverColumns + (hasID ? ["id"] : [])
        let untyped = serverColumns.map { SyncJournal.untyped.contains($0) }
        // The snapshot's failures as the register's (as every write here), the server's as its own.
        let insert = try perform {
            try snapshot.prepare("INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES ("
                                 + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")")
        }
        try perform { try snapshot.execute("BEGIN") }
        var values = [SQLValue](repeating: .null, count: names.count)
        var count = 0
        try server.forEachBatch("SELECT seq, \(serverColumns.joined(separator: ", ")) FROM \(table.name)"
                                + " WHERE seq > $1 AND seq <= $2 ORDER BY seq",
                                [.integer(mark), .integer(end)], batch: fetchSize) { rows in
            try perform {
                for row in 0..<rows.count {
                    for index in serverColumns.indices {
                        let value = rows.value(row, index + 1)
                        values[index] = untyped[index] ? ServerValue.decode(value) : value
                    }
                    if hasID { values[serverColumns.count] = .integer(rows.int64(row, 0)) }
                    try insert.bind(values)
                    while try insert.step() {}
                }
            }
            count += rows.count
        }
        try perform { try snapshot.execute("COMMIT") }
        return count
    }

    /// Gives the snapshot's changed assets `as_added` (what the server keeps) and their current values.
    private func foldSnapshotAssets(_ snapshot: Database) throws {
        let kind = HashChain.asset
        let fields = AssetField.allCases.map(\.rawValue)
        let statement = try snapshot.prepare("SELECT \(kind.hashed.joined(separator: ", ")) FROM assets"
                                             + " WHERE uuid IN (SELECT asset_uuid FROM asset_changes)")
        var updates: [(uuid: String, asAdded: String, current: [String: SQLValue])] = []
        while try statement.step() {
            var current: [String: SQLValue] = [:]
            for (index, name) in kind.hashed.enumerated() { current[name] = statement.value(Int32(index)) }
            let body = HashChain.body(kind) { current[$0] ?? .null }
            updates.append((statement.text(0), body, current))
        }
        for update in updates {
            guard let uuid = UUID(uuidString: update.uuid),
                  let expected = try AssetChangeStore.expectedColumns(snapshot, assetUUID: uuid,
                                                                      asAdded: update.asAdded,
                                                                      current: update.current) else { continue }
            try snapshot.run("UPDATE assets SET as_added = ?, " + fields.map { "\($0) = ?" }.joined(separator: ", ")
                             + " WHERE uuid = ?",
                             [.text(update.asAdded)] + fields.map { expected[$0] ?? .null } + [.text(update.uuid)])
        }
    }

    /// The table's columns here, each with its default (NOT NULL summary columns start from theirs).
    private func columnNamesOf(_ table: String) throws -> [String] {
        let info = try db.prepare("PRAGMA table_info(\(table))")
        var names: [String] = []
        while try info.step() { names.append(info.text(1)) }
        return names
    }

    private func columnDefinitions(_ table: String) throws -> [String] {
        let info = try db.prepare("PRAGMA table_info(\(table))")
        var definitions: [String] = []
        while try info.step() {
            definitions.append(info.text(1) + (info.isNull(4) ? "" : " DEFAULT (\(info.text(4)))"))
        }
        return definitions
    }

    // MARK: Push

    /// Sends the entries noted after this register's push mark that did not come from this server, page by page
    /// (`pageSize` entries in the order they were noted, each page one transaction there, under the server's
    /// push lock), adding what it sent to `sent`. False when the server received a push since our pull (pull
    /// again first, then push the rest).
    private func push(_ server: PostgresConnection, identity: String, pageSize: Int,
                      sent: inout [String: Int]) throws -> Bool {
        while true {
            guard let page = try pushPage(server, identity: identity, pageSize: max(1, pageSize)) else { return false }
            sent.merge(page.sent, uniquingKeysWith: +)
            if page.last { return true }
        }
    }

    /// One page of a push: nil when the server moved on since our pull.
    private func pushPage(_ server: PostgresConnection, identity: String,
                          pageSize: Int) throws -> (sent: [String: Int], last: Bool)? {
        // What to send, read as of one moment here.
        var batches: [String: [[SQLValue]]] = [:]
        var through: Int64 = 0
        var pulledMark: Int64 = 0
        var last = true
        try perform {
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            let (pulled, pushed) = try marks(identity)
            pulledMark = pulled
            if case .integer(let head)? = try db.scalar("SELECT coalesce(max(seq), 0) FROM sync_journal") {
                through = head
            }
            let pending = try db.prepare("""
                SELECT entry_table, entry_key, seq FROM sync_journal
                WHERE seq > ? AND (pulled_from IS NULL OR pulled_from <> ?) ORDER BY seq LIMIT ?
                """)
            try pending.bind([.integer(pushed), .text(identity), .integer(Int64(pageSize))])
            var keys: [String: [String]] = [:]
            var count = 0
            while try pending.step() {
                keys[pending.text(0), default: []].append(pending.text(1))
                count += 1
                if count == pageSize {
                    through = pending.int64(2)
                    last = false
                }
            }
            for table in SyncJournal.tables {
                guard let tableKeys = keys[table.name], !tableKeys.isEmpty else { continue }
                batches[table.name] = try serverRows(table, keys: tableKeys)
            }
        }
        var sent: [String: Int] = [:]
        var newHead = pulledMark
        if !batches.isEmpty {
            newHead = try server.transaction {
                try server.query("SELECT pg_advisory_xact_lock($1)", [.integer(ServerSchema.lockKey)])
                guard try Self.serverHead(server) == pulledMark else { return -1 }
                for table in SyncJournal.tables {
                    guard let rows = batches[table.name], !rows.isEmpty else { continue }
                    sent[table.name] = try sendMissing(server, table, rows)
                }
                return try Self.serverHead(server)
            }
            guard newHead >= 0 else { return nil }
        }
        try perform {
            try db.transaction {
                try db.run("""
                    UPDATE sync_servers SET pushed_through = ?, pulled_through = ? WHERE identity = ?
                    AND (pushed_through <> ? OR pulled_through <> ?)
                    """, [.integer(through), .integer(newHead), .text(identity), .integer(through),
                          .integer(newHead)])
            }
        }
        return (sent, last)
    }

    /// Copies to the server the rows of `table` it lacks; returns how many. Entries it has already (sent before,
    /// or brought by another replica) must have the same hash, or the push is refused as the merge rules refuse.
    private func sendMissing(_ server: PostgresConnection, _ table: SyncJournal.Table,
                             _ rows: [[SQLValue]]) throws -> Int {
        let columns = SyncJournal.serverColumns(table)
        let keyIndex = columns.firstIndex(of: table.key)!
        let hashIndex = columns.firstIndex(of: table.kind.hashColumn)!
        let keys = rows.map { $0[keyIndex] }.compactMap { if case .text(let t) = $0 { t } else { nil } }
        let existing = try server.query("SELECT \(table.key), \(table.kind.hashColumn) FROM \(table.name)"
                                        + " WHERE \(table.key) = ANY($1::text[])",
                                        [.text(PostgresConnection.arrayLiteral(keys))])
        var held: [String: String] = [:]
        for row in 0..<existing.count { held[existing.text(row, 0)] = existing.text(row, 1) }
        var missing: [[SQLValue]] = []
        var differing: [String] = []
        for row in rows {
            guard case .text(let key) = row[keyIndex] else { continue }
            if let hash = held[key] {
                if row[hashIndex] != .text(hash) {
                    differing.append("\(table.name) entry \(key.lowercased()) is here and on the server with"
                                     + " different contents (verify this register and the server)")
                }
            } else {
                missing.append(row)
            }
        }
        guard differing.isEmpty else { throw RegisterError.mergeRefused(differing) }
        try server.copy(into: table.name, columns: columns, rows: missing)
        return missing.count
    }

    /// The server's columns of the entries of `table` named by `keys`: an asset as it was added (from
    /// `as_added` once it has changed), untyped values tagged.
    private func serverRows(_ table: SyncJournal.Table, keys: [String]) throws -> [[SQLValue]] {
        let columns = SyncJournal.serverColumns(table)
        let snapshot = table.kind.snapshotColumn
        let select = try db.prepare("SELECT \(columns.joined(separator: ", "))\(snapshot.map { ", " + $0 } ?? "")"
                                    + " FROM \(table.name) WHERE \(table.key) = ?")
        var rows: [[SQLValue]] = []
        rows.reserveCapacity(keys.count)
        for key in keys {
            try select.bind([.text(key)])
            guard try select.step() else { continue }
            var values = columns.indices.map { select.value(Int32($0)) }
            if snapshot != nil, let asAdded = select.optionalText(Int32(columns.count)) {
                guard let added = HashChain.parseBody(asAdded) else {
                    throw RegisterError.mergeRefused(["asset \(key.lowercased()) keeps what it was added as in a form"
                                                      + " that cannot be read: run rigbook verify"])
                }
                for (index, name) in columns.enumerated() where table.kind.hashed.contains(name) {
                    values[index] = added[name] ?? .null
                }
            }
            for (index, name) in columns.enumerated() where SyncJournal.untyped.contains(name) {
                values[index] = ServerValue.encode(values[index])
            }
            rows.append(values)
        }
        return rows
    }
}

extension Register {
    /// The name of the folder that caches a replica of the server at `url` (`--server URL` reads it).
    public static func replicaFolderName(forServer url: String) -> String {
        "server-" + ((try? HashChain.sha256(url)).map { String($0.prefix(16)) } ?? "unknown")
    }

    /// A read-only replica of the server's whole register in `folder`, made there on first use and brought up
    /// to date by a pull each time after: what `--server URL` reads, and what `verify --server` checks.
    /// Nothing is ever pushed from it.
    public static func replica(ofServer url: String, in folder: String) throws -> Register {
        let register = try Register.open(path: folder + "/register.sqlite")
        _ = try register.sync(url: url, pushing: false, carryingFiles: false)
        return register
    }
}
