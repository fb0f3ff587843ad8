import Foundation
import RigbookCore
import RigbookStore

/// Sync with a PostgreSQL server, beside the same work on SQLite in the same run:
/// `rigbook-bench --sync-only URL [--sync-assets N]`, URL an empty database (it becomes the server).
/// A first push of the whole register, a first pull into an empty replica (the built `rigbook sync`, its peak
/// memory too); two replicas each save 1,000 new records and sync; `merge` brings the same 1,000 from one
/// register file into another; `due` runs on a replica and through `--server` (first read and cached, the
/// first read's peak memory too).
enum SyncBench {
    static let newRecords = 1_000
    /// What the first pull and `due --server`'s first read may hold resident at their peak.
    static let peakTargetMB = 100.0

    static func run(url: String, assets: Int, rigbook: String) throws {
        let today = benchToday
        let root = temporaryHome("sync")
        defer { try? FileManager.default.removeItem(atPath: root) }
        func path(_ name: String) -> String { DataHome(root: root + "/" + name).registerPath }
        for name in ["a", "b", "a2", "b2", "cache"] {
            try FileManager.default.createDirectory(atPath: root + "/" + name + "/Documents",
                                                    withIntermediateDirectories: true)
        }
        // Each figure with its target in seconds, when it has one.
        var rows: [(work: String, ms: Double, target: Double?)] = []
        func timed<T>(_ work: String, target: Double? = nil, _ body: () throws -> T) rethrows -> T {
            progress("bench: \(work)…")
            let start = now()
            let result = try body()
            rows.append((work, (now() - start) * 1000, target))
            return result
        }
        let environment = ["XDG_CACHE_HOME": root + "/cache", "RIGBOOK_TODAY": today.iso, "HOME": root]

        let a = try Register.open(path: path("a"))
        try SampleData(count: assets, seed: 42, today: today).load(into: a)
        let records = try a.recordCount()
        _ = try timed("first sync, push: \(assets) assets, \(records) records", target: 60) { try a.sync(url: url) }
        // The first pull as a user runs it (`rigbook sync` in a new home), its peak memory its own.
        var peaks: [(work: String, mb: Double)] = []
        let pullPeak = try timed("first sync, pull into an empty replica (`rigbook sync`)", target: 60) {
            try runMeasuringPeak(rigbook, ["--home", root + "/b", "sync", url], environment)
        }
        peaks.append(("peak memory of the first pull (`rigbook sync`)", pullPeak))
        let b = try Register.open(path: path("b"))
        // The SQLite counterparts: two more replicas of the same register, brought in by merge.
        let a2 = try Register.open(path: path("a2"))
        let b2 = try Register.open(path: path("b2"))
        _ = try a2.sync(url: url, pushing: false)
        _ = try b2.sync(url: url, pushing: false)

        try saveNewRecords(a, today: today)
        try saveNewRecords(b, today: today)
        _ = try timed("SQLite: merge 1,000 new records from another register") { try b2.merge(from: a) }
        _ = try timed("SQLite: merge 1,000 new records, the other way") { try a2.merge(from: b) }
        _ = try timed("sync: push 1,000 new records", target: 2) { try a.sync(url: url) }
        _ = try timed("sync: pull 1,000 and push 1,000", target: 2) { try b.sync(url: url) }
        _ = try timed("sync: pull 1,000 new records", target: 2) { try a.sync(url: url) }
        _ = try timed("sync with nothing new") { try a.sync(url: url) }

        try timed("`due` on a replica (SQLite)") {
            try runQuietly(rigbook, ["--home", root + "/a", "due"], environment)
        }
        let firstReadPeak = try timed("`due --server`, first read (fills the cached replica)") {
            try runMeasuringPeak(rigbook, ["--server", url, "due"], environment)
        }
        peaks.append(("peak memory of `due --server`'s first read", firstReadPeak))
        try timed("`due --server`, cached replica", target: 2) {
            try runQuietly(rigbook, ["--server", url, "due"], environment)
        }

        print("| work (\(assets) assets, PostgreSQL and SQLite in one run) | time | target |")
        print("|---|---|---|")
        for row in rows {
            let target = row.target.map { "< \(Int($0)) s " + (row.ms < $0 * 1000 ? "✓" : "✗") } ?? ""
            print("| \(row.work) | \(format(row.ms)) | \(target) |")
        }
        for peak in peaks {
            let target = "< \(Int(peakTargetMB)) MB " + (peak.mb < peakTargetMB ? "✓" : "✗")
            print("| \(peak.work) | \(String(format: "%.0f MB", peak.mb)) | \(target) |")
        }
    }

    /// 1,000 passed periodic examinations, one per asset, saved in batches through the gate.
    static func saveNewRecords(_ register: Register, today: CalendarDate) throws {
        let values = InspectionValues.benchPass(on: today)
        let particulars = try register.particulars()
        let rows = try register.rows().filter { !$0.asset.isElectrical }.prefix(newRecords)
        guard rows.count == newRecords else {
            throw BenchFailure("the register has fewer than \(newRecords) assets to examine: --sync-assets more")
        }
        for chunk in stride(from: 0, to: rows.count, by: 250) {
            let visit = UUID()
            let members = BatchMember.bench(rows.dropFirst(chunk).prefix(250), visit: visit, values: values,
                                            particulars: particulars, today: today)
            let records = try BatchGate.validate(values, members: members).get()
            try register.insert(batch: records, visit: visit, saved: SaveStamp(), defectNotices: nil)
        }
    }

    static func runQuietly(_ executable: String, _ arguments: [String], _ environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        // `due` exits 3 when something needs attention: that is a result, not a failure.
        guard [0, 3].contains(process.terminationStatus) else {
            throw BenchFailure("rigbook \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }
}

extension SyncBench {
    /// Runs `executable` as `runQuietly` does and returns its peak resident memory in MB: `wait4`'s `ru_maxrss`
    /// for it, read by a small process of the bench's own (`--peak-of`) that spawns and reaps it. Not a child of
    /// the bench itself: Linux starts a child's `ru_maxrss` from the peak of the process it was spawned from
    /// (the spawn shares or copies that process's memory until `exec`), here the bench's gigabyte and more after
    /// making the sample. The small process's own start (under 20 MB) is all a figure can carry of it.
    static func runMeasuringPeak(_ executable: String, _ arguments: [String],
                                 _ environment: [String: String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: siblingExecutable("rigbook-bench"))
        process.arguments = ["--peak-of", executable] + arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let said = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let words = said.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard process.terminationStatus == 0, words.count == 2 else {
            throw BenchFailure("rigbook \(arguments.joined(separator: " ")) could not be measured: \(said)")
        }
        // `due` exits 3 when something needs attention: that is a result, not a failure.
        guard [0, 3].contains(words[0]) else {
            throw BenchFailure("rigbook \(arguments.joined(separator: " ")) exited \(words[0])")
        }
        return Double(words[1]) / 1024
    }

    /// `--peak-of EXECUTABLE ARGUMENTS…`: runs it (its output to /dev/null, this environment), reaps it with
    /// `wait4` and prints its exit code (128 + the signal when killed) and its `ru_maxrss` in KB. Spawned fresh
    /// by the bench, this process's own peak stays that of a start, so the child's figure is its own.
    static func peakOf(_ command: [String]) throws -> Never {
        guard let executable = command.first else { throw BenchFailure("--peak-of needs a program to run") }
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchFailure("cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else {
                throw BenchFailure("waiting for \(executable): \(String(cString: strerror(errno)))")
            }
        }
        // Exited with its code in the second byte, or killed by the signal in the low seven bits.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
        print("\(code) \(usage.ru_maxrss)")
        exit(0)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
