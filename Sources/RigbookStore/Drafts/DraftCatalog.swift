import Foundation
import RigbookCore

/// A readable draft of any kind with what the Drafts screen and `drafts list` show: the file and who has it open.
public struct ListedDraft<Draft: DraftDocument>: Sendable {
    public var draft: Draft
    public var lockedBy: LockHolder?

    public init(draft: Draft, lockedBy: LockHolder?) {
        self.draft = draft
        self.lockedBy = lockedBy
    }
}

extension ListedDraft: Equatable where Draft: Equatable {}

/// A single form's draft (inspection, asset, test) as listed.
public typealias DraftEntry = ListedDraft<DraftFile>
/// A batch inspection's draft as listed.
public typealias BatchDraftEntry = ListedDraft<BatchDraftFile>

/// Every kind of draft the command line lists, discards and purges: a single form's (inspection, asset, test)
/// and a batch's. One place for the ids of all kinds, so no command forgets one.
extension DraftStore {
    /// The batch drafts present, read; an unreadable one nobody has open is set aside, as `entries()` does, but
    /// one of a newer schema is a newer build's: not ours to move.
    public func batchEntries() -> (drafts: [BatchDraftEntry], setAside: [(file: String, reason: String)]) {
        listing(batchIDs(), read: readBatch(id:), leaving: \.isUnknownSchema)
    }

    /// Each draft of `ids` that `read` reads, with who has it open elsewhere. One it cannot read is set aside and
    /// noted, unless someone has it open or `leaving` says it is to stay where it is.
    func listing<Draft>(_ ids: [String], read: (String) throws(DraftStoreError) -> Draft?,
                        leaving: (DraftStoreError) -> Bool)
        -> (drafts: [ListedDraft<Draft>], setAside: [(file: String, reason: String)]) {
        var drafts: [ListedDraft<Draft>] = []
        var setAsideFiles: [(String, String)] = []
        for id in ids {
            do {
                guard let draft = try read(id) else { continue }
                drafts.append(ListedDraft(draft: draft, lockedBy: isLockedElsewhere(id: id) ? holder(id: id) : nil))
            } catch {
                if !leaving(error), !isLockedElsewhere(id: id), (try? setAside(fileName: id + ".json")) != nil {
                    setAsideFiles.append((id + ".json", error.description))
                }
            }
        }
        return (drafts, setAsideFiles)
    }

    /// True when `text` can begin the id of a draft of any kind (`inspection-`, `asset-`, `test-`, `batch-`).
    public static func isAnyDraftIDPrefix(_ text: String) -> Bool {
        if isDraftIDPrefix(text) { return true }
        let kind = BatchIdentity.prefix
        guard !text.isEmpty, text.count <= kind.count + 36 else { return false }
        if text.count <= kind.count { return kind.hasPrefix(text) }
        return text.hasPrefix(kind) && text.dropFirst(kind.count).allSatisfy { $0 == "-" || $0.isHexDigit }
    }

    /// The ids of the drafts of every kind present that begin with `prefix`.
    public func anyIDs(startingWith prefix: String) -> [String] {
        (ids() + batchIDs()).filter { $0.hasPrefix(prefix) }.sorted()
    }
}
