import Foundation
import RigbookCore

/// A draft file (`Documents/Drafts/<draft-id>.json`): the form's values and who was typing them.
/// Never read by lists, statuses, exports or histories; only offered back to a person.
/// The asset editor's drafts (`form_kind` `asset`) are the same file with the asset's fields
/// under `values` (`assetValues`): one store, one lock protocol, one housekeeping for both forms.
public struct DraftFile: Codable, Equatable, Sendable {
    public static let schemaVersion = 1
    public static let formKind = "inspection"
    public static let assetFormKind = "asset"
    /// The electrical test form's drafts (`Drafts/test-<uuid>.json`): the test's fields under `values`.
    public static let testFormKind = "test"
    /// The form kinds this build reads; a draft of another kind (a newer build's) is left alone, never set aside.
    public static let knownFormKinds: Set<String> = [formKind, assetFormKind, testFormKind]

    /// The file's id (form kind + asset UUID), its schema, who wrote it and when: `draft.draftID`, `draft.revision`…
    public var header: DraftHeader
    /// The form session; saved with the record in the register's unique `draft_id` column.
    public var sessionID: String
    public var formKind: String = DraftFile.formKind
    public var assetUUID: String
    public var assetTag: String
    /// The record an amendment corrects, by its id in the register (as shown to the person).
    public var amends: Int64?
    public var values: InspectionValues
    /// The JSON name of the field that had the focus when the draft was written (`notes`); recovery
    /// puts the focus back there. Absent in drafts of earlier builds; a name this build does not know
    /// is kept and ignored.
    public var focusedField: String?

    /// The record an amendment corrects, by its record uuid (lower case); absent from a fresh inspection's
    /// draft and from drafts written before records had uuids (those name the record by `amends` only).
    public var amendsUUID: String?

    /// An asset editor's values (`form_kind` `asset`); nil for an inspection's draft, whose `values` they are.
    public var assetValues: AssetDraft?
    /// A test form's values (`form_kind` `test`); nil for the other kinds.
    public var testValues: TestValues?

    /// Reg 10's answers as typed at a defect's save (`defect_notice`); absent until its questions were asked.
    public var defectNotice: DefectNoticeAnswers?

    /// What a newer build wrote that this one does not read: written back untouched.
    public var unknownKeys = UnknownDraftKeys()

    public var isAmendment: Bool { amends != nil || amendsUUID != nil }
    public var isAssetEdit: Bool { formKind == DraftFile.assetFormKind }
    public var isTest: Bool { formKind == DraftFile.testFormKind }

    /// This draft as a test form's, holding `values`.
    public func holding(_ values: TestValues) -> DraftFile {
        var draft = self
        (draft.formKind, draft.testValues) = (DraftFile.testFormKind, values)
        return draft
    }

    /// This draft as an asset editor's, holding `values`.
    public func holding(_ values: AssetDraft) -> DraftFile {
        var draft = self
        (draft.formKind, draft.assetValues) = (DraftFile.assetFormKind, values)
        return draft
    }

    /// The draft's own keys beside the header's and `values`, whose shape the form kind decides.
    static let jsonFields: [JSONField<DraftFile>] = [
        .required("session_id", \.sessionID),
        .added("form_kind", \.formKind, absent: DraftFile.formKind),
        .required("asset_uuid", \.assetUUID),
        .required("asset_tag", \.assetTag),
        .nullable("amends", \.amends),
        .nullable("focused_field", \.focusedField),
        .added("amends_uuid", \.amendsUUID, absent: nil, omitted: { $0 == nil }),
        // Answers a later build wrote in a shape this one cannot read are asked again, not the draft lost.
        .added("defect_notice", \.defectNotice, absent: nil, omitted: { $0 == nil }, tolerant: true),
    ]

    public init(from decoder: Decoder) throws {
        let blank = DraftFile(draftID: "", sessionID: "", assetUUID: "", assetTag: "", amends: nil,
                              values: InspectionValues(), createdAt: "", updatedAt: "", operatorName: "", revision: 0)
        self = try Self.jsonFields.read(from: decoder, into: blank)
        header = try DraftHeader(from: decoder)
        let c = try decoder.container(keyedBy: JSONKey.self)
        let values = JSONKey("values")
        switch formKind {
        case DraftFile.assetFormKind: assetValues = try c.decode(AssetDraft.self, forKey: values)
        case DraftFile.testFormKind: testValues = try c.decode(TestValues.self, forKey: values)
        default: self.values = try c.decode(InspectionValues.self, forKey: values)
        }
    }

    public init(draftID: String, sessionID: String, assetUUID: String, assetTag: String, amends: Int64?,
                values: InspectionValues, createdAt: String, updatedAt: String, operatorName: String,
                osUser: String = SystemIdentity.userName, host: String = SystemIdentity.hostName,
                pid: Int32 = SystemIdentity.processID, revision: Int, focusedField: String? = nil) {
        header = DraftHeader(draftID: draftID, createdAt: createdAt, updatedAt: updatedAt, operatorName: operatorName,
                             osUser: osUser, host: host, pid: pid, revision: revision)
        self.sessionID = sessionID
        self.assetUUID = assetUUID
        self.assetTag = assetTag
        self.amends = amends
        self.values = values
        self.focusedField = focusedField
    }

    public func encode(to encoder: Encoder) throws {
        try header.encode(to: encoder)
        try Self.jsonFields.write(self, to: encoder)
        var c = encoder.container(keyedBy: JSONKey.self)
        if let assetValues { try c.encode(assetValues, forKey: JSONKey("values")) }
        else if let testValues { try c.encode(testValues, forKey: JSONKey("values")) }
        else { try c.encode(values, forKey: JSONKey("values")) }
    }
}

/// A draft file's model, of any kind (a single form's, a batch's): the store reads and writes them all one way,
/// keeping the keys a newer build wrote (`UnknownDraftKeys`). Its header's fields read as its own.
@dynamicMemberLookup
public protocol DraftDocument: Codable, Sendable {
    /// The top-level keys this build reads and writes.
    static var knownKeys: Set<String> { get }
    /// The keys this build reads and writes under `values` (they differ with the form kind).
    var knownValueKeys: Set<String> { get }
    var unknownKeys: UnknownDraftKeys { get set }
    var header: DraftHeader { get set }
}

extension DraftDocument {
    /// `draft.updatedAt` for `draft.header.updatedAt`: what every kind of draft shares reads as each one's own.
    public subscript<Value>(dynamicMember field: WritableKeyPath<DraftHeader, Value>) -> Value {
        get { header[keyPath: field] }
        set { header[keyPath: field] = newValue }
    }
}

extension DraftFile: DraftDocument {
    public static let knownKeys = jsonFields.keys().union(["values"]).union(DraftHeader.keys)

    public var knownValueKeys: Set<String> {
        switch formKind {
        case DraftFile.assetFormKind: AssetDraft.jsonKeys
        case DraftFile.testFormKind: TestValues.jsonKeys
        default: InspectionValues.jsonKeys
        }
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
    private let path: String
    private var fd: Int32

    init(id: String, path: String, fd: Int32) {
        self.id = id
        self.path = path
        self.fd = fd
    }

    /// Gives the lock back and removes its file, unlinked while it is still held and only if the path still
    /// names the file this lock is on (the lock-file protocol, DECISIONS.md "Drafts").
    public func release() {
        guard fd >= 0 else { return }
        if DraftStore.path(path, names: fd) { unlink(path) }
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
    /// A form kind this build does not know (a newer build's draft): left where it is, never set aside.
    case unknownKind(String)
    case io(String)

    public var description: String {
        switch self {
        case .unreadable(let reason): "unreadable (\(reason))"
        case .unknownSchema(let version): "written with draft schema \(version), which this Rigbook does not know"
        case .unknownKind(let kind): "a draft of a form this Rigbook does not know (\(kind)); left as it is"
        case .io(let reason): reason
        }
    }

    /// What a list leaves where it is instead of setting it aside (`listing(_:read:leaving:)`).
    var isUnknownKind: Bool { if case .unknownKind = self { true } else { false } }
    var isUnknownSchema: Bool { if case .unknownSchema = self { true } else { false } }
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

    /// The kinds of form a draft id may start with: an inspection, the asset editor and the
    /// electrical test form.
    static let kinds = ["inspection-", "asset-", "test-"]

    /// True when `text` can begin a draft id: a beginning of `inspection-` or `asset-`, or that and then hex
    /// digits and dashes, no longer than an id. Never empty.
    public static func isDraftIDPrefix(_ text: String) -> Bool {
        kinds.contains { kind in
            guard !text.isEmpty, text.count <= kind.count + 36 else { return false }
            if text.count <= kind.count { return kind.hasPrefix(text) }
            return text.hasPrefix(kind) && text.dropFirst(kind.count).allSatisfy { $0 == "-" || $0.isHexDigit }
        }
    }

    /// The ids of the drafts present that begin with `prefix` (see `ids()`).
    public func ids(startingWith prefix: String) -> [String] {
        ids().filter { $0.hasPrefix(prefix) }
    }

    /// The asset a draft id names, read from the id alone.
    public static func assetUUID(ofDraftID id: String) -> UUID? {
        guard let kind = kinds.first(where: { id.hasPrefix($0) }), id.count == kind.count + 36 else { return nil }
        return UUID(uuidString: String(id.dropFirst(kind.count)))
    }

    /// Writes the draft atomically and durably (temp file, fsync, rename, fsync of the folder).
    public func write(_ draft: DraftFile, beforeRename: ((String) throws -> Void)? = nil) throws {
        guard DraftStore.isDraftID(draft.draftID) else {
            throw DraftStoreError.io("\(draft.draftID) is not a draft id")
        }
        try writeFile(draft, id: draft.draftID, beforeRename: beforeRename)
    }

    /// Writes a draft of any kind as `<id>.json`, atomically and durably, keys sorted, with the keys a newer build
    /// wrote that this one does not know.
    func writeFile(_ draft: some DraftDocument, id: String, beforeRename: ((String) throws -> Void)? = nil) throws {
        do {
            do { try DataHome.makePrivateDirectory(folder) }
            catch { throw DraftStoreError.io("cannot create \(folder): \(DataHome.reason(error))") }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try AtomicFile.write(Data(try DraftStore.encoded(draft, with: encoder)) + Data("\n".utf8),
                                 to: path(for: id), beforeRename: beforeRename)
        } catch let error as AtomicFile.WriteError {
            throw DraftStoreError.io(error.description)
        } catch let error as DraftStoreError {
            throw error
        } catch {
            throw DraftStoreError.io(DataHome.reason(error))
        }
    }

    /// A draft as JSON: what `encoder` writes, and the keys it was read with that this build does not know.
    static func encoded(_ draft: some DraftDocument, with encoder: JSONEncoder) throws -> [UInt8] {
        draft.unknownKeys.restored(into: Array(try encoder.encode(draft)),
                                   pretty: encoder.outputFormatting.contains(.prettyPrinted))
    }

    /// No draft Rigbook writes comes near this: notes are bounded at 4,000 characters and the other fields
    /// are short, so a bigger file is not ours and is set aside without being read.
    public static let maximumDraftBytes = 1 << 20

    /// The draft with this id, nil when there is none. The file is opened without following a symbolic
    /// link and without blocking (a FIFO), and its size is checked before a byte is read: a link, anything
    /// but a regular file, and a file over `maximumDraftBytes` are `.unreadable`, to be set aside.
    /// Edits in the draft's journal that are newer than the file (a `kill -9` between two durable writes) are
    /// part of it: what is returned is the draft as it was at the last edit the program read.
    public func read(id: String) throws(DraftStoreError) -> DraftFile? {
        let file = try readFileOnly(id: id)
        return journaled(id: id, over: file) ?? file
    }

    /// The draft file alone, without its journal.
    func readFileOnly(id: String) throws(DraftStoreError) -> DraftFile? {
        guard let data = try readBytes(id: id) else { return nil }
        return try DraftStore.decode(data)
    }

    /// The bytes of draft `id` under the rules above; nil when there is none.
    func readBytes(id: String) throws(DraftStoreError) -> Data? {
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
        return data.prefix(count)
    }

    private static func tooBig(_ bytes: Int) -> DraftStoreError {
        .unreadable(String(format: "%.1f MB; no draft comes near 1 MB", Double(bytes) / 1_048_576))
    }

    static func decode(_ data: Data) throws(DraftStoreError) -> DraftFile {
        try decode(data, as: DraftFile.self, formKinds: DraftFile.knownFormKinds)
    }

    /// The draft `data` holds, read by the rules every kind of draft shares: JSON, this schema version, a form kind
    /// this build knows (when `formKinds` names them), the fields this build reads — and the keys it does not know,
    /// kept to be written back.
    static func decode<Draft: DraftDocument>(_ data: Data, as type: Draft.Type,
                                             formKinds: Set<String>? = nil) throws(DraftStoreError) -> Draft {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .unreadable(data.isEmpty ? "empty file" : "not JSON, or cut short")
        }
        guard let version = object["schema_version"] as? Int else { throw .unreadable("no schema_version") }
        guard version == DraftFile.schemaVersion else { throw .unknownSchema(version) }
        if let formKinds, let kind = object["form_kind"] as? String, !formKinds.contains(kind) {
            throw .unknownKind(kind)
        }
        var draft: Draft
        do { draft = try JSONDecoder().decode(Draft.self, from: data) }
        catch { throw .unreadable("fields missing or of the wrong kind") }
        draft.unknownKeys = UnknownDraftKeys(in: Array(data), known: Draft.knownKeys,
                                             knownValues: draft.knownValueKeys)
        return draft
    }

    public func delete(id: String) throws(DraftStoreError) {
        deleteJournal(id: id)
        let file = path(for: id)
        if unlink(file) != 0 && errno != ENOENT {
            throw .io("cannot delete \(file): \(String(cString: strerror(errno)))")
        }
        syncFolder()
    }

    /// Ids of the drafts present, from the file names (and a journal's first byte): the list marks assets with
    /// drafts without reading a single draft.
    /// A journal that holds a line counts (a `kill -9` before the first draft write leaves only the journal,
    /// until the next start folds it in): its draft is then read from it.
    public func ids() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var ids = Set(names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
        for name in names where name.hasSuffix(".journal") && DraftStore.hasContent(journal: folder + "/" + name) {
            ids.insert(String(name.dropLast(8)))
        }
        return ids.filter(DraftStore.isDraftID).sorted()
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
    ///
    /// The lock-file protocol (DECISIONS.md, "Drafts"): whoever removes a lock file holds its lock while
    /// unlinking it, so a lock taken on a file that is no longer at the path (unlinked between our `open`
    /// and our `flock`) protects nothing; it is let go and the file now at the path is locked instead.
    public func lock(id: String) -> LockResult {
        guard DraftStore.isLockableID(id) else { return .failed("\(id) is not a draft id") }
        do { try DataHome.makePrivateDirectory(folder) }
        catch { return .failed("cannot create \(folder): \(DataHome.reason(error))") }
        let file = lockPath(for: id)
        func reason(_ doing: String) -> String { "cannot \(doing) \(file): \(String(cString: strerror(errno)))" }
        for _ in 0..<100 {
            // O_NOFOLLOW: a link planted here must not have us truncate and write whatever it points at.
            let fd = open(file, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return .failed(reason("open")) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                close(fd)
                return .failed("cannot lock \(file): not a regular file")
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let busy = errno == EWOULDBLOCK
                let failure = reason("lock")
                let current = DraftStore.path(file, names: fd)
                close(fd)
                // Held, but no longer at the path: its holder is letting go and has removed it. Lock the next.
                if busy && !current { continue }
                return busy ? .heldBy(holder(id: id)) : .failed(failure)
            }
            guard DraftStore.path(file, names: fd) else {
                flock(fd, LOCK_UN)
                close(fd)
                continue
            }
            let holder = LockHolder(user: SystemIdentity.userName, host: SystemIdentity.hostName,
                                    pid: SystemIdentity.processID, since: Timestamp.now())
            if let data = try? JSONEncoder().encode(holder) {
                ftruncate(fd, 0)
                _ = data.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            }
            return .acquired(DraftLock(id: id, path: file, fd: fd))
        }
        return .failed("cannot lock \(file): it was replaced each time it was locked")
    }

    /// True when `path` names the file open on `fd` (not a link to it, not a new file put in its place).
    static func path(_ path: String, names fd: Int32) -> Bool {
        var held = stat(), named = stat()
        guard fstat(fd, &held) == 0, lstat(path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }

    /// Who the lock file says holds the lock (read without following a link, and at most 4 KB of it).
    public func holder(id: String) -> LockHolder? {
        let fd = open(lockPath(for: id), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return try? JSONDecoder().decode(LockHolder.self, from: Data(buffer[..<count]))
    }

    /// True when another process holds the draft's lock right now.
    public func isLockedElsewhere(id: String) -> Bool {
        let fd = open(lockPath(for: id), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 { return errno == EWOULDBLOCK }
        flock(fd, LOCK_UN)
        return false
    }

    /// Removes the lock files nobody holds, by the protocol: each is locked, then unlinked while held. A
    /// symbolic link where a lock file should be is removed too (no lock is ever taken through one).
    public func removeUnusedLockFiles() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasSuffix(".lock") && DraftStore.isLockableID(String(name.dropLast(5))) {
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFLNK {
                unlink(folder + "/" + name)
            } else if case .acquired(let lock) = lock(id: String(name.dropLast(5))) {
                lock.release()
            }
        }
    }
}
