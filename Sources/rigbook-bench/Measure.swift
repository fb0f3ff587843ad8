import Foundation

/// Seconds on `clock`: by default monotonic time; `CLOCK_THREAD_CPUTIME_ID`, this thread's CPU.
func now(_ clock: clockid_t = CLOCK_MONOTONIC) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Samples of one figure, in milliseconds.
struct Samples {
    var values: [Double] = []

    mutating func time(_ clock: clockid_t = CLOCK_MONOTONIC, _ body: () throws -> Void) rethrows {
        let start = now(clock)
        try body()
        values.append((now(clock) - start) * 1000)
    }

    /// Times `body` by the CPU this thread spent (user and kernel, its page reads and writes included), not
    /// by the clock: on a shared machine the wall time mostly measures the neighbours.
    mutating func timeCPU(_ body: () throws -> Void) rethrows { try time(CLOCK_THREAD_CPUTIME_ID, body) }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded(.up))
        return sorted[min(sorted.count - 1, rank)]
    }

    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }
}

func format(_ ms: Double) -> String {
    if ms.isNaN { return "—" }
    if ms >= 100 { return String(format: "%.0f ms", ms) }
    if ms >= 1 { return String(format: "%.2f ms", ms) }
    return String(format: "%.1f µs", ms * 1000)
}

/// Peak resident set size of this process (VmHWM), in MB.
func peakResidentMB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return .nan }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kb = line.split(separator: " ").compactMap { Double($0) }.first ?? .nan
        return kb / 1024
    }
    return .nan
}

func temporaryHome(_ label: String) -> String {
    let path = NSTemporaryDirectory() + "rigbook-bench-\(label)-\(getpid())-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// What `arguments` (run through `/usr/bin/env` unless `executable` is given) print on stdout; empty when they
/// cannot be run. `quiet`: their stderr goes nowhere.
func output(of arguments: [String], executable: String = "/usr/bin/env", quiet: Bool = false) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    if quiet { process.standardError = FileHandle.nullDevice }
    do { try process.run() } catch { return "" }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
