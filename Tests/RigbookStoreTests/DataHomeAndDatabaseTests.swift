import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

@Suite("DataHome.resolve")
struct DataHomeTests {
    private let everything = ["RIGBOOK_HOME": "/env/rigbook", "XDG_DATA_HOME": "/xdg", "HOME": "/home/ann"]

    @Test("--home wins over every variable")
    func optionFirst() {
        #expect(DataHome.resolve(option: "/opt/home", environment: everything).root == "/opt/home")
    }

    @Test("then RIGBOOK_HOME, then XDG_DATA_HOME/rigbook, then HOME/.local/share/rigbook")
    func precedence() {
        #expect(DataHome.resolve(option: nil, environment: everything).root == "/env/rigbook")
        #expect(DataHome.resolve(option: nil, environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/ann"]).root
                == "/xdg/rigbook")
        #expect(DataHome.resolve(option: nil, environment: ["HOME": "/home/ann"]).root
                == "/home/ann/.local/share/rigbook")
    }

    @Test("empty values count as unset")
    func emptyValues() {
        let blank = ["RIGBOOK_HOME": "", "XDG_DATA_HOME": "", "HOME": "/home/ann"]
        #expect(DataHome.resolve(option: "", environment: everything).root == "/env/rigbook")
        #expect(DataHome.resolve(option: "", environment: blank).root == "/home/ann/.local/share/rigbook")
        #expect(DataHome.resolve(option: nil, environment: ["RIGBOOK_HOME": "", "XDG_DATA_HOME": "/xdg"]).root
                == "/xdg/rigbook")
    }

    @Test("without HOME, the account's home folder is used")
    func noHome() {
        let root = DataHome.resolve(option: nil, environment: [:]).root
        #expect(root.hasSuffix("/.local/share/rigbook"))
        #expect(root.count > "/.local/share/rigbook".count)
    }

    @Test("paths under the home")
    func paths() {
        let home = DataHome(root: "/d")
        #expect(home.documents == "/d/Documents")
        #expect(home.registerPath == "/d/Documents/register.sqlite")
        #expect(home.draftsFolder == "/d/Documents/Drafts")
        #expect(home.profilePath == "/d/profile.json")
    }

    @Test("makePrivateDirectory creates 0700 folders and leaves an existing one alone")
    func privateDirectory() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("a/b").path
            try DataHome.makePrivateDirectory(path)
            #expect(permissions(path) == 0o700)
            try DataHome.makePrivateDirectory(path) // again: no error
            #expect(permissions(path) == 0o700)
        }
    }
}

@Suite("The SQLite wrapper")
struct DatabaseTests {
    private func scratch(_ folder: URL) throws -> Database {
        let db = try Database(path: folder.appendingPathComponent("scratch.sqlite").path)
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, weight REAL, note TEXT)")
        return db
    }

    @Test("a syntax error carries SQLite's code, message and the SQL text")
    func syntaxError() throws {
        try withTemporaryDirectory { folder in
            let db = try scratch(folder)
            let sql = "SELEC name FROM t"
            let error = #expect(throws: DatabaseError.self) { try db.prepare(sql) }
            #expect(error?.code == 1) // SQLITE_ERROR
            #expect(error?.sql == sql)
            #expect(error?.message.contains("syntax error") == true)
            #expect(error?.description.contains(sql) == true)
            #expect(error?.description.contains("SQLite error 1") == true)

            let executed = #expect(throws: DatabaseError.self) { try db.execute("DROP TABLE missing") }
            #expect(executed?.sql == "DROP TABLE missing")
            #expect(executed?.message.contains("no such table") == true)
        }
    }

    @Test("a constraint failure carries the primary and extended codes and the statement's SQL")
    func constraintError() throws {
        try withTemporaryDirectory { folder in
            let db = try scratch(folder)
            let insert = "INSERT INTO t (name) VALUES (?)"
            try db.run(insert, [.text("a")])
            let error = #expect(throws: DatabaseError.self) { try db.run(insert, [.text("a")]) }
            #expect(error?.code == 19) // SQLITE_CONSTRAINT
            #expect(error?.extendedCode == 2067) // SQLITE_CONSTRAINT_UNIQUE
            #expect(error?.isConstraint == true)
            #expect(error?.isBusy == false && error?.isCorrupt == false)
            #expect(error?.sql == insert)
            #expect(error?.message.contains("UNIQUE") == true)

            let notNull = #expect(throws: DatabaseError.self) { try db.run(insert, [.null]) }
            #expect(notNull?.extendedCode == 1299) // SQLITE_CONSTRAINT_NOTNULL
        }
    }

    @Test("a statement is reused after bind and after a failed step; values round-trip")
    func statementReuse() throws {
        try withTemporaryDirectory { folder in
            let db = try scratch(folder)
            let insert = try db.prepare("INSERT INTO t (name, weight, note) VALUES (?, ?, ?)")
            for (name, weight, note) in [("one", 1.5, "x"), ("two", 2.25, nil), ("三", -0.5, "é\n")] {
                try insert.bind([.text(name), .real(weight), note.map(SQLValue.text) ?? .null])
                #expect(try insert.step() == false)
            }
            // A failing step (duplicate) then the same statement again.
            try insert.bind([.text("one"), .null, .null])
            #expect(throws: DatabaseError.self) { try insert.step() }
            try insert.bind([.text("four"), .integer(4), .null])
            #expect(try insert.step() == false)
            #expect(db.lastInsertRowID == 4)

            let select = try db.prepare("SELECT id, name, weight, note FROM t WHERE id >= ? ORDER BY id")
            try select.bind([.integer(2)])
            #expect(try select.step())
            #expect(select.int64(0) == 2 && select.text(1) == "two" && select.double(2) == 2.25)
            #expect(select.isNull(3) && select.optionalText(3) == nil)
            // Re-bind in the middle of a result set: starts over with the new argument.
            try select.bind([.integer(3)])
            #expect(try select.step())
            #expect(select.text(1) == "三")
            #expect(select.optionalText(3) == "é\n")
            #expect(select.value(2) == .real(-0.5))
            #expect(try select.step())
            #expect(select.value(2) == .real(4)) // REAL affinity stores the bound integer as REAL
            #expect(try select.step() == false)

            #expect(try db.scalar("SELECT count(*) FROM t") == .integer(4))
            #expect(try db.scalar("SELECT name FROM t WHERE id = ?", [.integer(99)]) == nil)
            #expect(try db.scalar("SELECT NULL") == .null)
        }
    }

    @Test("transaction commits and returns the body's value; a thrown error rolls everything back")
    func transactionRollsBack() throws {
        struct Stop: Error {}
        try withTemporaryDirectory { folder in
            let db = try scratch(folder)
            let value = try db.transaction { () throws -> Int in
                try db.run("INSERT INTO t (name) VALUES ('kept')")
                return 42
            }
            #expect(value == 42)

            #expect(throws: Stop.self) {
                try db.transaction {
                    try db.run("INSERT INTO t (name) VALUES ('a')")
                    try db.run("UPDATE t SET note = 'changed' WHERE name = 'kept'")
                    throw Stop()
                }
            }
            #expect(throws: DatabaseError.self) {
                try db.transaction {
                    try db.run("INSERT INTO t (name) VALUES ('b')")
                    try db.run("INSERT INTO t (name) VALUES ('kept')") // UNIQUE violation
                }
            }
            #expect(try db.scalar("SELECT group_concat(name) FROM t") == .text("kept"))
            #expect(try db.scalar("SELECT note FROM t") == .null)
            // No transaction left open: the next one works and a plain BEGIN would too.
            try db.transaction { try db.run("INSERT INTO t (name) VALUES ('c')") }
            try db.execute("BEGIN; ROLLBACK")
            #expect(try db.scalar("SELECT count(*) FROM t") == .integer(2))
        }
    }

    @Test("a read-only connection refuses writes with a read-only error")
    func readOnly() throws {
        try withTemporaryDirectory { folder in
            _ = try scratch(folder)
            let path = folder.appendingPathComponent("scratch.sqlite").path
            let reader = try Database(path: path, mode: .readOnly)
            let error = #expect(throws: DatabaseError.self) { try reader.run("INSERT INTO t (name) VALUES ('x')") }
            #expect(error?.isReadOnly == true)
            #expect(try reader.scalar("SELECT count(*) FROM t") == .integer(0))
        }
    }

    @Test("opening a missing file without create fails with SQLite's code")
    func missingFile() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("absent.sqlite").path
            let error = #expect(throws: DatabaseError.self) { try Database(path: path, mode: .readWrite) }
            #expect(error?.code == 14) // SQLITE_CANTOPEN
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}
