import Foundation
import RigbookCore
import RigbookStore

/// Sync with a PostgreSQL server (issue 18 §6), beside the same work on SQLite in the same run:
/// `rigbook-bench --sync-only URL [--sync-assets N]`, URL an empty database (it becomes the server).
/// Two replicas each save 1,000 new records and sync; `merge` brings the same 1,000 from one register file
/// into another; `due` runs on a replica and through `--server` (the built `rigbook`, first read and cached).
enum SyncBench {
    static let newRecords = 1_000

    static func run(url: String, assets: Int, rigbook: String) throws {
        let today = CalendarDate(iso: "2026-11-30")!
        let root = temporaryHome("sync")
        defer { try? FileManager.default.removeItem(atPath: root) }
        func path(_ name: String) -> String { DataHome(root: root + "/" + name).registerPath }
        for name in ["a", "b", "a2", "b2", "cache"] {
            try FileManager.default.createDirectory(atPath: root + "/" + name + "/Documents",
                                                    withIntermediateDirectories: true)
        }
        var rows: [(String, String)] = []
        func timed<T>(_ work: String, _ body: () throws -> T) rethrows -> T {
            progress("bench: \(work)…")
            let start = now()
            let result = try body()
            rows.append((work, format((now() - start) * 1000)))
            return result
        }

        let a = try Register.open(path: path("a"))
        try SampleData(count: assets, seed: 42, today: today).load(into: a)
        let records = try a.recordCount()
        _ = try timed("first sync, push: \(assets) assets, \(records) records") { try a.sync(url: url) }
        let b = try Register.open(path: path("b"))
        _ = try timed("first sync, pull into an empty replica") { try b.sync(url: url) }
        // The SQLite counterparts: two more replicas of the same register, brought in by merge.
        let a2 = try Register.open(path: path("a2"))
        let b2 = try Register.open(path: path("b2"))
        _ = try a2.sync(url: url, pushing: false)
        _ = try b2.sync(url: url, pushing: false)

        try saveNewRecords(a, today: today)
        try saveNewRecords(b, today: today)
        _ = try timed("SQLite: merge 1,000 new records from another register") { try b2.merge(from: a) }
        _ = try timed("SQLite: merge 1,000 new records, the other way") { try a2.merge(from: b) }
        _ = try timed("sync: push 1,000 new records") { try a.sync(url: url) }
        _ = try timed("sync: pull 1,000 and push 1,000") { try b.sync(url: url) }
        _ = try timed("sync: pull 1,000 new records") { try a.sync(url: url) }
        _ = try timed("sync with nothing new") { try a.sync(url: url) }

        let environment = ["XDG_CACHE_HOME": root + "/cache", "RIGBOOK_TODAY": today.iso, "HOME": root]
        try timed("`due` on a replica (SQLite)") {
            try runQuietly(rigbook, ["--home", root + "/a", "due"], environment)
        }
        try timed("`due --server`, first read (fills the cached replica)") {
            try runQuietly(rigbook, ["--server", url, "due"], environment)
        }
        try timed("`due --server`, cached replica") { try runQuietly(rigbook, ["--server", url, "due"], environment) }

        print("| work (\(assets) assets, PostgreSQL and SQLite in one run) | time |")
        print("|---|---|")
        for (work, time) in rows { print("| \(work) | \(time) |") }
    }

    /// 1,000 passed periodic examinations, one per asset, saved in batches through the gate.
    static func saveNewRecords(_ register: Register, today: CalendarDate) throws {
        let values = InspectionValues(inspectionType: .thoroughPeriodic, inspectorName: "Bench Inspector",
                                      certificationNumber: "LEEA-1", checkMarking: true, checkCuts: true,
                                      checkDeformation: true, checkFittings: true, checkCorrosion: true,
                                      result: .pass, inspectionDate: today.iso, confirmed: true)
        let particulars = try register.particulars()
        let rows = try register.rows().filter { !$0.asset.isElectrical }.prefix(newRecords)
        guard rows.count == newRecords else {
            throw BenchFailure("the register has fewer than \(newRecords) assets to examine: --sync-assets more")
        }
        for chunk in stride(from: 0, to: rows.count, by: 250) {
            let visit = UUID()
            let members = rows.dropFirst(chunk).prefix(250).map { row in
                BatchMember(tag: row.asset.tag, context: SaveGate.Context(
                    asset: row.asset, today: today,
                    sessionID: BatchIdentity.sessionID(visit: visit, assetUUID: row.asset.uuid),
                    particulars: particulars.report(assetUUID: row.asset.uuid, examinerName: values.inspectorName)))
            }
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
