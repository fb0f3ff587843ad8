import Foundation
import Testing

struct TmuxError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A real terminal for the full-screen program: one tmux server on a private socket
/// (`-L rigbook-test-<uuid>`), one session `t` of one pane, killed by `kill()`.
final class TmuxSession {
    let socket = "rigbook-test-\(UUID().uuidString.lowercased())"
    let tmux: String
    private(set) var started = false
    /// The server's pid and socket file, to wait for its end and remove the socket tmux leaves behind.
    private var serverPID: pid_t?
    private var socketPath: String?

    /// Fails (throws) when tmux is not installed: these tests must never pass by skipping.
    init() throws {
        guard let path = TmuxSession.findTmux() else {
            throw TmuxError("tmux is missing: the end-to-end terminal tests need `tmux` on PATH (apt-get install tmux)")
        }
        tmux = path
    }

    static func findTmux() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin", "/bin"] {
            let candidate = "\(folder)/tmux"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "TMUX")
        environment.removeValue(forKey: "TMUX_PANE")
        if (environment["TERM"] ?? "").isEmpty || environment["TERM"] == "dumb" {
            environment["TERM"] = "xterm-256color"
        }
        return environment
    }

    /// Runs one tmux command on this session's server; throws with tmux's stderr when it fails.
    @discardableResult
    func tmuxCommand(_ arguments: [String]) throws -> String {
        let result = try spawnAndWait(tmux, ["-f", "/dev/null", "-L", socket] + arguments, environment: environment)
        guard result.status == 0 else {
            throw TmuxError("tmux \(arguments.joined(separator: " ")) failed: \(result)")
        }
        return result.stdout
    }

    /// Starts a detached session running `command` (through the default shell) in a width×height pane.
    func start(_ command: String, width: Int = 80, height: Int = 24) throws {
        try tmuxCommand(["new-session", "-d", "-s", "t", "-x", "\(width)", "-y", "\(height)", command])
        started = true
        serverPID = (try? display("#{pid}")).flatMap { pid_t($0) }
        socketPath = try? display("#{socket_path}")
    }

    /// Named keys (`Enter`, `Escape`, `j`, `C-c`, …), each its own argument to `send-keys`.
    func sendKeys(_ keys: String...) throws {
        try tmuxCommand(["send-keys", "-t", "t"] + keys)
    }

    /// Literal text (`send-keys -l`), UTF-8 as it is.
    func sendLiteral(_ text: String) throws {
        try tmuxCommand(["send-keys", "-t", "t", "-l", text])
    }

    /// The pane's text (`capture-pane -p`); with `escapes`, attributes as SGR sequences (`-e`).
    func capture(escapes: Bool = false) throws -> String {
        try tmuxCommand(["capture-pane", "-p", "-t", "t"] + (escapes ? ["-e"] : []))
    }

    /// A pane format such as `#{alternate_on}`.
    func display(_ format: String) throws -> String {
        try tmuxCommand(["display-message", "-p", "-t", "t", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(width: Int, height: Int) throws {
        try tmuxCommand(["resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Polls the screen every 50 ms until `predicate` holds; on timeout fails the test with the
    /// last screen and throws. Returns the screen that matched.
    @discardableResult
    func waitFor(_ what: String, timeout: TimeInterval = 10, escapes: Bool = false,
                 sourceLocation: SourceLocation = #_sourceLocation,
                 _ predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        while true {
            screen = (try? capture(escapes: escapes)) ?? screen
            if predicate(screen) { return screen }
            if Date() >= deadline { break }
            usleep(50_000) // poll interval; the deadline above bounds the wait
        }
        let shown = escapes ? screen.replacingOccurrences(of: "\u{1B}", with: "^[") : screen
        Issue.record("timed out after \(timeout) s waiting for \(what); last screen:\n\(shown)",
                     sourceLocation: sourceLocation)
        throw TmuxError("timed out waiting for \(what)")
    }

    /// Waits for a plain substring on the screen.
    @discardableResult
    func waitFor(text: String, timeout: TimeInterval = 10,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try waitFor("\"\(text)\" on the screen", timeout: timeout, sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Kills this session's server (only this socket's) and removes its socket file.
    func kill() {
        _ = try? spawnAndWait(tmux, ["-L", socket, "kill-server"], environment: environment)
        if let serverPID {
            poll(timeout: 5) { !processIsAlive(serverPID) }
        }
        if let socketPath, socketPath.contains(socket) { unlink(socketPath) }
        started = false
    }
}

/// Walks one line of `capture-pane -p -e` output: `sgr` gets each SGR's codes (`ESC [ m` as 0), `scalar` each
/// character in between. Other sequences are skipped.
func scanEscaped(_ line: Substring, sgr: ([Int]) -> Void, scalar: (Unicode.Scalar) -> Void) {
    let scalars = Array(line.unicodeScalars)
    var i = 0
    while i < scalars.count {
        if scalars[i] == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" {
            var j = i + 2
            var parameters = ""
            while j < scalars.count, !(scalars[j].value >= 0x40 && scalars[j].value <= 0x7E) {
                parameters.unicodeScalars.append(scalars[j]); j += 1
            }
            if j < scalars.count, scalars[j] == "m" {
                sgr(parameters.isEmpty
                    ? [0] : parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 })
            }
            i = j + 1
            continue
        }
        scalar(scalars[i])
        i += 1
    }
}

/// Which screen rows (0-based) start in reverse video, from `capture-pane -p -e` output.
/// tmux carries attributes from one line to the next, so the state is tracked across lines.
func reverseVideoRows(_ escaped: String) -> [Int] {
    var rows: [Int] = []
    var reverse = false
    for (row, line) in escaped.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        var startsReversed: Bool?
        scanEscaped(line, sgr: { codes in
            for code in codes {
                if code == 0 || code == 27 { reverse = false }
                if code == 7 { reverse = true }
            }
        }, scalar: { _ in if startsReversed == nil { startsReversed = reverse } })
        if startsReversed == true { rows.append(row) }
    }
    return rows
}

/// SGR colour codes (foreground/background 30–37, 40–47, 90–97, 100–107, 38/48 extended) in
/// `capture-pane -e` output.
func colourCodes(_ escaped: String) -> [Int] {
    var found: [Int] = []
    for match in escaped.matches(of: /\x1B\[([0-9;]*)m/) {
        let codes = match.1.split(separator: ";").compactMap { Int($0) }
        var index = 0
        while index < codes.count {
            let code = codes[index]
            if code == 38 || code == 48 { found.append(code); break }
            if (30...37).contains(code) || (40...47).contains(code)
                || (90...97).contains(code) || (100...107).contains(code) {
                found.append(code)
            }
            index += 1
        }
    }
    return found
}

/// The screen as cells, each its character and the attributes it is drawn with, from `capture-pane -p -e` output,
/// every row made `width` cells with plain blanks: two captures of one look compare equal, whether a blank was
/// written as a space or never written (tmux writes the attributes of the one and not the other).
func screenCells(_ escaped: String, width: Int) -> [[String]] {
    var attributes: [Int: Int] = [:]  // by kind (1 bold, 2 dim, 4 underline, 7 reverse, 30 colour, 40 background)
    func apply(_ code: Int) {
        switch code {
        case 0: attributes = [:]
        case 1, 2, 4, 7: attributes[code] = 1
        case 22: attributes[1] = nil; attributes[2] = nil
        case 24: attributes[4] = nil
        case 27: attributes[7] = nil
        case 30...37, 90...97: attributes[30] = code
        case 39: attributes[30] = nil
        case 40...47, 100...107: attributes[40] = code
        case 49: attributes[40] = nil
        default: break
        }
    }
    var rows: [[String]] = []
    for line in escaped.split(separator: "\n", omittingEmptySubsequences: false) {
        var cells: [String] = []
        scanEscaped(line, sgr: { codes in codes.forEach(apply) }, scalar: { scalar in
            let style = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            cells.append("\(scalar)|\(style)")
        })
        while cells.count < width { cells.append(" |") }
        rows.append(cells)
    }
    return rows
}
