import RigbookCore

extension Register {
    /// SQLite's `PRAGMA data_version` on this connection: it changes when another connection (another
    /// terminal, `rigbook asset add`) commits, never for this connection's own writes. Cheap enough for every
    /// tick of the loop, so the list can follow other processes without re-reading the register blindly.
    public func dataVersion() throws(RegisterError) -> Int64 {
        try perform {
            guard case .integer(let version) = try db.scalar("PRAGMA data_version") else { return 0 }
            return version
        }
    }
}

extension Register {
    /// The register's state as this connection sees it (`RegisterStamp`): equal stamps, no commit between.
    public func stamp() throws(RegisterError) -> RegisterStamp {
        try perform { RegisterStamp(dataVersion: try dataVersion(), ownChanges: db.totalChanges) }
    }
}
