import Foundation
import Synchronization
import Testing
@testable import RigbookStore

// Output files and standard output (docs/DECISIONS.md), at the store: an atomic write replaces only a regular
// file (or makes a new one), never a FIFO, a device, a folder or a symbolic link that happens to be there.

private func fileType(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
}

/// What sits at a path before an atomic write, and the sentence its refusal must hold.
struct Occupant: CustomStringConvertible, Sendable {
    let description: String
    let says: String
    let make: @Sendable (String) -> Bool

    static let all: [Occupant] = [
        Occupant(description: "a FIFO", says: "named pipe") { mkfifo($0, 0o600) == 0 },
        Occupant(description: "a character device", says: "device") { mknod($0, S_IFCHR | 0o666, 1 << 8 | 3) == 0 },
        Occupant(description: "a folder", says: "is a folder") { mkdir($0, 0o700) == 0 },
        Occupant(description: "a symbolic link", says: "symbolic link") { symlink($0 + ".target", $0) == 0 },
    ]
}

@Suite("Hardening: output files and standard output") struct HardeningAtomicFileTests {
    @Test("an atomic write refuses to replace what is not a regular file, and leaves it there",
          arguments: Occupant.all)
    func refusesWhatIsNotARegularFile(_ occupant: Occupant) throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("out").path
            // mknod needs root; a test that cannot make its node has nothing to check.
            guard occupant.make(path) else { return }
            let kind = fileType(path)
            let error = #expect(throws: (any Error).self) { try AtomicFile.write(Data("new\n".utf8), to: path) }
            #expect("\(error.map { "\($0)" } ?? "")".contains(occupant.says), "\(String(describing: error))")
            #expect(fileType(path) == kind, "\(occupant) was replaced")
            #expect(!FileManager.default.fileExists(atPath: path + ".target"), "the link's target was written")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
            #expect(left.isEmpty, "temp files left: \(left)")
        }
    }

    @Test("a Rigbook file replacing a 0644 file is 0600")
    func privateFileIsPrivate() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("draft.json").path
            try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o644)
            try AtomicFile.write(Data("new\n".utf8), to: path)
            #expect(permissions(path) == 0o600)
            #expect(FileManager.default.contents(atPath: path) == Data("new\n".utf8))
        }
    }

    @Test("a file written for the user keeps the mode of the file it replaces",
          arguments: [0o600, 0o640, 0o664] as [mode_t])
    func userFileKeepsItsMode(_ mode: mode_t) throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("report.html").path
            try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, mode)
            try AtomicFile.write(Data("new\n".utf8), to: path, permissions: .user)
            #expect(permissions(path) == UInt32(mode))
            #expect(FileManager.default.contents(atPath: path) == Data("new\n".utf8))
        }
    }

    @Test("an output file is written in place into a FIFO, which stays a FIFO")
    func outputFileWritesAFIFOInPlace() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("feed").path
            try #require(mkfifo(path, 0o600) == 0)
            let reader = open(path, O_RDONLY | O_NONBLOCK)
            try #require(reader >= 0)
            defer { close(reader) }
            try OutputFile.write(to: path) { try $0.write("one line\n") }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(reader, &buffer, buffer.count)
            #expect(count == 9 && String(decoding: buffer[0..<9], as: UTF8.self) == "one line\n")
            #expect(fileType(path) == S_IFIFO)
        }
    }

    @Test("an output file refuses a symbolic link, even to a regular file, and writes neither")
    func outputFileRefusesALink() throws {
        try withTemporaryDirectory { folder in
            let target = folder.appendingPathComponent("target.csv").path
            let link = folder.appendingPathComponent("link.csv").path
            try Data("keep\n".utf8).write(to: URL(fileURLWithPath: target))
            try #require(symlink(target, link) == 0)
            let error = #expect(throws: AtomicFile.Refusal.self) {
                try OutputFile.write(to: link) { try $0.write("x") }
            }
            #expect(error?.description.contains("symbolic link (to \(target))") == true, "\(String(describing: error))")
            #expect(fileType(link) == S_IFLNK)
            #expect(FileManager.default.contents(atPath: target) == Data("keep\n".utf8))
        }
    }

    @Test("a new file never replaces one already under its name: it takes the next name")
    func newFileTakesTheNextFreeName() throws {
        try withTemporaryDirectory { folder in
            let taken = folder.appendingPathComponent("labels.html").path
            try Data("someone else's\n".utf8).write(to: URL(fileURLWithPath: taken))
            let name = { (attempt: Int) in attempt == 0 ? "labels.html" : "labels-\(attempt).html" }
            let path = try AtomicFile.createNew(in: folder.path, named: name) { try $0.write("ours\n") }
            #expect(path == folder.appendingPathComponent("labels-1.html").path)
            #expect(FileManager.default.contents(atPath: taken) == Data("someone else's\n".utf8))
            #expect(FileManager.default.contents(atPath: path) == Data("ours\n".utf8))
            #expect(folderListing(folder.path) == ["labels-1.html", "labels.html"], "no temp file is left")
        }
    }

    @Test("writers picking one name at once each end with a file of their own, none replaced",
          arguments: [true, false])
    func concurrentWritersKeepEveryFile(hardLinks: Bool) throws {
        try withTemporaryDirectory { folder in
            let writers = 8
            let paths = Mutex<[Int: String]>([:])
            DispatchQueue.concurrentPerform(iterations: writers) { writer in
                let path = try? AtomicFile.createNew(in: folder.path, hardLinks: hardLinks,
                                                     named: { "out-\($0).txt" }) { try $0.write("writer \(writer)\n") }
                paths.withLock { $0[writer] = path }
            }
            let written = paths.withLock { $0 }
            #expect(Set(written.values).count == writers, "\(written)")
            for (writer, path) in written {
                #expect(FileManager.default.contents(atPath: path) == Data("writer \(writer)\n".utf8), "\(path)")
            }
            #expect(folderListing(folder.path).count == writers, "no temp file is left: \(folderListing(folder.path))")
        }
    }
}
