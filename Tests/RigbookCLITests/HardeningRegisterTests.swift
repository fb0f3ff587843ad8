import Foundation
import RigbookCore
import RigbookStore
import Testing

/// The commands that only read the register: none may create one, and each says where it looked.
private let readingCommands: [[String]] = [
    ["due"], ["due", "--format", "json"], ["asset", "list"], ["history", "SL-0001"], ["export", "--format", "csv"],
    ["calendar"], ["report"], ["drafts", "list"], ["drafts", "purge"],
]

/// The commands that add data: they may create a register, but never over a zero-byte file.
private let addingCommands: [[String]] = [
    ["asset", "add", "--tag", "SL-0001", "--name", "Web sling", "--type", "web-sling", "--wll", "1000"],
    ["sample", "--assets", "5"],
]

private func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// Bytes and modification time (to the nanosecond) of a file: what "never wrote it" compares.
private struct Snapshot: Equatable, CustomStringConvertible {
    let bytes: Data
    let seconds: Int
    let nanoseconds: Int

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0, let bytes = FileManager.default.contents(atPath: path) else { return nil }
        self.bytes = bytes
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
    }

    var description: String { "\(bytes.count) bytes, mtime \(seconds).\(nanoseconds)" }
}

private func backdate(_ path: String) throws {
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)],
                                          ofItemAtPath: path)
}

/// A home whose register holds one overdue web sling (commissioned long ago, never examined).
private func homeWithOverdueSling(_ dir: TempDir) throws -> String {
    let home = dir.sub("home")
    let added = runRigbookResult(["asset", "add", "--tag", "SL-0001", "--name", "Web sling", "--type", "web-sling",
                                  "--wll", "1000", "--commissioned", "2024-01-10"], home: home)
    try #require(added.status == 0, "\(added)")
    return home
}

/// A home with `Documents/register.sqlite` present and zero bytes long.
private func homeWithEmptyRegisterFile(_ dir: TempDir) throws -> (home: String, register: String) {
    let home = dir.sub("home")
    try FileManager.default.createDirectory(atPath: home + "/Documents", withIntermediateDirectories: true)
    let register = home + "/Documents/register.sqlite"
    #expect(FileManager.default.createFile(atPath: register, contents: Data()))
    try backdate(register)
    return (home, register)
}

extension RigbookCLITests {
    @Suite("Hardening: registers") struct HardeningRegisters {
        @Test(arguments: readingCommands)
        func aReadingCommandRefusesAMissingRegisterAndCreatesNothing(_ command: [String]) throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let result = runRigbookResult(command, home: home)
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.stderrIsOneLine, "\(command): \(result)")
            #expect(result.stderr.contains("no register"), "\(command): \(result)")
            #expect(result.stderr.contains(home), "\(command) must name the home it looked in: \(result)")
            #expect(result.stdout.isEmpty, "\(command): \(result)")
            #expect(!fileExists(home), "\(command) created the data home")
        }

        @Test func aWrongHomeFromTheEnvironmentIsNamedToo() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("cron-home")
            let result = runRigbookResult(["due"], home: home, env: ["RIGBOOK_HOME": home], homeOption: false)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains(home), "\(result)")
            #expect(!fileExists(home))
        }

        @Test(arguments: readingCommands + addingCommands)
        func noCommandUsesAZeroByteRegister(_ command: [String]) throws {
            let dir = TempDir(); defer { dir.remove() }
            let (home, register) = try homeWithEmptyRegisterFile(dir)
            let before = Snapshot(register)
            let result = runRigbookResult(command, home: home)
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.stderrIsOneLine, "\(command): \(result)")
            #expect(result.stderr.contains(register), "\(command): \(result)")
            #expect(result.stderr.contains("empty"), "\(command): \(result)")
            #expect(result.stderr.contains("move"), "\(command) must say how to start afresh: \(result)")
            #expect(result.stdout.isEmpty, "\(command): \(result)")
            #expect(Snapshot(register) == before, "\(command) changed the empty file")
            let left = try FileManager.default.contentsOfDirectory(atPath: home + "/Documents")
            #expect(left == ["register.sqlite"], "\(command) left files beside it: \(left)")
        }

        @Test func theFullScreenRegisterRefusesAZeroByteFile() throws {
            let tmux = try TmuxSession()
            let dir = TempDir("rigbook-tmux"); defer { tmux.kill(); dir.remove() }
            let (home, register) = try homeWithEmptyRegisterFile(dir)
            let command = [try Binary.path(), "--home", home].map(shellQuoted).joined(separator: " ")
            try tmux.start("cd \(shellQuoted(dir.path)) && \(command) 2> ERR; echo $? > EXIT; exec sleep 600")
            // The shell creates EXIT before it writes the status into it: wait for the whole line.
            #expect(poll { readFile(dir.sub("EXIT"))?.hasSuffix("\n") == true },
                    "the full-screen register opened over the empty file")
            #expect(readFile(dir.sub("EXIT"))?.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
            let message = readFile(dir.sub("ERR")) ?? ""
            #expect(message.contains(register) && message.contains("move"), "\(message)")
            #expect(Snapshot(register).map(\.bytes.count) == 0)
        }

        @Test func readingCommandsNeverWriteTheRegisterFile() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = try homeWithOverdueSling(dir)
            let register = home + "/Documents/register.sqlite"
            try backdate(register)
            let before = try #require(Snapshot(register))
            for command in readingCommands {
                let result = runRigbookResult(command, home: home)
                #expect([0, 3].contains(result.status), "\(command): \(result)")
                #expect(Snapshot(register) == before, "\(command) wrote the register file")
            }
        }

        /// A register on a share the user may read but not write, or a folder made read-only: `due` still
        /// reports, through SQLite's `immutable` open when it cannot make the WAL's companion files.
        @Test func dueReadsARegisterInAFolderItCannotWrite() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = try homeWithOverdueSling(dir)
            let documents = home + "/Documents", register = documents + "/register.sqlite"
            try backdate(register)
            let before = try #require(Snapshot(register))
            let listing = try FileManager.default.contentsOfDirectory(atPath: documents)
            defer { chmod(documents, 0o700) }
            let result = try runWithoutWriteAccess(["due"], home: home, folder: documents)
            #expect(result.status == 3, "\(result)")
            #expect(result.stdout.contains("SL-0001") && result.stdout.contains("OVERDUE"), "\(result)")
            #expect(Snapshot(register) == before, "due wrote the register file")
            #expect(try FileManager.default.contentsOfDirectory(atPath: documents) == listing)
        }

        /// A register copied while a session had it open (a backup, a share) keeps recent saves in its -wal.
        /// Where SQLite cannot make the -shm, `due` must not report from the main file alone, which lacks them.
        @Test func dueNeverReadsAroundAWALItCannotUse() throws {
            let dir = TempDir(); defer { dir.remove() }
            let live = try homeWithOverdueSling(dir)
            let copy = dir.sub("copy"), documents = copy + "/Documents"
            try FileManager.default.createDirectory(atPath: documents, withIntermediateDirectories: true)
            do {
                let register = try Register.open(path: DataHome(root: live).registerPath)
                try register.addAsset(Asset(tag: "HK-9", name: "Hook", type: .hook, wllKg: 500,
                                            commissioned: CalendarDate(iso: "2024-01-10"), intervalMonths: 6))
                for suffix in ["", "-wal"] {
                    try FileManager.default.copyItem(atPath: register.path + suffix,
                                                     toPath: documents + "/register.sqlite" + suffix)
                }
            }
            defer { chmod(documents, 0o700) }
            let result = try runWithoutWriteAccess(["due"], home: copy, folder: documents)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderrIsOneLine && result.stderr.contains("-wal"), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }

        /// A full disk must not silence `due`: it reads without making the WAL's shared-memory file.
        @Test(.enabled(if: canMountTmpfs(), "needs root and `unshare -m` to mount a small tmpfs"))
        func dueReadsARegisterOnAFullDisk() throws {
            let dir = TempDir(); defer { dir.remove() }
            let source = try homeWithOverdueSling(dir)
            let result = try runOnASmallDisk(dir, size: "2m", ["due"], before: { disk in """
                cp \(shellQuoted(source))/Documents/register.sqlite \(disk)/home/Documents/
                dd if=/dev/zero of=\(disk)/fill bs=4096 2>/dev/null || true
                """ })
            #expect(result.stdout.contains("exit=3"), "\(result)")
            #expect(result.stdout.contains("SL-0001"), "\(result)")
        }

        /// A register whose making fails on a full disk leaves nothing behind: neither the private file it was
        /// built in nor the WAL and shared memory SQLite made beside it, which would stay in Documents/ forever.
        @Test(.enabled(if: canMountTmpfs(), "needs root and `unshare -m` to mount a small tmpfs"))
        func aRegisterNotMadeOnAFullDiskLeavesNoFilesBehind() throws {
            let dir = TempDir(); defer { dir.remove() }
            // Room for the register's first pages, not for a sample of 200 assets.
            let result = try runOnASmallDisk(dir, size: "128k", ["sample", "--assets", "200"],
                                             after: { disk in "ls -A \(disk)/home/Documents" })
            #expect(result.stdout.contains("exit=1"), "\(result)")
            #expect(result.stderr.contains("the disk is full"), "\(result)")
            let left = result.stdout.split(separator: "\n").filter { !$0.hasPrefix("exit=") }
            #expect(left.isEmpty, "files left in Documents/: \(left)")
        }
    }
}

/// Whether this process may mount a tmpfs in a private mount namespace (root in most containers).
private func canMountTmpfs() -> Bool {
    guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
    let probe = try? runProcess("/usr/bin/unshare", ["-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                                environment: ProcessInfo.processInfo.environment, timeout: 10)
    return probe?.status == 0
}

/// Runs rigbook on the data home `home` of a tmpfs of `size` mounted in a private namespace (so nothing is left
/// mounted whatever happens), its Documents/ folder made; `before` and `after` are shell lines given the disk's
/// quoted path. Its stdout ends with `exit=N`, then what `after` prints.
private func runOnASmallDisk(_ dir: TempDir, size: String, _ arguments: [String],
                             before: (String) -> String = { _ in "" },
                             after: (String) -> String = { _ in "" }) throws -> RunResult {
    let mount = dir.sub("disk")
    try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
    let disk = shellQuoted(mount)
    let rigbook = ([try Binary.path(), "--home", mount + "/home"] + arguments).map(shellQuoted)
    let script = """
        set -e
        mount -t tmpfs -o size=\(size) tmpfs \(disk)
        mkdir -p \(disk)/home/Documents
        \(before(disk))
        set +e
        \(rigbook.joined(separator: " "))
        echo "exit=$?"
        \(after(disk))
        """
    var environment = baseEnvironment(userHome: dir.sub("user-home"))
    environment["RIGBOOK_TODAY"] = fixedToday
    return try runProcess("/usr/bin/unshare", ["-m", "sh", "-c", script], environment: environment)
}

/// Runs rigbook so that it cannot write `folder`: with the folder made read-only, and, since root writes
/// anywhere, as the unprivileged user `nobody` (owning the home) when the tests run as root.
private func runWithoutWriteAccess(_ arguments: [String], home: String, folder: String) throws -> RunResult {
    let binary = try Binary.path()
    var environment = baseEnvironment(userHome: (home as NSString).deletingLastPathComponent + "/user-home")
    environment["RIGBOOK_TODAY"] = fixedToday
    guard geteuid() == 0 else {
        chmod(folder, 0o500)
        return try runProcess(binary, ["--home", home] + arguments, environment: environment)
    }
    let nobody: uid_t = 65_534
    let owner = try runProcess("/bin/chown", ["-R", "\(nobody):\(nobody)", home], environment: environment)
    try #require(owner.status == 0, "\(owner)")
    chmod(folder, 0o500)
    let drop = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"]
    return try runProcess("/usr/bin/setpriv", drop + [binary, "--home", home] + arguments, environment: environment)
}
