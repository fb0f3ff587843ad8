import CSQLite
import Foundation
import RigbookCore

/// `sample`'s way in at a million assets: the rows `Register.load` would insert, made on one thread, hashed and signed
/// on another, and written on this one with the connection's triggers off, what they would write written with the
/// rows (`BulkWriter`). The whole load is one transaction with a rollback journal instead of WAL
/// (`withRollbackJournal`) in which the indexes on random keys are set aside and made again at the end
/// (`BulkIndexes`): a reader sees the register as it was until the commit, and a load that fails or is killed leaves
/// it so, every trigger and index in its place. Other connections never run without triggers: only this one's
/// inserts skip them.
extension Register {
    /// Loads the batches `next` gives as `load` loads them one by one, with the same rows in the same order, and
    /// returns true; returns false, having written nothing, when the register has a trigger on the tables it fills
    /// that this load does not stand in for (`BulkTable.triggersStoodIn`).
    func bulkLoad(_ next: @escaping @Sendable () throws -> LoadBatch?, addedAt: @escaping @Sendable () -> String,
                  saved: @escaping @Sendable (CalendarDate) -> SaveStamp, recordUUID: @escaping () -> UUID,
                  signer: @escaping @Sendable (_ examiner: String, _ on: CalendarDate) -> RecordSigner?,
                  progress: (Int) -> Void) throws(RegisterError) -> Bool {
        try perform {
            guard try standsInForTriggers() else { return false }
            guard case .text(let identity)? = try db.scalar("SELECT identity FROM register_chain"),
                  case .integer(let sequence)? = try db.scalar("SELECT report_sequence FROM register_chain")
            else { throw RegisterError.writeFailed("the register has lost its chain row") }
            // Each batch is checked against the register as it goes in (`BulkWriter.write`), so the chain and the
            // report sequence read here may run ahead of what is written.
            let maker = try BulkRowMaker(identity: identity, reportSequence: Int(sequence), addedAt: addedAt,
                                         saved: saved, recordUUID: recordUUID, signer: signer)
            let made = MadeAhead { try next().map(maker.rows) }
            defer { made.stop() }
            let chain = BulkChain(head: try HashChain.head(db))
            let chained = MadeAhead<BulkRows> {
                guard var rows = try made.next() else { return nil }
                try chain.chain(&rows)
                return rows
            }
            defer { chained.stop() }
            // No foreign key check either: the rows were made whole (`BulkRowMaker`), each record after its asset.
            try db.execute("PRAGMA foreign_keys = OFF")
            defer { try? db.execute("PRAGMA foreign_keys = ON") }
            let writer = BulkWriter(db)
            var assets = 0
            func write(_ rows: BulkRows) throws {
                try writer.write(rows)
                assets += rows.assets
                progress(assets)
            }
            try db.withTriggersOff {
                let loaded: Bool? = try db.withRollbackJournal {
                    try db.transaction {
                        let indexes = try BulkIndexes.setAside(db)
                        while let rows = try chained.next() { try write(rows) }
                        try indexes?.restore(db)
                    }
                    return true
                }
                guard loaded == nil else { return }
                // Another connection has the register open, so it stays in WAL, where one transaction would put every
                // page of the sample in the WAL first: a transaction every 20,000 assets, every index kept up.
                var batch: BulkRows?
                repeat {
                    try db.transaction {
                        let end = assets + 20_000
                        repeat {
                            batch = try chained.next()
                            if let batch { try write(batch) }
                        } while batch != nil && assets < end
                    }
                } while batch != nil
            }
            return true
        }
    }

    /// Whether every trigger on the tables a bulk load fills is one it stands in for or an insert never fires.
    private func standsInForTriggers() throws -> Bool {
        let tables = BulkTable.allCases.map { "'\($0.name)'" }.joined(separator: ", ")
        let triggers = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'"
                                      + " AND tbl_name IN (\(tables))")
        while try triggers.step() {
            if !BulkTable.triggersStoodIn.contains(triggers.text(0)) { return false }
        }
        return true
    }
}

extension Database {
    /// Runs `body`, which writes in one transaction, with the register in rollback-journal mode instead of WAL, and
    /// puts WAL back after; nil, having run nothing, when another connection has the register open (it cannot leave
    /// WAL then). In WAL one transaction would put every page of the load in the WAL before the register (9.6 GB at
    /// a million assets, then copied), and a page read back from a WAL that large is looked for segment by segment;
    /// a transaction a batch would write the random-keyed index pages again with every commit. A rollback journal
    /// keeps only the pages that were there before (a few: the register is new), so the load is written once, and a
    /// load killed midway is rolled back by the next connection that opens the register to write
    /// (`Register.openForReading` opens it so first).
    func withRollbackJournal<T>(_ body: () throws -> T) throws -> T? {
        do {
            guard try scalar("PRAGMA journal_mode = DELETE") == .text("delete") else { return nil }
        } catch let error as DatabaseError where error.isBusy { return nil }
        defer { restoreWAL() }
        return try body()
    }

    /// Back to WAL, tried again while another connection holds the file for as long as the busy timeout would wait,
    /// and left after that (the next connection that opens the register to write puts WAL back).
    private func restoreWAL() {
        let deadline = Date().addingTimeInterval(5)
        while (try? scalar("PRAGMA journal_mode = WAL")) != .text("wal") && Date() < deadline { usleep(20_000) }
    }

    /// Runs `body` with this connection's triggers off: a bulk load does what they do itself, a batch at a time (a
    /// trigger program for every row, and the status trigger's update of each asset it had just inserted, were most
    /// of SQLite's part of a sample). Only this connection's statements skip them, only until `body` returns; SQLite
    /// prepares its statements again once they are back on.
    func withTriggersOff<T>(_ body: () throws -> T) throws -> T {
        guard rb_sqlite_enable_triggers(handle, 0) == 0 else {
            throw RegisterError.writeFailed("SQLite would not turn the triggers off for a bulk load")
        }
        defer { _ = rb_sqlite_enable_triggers(handle, 1) }
        return try body()
    }
}
