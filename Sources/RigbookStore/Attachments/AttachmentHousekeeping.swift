import Foundation
import RigbookCore

/// When attachment files go: a discarded draft's files that nothing else names, and at start the
/// files nothing names that are older than an hour. "Names" means any record of the register or any file under
/// `Drafts/` (every kind of draft, its journal, and drafts set aside in `Corrupt/`), read tolerant of format.
/// A register that cannot be read removes nothing.
public enum AttachmentHousekeeping {
    /// The hashes the draft `id` names (its file and its journal): read before it is deleted.
    public static func hashes(ofDraft id: String, in drafts: DraftStore) -> Set<String> {
        hashes(named: [drafts.path(for: id), drafts.journalPath(for: id)])
    }

    /// Every hash any file under `Drafts/` names.
    public static func hashesNamedByDrafts(_ drafts: DraftStore) -> Set<String> {
        hashes(named: [drafts.folder, drafts.corruptFolder].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { !$0.hasSuffix(".lock") }.map { folder + "/" + $0 }
        })
    }

    /// The hashes the files at `paths` name: each a regular file (no link followed, no FIFO waited on) of at
    /// most 8 MB; anything else names none.
    private static func hashes(named paths: [String]) -> Set<String> {
        paths.compactMap { RegularFile.read($0, limit: 8 << 20) }
            .reduce(into: []) { $0.formUnion(AttachmentReferences.hashes(in: $1)) }
    }

    /// Everything that keeps a file: the register's records and every draft. Nil when the register cannot be
    /// read (then nothing may be removed).
    public static func referenced(register: Register, drafts: DraftStore) -> Set<String>? {
        guard let recorded = try? register.referencedAttachmentHashes() else { return nil }
        return recorded.union(hashesNamedByDrafts(drafts))
    }

    /// After a draft naming `hashes` was discarded: removes those files that no record and no other draft names.
    @discardableResult
    public static func release(_ hashes: Set<String>, home: DataHome, register: Register) -> Int {
        guard !hashes.isEmpty, let kept = referenced(register: register, drafts: DraftStore(home: home)) else {
            return 0
        }
        return AttachmentStore(home: home).removeUnreferenced(hashes: hashes, stillReferenced: kept)
    }

    /// At start: files nothing names and older than `grace` go (`AttachmentStore.sweep`). Returns how many.
    @discardableResult
    public static func sweep(home: DataHome, register: Register, now: Date = Date(), grace: TimeInterval = 3600)
        -> Int {
        let store = AttachmentStore(home: home)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: store.folder, isDirectory: &isFolder), isFolder.boolValue,
              let kept = referenced(register: register, drafts: DraftStore(home: home)) else { return 0 }
        return store.sweep(referenced: kept, now: now, grace: grace)
    }
}
