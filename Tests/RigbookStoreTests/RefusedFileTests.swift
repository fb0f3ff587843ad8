import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// A file that is not a register Rigbook can use is refused before anything is written to it: same
/// bytes, same modification time, no companion files left behind, and a one-line reason.
@Suite("Files that are not usable registers are refused untouched")
struct RefusedFileTests {
    /// Opens `path` expecting a refusal; checks the file and its folder are untouched.
    private func expectRefusedUntouched(_ path: String, sourceLocation: SourceLocation = #_sourceLocation,
                                        check: (RegisterError) -> Bool) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let before = try FileState(path: path)
        let listingBefore = folderListing(folder)
        var refusal: RegisterError?
        do {
            let register = try Register.open(path: path)
            // Opening may succeed on a damaged file; reading it must not.
            _ = try register.rows()
            _ = try register.recordCount()
        } catch {
            refusal = error
        }
        guard let refusal else {
            Issue.record("the file was accepted", sourceLocation: sourceLocation)
            return
        }
        #expect(check(refusal), "unexpected refusal: \(refusal)", sourceLocation: sourceLocation)
        #expect(!refusal.description.contains("\n") && !refusal.description.isEmpty,
                "not one line: \(refusal.description)", sourceLocation: sourceLocation)
        #expect(refusal.description.contains(path), sourceLocation: sourceLocation)
        let after = try FileState(path: path)
        #expect(after == before, "before: \(before); after: \(after)", sourceLocation: sourceLocation)
        #expect(folderListing(folder) == listingBefore, "files appeared or vanished next to the register",
                sourceLocation: sourceLocation)
    }

    private func placeFile(_ data: Data, in folder: URL) throws -> String {
        let path = registerPath(in: folder)
        try DataHome.makePrivateDirectory((path as NSString).deletingLastPathComponent)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("(a) a text file: not an SQLite database", arguments: [
        "register of slings\nSL-0042, 2 t web sling\n",
        String(repeating: "This is not a database. ", count: 400),
        "SQLite format 3", // the magic without its NUL and shorter than a header
    ])
    func textFile(text: String) throws {
        try withTemporaryDirectory { folder in
            let path = try placeFile(Data(text.utf8), in: folder)
            try backdate(path)
            try expectRefusedUntouched(path) {
                if case .notARegister(_, let reason) = $0 { return reason == "not an SQLite database" }
                return false
            }
        }
    }

    @Test("(b) a foreign SQLite database with its own table and application_id 0")
    func foreignDatabase() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try DataHome.makePrivateDirectory((path as NSString).deletingLastPathComponent)
            do {
                let db = try Database(path: path)
                try db.execute("CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT);"
                               + " INSERT INTO recipes (title) VALUES ('bread')")
                #expect(try db.scalar("PRAGMA application_id") == .integer(0))
            }
            try backdate(path)
            try expectRefusedUntouched(path) {
                if case .notARegister(_, let reason) = $0 { return reason.contains("another application") }
                return false
            }
        }
    }

    @Test("(b') a foreign SQLite database in WAL mode with application_id 0")
    func foreignWALDatabase() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try DataHome.makePrivateDirectory((path as NSString).deletingLastPathComponent)
            do {
                let db = try Database(path: path)
                try db.execute(
                    "PRAGMA journal_mode = WAL; CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')")
            }
            try backdate(path)
            try expectRefusedUntouched(path) {
                if case .notARegister = $0 { return true }
                return false
            }
        }
    }

    @Test("(c) an SQLite database carrying another application's id", arguments: [Int32(0x4750_4B47), 1, -1])
    func otherApplicationID(id: Int32) throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try DataHome.makePrivateDirectory((path as NSString).deletingLastPathComponent)
            do {
                let db = try Database(path: path)
                try db.execute("PRAGMA application_id = \(id); CREATE TABLE things (x)")
            }
            try backdate(path)
            try expectRefusedUntouched(path) {
                if case .notARegister(_, let reason) = $0 { return reason.contains("another application") }
                return false
            }
        }
    }

    @Test("(c') an empty SQLite database (no tables) carrying another application's id")
    func otherApplicationIDWithoutTables() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try DataHome.makePrivateDirectory((path as NSString).deletingLastPathComponent)
            do {
                let db = try Database(path: path)
                try db.execute("PRAGMA application_id = 1196444487")
            }
            try backdate(path)
            try expectRefusedUntouched(path) {
                if case .notARegister = $0 { return true }
                return false
            }
        }
    }

    @Test("(d) a register written by a newer Rigbook (unknown migration name)")
    func newerVersion() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            do {
                let register = try Register.open(path: path)
                try register.addAsset(makeAsset())
                try register.db.run(
                    "INSERT INTO rigbook_migrations (name, applied_at) VALUES ('099-from-the-future', datetime('now'))")
            }
            try backdate(path)
            try expectRefusedUntouched(path) {
                if case .newerVersion(_, let names) = $0 { return names == ["099-from-the-future"] }
                return false
            }
            #expect(RegisterError.newerVersion(path: path, unknownMigrations: ["099-from-the-future"])
                .description.contains("newer"))
        }
    }

    @Test("(e) a damaged register: middle pages overwritten")
    func damagedRegister() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            do {
                let register = try Register.open(path: path)
                try SampleData(count: 300, seed: 1, today: testToday).load(into: register)
                #expect(try register.assetCount() == 300)
            }
            // Closed: the WAL is checkpointed into the main file and removed.
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            let size = Int(try handle.seekToEnd())
            let page = 4096
            let pages = size / page
            #expect(pages > 40, "sample register has \(pages) pages")
            // Overwrite whole pages of the middle third with a pattern no b-tree page starts with.
            let first = pages / 3, last = 2 * pages / 3
            try handle.seek(toOffset: UInt64(first * page))
            try handle.write(contentsOf: Data(repeating: 0xA5, count: (last - first) * page))
            try handle.close()
            try backdate(path)

            try expectRefusedUntouched(path) {
                if case .corrupt = $0 { return true }
                return false
            }
        }
    }

    @Test("refusals read as one line naming the file")
    func descriptionsAreOneLine() {
        let path = "/tmp/x/Documents/register.sqlite"
        let errors: [RegisterError] = [
            .notARegister(path: path, reason: "not an SQLite database"),
            .corrupt(path: path, detail: "database disk image is malformed"),
            .newerVersion(path: path, unknownMigrations: ["002-a", "003-b"]),
            .locked(path: path),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"))
            #expect(error.description.contains(path))
            #expect(error.description.contains("untouched") || error.description.contains("nothing was written"))
        }
    }
}
