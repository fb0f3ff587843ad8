import Foundation
import RigbookApp
import RigbookCore
import RigbookStore
import RigbookUI

// rigbook-bench: speed and memory of the real code paths; `Usage.text` (`rigbook-bench --help`) lists its options.

/// Everything the bench does; any failure (a full disk, a register that cannot be made) ends it with one
/// line on stderr rather than a crash.
func runBench() throws {
    let arguments = CommandLine.arguments
    if Usage.asked(arguments) {
        print(Usage.text)
        exit(0)
    }
    if let index = arguments.firstIndex(of: "--peak-of") {
        // First, before any other option is looked for: what follows is another program's command line.
        try SyncBench.peakOf(Array(arguments[(index + 1)...]))
    }
    if let home = value(after: "--memory-probe") {
        try MemoryProbe.run(home: home)
        exit(0)
    }
    if let index = arguments.firstIndex(of: "--measure-child") {
        // One bulk command spawned and measured by a fresh process (`BulkBench`): for `--bulk-only` and `--sizes`.
        BulkBench.measureChild(Array(arguments[(index + 1)...]))
        exit(0)
    }
    if let root = value(after: "--first-frame") {
        // One first frame on an existing home: for profilers.
        let home = DataHome(root: root)
        let start = now()
        try Runtime.bench(home: home).start()
        print(format((now() - start) * 1000))
        if arguments.contains("--phases") {
            // The parts of a first frame, one after the other: a large register's counts and window of rows.
            let register = try Register.open(path: home.registerPath)
            var mark = now()
            func phase(_ name: String) { print("\(name): \(format((now() - mark) * 1000))"); mark = now() }
            _ = try register.assetCount()
            phase("assets counted")
            let counts = try register.statusCounts(on: benchToday)
            phase("statuses counted")
            _ = try register.listRows(on: benchToday, statuses: AssetStatus.active, counts: counts, from: nil,
                                      limit: 2 * (ListWindow.margin + 20))
            phase("window read")
            _ = try register.flaggedIntervalCount()
            phase("long intervals counted")
            _ = try register.longestTags()
            phase("longest tags read")
            _ = try register.particulars()
            phase("particulars read")
        }
        exit(0)
    }
    if let root = value(after: "--form-only") {
        // The form's keystroke on an existing home, typed into notes: for profilers.
        let runtime = try Runtime.bench(home: DataHome(root: root))
        let session = runtime.session
        runtime.start()
        func press(_ key: Key) { runtime.press(key) }
        runtime.selectFirstLiftingAsset()
        press(.char("i"))
        for _ in 0..<30 where session.state.form.map({ $0.focus != .notes }) ?? false { press(.tab) }
        var samples = Samples()
        let text = Array("Sleeve abraded near the eye, 王 checked with gauge. ")
        for index in 0..<20_000 {
            if index % 1_000 == 999 { for _ in 0..<1_000 { press(.backspace) } }
            samples.time { press(.char(text[index % text.count])) }
        }
        press(.escape)
        press(.char("d"))
        print("form keystroke: \(format(samples.median)) / \(format(samples.p99))")
        exit(0)
    }
    if let root = value(after: "--batch-save-only") {
        // The batch save alone on an existing home (300 records, one transaction, 11 rounds unless `--rounds N`):
        // for profilers.
        let register = try Register.open(path: DataHome(root: root).registerPath)
        // Any home: the day it is (or RIGBOOK_TODAY), so no asset was commissioned after the examination.
        let today = CalendarDate.today()
        // Lifting equipment: what a batch inspects (a sample's electrical items are tested one by one).
        let rows = try register.rows().filter { !$0.asset.isElectrical }
        let values = InspectionValues.benchPass(on: today)
        let particulars = try register.particulars()
        var samples = Samples(), cpu = Samples(), written = Samples(), missed = Samples(), checkpoint = Samples()
        // `--rounds N` for a profiler: enough batches that the saves outweigh opening the register.
        for round in 0..<(value(after: "--rounds").flatMap { Int($0) } ?? 11) {
            let visit = UUID()
            let chosen = (0..<RegisterBench.batchSize).map { rows[(round * 7_919 + $0 * 331 + 17) % rows.count] }
            guard Set(chosen.map(\.asset.uuid)).count == chosen.count else { continue }
            let members = BatchMember.bench(chosen, visit: visit, values: values, particulars: particulars,
                                            today: today)
            _ = register.pageCounters(reset: true)
            try cpu.timeCPU {
                try samples.time {
                    let records = try BatchGate.validate(values, members: members).get()
                    try register.insert(batch: records, visit: visit, saved: SaveStamp())
                }
            }
            let pages = register.pageCounters()
            written.values.append(Double(pages.written))
            missed.values.append(Double(pages.missed))
            // What the program does at its next idle tick, timed on its own.
            checkpoint.time { register.checkpointIfDeferred() }
        }
        print("batch save: \(format(samples.median)) / \(format(samples.p99))")
        print("its CPU (this thread, user and kernel): \(format(cpu.median)) / \(format(cpu.p99))")
        print("its checkpoint, at the next idle tick: \(format(checkpoint.median)) / \(format(checkpoint.p99))")
        print("pages a batch wrote: \(Int(written.median)), read from the file: \(Int(missed.median))")
        exit(0)
    }
    if let root = value(after: "--list-only") {
        // The list's keys on an existing home, as the whole bench presses them (↓, PgDn, End, Home): for profilers.
        let runtime = try Runtime.bench(home: DataHome(root: root))
        runtime.start()
        var samples = Samples(), cpu = Samples()
        for round in 0..<2_000 {
            let keys: [Key] = round % 10 == 0 ? [.down, .pageDown, .end, .home] : [.down, .pageDown]
            for key in keys {
                let start = now(), cpuStart = now(CLOCK_THREAD_CPUTIME_ID)
                runtime.press(key)
                samples.values.append((now() - start) * 1000)
                cpu.values.append((now(CLOCK_THREAD_CPUTIME_ID) - cpuStart) * 1000)
            }
        }
        // The CPU the keys took beside the clock: on a busy machine a p99 of one scheduler slice (about 4 ms) is
        // the neighbours', not the key's.
        print("list keystroke, CPU: \(format(cpu.median)) / \(format(cpu.p99))")
        print("list keystroke: \(format(samples.median)) / \(format(samples.p99))")
        // The filter, once its index is made beside the loop (a large register's) or on its first key (a small one).
        var index = Samples(), filter = Samples(), filterCPU = Samples()
        index.time { runtime.session.settleSearchIndex() }
        for round in 0..<40 {
            runtime.press(.char("/"))
            for character in RegisterBench.filterQueries[round % RegisterBench.filterQueries.count] {
                let start = now(), cpuStart = now(CLOCK_THREAD_CPUTIME_ID)
                runtime.press(.char(character))
                filter.values.append((now() - start) * 1000)
                filterCPU.values.append((now(CLOCK_THREAD_CPUTIME_ID) - cpuStart) * 1000)
            }
            runtime.press(.escape)
        }
        print("filter index, made beside the loop: \(format(index.median))")
        print("filter keystroke, CPU: \(format(filterCPU.median)) / \(format(filterCPU.p99))")
        print("filter keystroke: \(format(filter.median)) / \(format(filter.p99))")
        exit(0)
    }
    let kills = value(after: "--kills").flatMap { Int($0) } ?? 20
    if arguments.contains("--loss-only") {
        try LossBench.run(executable: siblingExecutable("rigbook"), today: benchToday, kills: kills)
        exit(0)
    }
    if let url = value(after: "--sync-only") {
        let assets = value(after: "--sync-assets").flatMap { Int($0) } ?? 1_000
        try SyncBench.run(url: url, assets: assets, rigbook: siblingExecutable("rigbook"))
        exit(0)
    }
    if arguments.contains("--terminal-only") {
        let keys = max(1, value(after: "--keys").flatMap { Int($0) } ?? 400)
        try TerminalBench.run(executable: siblingExecutable("rigbook"), today: benchToday, keys: keys,
                              samples: value(after: "--samples"))
        exit(0)
    }
    if let root = value(after: "--bulk-only") {
        // Judged on the day the environment says (RIGBOOK_TODAY, else today): the day the register was made for.
        let assets = try Register.openForReading(path: DataHome(root: root).registerPath).assetCount()
        BulkBench.printTable(try BulkBench.run(home: root, today: nil), assets: assets)
        exit(0)
    }
    if arguments.contains("--pdf-only") {
        try PDFBench.run(today: benchToday)
        exit(0)
    }
    if arguments.contains("--import-only") {
        progress("bench: importing 100,000 rows…")
        ImportBench.printTable(try ImportBench.run(rows: 100_000))
        progress("bench: importing 10,000 test results…")
        TestImportBench.printTable(rows: 10_000, try TestImportBench.run(rows: 10_000))
        exit(0)
    }
    if let root = value(after: "--filter-only") {
        // The filter's own work on an existing home, keystroke by keystroke: for profilers.
        let register = try Register.open(path: DataHome(root: root).registerPath)
        var list = ListState(today: benchToday)
        list.load(try register.rows(), today: benchToday, particulars: try register.particulars())
        var samples = Samples()
        // `--each`: every keystroke's time and match count, to see which keys are the slow ones.
        let each = arguments.contains("--each")
        for round in 0..<40 {
            var typed = ""
            for character in RegisterBench.filterQueries[round % RegisterBench.filterQueries.count] {
                typed.append(character)
                samples.time { list.setQuery(typed) }
                if each { print("\(typed)\t\(format(samples.values.last ?? 0))\t\(list.visibleCount)") }
            }
            list.setQuery("")
        }
        print("filter work: \(format(samples.median)) / \(format(samples.p99))")
        exit(0)
    }
    let sizes = value(after: "--sizes").map { $0.split(separator: ",").compactMap { Int($0) } }
        ?? [1_000, 10_000, 100_000]
    let today = benchToday

    print("# rigbook-bench")
    print("")
    let machine = ProcessInfo.processInfo
    let memoryGiB = Int(Double(machine.physicalMemory) / 1_073_741_824)
    print("Machine: \(machine.activeProcessorCount) cores, \(memoryGiB) GiB, \(machine.operatingSystemVersionString)")
    print("Build: \(isDebugBuild() ? "DEBUG (figures meaningless; use -c release)" : "release")")
    print("")

    var results: [RegisterBench.Result] = []
    for size in sizes {
        progress("bench: \(size) assets…")
        results.append(try RegisterBench(size: size, today: today, keptHomes: value(after: "--homes")).run())
    }
    RegisterBench.printTable(results)
    progress("bench: importing 100,000 rows…")
    ImportBench.printTable(try ImportBench.run(rows: 100_000))
    progress("bench: importing 10,000 test results…")
    TestImportBench.printTable(rows: 10_000, try TestImportBench.run(rows: 10_000))
    progress("bench: certificates as PDF…")
    try PDFBench.run(today: today)

    if !arguments.contains("--skip-terminal") {
        progress("bench: key to screen in tmux…")
        try TerminalBench.run(executable: siblingExecutable("rigbook"), today: today)
        progress("bench: a 1 MB paste…")
        try PasteBench.run(executable: siblingExecutable("rigbook"), today: today)
    }
    if arguments.contains("--paste-only") {
        try PasteBench.run(executable: siblingExecutable("rigbook"), today: today)
    }
    if arguments.contains("--loss") {
        progress("bench: loss window under kill -9…")
        try LossBench.run(executable: siblingExecutable("rigbook"), today: today, kills: kills)
    }
}

do {
    try runBench()
} catch {
    progress("rigbook-bench: \(error)")
    exit(1)
}

/// A line on stderr that says what the bench is doing; an error writing it is ignored.
func progress(_ line: String) { try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8)) }

func isDebugBuild() -> Bool {
    #if DEBUG
    return true
    #else
    return false
    #endif
}

/// The word after `option` on the command line, when both are there.
func value(after option: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// The `rigbook` binary built next to this one.
func siblingExecutable(_ name: String) -> String {
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return me.deletingLastPathComponent().appendingPathComponent(name).path
}
