import Foundation
import RigbookCore
import RigbookStore

/// Sync with a PostgreSQL server, beside the same work on SQLite in the same run:
/// `rigbook-bench --sync-only URL [--sync-assets N]`, URL an empty database (it becomes the server).
/// A first push of the whole register, a first pull into an empty replica (the built `rigbook sync`, its peak
/// memory too); two replicas each save 1,000 new records and sync; `merge` brings the same 1,000 from one
/// register file into another; `due` runs on a replica and through `--server` (first read and cached).
enum SyncBench {
    static let newRecords = 1_000

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
        // The first pull as a user runs it (`rigbook sync` in a new home): the bench's first child process, so
        // its peak memory is the children's.
        try timed("first sync, pull into an empty replica (`rigbook sync`)", target: 60) {
            try runQuietly(rigbook, ["--home", root + "/b", "sync", url], environment)
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        let pullPeakMB = Double(usage.ru_maxrss) / 1024
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
        try timed("`due --server`, first read (fills the cached replica)") {
            try runQuietly(rigbook, ["--server", url, "due"], environment)
        }
        try timed("`due --server`, cached replica", target: 2) {
            try runQuietly(rigbook, ["--server", url, "due"], environment)
        }

        print("| work (\(assets) assets, PostgreSQL and SQLite in one run) | time | target |")
        print("|---|---|---|")
        for row in rows {
            let target = row.target.map { "< \(Int($0)) s " + (row.ms < $0 * 1000 ? "✓" : "✗") } ?? ""
            print("| \(row.work) | \(format(row.ms)) | \(target) |")
        }
        print("| peak memory of the first pull (`rigbook sync`) | \(String(format: "%.0f MB", pullPeakMB)) | |")
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

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
