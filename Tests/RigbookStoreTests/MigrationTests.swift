import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

@Suite("A new register: schema, pragmas, permissions")
struct MigrationTests {
    @Test("migrations from empty create every table and record every migration name")
    func migratesFromEmpty() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            #expect(!FileManager.default.fileExists(atPath: path))
            let register = try Register.open(path: path)

            let tables = try register.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            var names: [String] = []
            while try tables.step() { names.append(tables.text(0)) }
            #expect(names == ["assets", "inspections", "rigbook_migrations"])

            let triggers = try register.db.prepare(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
            var triggerNames: [String] = []
            while try triggers.step() { triggerNames.append(triggers.text(0)) }
            #expect(triggerNames == ["inspections_are_never_deleted", "inspections_are_never_replaced",
                                     "inspections_are_never_updated"])

            let recorded = try RegisterSchema.appliedNames(register.db)
            #expect(!RegisterSchema.migrations.isEmpty)
            #expect(recorded == Set(RegisterSchema.migrations.map(\.name)))
            #expect(try register.assetCount() == 0)
            #expect(try register.recordCount() == 0)
        }
    }

    @Test("the connection runs in WAL mode, synchronous=FULL, foreign keys on, with Rigbook's application id")
    func connectionPragmas() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            #expect(try register.db.scalar("PRAGMA journal_mode") == .text("wal"))
            #expect(try register.db.scalar("PRAGMA synchronous") == .integer(2))
            #expect(try register.db.scalar("PRAGMA foreign_keys") == .integer(1))
            #expect(try register.db.scalar("PRAGMA application_id") == .integer(0x5249_4742))
            #expect(RegisterSchema.applicationID == 0x5249_4742)
        }
    }

    @Test("the header on disk carries 'RIGB' and WAL marks, readable without SQLite")
    func headerOnDisk() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            do { _ = try Register.open(path: path) } // closed again at the end of the scope
            let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(100)
            #expect(header.prefix(16) == Data("SQLite format 3\0".utf8))
            #expect(Array(header[68..<72]) == Array("RIGB".utf8))
            // Bytes 18 and 19 (file format write/read version) are 2 in WAL mode.
            #expect(header[18] == 2 && header[19] == 2)
        }
    }

    @Test("the register file is 0600, its WAL companions too, and the folders it creates are 0700")
    func permissionsOfNewFiles() throws {
        try withTemporaryDirectory { folder in
            let home = DataHome(root: folder.appendingPathComponent("home").path)
            let register = try Register.open(path: home.registerPath)
            try register.addAsset(makeAsset()) // makes SQLite create the -wal and -shm files
            #expect(permissions(home.registerPath) == 0o600)
            #expect(permissions(home.documents) == 0o700)
            for companion in ["-wal", "-shm"]
                where FileManager.default.fileExists(atPath: home.registerPath + companion) {
                #expect(permissions(home.registerPath + companion) == 0o600, "\(companion)")
            }
        }
    }

    @Test("intermediate folders created for the register are private too (SPEC §2: directories 0700)")
    func intermediateFoldersArePrivate() throws {
        try withTemporaryDirectory { folder in
            let home = DataHome(root: folder.appendingPathComponent("home").path)
            _ = try Register.open(path: home.registerPath)
            #expect(permissions(home.root) == 0o700)
            #expect(permissions(home.documents) == 0o700)
        }
    }

    @Test("opening twice is idempotent: no duplicate migration rows, no changed data")
    func openingTwiceIsIdempotent() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let asset = makeAsset()
            let appliedSQL = "SELECT name || '@' || applied_at FROM rigbook_migrations ORDER BY name"
            var firstApplied: [String] = []
            do {
                let register = try Register.open(path: path)
                try register.addAsset(asset)
                let statement = try register.db.prepare(appliedSQL)
                while try statement.step() { firstApplied.append(statement.text(0)) }
            }
            let again = try Register.open(path: path)
            let third = try Register.open(path: path) // while the second is still open
            for register in [again, third] {
                #expect(try register.db.scalar("SELECT count(*) FROM rigbook_migrations")
                        == .integer(Int64(RegisterSchema.migrations.count)))
                let statement = try register.db.prepare(appliedSQL)
                var applied: [String] = []
                while try statement.step() { applied.append(statement.text(0)) }
                #expect(applied == firstApplied)
                #expect(try register.assetCount() == 1)
                #expect(try register.asset(uuid: asset.uuid)?.asset == asset)
            }
        }
    }

    @Test("an empty (0-byte) file at the register path is initialised as a new register")
    func emptyFileBecomesRegister() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            try DataHome.makePrivateDirectory((path as NSString).deletingLastPathComponent)
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let register = try Register.open(path: path)
            #expect(try register.db.scalar("PRAGMA application_id") == .integer(0x5249_4742))
            #expect(try RegisterSchema.appliedNames(register.db) == Set(RegisterSchema.migrations.map(\.name)))
        }
    }
}
