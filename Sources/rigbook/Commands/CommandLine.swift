import Foundation
import RigbookCore
import RigbookStore

enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    /// Something needs attention (`due`); documented in the user guide.
    static let attention: Int32 = 3
    static let usage: Int32 = 64
    /// The server could not be reached or did not answer: nothing to put right, try later (sysexits' EX_TEMPFAIL).
    static let tryLater: Int32 = 75
    /// The server refused for a reason someone must put right first: a password, a database, a role, a
    /// permission (sysexits' EX_CONFIG).
    static let needsAction: Int32 = 78

    /// Every status rigbook ends with, as the help and the man page list them.
    static let meanings: [(status: Int32, meaning: String)] = [
        (success, "OK."),
        (failure, "Failure, said in a line on standard error."),
        (attention, "Something needs attention (due, notices)."),
        (usage, "Bad usage: nothing was read or written."),
        (tryLater, "The server cannot be reached now (sync, --server): try again later."),
        (needsAction, "The server refused for a reason someone must put right first (the message says what)."),
        (141, "The output was closed early (| head)."),
    ]
}

/// Bad usage: printed as one line, exit 64, nothing written.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A failure while running a valid command: one line, exit 1 unless `status` says more (the server's failures).
struct CommandFailure: Error {
    let message: String
    let status: Int32
    init(_ message: String, status: Int32 = ExitCode.failure) {
        self.message = message
        self.status = status
    }
}

/// `body`'s value; a failure of the register is the command's, in the register's own words (exit 1).
func orFail<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as RegisterError { throw CommandFailure("rigbook: \(error.description)") }
}

func printError(_ text: String) { StandardStreams.toStandardError(text + "\n") }

/// Parsers for option values, each with the one-line reason a person needs.
enum Parse {
    static func int(_ text: String, option: String, range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            let bounds = "from \(range.lowerBound) to \(range.upperBound)"
            throw UsageError("\(option) must be a whole number \(bounds), not \(text)")
        }
        return value
    }

    static func positiveNumber(_ text: String, option: String) throws(UsageError) -> Double {
        guard let value = NumberText.decimal(text), value > 0 else {
            throw UsageError("\(option) must be a decimal number greater than 0 (1000, 0.5), not \(text)")
        }
        return value
    }

    static func date(_ text: String, option: String) throws(UsageError) -> CalendarDate {
        guard let date = CalendarDate(iso: text) else {
            throw UsageError("\(option) must be a real date written YYYY-MM-DD, not \(text)")
        }
        return date
    }

    static func format(_ text: String?, allowed: [String], default defaultValue: String,
                       option: String = "--format") throws(UsageError) -> String {
        let value = text ?? defaultValue
        guard allowed.contains(value) else {
            throw UsageError("\(option) must be one of \(allowed.joined(separator: ", ")), not \(value)")
        }
        return value
    }

    /// `--format html|pdf` of a printed document: as given, or PDF for an `--out` name ending `.pdf`, HTML
    /// otherwise. A format the name contradicts (`--format pdf --out page.html`) is refused, not written under
    /// a name that says otherwise.
    static func documentFormat(_ text: String?, out: String?) throws(UsageError) -> String {
        let named = out.map { ($0 as NSString).pathExtension.lowercased() }
        let byName: String? = switch named {
        case "pdf": "pdf"
        case "html", "htm": "html"
        default: nil
        }
        let format = try self.format(text ?? byName, allowed: ["html", "pdf"], default: "html")
        if let byName, format != byName, let out {
            throw UsageError("--format \(format) and --out \(out) disagree: give the file a .\(format) name, or "
                             + "leave --format out")
        }
        return format
    }
}
