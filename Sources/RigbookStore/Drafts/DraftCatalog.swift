import Foundation
import RigbookCore

/// A batch inspection's draft as `drafts list` shows it: the file and who has it open.
public struct BatchDraftEntry: Sendable, Equatable {
    public var draft: BatchDraftFile
    public var lockedBy: LockHolder?

    public init(draft: BatchDraftFile, lockedBy: LockHolder?) {
        self.draft = draft
        self.lockedBy = lockedBy
    }
}

/// Every kind of draft the command line lists, discards and purges: a single form's (inspection, asset, test)
/// and a batch's. One place for the ids of all kinds, so no command forgets one.
extension DraftStore {
    /// The batch drafts present, read; an unreadable one nobody has open is set aside, as `entries()` does.
    public func batchEntries() -> (drafts: [BatchDraftEntry], setAside: [(file: String, reason: String)]) {
        var drafts: [BatchDraftEntry] = []
        var setAsideFiles: [(String, String)] = []
        for id in batchIDs() {
            do {
                guard let draft = try readBatch(id: id) else { continue }
                drafts.append(BatchDraftEntry(draft: draft, lockedBy: isLockedElsewhere(id: id) ? holder(id: id) : nil))
            } catch DraftStoreError.unknownSchema {
                continue  // a newer build's: not ours to move
            } catch {
                if !isLockedElsewhere(id: id), (try? setAside(fileName: id + ".json")) != nil {
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
