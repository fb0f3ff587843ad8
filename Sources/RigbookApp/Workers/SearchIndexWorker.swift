import Foundation
import RigbookUI
import Synchronization

/// Makes the list's filter index on a thread of its own once the loop is idle after a load (the first
/// filter key at a million assets made it, half a second). It works from a copy of the list; the result waits in
/// a mailbox the loop looks at before each event, and the list takes it only if its rows are still the ones the
/// copy had (`ListState.adopt`). While it runs the copy keeps the rows it was given: if the list loads others
/// meanwhile, both are held until it ends.
final class SearchIndexWorker: Sendable {
    private let mailbox = Mutex<PreparedSearchIndex?>(nil)
    private let busy = Mutex(false)
    private let running = DispatchGroup()

    var isRunning: Bool { busy.withLock { $0 } }

    /// Starts making the index of `list` unless one is being made (that one is then set aside by the list if it
    /// no longer fits, and the filter makes its own).
    func start(_ list: ListState) {
        let started = busy.withLock { running in
            if running { return false }
            running = true
            return true
        }
        guard started else { return }
        running.enter()
        Thread.detachNewThread { [self] in
            let prepared = list.prepareSearchIndex()
            mailbox.withLock { $0 = prepared }
            busy.withLock { $0 = false }
            running.leave()
        }
    }

    /// Returns when no index is being made: a filter key waits for the one under way (at most what making it on
    /// the key would take) rather than making a second beside it on the same two cores.
    func waitUntilDone() { running.wait() }

    /// The index made since the last call, if any.
    func take() -> PreparedSearchIndex? {
        mailbox.withLock { prepared in defer { prepared = nil }; return prepared }
    }
}

extension Session {
    /// Hands an index made beside the loop to `update`, before the event that might need it.
    func followTheSearchIndex(before event: Event) {
        if case .key = event, state.list.editingFilter, searchIndexWorker.isRunning {
            searchIndexWorker.waitUntilDone()  // a filter key: the index under way is nearer than a new one
        }
        guard let prepared = searchIndexWorker.take() else { return }
        update(with: .searchIndexPrepared(prepared))
    }
}
