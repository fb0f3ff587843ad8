import CSQLite

/// SQLite's own counters of the register's connection, for the bench: how many pages a write dirtied and
/// wrote, and how many it had to read from the file. Resetting them starts a new measurement.
public struct PageCounters: Sendable, Equatable {
    /// Pages written out (to the WAL) by commits since the last reset.
    public var written: Int
    /// Pages read from the file (not found in SQLite's cache).
    public var missed: Int
    /// Pages found in SQLite's cache.
    public var hit: Int
}

extension Register {
    /// The connection's page counters since the last call with `reset` (or since it opened).
    public func pageCounters(reset: Bool = false) -> PageCounters {
        func counter(_ op: Int32) -> Int {
            var current: Int32 = 0, highwater: Int32 = 0
            sqlite3_db_status(db.handle, op, &current, &highwater, reset ? 1 : 0)
            return Int(current)
        }
        return PageCounters(written: counter(SQLITE_DBSTATUS_CACHE_WRITE), missed: counter(SQLITE_DBSTATUS_CACHE_MISS),
                            hit: counter(SQLITE_DBSTATUS_CACHE_HIT))
    }
}
