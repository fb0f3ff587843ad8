import Foundation
import RigbookCore

/// A draft file (`Documents/Drafts/<draft-id>.json`): the form's values and who was typing them.
/// Never read by lists, statuses, exports or histories; only offered back to a person.
public struct DraftFile: Codable, Equatable, Sendable {
    public static let schemaVersion = 1
    public static let formKind = "inspection"

    public var schemaVersion: Int = DraftFile.schemaVersion
    /// The file's id: form kind + asset UUID.
    public var draftID: String
    /// The form session; saved with the record in the register's unique `draft_id` column.
    public var sessionID: String
    public var formKind: String = DraftFile.formKind
    public var assetUUID: String
    public var assetTag: String
    /// The record an amendment corrects, by its id in the register (as shown to the person).
    public var amends: Int64?
    public var values: InspectionValues
    public var createdAt: String
    public var updatedAt: String
    public var appVersion: String = RigbookVersion.current
    /// The inspector named in the form, else the OS user.
    public var operatorName: String
    public var osUser: String
    public var host: String
    public var pid: Int32
    /// Counts writes of this draft: a newer file always has a higher revision.
    public var revision: Int
    /// The JSON name of the field that had the focus when the draft was written (`notes`); recovery
    /// puts the focus back there. Absent in drafts of earlier builds; a name this build does not know
    /// is kept and ignored.
    public var focusedField: String?

    /// The record an amendment corrects, by its record uuid (lower case); absent from a fresh inspection's
    /// draft and from drafts written before records had uuids (those name the record by `amends` only).
    public var amendsUUID: String?

    public var isAmendment: Bool { amends != nil || amendsUUID != nil }

    public init(draftID: String, sessionID: String, assetUUID: String, assetTag: String, amends: Int64?,
                values: InspectionValues, createdAt: String, updatedAt: String, operatorName: String,
                osUser: String = SystemIdentity.userName, host: String = SystemIdentity.hostName,
                pid: Int32 = getpid(), revision: Int, focusedField: String? = nil) {
        self.draftID = draftID
        self.sessionID = sessionID
        self.assetUUID = assetUUID
        self.assetTag = assetTag
        self.amends = amends
        self.values = values
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.operatorName = operatorName
        self.osUser = osUser
        self.host = host
        self.pid = pid
        self.revision = revision
        self.focusedField = focusedField
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case draftID = "draft_id"
        case sessionID = "session_id"
        case formKind = "form_kind"
        case assetUUID = "asset_uuid"
        case assetTag = "asset_tag"
        case amends, values
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case appVersion = "app_version"
        case operatorName = "operator"
        case osUser = "os_user"
        case host, pid, revision
        case focusedField = "focused_field"
        case amendsUUID = "amends_uuid"
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schemaVersion, forKey: .schemaVersion)
        try c.encode(draftID, forKey: .draftID)
        try c.encode(sessionID, forKey: .sessionID)
        try c.encode(formKind, forKey: .formKind)
        try c.encode(assetUUID, forKey: .assetUUID)
        try c.encode(assetTag, forKey: .assetTag)
        try c.encode(amends, forKey: .amends)
        try c.encode(values, forKey: .values)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(appVersion, forKey: .appVersion)
        try c.encode(operatorName, forKey: .operatorName)
        try c.encode(osUser, forKey: .osUser)
        try c.encode(host, forKey: .host)
        try c.encode(pid, forKey: .pid)
        try c.encode(revision, forKey: .revision)
        try c.encode(focusedField, forKey: .focusedField)
        try c.encodeIfPresent(amendsUUID, forKey: .amendsUUID)
    }
}

/// Who holds a draft's lock (written into the `.lock` file by the holder).
public struct LockHolder: Codable, Equatable, Sendable {
    public var user: String
    public var host: String
    public var pid: Int32
    public var since: String

    public var description: String { "\(user) on \(host) (pid \(pid), since \(since))" }
}

/// An flock held on `<draft-id>.lock` while a form is open. The kernel drops it when the process
/// dies, so a crashed session never leaves a stale lock behind.
public final class DraftLock {
    public let id: String
    private var fd: Int32

    init(id: String, fd: Int32) {
        self.id = id
        self.fd = fd
    }

    public func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}

public enum DraftStoreError: Error, CustomStringConvertible, Equatable {
    /// Truncated, not JSON, or not a draft.
    case unreadable(String)
    case unknownSchema(Int)
    case io(String)

    public var description: String {
        switch self {
        case .unreadable(let reason): "unreadable (\(reason))"
        case .unknownSchema(let version): "written with draft schema \(version), which this Rigbook does not know"
        case .io(let reason): reason
        }
    }
}

/// The draft files: atomic durable writes, locks, and the housekeeping done at start.
public struct DraftStore: Sendable {
    public let folder: String
    public var corruptFolder: String { folder + "/Corrupt" }

    public init(home: DataHome) { folder = home.draftsFolder }

    public func path(for id: String) -> String { folder + "/" + id + ".json" }
    func lockPath(for id: String) -> String { folder + "/" + id + ".lock" }

    /// Draft ids are made by Rigbook (`inspection-<uuid>`); anything else in the folder is not ours to open.
    public static func isDraftID(_ id: String) -> Bool {
        assetUUID(ofDraftID: id) != nil
    }

    /// The asset a draft id names, read from the id alone.
    public static func assetUUID(ofDraftID id: String) -> UUID? {
        guard id.hasPrefix("inspection-"), id.count == 11 + 36 else { return nil }
        return UUID(uuidString: String(id.dropFirst(11)))
    }

    /// Writes the draft atomically and durably (temp file, fsync, rename, fsync of the folder).
    public func write(_ draft: DraftFile, beforeRename: ((String) throws -> Void)? = nil) throws {
        guard DraftStore.isDraftID(draft.draftID) else {
            throw DraftStoreError.io("\(draft.draftID) is not a draft id")
        }
        do {
            do { try DataHome.makePrivateDirectory(folder) }
            catch { throw DraftStoreError.io("cannot create \(folder): \(DataHome.reason(error))") }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try AtomicFile.write(try encoder.encode(draft) + Data("\n".utf8), to: path(for: draft.draftID),
                                 beforeRename: beforeRename)
        } catch let error as AtomicFile.WriteError {
            throw DraftStoreError.io(error.description)
        } catch let error as DraftStoreError {
            throw error
        } catch {
            throw DraftStoreError.io(DataHome.reason(error))
        }
    }

    /// No draft Rigbook writes comes near this: notes are bounded at 4,000 characters and the other fields
    /// are short, so a bigger file is not ours and is set aside without being read.
    public static let maximumDraftBytes = 1 << 20

    /// The draft with this id, nil when there is none. The file is opened without following a symbolic
    /// link and without blocking (a FIFO), and its size is checked before a byte is read: a link, anything
    /// but a regular file, and a file over `maximumDraftBytes` are `.unreadable`, to be set aside.
    public func read(id: String) throws(DraftStoreError) -> DraftFile? {
        let file = path(for: id)
        let fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw .unreadable("a symbolic link, not followed")
            default: throw .io("cannot read \(file): \(String(cString: strerror(errno)))")
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io("cannot read \(file): \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable("not a regular file") }
        let cap = DraftStore.maximumDraftBytes
        guard info.st_size <= cap else { throw DraftStore.tooBig(Int(info.st_size)) }
        // Read at most one byte past the cap, so a file that grows meanwhile is still never read whole.
        var data = Data(count: cap + 1)
        var count = 0
        while count <= cap {
            let got = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, cap + 1 - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw .io("cannot read \(file): \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            count += got
        }
        guard count <= cap else { throw DraftStore.tooBig(count) }
        return try DraftStore.decode(data.prefix(count))
    }

    private static func tooBig(_ bytes: Int) -> DraftStoreError {
        .unreadable(String(format: "%.1f MB; no draft comes near 1 MB", Double(bytes) / 1_048_576))
    }

    static func decode(_ data: Data) throws(DraftStoreError) -> DraftFile {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .unreadable(data.isEmpty ? "empty file" : "not JSON, or cut short")
        }
        guard let version = object["schema_version"] as? Int else { throw .unreadable("no schema_version") }
        guard version == DraftFile.schemaVersion else { throw .unknownSchema(version) }
        do { return try JSONDecoder().decode(DraftFile.self, from: data) }
        catch { throw .unreadable("fields missing or of the wrong kind") }
    }

    public func delete(id: String) throws(DraftStoreError) {
        let file = path(for: id)
        if unlink(file) != 0 && errno != ENOENT {
            throw .io("cannot delete \(file): \(String(cString: strerror(errno)))")
        }
        syncFolder()
    }

    /// Ids of the drafts present, from the file names alone: the list marks assets with drafts
    /// without reading a single draft.
    public func ids() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") }
            .map { String($0.dropLast(5)) }
            .filter(DraftStore.isDraftID)
            .sorted()
    }

    /// Moves an unreadable draft to `Corrupt/`, never deleting it. Returns the new path.
    @discardableResult
    public func setAside(fileName: String) throws(DraftStoreError) -> String {
        do { try DataHome.makePrivateDirectory(corruptFolder) }
        catch { throw .io("cannot create \(corruptFolder): \(DataHome.reason(error))") }
        // link() refuses an existing name, so a file already set aside is never replaced.
        let source = folder + "/" + fileName
        for attempt in 0..<1000 {
            let target = corruptFolder + "/" + (attempt == 0 ? fileName : "\(fileName).\(attempt)")
            // linkat without AT_SYMLINK_FOLLOW: a symbolic link is moved as the link, its target untouched.
            if linkat(AT_FDCWD, source, AT_FDCWD, target, 0) == 0 {
                unlink(source)
                syncFolder()
                return target
            }
            guard errno == EEXIST else { break }
        }
        throw .io("cannot move \(fileName) to \(corruptFolder): \(String(cString: strerror(errno)))")
    }

    private func syncFolder() {
        let fd = open(folder, O_RDONLY | O_DIRECTORY)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    // MARK: Locks

    public enum LockResult {
        case acquired(DraftLock)
        /// Someone else has the form open; nil holder when they have not written who yet.
        case heldBy(LockHolder?)
        case failed(String)
    }

    /// Takes the draft's lock without waiting, and writes who holds it into the lock file.
    public func lock(id: String) -> LockResult {
        guard DraftStore.isDraftID(id) else { return .failed("\(id) is not a draft id") }
        do { try DataHome.makePrivateDirectory(folder) }
        catch { return .failed("cannot create \(folder): \(DataHome.reason(error))") }
        let file = lockPath(for: id)
        let fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failed("cannot open \(file): \(String(cString: strerror(errno)))") }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let busy = errno == EWOULDBLOCK
            close(fd)
            return busy ? .heldBy(holder(id: id)) : .failed("cannot lock \(file): \(String(cString: strerror(errno)))")
        }
        let holder = LockHolder(user: SystemIdentity.userName, host: SystemIdentity.hostName, pid: getpid(),
                                since: Timestamp.now())
        if let data = try? JSONEncoder().encode(holder) {
            ftruncate(fd, 0)
            _ = data.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        return .acquired(DraftLock(id: id, fd: fd))
    }

    /// Who the lock file says holds the lock.
    public func holder(id: String) -> LockHolder? {
        guard let data = FileManager.default.contents(atPath: lockPath(for: id)) else { return nil }
        return try? JSONDecoder().decode(LockHolder.self, from: data)
    }

    /// True when another process holds the draft's lock right now.
    public func isLockedElsewhere(id: String) -> Bool {
        let fd = open(lockPath(for: id), O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 { return errno == EWOULDBLOCK }
        flock(fd, LOCK_UN)
        return false
    }
}
