import Foundation
import RigbookStore
import Testing

/// Every test in this target runs the built binary and most share nothing, but tmux servers,
/// temp folders and the 60 s budget are easier to reason about one at a time.
@Suite(.serialized) struct RigbookCLITests {}

/// The fixed "today" every run uses, so statuses are reproducible.
let fixedToday = "2026-11-30"

// MARK: - Locating the binary

enum Binary {
    /// The `rigbook` executable built next to the test bundle, or why it could not be found.
    static let located: Result<String, LocateError> = locate()

    struct LocateError: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "cannot find the built `rigbook` executable next to the test bundle; looked in:\n  "
                + searched.joined(separator: "\n  ")
                + "\nBuild it first (`swift build --build-tests`)."
        }
    }

    private static func locate() -> Result<String, LocateError> {
        var folders: [URL] = []
        // The folder holding the test bundle (`.build/debug` or `.build/<triple>/debug`) comes first.
        let bundle = Bundle.main.bundleURL
        folders.append(bundle)
        folders.append(bundle.deletingLastPathComponent())
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        for other in Bundle.allBundles where other.bundleURL.pathExtension == "xctest" {
            folders.append(other.bundleURL.deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).standardizedFileURL.deletingLastPathComponent())
        }
        // Last resort: the package's own build folder, relative to this source file.
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folders.append(packageRoot.appendingPathComponent(".build/debug"))

        var searched: [String] = []
        for folder in folders {
            let candidate = folder.appendingPathComponent("rigbook").path
            if searched.contains(candidate) { continue }
            searched.append(candidate)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return .success(candidate)
            }
        }
        return .failure(LocateError(searched: searched))
    }

    /// The path, or a thrown error that fails the test with the list of folders searched.
    static func path() throws -> String { try located.get() }
}

// MARK: - Temporary folders

/// A private temporary folder for one test, removed by `remove()` (call it in a `defer`).
final class TempDir {
    let path: String

    init(_ label: String = "rigbook-cli") {
        let base = NSTemporaryDirectory().isEmpty ? "/tmp" : NSTemporaryDirectory()
        path = (base as NSString).appendingPathComponent("\(label)-\(UUID().uuidString.lowercased())")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the folder (not created).
    func sub(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

// MARK: - Running the binary

struct RunResult: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String
    /// True when the process died of a signal (status is then 128 + the signal number).
    let signalled: Bool

    var description: String {
        "status \(status)\(signalled ? " (signal)" : "")"
            + "\n--- stdout ---\n\(stdout.prefix(2000))\n--- stderr ---\n\(stderr.prefix(2000))"
    }

    /// stderr is exactly one non-empty line.
    var stderrIsOneLine: Bool {
        let trimmed = stderr.hasSuffix("\n") ? String(stderr.dropLast()) : stderr
        return !trimmed.isEmpty && !trimmed.contains("\n") && stderr.hasSuffix("\n")
    }
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// The environment every run starts from: the test process's own, minus anything that could point
/// rigbook at a real data home or change its behaviour.
func baseEnvironment(userHome: String) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for key in ["RIGBOOK_HOME", "RIGBOOK_TODAY", "XDG_DATA_HOME", "NO_COLOR", "TMUX", "TMUX_PANE"] {
        environment.removeValue(forKey: key)
    }
    environment["HOME"] = userHome
    environment["RIGBOOK_TODAY"] = fixedToday
    return environment
}

/// Runs an executable with stdin, stdout and stderr all pipes (stdin closed at once), and a
/// watchdog that kills it after `timeout` seconds.
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String],
                timeout: TimeInterval = 30) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
    func finish(_ out: Data, _ err: Data) -> RunResult {
        let signalled = process.terminationReason == .uncaughtSignal
        return RunResult(status: signalled ? 128 + process.terminationStatus : process.terminationStatus,
                         stdout: String(decoding: out, as: UTF8.self),
                         stderr: String(decoding: err, as: UTF8.self),
                         signalled: signalled)
    }

    let input = Pipe(), output = Pipe(), errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    try? input.fileHandleForWriting.close()
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    let errorBox = DataBox()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
        errorBox.data = errors.fileHandleForReading.readDataToEndOfFile()
    }
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    watchdog.cancel()
    return finish(outData, errorBox.data)
}

/// Runs an executable with posix_spawn and waitpid, stdin /dev/null, stdout and stderr to temporary
/// files, every other descriptor closed and signals at their defaults.
///
/// Used for tmux: Foundation's `Process` learns that a child exited when a socket inherited by the
/// child closes, but `tmux new-session` forks a server daemon that keeps every inherited descriptor,
/// so `waitUntilExit()` would never return (and pipes would never reach end-of-file).
/// `standardOutput`, when given, is the child's stdout instead of a temporary file.
func spawnAndWait(_ executable: String, _ arguments: [String], environment: [String: String],
                  timeout: TimeInterval = 10, standardOutput: Int32? = nil) throws -> RunResult {
    let temporary = NSTemporaryDirectory().isEmpty ? "/tmp" : NSTemporaryDirectory()
    let base = temporary + "/rigbook-spawn-\(UUID().uuidString)"
    let outPath = base + ".out", errPath = base + ".err"
    defer { unlink(outPath); unlink(errPath) }
    let pid = try spawn(executable, arguments, environment: environment, standardOutput: standardOutput,
                        outPath: outPath, errPath: errPath)
    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        let done = waitpid(pid, &status, WNOHANG)
        if done == pid { break }
        if done < 0 && errno != EINTR { break }
        if Date() >= deadline {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            break
        }
        usleep(2_000) // poll interval; the deadline above bounds the wait
    }
    let (exitStatus, signalled) = waitStatus(status)
    return RunResult(status: exitStatus,
                     stdout: readFile(outPath) ?? "",
                     stderr: readFile(errPath) ?? "",
                     signalled: signalled)
}

/// WIFEXITED / WEXITSTATUS / WTERMSIG by hand (Swift does not import the macros): the exit status, 128 + the
/// signal's number for a process a signal ended.
func waitStatus(_ status: Int32) -> (status: Int32, signalled: Bool) {
    let signalNumber = status & 0x7f
    let signalled = signalNumber != 0 && signalNumber != 0x7f
    return (signalled ? 128 + signalNumber : (status >> 8) & 0xff, signalled)
}

/// Starts an executable as `spawnAndWait` does (stdin /dev/null, every other descriptor closed, no signal blocked
/// or ignored, whatever the test runner blocks) and returns its pid without waiting.
func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
           standardOutput: Int32? = nil, outPath: String = "/dev/null", errPath: String = "/dev/null") throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let standardOutput {
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // No closefrom action in Swift's Glibc: close every other descriptor open right now.
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for fd in open.compactMap(Int32.init) where fd > 2 {
        posix_spawn_file_actions_addclose(&actions, fd)
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var emptyMask = sigset_t(), allSignals = sigset_t()
    sigemptyset(&emptyMask)
    sigfillset(&allSignals)
    sigdelset(&allSignals, SIGKILL)
    sigdelset(&allSignals, SIGSTOP)
    posix_spawnattr_setsigmask(&attributes, &emptyMask)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }

    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
        let reason = "posix_spawn \(executable): \(String(cString: strerror(spawned)))"
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: reason])
    }
    return pid
}

/// Runs `rigbook` with RIGBOOK_TODAY fixed, `--home home` first (unless `homeOption` is false),
/// HOME pointed at a sandbox next to `home`, and `env` laid over the environment.
func runRigbook(_ args: [String], home: String, env: [String: String] = [:],
                homeOption: Bool = true) -> (status: Int32, stdout: String, stderr: String) {
    let result = runRigbookResult(args, home: home, env: env, homeOption: homeOption)
    return (result.status, result.stdout, result.stderr)
}

/// Same as `runRigbook`, returning the full result (printable in failure messages).
func runRigbookResult(_ args: [String], home: String, env: [String: String] = [:],
                      homeOption: Bool = true) -> RunResult {
    let binary: String
    do { binary = try Binary.path() } catch {
        Issue.record("\(error)")
        return RunResult(status: -1, stdout: "", stderr: "\(error)", signalled: false)
    }
    let userHome = ((home as NSString).deletingLastPathComponent as NSString).appendingPathComponent("user-home")
    var environment = baseEnvironment(userHome: userHome)
    for (key, value) in env { environment[key] = value }
    do {
        return try runProcess(binary, (homeOption ? ["--home", home] : []) + args, environment: environment)
    } catch {
        Issue.record("could not run \(binary): \(error)")
        return RunResult(status: -1, stdout: "", stderr: "\(error)", signalled: false)
    }
}

/// Makes an empty register (no assets) in `home`, as the full-screen register does on a new home: the
/// reading commands refuse a missing register, so "empty" must be made on purpose.
func makeEmptyRegister(home: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do { _ = try Register.open(path: DataHome(root: home).registerPath) }
    catch { Issue.record("could not make an empty register in \(home): \(error)", sourceLocation: sourceLocation) }
}

// MARK: - Output helpers

/// Parses `asset list --format json` output into an array of objects.
func parseAssetJSON(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
    guard let data = text.data(using: .utf8),
          let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
        Issue.record("not JSON: \(text.prefix(500))", sourceLocation: sourceLocation)
        return []
    }
    guard let array = value as? [Any] else {
        Issue.record("JSON is not an array: \(text.prefix(500))", sourceLocation: sourceLocation)
        return []
    }
    return array.enumerated().compactMap { index, element in
        guard let object = element as? [String: Any] else {
            Issue.record("JSON element \(index) is not an object", sourceLocation: sourceLocation)
            return nil
        }
        return object
    }
}

/// Lists the register's assets as JSON objects (fails the test if the command fails).
func listAssets(home: String, env: [String: String] = [:], homeOption: Bool = true,
                sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
    let result = runRigbookResult(["asset", "list", "--format", "json"], home: home, env: env, homeOption: homeOption)
    guard result.status == 0 else {
        Issue.record("asset list failed: \(result)", sourceLocation: sourceLocation)
        return []
    }
    return parseAssetJSON(result.stdout, sourceLocation: sourceLocation)
}

/// A string value of a JSON object, nil for null or absent.
func string(_ object: [String: Any], _ key: String) -> String? { object[key] as? String }

func isNull(_ value: Any?) -> Bool { value is NSNull }

/// A date as JSON shows it: `YYYY-MM-DD` or null.
func isDateOrNull(_ value: Any?) -> Bool {
    if value is NSNull { return true }
    guard let text = value as? String else { return false }
    return text.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil
}

let statusValues: Set<String> = ["do_not_use", "overdue", "remedy_by", "quarantined", "due_soon", "untested", "ok",
                                 "withdrawn"]

/// The columns `asset list` documents for json and csv (the help text, SPEC §8).
let documentedColumns = ["tag", "name", "type", "wll_kg", "length_m", "location", "manufacturer", "serial_number",
                         "manufactured", "commissioned", "interval_months", "lifts_persons",
                         "last_thorough_examination", "latest_result", "next_due", "remedy_deadline", "status", "uuid",
                         "examination_scheme", "kind", "equipment_class", "environment", "risk", "interval_reason",
                         "client_ref"]

// MARK: - Polling

/// Polls `condition` every 50 ms until it holds or `timeout` passes. Returns whether it held.
@discardableResult
func poll(timeout: TimeInterval = 10, every interval: useconds_t = 50_000, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if condition() { return true }
        if Date() >= deadline { return false }
        usleep(interval) // poll interval; the deadline above bounds the wait
    }
}

func readFile(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return String(decoding: data, as: UTF8.self)
}

/// The pid a wrapper shell writes to `file` just before `exec`, once it is there (nil after 10 s).
func awaitPID(in file: String) -> pid_t? {
    var pid: pid_t?
    poll {
        pid = readFile(file).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return pid != nil
    }
    return pid
}

func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

/// Whether `pid` is a running process: gone or a zombie (exited, not yet reaped) count as not alive.
/// (A daemon's zombie may never be reaped when PID 1 does not reap, so `kill(pid, 0)` is not enough.)
func processIsAlive(_ pid: pid_t) -> Bool {
    guard let stat = readFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state != nil && state != "Z" && state != "X"
}

/// Terminal columns a string takes: East Asian wide characters 2, combining marks 0, others 1.
func displayWidth(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { width, scalar in
        let v = scalar.value
        let category = scalar.properties.generalCategory
        if category == .nonspacingMark || category == .enclosingMark { return width }
        let wide = (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v) || (0x20000...0x3FFFD).contains(v)
        return width + (wide ? 2 : 1)
    }
}
