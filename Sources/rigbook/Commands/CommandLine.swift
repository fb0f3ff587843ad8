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

/// The arguments after the subcommand, consumed as options are read; whatever remains is an error.
struct Arguments {
    private var items: [String]
    /// The options and flags read so far: one met again among what is left was given twice.
    private var read: Set<String> = []

    init(_ items: [String]) { self.items = items }

    var isEmpty: Bool { items.isEmpty }

    /// The first word is `help` (help needs no valid environment).
    var peekIsHelp: Bool { items.first == "help" }

    /// Options of rigbook itself that take no value.
    static let globalFlags: Set<String> = ["--help", "-h", "--version"]

    /// `--name VALUE` or `--name=VALUE`. A VALUE that reads as an option (`--tag -h`, `--name --help`) is
    /// refused, naming the option: far more often a forgotten value than meant. `--name=-h` gives it.
    /// An option given twice is refused at once, before its first value is used: which one was meant is not
    /// for rigbook to guess.
    mutating func option(_ name: String) throws(UsageError) -> String? {
        for (index, item) in items.enumerated() {
            if item == name {
                guard index + 1 < items.count else { throw UsageError("\(name) needs a value") }
                let value = items[index + 1]
                if Arguments.looksLikeOption(value) {
                    throw UsageError("\(name) needs a value, and \(value) looks like an option;"
                                     + " to give it as the value, write \(name)=\(value)")
                }
                items.removeSubrange(index...index + 1)
                return try taken(name, value)
            }
            if item.hasPrefix(name + "=") {
                items.remove(at: index)
                return try taken(name, String(item.dropFirst(name.count + 1)))
            }
        }
        return nil
    }

    /// `value`, once `name` is known to be given only once.
    private mutating func taken(_ name: String, _ value: String) throws(UsageError) -> String {
        read.insert(name)
        if items.contains(where: { Arguments.optionName($0) == name }) { throw Arguments.givenTwice(name) }
        return value
    }

    /// `option(name)` read as a date (YYYY-MM-DD).
    mutating func date(_ name: String) throws(UsageError) -> CalendarDate? {
        try option(name).map { (text: String) throws(UsageError) in try Parse.date(text, option: name) }
    }

    /// The option a word names: `--tag` of `--tag` and of `--tag=SL-1`.
    private static func optionName(_ word: String) -> Substring { word.prefix { $0 != "=" } }

    private static func givenTwice(_ name: String) -> UsageError { UsageError("\(name) given twice") }

    /// `--name` alone, anywhere except as the value of the option before it: in `--tag -h`, -h is --tag's
    /// (refused) value, never a request for help.
    mutating func flag(_ name: String) -> Bool {
        guard let index = items.indices.first(where: { items[$0] == name && !isValue(at: $0) }) else { return false }
        items.remove(at: index)
        read.insert(name)
        return true
    }

    /// `--anything` or `-h`: a word that reads as an option, not a value. Other words starting with one dash
    /// (-5, -SN0, -2 deck) are values: rigbook has no other one-dash option.
    static func looksLikeOption(_ word: String) -> Bool {
        (word.hasPrefix("--") && word != "--") || globalFlags.contains(word)
    }

    /// Whether the word at `index` follows an option that takes a value, and so is that value: every
    /// `--name` not written `--name=VALUE` takes one, unless it is a flag of some command.
    private func isValue(at index: Int) -> Bool {
        guard index > 0 else { return false }
        let before = items[index - 1]
        return before.hasPrefix("--") && before != "--" && !before.contains("=") && !Commands.flagNames.contains(before)
    }

    mutating func positional(_ what: String) throws(UsageError) -> String {
        guard let index = items.firstIndex(where: { !$0.hasPrefix("--") }) else { throw UsageError("missing \(what)") }
        return items.remove(at: index)
    }

    /// The first word that is neither an option nor an option's value.
    mutating func optionalPositional() -> String? {
        guard let index = items.indices.first(where: { !items[$0].hasPrefix("-") && !isValue(at: $0) }) else {
            return nil
        }
        return items.remove(at: index)
    }

    /// Fails on anything not consumed: a flag left over after it was read was given twice.
    func finish() throws(UsageError) {
        if let first = items.first {
            let name = String(Arguments.optionName(first))
            if read.contains(name) { throw Arguments.givenTwice(name) }
            throw UsageError(first.hasPrefix("-") ? "unknown option \(first)" : "unexpected argument \(first)")
        }
    }
}

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
