import Foundation

/// A tmux server on a private socket with one 80×24 session, driven through a control-mode client
/// (`tmux -C`): keys go in as commands, and the pane's output comes back as `%output` lines, so the
/// time from a key to the first byte the program draws is measured without spawning a process per key.
final class TmuxDriver {
    let socket: String
    private var client: Process?
    private var input: FileHandle?
    private var outputFD: Int32 = -1
    private var pending = Data()

    init(command: String, environment: [String: String] = [:]) throws {
        socket = "rigbook-bench-\(getpid())-\(UUID().uuidString.prefix(6))"
        let exports = environment.map { "\($0.key)=\(shellQuote($0.value))" }.joined(separator: " ")
        try TmuxDriver.tmux(["-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "bench",
                             "-x", "80", "-y", "24", "env \(exports) \(command)"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "-L", socket, "-C", "attach", "-t", "bench"]
        let inPipe = Pipe(), outPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        client = process
        input = inPipe.fileHandleForWriting
        outputFD = outPipe.fileHandleForReading.fileDescriptor
    }

    /// Runs a tmux command through the shell. Not `Process`: `new-session` forks a server that keeps
    /// the descriptors Foundation watches to notice the child's exit, and `waitUntilExit` never returns.
    static func tmux(_ arguments: [String]) throws {
        let command = (["tmux"] + arguments).map(shellQuote).joined(separator: " ") + " </dev/null >/dev/null 2>&1"
        _ = system(command)
    }

    /// `tmux -V` answers (with its version).
    static var isInstalled: Bool { !output(of: ["tmux", "-V"], quiet: true).isEmpty }

    func send(_ command: String) { try? input?.write(contentsOf: Data((command + "\n").utf8)) }

    /// Next line from the control client, or nil after `timeout` seconds.
    func readLine(timeout: Double) -> String? {
        let deadline = now() + timeout
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                return line
            }
            let left = deadline - now()
            if left <= 0 { return nil }
            var descriptor = pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(max(1, left * 1000))) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = read(outputFD, &buffer, buffer.count)
            if count <= 0 { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }

    /// Reads until no output for `quiet` seconds (or `limit` passes).
    func drain(quiet: Double = 0.03, limit: Double = 2) {
        let end = now() + limit
        while now() < end, readLine(timeout: quiet) != nil {}
    }

    /// Sends a key and returns the seconds until the pane's first output after it, and the bytes the
    /// program wrote to the terminal for it (every `%output` until the pane is quiet for 30 ms).
    func keyToScreen(_ key: String, timeout: Double = 2) -> (seconds: Double, bytes: Int)? {
        drain()
        let start = now()
        send("send-keys -t bench \(key)")
        var seconds: Double?
        while let line = readLine(timeout: timeout - (now() - start)) {
            if line.hasPrefix("%output") { seconds = now() - start; pendingBytes = TmuxDriver.outputBytes(line); break }
        }
        guard let seconds else { return nil }
        let quietEnd = now() + 2
        while now() < quietEnd, let line = readLine(timeout: 0.03) {
            if line.hasPrefix("%output") { pendingBytes += TmuxDriver.outputBytes(line) }
        }
        return (seconds, pendingBytes)
    }
    private var pendingBytes = 0

    /// The bytes a `%output %<pane> <data>` line stands for: control-mode escapes a byte below space and the
    /// backslash as `\ooo` (octal), one byte each.
    static func outputBytes(_ line: String) -> Int {
        let utf8 = Array(line.utf8)
        var index = 0, spaces = 0
        while index < utf8.count, spaces < 2 { if utf8[index] == 0x20 { spaces += 1 }; index += 1 }
        var count = 0
        while index < utf8.count {
            index += utf8[index] == 0x5C ? 4 : 1
            count += 1
        }
        return count
    }

    /// The pane's text (a separate tmux process: used for waiting, not for timing).
    func capture() -> String { output(of: ["tmux", "-L", socket, "capture-pane", "-p", "-t", "bench"], quiet: true) }

    /// Polls the pane until `predicate` holds or `timeout` passes.
    @discardableResult
    func waitFor(timeout: Double = 10, _ predicate: (String) -> Bool) -> Bool {
        let end = now() + timeout
        while now() < end {
            if predicate(capture()) { return true }
            drain(quiet: 0.02, limit: 0.05)
        }
        return false
    }

    func close() {
        input?.closeFile()
        client?.terminate()
        try? TmuxDriver.tmux(["-L", socket, "kill-server"])
    }

    deinit { close() }
}

func shellQuote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
