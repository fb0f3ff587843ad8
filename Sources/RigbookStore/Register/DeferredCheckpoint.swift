extension Register {
    /// Copies what a batch left in the WAL into the register file, if a batch deferred it: called when nobody
    /// waits (the full-screen loop's idle tick), so a batch's save does not also pay for the copy. A passive
    /// checkpoint: it never waits for readers and never blocks a writer; what it cannot copy now is copied later.
    /// Returns whether it ran.
    @discardableResult
    public func checkpointIfDeferred() -> Bool {
        guard checkpointDeferred else { return false }
        checkpointDeferred = false
        try? db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        return true
    }
}
