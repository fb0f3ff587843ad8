import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL cluster of the tests' own: made in a temporary folder with `initdb`, listening on
/// a Unix socket there only (nothing on the network), one per test process, started when a test first asks
/// for it and stopped when the process exits. As root the server runs as the `postgres` user (initdb refuses
/// root; see PLATFORM-NOTES). A cluster left by a run that was killed is stopped by the next run.
public final class ThrowawayPostgres: Sendable {
    /// The folder holding the cluster (`data/`), its socket and its log.
    public let folder: String
    private let binaries: String

    /// The process's cluster, started on first use.
    public static func shared() throws -> ThrowawayPostgres { try started.get() }

    private static let started: Result<ThrowawayPostgres, Error> = Result {
        try ThrowawayPostgres.stopAbandoned()
        let cluster = try ThrowawayPostgres()
        ThrowawayPostgres.running.withLock { $0 = cluster }
        atexit { ThrowawayPostgres.running.withLock { $0?.stop(); $0 = nil } }
        return cluster
    }

    private static let running = Mutex<ThrowawayPostgres?>(nil)

    private static let prefix = "rigbook-pg-"

    private init() throws {
        guard let bin = Self.findBinaries() else {
            throw ClusterError("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run .ci/run")
        }
        binaries = bin
        var template = Array((NSTemporaryDirectory() + "/" + Self.prefix + "XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw ClusterError("mkdtemp: \(String(cString: strerror(errno)))") }
        folder = String(cString: made)
        // Who owns the cluster: a later run stops it once this process is gone.
        try String(getpid()).write(toFile: folder + "/owner", atomically: true, encoding: .utf8)
        if geteuid() == 0 {
            try Self.run("/bin/chown", ["postgres", folder])
        }
        try runAsServerUser("initdb", ["-D", folder + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8",
                                       "--no-locale", "--no-sync"])
        try Self.checkPasswords(of: Self.passwordRole, in: folder + "/data/pg_hba.conf")
        // fsync off: a test cluster is thrown away; nothing but the Unix socket in this folder.
        try runAsServerUser("pg_ctl", ["-D", folder + "/data", "-w", "-t", "120", "-l", folder + "/log",
                                       "-o", "-k \(folder) -c listen_addresses='' -c fsync=off "
                                        + "-c full_page_writes=off -c max_connections=200", "start"])
        _ = try psql("postgres", "CREATE ROLE \(Self.passwordRole) LOGIN PASSWORD '\(Self.rightPassword)';"
                     + " CREATE ROLE \(Self.notOwnerRole) LOGIN")
    }

    /// The one role whose logins the cluster checks by password (every other role is trusted), and its password:
    /// for tests of a wrong or missing password.
    public static let passwordRole = "password_checked"
    public static let rightPassword = "the-right-password"
    /// A role that may log in but owns nothing, so it may not make tables in another role's database.
    public static let notOwnerRole = "not_owner"

    /// A URL for `database` (which need not exist) as `role`, with `password` when one is given.
    public func url(database: String, role: String, password: String? = nil) -> String {
        "postgresql:///\(database)?host=\(folder)&user=\(role)" + (password.map { "&password=\($0)" } ?? "")
    }

    /// Puts a line first in pg_hba.conf (the first line that matches decides) that checks `role`'s password. The
    /// file is written in place: it keeps its owner, the server's user, who must read it.
    private static func checkPasswords(of role: String, in file: String) throws {
        let rules = try String(contentsOfFile: file, encoding: .utf8)
        try ("local all \(role) scram-sha-256\n" + rules).write(toFile: file, atomically: false, encoding: .utf8)
    }

    /// A URL for a new, empty database of the cluster: each test gets its own.
    public func createDatabase() throws -> String { url(database: try createDatabaseNamed()) }

    /// The name of a new, empty database of the cluster (owned by `postgres`), for a test that connects to it
    /// as another role.
    public func createDatabaseNamed() throws -> String {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try Self.run(binaries + "/psql", ["-X", "-q", "-h", folder, "-U", "postgres", "-d", "postgres",
                                          "-c", "CREATE DATABASE \(name)"])
        return name
    }

    public func url(database: String) -> String { url(database: database, role: "postgres") }

    /// Runs SQL on `database` with psql (for tests that tamper with a server or make a foreign database).
    public func psql(_ database: String, _ sql: String) throws -> String {
        try Self.run(binaries + "/psql", ["-X", "-q", "-A", "-t", "-h", folder, "-U", "postgres", "-d", database,
                                          "-v", "ON_ERROR_STOP=1", "-c", sql])
    }

    func stop() {
        _ = try? runAsServerUser("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Stops clusters whose owning test process is gone (a run killed before its exit handler ran).
    private static func stopAbandoned() throws {
        let temp = NSTemporaryDirectory()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temp),
              let bin = findBinaries() else { return }
        for name in names where name.hasPrefix(prefix) {
            let dir = temp + "/" + name
            guard let owner = try? String(contentsOfFile: dir + "/owner", encoding: .utf8),
                  let pid = Int32(owner.trimmingCharacters(in: .whitespacesAndNewlines)) else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            if FileManager.default.fileExists(atPath: dir + "/data/postmaster.pid") {
                let stopper = ThrowawayPostgresStopper(binaries: bin)
                try? stopper.stop(dir)
            }
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    private static func findBinaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }

    private func runAsServerUser(_ tool: String, _ arguments: [String]) throws {
        try ThrowawayPostgresStopper(binaries: binaries).runAsServerUser(tool, arguments)
    }

    /// Runs a tool and waits for it, its output going to a file (never a pipe: the server that pg_ctl starts
    /// would inherit the pipe). posix_spawn and waitpid: Foundation's Process left a finished child unreaped
    /// here when waited for from a test's thread.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "/rigbook-pgtool-output-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else the test process holds open (its tests run in parallel: pipes, terminals, registers): the
        // server pg_ctl starts inherited it all and once refused to start ("insufficient file descriptors").
        // glibc's `posix_spawn_file_actions_addclosefrom_np`, looked up: Swift's Glibc module does not declare it.
        if let closeFrom = ThrowawayPostgres.addCloseFrom { _ = closeFrom(&actions, 3) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw ClusterError("cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw ClusterError("waitpid: \(String(cString: strerror(errno)))") }
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Exited normally with 0 (the status word's low 7 bits are the signal, the next 8 the exit code).
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw ClusterError("\(executable) \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
        return text
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0),
                                                           "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    public struct ClusterError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

/// Runs the cluster's tools as the server's user (`postgres` when we are root).
private struct ThrowawayPostgresStopper {
    let binaries: String

    func runAsServerUser(_ tool: String, _ arguments: [String]) throws {
        if geteuid() == 0 {
            try ThrowawayPostgres.run("/sbin/runuser", ["-u", "postgres", "--", binaries + "/" + tool] + arguments)
        } else {
            try ThrowawayPostgres.run(binaries + "/" + tool, arguments)
        }
    }

    func stop(_ dir: String) throws {
        try runAsServerUser("pg_ctl", ["-D", dir + "/data", "-m", "immediate", "-w", "stop"])
    }
}
