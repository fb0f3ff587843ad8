import Foundation
import RigbookCore
import RigbookStore

/// The bulk commands on one register, each run as a person runs it: the `rigbook` built next to the bench, a child
/// process on the home (`--home`), its output thrown away or written to a file outside the home, its wall time and
/// its peak resident memory (`ru_maxrss`) taken from `wait4` when it ends. Target: < 100 MB each, at 1,000,000 assets
/// too (the command holds no row: its memory must not grow with the register).
///
/// A fresh bench process (`--measure-child`) spawns each command, not the bench itself: on Linux a child's
/// `ru_maxrss` starts at the peak of the process it was spawned from (exec keeps the old memory's high-water
/// mark), and the bench's own peak, with a register built and listed in it, was 109 MB at 1,000 assets. From a
/// fresh bench the floor is 31 MB (`/bin/true` measures that), below the 33 MB even `rigbook --version` takes.
enum BulkBench {
    static let targetMB = 100.0

    /// One command's figures, or why it gave none.
    struct Figure {
        /// The command as shown, in backticks.
        let command: String
        var seconds = Double.nan
        var peakMB = Double.nan
        /// What it wrote, when that says something (a PDF's pages, a file's size).
        var detail: String?
        var failure: String?

        var met: Bool { failure == nil && peakMB < BulkBench.targetMB }
        var time: String { failure == nil ? String(format: "%.1f s", seconds) : "—" }
        var memory: String { failure.map { "— (\($0))" } ?? String(format: "%.0f MB", peakMB) }
    }

    /// A command: its words after `rigbook --home HOME`, with `OUT` for a file of its own (named `file`), and the
    /// exit codes that mean it worked (`due` exits 3 when something needs attention).
    private struct Command {
        let words: [String]
        var file: String? = nil
        var success: Set<Int32> = [0]
    }

    private static func commands(site: String?) -> [Command] {
        [Command(words: ["due"], success: [0, 3]),
         Command(words: ["due", "--format", "json"], success: [0, 3]),
         Command(words: ["export"]),
         Command(words: ["asset", "list", "--format", "json"]),
         Command(words: ["calendar", "--out", "OUT"], file: "calendar.ics"),
         Command(words: ["report", "--out", "OUT"], file: "report.html"),
         Command(words: ["report", "--format", "pdf", "--out", "OUT"], file: "report.pdf")]
            + (site.map { [Command(words: ["labels", "--site", $0, "--out", "OUT"], file: "labels.html")] } ?? [])
    }

    /// Every command on the register at `home`; `today` (RIGBOOK_TODAY) for a register made for that day, nil to
    /// judge it on the day the environment says.
    static func run(home: String, today: CalendarDate?) throws -> [Figure] {
        let rigbook = siblingExecutable("rigbook")
        let site = try labelSite(home: home)
        let folder = temporaryHome("bulk")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["RIGBOOK_HOME"] = nil
        if let today { environment["RIGBOOK_TODAY"] = today.iso }
        let pairs = environment.map { "\($0.key)=\($0.value)" }
        var figures: [Figure] = []
        for command in commands(site: site) {
            let out = command.file.map { "\(folder)/\($0)" }
            let words = command.words.map { $0 == "OUT" ? out ?? $0 : $0 }
            // As a person types it: `F.pdf` for the file, a site's name in quotes.
            let shown = "`" + command.words.map { word in
                word == "OUT" ? "F." + ((out ?? "") as NSString).pathExtension
                    : word.contains(" ") ? "\"\(word)\"" : word
            }.joined(separator: " ") + "`"
            progress("bench: \(shown) on \(home)…")
            var figure = Figure(command: shown)
            let errors = folder + "/stderr.txt"
            switch measured(rigbook, ["--home", home] + words, environment: pairs, errors: errors, folder: folder) {
            case .failure(let failure): figure.failure = failure.reason
            case .success(let child):
                figure.seconds = child.seconds
                figure.peakMB = Double(child.peakKB) / 1024
                if !command.success.contains(child.status) {
                    let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
                    figure.failure = (child.status < 0 ? "signal \(-child.status)" : "exit \(child.status)")
                        + (said.isEmpty ? "" : ": " + said.split(separator: "\n").prefix(1).joined())
                }
            }
            if let out, figure.failure == nil { figure.detail = written(out) }
            if let out { try? FileManager.default.removeItem(atPath: out) }
            figures.append(figure)
        }
        return figures
    }

    /// The site `labels --site` prints: the sample's own (the main site, which holds every asset of a sample),
    /// else the first by name; nil when the register has none.
    private static func labelSite(home: String) throws -> String? {
        let sites = try Register.openForReading(path: DataHome(root: home).registerPath).particulars().sites
        return sites[Particulars.mainSiteUUID]?.name ?? sites.values.map(\.name).min()
    }

    /// What a command wrote to `path`: its size, and a PDF's pages.
    private static func written(_ path: String) -> String? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else { return nil }
        let bytes = size >= 1 << 30 ? String(format: "%.1f GB", Double(size) / 1_073_741_824)
            : String(format: "%.0f MB", Double(size) / 1_048_576)
        guard path.hasSuffix(".pdf") else { return bytes }
        let pages = PDFBench.pages(path)
        return "\(Int(pages)?.formatted() ?? pages) pages, \(bytes)"
    }

    /// `executable`'s figures (`spawn`) as a fresh bench process spawned for it measures them.
    private static func measured(_ executable: String, _ arguments: [String], environment: [String], errors: String,
                                 folder: String) -> Result<(status: Int32, seconds: Double, peakKB: Int), Failure> {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let figures = folder + "/figures.txt"
        try? FileManager.default.removeItem(atPath: figures)
        switch spawn(me, ["--measure-child", figures, errors, executable] + arguments, environment: environment,
                      errors: "/dev/null") {
        case .failure(let failure): return .failure(failure)
        case .success(let helper) where helper.status != 0:
            return .failure(Failure(reason: "the measuring process ended with \(helper.status)"))
        case .success: break
        }
        let text = (try? String(contentsOfFile: figures, encoding: .utf8)) ?? ""
        let words = text.split(separator: " ", maxSplits: 2).map(String.init)
        guard words.count == 3, let status = Int32(words[0]), let seconds = Double(words[1]),
              let peakKB = Int(words[2].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return .failure(Failure(reason: text.isEmpty ? "no figures" : text))
        }
        return .success((status, seconds, peakKB))
    }

    /// `--measure-child FIGURES ERRORS EXECUTABLE ARGUMENTS…`: this process's one job. `EXECUTABLE` is spawned with
    /// this process's environment (`spawn`) and its status, wall time and peak memory written to `FIGURES` as
    /// "STATUS SECONDS KB", or why it could not be run.
    static func measureChild(_ words: [String]) {
        guard words.count >= 3 else { return progress("rigbook-bench: --measure-child FIGURES ERRORS EXECUTABLE …") }
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let text: String
        switch spawn(words[2], Array(words.dropFirst(3)), environment: environment, errors: words[1]) {
        case .success(let child): text = "\(child.status) \(child.seconds) \(child.peakKB)"
        case .failure(let failure): text = failure.reason
        }
        try? text.write(toFile: words[0], atomically: false, encoding: .utf8)
    }

    /// Why a child gave no figures.
    struct Failure: Error {
        let reason: String
    }

    /// `executable` run with `arguments`, standard input and output on /dev/null and standard error to the file
    /// `errors`: its exit status (minus the signal that ended it), wall time and peak resident memory (KB), as
    /// `wait4` tells them.
    static func spawn(_ executable: String, _ arguments: [String], environment: [String],
                      errors: String) -> Result<(status: Int32, seconds: Double, peakKB: Int), Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let start = now()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { return .failure(Failure(reason: "cannot run \(executable): errno \(spawned)")) }
        var status: Int32 = 0, usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { return .failure(Failure(reason: "wait4: errno \(errno)")) }
        }
        let seconds = now() - start
        // WIFEXITED and WEXITSTATUS, which Swift does not import: the low 7 bits are the signal, if any.
        let signal = status & 0x7f
        return .success((signal == 0 ? (status >> 8) & 0xff : -signal, seconds, usage.ru_maxrss))
    }

    /// The figures of one register, as a table of their own (`--bulk-only HOME`).
    static func printTable(_ figures: [Figure], assets: Int) {
        print("## Bulk commands at \(assets.formatted()) assets (each its own process: wall time, peak memory)")
        print("")
        print("| command at \(assets.formatted()) assets | time | peak memory | target |")
        print("|---|---|---|---|")
        for figure in figures {
            let detail = figure.detail.map { " (\($0))" } ?? ""
            print("| \(figure.command)\(detail) | \(figure.time) | \(figure.memory) | "
                  + "< \(Int(targetMB)) MB \(figure.met ? "✓" : "✗") |")
        }
        print("")
    }
}
