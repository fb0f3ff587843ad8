import RigbookCore

/// A command's words, read through its table (`OptionTable`): every read names a declaration by key path, so a
/// command can read nothing its help, man page and completions do not show. Words are consumed as they are read
/// (in the order the command reads them, which decides which mistake is said first); whatever remains is an error.
struct Arguments<Table: OptionTable> {
    private(set) var words: ArgumentWords

    init(_ words: ArgumentWords) { self.words = words }

    init(_ items: [String]) { words = ArgumentWords(items) }

    private static var table: Table { Table() }

    var isEmpty: Bool { words.items.isEmpty }

    /// The first word is `help` (help needs no valid environment).
    var peekIsHelp: Bool { words.items.first == "help" }

    /// The option's value, nil when it is not given.
    mutating func value(_ option: KeyPath<Table, Option>) throws(UsageError) -> String? {
        try words.option(Self.table[keyPath: option].name)
    }

    /// The option's value, which must be given ("missing --tag").
    mutating func required(_ option: KeyPath<Table, Option>) throws(UsageError) -> String {
        let name = Self.table[keyPath: option].name
        guard let value = try words.option(name) else { throw UsageError("missing \(name)") }
        return value
    }

    /// The option read as a whole number in its declared range.
    mutating func int(_ option: KeyPath<Table, Option>) throws(UsageError) -> Int? {
        let declared = Self.table[keyPath: option]
        guard let range = declared.range else { preconditionFailure("\(declared.name) declares no range") }
        return try words.option(declared.name).map { (text: String) throws(UsageError) in
            try Parse.int(text, option: declared.name, range: range)
        }
    }

    /// The values of those of `options` given, by option name.
    mutating func values(_ options: [KeyPath<Table, Option>]) throws(UsageError) -> [String: String] {
        var given: [String: String] = [:]
        for option in options {
            let name = Self.table[keyPath: option].name
            if let value = try words.option(name) { given[name] = value }
        }
        return given
    }

    /// The option read as a date (YYYY-MM-DD).
    mutating func date(_ option: KeyPath<Table, Option>) throws(UsageError) -> CalendarDate? {
        let name = Self.table[keyPath: option].name
        return try words.option(name).map { (text: String) throws(UsageError) in try Parse.date(text, option: name) }
    }

    /// The option's value, one of its declared words, else `defaultValue`.
    mutating func choice(_ option: KeyPath<Table, Option>, default defaultValue: String) throws(UsageError) -> String {
        let declared = Self.table[keyPath: option]
        guard case .choices(let words) = declared.kind else { preconditionFailure("\(declared.name) has no choices") }
        return try Parse.format(try self.words.option(declared.name), allowed: words, default: defaultValue,
                                option: declared.name)
    }

    /// Whether the flag (or its alias) is given.
    mutating func flag(_ flag: KeyPath<Table, Flag>) -> Bool {
        let declared = Self.table[keyPath: flag]
        return words.flag(declared.name) || declared.alias.map { words.flag($0) } == true
    }

    /// The operand, which must be given; `missing` says what it is when that depends on an earlier word.
    mutating func operand(_ operand: KeyPath<Table, Operand>, missing: String? = nil) throws(UsageError) -> String {
        try words.positional(missing ?? Self.table[keyPath: operand].missing)
    }

    /// The next word that is neither an option nor an option's value, if any.
    mutating func nextOperand(_ operand: KeyPath<Table, Operand>) -> String? { words.optionalPositional() }

    func finish() throws(UsageError) { try words.finish() }
}

/// The words themselves: how options, flags and operands are told apart, whichever table reads them.
struct ArgumentWords: Sendable {
    fileprivate var items: [String]
    /// The options and flags read so far: one met again among what is left was given twice.
    private var read: Set<String> = []

    init(_ items: [String]) { self.items = items }

    /// `--name VALUE` or `--name=VALUE`. A VALUE that reads as an option (`--tag -h`, `--name --help`) is
    /// refused, naming the option: far more often a forgotten value than meant. `--name=-h` gives it.
    /// An option given twice is refused at once, before its first value is used: which one was meant is not
    /// for rigbook to guess.
    fileprivate mutating func option(_ name: String) throws(UsageError) -> String? {
        for (index, item) in items.enumerated() {
            if item == name {
                guard index + 1 < items.count else { throw UsageError("\(name) needs a value") }
                let value = items[index + 1]
                if ArgumentWords.looksLikeOption(value) {
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
        if items.contains(where: { ArgumentWords.optionName($0) == name }) { throw ArgumentWords.givenTwice(name) }
        return value
    }

    /// The option a word names: `--tag` of `--tag` and of `--tag=SL-1`.
    private static func optionName(_ word: String) -> Substring { word.prefix { $0 != "=" } }

    private static func givenTwice(_ name: String) -> UsageError { UsageError("\(name) given twice") }

    /// `--name` alone, anywhere except as the value of the option before it: in `--tag -h`, -h is --tag's
    /// (refused) value, never a request for help.
    fileprivate mutating func flag(_ name: String) -> Bool {
        guard let index = items.indices.first(where: { items[$0] == name && !isValue(at: $0) }) else { return false }
        items.remove(at: index)
        read.insert(name)
        return true
    }

    /// `--anything` or one of rigbook's own flags (`-h`): a word that reads as an option, not a value. Other words
    /// starting with one dash (-5, -SN0, -2 deck) are values: rigbook has no other one-dash option.
    static func looksLikeOption(_ word: String) -> Bool {
        (word.hasPrefix("--") && word != "--") || Commands.globalFlagNames.contains(word)
    }

    /// Whether the word at `index` follows an option that takes a value, and so is that value: every
    /// `--name` not written `--name=VALUE` takes one, unless it is a flag of some command.
    private func isValue(at index: Int) -> Bool {
        guard index > 0 else { return false }
        let before = items[index - 1]
        return before.hasPrefix("--") && before != "--" && !before.contains("=") && !Commands.flagNames.contains(before)
    }

    fileprivate mutating func positional(_ what: String) throws(UsageError) -> String {
        guard let index = items.firstIndex(where: { !$0.hasPrefix("--") }) else { throw UsageError("missing \(what)") }
        return items.remove(at: index)
    }

    /// The first word that is neither an option nor an option's value.
    fileprivate mutating func optionalPositional() -> String? {
        guard let index = items.indices.first(where: { !items[$0].hasPrefix("-") && !isValue(at: $0) }) else {
            return nil
        }
        return items.remove(at: index)
    }

    /// Fails on anything not consumed: a flag left over after it was read was given twice.
    fileprivate func finish() throws(UsageError) {
        if let first = items.first {
            let name = String(ArgumentWords.optionName(first))
            if read.contains(name) { throw ArgumentWords.givenTwice(name) }
            throw UsageError(first.hasPrefix("-") ? "unknown option \(first)" : "unexpected argument \(first)")
        }
    }
}
