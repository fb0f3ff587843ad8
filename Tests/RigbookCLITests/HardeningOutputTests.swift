import Foundation
import Testing
import RigbookCore
import RigbookStore

// Output files and standard output (docs/DECISIONS.md): what `--out` may replace, the modes of the files it
// writes, write errors on standard output, and control characters on a terminal.

// MARK: - A register with one hostile name

/// A data home with two assets; SL-2's stored name holds an OSC "set the window title" sequence, as a
/// damaged or foreign-written register could (`asset add` refuses control characters).
private struct Home {
    let dir = TempDir("rigbook-hardening")
    var path: String { dir.sub("home") }
    func sub(_ name: String) -> String { dir.sub(name) }
    func remove() { dir.remove() }

    static let hostileName = "Sling\u{1B}]2;PWNED\u{7}end"
    static let hostileShown = "Sling^[]2;PWNED^Gend"

    init(sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (tag, name) in [("SL-1", "Plain sling"), ("SL-2", "placeholder")] {
            let added = runRigbookResult(["asset", "add", "--tag", tag, "--name", name, "--type", "web-sling",
                                          "--wll", "1000", "--commissioned", "2026-06-01"], home: path)
            #expect(added.status == 0, "\(added)", sourceLocation: sourceLocation)
        }
        try Database(path: DataHome(root: path).registerPath)
            .run("UPDATE assets SET name = ? WHERE tag = ?", [.text(Home.hostileName), .text("SL-2")])
    }

    func run(_ args: [String], env: [String: String] = [:]) -> RunResult {
        runRigbookResult(args, home: path, env: env)
    }

    /// `sh -c script` with `$RIGBOOK` the binary and `$HOME_DIR` this data home, from `cwd`.
    func shell(_ script: String, cwd: String? = nil) throws -> RunResult {
        var environment = baseEnvironment(userHome: sub("user-home"))
        environment["RIGBOOK"] = try Binary.path()
        environment["HOME_DIR"] = path
        let folder = cwd ?? dir.path
        return try runProcess("/bin/sh", ["-c", "cd \(quoted(folder)) && \(script)"], environment: environment)
    }

    /// `rigbook --home HOME args` (`args` as shell words) under `umask`.
    func run(umask: mode_t, _ args: String) throws -> RunResult {
        try shell("umask \(String(umask, radix: 8)); exec \"$RIGBOOK\" --home \"$HOME_DIR\" \(args)")
    }

    /// Before a test aims rigbook at a shared system file (/dev/stdout, /dev/tty): this build must leave a
    /// symbolic link and a device node in the test folder as they were. An unfixed build run as root
    /// replaced /dev/stdout and /dev/tty for everyone on the machine.
    func requireSafeForSystemFiles() throws {
        let link = sub("probe-link"), node = sub("probe-null")
        try #require(symlink(sub("probe-target"), link) == 0)
        _ = run(["calendar", "--out", link])
        try #require(fileType(link) == S_IFLNK, "this rigbook replaces symbolic links; not aiming it at /dev")
        if mknod(node, S_IFCHR | 0o666, 1 << 8 | 3) == 0 {
            _ = run(["calendar", "--out", node])
            try #require(fileType(node) == S_IFCHR, "this rigbook replaces device nodes; not aiming it at /dev")
        }
    }

    /// `rigbook --home HOME args` on a terminal: `script` gives it a pty, stdout and stderr both.
    /// Returns what the program wrote to the terminal, byte for byte (the pty turns `\n` into `\r\n`).
    func onTerminal(_ args: [String], home: String? = nil) throws -> RunResult {
        guard let script = ["/usr/bin/script", "/bin/script"].first(where: FileManager.default.isExecutableFile)
        else { throw TmuxError("`script` (util-linux) is missing: the terminal tests need it") }
        let command = ([try Binary.path(), "--home", home ?? path] + args).map(quoted).joined(separator: " ")
        var environment = baseEnvironment(userHome: sub("user-home"))
        environment["TERM"] = "xterm-256color"
        return try runProcess(script, ["-q", "-e", "-c", command, "/dev/null"], environment: environment)
    }
}

private func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

// MARK: - Files

private func fileType(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
}

private func mode(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

private func octal(_ value: mode_t?) -> String { value.map { String($0, radix: 8) } ?? "none" }

/// A character device node in a test folder (`mknod`, as root), else the system's own: an unfixed
/// rigbook would replace the node it is given, and a shared machine's /dev/full must survive that.
private func deviceNode(_ path: String, major: UInt32, minor: UInt32, system: String) -> String {
    let device = dev_t(major) << 8 | dev_t(minor)
    return mknod(path, S_IFCHR | 0o666, device) == 0 ? path : system
}

// MARK: - Standard output as a descriptor

private enum StdoutTarget {
    case path(String)
    /// The write end of a pipe whose read end is already closed.
    case closedPipe
}

/// Runs rigbook with stdout as given and signals at their defaults (or SIGPIPE ignored, as a parent that
/// ignores it leaves it, through `sh -c 'trap "" PIPE; exec …'`).
private func spawnRigbook(_ args: [String], home: String, stdout: StdoutTarget,
                          ignoringSIGPIPE: Bool = false) throws -> RunResult {
    let descriptor: Int32
    switch stdout {
    case .path(let path):
        descriptor = open(path, O_WRONLY | O_CLOEXEC)
    case .closedPipe:
        // Close-on-exec at once, so no child another test spawns can hold the read end open (no pipe2 in Swift).
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw TmuxError("pipe: \(errno)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        close(ends[0])
        descriptor = ends[1]
    }
    guard descriptor >= 0 else { throw TmuxError("cannot open stdout for rigbook: \(errno)") }
    defer { close(descriptor) }
    let command = [try Binary.path(), "--home", home] + args
    let words = ignoringSIGPIPE ? ["/bin/sh", "-c", "trap '' PIPE; exec \"$0\" \"$@\""] + command : command
    return try spawnAndWait(words[0], Array(words.dropFirst()), environment: baseEnvironment(userHome: home + "-user"),
                            timeout: 30, standardOutput: descriptor)
}

// MARK: - Tests

extension RigbookCLITests {
    @Suite("Hardening: output files and standard output") struct HardeningOutput {
        // --out: what may be replaced

        @Test("--out a character device writes into it and never replaces it: /dev/full fails, /dev/null succeeds")
        func outCharacterDevice() throws {
            let home = try Home(); defer { home.remove() }
            let full = deviceNode(home.sub("full"), major: 1, minor: 7, system: "/dev/full")
            let result = home.run(["export", "--format", "csv", "--out", full])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("No space left on device"), "\(result)")
            #expect(fileType(full) == S_IFCHR, "\(full) was replaced")

            let null = deviceNode(home.sub("null"), major: 1, minor: 3, system: "/dev/null")
            let written = home.run(["export", "--format", "csv", "--out", null])
            #expect(written.status == 0, "\(written)")
            #expect(fileType(null) == S_IFCHR, "\(null) was replaced")
        }

        @Test("--out a FIFO writes into the FIFO, for whoever reads it; the FIFO stays")
        func outFIFO() throws {
            let home = try Home(); defer { home.remove() }
            let fifo = home.sub("feed")
            try #require(mkfifo(fifo, 0o600) == 0)
            // A reader is there before rigbook opens the FIFO, so its open does not wait.
            let reader = open(fifo, O_RDONLY | O_NONBLOCK)
            try #require(reader >= 0)
            defer { close(reader) }
            let result = home.run(["export", "--format", "csv", "--out", fifo])
            #expect(result.status == 0, "\(result)")
            #expect(fileType(fifo) == S_IFIFO, "the FIFO was replaced")
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(reader, &buffer, buffer.count)
                if count <= 0 { break }
                received.append(contentsOf: buffer[0..<count])
            }
            #expect(String(decoding: received, as: UTF8.self) == home.run(["export", "--format", "csv"]).stdout)
        }

        @Test("--out a symbolic link is refused with a sentence; the link and its target stay as they were")
        func outSymlink() throws {
            let home = try Home(); defer { home.remove() }
            let target = home.sub("target.csv"), link = home.sub("link.csv")
            try Data("keep\n".utf8).write(to: URL(fileURLWithPath: target))
            try #require(symlink(target, link) == 0)
            let result = home.run(["export", "--format", "csv", "--out", link])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("symbolic link"), "\(result)")
            #expect(result.stderr.contains("nothing was written"), "\(result)")
            #expect(fileType(link) == S_IFLNK)
            #expect(readFile(target) == "keep\n")

            let dangling = home.sub("dangling.csv"), nowhere = home.sub("nowhere.csv")
            try #require(symlink(nowhere, dangling) == 0)
            let refused = home.run(["calendar", "--out", dangling])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("symbolic link"), "\(refused)")
            #expect(fileType(dangling) == S_IFLNK)
            #expect(!fileExists(nowhere))
        }

        @Test("--out a folder or a block device is refused with a sentence naming what it is")
        func outOtherKinds() throws {
            let home = try Home(); defer { home.remove() }
            let folder = home.sub("a-folder")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let result = home.run(["report", "--out", folder])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("is a folder"), "\(result)")
            #expect(fileType(folder) == S_IFDIR)

            let block = home.sub("disk")
            if mknod(block, S_IFBLK | 0o600, dev_t(7) << 8) == 0 { // loop0; needs root
                let refused = home.run(["export", "--format", "csv", "--out", block])
                #expect(refused.status == 1, "\(refused)")
                #expect(refused.stderr.contains("block device"), "\(refused)")
                #expect(fileType(block) == S_IFBLK, "the device node was replaced")
            }
        }

        @Test("--out - and --out /dev/stdout are standard output: no file, no 'wrote' line",
              arguments: ["-", "/dev/stdout"])
        func outStandardOutput(_ name: String) throws {
            let home = try Home(); defer { home.remove() }
            if name.hasPrefix("/dev/") { try home.requireSafeForSystemFiles() }
            let cwd = home.sub("cwd")
            try FileManager.default.createDirectory(atPath: cwd, withIntermediateDirectories: false)
            let plain = home.run(["export", "--format", "csv"])
            let result = try home.shell("\"$RIGBOOK\" --home \"$HOME_DIR\" export --format csv --out \(name)", cwd: cwd)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == plain.stdout)
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: cwd).isEmpty, "a file was made in the cwd")
        }

        // Modes

        @Test("a new output file is 0666 less the umask", arguments: [0o077, 0o022, 0o002, 0o027] as [mode_t])
        func newFileTakesTheUmask(_ mask: mode_t) throws {
            let home = try Home(); defer { home.remove() }
            for (index, command) in ["export --format csv", "calendar", "report"].enumerated() {
                let out = home.sub("out-\(index)")
                let result = try home.run(umask: mask, "\(command) --out \(out)")
                #expect(result.status == 0, "\(result)")
                #expect(mode(out) == 0o666 & ~mask, "\(command) under umask \(octal(mask)): \(octal(mode(out)))")
            }
        }

        @Test("a replaced output file keeps its mode, whatever the umask", arguments: [0o600, 0o640, 0o664] as [mode_t])
        func replacedFileKeepsItsMode(_ kept: mode_t) throws {
            let home = try Home(); defer { home.remove() }
            let out = home.sub("assets.csv")
            try Data("old\n".utf8).write(to: URL(fileURLWithPath: out))
            try #require(chmod(out, kept) == 0)
            let result = try home.run(umask: 0o002, "export --format csv --out \(out)")
            #expect(result.status == 0, "\(result)")
            #expect(readFile(out)?.hasPrefix("tag,") == true)
            #expect(mode(out) == kept, "\(octal(mode(out)))")
        }

        @Test("files Rigbook keeps are 0600 even under umask 000")
        func keptFilesStayPrivate() throws {
            let home = try Home(); defer { home.remove() }
            let fresh = home.sub("fresh")
            let result = try home.shell("umask 000; exec \"$RIGBOOK\" --home \(quoted(fresh)) sample --assets 3")
            #expect(result.status == 0, "\(result)")
            let register = DataHome(root: fresh).registerPath
            #expect(mode(register) == 0o600, "\(octal(mode(register)))")
        }

        // Standard output

        @Test("a full standard output: exit 1 and one line, no backtrace",
              arguments: [["asset", "list"], ["export", "--format", "csv"], ["due"], ["history", "SL-1"],
                          ["labels", "SL-1"], ["--version"], ["help"]])
        func fullStandardOutput(_ args: [String]) throws {
            let home = try Home(); defer { home.remove() }
            let result = try spawnRigbook(args, home: home.path, stdout: .path("/dev/full"))
            #expect(result.status == 1, "\(args): \(result)")
            #expect(result.stderrIsOneLine, "\(args): \(result)")
            #expect(result.stderr == "rigbook: cannot write to standard output (No space left on device)\n",
                    "\(args): \(result)")
        }

        @Test("a closed pipe (`| head`): a quiet exit 141, whether SIGPIPE was ignored or not",
              arguments: [["asset", "list"], ["export", "--format", "csv"], ["history", "SL-1"], ["labels", "SL-1"],
                          ["help"]],
              [false, true])
        func closedPipe(_ args: [String], _ ignoringSIGPIPE: Bool) throws {
            let home = try Home(); defer { home.remove() }
            let result = try spawnRigbook(args, home: home.path, stdout: .closedPipe, ignoringSIGPIPE: ignoringSIGPIPE)
            #expect(result.status == 141, "\(args), SIGPIPE ignored: \(ignoringSIGPIPE): \(result)")
            #expect(result.stderr.isEmpty, "\(args), SIGPIPE ignored: \(ignoringSIGPIPE): \(result)")
        }

        // Terminals

        @Test("caret notation for a terminal keeps line ends and shows every other control character",
              arguments: [("a\u{1B}[2Jb\n", "a^[[2Jb\n"), ("x,y\r\n", "x,y\r\n"), ("cr\ralone\r", "cr^Malone^M"),
                          ("tab\tbell\u{7}del\u{7F}c1\u{9B}", "tab^Ibell^Gdel^?c1<9b>"), ("plain", "plain")])
        func caretNotationKeepsLineEnds(_ text: String, _ shown: String) {
            #expect(VisibleText.keepingLineEnds(text) == shown)
        }

        @Test("on a terminal, history's header line shows an ESC in a stored name in caret notation")
        func historyHeaderOnTerminal() throws {
            let home = try Home(); defer { home.remove() }
            let result = try home.onTerminal(["history", "SL-2"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("SL-2 · \(Home.hostileShown)"), "\(result)")
            #expect(!result.stdout.unicodeScalars.contains("\u{1B}"), "a raw ESC reached the terminal: \(result)")
        }

        @Test("on a terminal, CSV shows control characters in caret notation; line ends stay",
              arguments: [["export", "--format", "csv"], ["asset", "list", "--format", "csv"],
                          ["export", "--format", "csv", "--out", "/dev/tty"]])
        func dataOnTerminal(_ args: [String]) throws {
            let home = try Home(); defer { home.remove() }
            if args.contains("/dev/tty") { try home.requireSafeForSystemFiles() }
            let result = try home.onTerminal(args)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains(Home.hostileShown), "\(result)")
            #expect(!result.stdout.unicodeScalars.contains("\u{1B}"), "a raw ESC reached the terminal: \(result)")
            #expect(!result.stdout.unicodeScalars.contains("\u{7}"), "a raw BEL reached the terminal: \(result)")
            #expect(!result.stdout.contains("^M"), "a CSV line end was shown as ^M: \(result)")
            #expect(result.stdout.contains("\r\n"), "\(result)")
        }

        @Test("on a terminal, a large export's progress line still returns to the start of the line")
        func progressOnTerminal() throws {
            let home = try Home(); defer { home.remove() }
            let big = home.sub("big")
            #expect(runRigbookResult(["sample", "--assets", "2500"], home: big).status == 0)
            let result = try home.onTerminal(["export", "--format", "csv", "--table", "records",
                                              "--out", home.sub("records.csv")], home: big)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("\rexport: "), "\(result)")
            #expect(!result.stdout.contains("^M"), "\(result)")
        }

        @Test("in a pipe and in a file, CSV keeps its bytes")
        func dataInPipeAndFileKeepsBytes() throws {
            let home = try Home(); defer { home.remove() }
            let piped = home.run(["export", "--format", "csv"])
            #expect(piped.status == 0)
            #expect(piped.stdout.contains(Home.hostileName), "\(piped)")
            let out = home.sub("assets.csv")
            #expect(home.run(["export", "--format", "csv", "--out", out]).status == 0)
            #expect(readFile(out) == piped.stdout)
        }

        @Test("on a terminal, an error line shows the control characters of a path in caret notation")
        func errorLineOnTerminal() throws {
            let home = try Home(); defer { home.remove() }
            let out = home.sub("no\u{1B}]2;x\u{7}/out.csv")
            let result = try home.onTerminal(["export", "--format", "csv", "--out", out])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("no^[]2;x^G"), "\(result)")
            #expect(!result.stdout.unicodeScalars.contains("\u{1B}"), "a raw ESC reached the terminal: \(result)")
        }
    }
}
