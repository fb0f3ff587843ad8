import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

/// A register in its own home folder (`<folder>/<name>/register.sqlite`, attachments beside it).
private func replica(_ folder: URL, _ name: String) throws -> Register {
    let home = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    return try Register.open(path: home.appendingPathComponent("register.sqlite").path)
}

@Suite("Sync in pages, and the attachment files")
struct SyncPagesAndFilesTests {
    /// Six assets with two records each; then one renamed and its old tag given to a new asset.
    static func fill(_ register: Register, renaming: Bool = true) throws {
        for n in 0..<6 {
            let asset = makeAsset(tag: "PG-\(n)")
            try register.addAsset(asset)
            try register.insert(try validated(failingValues(on: "2026-01-1\(n)"), for: asset), saved: testStamp)
            try register.insert(try validated(passingValues(on: "2026-02-1\(n)"), for: asset), saved: testStamp)
        }
        guard renaming else { return }
        let old = makeAsset(tag: "SL-1")
        try register.addAsset(old)
        var renamed = old
        renamed.tag = "SL-1A"
        try register.change(assetUUID: old.uuid, to: renamed, reason: "tag replaced", stamp: testStamp)
        try register.addAsset(makeAsset(tag: "SL-1"))
    }

    @Test("small pages each way bring the same register; a page cut between a new asset and a rename still passes")
    func smallPagesConverge() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try replica(folder, "a")
            try Self.fill(a)
            // Pushed in pages of 3, then in one page (numbered table by table: the new SL-1 before the rename).
            let sent = try a.sync(url: url, pageSize: 3)
            #expect(sent.sent["assets"] == 8 && sent.sent["inspections"] == 12 && sent.sent["asset_changes"] == 1)
            let b = try replica(folder, "b")
            let pulled = try b.sync(url: url, pageSize: 2)
            #expect(pulled.received.assets == 8 && pulled.received.records == 12, "\(pulled.lines)")
            #expect(try contents(a) == (try contents(b)))
            #expect(try b.verifyChain().problem == nil)

            let c = try replica(folder, "c")
            try c.addAsset(makeAsset(tag: "C-1"))
            let other = try newServer()
            try Self.fill(c)
            _ = try c.sync(url: other, pageSize: 100)
            let d = try replica(folder, "d")
            let report = try d.sync(url: other, pageSize: 1)
            #expect(report.received.assets == 9, "\(report.lines)")
            #expect(try contents(c) == (try contents(d)))
            #expect(try d.asset(tag: "SL-1A") != nil && (try d.asset(tag: "SL-1")) != nil)
        }
    }

    @Test("an interrupted pull leaves whole pages; the next sync resumes after them and completes")
    func interruptedPullResumes() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try replica(folder, "a")
            try Self.fill(a, renaming: false)
            _ = try a.sync(url: url)
            let b = try replica(folder, "b")
            let first = try b.pullPages(url: url, pageSize: 5, pages: 2)
            #expect(first.entries == 10, "two whole pages of five")
            let server = try PostgresConnection(url: url)
            let tenth = try server.scalar("""
                SELECT seq FROM (SELECT seq FROM assets UNION ALL SELECT seq FROM particulars
                UNION ALL SELECT seq FROM inspections) s ORDER BY seq OFFSET 9 LIMIT 1
                """)
            #expect(try b.db.scalar("SELECT pulled_through FROM sync_servers") == tenth)
            let rest = try b.sync(url: url, pageSize: 5)
            #expect(rest.received.entries + first.entries == (try a.db.scalar("SELECT count(*) FROM sync_journal"))
                .flatMap { if case .integer(let n) = $0 { Int(n) } else { nil } })
            // What b sends is its own (a new register's particulars), nothing it pulled.
            #expect(rest.sent["particulars"] == rest.sentCount, "\(rest.lines)")
            #expect(try contents(a) == (try contents(b)))
            #expect(try b.verifyChain().problem == nil)
        }
    }

    @Test("a pull read from the server a few rows at a time brings the same register as one read whole")
    func pullReadInBatches() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try replica(folder, "a")
            try Self.fill(a)
            _ = try a.sync(url: url)
            // Two rows a fetch: every table of more than two entries spans several, one page of them all.
            let b = try replica(folder, "b")
            let pulled = try b.pullPages(url: url, pageSize: 1_000, pages: .max, fetchSize: 2)
            #expect(pulled.assets == 8 && pulled.records == 12 && pulled.assetChanges == 1, "\(pulled)")
            // Pages of three, cut across fetches of two.
            let c = try replica(folder, "c")
            _ = try c.pullPages(url: url, pageSize: 3, pages: .max, fetchSize: 2)
            for replica in [b, c] {
                #expect(try contents(a) == (try contents(replica)))
                #expect(try replica.verifyChain().problem == nil)
                #expect(try replica.asset(tag: "SL-1A") != nil && (try replica.asset(tag: "SL-1")) != nil)
            }
        }
    }

    @Test("a cursor hands every row, in order, a batch at a time, and another can follow it in the transaction")
    func cursorBatches() throws {
        let server = try PostgresConnection(url: try newServer())
        for (rows, batch) in [(5, 2), (4, 2), (0, 3), (1, 1000), (2, 0)] {
            var sizes: [Int] = []
            var seen: [Int64] = []
            try server.transaction {
                for _ in 0..<2 {
                    sizes = []
                    seen = []
                    try server.forEachBatch("SELECT n FROM generate_series(1, $1::int) AS n ORDER BY n",
                                            [.integer(Int64(rows))], batch: batch) { fetched in
                        sizes.append(fetched.count)
                        for row in 0..<fetched.count { seen.append(fetched.int64(row, 0)) }
                    }
                }
            }
            #expect(seen == (0..<rows).map { Int64($0) + 1 }, "\(rows) rows by \(batch)")
            #expect(sizes.allSatisfy { $0 > 0 && $0 <= max(1, batch) }, "\(sizes)")
        }
        // Outside a transaction a cursor ends with its statement: refused, not read whole.
        #expect(throws: ServerError.self) {
            try server.forEachBatch("SELECT 1", batch: 10) { _ in }
        }
    }

    /// A small JPEG attached to a record of a new asset of `register`; returns the file's hash.
    static func photographed(_ register: Register, tag: String, bytes: [UInt8]) throws -> String {
        let source = NSTemporaryDirectory() + "rigbook-sync-photo-\(UUID().uuidString).jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + bytes).write(to: URL(fileURLWithPath: source))
        defer { unlink(source) }
        let photo = try AttachmentStore(folder: AttachmentFiles.folder(besideRegister: register.path)).attach(source)
        let asset = makeAsset(tag: tag)
        try register.addAsset(asset)
        var values = passingValues(on: "2026-03-01")
        values.attachments = [photo]
        try register.insert(try validated(values, for: asset), saved: testStamp)
        return photo.sha256
    }

    @Test("attachment files travel with sync: sent once, fetched where missing, kept 0600 under their SHA-256")
    func filesTravel() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try replica(folder, "a")
            let hash = try Self.photographed(a, tag: "PH-1", bytes: Array("hook".utf8))
            let sent = try a.sync(url: url)
            #expect(sent.files.sent == 1 && sent.lines[0].contains("1 attachment files"), "\(sent.lines)")
            #expect(try a.sync(url: url).files == SyncedFiles(), "a file is sent once")
            let server = try PostgresConnection(url: url)
            #expect(try server.scalar("SELECT count(*) FROM attachment_files") == .integer(1))
            #expect(throws: ServerError.self) { try server.execute("DELETE FROM attachment_files") }

            let b = try replica(folder, "b")
            let received = try b.sync(url: url)
            #expect(received.files.received == 1 && received.files.problems.isEmpty, "\(received.lines)")
            let path = AttachmentFiles.folder(besideRegister: b.path) + "/" + hash
            #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(
                atPath: AttachmentFiles.folder(besideRegister: a.path) + "/" + hash))
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
            // Lost here: the next sync fetches it again; nothing else moves.
            unlink(path)
            let again = try b.sync(url: url)
            #expect(again.files.received == 1 && again.received.entries == 0 && again.sentCount == 0)
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("a file whose content is not its SHA-256 is neither sent nor kept, with a sentence; the rest syncs")
    func damagedFilesAreRefused() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try replica(folder, "a")
            let hash = try Self.photographed(a, tag: "PH-1", bytes: Array("hook".utf8))
            let file = AttachmentFiles.folder(besideRegister: a.path) + "/" + hash
            try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).write(to: URL(fileURLWithPath: file))
            let sent = try a.sync(url: url)
            #expect(sent.files.sent == 0 && sent.sent["assets"] == 1)
            #expect(sent.lines.contains { $0.contains(hash) && $0.contains("does not match its SHA-256") },
                    "\(sent.lines)")
            // A server whose check was taken away, holding other content under the name.
            let server = try PostgresConnection(url: url)
            try server.execute("ALTER TABLE attachment_files"
                               + " DROP CONSTRAINT attachment_files_are_named_by_their_sha256")
            try server.execute("INSERT INTO attachment_files (sha256, content) VALUES ('\(hash)', '\\xffd8ff00')")
            let b = try replica(folder, "b")
            let received = try b.sync(url: url)
            #expect(received.received.records == 1 && received.files.received == 0)
            #expect(received.lines.contains { $0.contains(hash) && $0.contains("refused, not kept") },
                    "\(received.lines)")
            let kept = AttachmentFiles.folder(besideRegister: b.path) + "/" + hash
            #expect(!FileManager.default.fileExists(atPath: kept))
        }
    }
}
