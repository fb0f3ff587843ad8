import Foundation

/// Monotonic seconds.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Samples of one figure, in milliseconds.
struct Samples {
    var values: [Double] = []

    mutating func time(_ body: () throws -> Void) rethrows {
        let start = now()
        try body()
        values.append((now() - start) * 1000)
    }

    /// Times `body` by the CPU this thread spent (user and kernel, its page reads and writes included), not
    /// by the clock: on a shared machine the wall time mostly measures the neighbours.
    mutating func timeCPU(_ body: () throws -> Void) rethrows {
        let start = threadCPUSeconds()
        try body()
        values.append((threadCPUSeconds() - start) * 1000)
    }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded(.up))
        return sorted[min(sorted.count - 1, rank)]
    }

    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }
}

func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
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
