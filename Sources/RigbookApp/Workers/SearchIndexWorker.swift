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

/// Makes the list's filter index on a thread of its own once the loop is idle after a load (the first filter key at
/// a million assets made it, half a second). The result waits in a mailbox the loop looks at before each event.
///
/// A list of every row gives a copy of itself to work from; the list takes the index only if its rows are still
/// the ones the copy had (`ListState.adopt`). While it runs the copy keeps the rows it was given: if the list loads
/// others meanwhile, both are held until it ends. A large register's window gives what to read instead, and the
/// index is made from the register on a connection of the worker's own (`RegisterSearchIndex`).
typealias SearchIndexWorker = BackgroundJob<Event>

extension SearchIndexWorker {
    /// Starts making the index `list` needs unless one is being made (that one is then set aside by the list if it
    /// no longer fits, and another is asked for).
    func start(_ list: ListState, registerPath: String) {
        if list.window != nil {
            guard let basis = list.registerIndexWanted else { return }
            start { Session.makeRegisterIndex(path: registerPath, basis: basis) }
        } else {
            start { .searchIndexPrepared(list.prepareSearchIndex()) }
        }
    }
}

extension Session {
    /// Hands an index made beside the loop to `update`, before the event that might need it. A filter key on a list
    /// of every row waits for the index under way (at most what making it on the key would take) rather than
    /// making a second beside it on the same two cores; a window's filter never waits (it says it is waiting).
    func followTheSearchIndex(before event: Event) {
        if case .key = event, state.list.editingFilter, state.list.window == nil, searchIndexWorker.isRunning {
            searchIndexWorker.waitUntilDone()
        }
        guard let prepared = searchIndexWorker.take() else { return }
        update(with: prepared)
    }
}

extension Session {
    /// Makes the filter index the list wants and hands it over, waiting for it: for tests and the bench, which need
    /// the filter's answers rather than its wait (the loop itself never waits for a large register's index).
    public func settleSearchIndex() {
        for _ in 0..<20 {
            if searchIndexWanted {
                searchIndexWanted = false
                searchIndexWorker.start(state.list, registerPath: register.path)
            }
            searchIndexWorker.waitUntilDone()
            if let made = searchIndexWorker.take() { update(with: made) }
            if !searchIndexWanted && !searchIndexWorker.isRunning { return }
        }
    }
}
