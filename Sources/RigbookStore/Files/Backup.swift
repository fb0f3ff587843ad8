import CSQLite
import Foundation
import RigbookCore

/// What `rigbook backup` made.
public struct BackupReport: Sendable, Equatable {
    public var path: String
    public var assets: Int
    public var records: Int
    public var bytes: Int
}

extension Register {
    /// Copies the register to `target` while other sessions keep working: SQLite's online backup
    /// API into a private temp file beside the target, `integrity_check` on the copy, mode 0600, then a rename
    /// into place and an fsync of the folder. The copy is a whole register in one file (rollback journal: no
    /// `-wal` beside it), which `rigbook --home` opens like any other.
    ///
    /// Nothing is replaced that is not ours: an existing file at `target` is refused, and with `replacing`
    /// only a Rigbook register is replaced; a link, a folder, a device or a FIFO never is.
    public func backup(to target: String, replacing: Bool = false) throws(RegisterError) -> BackupReport {
        let identity = try perform { try db.scalar("SELECT identity FROM register_chain") }
        try Register.checkBackupTarget(target, replacing: replacing, register: path, identity: identity)
        let folder = (target as NSString).deletingLastPathComponent.isEmpty
            ? "." : (target as NSString).deletingLastPathComponent
        let temp = folder + "/." + (target as NSString).lastPathComponent + ".backup-" + UUID().uuidString.prefix(8)
        let fd = Glibc.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .backupFailed("cannot create a file in \(folder): \(String(cString: strerror(errno)))")
        }
        close(fd)
        var renamed = false
        defer {
            if !renamed { Database.removeAbandoned(temp) }
        }
        var report = BackupReport(path: target, assets: 0, records: 0, bytes: 0)
        do {
            let copy = try Database(path: temp, mode: .readWrite)
            let source = try Database(path: path, mode: readMode == .readOnlyImmutable ? .readOnlyImmutable : .readOnly)
            try Register.copyPages(from: source, to: copy)
            // One file: a backup is carried and copied whole.
            try copy.execute("PRAGMA journal_mode = DELETE")
            guard case .text(let check)? = try copy.scalar("PRAGMA integrity_check"), check == "ok" else {
                throw RegisterError.backupFailed("the copy did not pass SQLite's integrity check")
            }
            if case .integer(let n)? = try copy.scalar("SELECT count(*) FROM assets") { report.assets = Int(n) }
            if case .integer(let n)? = try copy.scalar("SELECT count(*) FROM inspections") { report.records = Int(n) }
        } catch let error as RegisterError {
            throw error
        } catch let error as DatabaseError {
            throw .backupFailed(error.isFull ? "the disk is full" : error.message)
        } catch {
            throw .backupFailed("\(error)")
        }
        // Durable before it takes the target's name, and private whatever the umask.
        let copyFD = Glibc.open(temp, O_RDONLY | O_CLOEXEC)
        guard copyFD >= 0 else { throw .backupFailed("cannot reopen the copy: \(String(cString: strerror(errno)))") }
        var info = stat()
        fstat(copyFD, &info)
        report.bytes = Int(info.st_size)
        let synced = fchmod(copyFD, 0o600) == 0 && fsync(copyFD) == 0
        close(copyFD)
        guard synced else { throw .backupFailed("cannot write the copy: \(String(cString: strerror(errno)))") }
        // Again, just before the rename: something put at the target meanwhile is not replaced either.
        try Register.checkBackupTarget(target, replacing: replacing, register: path, identity: identity)
        if case .regularFile = PathOccupant(target) {
            // An earlier backup of this register, and `replacing`: the one file a backup replaces.
            guard rename(temp, target) == 0 else {
                throw .backupFailed("cannot rename the copy to \(target): \(String(cString: strerror(errno)))")
            }
            renamed = true
        } else {
            // Nothing there a moment ago: linked, not renamed, so a file that appeared since is refused, not replaced
            // (the temp name goes in the deferred clean-up).
            let placed: Bool
            do { placed = try AtomicFile.placeIfFree(temp, at: target) } catch { throw .backupFailed("\(error)") }
            guard placed else {
                throw .backupFailed("\(target) appeared while the copy was made; nothing was replaced: back up to"
                                    + " another FILE")
            }
        }
        let folderFD = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 { fsync(folderFD); close(folderFD) }
        return report
    }

    /// The whole database in one step of the online backup API: one read transaction, so the copy is the
    /// register as of one moment; in WAL mode writers go on meanwhile. A lock held by a writer that is
    /// checkpointing is waited out.
    private static func copyPages(from source: Database, to copy: Database) throws {
        guard let backup = sqlite3_backup_init(copy.handle, "main", source.handle, "main") else {
            throw copy.error(sqlite3_errcode(copy.handle), sql: "backup")
        }
        let deadline = Date().addingTimeInterval(30)
        var rc: Int32
        repeat {
            rc = sqlite3_backup_step(backup, -1)
            if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && Date() < deadline { usleep(10_000) }
        } while rc == SQLITE_OK || ((rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && Date() < deadline)
        let finished = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE, finished == SQLITE_OK else {
            throw copy.error(rc == SQLITE_DONE ? finished : rc, sql: "backup")
        }
    }

    /// Refuses a target that is not ours to replace: anything but a new path, or (when `replacing`) an earlier
    /// backup of this register (its identity, no session on it); any of Rigbook's own files (`OwnFiles`); a
    /// folder that does not exist.
    static func checkBackupTarget(_ target: String, replacing: Bool, register: String,
                                  identity: SQLValue?) throws(RegisterError) {
        let folder = (target as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !folder.isEmpty, !(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory)
                              && isDirectory.boolValue) {
            throw .backupFailed("\(folder) is not an existing folder")
        }
        if let refusal = OwnFiles(register: register).refusal(writing: target) { throw .backupFailed(refusal) }
        let occupant = PathOccupant(target)
        if let refusal = occupant.refusal { throw .backupFailed("cannot write \(target): \(refusal)") }
        guard case .regularFile = occupant else { return }
        guard replacing else {
            throw .backupFailed("\(target) already exists; give --force to replace an earlier backup there")
        }
        do { _ = try inspectFile(path: target) } catch {
            throw .backupFailed("\(target) is not a Rigbook register, so it is not replaced (\(error.description))")
        }
        guard let handle = FileHandle(forReadingAtPath: target),
              let header = try? handle.read(upToCount: 100), header.count == 100 else {
            throw .backupFailed("\(target) cannot be read, so it is not replaced")
        }
        try? handle.close()
        let id = header[68..<72].reduce(Int32(0)) { $0 << 8 | Int32($1) }
        if id != RegisterSchema.applicationID {
            throw .backupFailed("\(target) is not a Rigbook register, so it is not replaced")
        }
        // A register in use (or not closed cleanly) has companions; replacing it under a session corrupts it. A
        // companion left by a session that ended without closing may hold that session's saves: the way on is
        // another name or the session closed, never the companion deleted or moved.
        for companion in ["-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: target + companion) {
            let name = (target as NSString).lastPathComponent + companion
            throw .backupFailed("\(target) has \(name) beside it, so it is not replaced: a session has it open, or "
                                + "one ended without closing it and \(name) may hold its saves. Close that session, "
                                + "or back up to another FILE; do not delete \(name)")
        }
        // Only an earlier backup of this register: another register's file is somebody's evidence.
        let theirs = try? Database(path: target, mode: .readOnlyImmutable)
            .scalar("SELECT identity FROM register_chain")
        guard let identity, theirs == identity else {
            throw .backupFailed("\(target) is another register, not an earlier backup of this one, "
                                + "so it is not replaced")
        }
    }
}
