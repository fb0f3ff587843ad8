import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// A missing or empty register is never "nothing due": only a command that adds data may
/// create a register, nothing creates one over a zero-byte file, and reading never writes the file.
@Suite("Hardening: registers")
struct HardeningRegisterStoreTests {
    /// A zero-byte register file (a truncated copy, a full disk at the wrong moment) made in `folder`.
    private func emptyRegisterFile(in folder: URL) throws -> String {
        let path = registerPath(in: folder)
        try DataHome.makePrivateDirectory((path as NSString).deletingLastPathComponent)
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        try backdate(path)
        return path
    }

    private func expectEmptyFileRefusal(_ error: RegisterError?, path: String,
                                        sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .emptyFile(let refused)? = error else {
            Issue.record("expected the empty file to be refused, got \(String(describing: error))",
                         sourceLocation: sourceLocation)
            return
        }
        #expect(refused == path, sourceLocation: sourceLocation)
        let text = error?.description ?? ""
        #expect(!text.contains("\n") && text.contains(path), "\(text)", sourceLocation: sourceLocation)
        #expect(text.contains("move"), "the refusal must say how to start afresh: \(text)",
                sourceLocation: sourceLocation)
    }

    @Test("opening to write never makes a register over a zero-byte file")
    func writingRefusesAnEmptyFile() throws {
        try withTemporaryDirectory { folder in
            let path = try emptyRegisterFile(in: folder)
            let before = try FileState(path: path)
            let listing = folderListing((path as NSString).deletingLastPathComponent)
            let error = #expect(throws: RegisterError.self) { _ = try Register.open(path: path) }
            expectEmptyFileRefusal(error, path: path)
            #expect(try FileState(path: path) == before)
            #expect(folderListing((path as NSString).deletingLastPathComponent) == listing)
        }
    }

    @Test("opening to read refuses a missing register and creates nothing, not even its folder")
    func readingRefusesAMissingRegister() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let error = #expect(throws: RegisterError.self) { _ = try Register.openForReading(path: path) }
            #expect(error == .missing(path: path))
            #expect(folderListing(folder.path).isEmpty, "reading created \(folderListing(folder.path))")
        }
    }

    @Test("opening to read refuses a zero-byte file and leaves it as it was")
    func readingRefusesAnEmptyFile() throws {
        try withTemporaryDirectory { folder in
            let path = try emptyRegisterFile(in: folder)
            let before = try FileState(path: path)
            let error = #expect(throws: RegisterError.self) { _ = try Register.openForReading(path: path) }
            expectEmptyFileRefusal(error, path: path)
            #expect(try FileState(path: path) == before)
            #expect(folderListing((path as NSString).deletingLastPathComponent) == ["register.sqlite"])
        }
    }

    @Test("a register opened to read is read whole and its file is never written")
    func readingNeverWritesTheFile() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            do {
                let register = try Register.open(path: path)
                try SampleData(count: 40, seed: 3, today: testToday).load(into: register)
            }
            try backdate(path)
            let before = try FileState(path: path)
            let reader = try Register.openForReading(path: path)
            #expect(try reader.rows().count == 40)
            #expect(try reader.recordCount() > 0)
            let writeError = #expect(throws: RegisterError.self) { try reader.addAsset(makeAsset(tag: "NEW-1")) }
            #expect(writeError != nil)
            #expect(try FileState(path: path) == before)
        }
    }

    @Test("opening to read refuses files that are not registers, and leaves nothing beside them")
    func readingRefusesForeignFiles() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let documents = (path as NSString).deletingLastPathComponent
            try DataHome.makePrivateDirectory(documents)
            do {
                let db = try Database(path: path)
                try db.execute("PRAGMA journal_mode = WAL; CREATE TABLE notes (body TEXT);"
                               + " INSERT INTO notes VALUES ('x')")
            }
            let before = try FileState(path: path)
            let error = #expect(throws: RegisterError.self) { _ = try Register.openForReading(path: path) }
            guard case .notARegister? = error else {
                Issue.record("expected a refusal, got \(String(describing: error))")
                return
            }
            #expect(try FileState(path: path) == before)
            #expect(folderListing(documents) == ["register.sqlite"])
        }
    }

    @Test("a register of an earlier schema is brought up to date once, then read")
    func readingUpgradesAnOlderRegisterFirst() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            do { _ = try firstSchemaDatabase(at: path) }
            let reader = try Register.openForReading(path: path)
            #expect(try reader.rows().isEmpty)
            #expect(try RegisterSchema.appliedNames(reader.db) == Set(RegisterSchema.migrations.map(\.name)))
        }
    }

    /// A new register is built beside its path and linked in whole, so the path never names a zero-byte
    /// file that another process starting at the same moment would have to refuse.
    @Test("eight threads creating one new register at once all open it")
    func concurrentCreationNeverMeetsAnEmptyFile() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let errors = runOnThreads(8) { thread in
                let register = try Register.open(path: path)
                try register.addAsset(makeAsset(tag: "T-\(thread)"))
            }
            #expect(errors.isEmpty, "\(errors)")
            do {
                let count = try Register.open(path: path).assetCount()
                #expect(count == 8)
            }
            #expect(folderListing((path as NSString).deletingLastPathComponent) == ["register.sqlite"])
            #expect(permissions(path) == 0o600)
        }
    }
}
