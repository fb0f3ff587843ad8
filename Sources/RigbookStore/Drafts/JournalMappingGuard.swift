import Glibc

/// What keeps a journal's shared mapping from killing the process (DraftJournal). A store into a mapped page past
/// the file's end raises SIGBUS, and another program can cut the file short at any moment (`: > x.journal`). A size
/// check before each line would be a system call on every key (~6–10 µs here, cold), so instead the journals'
/// mappings are registered here and a SIGBUS inside one is answered by putting private memory under the page: the
/// store completes into nothing, the journal is marked, and its next line starts the file again. A SIGBUS anywhere
/// else gets the action there was before.
enum JournalMappingGuard {
    static let slots = 16
    /// Start and end address of each registered mapping (0, 0: free), then a fault flag per slot. Plain words,
    /// written by the journal before it stores and read by the handler on the same thread.
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<UInt> = {
        let table = UnsafeMutablePointer<UInt>.allocate(capacity: slots * 3)
        table.initialize(repeating: 0, count: slots * 3)
        return table
    }()
    nonisolated(unsafe) private static var installed = false
    /// The SIGBUS action before this one, put back for a fault that is not a journal's.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
        previous.initialize(to: sigaction())
        return previous
    }()
    private static let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))

    /// Registers a mapping; nil when every slot is taken (the caller then does not map).
    static func register(_ start: UnsafeMutableRawPointer, bytes: Int) -> Int? {
        install()
        let low = UInt(bitPattern: start)
        for slot in 0..<slots where table[slot * 3] == 0 && table[slot * 3 + 1] == 0 {
            table[slot * 3 + 2] = 0
            table[slot * 3 + 1] = low + UInt(bytes)
            table[slot * 3] = low
            return slot
        }
        return nil
    }

    static func unregister(_ slot: Int) {
        table[slot * 3] = 0
        table[slot * 3 + 1] = 0
        table[slot * 3 + 2] = 0
    }

    /// Whether a store into the slot's mapping faulted since it was registered.
    static func faulted(_ slot: Int) -> Bool { table[slot * 3 + 2] != 0 }

    private static func install() {
        guard !installed else { return }
        installed = true
        _ = (pageSize, table, previous)  // made now: the handler must not be the first to read them
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signal, info, _ in
            let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
            for slot in 0..<JournalMappingGuard.slots {
                let start = JournalMappingGuard.table[slot * 3], end = JournalMappingGuard.table[slot * 3 + 1]
                guard start <= address, address < end else { continue }
                let page = address & ~(JournalMappingGuard.pageSize - 1)
                _ = mmap(UnsafeMutableRawPointer(bitPattern: page), Int(JournalMappingGuard.pageSize),
                         PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
                JournalMappingGuard.table[slot * 3 + 2] = 1
                return
            }
            // Not a journal's page: the action there was before (the default, or the runtime's backtracer) takes
            // it when the faulting instruction runs again.
            sigaction(signal, JournalMappingGuard.previous, nil)
        }
        action.sa_flags = SA_SIGINFO
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, previous)
    }
}
