import Foundation
import Synchronization
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// Runs `work(0..<count)` on `count` real threads started together; returns the errors they threw,
/// or records an issue if they do not finish within `timeout`.
func runOnThreads(_ count: Int, timeout: TimeInterval = 60,
                  sourceLocation: SourceLocation = #_sourceLocation,
                  _ work: @escaping @Sendable (Int) throws -> Void) -> [String] {
    let errors = Mutex<[String]>([])
    let finished = Mutex(0)
    let ready = Mutex(0)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            defer { finished.withLock { $0 += 1 }; group.leave() }
            // Start together, so the threads really overlap.
            ready.withLock { $0 += 1 }
            _ = poll(timeout: 10) { ready.withLock { $0 } == count }
            do { try work(index) } catch { errors.withLock { $0.append("thread \(index): \(error)") } }
        }
        thread.start()
    }
    if group.wait(timeout: .now() + timeout) == .timedOut {
        Issue.record("threads did not finish within \(timeout) s (\(finished.withLock { $0 }) of \(count))",
                     sourceLocation: sourceLocation)
    }
    return errors.withLock { $0 }
}

@Suite("Locks and several writers", .serialized)
struct ConcurrencyTests {
    @Test("a busy register is reported as busy by the connection wrapper, and nothing is written")
    func busyDatabase() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            do { _ = try Register.open(path: path) }
            let holder = try Database(path: path, mode: .readWrite)
            let other = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 50)
            try holder.execute("BEGIN EXCLUSIVE")

            let started = Date()
            let error = #expect(throws: DatabaseError.self) {
                try other.transaction {
                    try other.run("INSERT INTO rigbook_migrations (name, applied_at) VALUES ('x', 'now')")
                }
            }
            #expect(error?.isBusy == true, "\(String(describing: error))")
            #expect(error?.code == 5) // SQLITE_BUSY
            #expect(Date().timeIntervalSince(started) < 4, "the short busy timeout was not used")
            let direct = #expect(throws: DatabaseError.self) {
                try other.run("INSERT INTO rigbook_migrations (name, applied_at) VALUES ('y', 'now')")
            }
            #expect(direct?.isBusy == true)

            try holder.execute("ROLLBACK")
            #expect(try other.scalar("SELECT count(*) FROM rigbook_migrations WHERE name IN ('x', 'y')") == .integer(0))
            // The lock released, the same connection writes again.
            try other.transaction {
                try other.run("INSERT INTO rigbook_migrations (name, applied_at) VALUES ('z', 'now')")
            }
            #expect(try holder.scalar("SELECT count(*) FROM rigbook_migrations WHERE name = 'z'") == .integer(1))
        }
    }

    @Test("a register held locked by another connection refuses the write with .locked; nothing is written")
    func lockedRegister() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let asset = makeAsset()
            do {
                let setup = try Register.open(path: path)
                try setup.addAsset(asset)
            }
            let register = try Register.open(path: path)
            let record = try validated(passingValues(on: "2026-03-01"), for: asset)
            let holder = try Database(path: path, mode: .readWrite)
            try holder.execute("BEGIN EXCLUSIVE")

            // One 5 s wait (the register's built-in busy timeout) for the insert…
            let started = Date()
            #expect(throws: RegisterError.locked(path: path)) {
                try register.insert(record, saved: testStamp)
            }
            #expect(Date().timeIntervalSince(started) >= 4, "gave up before the busy timeout")
            #expect(RegisterError.locked(path: path).description.contains("nothing was written"))

            try holder.execute("ROLLBACK")
            #expect(try register.recordCount() == 0)
            #expect(try register.containsSession(id: record.sessionID) == false)
            #expect(try register.asset(uuid: asset.uuid)?.summary == .empty)
            // Once the lock is gone the same record saves.
            try register.insert(record, saved: testStamp)
            #expect(try register.recordCount() == 1)
        }
    }

    @Test("two registers on one file, writes interleaved: both see everything")
    func twoConnectionsInterleaved() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let first = try Register.open(path: path)
            let second = try Register.open(path: path)
            var assets: [Asset] = []
            for number in 0..<6 {
                let asset = makeAsset(tag: "SL-\(1000 + number)")
                try (number.isMultiple(of: 2) ? first : second).addAsset(asset)
                assets.append(asset)
            }
            // Records for each asset come from the connection that did not add it.
            var drafts: [String] = []
            for (index, asset) in assets.enumerated() {
                let writer = index.isMultiple(of: 2) ? second : first
                let thorough = try validated(passingValues(on: "2026-02-\(10 + index)"), for: asset)
                try writer.insert(thorough, saved: testStamp)
                let check = try validated(passingValues(.preUse, on: "2026-03-0\(1 + index)"), for: asset)
                try (index.isMultiple(of: 2) ? first : second).insert(check, saved: testStamp)
                drafts += [thorough.sessionID, check.sessionID]
            }
            // A duplicate tag added through the other connection is still refused.
            #expect(throws: RegisterError.duplicateTag("sl-1001")) { try first.addAsset(makeAsset(tag: "sl-1001")) }

            for register in [first, second] {
                #expect(try register.assetCount() == 6)
                #expect(try register.recordCount() == 12)
                #expect(try register.rows().map(\.asset.tag) == assets.map(\.tag))
                for draft in drafts { #expect(try register.containsSession(id: draft)) }
                for asset in assets {
                    #expect(try register.history(assetUUID: asset.uuid).count == 2)
                    try expectSummaryFollowsHistory(register, asset.uuid)
                    #expect(try register.asset(uuid: asset.uuid)?.status(on: testToday).status == .ok)
                }
            }
        }
    }

    @Test("two threads, each with its own register, add 50 assets each at once: all 100 present")
    func twoThreadsWriting() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            do { _ = try Register.open(path: path) }
            let errors = runOnThreads(2) { thread in
                let register = try Register.open(path: path)
                for number in 0..<50 {
                    let asset = makeAsset(tag: "T\(thread)-\(String(number).leftPadded(to: 3))")
                    try register.addAsset(asset)
                    if number.isMultiple(of: 5) {
                        let record = try validated(passingValues(on: "2026-03-01"), for: asset)
                        try register.insert(record, saved: testStamp)
                    }
                }
            }
            #expect(errors.isEmpty, "\(errors)")
            let register = try Register.open(path: path)
            let tags = try register.rows().map(\.asset.tag)
            #expect(tags.count == 100)
            #expect(Set(tags) == Set((0..<2).flatMap { t in (0..<50).map { "T\(t)-\(String($0).leftPadded(to: 3))" } }))
            #expect(try register.recordCount() == 20)
            for row in try register.rows() { try expectSummaryFollowsHistory(register, row.asset.uuid) }
        }
    }

    /// Two terminals (or two scripted `rigbook asset add`) started at once on a fresh data home both
    /// open, and so create, the register. Many short trials, because the window is narrow: each open
    /// reads the applied migrations before taking the write lock, so a loser re-runs a migration the
    /// winner has just applied.
    @Test("several threads opening a register that does not exist yet all succeed")
    func concurrentFirstOpen() throws {
        var failures: [String] = []
        for trial in 0..<50 {
            try withTemporaryDirectory { folder in
                let path = registerPath(in: folder)
                let errors = runOnThreads(4) { _ in
                    let register = try Register.open(path: path)
                    _ = try register.assetCount()
                }
                failures += errors.map { "trial \(trial): \($0)" }
                let register = try Register.open(path: path)
                #expect(try RegisterSchema.appliedNames(register.db) == Set(RegisterSchema.migrations.map(\.name)))
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failed opens, e.g. \(failures.prefix(3))")
    }
}

/// A large register is read on two connections into the two ends of one array (`HalvesReader`). Each
/// half has its room; assets added between the count and the reads overflow it, and the rows must still come
/// back whole and in tag order, whatever the rooms.
@Suite("Reading a register in two halves into one array")
struct HalvesReaderTests {
    @Test("rows in tag order, whether the rooms fit, are too large or too small",
          arguments: [(9, 4), (9, 5), (20, 10), (3, 1), (9, 0), (9, 9), (0, 0), (1, 1)])
    func halvesJoinInOrder(capacity: Int, split: Int) throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let register = try Register.open(path: path)
            for number in [7, 3, 9, 1, 5, 2, 8, 4, 6] { try register.addAsset(makeAsset(tag: "T-\(number)")) }
            let expected = try register.rows()
            let middle = "T-5"
            let lower = try Database(path: path, mode: .readOnly)
            let statement = try lower.prepare(
                "SELECT \(AssetColumns.selectThroughFunction) FROM assets WHERE tag < ? ORDER BY tag")
            try statement.bind([.text(middle)])
            let rows = try HalvesReader.read(capacity: capacity, split: split, lower: statement) {
                let connection = try Database(path: path, mode: .readOnly)
                let upper = try connection.prepare(
                    "SELECT \(AssetColumns.selectThroughFunction) FROM assets WHERE tag >= ? ORDER BY tag DESC")
                try upper.bind([.text(middle)])
                return (connection, upper)
            }
            #expect(rows == expected, "\(rows.map(\.asset.tag))")
        }
    }

    @Test("a failure on the second connection is the read's failure, and nothing is left half made")
    func upperFailure() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let register = try Register.open(path: path)
            for number in 1...6 { try register.addAsset(makeAsset(tag: "T-\(number)")) }
            let lower = try Database(path: path, mode: .readOnly)
            let statement = try lower.prepare("SELECT \(AssetColumns.selectThroughFunction) FROM assets ORDER BY tag")
            #expect(throws: DatabaseError.self) {
                _ = try HalvesReader.read(capacity: 6, split: 3, lower: statement) {
                    let connection = try Database(path: path + "-missing", mode: .readOnly)
                    return (connection, try connection.prepare("SELECT 1"))
                }
            }
        }
    }
}
