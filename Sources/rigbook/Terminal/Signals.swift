import Glibc
import Synchronization

/// The last signal received, stored by the handler and acted on by the main loop: a handler may only
/// do async-signal-safe work, so flushing drafts and restoring the terminal happen outside it.
let pendingSignal = Atomic<Int32>(0)

enum Signals {
    static let handled: [Int32] = [SIGHUP, SIGTERM, SIGINT, SIGTSTP]

    /// Installs the handlers without SA_RESTART, so a blocking read returns when a signal arrives.
    static func install() {
        for signal in handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in pendingSignal.store(number, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
        // A write to a terminal that has gone away must fail with EPIPE/EIO, not kill us before we flush.
        signal(SIGPIPE, SIG_IGN)
    }

    static func take() -> Int32? {
        let value = pendingSignal.exchange(0, ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// Stops this process the way the shell expects (job control), with the default TSTP action.
    static func suspendSelf() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        // Execution continues here after `fg`.
        install()
    }
}
