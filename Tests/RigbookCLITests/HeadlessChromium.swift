import Foundation
import Testing

// Headless Chromium for the tests that print (certificates, labels): one browser at a time, since the whole
// CLI test target is serialized.

/// A program on PATH, the first of `names` found.
func program(_ names: [String]) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for name in names {
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
    }
    return nil
}

/// Why a page could not be printed; thrown, it fails the test with this sentence.
struct PrintFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs headless Chromium with `arguments` (after the common ones) in its own process group, with a private
/// profile, home and cache in `scratch`. Polls rather than sleeps: done when Chromium exits, or, should it
/// linger after writing, once `output` has stopped growing and `isComplete` accepts it. Generous deadlines for a
/// busy 2-core machine. Returns Chromium's log, for failure messages.
func runChromium(_ chromium: String, _ extra: [String], output pdf: String, scratch: TempDir,
                 isComplete: ([String: String]) -> Bool) throws -> String {
    let log = scratch.sub("chromium.log")
    let arguments = ["--headless", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                     "--no-default-browser-check", "--disable-extensions", "--user-data-dir=\(scratch.sub("profile"))",
                     ] + extra
    var environment = ProcessInfo.processInfo.environment
    for (key, folder) in [("HOME", "home"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"),
                          ("TMPDIR", "tmp")] {
        environment[key] = scratch.sub(folder)
        try FileManager.default.createDirectory(atPath: scratch.sub(folder), withIntermediateDirectories: true)
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    for fd in ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap(Int32.init)
        where fd > 2 {
        posix_spawn_file_actions_addclose(&actions, fd)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A group of its own, so its helper processes (zygote, renderer) go with it if it must be stopped.
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    let argv: [UnsafeMutablePointer<CChar>?] = ([chromium] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, chromium, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
        throw PrintFailure("cannot start \(chromium): \(String(cString: strerror(spawned)))")
    }

    var status: Int32 = 0
    var exited = false
    let deadline = Date().addingTimeInterval(240)
    var printedAt: Date?
    var lastSize = -1
    while Date() < deadline {
        let done = waitpid(pid, &status, WNOHANG)
        if done == pid || (done < 0 && errno != EINTR) { exited = true; break }
        let size = (try? FileManager.default.attributesOfItem(atPath: pdf)[.size] as? Int) ?? -1
        if printedAt == nil, size > 0, size == lastSize, isComplete(environment) {
            printedAt = Date()
        }
        lastSize = size
        // Printed, and still running well after: stop waiting for it to leave by itself.
        if let printedAt, Date().timeIntervalSince(printedAt) > 20 { break }
        usleep(200_000) // poll interval; the deadline above bounds the wait
    }
    // Its group: Chromium itself if it lingers, and any helper it left behind.
    kill(-pid, SIGKILL)
    if !exited { _ = waitpid(pid, &status, 0) }
    return readFile(log) ?? ""
}

