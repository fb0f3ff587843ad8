import Foundation
import Testing
import RigbookStore

// No file a person names for Rigbook to write may be one of the home's own: the register and its companions,
// a draft and its journal and lock, the profile, anything in the data home, however the path reaches it.

@Suite("Outputs never replace the home's own files")
struct OwnFilesOutputTests {
    /// A sampled home with a draft, its journal and lock beside it, and a folder outside the home.
    private struct Home {
        let dir = TempDir("rigbook-own-files")
        var root: String { dir.sub("home") }
        var data: DataHome { DataHome(root: root) }
        var outside: String { dir.sub("outside") }
        let draft = "inspection-" + UUID().uuidString.lowercased()

        init() throws {
            let sampled = runRigbookResult(["sample"], home: dir.sub("home"))
            try #require(sampled.status == 0, "\(sampled)")
            try FileManager.default.createDirectory(atPath: dir.sub("outside"), withIntermediateDirectories: true)
            let drafts = DataHome(root: dir.sub("home")).draftsFolder
            try FileManager.default.createDirectory(atPath: drafts, withIntermediateDirectories: true)
            for suffix in [".json", ".journal", ".lock"] {
                try Data("{\"typed\":\"keep me\"}\n".utf8).write(to: URL(fileURLWithPath: drafts + "/" + draft + suffix))
            }
            try Data("{}\n".utf8).write(to: URL(fileURLWithPath: DataHome(root: dir.sub("home")).profilePath))
        }

        func run(_ args: [String]) -> RunResult { runRigbookResult(args, home: root) }

        /// Every file in the home with its size and modification time: what no refused write may change.
        func snapshot() -> [String: String] {
            var files: [String: String] = [:]
            for relative in FileManager.default.subpaths(atPath: root) ?? [] {
                var info = stat()
                guard lstat(root + "/" + relative, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                // Readers touch the WAL's index: only its identity and size count there.
                let touched = relative.hasSuffix("-shm") ? "" : " \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
                files[relative] = "\(info.st_ino) \(info.st_size)" + touched
            }
            return files
        }
    }

    /// The writers that take a path: each with the arguments that make it write.
    private static let writers: [[String]] = [
        ["export", "--format", "csv", "--out"], ["export", "--format", "json", "--out"], ["report", "--out"],
        ["calendar", "--out"], ["certificate", "#1", "--out"], ["labels", "RS-0001", "--out"], ["backup"],
    ]

    @Test("every writer refuses the register, its companions, a draft, the profile and the home's folders")
    func everyWriterRefusesOurFiles() throws {
        let home = try Home()
        defer { home.dir.remove() }
        let documents = home.data.documents, drafts = home.data.draftsFolder
        try #require(symlink(documents, home.outside + "/documents-link") == 0)
        try #require(link(home.data.registerPath, home.outside + "/register-hard-link") == 0)
        try #require(link(drafts + "/" + home.draft + ".json", home.outside + "/draft-hard-link") == 0)
        try #require(symlink(home.data.registerPath, home.outside + "/register-symlink") == 0)
        let inside = "in a folder of Rigbook's data home"
        let targets: [(path: String, says: String)] = [
            (home.data.registerPath, "is the register itself"),
            (home.data.registerPath + "-wal", "part of the register itself"),
            (home.data.registerPath + "-shm", "part of the register itself"),
            (home.data.registerPath + "-journal", inside),
            (drafts + "/" + home.draft + ".json", "is a draft"),
            (drafts + "/" + home.draft + ".journal", inside),
            (drafts + "/" + home.draft + ".lock", inside),
            (home.data.profilePath, "is Rigbook's profile"),
            (documents + "/new-report.html", inside),
            (documents + "/../Documents/register.sqlite", "is the register itself"),
            (home.outside + "/../home/Documents/Drafts/new.json", inside),
            (home.outside + "/documents-link/register.sqlite", "is the register itself"),
            (home.outside + "/documents-link/another.csv", inside),
            (home.outside + "/register-hard-link", "is the register itself"),
            (home.outside + "/register-symlink", "is the register itself"),
            (home.outside + "/draft-hard-link", "is a draft"),
        ]
        // A session's companions of the register are there, as while a session works.
        #expect(home.run(["verify"]).status == 0)
        let before = home.snapshot()
        for writer in Self.writers {
            for target in targets {
                let result = home.run(writer + [target.path])
                #expect(result.status == 1, "\(writer) \(target.path): \(result)")
                #expect(result.stderr.contains(target.path) && result.stderr.contains(target.says),
                        "\(writer) \(target.path): \(result)")
            }
        }
        #expect(home.snapshot() == before)
        let verified = home.run(["verify"])
        #expect(verified.status == 0, "\(verified)")
        // Outside the home the same writers still write.
        for (offset, writer) in Self.writers.enumerated() {
            let path = home.outside + "/output-\(offset)"
            let result = home.run(writer + [path])
            #expect(result.status == 0 && FileManager.default.fileExists(atPath: path), "\(writer): \(result)")
        }
    }

    @Test("backup and --out refuse in the same words and with the same exit status")
    func backupAndOutSpeakAlike() throws {
        let home = try Home()
        defer { home.dir.remove() }
        let backup = home.run(["backup", home.data.registerPath])
        let export = home.run(["export", "--out", home.data.registerPath])
        #expect(backup.status == export.status)
        #expect(backup.stderr.contains("\(home.data.registerPath) is the register itself"), "\(backup)")
        #expect(export.stderr.contains("\(home.data.registerPath) is the register itself"), "\(export)")
    }
}
