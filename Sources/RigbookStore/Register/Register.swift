import Foundation
import RigbookCore
#if canImport(Glibc)
import Glibc
#endif

/// The committed register: assets and their inspection records in SQLite. Inspections enter only
/// through `insert(_:)`, which takes a gate-validated record.
public final class Register {
    public let path: String
    let db: Database
    /// How further connections to this register are opened (`rows()` reads a large one on two).
    let readMode: Database.OpenMode
    /// A batch committed without SQLite's automatic checkpoint: the WAL holds its pages until
    /// `checkpointIfDeferred` (or the next ordinary commit, or closing) copies them into the file.
    var checkpointDeferred = false

    init(path: String, db: Database, readMode: Database.OpenMode) {
        self.path = path
        self.db = db
        self.readMode = readMode
    }

    /// Opens the register at `path` to add to it, creating it when there is none: only commands that add
    /// data call this. A file that is not a Rigbook register, is empty (0 bytes), is damaged, comes from a
    /// newer version or stays locked is refused before anything is written to it.
    public static func open(path: String) throws(RegisterError) -> Register {
        if !FileManager.default.fileExists(atPath: path) { try create(path: path) }
        _ = try inspectFile(path: path)
        let db: Database
        do { db = try Database(path: path, mode: .readWrite) }
        catch let error as DatabaseError { throw .cannotOpen(path: path, reason: error.message) }
        catch { throw .cannotOpen(path: path, reason: "\(error)") }
        try configureRetryingWhileBusy(db, path: path)
        return Register(path: path, db: db, readMode: .readOnly)
    }

    /// An empty register in memory, set up as `open` sets up a new one: what a dry run on a home without a
    /// register works on, so that it creates nothing on disk.
    public static func inMemory() throws(RegisterError) -> Register {
        let path = ":memory:"
        do {
            let db = try Database(path: path)
            try configure(db, path: path)
            return Register(path: path, db: db, readMode: .readOnly)
        } catch { throw RegisterError.opening(error, path: path) }
    }

    /// Opens an existing register only to read it (`due`, `asset list`, `history`, exports, reports). It
    /// never creates a register, never writes one, and refuses a missing or empty file, so a wrong home or a
    /// truncated register is an error instead of an empty list. A register of an earlier schema is brought
    /// up to date first (as any Rigbook would on opening it); after that, the connection is read-only.
    public static func openForReading(path: String) throws(RegisterError) -> Register {
        let headerID = try inspectFile(path: path)
        // A write cut short in rollback-journal mode (a sample killed while it loaded, `bulkLoad`) left its journal
        // beside the file, which only a connection that may write rolls back: the register is opened so first, as
        // for an upgrade.
        if journalHoldsChanges(path) { _ = try open(path: path) }
        let walHoldsChanges = walHoldsChanges(path)
        // A register's header carries Rigbook's id once it is made; only while a WAL holds changes not yet
        // copied back may the header still lag behind. Refused here, a foreign file gets no companions.
        if headerID != RegisterSchema.applicationID && !walHoldsChanges {
            throw .notARegister(path: path, reason: "an SQLite database of another application")
        }
        // The connection, or nil (and closed) when the register must be brought up to date first.
        func current() throws(RegisterError) -> Register? {
            let (db, mode) = try connectForReading(path: path, walHoldsChanges: Register.walHoldsChanges(path))
            return try needsUpgrade(db, path: path) ? nil : Register(path: path, db: db, readMode: mode)
        }
        if let register = try current() { return register }
        _ = try open(path: path)
        guard let register = try current() else {
            throw .cannotOpen(path: path, reason: "it could not be brought up to date")
        }
        return register
    }

    /// Whether opening the register at `path` will first bring it up to date (migrations, or statuses refolded
    /// for a newer fold): a one-time wait that takes seconds at 100,000 assets, which the program announces
    /// rather than showing nothing. False for anything it cannot tell (no file, not a register): opening it
    /// reports those.
    public static func willBeBroughtUpToDate(path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path),
              let (db, _) = try? connectForReading(path: path, walHoldsChanges: walHoldsChanges(path)) else {
            return false
        }
        return (try? needsUpgrade(db, path: path)) ?? false
    }

    /// A read-only connection, checked with a first read. SQLite reads a WAL database through its `-wal`
    /// and `-shm` files and makes them when they are missing; where it cannot (a folder this user may not
    /// write, a full disk) and no WAL holds changes, the main file is the whole register: it is then read
    /// as `immutable`. Nobody can be writing it meanwhile: a writer needs those same files.
    static func connectForReading(path: String, walHoldsChanges: Bool)
        throws(RegisterError) -> (Database, Database.OpenMode) {
        func connect(_ mode: Database.OpenMode) throws(RegisterError) -> (Database, Database.OpenMode) {
            do {
                let db = try Database(path: path, mode: mode)
                _ = try db.scalar("SELECT count(*) FROM sqlite_master")
                return (db, mode)
            } catch { throw RegisterError.opening(error, path: path, reading: true) }
        }
        // Neither busy nor damaged (those are said as they are): the companion files could not be made.
        do { return try connect(.readOnly) }
        // Never with a rollback journal beside it: the file may then hold half a write, which only the journal undoes.
        catch .cannotOpen where !walHoldsChanges && !journalHoldsChanges(path) {
            return try connect(.readOnlyImmutable)
        }
        catch .cannotOpen(_, let reason) {
            throw .cannotOpen(path: path, reason: "\(reason); its -wal file holds changes not yet in the register"
                              + " file, which can be read only with write access to its folder")
        }
    }

    /// Whether a `-wal` file beside the register holds anything (changes maybe not yet in the main file).
    static func walHoldsChanges(_ path: String) -> Bool {
        var info = stat()
        return stat(path + "-wal", &info) == 0 && info.st_size > 0
    }

    /// Whether a rollback journal beside the register holds anything: a write in rollback-journal mode that has not
    /// ended (cut short, or still going on in another process).
    static func journalHoldsChanges(_ path: String) -> Bool {
        var info = stat()
        return stat(path + "-journal", &info) == 0 && info.st_size > 0
    }

    /// Refuses a foreign or newer file on a read-only connection; true when the register is of an earlier
    /// schema (migrations or a summary refold pending), which only a writing open can bring up to date.
    static func needsUpgrade(_ db: Database, path: String) throws(RegisterError) -> Bool {
        do {
            let applicationID = try db.scalar("PRAGMA application_id")
            guard applicationID == .integer(Int64(RegisterSchema.applicationID)) else {
                throw RegisterError.notARegister(path: path, reason: "an SQLite database of another application")
            }
            let ledger = try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'rigbook_migrations'")
            guard ledger == .integer(1) else { return true }
            let applied = try RegisterSchema.appliedNames(db)
            let known = Set(RegisterSchema.migrations.map(\.name))
            let unknown = applied.subtracting(known)
            if !unknown.isEmpty { throw RegisterError.newerVersion(path: path, unknownMigrations: unknown.sorted()) }
            guard case .integer(let foldVersion)? = try db.scalar("PRAGMA user_version") else { return true }
            return !known.isSubset(of: applied) || foldVersion < HistorySummary.foldVersion
        } catch { throw RegisterError.opening(error, path: path, reading: true) }
    }

    /// Makes a new register: built and set up beside `path` under a private name, then linked into place
    /// whole. So `path` never names a half-made or empty register that another process starting at the same
    /// moment could meet; if one appears meanwhile, it is kept and ours is dropped.
    private static func create(path: String) throws(RegisterError) {
        let folder = (path as NSString).deletingLastPathComponent
        do { try DataHome.makePrivateDirectory(folder) }
        catch { throw .cannotOpen(path: path, reason: "cannot create \(folder): \(DataHome.reason(error))") }
        let building = folder + "/.register-\(UUID().uuidString.lowercased()).new"
        // Made private before SQLite sees it: drafts and records are private, and so are the WAL's files.
        let fd = Glibc.open(building, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw .cannotOpen(path: path, reason: "cannot create a file in \(folder): \(reason)")
        }
        close(fd)
        // Linked into place or not, the private name goes; its companions too: closed after a failure (a full
        // disk), SQLite leaves its WAL and shared memory, which nothing else would remove.
        defer { Database.removeAbandoned(building) }
        do {
            let db = try Database(path: building, mode: .readWrite)
            try configure(db, path: building)
        } catch { throw RegisterError.opening(error, path: path) }
        // Closed: the WAL is copied into the file and removed. link fails if `path` appeared meanwhile.
        if link(building, path) == 0 || errno == EEXIST { return }
        // A file system without hard links (FAT on a USB stick): a rename, unless the path appeared.
        if !FileManager.default.fileExists(atPath: path), rename(building, path) != 0 {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Two processes opening one register at once can meet SQLITE_BUSY where SQLite does not wait
    /// (switching to WAL needs the file to itself): every step of `configure` is idempotent, so it is
    /// retried for as long as the busy timeout would have waited.
    private static func configureRetryingWhileBusy(_ db: Database, path: String) throws(RegisterError) {
        let deadline = Date().addingTimeInterval(5)
        while true {
            do {
                try configure(db, path: path)
                return
            } catch let error as DatabaseError where error.isBusy && Date() < deadline {
                usleep(20_000)
            } catch {
                throw RegisterError.opening(error, path: path)
            }
        }
    }

    /// Checks the file is a Rigbook register this build understands, then sets it up and migrates it.
    private static func configure(_ db: Database, path: String) throws {
        let tables = try db.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        let applicationID = try db.scalar("PRAGMA application_id")
        if case .integer(let count) = tables, count > 0,
           applicationID != .integer(Int64(RegisterSchema.applicationID)) {
            throw RegisterError.notARegister(path: path, reason: "an SQLite database of another application")
        }
        if case .integer(let count) = tables, count > 0 {
            let known = Set(RegisterSchema.migrations.map(\.name))
            let unknown = try RegisterSchema.appliedNames(db).subtracting(known)
            if !unknown.isEmpty { throw RegisterError.newerVersion(path: path, unknownMigrations: unknown.sorted()) }
            // Statuses folded by a newer fold: this build would write summaries of another meaning beside them.
            if case .integer(let fold)? = try db.scalar("PRAGMA user_version"), fold > HistorySummary.foldVersion {
                throw RegisterError.newerVersion(path: path, unknownMigrations: ["status fold \(fold)"])
            }
        }
        try db.execute("PRAGMA foreign_keys = ON")
        // Only a new or fully recognised file gets here: these are the first writes.
        if try db.scalar("PRAGMA journal_mode") != .text("wal") {
            try db.execute("PRAGMA journal_mode = WAL")
        }
        try db.execute("PRAGMA synchronous = FULL")
        if applicationID != .integer(Int64(RegisterSchema.applicationID)) {
            try db.execute("PRAGMA application_id = \(RegisterSchema.applicationID)")
        }
        try RegisterSchema.migrate(db)
    }

    /// Checks the file at `path` without SQLite, so a foreign or empty file is refused untouched: it must
    /// be a regular file, not empty, and (from its 100-byte header) an SQLite database of no other
    /// application. Returns the application id in the header.
    static func inspectFile(path: String) throws(RegisterError) -> Int32 {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { throw .missing(path: path) }
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .notARegister(path: path, reason: "not a regular file")
        }
        if info.st_size == 0 { throw .emptyFile(path: path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotOpen(path: path, reason: "permission denied")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        let magic = Data("SQLite format 3\0".utf8)
        guard header.count == 100, header.prefix(16) == magic else {
            throw .notARegister(path: path, reason: "not an SQLite database")
        }
        let id = header[68..<72].reduce(Int32(0)) { $0 << 8 | Int32($1) }
        if id != 0 && id != RegisterSchema.applicationID {
            throw .notARegister(path: path, reason: "an SQLite database of another application")
        }
        return id
    }

    /// Why this register can only be read, in words, or nil when it can be written. The full-screen program
    /// says so from the start (a save would fail), as the reading commands do.
    public var readOnlyReason: String? {
        db.isReadOnly ? (permissionRefusal ?? "it was opened only to read") : nil
    }

    /// Why this user may not write the register file or its folder (a read-only file system, permissions), nil
    /// when both may be written. Names, not paths: the reason must fit the full-screen program's notice line.
    public var permissionRefusal: String? {
        let folder = (path as NSString).deletingLastPathComponent
        let names = [(path, (path as NSString).lastPathComponent),
                     (folder, "its folder " + (folder as NSString).lastPathComponent)]
        for (target, what) in names where access(target, W_OK) != 0 {
            return errno == EROFS ? "it is on a read-only file system" : "you may not write " + what
        }
        return nil
    }

    /// Wraps store work so every SQLite failure surfaces as a one-line `RegisterError`.
    func perform<T>(_ body: () throws -> T) throws(RegisterError) -> T {
        do { return try body() }
        catch let error as RegisterError { throw error }
        catch let error as DatabaseError { throw RegisterError.from(error, path: path) }
        catch { throw .writeFailed("\(error)") }
    }

    // MARK: Assets

    public func assetCount() throws(RegisterError) -> Int {
        try perform {
            guard case .integer(let count) = try db.scalar("SELECT count(*) FROM assets") else { return 0 }
            return Int(count)
        }
    }

    public func recordCount() throws(RegisterError) -> Int {
        try perform {
            guard case .integer(let count) = try db.scalar("SELECT count(*) FROM inspections") else { return 0 }
            return Int(count)
        }
    }

    public func addAsset(_ asset: Asset) throws(RegisterError) {
        let problems = asset.problems()
        guard problems.isEmpty else { throw .invalidAsset(problems) }
        try perform {
            try db.transaction {
                // Checked under the write lock, so two writers adding one tag both get a clear answer.
                if let refusal = try refusal(ofNewTag: asset.tag) { throw refusal }
                try insertAsset(try db.prepare(AssetColumns.insertSQL), asset, summary: .empty)
            }
        }
    }

    func insertAsset(_ statement: Statement, _ asset: Asset, summary: HistorySummary,
                     createdAt: String = Timestamp.now()) throws {
        let values = AssetColumns.values(asset, summary: summary, createdAt: createdAt)
        try statement.bind(try HashChain.chained(db, HashChain.asset, columns: AssetColumns.written, values))
        while try statement.step() {}
    }

    /// Every asset with its summary, in tag order. The list sorts by status on top of this. Retired assets
    /// are left out unless asked for: the active list, `due`, the calendar and the report skip them.
    /// A large register is read in two halves on two connections at once (this is the start-up cost), each
    /// straight into its end of one array: the lower half forwards from the front, the upper half backwards from
    /// the back, so a million rows are never held twice (the two halves and their join were 1.5 times
    /// the rows at their peak).
    public func rows(includingRetired: Bool = false) throws(RegisterError) -> [RegisterRow] {
        try perform {
            let count = try assetCount()
            let active = includingRetired ? "" : " AND retired_on IS NULL"
            // The middle is found on the tag keys' index (a fortieth of the table): walking half the table to
            // it was 13 ms of a 100,000-asset start. For ASCII tags a key sorts where its tag does (NOCASE
            // folds ASCII alone), so each half is the size it was given; other tags may tip a few rows over,
            // and the reader keeps those aside.
            guard count >= 20_000,
                  case .text(let middle)? = try db.scalar(
                      "SELECT tag_key FROM assets WHERE tag_key IS NOT NULL ORDER BY tag_key LIMIT 1 OFFSET ?",
                      [.integer(Int64(count / 2))])
            else { return try Register.readRows(db, condition: "WHERE 1" + active, arguments: [], capacity: count) }
            let path = self.path, readMode = self.readMode
            let lower = try db.prepare("SELECT \(AssetColumns.selectThroughFunction) FROM assets WHERE tag < ?\(active)"
                                       + " ORDER BY tag")
            try lower.bind([.text(middle)])
            return try HalvesReader.read(capacity: count, split: count / 2, lower: lower) {
                let connection = try Database(path: path, mode: readMode)
                let upper = try connection.prepare("SELECT \(AssetColumns.selectThroughFunction) FROM assets"
                                                   + " WHERE tag >= ?\(active)"
                                                   + " ORDER BY tag DESC")
                try upper.bind([.text(middle)])
                return (connection, upper)
            }
        }
    }

    /// Every asset in tag order, one at a time, none held: for commands that write many rows (1,000,000 rows
    /// as an array are some 600 MB). `body` returns false to stop early (its own error, kept by the caller).
    public func forEachRow(includingRetired: Bool = false, _ body: (RegisterRow) -> Bool) throws(RegisterError) {
        try perform {
            let active = includingRetired ? "" : " WHERE retired_on IS NULL"
            let statement = try db.prepare("SELECT \(AssetColumns.selectThroughFunction) FROM assets\(active)"
                                           + " ORDER BY tag")
            try db.eachRow(statement) { body(AssetColumns.row($0)) }
        }
    }

    /// The assets with these uuids, one at a time in the order given, none held (`due` reads its items again in
    /// attention order this way). A uuid no longer in the register is skipped; `body` returns false to stop.
    public func forEachRow(uuids: some Sequence<UUID>, _ body: (RegisterRow) -> Bool) throws(RegisterError) {
        try perform {
            let statement = try db.prepare("SELECT \(AssetColumns.select) FROM assets WHERE uuid = ?")
            for uuid in uuids {
                try statement.bind([.text(uuid.uuidString)])
                if try statement.step(), !body(AssetColumns.row(statement)) { return }
            }
        }
    }

    /// Runs `body`'s reads on one snapshot of the register (a read transaction), so reads that go over the
    /// register twice see the same rows both times, whatever another process saves meanwhile.
    public func onOneSnapshot<T>(_ body: () throws -> T) throws -> T {
        try perform { try db.execute("BEGIN") }
        defer { try? db.execute("COMMIT") }
        return try body()
    }

    /// Carries the second half back from its thread.
    private static func readRows(_ db: Database, condition: String, arguments: [SQLValue],
                                 capacity: Int) throws -> [RegisterRow] {
        let statement = try db.prepare("SELECT \(AssetColumns.selectThroughFunction) FROM assets \(condition)"
                                       + " ORDER BY tag")
        try statement.bind(arguments)
        var rows: [RegisterRow] = []
        rows.reserveCapacity(capacity)
        try db.eachRow(statement) { rows.append(AssetColumns.row($0)); return true }
        return rows
    }

    /// The asset with this tag, tags compared as people compare them (`Tags.key`: NFC, full case folding).
    /// Tags kept from a register made before that rule may share a key (SL-ß and SL-SS): then only the
    /// exact tag picks one, and any other spelling is refused as ambiguous rather than guessed.
    public func asset(tag: String) throws(RegisterError) -> RegisterRow? {
        try perform {
            let matches = try rows(sharingKeyWith: tag)
            // A tag changed since still finds its asset, unless another asset has it now.
            if matches.isEmpty { return try formerHolder(ofTag: tag) }
            guard matches.count > 1 else { return matches.first }
            let exact = matches.filter { $0.asset.tag == tag }
            if exact.count == 1 { return exact[0] }
            throw RegisterError.ambiguousTag(tag, matches: matches.map(\.asset.tag))
        }
    }

    /// Every asset whose tag has the key of `tag`: the one holding the key, and any kept without one
    /// by the migration that brought keys in.
    func rows(sharingKeyWith tag: String) throws -> [RegisterRow] {
        let key = Tags.key(tag)
        let statement = try db.prepare(
            "SELECT \(AssetColumns.select) FROM assets WHERE tag_key = ? OR tag_key IS NULL ORDER BY tag")
        try statement.bind([.text(key)])
        var rows: [RegisterRow] = []
        while try statement.step() {
            let row = AssetColumns.row(statement)
            if Tags.key(row.asset.tag) == key { rows.append(row) }
        }
        return rows
    }

    /// Why `tag`, typed or imported for a new asset or as `assetUUID`'s new tag, is refused: another asset holds
    /// it, or one that looks like it (`Tags.clash`). Only under the write lock. A merge brings tags in without
    /// this: its tags were typed on another replica and are kept as they are.
    func refusal(ofNewTag tag: String, for assetUUID: UUID? = nil) throws -> RegisterError? {
        // The tags that could clash: those keyed like it or like its skeleton (an ASCII tag's skeleton is its
        // key), those kept without a key, and those with a character outside ASCII (found on the narrow key index).
        let statement = try db.prepare("""
            SELECT tag, uuid FROM assets WHERE tag_key IN (?, ?) OR tag_key IS NULL
                OR tag_key IN (SELECT tag_key FROM assets WHERE tag_key GLOB '*[^ -~]*')
            """)
        try statement.bind([.text(Tags.key(tag)), .text(Tags.skeleton(tag))])
        var lookAlike: String?
        while try statement.step() {
            guard statement.uuid(1) != assetUUID, let clash = Tags.clash(tag, with: statement.text(0)) else { continue }
            if case .same = clash { return .duplicateTag(tag) }
            lookAlike = lookAlike ?? clash.existing
        }
        return lookAlike.map { .lookAlikeTag(tag, existing: $0) }
    }

    public func asset(uuid: UUID) throws(RegisterError) -> RegisterRow? {
        try perform { try firstRow("WHERE uuid = ?", .text(uuid.uuidString)) }
    }

    func firstRow(_ condition: String, _ argument: SQLValue) throws -> RegisterRow? {
        let statement = try db.prepare("SELECT \(AssetColumns.select) FROM assets \(condition)")
        try statement.bind([argument])
        return try statement.step() ? AssetColumns.row(statement) : nil
    }

    // MARK: Inspections

    /// The asset's records, newest first (by inspection date, then save order).
    public func history(assetUUID: UUID) throws(RegisterError) -> [StoredInspection] {
        try perform {
            let statement = try db.prepare("""
                SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from) WHERE i.asset_uuid = ?
                ORDER BY i.inspection_date DESC, i.id DESC
                """)
            try statement.bind([.text(assetUUID.uuidString)])
            var records: [StoredInspection] = []
            while try statement.step() { records.append(InspectionColumns.record(statement)) }
            return try StoredInspection.withStanding(records).map(withAttachments)
        }
    }

    /// The records of every asset whose amendments fork (a record amended on two registers, merged), read
    /// through `StoredInspection.withStanding`, by record uuid: what a read of a few records, or of the whole
    /// register, takes each record's standing from. Empty (one query on the amendments' index) when none forks.
    func standingOfForkedChains() throws -> [UUID: StoredInspection] {
        let forked = try db.prepare("""
            SELECT DISTINCT asset_uuid FROM inspections WHERE amends_uuid IN (
                SELECT amends_uuid FROM inspections WHERE amends_uuid IS NOT NULL
                GROUP BY amends_uuid HAVING count(*) > 1)
            """)
        var assets: [UUID] = []
        while try forked.step() { if let asset = forked.uuid(0) { assets.append(asset) } }
        var settled: [UUID: StoredInspection] = [:]
        for asset in assets {
            let statement = try db.prepare(
                "SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from) WHERE i.asset_uuid = ?")
            try statement.bind([.text(asset.uuidString)])
            var records: [StoredInspection] = []
            while try statement.step() { records.append(InspectionColumns.record(statement)) }
            for record in StoredInspection.withStanding(records) { settled[record.recordUUID] = record }
        }
        return settled
    }

    /// Every record, in id (save) order, streamed so a large register is never held twice in memory.
    public func forEachRecord(_ body: (StoredInspection) throws -> Void) throws(RegisterError) {
        try forEachTaggedRecord { record, _ in try body(record) }
    }

    /// As `forEachRecord`, each with its asset's tag now ("" if the register holds no such asset), read by the
    /// same statement: the export names every record's asset without holding a million assets' tags.
    public func forEachTaggedRecord(_ body: (StoredInspection, String) throws -> Void) throws(RegisterError) {
        try perform {
            let statement = try db.prepare("""
                SELECT \(InspectionColumns.select), (SELECT t.tag FROM assets t WHERE t.uuid = i.asset_uuid)
                FROM \(InspectionColumns.from) ORDER BY i.id
                """)
            let tagColumn = statement.columnCount - 1
            let attachments = try allAttachmentsByRecord()
            let settled = try standingOfForkedChains()
            while try statement.step() {
                var record = InspectionColumns.record(statement)
                if !settled.isEmpty { record = record.taking(standingOf: settled[record.recordUUID]) }
                if !attachments.isEmpty { record.values.attachments = attachments[record.recordUUID] ?? [] }
                try body(record, statement.optionalText(tagColumn) ?? "")
            }
        }
    }

    /// Each asset's latest thorough examination that still counts (not amended), for reports.
    /// Only the assets in `assets`, when given: the others' records are passed over before they are decoded (a
    /// report that shows a few thousand examinations does not hold every asset's).
    public func latestThoroughExaminations(of assets: Set<UUID>? = nil) throws(RegisterError)
        -> [UUID: StoredInspection] {
        try perform {
            let thorough = InspectionType.allCases.filter(\.isThorough)
                .map { "'\($0.rawValue)'" }
                .joined(separator: ", ")
            let statement = try db.prepare("""
                SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from)
                WHERE i.inspection_type IN (\(thorough)) AND s.id IS NULL
                ORDER BY i.asset_uuid, i.inspection_date, i.id
                """)
            var latest: [UUID: StoredInspection] = [:]
            let settled = try standingOfForkedChains()
            while try statement.step() {
                if let assets, !assets.contains(statement.uuid(1) ?? UUID()) { continue }
                let record = InspectionColumns.record(statement)
                // A conflicting amendment outranked by the other one does not count either.
                if settled[record.recordUUID]?.counts == false { continue }
                latest[record.assetUUID] = record
            }
            return latest
        }
    }

    /// Records that still count (not amended) with a *Fail – dangerous* or a withdrawal, dated `from`
    /// through `through`, in date then save order: what the report keeps visible for its period.
    public func dangerousFindings(from: CalendarDate, through: CalendarDate) throws(RegisterError)
        -> [StoredInspection] {
        try perform {
            let statement = try db.prepare("""
                SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from)
                WHERE (i.result = 'fail_dangerous' OR i.action = 'withdraw') AND i.inspection_date BETWEEN ? AND ?
                  AND s.id IS NULL
                ORDER BY i.inspection_date, i.id
                """)
            try statement.bind([.text(from.iso), .text(through.iso)])
            var records: [StoredInspection] = []
            while try statement.step() { records.append(InspectionColumns.record(statement)) }
            return try countingOnly(records)
        }
    }

    public func inspection(id: Int64) throws(RegisterError) -> StoredInspection? {
        try perform {
            let statement = try db.prepare(
                "SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from) WHERE i.id = ?")
            try statement.bind([.integer(id)])
            guard try statement.step() else { return nil }
            let record = InspectionColumns.record(statement)
            return try withAttachments(record.taking(standingOf: standingOfForkedChains()[record.recordUUID]))
        }
    }

    /// `records` (each of which nothing supersedes) without the conflicting amendments another one outranks.
    func countingOnly(_ records: [StoredInspection]) throws -> [StoredInspection] {
        let settled = try standingOfForkedChains()
        return settled.isEmpty ? records : records.filter { settled[$0.recordUUID]?.counts != false }
    }

    public func containsSession(id sessionID: String) throws(RegisterError) -> Bool {
        try perform {
            // An inspection form's session is on its record; an asset editor's on its changes.
            try db.scalar("SELECT 1 FROM inspections WHERE draft_id = ?1 UNION ALL"
                          + " SELECT 1 FROM asset_changes WHERE session_id = ?1 UNION ALL"
                          + " SELECT 1 FROM electrical_tests WHERE draft_id = ?1", [.text(sessionID)]) != nil
        }
    }

    /// The only write path for evidence: one transaction inserts the record (with a new record uuid) and
    /// refreshes the asset's summary columns. An amendment must name a record of the same asset that no
    /// other record amends yet. Returns the new record's id.
    /// A thorough examination copies its particulars (with the date of the last thorough examination before
    /// it), adds its examiner to the register's when they are new, and opens its reg 10 notices
    /// (`defectNotices`: the answers a defect asks for at save; without them the employer is not yet told).
    @discardableResult
    public func insert(_ record: ValidatedInspection, saved: SaveStamp,
                       defectNotices: DefectNotices? = nil) throws(RegisterError) -> Int64 {
        try perform {
            try db.transaction {
                var known: Particulars?
                return try insertInTransaction(record, saved: saved, defectNotices: defectNotices, visit: nil,
                                               known: &known, encoder: ReportParticularsEncoder())
            }
        }
    }

    /// A batch inspection's save: one record per asset, each validated by the gate on its own,
    /// all linked by `visit`, in ONE transaction: every record is in the register, or (any failing) none is.
    /// The defect's reg 10 answers, asked once for the batch, open the notices of each record. Returns the new
    /// records' ids in the order given.
    @discardableResult
    public func insert(batch records: [ValidatedInspection], visit: UUID, saved: SaveStamp,
                       defectNotices: DefectNotices? = nil) throws(RegisterError) -> [Int64] {
        guard Set(records.map(\.assetUUID)).count == records.count else {
            throw .writeFailed("a batch names an asset twice")
        }
        // A batch dirties pages of every unique index at random places; with SQLite's default 2 MB cache it
        // spends its time re-reading them.
        return try perform { try db.withRoomForLargeWrite(cacheMiB: 32) {
            // The commit is durable once the WAL is synced; copying its ~1,700 pages into the file (SQLite's
            // automatic checkpoint at commit) was a third of the save. It waits for `checkpointIfDeferred`.
            try db.execute("PRAGMA wal_autocheckpoint = 0")
            defer { try? db.execute("PRAGMA wal_autocheckpoint = 1000") }
            checkpointDeferred = true
            return try db.transaction {
                // Every asset retired since the batch was opened, named at once, before anything is written.
                let retired = try retiredAssets(records.filter { $0.amends == nil }.map(\.assetUUID))
                if !retired.isEmpty { throw RegisterError.retired(retired) }
                var ids: [Int64] = []
                ids.reserveCapacity(records.count)
                // Read once for the batch (the examiner is looked up for every record), kept current as it adds.
                var known: Particulars? = try ParticularsStore.current(db)
                let encoder = ReportParticularsEncoder()
                // A record refused half-way (its session saved already, its asset gone) rolls back every one.
                try HashChain.holdingHead(db) {
                    for record in records {
                        ids.append(try insertInTransaction(record, saved: saved, defectNotices: defectNotices,
                                                           visit: visit, known: &known, encoder: encoder))
                    }
                }
                return ids
            }
        } }
    }

    /// One record inside the caller's write transaction: checks under the lock, the row with its chain
    /// columns, its notices, the asset's summary. Returns the record's id.
    private func insertInTransaction(_ record: ValidatedInspection, saved: SaveStamp, defectNotices: DefectNotices?,
                                     visit: UUID?, known: inout Particulars?,
                                     encoder: ReportParticularsEncoder) throws -> Int64 {
        // Kept statements: a batch runs these once per record.
        let row = try db.withKept("SELECT \(AssetColumns.select) FROM assets WHERE uuid = ?",
                                  [.text(record.assetUUID.uuidString)]) { try $0.step() ? AssetColumns.row($0) : nil }
        guard let row else { throw RegisterError.unknownAsset(record.assetUUID.uuidString) }
        // Read under the write lock: retired in another session since the form opened (the gate judged the asset
        // as it was then). Its records may still be corrected, as the gate allows.
        if record.amends == nil, let retired = RegisterError.RetiredAsset(row.asset) {
            throw RegisterError.retired([retired])
        }
        if try db.withKept("SELECT 1 FROM inspections WHERE draft_id = ?", [.text(record.sessionID)],
                           { try $0.step() }) {
            throw RegisterError.duplicateSession(record.sessionID)
        }
        let amendsID = try amendedID(record)
        let alsoAmends = try record.amends.map { try otherHeads(amending: $0, assetUUID: record.assetUUID) } ?? []
        // The history before this record: item 4 of its report, and (with it) the asset's new summary.
        let history = try facts(assetUUID: record.assetUUID)
        let particulars = try copiedParticulars(record, history: history, amendsID: amendsID, saved: saved,
                                                known: &known)
        // Time-ordered: it goes to the end of the record uuid index (and of the notices' index by record).
        let recordUUID = UUID.timeOrdered()
        let values = InspectionColumns.values(record, recordUUID: recordUUID, amendsID: amendsID,
                                              asset: row.asset, saved: saved,
                                              particularsJSON: try particulars.map(encoder.encode),
                                              visit: visit, alsoAmends: alsoAmends.map(\.uuid))
        try db.withKept(InspectionColumns.insertSQL, try chained(values, record)) { while try $0.step() {} }
        let id = db.lastInsertRowID
        try SignatureStore.appendPending(db)
        // Its files follow it onto the chain, in the same transaction: a record never names half of them.
        try AttachmentColumns.append(db, record.values.attachments, kind: AttachmentColumns.inspectionKind,
                                     recordUUID: recordUUID, attachedAt: saved.savedAt)
        for notice in NoticeStore.opened(by: record, recordUUID: recordUUID, particulars: particulars,
                                         answers: defectNotices) {
            try NoticeStore.append(db, notice, stamp: saved)
        }
        let summary = HistorySummary(history: history + [record.facts(id: id, savedAt: saved.savedAt,
                                                                      alsoAmends: alsoAmends.map(\.id))
                                                            .known(as: recordUUID)])
        try storeSummary(asset: row.asset, summary)
        return id
    }

    /// Which of `assets` are retired, in the order given: one query for a whole batch.
    func retiredAssets(_ assets: [UUID]) throws -> [RegisterError.RetiredAsset] {
        guard !assets.isEmpty else { return [] }
        let list = "[" + assets.map { "\"\($0.uuidString)\"" }.joined(separator: ",") + "]"
        let statement = try db.prepare("SELECT \(AssetColumns.select) FROM assets"
                                       + " WHERE retired_on IS NOT NULL AND uuid IN (SELECT value FROM json_each(?))")
        try statement.bind([.text(list)])
        var found: [UUID: RegisterError.RetiredAsset] = [:]
        while try statement.step() {
            let asset = AssetColumns.row(statement).asset
            found[asset.uuid] = RegisterError.RetiredAsset(asset)
        }
        return assets.compactMap { found[$0] }
    }

    /// What the status rules need of an asset's records, read straight from their columns (no joins, no
    /// particulars): the fold is the same as over `history(assetUUID:)`'s facts.
    func facts(assetUUID: UUID) throws -> [RecordFacts] {
        try db.withKept("""
            SELECT id, inspection_type, result, action, remedy_deadline_set, remedy_deadline, inspection_date, amends,
                   next_examination_by, saved_at, \(InspectionColumns.alsoAmendsIDs("inspections")), record_uuid
            FROM inspections WHERE asset_uuid = ?
            """, [.text(assetUUID.uuidString)]) { s in
            var facts: [RecordFacts] = []
            while try s.step() {
                facts.append(RecordFacts(
                    id: s.int64(0), type: s.word(1) ?? .thoroughPeriodic, result: s.word(2) ?? .pass,
                    action: s.word(3) ?? .none, remedyDeadline: s.int(4) != 0 ? s.date(5) : nil,
                    inspectionDate: s.date(6) ?? CalendarDate(dayNumber: 0), amends: s.isNull(7) ? nil : s.int64(7),
                    nextExaminationBy: s.date(8), savedAt: s.text(9))
                    .alsoAmending(InspectionColumns.ids(s.optionalText(10))).known(as: s.uuid(11)))
            }
            return facts
        } + testFacts(assetUUID: assetUUID)
    }

    /// The records a batch inspection saved under `visit`, in save order.
    public func records(visit: UUID) throws(RegisterError) -> [StoredInspection] {
        try perform {
            let statement = try db.prepare("SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from)"
                                           + " WHERE i.visit_uuid = ? ORDER BY i.id")
            try statement.bind([.text(visit.uuidString)])
            var records: [StoredInspection] = []
            while try statement.step() { records.append(InspectionColumns.record(statement)) }
            let settled = try standingOfForkedChains()
            return try records.map { try withAttachments($0.taking(standingOf: settled[$0.recordUUID])) }
        }
    }

    /// The particulars a thorough examination copies: the gate's, with the last thorough examination before
    /// this one (leaving out the record it amends and any amended), and its examiner, added to the register's
    /// examiners here when new (qualification: the certification number typed).
    /// `known`: the particulars in force, when the caller has read them already (a batch reads them once).
    private func copiedParticulars(_ record: ValidatedInspection, history: [RecordFacts], amendsID: Int64?,
                                   saved: SaveStamp, known: inout Particulars?) throws -> ReportParticulars? {
        guard var particulars = record.particulars else { return nil }
        let amended = Set(history.compactMap(\.amends) + [amendsID].compactMap { $0 })
        particulars.previousThoroughExamination = history
            .filter { $0.type.isThorough && !amended.contains($0.id) && $0.inspectionDate <= record.inspectionDate }
            .map(\.inspectionDate).max()?.iso
        if particulars.examiner == nil {
            var current = try known ?? ParticularsStore.current(db)
            let examiner = current.examiner(named: record.values.inspectorName)
                ?? Examiner(name: record.values.inspectorName, qualification: record.values.certificationNumber)
            if current.examiners[examiner.uuid] == nil {
                try ParticularsStore.append(db, .examiner(examiner), stamp: saved)
                current.apply(.examiner(examiner))
            }
            if known != nil { known = current }
            particulars.examiner = examiner
        }
        return particulars
    }

    /// `values` with the record's report number (a thorough examination takes the next of the register's
    /// gap-free sequence), its hash and its parent, the head; moves the head to it. Only inside the write
    /// transaction that inserts the record, so the sequence and the chain are taken under its lock.
    private func chained(_ values: [SQLValue], _ record: ValidatedInspection) throws -> [SQLValue] {
        var reportNumber = SQLValue.null
        if record.values.inspectionType.isThorough {
            try db.withKept("UPDATE register_chain SET report_sequence = report_sequence + 1", []) {
                while try $0.step() {}
            }
            reportNumber = try db.withKept("SELECT identity, report_sequence FROM register_chain", []) { row in
                guard try row.step() else { throw RegisterError.writeFailed("the register has lost its chain row") }
                return .text(ReportNumber.make(identity: row.text(0), sequence: row.int(1)))
            }
        }
        return try HashChain.chained(db, HashChain.inspection, columns: InspectionColumns.written,
                                     values + [reportNumber])
    }

    /// The id here of the record `record` amends, checked under the write lock: it exists, belongs to the
    /// same asset, and no other record supersedes it yet (one live amendment per record).
    private func amendedID(_ record: ValidatedInspection) throws -> Int64? {
        guard let uuid = record.amends else { return nil }
        let shown = record.amendsID.map { "#\($0)" } ?? uuid.uuidString.lowercased()
        let statement = try db.prepare("""
            SELECT i.id, i.asset_uuid, s.id FROM \(InspectionColumns.from) WHERE i.record_uuid = ?
            """)
        try statement.bind([.text(uuid.uuidString)])
        guard try statement.step() else {
            throw RegisterError.invalidAmendment("record \(shown) is not in the register")
        }
        let id = statement.int64(0)
        guard statement.uuid(1) == record.assetUUID else {
            throw RegisterError.invalidAmendment("record #\(id) is not a record of this asset")
        }
        if !statement.isNull(2) { throw RegisterError.alreadyAmended(record: id, by: statement.int64(2)) }
        return id
    }

    /// The other live amendments of the chain `amended` heads (with their ids here): what amending it
    /// supersedes besides it. Empty unless a merge brought in conflicting amendments.
    private func otherHeads(amending amended: UUID, assetUUID: UUID) throws -> [(uuid: UUID, id: Int64)] {
        var links: [AmendmentLink] = []
        var ids: [UUID: Int64] = [:]
        try db.withKept("SELECT id, record_uuid, amends_uuid, also_amends FROM inspections "
                        + "WHERE asset_uuid = ? ORDER BY id",
                        [.text(assetUUID.uuidString)]) { s in
            while try s.step() {
                guard let uuid = s.uuid(1) else { continue }
                ids[uuid] = s.int64(0)
                links.append(AmendmentLink(record: uuid, amends: s.uuid(2),
                                           alsoAmends: InspectionColumns.alsoAmendsUUIDs(s.optionalText(3))))
            }
        }
        return AmendmentChains.otherHeads(amending: amended, in: links)
            .compactMap { uuid in ids[uuid].map { (uuid, $0) } }
    }

    /// Recomputes the asset's summary from its whole history with the same fold the status rules use.
    func refreshSummary(asset: Asset) throws {
        try storeSummary(asset: asset, HistorySummary(history: try facts(assetUUID: asset.uuid)))
    }

    func storeSummary(asset: Asset, _ summary: HistorySummary) throws {
        try db.folding { try db.withKept("UPDATE assets SET \(AssetColumns.summaryAssignments) WHERE uuid = ?",
                        AssetColumns.summaryValues(asset, summary) + [.text(asset.uuid.uuidString)]) {
            while try $0.step() {}
        } }
    }

    /// Runs `body` with relaxed durability and a larger page cache: for loading invented sample data,
    /// never for evidence (a crash mid-load loses only the sample, and `sample` refills an empty register).
    /// The page cache is large: every record is put into indexes on random keys (its uuid, its hash), and at a
    /// million assets a small cache read an index page back from disk for nearly every one. 512 MiB, not more: with
    /// the batches in hand, a million-asset sample then stays under a gigabyte.
    public func bulkLoading<T>(_ body: () throws -> T) throws -> T {
        try db.execute("PRAGMA synchronous = OFF")
        defer { try? db.execute("PRAGMA synchronous = FULL") }
        return try db.withRoomForLargeWrite(cacheMiB: 512, body)
    }

    /// Bulk load for `sample`: assets with their inspection records and electrical tests (both from their gates)
    /// in one transaction, summaries folded in memory. `saved` gives each record and test its stamp from its date,
    /// and `recordUUID` its uuid (sample data stamps records with their own date and draws uuids from its seed, so
    /// the same seed always gives the same register). A batch holds no amendments.
    /// `signer` gives who signs a record or test of an examiner on a date (none: unsigned); its keys must be the
    /// register's already.
    public func load(_ batch: [(asset: Asset, records: [ValidatedInspection], tests: [ValidatedTest])],
                     saved: (CalendarDate) -> SaveStamp, recordUUID: () -> UUID = UUID.init,
                     signer: (_ examiner: String, _ on: CalendarDate) -> RecordSigner? = { _, _ in nil })
        throws(RegisterError) {
        let prepared: LoadBatch
        do { prepared = try LoadBatch(batch) } catch { throw .writeFailed("\(error)") }
        try load(prepared, saved: saved, recordUUID: recordUUID, signer: signer)
    }

    /// A batch for `load` with each record's particulars already written as JSON: the costly part that needs no
    /// register, so a bulk load can make the next batch on another core while this one is written.
    public struct LoadBatch: Sendable {
        let items: [(asset: Asset, records: [ValidatedInspection], tests: [ValidatedTest])]
        let particularsJSON: [[String?]]

        public init(_ items: [(asset: Asset, records: [ValidatedInspection], tests: [ValidatedTest])]) throws {
            self.items = items
            // The save path's encoder: the parts every record shares are encoded once (JSONEncoder, run for each
            // record, was over half the work of making a sample's chunk).
            let encoder = ReportParticularsEncoder()
            particularsJSON = try items.map { try $0.records.map { try $0.particulars.map(encoder.encode) } }
        }

        /// What an asset's records and tests fold to, stamped by `saved`, summarised in memory as the load inserts
        /// them: ids grow in insertion order, so the offsets order the fold exactly as the ids will.
        static func summary(records: [ValidatedInspection], tests: [ValidatedTest],
                            saved: (CalendarDate) -> SaveStamp) -> HistorySummary {
            HistorySummary(history: records.enumerated().map {
                $1.facts(id: Int64($0), savedAt: saved($1.inspectionDate).savedAt)
            } + tests.enumerated().map { $1.facts(id: Int64($0)) })
        }
    }

    /// `load` of a prepared batch.
    public func load(_ batch: LoadBatch, saved: (CalendarDate) -> SaveStamp, recordUUID: () -> UUID = UUID.init,
                     signer: (_ examiner: String, _ on: CalendarDate) -> RecordSigner? = { _, _ in nil })
        throws(RegisterError) {
        try load(batch, addedAt: { Timestamp.now() }, saved: saved, recordUUID: recordUUID, signer: signer)
    }

    /// `load` with the assets' times of adding from `addedAt` (the clock; a test gives two loads one time).
    func load(_ batch: LoadBatch, addedAt: () -> String, saved: (CalendarDate) -> SaveStamp, recordUUID: () -> UUID,
              signer: (_ examiner: String, _ on: CalendarDate) -> RecordSigner?) throws(RegisterError) {
        try perform {
            defer { db.signer = nil }
            try db.transaction { try HashChain.holdingHead(db) {
                let assetStatement = try db.prepare(AssetColumns.insertSQL)
                let recordStatement = try db.prepare(InspectionColumns.insertSQL)
                for ((asset, records, tests), particulars) in zip(batch.items, batch.particularsJSON) {
                    try insertAsset(assetStatement, asset,
                                    summary: LoadBatch.summary(records: records, tests: tests, saved: saved),
                                    createdAt: addedAt())
                    for (record, particularsJSON) in zip(records, particulars) {
                        let values = InspectionColumns.values(
                            record, recordUUID: recordUUID(), amendsID: nil, asset: asset,
                            saved: saved(record.inspectionDate), particularsJSON: particularsJSON)
                        db.signer = signer(record.values.inspectorName, record.inspectionDate)
                        try recordStatement.bind(try chained(values, record))
                        while try recordStatement.step() {}
                        try SignatureStore.appendPending(db)
                    }
                    for test in tests {
                        db.signer = signer(test.values.technician, test.testDate)
                        _ = try appendTest(test, testUUID: recordUUID(), asset: asset, saved: saved(test.testDate))
                    }
                    db.signer = nil
                }
            } }
        }
    }
}

/// Who saved a record, when, and with which version of Rigbook.
public struct SaveStamp: Sendable {
    public var savedAt: String
    /// When the notices a save opens were entered: the same instant, moved onto the program's today where
    /// `RIGBOOK_TODAY` fixes it. A notice's day is compared with today (`notices`: days open), so both come
    /// from one clock; `savedAt` keeps the wall clock, by which saves are ordered.
    public var enteredAt: String
    public var appVersion: String
    public var operatorName: String

    /// A save made now, unless `savedAt` says when (the notices it opens are then entered at that instant too).
    /// `today` is read from the clock (and `RIGBOOK_TODAY`) only when it is needed and not given: a bulk load stamps
    /// millions of records, and reading the environment each time was half its work.
    public init(savedAt: String? = nil, appVersion: String = RigbookVersion.current,
                operatorName: String = SystemIdentity.userName, today: CalendarDate? = nil) {
        let now = Date()
        self.savedAt = savedAt ?? Timestamp.string(now)
        self.enteredAt = savedAt ?? Timestamp.string(CalendarDate.instant(now, movedOnto: today ?? .today()))
        self.appVersion = appVersion
        self.operatorName = operatorName
    }
}
