/// What a command takes, declared once: the help's OPTIONS, the man page and the shell completions are made from
/// these declarations, and a command reads its words only through them (`Arguments`), so none can take an option
/// that the help, the page and the completions do not show.

/// What a value may be: what the shells complete it with.
enum ValueKind: Sendable, Equatable {
    /// Any text: nothing to complete.
    case text
    /// One of these words.
    case choices([String])
    case file
    case directory
    /// An asset tag: completed from the register (`rigbook complete-tags`).
    case tag
    /// A command's name (`rigbook help COMMAND`).
    case command
}

/// An option that takes a value: `--name VALUE` or `--name=VALUE`.
struct Option: Sendable {
    let name: String
    /// The value as the help shows it: TEXT, YYYY-MM-DD, table|json.
    let value: String
    let help: String
    let kind: ValueKind
    /// A whole number's bounds (`Arguments.int`).
    let range: ClosedRange<Int>?

    init(_ name: String, _ value: String, _ help: String, kind: ValueKind = .text, range: ClosedRange<Int>? = nil) {
        self.name = name
        self.value = value
        self.help = help
        self.kind = kind
        self.range = range
    }

    /// An option whose value is one of `words`, shown as `a|b|c` unless `value` names them (TYPE).
    static func choice(_ name: String, _ words: [String], _ help: String, value: String? = nil) -> Option {
        Option(name, value ?? words.joined(separator: "|"), help, kind: .choices(words))
    }

    /// `--format` of a printed document: HTML or PDF, as `Parse.documentFormat` reads it.
    static let documentFormat = choice("--format", ["html", "pdf"], "html (the default) or pdf; an --out name ending"
                                       + " .pdf means pdf.")
    static let out = Option("--out", "FILE", "Write FILE (atomically) instead of standard output.", kind: .file)
    static let asOf = Option("--as-of", "YYYY-MM-DD", "Judge as of this day instead of today.")
    static let kind = choice("--kind", ["lifting", "electrical"], "Lifting equipment or electrical items only.")
}

/// An option that takes no value; `alias` is another spelling of it (`-h` of `--help`).
struct Flag: Sendable {
    let name: String
    let help: String
    var alias: String? = nil

    init(_ name: String, _ help: String, alias: String? = nil) {
        self.name = name
        self.help = help
        self.alias = alias
    }

    /// As the help lists it: `-h, --help`.
    var spelling: String { ([alias].compactMap { $0 } + [name]).joined(separator: ", ") }

    static let dryRun = Flag("--dry-run", "Check everything and say what would be done; write nothing.")
}

/// A word that is not an option: `TAG` of `history TAG`.
struct Operand: Sendable {
    /// As the usage names it: TAG, FILE.csv.
    let value: String
    /// What a missing one is called in "missing …": the asset TAG.
    let missing: String
    let kind: ValueKind
    /// Several may be given (`labels TAG...`).
    var repeats = false

    init(_ value: String, missing: String, kind: ValueKind = .text, repeats: Bool = false) {
        self.value = value
        self.missing = missing
        self.kind = kind
        self.repeats = repeats
    }

    static let tag = Operand("TAG", missing: "the asset TAG", kind: .tag)
}

/// One declaration of a table, whatever its kind: what the generators read.
enum Declared: Sendable {
    case option(Option)
    case flag(Flag)
    case operand(Operand)

    /// The option's or flag's spellings; none for an operand.
    var names: [String] {
        switch self {
        case .option(let option): [option.name]
        case .flag(let flag): [flag.name] + [flag.alias].compactMap { $0 }
        case .operand: []
        }
    }

    /// The spellings of a flag; none for an option or an operand.
    var flagNames: [String] {
        if case .flag = self { names } else { [] }
    }
}

/// A command's table: a struct whose stored properties are its `Option`s, `Flag`s and `Operand`s, in the order the
/// help lists them. A command reads a word by a key path into its table, so it cannot read one the table lacks.
protocol OptionTable: Sendable {
    init()
}

extension OptionTable {
    /// Every declaration, in the order written: found by reflection, so a property added is a property listed.
    static var declared: [Declared] {
        Mirror(reflecting: Self()).children.compactMap { child in
            switch child.value {
            case let option as Option: .option(option)
            case let flag as Flag: .flag(flag)
            case let operand as Operand: .operand(operand)
            default: nil
            }
        }
    }
}

/// A command that takes nothing.
struct NoOptions: OptionTable {}
