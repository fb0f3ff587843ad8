@preconcurrency import Glibc // for the C library's `stdout`, which only the main thread touches here
import Foundation
import RigbookStore

/// Standard output and standard error without Foundation's `FileHandle.write`, whose `try!` turned a
/// full disk or a closed pipe into a crash with a backtrace. Text bound for a terminal is shown in
/// caret notation (`VisibleText`); files and pipes get the bytes as they are.
///
/// A closed pipe (`rigbook export | head`) is the reader saying it has enough. SIGPIPE is ignored
/// (main.swift), so that is an EPIPE error here, and the command ends quietly with 141: the status a
/// shell shows for a program that SIGPIPE killed, so `set -o pipefail` sees what it sees for `cat`.
/// Any other error is one line on stderr and exit 1.
enum StandardStreams {
    /// Names of standard output for `--out`: `-`, and the files that stand for descriptor 1.
    static let outputNames: Set<String> = ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]

    /// Standard output could not be written.
    struct Failure: Error {
        let code: Int32
    }

    /// What the command exits with after `failure`, having said why (nothing, for a closed pipe).
    static func exitStatus(_ failure: Failure) -> Int32 {
        if failure.code == EPIPE { return 128 + SIGPIPE }
        printError("rigbook: cannot write to standard output (\(String(cString: strerror(failure.code))))")
        return ExitCode.failure
    }

    /// Flushes what `print` left in the C library's buffer; a write error there is a failure too.
    static func finish(_ status: Int32) -> Int32 {
        let flushed = fflush(stdout)
        let code = errno
        guard flushed == 0, ferror(stdout) == 0 else {
            return exitStatus(Failure(code: flushed == 0 || code == 0 ? EIO : code))
        }
        return status
    }

    /// Writes to standard error, in caret notation on a terminal unless the text is `ours` (a progress
    /// line's `\r`). Errors are ignored: there is nowhere left to report them.
    static func toStandardError(_ text: String, ours: Bool = false) {
        var writer = AtomicFile.Writer(descriptor: STDERR_FILENO, name: "standard error",
                                       showingControls: ours ? false : nil)
        try? writer.write(text)
        try? writer.flush()
    }
}

/// Buffered standard output: one write per 64 KB instead of one per line.
struct Output {
    private var writer = AtomicFile.Writer(descriptor: STDOUT_FILENO, name: "standard output")

    mutating func write(_ text: String) throws(StandardStreams.Failure) {
        do { try writer.write(text) } catch { throw Output.failure(error) }
    }

    /// Bytes as they are (a PDF into a pipe).
    mutating func write(contentsOf data: Data) throws(StandardStreams.Failure) {
        do { try writer.write(contentsOf: data) } catch { throw Output.failure(error) }
    }

    mutating func flush() throws(StandardStreams.Failure) {
        do { try writer.flush() } catch { throw Output.failure(error) }
    }

    private static func failure(_ error: Error) -> StandardStreams.Failure {
        StandardStreams.Failure(code: (error as? AtomicFile.WriteError)?.code ?? EIO)
    }

    /// One line to standard output at once.
    static func line(_ text: String) throws(StandardStreams.Failure) {
        var out = Output()
        try out.write(text + "\n")
        try out.flush()
    }
}
