import Foundation
import RigbookUI
import Synchronization

/// One piece of work at a time on a thread of its own, so the loop never waits on it: its result waits in a
/// mailbox the loop looks at.
final class BackgroundJob<Result: Sendable>: Sendable {
    private let mailbox = Mutex<Result?>(nil)
    private let busy = Mutex(false)
    private let running = DispatchGroup()

    var isRunning: Bool { busy.withLock { $0 } }

    /// Starts `work` unless a piece of work is running.
    func start(_ work: @escaping @Sendable () -> Result) {
        let started = busy.withLock { running in
            if running { return false }
            running = true
            return true
        }
        guard started else { return }
        running.enter()
        Thread.detachNewThread { [self] in
            let result = work()
            mailbox.withLock { $0 = result }
            busy.withLock { $0 = false }
            running.leave()
        }
    }

    /// Returns when no work is running.
    func waitUntilDone() { running.wait() }

    /// The result that came since the last call, if any.
    func take() -> Result? {
        mailbox.withLock { result in defer { result = nil }; return result }
    }
}

/// Makes the list's filter index on a thread of its own once the loop is idle after a load (the first
/// filter key at a million assets made it, half a second). It works from a copy of the list; the result waits in
/// a mailbox the loop looks at before each event, and the list takes it only if its rows are still the ones the
/// copy had (`ListState.adopt`). While it runs the copy keeps the rows it was given: if the list loads others
/// meanwhile, both are held until it ends.
typealias SearchIndexWorker = BackgroundJob<PreparedSearchIndex>

extension SearchIndexWorker {
    /// Starts making the index of `list` unless one is being made (that one is then set aside by the list if it
    /// no longer fits, and the filter makes its own).
    func start(_ list: ListState) { start { list.prepareSearchIndex() } }
}

extension Session {
    /// Hands an index made beside the loop to `update`, before the event that might need it. A filter key waits
    /// for the index under way (at most what making it on the key would take) rather than making a second beside
    /// it on the same two cores.
    func followTheSearchIndex(before event: Event) {
        if case .key = event, state.list.editingFilter, searchIndexWorker.isRunning {
            searchIndexWorker.waitUntilDone()
        }
        guard let prepared = searchIndexWorker.take() else { return }
        update(with: .searchIndexPrepared(prepared))
    }
}
