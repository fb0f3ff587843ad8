import Foundation
import RigbookApp
import RigbookCore
import RigbookStore
import RigbookUI

// rigbook-bench: speed and memory of the real code paths (no curses: the in-memory screen), at
// 1,000, 10,000 and 100,000 assets. `swift run -c release rigbook-bench [--sizes 1000,10000]
// [--skip-terminal] [--loss] [--import-only]`; for one figure alone `--terminal-only [--keys N] [--samples CSV]`, `--loss-only [--kills N]`,
// `--sync-only URL [--sync-assets N]` (URL: an empty PostgreSQL database), and on a kept home (for profilers)
// `--form-only HOME`, `--list-only HOME`, `--filter-only HOME`; `--homes DIR` keeps the registers in DIR/h<size>.
// Figures go to stdout as Markdown tables for docs/PERFORMANCE.md.

/// Everything the bench does; any failure (a full disk, a register that cannot be made) ends it with one
/// line on stderr rather than a crash.
func runBench() throws {
    let arguments = CommandLine.arguments
    if let index = arguments.firstIndex(of: "--memory-probe"), index + 1 < arguments.count {
        try MemoryProbe.run(home: arguments[index + 1])
        exit(0)
    }
    if let index = arguments.firstIndex(of: "--first-frame"), index + 1 < arguments.count {
        // One first frame on an existing home: for profilers.
        let home = DataHome(root: arguments[index + 1])
        let start = now()
        Runtime(session: Session(home: home, register: try Register.open(path: home.registerPath),
                                 today: CalendarDate(iso: "2026-11-30")!),
                terminal: InMemoryTerminal()).start()
        print(format((now() - start) * 1000))
        if arguments.contains("--phases") {
            // The parts of a first frame, one after the other: the rows read, then filed into the list.
            let register = try Register.open(path: home.registerPath)
            var mark = now()
            func phase(_ name: String) { print("\(name): \(format((now() - mark) * 1000))"); mark = now() }
            let rows = try register.rows()
            phase("rows read")
            let particulars = try register.particulars()
            phase("particulars read")
            var list = ListState(today: CalendarDate(iso: "2026-11-30")!)
            list.load(rows, today: list.today, particulars: particulars)
            phase("list filed")
        }
        exit(0)
    }
    if let index = arguments.firstIndex(of: "--form-only"), index + 1 < arguments.count {
        // The form's keystroke on an existing home, typed into notes: for profilers.
        let home = DataHome(root: arguments[index + 1])
        let runtime = Runtime(session: Session(home: home, register: try Register.open(path: home.registerPath),
                                               today: CalendarDate(iso: "2026-11-30")!),
                              terminal: InMemoryTerminal())
        let session = runtime.session
        runtime.start()
        func press(_ key: Key) { runtime.press(key) }
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
    if let index = arguments.firstIndex(of: "--batch-save-only"), index + 1 < arguments.count {
        // The batch save alone on an existing home (300 records, one transaction, 11 rounds unless `--rounds N`):
        // for profilers.
        let home = DataHome(root: arguments[index + 1])
        let register = try Register.open(path: home.registerPath)
        // Any home: the day it is (or RIGBOOK_TODAY), so no asset was commissioned after the examination.
        let today = CalendarDate.today()
        let rows = try register.rows()
        let values = InspectionValues(inspectionType: .thoroughPeriodic, inspectorName: "Bench Inspector",
                                      certificationNumber: "LEEA-1", checkMarking: true, checkCuts: true,
                                      checkDeformation: true, checkFittings: true, checkCorrosion: true,
                                      result: .pass, inspectionDate: today.iso, confirmed: true)
        let particulars = try register.particulars()
        var samples = Samples(), cpu = Samples(), written = Samples(), missed = Samples(), checkpoint = Samples()
        // `--rounds N` for a profiler: enough batches that the saves outweigh opening the register.
        let rounds = arguments.firstIndex(of: "--rounds")
            .flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? 11
        for round in 0..<rounds {
            let visit = UUID()
            let chosen = (0..<RegisterBench.batchSize).map { rows[(round * 7_919 + $0 * 331 + 17) % rows.count] }
            guard Set(chosen.map(\.asset.uuid)).count == chosen.count else { continue }
            let members = chosen.map { row in
                BatchMember(tag: row.asset.tag, context: SaveGate.Context(
                    asset: row.asset, today: today,
                    sessionID: BatchIdentity.sessionID(visit: visit, assetUUID: row.asset.uuid),
                    particulars: particulars.report(assetUUID: row.asset.uuid, examinerName: values.inspectorName)))
            }
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
    if let index = arguments.firstIndex(of: "--list-only"), index + 1 < arguments.count {
        // The list's ↓ on an existing home: for profilers.
        let home = DataHome(root: arguments[index + 1])
        let runtime = Runtime(session: Session(home: home, register: try Register.open(path: home.registerPath),
                                               today: CalendarDate(iso: "2026-11-30")!),
                              terminal: InMemoryTerminal())
        runtime.start()
        var samples = Samples()
        for index in 0..<20_000 {
            samples.time { runtime.press(index % 500 == 499 ? .home : .down) }
        }
        print("list keystroke: \(format(samples.median)) / \(format(samples.p99))")
        exit(0)
    }
    if arguments.contains("--loss-only") {
        var kills = 20
        if let index = arguments.firstIndex(of: "--kills"), index + 1 < arguments.count {
            kills = Int(arguments[index + 1]) ?? 20
        }
        try LossBench.run(executable: siblingExecutable("rigbook"), today: CalendarDate(iso: "2026-11-30")!,
                          kills: kills)
        exit(0)
    }
    if let index = arguments.firstIndex(of: "--sync-only"), index + 1 < arguments.count {
        var assets = 1_000
        if let count = arguments.firstIndex(of: "--sync-assets"), count + 1 < arguments.count {
            assets = Int(arguments[count + 1]) ?? assets
        }
        try SyncBench.run(url: arguments[index + 1], assets: assets, rigbook: siblingExecutable("rigbook"))
        exit(0)
    }
    if arguments.contains("--terminal-only") {
        var keys = 400
        if let index = arguments.firstIndex(of: "--keys"), index + 1 < arguments.count {
            keys = max(1, Int(arguments[index + 1]) ?? keys)
        }
        let samples = arguments.firstIndex(of: "--samples").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        try TerminalBench.run(executable: siblingExecutable("rigbook"), today: CalendarDate(iso: "2026-11-30")!,
                              keys: keys, samples: samples)
        exit(0)
    }
    if arguments.contains("--import-only") {
        progress("bench: importing 100,000 rows…")
        ImportBench.printTable(try ImportBench.run(rows: 100_000))
        exit(0)
    }
    if let index = arguments.firstIndex(of: "--filter-only"), index + 1 < arguments.count {
        // The filter's own work on an existing home, keystroke by keystroke: for profilers.
        let home = DataHome(root: arguments[index + 1])
        let register = try Register.open(path: home.registerPath)
        let today = CalendarDate(iso: "2026-11-30")!
        var list = ListState(today: today)
        list.load(try register.rows(), today: today, particulars: try register.particulars())
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
    var sizes = [1_000, 10_000, 100_000]
    if let index = arguments.firstIndex(of: "--sizes"), index + 1 < arguments.count {
        sizes = arguments[index + 1].split(separator: ",").compactMap { Int($0) }
    }
    let today = CalendarDate(iso: "2026-11-30")!

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
        var bench = RegisterBench(size: size, today: today)
        if let index = arguments.firstIndex(of: "--homes"), index + 1 < arguments.count {
            bench.keptHomes = arguments[index + 1]
        }
        results.append(try bench.run())
    }
    RegisterBench.printTable(results)
    progress("bench: importing 100,000 rows…")
    ImportBench.printTable(try ImportBench.run(rows: 100_000))

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
        var kills = 20
        if let index = arguments.firstIndex(of: "--kills"), index + 1 < arguments.count {
            kills = Int(arguments[index + 1]) ?? 20
        }
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
func progress(_ line: String) {
    try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
}

func isDebugBuild() -> Bool {
    #if DEBUG
    return true
    #else
    return false
    #endif
}

/// The `rigbook` binary built next to this one.
func siblingExecutable(_ name: String) -> String {
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return me.deletingLastPathComponent().appendingPathComponent(name).path
}
