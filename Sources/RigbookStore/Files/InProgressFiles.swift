import Foundation

/// The temp files being written beside a file a person named (`.NAME.tmp-XXXXXX`), so that a command ended by Ctrl-C
/// or `kill` part-way through a long write (labels for a whole site, a report of a million assets) leaves none of
/// them behind. The paths sit in fixed buffers made once, so a signal handler can unlink them without allocating:
/// `unlink` is async-signal-safe, a Swift string is not.
public enum InProgressFiles {
    static let slots = 8
    static let capacity = Int(PATH_MAX) + 1
    /// Each slot: a path's bytes, NUL-terminated; empty when the slot is free.
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: slots * capacity)
        buffer.initialize(repeating: 0, count: slots * capacity)
        return buffer
    }()
    private static let lock = NSLock()

    /// Notes `path` as being written; the slot to give back to `finished`, nil when every slot is taken (then the
    /// file is only cleaned up by the writer itself) or the path is too long.
    static func started(_ path: String) -> Int? {
        let bytes = Array(path.utf8CString)
        guard bytes.count <= capacity else { return nil }
        lock.lock()
        defer { lock.unlock() }
        for slot in 0..<slots where paths[slot * capacity] == 0 {
            // The terminating NUL first, then the path from its second byte, its first byte last: a handler never
            // sees half a path.
            let start = paths + slot * capacity
            for index in stride(from: bytes.count - 1, through: 0, by: -1) { start[index] = bytes[index] }
            return slot
        }
        return nil
    }

    /// The file is renamed into place or removed: no longer the handler's to remove.
    static func finished(_ slot: Int?) {
        guard let slot else { return }
        lock.lock()
        paths[slot * capacity] = 0
        lock.unlock()
    }

    /// Removes every file still being written. Async-signal-safe: for a handler of SIGINT, SIGTERM or SIGHUP.
    public static func removeAll() {
        for slot in 0..<slots where paths[slot * capacity] != 0 { unlink(paths + slot * capacity) }
    }

    /// Runs `body` with SIGINT, SIGTERM and SIGHUP held back on this thread: one that comes meanwhile is handled
    /// after, when what `body` made is noted.
    static func holdingSignals<T>(_ body: () -> T) -> T {
        var stopping = sigset_t(), before = sigset_t()
        sigemptyset(&stopping)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopping, signal) }
        pthread_sigmask(SIG_BLOCK, &stopping, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        return body()
    }

    /// Makes the buffers now, before a handler may need them.
    public static func prepare() { _ = paths }
}
