import Foundation
import RigbookApp
import RigbookCore
import RigbookStore
import RigbookUI

/// What every command needs: where the data lives, what day it is, the environment.
struct Context: Sendable {
    let home: DataHome
    let today: CalendarDate
    let environment: [String: String]
    /// `--server URL`: the reading commands read the organisation's server instead.
    var server: String? = nil

    /// Days a draft is kept after its last edit: RIGBOOK_DRAFT_RETENTION_DAYS, default 30.
    var draftRetentionDays: Int {
        environment["RIGBOOK_DRAFT_RETENTION_DAYS"].flatMap(Int.init).map { max(1, $0) } ?? 30
    }

    /// Opens the register to add to it, making one on a new home: only for commands that add data.
    func openRegister() throws(CommandFailure) -> Register {
        try checkHome()
        announceBringingUpToDate()
        do { return try Register.open(path: home.registerPath) }
        catch { throw CommandFailure("rigbook: \(error.description)") }
    }

    /// The register a dry run works on: the home's, opened as a real run would open it (its transaction is rolled
    /// back), or, where the home has none yet, an empty one in memory, so that a dry run makes nothing on disk (no
    /// register, no folder). `isNew`: there was none, and a real run would make one.
    func registerForDryRun() throws(CommandFailure) -> (register: Register, isNew: Bool) {
        try checkHome()
        guard !FileManager.default.fileExists(atPath: home.registerPath) else { return (try openRegister(), false) }
        do { return (try Register.inMemory(), true) } catch { throw CommandFailure("rigbook: \(error.description)") }
    }

    /// What a dry run on a home without a register says first.
    func noRegisterYet(_ doing: String) -> String {
        "There is no register in \(home.root) yet: \(doing) would make one (\(home.registerPath)).\n"
    }

    /// Who signs what a command saves for `examiner`: their key on this machine, made and added to the register the
    /// first time they save here. A command has no terminal to ask on: a key under a passphrase is opened with the
    /// file RIGBOOK_KEY_PASSPHRASE_FILE names, or refused (exit 1), never read from an argument.
    func signer(for examiner: String, register: Register) throws(CommandFailure) -> RecordSigner {
        do {
            let ring = KeyRing(home: home)
            let had = ring.fingerprint(for: examiner, in: try register.examinerKeys()) != nil
            defer {
                // A key made now is said: the examiner's first save on this machine.
                if !had, let made = ring.fingerprint(for: examiner, in: (try? register.examinerKeys()) ?? []) {
                    StandardStreams.toStandardError("rigbook: made \(VisibleText.make(examiner))'s signing key on "
                                                    + "this machine: \(made) (`rigbook keys list`)\n", ours: true)
                }
            }
            return try ring.signer(for: examiner, register: register) { newKey in
                try KeyRing.passphrase(newKey: newKey, environment: environment) {
                    throw KeyError("the key of \(examiner) on this machine is under a passphrase, and a command "
                                   + "has no terminal to ask for it: name a file holding it in "
                                   + "RIGBOOK_KEY_PASSPHRASE_FILE")
                }
            }
        } catch { throw CommandFailure("rigbook: \(error); nothing was saved") }
    }

    /// Opens the register only to read it. A missing register is an error naming the home looked in, never
    /// an empty list: a cron job with the wrong home must not report "nothing needs attention".
    func readRegister() throws(CommandFailure) -> Register {
        if let server { return try ServerReads.replica(of: server, environment: environment) }
        try checkHome()
        announceBringingUpToDate()
        do { return try Register.openForReading(path: home.registerPath) }
        catch .missing {
            throw CommandFailure("rigbook: there is no register in \(home.root) (no \(home.registerPath));"
                                 + " nothing was created. Check --home and RIGBOOK_HOME, or start a register"
                                 + " with `rigbook asset add` or `rigbook sample`.")
        } catch { throw CommandFailure("rigbook: \(error.description)") }
    }

    /// A register of an earlier build is brought up to date once, on the first open: seconds at 100,000 assets,
    /// minutes at a million. Said on a terminal, so nobody takes the wait for a hang; scripts see nothing new.
    private func announceBringingUpToDate() {
        guard isatty(STDERR_FILENO) == 1, Register.willBeBroughtUpToDate(path: home.registerPath) else { return }
        printError(CursesTerminal.forStandardError("rigbook: bringing \(home.registerPath) up to date for this"
                                                   + " version of Rigbook (once; a large register takes a while)…"))
    }

    /// A data home that is a file (a mistyped --home) is one sentence, not a file system error.
    private func checkHome() throws(CommandFailure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: home.root, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CommandFailure("rigbook: the data home \(home.root) is a file, not a folder;"
                                 + " give --home (or RIGBOOK_HOME) a folder.")
        }
    }
}

/// A subcommand in swift-argument-parser's shape: a name, an abstract, usage, a discussion, the table of what it
/// takes, and `run`, which reads its words through that table (usage errors before any work) and does the work.
struct CommandSpec: Sendable {
    let name: String
    let abstract: String
    let usage: String
    let discussion: String
    /// Its options, flags and operands, as `run` reads them: the help's OPTIONS, the man page, the completions.
    let declared: [Declared]
    /// Plumbing the shells' completions call: left out of the overview and of the commands completed.
    let hidden: Bool
    let run: @Sendable (ArgumentWords, Context) throws -> Int32

    init<Table: OptionTable>(name: String, abstract: String, usage: String, discussion: String,
                             options: Table.Type, hidden: Bool = false,
                             run: @escaping @Sendable (inout Arguments<Table>, Context) throws -> Int32) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.hidden = hidden
        declared = Table.declared
        self.run = { words, context in
            var arguments = Arguments<Table>(words)
            return try run(&arguments, context)
        }
    }

    var options: [Declared] { declared.filter { !$0.names.isEmpty } }

    var operands: [Operand] {
        declared.compactMap { if case .operand(let operand) = $0 { operand } else { nil } }
    }

    var helpText: String {
        "\(abstract)\n\nUSAGE: \(usage)\n" + (discussion.isEmpty ? "" : "\n\(discussion)\n")
            + (options.isEmpty ? "" : "\nOPTIONS:\n\(Commands.columns(options.compactMap(\.helpRow), nameWidth: 24))\n")
    }
}

extension Declared {
    /// The option's line in a help's OPTIONS: `--format table|json` and what it does.
    var helpRow: (name: String, text: String)? {
        switch self {
        case .option(let option): (option.name + " " + option.value, option.help)
        case .flag(let flag): (flag.spelling, flag.help)
        case .operand: nil
        }
    }
}

enum Commands {
    static let all: [CommandSpec] = [assetAdd, assetList, assetEdit, assetRetire, importAssets, history, due, calendar,
                                     export, report, certificate, labels, notices, noticesDone,
                                     RecordCommand.spec, TestCommands.importTests, verify, backup, merge,
                                     sync, draftsList, draftsDiscard, draftsPurge, SettingsCommands.get,
                                     SettingsCommands.set, SettingsCommands.add] + KeyCommands.all + [sample, help]
        + ShellCommands.all

    static func find(_ words: [String]) -> (CommandSpec, Int)? {
        if words.count >= 2, let spec = all.first(where: { $0.name == "\(words[0]) \(words[1])" }) { return (spec, 2) }
        if let first = words.first, let spec = all.first(where: { $0.name == first }) { return (spec, 1) }
        return nil
    }

    /// Every option that takes no value, of any command or of rigbook itself.
    static let flagNames = Set((all.flatMap(\.declared) + GlobalOptions.declared).flatMap(\.flagNames))

    /// Rigbook's own flags (`-h`, `--help`, `--version`): never taken for a value.
    static let globalFlagNames = Set(GlobalOptions.declared.flatMap(\.flagNames))

    /// The commands of a group (`asset`, `drafts`): those whose name is the group's word and one more.
    static func group(_ word: String) -> [CommandSpec] {
        all.filter { $0.name.hasPrefix(word + " ") }
    }

    /// `rigbook help asset`: the group's commands, laid out as the overview lays out all of them.
    static func groupHelp(_ word: String) -> String {
        let commands = group(word).map { (String($0.name.dropFirst(word.count + 1)), $0.abstract) }
        return """
            USAGE: rigbook \(word) COMMAND

            COMMANDS:
            \(columns(commands))

            See `rigbook help \(word) COMMAND` for one command.

            """
    }

    /// A group named without one of its commands: its usage, as a usage error (exit 64).
    static func groupWithoutCommand(_ words: [String]) throws(UsageError) -> Int32? {
        guard let word = words.first, !group(word).isEmpty else { return nil }
        if words.count > 1 {
            throw UsageError("\(word) has no command '\(words[1])'; see `rigbook help \(word)`")
        }
        printError("rigbook: \(word) needs a command.\n\n" + groupHelp(word).dropLast())
        return ExitCode.usage
    }

    /// Rigbook's own options, before any command.
    struct GlobalOptions: OptionTable {
        let home = Option("--home", "DIR", "The data home (default: $RIGBOOK_HOME, else $XDG_DATA_HOME/rigbook, else"
                          + " ~/.local/share/rigbook).", kind: .directory)
        let server = Option("--server", "URL", "Read the organisation's server instead (due, export, report,"
                            + " calendar, certificate, notices, verify).")
        let version = Flag("--version", "Print the version.")
        let help = Flag("--help", "Show help; `rigbook help COMMAND` for one command or group.", alias: "-h")
        let command = Operand("COMMAND", missing: "a command", kind: .command, repeats: true)
    }

    static let overview = """
        Rigbook \(RigbookVersion.current) — an offline register of lifting equipment and its inspections.

        USAGE: rigbook [--home DIR] [COMMAND]

        With no command, rigbook opens the register full-screen.

        COMMANDS:
        \(commandLines)

        OPTIONS:
        \(columns(GlobalOptions.declared.compactMap(\.helpRow)))

        ENVIRONMENT:
        \(columns(environment))

        EXIT CODES:
        \(columns(ExitCode.meanings.map { ("\($0.status)", $0.meaning) }))
        """

    /// Every environment variable rigbook reads, with what it does.
    static let environment = [
        ("RIGBOOK_HOME", "The data home (overrides XDG_DATA_HOME and HOME)."),
        ("XDG_DATA_HOME", "Else the data home is $XDG_DATA_HOME/rigbook."),
        ("HOME", "Else the data home is ~/.local/share/rigbook."),
        ("RIGBOOK_TODAY", "Fix today's date (YYYY-MM-DD) for reproducible runs."),
        ("RIGBOOK_DRAFT_RETENTION_DAYS", "Days a draft is kept after its last edit (default 30)."),
        ("NO_COLOR", "Draw the full-screen register without colour."),
        ("TERM", "The terminal type (not dumb) for the full-screen register."),
        ("RIGBOOK_CURSES_DRAW", "1: curses draws the full-screen register's frames (slower; for a terminal the"
            + " direct writer gets wrong)."),
        ("USER", "Who saves records, when the user database does not say."),
        ("RIGBOOK_SERVER", "The server `rigbook sync` uses when given no URL; the full-screen register"
            + " syncs with it in the background."),
        ("RIGBOOK_SYNC_INTERVAL", "Seconds between the full-screen register's background syncs (default 180)."),
        ("XDG_CACHE_HOME", "--server keeps its replica in $XDG_CACHE_HOME/rigbook (else ~/.cache)."),
        ("RIGBOOK_SERVER_CACHE", "off: --server reads through a temporary replica instead."),
        ("RIGBOOK_KEY_PASSPHRASE_FILE", "A file whose first line opens the examiners' keys, for commands without a"
            + " terminal (never an argument, which others can see)."),
    ]

    /// The overview's command list: a line a command, its name padded to a column, then its abstract.
    private static var commandLines: String { columns(all.filter { !$0.hidden }.map { ($0.name, $0.abstract) }) }

    /// Names in a column as wide as the longest (up to `nameWidth`) plus two spaces, then their text, wrapped to 80
    /// columns under itself; a longer name has a line to itself. A name never runs into its text.
    static func columns(_ rows: [(name: String, text: String)], width: Int = 80, nameWidth: Int = 16) -> String {
        let indent = 2 + min(nameWidth, rows.map(\.name.count).max() ?? 0) + 2
        return rows.map { row in
            var lines: [String] = []
            var line = "  " + row.name.padding(toLength: indent - 2, withPad: " ", startingAt: 0)
            if row.name.count > indent - 4 {
                lines.append("  " + row.name)
                line = String(repeating: " ", count: indent)
            }
            var lineHasText = false
            for word in row.text.split(separator: " ") {
                if lineHasText && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = String(repeating: " ", count: indent)
                    lineHasText = false
                }
                line += (lineHasText ? " " : "") + word
                lineHasText = true
            }
            return (lines + [line]).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    struct HelpOptions: OptionTable {
        let command = Operand("COMMAND", missing: "a command", kind: .command, repeats: true)
    }

    static let help = CommandSpec(
        name: "help", abstract: "Show help for rigbook or for one command.",
        usage: "rigbook help [COMMAND]", discussion: "", options: HelpOptions.self
    ) { arguments, _ in
        var words: [String] = []
        while let word = arguments.nextOperand(\.command) { words.append(word) }
        try arguments.finish()
        if words.isEmpty { print(overview); return ExitCode.success }
        // A command that also heads a group (`notices`, `notices done`): its own help, then the group's.
        if words.count == 1, let spec = all.first(where: { $0.name == words[0] }), !group(words[0]).isEmpty {
            let commands = groupHelp(words[0]).components(separatedBy: "\n").drop { !$0.hasPrefix("COMMANDS:") }
            print(spec.helpText + "\n" + commands.joined(separator: "\n"), terminator: "")
            return ExitCode.success
        }
        if words.count == 1, !group(words[0]).isEmpty {
            print(groupHelp(words[0]), terminator: "")
            return ExitCode.success
        }
        guard let (spec, used) = find(words), used == words.count else {
            throw UsageError("no command named '\(words.joined(separator: " "))'; see `rigbook help`")
        }
        print(spec.helpText, terminator: "")
        return ExitCode.success
    }

    /// An asset's fields as `asset add` and `asset edit` take them.
    enum AssetOptions {
        static let name = Option("--name", "TEXT", "What it is, in a few words (2 t web sling 3 m).")
        static let type = Option.choice("--type", EquipmentType.allCases.map(\.rawValue),
                                        "What kind of lifting equipment it is.", value: "TYPE")
        static let wll = Option("--wll", "KG", "Its working load limit in kg.")
        static let interval = Option("--interval", "MONTHS", "Months between thorough examinations (an electrical"
                                     + " item's tests), 1 to 60.", range: Asset.intervalRange)
        static let length = Option("--length", "M", "Its length in metres.")
        static let location = Option("--location", "TEXT", "Where on site it is kept.")
        static let manufacturer = Option("--manufacturer", "TEXT", "Who made it.")
        static let serial = Option("--serial", "TEXT", "Its serial number.")
        static let manufactured = Option("--manufactured", "YYYY-MM-DD", "When it was made.")
        static let commissioned = Option("--commissioned", "YYYY-MM-DD", "When it was first put into service.")
        static let liftsPersons = Flag("--lifts-persons", "It lifts people: examined at least every 6 months.")
        static let scheme = Option("--scheme", "TEXT", "The examination scheme that sets a longer interval.")
        static let clientRef = Option("--client-ref", "TEXT", "The owner's own plant number for it.")
        static let equipmentClass = Option.choice("--class", ElectricalClass.allCases.map(\.rawValue),
                                                  "An electrical item's class.", value: "CLASS")
        static let environment = Option.choice("--environment", ElectricalEnvironment.allCases.map(\.rawValue),
                                               "Where an electrical item is used (AS/NZS 3760 Table 4).",
                                               value: "ENV")
        static let risk = Option.choice("--risk", ElectricalRisk.allCases.map(\.rawValue),
                                        "high halves an electrical item's interval.")
        static let intervalReason = Option("--interval-reason", "TEXT", "Why an electrical item is tested at"
                                           + " another interval than the table's.")
    }

    struct AssetAddOptions: OptionTable {
        let kind = Option.choice("--kind", AssetKind.allCases.map(\.rawValue), "lifting (the default) or electrical.")
        let tag = Option("--tag", "TAG", "Its tag: how labels, lists and commands name it.")
        let name = AssetOptions.name
        let type = AssetOptions.type
        let wll = AssetOptions.wll
        let interval = AssetOptions.interval
        let length = AssetOptions.length
        let site = Option("--site", "SITE", "The register's site it is on, by name or uuid (default: the main site).")
        let location = AssetOptions.location
        let manufacturer = AssetOptions.manufacturer
        let serial = AssetOptions.serial
        let manufactured = AssetOptions.manufactured
        let commissioned = AssetOptions.commissioned
        let liftsPersons = AssetOptions.liftsPersons
        let scheme = AssetOptions.scheme
        let clientRef = AssetOptions.clientRef
        let equipmentClass = AssetOptions.equipmentClass
        let environment = AssetOptions.environment
        let risk = AssetOptions.risk
        let intervalReason = AssetOptions.intervalReason
    }

    static let assetAdd = CommandSpec(
        name: "asset add", abstract: "Add an asset to the register.",
        usage: """
            rigbook asset add --tag TAG --name TEXT --type TYPE --wll KG [--interval MONTHS]
                   [--length M] [--site SITE] [--location TEXT] [--manufacturer TEXT] [--serial TEXT]
                   [--manufactured YYYY-MM-DD] [--commissioned YYYY-MM-DD] [--lifts-persons]
                   [--scheme TEXT] [--client-ref TEXT]
            rigbook asset add --kind electrical --tag TAG --name TEXT --class CLASS
                   --environment ENV [--risk normal|high] [--site SITE] [--location TEXT]
                   [--interval MONTHS --interval-reason TEXT] [--commissioned YYYY-MM-DD]
                   [--client-ref TEXT]
            """,
        discussion: """
            --kind is lifting (the default) or electrical: an item tested and tagged to AS/NZS 3760.
            CLASS is one of: \(ElectricalClass.allCases.map(\.rawValue).joined(separator: " ")).
            ENV is one of: \(ElectricalEnvironment.allCases.map(\.rawValue).joined(separator: " ")).
            An electrical asset is tested every AS/NZS 3760 Table 4 interval for its environment
            (construction and hire 3, factory and cleaning 6, hostile and health-care 12,
            residential 24, non-hostile 60 months), halved at --risk high; another --interval
            needs --interval-reason.
            TYPE is one of: \(EquipmentType.allCases.map(\.rawValue).joined(separator: " ")).
            --interval is the thorough examination interval in months (1–60); without it, 6 for
            accessories and equipment that lifts persons, 12 otherwise: the longest LOLER regulation 9(3)
            allows. A longer interval needs --scheme, the reference of the examination scheme that sets it.
            A tag is one tag whatever its letter case (SL-ß is SL-SS) and may not hold invisible
            characters; --manufactured and --commissioned may not be after today.
            --site puts the asset on one of the register's sites, by name or uuid (the premises a report
            names; `rigbook settings add site NAME` adds one), as `asset edit --site` moves it; without
            it, the main site. --location is where on site it is kept, in your words.
            --client-ref is the owner's own plant number for the asset (their register's, beside
            the tag); the list's filter finds it, and certificates and card labels print it.
            """,
        options: AssetAddOptions.self
    ) { arguments, context in
        let kindWord = try arguments.value(\.kind) ?? "lifting"
        guard let kind = AssetKind(rawValue: kindWord.lowercased()) else {
            throw UsageError("unknown --kind \(kindWord); one of: lifting electrical")
        }
        if kind == .electrical { return try addElectrical(&arguments, context) }
        // Stored in NFC, so a tag typed with a separate accent mark is the tag typed with a composed one.
        let tag = Tags.normalized(try arguments.required(\.tag))
        let name = try arguments.required(\.name)
        let typeWord = try arguments.required(\.type)
        guard let type = EquipmentType(rawValue: typeWord) else {
            let types = EquipmentType.allCases.map(\.rawValue).joined(separator: " ")
            throw UsageError("unknown --type \(typeWord); one of: \(types)")
        }
        let wll = try Parse.positiveNumber(try arguments.required(\.wll), option: "--wll")
        let liftsPersons = arguments.flag(\.liftsPersons)
        let interval = try arguments.int(\.interval) ?? type.defaultIntervalMonths(liftsPersons: liftsPersons)
        let length = try arguments.value(\.length).map { (text: String) throws(UsageError) in
            try Parse.positiveNumber(text, option: "--length")
        }
        let site = try arguments.value(\.site)
        let location = try arguments.value(\.location) ?? ""
        let manufacturer = try arguments.value(\.manufacturer) ?? ""
        let serial = try arguments.value(\.serial) ?? ""
        let manufactured = try arguments.date(\.manufactured)
        let commissioned = try arguments.date(\.commissioned)
        let scheme = try arguments.value(\.scheme) ?? ""
        let clientRef = try arguments.value(\.clientRef) ?? ""
        try arguments.finish()
        let asset = Asset(tag: tag, name: name, type: type, wllKg: wll, lengthM: length, location: location,
                          manufacturer: manufacturer, serialNumber: serial, manufactured: manufactured,
                          commissioned: commissioned, intervalMonths: interval, liftsPersons: liftsPersons,
                          examinationScheme: scheme.trimmingCharacters(in: .whitespaces),
                          clientRef: clientRef.trimmingCharacters(in: .whitespaces))
        let placed = try admit(asset, site: site, context)
        print("Added \(tag) (\(type.label), WLL \(Asset.wllText(wll)), examined every \(interval) months)\(placed).")
        return ExitCode.success
    }

    /// An asset of either kind into the register, on the register's site `siteName` names (nil: the main site), or
    /// every reason it cannot go in. Returns " at site NAME" when a site was named, for the line that says so.
    static func admit(_ asset: Asset, site siteName: String?, _ context: Context) throws -> String {
        let problems = asset.admissionProblems(today: context.today).map(\.message)
        if !problems.isEmpty { throw UsageError(problems.joined(separator: " ")) }
        // The site is found before anything is written, so a wrong name adds nothing; on a home without a register,
        // among a new register's sites, without making one.
        var found: (register: Register?, particulars: Particulars, site: Site)?
        if let siteName {
            let (known, isNew) = try context.registerForDryRun()
            let (particulars, site) = try findSite(known, siteName)
            found = (isNew ? nil : known, particulars, site)
        }
        let register = try found?.register ?? context.openRegister()
        do throws(RegisterError) { try register.addAsset(asset) }
        catch let error where error.refusesTag { throw UsageError(error.description) }
        catch { throw CommandFailure("rigbook: \(error.description)") }
        guard let found else { return "" }
        do { _ = try putOnSite(register, assetUUID: asset.uuid, found.site, found.particulars) } catch let failure {
            let reason = (failure as? CommandFailure)?.message ?? "rigbook: \(failure)"
            throw CommandFailure(reason + "; \(asset.tag) was added on the main site: `rigbook asset edit \(asset.tag)"
                                 + " --site SITE --reason TEXT` moves it")
        }
        return " at site \(found.site.name)"
    }

    /// `asset add --kind electrical`: TagWorks' 8 fields.
    static func addElectrical(_ arguments: inout Arguments<AssetAddOptions>, _ context: Context) throws -> Int32 {
        let tag = Tags.normalized(try arguments.required(\.tag))
        let name = try arguments.required(\.name)
        let classWord = try arguments.required(\.equipmentClass)
        guard let equipmentClass = ElectricalClass(word: classWord) else {
            throw UsageError("unknown --class \(classWord); one of: "
                             + ElectricalClass.allCases.map(\.rawValue).joined(separator: " "))
        }
        let environmentWord = try arguments.required(\.environment)
        guard let environment = ElectricalEnvironment(rawValue: environmentWord.lowercased()) else {
            throw UsageError("unknown --environment \(environmentWord); one of: "
                             + ElectricalEnvironment.allCases.map(\.rawValue).joined(separator: " "))
        }
        let riskWord = try arguments.value(\.risk) ?? "normal"
        guard let risk = ElectricalRisk(rawValue: riskWord.lowercased()) else {
            throw UsageError("unknown --risk \(riskWord); one of: normal high")
        }
        let site = try arguments.value(\.site)
        let location = try arguments.value(\.location) ?? ""
        let interval = try arguments.int(\.interval)
        let reason = try arguments.value(\.intervalReason) ?? ""
        let commissioned = try arguments.date(\.commissioned)
        let clientRef = try arguments.value(\.clientRef) ?? ""
        try arguments.finish()
        let particulars = ElectricalParticulars(equipmentClass: equipmentClass, environment: environment, risk: risk,
                                                intervalReason: reason.trimmingCharacters(in: .whitespaces))
        var asset = Asset.electrical(tag: tag, name: name, site: location, particulars: particulars,
                                     intervalMonths: interval, commissioned: commissioned)
        asset.clientRef = clientRef.trimmingCharacters(in: .whitespaces)
        let placed = try admit(asset, site: site, context)
        print("Added \(tag) (\(equipmentClass.label), \(environment.label.lowercased()), "
              + "tested every \(asset.intervalMonths) months)\(placed).")
        return ExitCode.success
    }

    struct AssetListOptions: OptionTable {
        let format = Option.choice("--format", ["table", "csv", "json"], "How to print the list (default table).")
        let retired = Flag("--retired", "List retired assets too.")
        let kind = Option.kind
    }

    static let assetList = CommandSpec(
        name: "asset list", abstract: "List the assets with their status.",
        usage: "rigbook asset list [--format table|csv|json] [--retired] [--kind lifting|electrical]",
        discussion: """
            Assets in tag order. json is an array of objects (tag, name, type, wll_kg, length_m,
            location, manufacturer, serial_number, manufactured, commissioned, interval_months,
            lifts_persons, last_thorough_examination, latest_result, next_due, remedy_deadline,
            status, uuid, examination_scheme, kind, equipment_class, environment, risk,
            interval_reason, client_ref); csv has the same columns. See docs/FORMATS.md. --retired lists retired
            assets too (status retired); --kind lists one kind only.
            """,
        options: AssetListOptions.self
    ) { arguments, context in
        let format = try arguments.choice(\.format, default: "table")
        let includingRetired = arguments.flag(\.retired)
        let kind = try arguments.value(\.kind).map { (word: String) throws(UsageError) -> AssetKind in
            guard let kind = AssetKind(rawValue: word.lowercased()) else {
                throw UsageError("unknown --kind \(word); one of: lifting electrical")
            }
            return kind
        }
        try arguments.finish()
        let register = try context.readRegister()
        var out = Output()
        if format != "table" {
            // Row by row from the register, as `jsonArray` lays it out: neither the rows nor the text are held
            // (at 1,000,000 assets: 467 MB of JSON, and 600 MB of rows).
            var count = 0
            var failure: StandardStreams.Failure?
            if format == "csv" { try out.write(CSV.row(AssetListing.csvHeader)) }
            try orFail {
                try register.forEachRow(includingRetired: includingRetired) { row in
                    if let kind, row.asset.kind != kind { return true }
                    let listing = AssetListing(row: row, today: context.today)
                    do throws(StandardStreams.Failure) {
                        if format == "csv" { try out.write(CSV.row(listing.csvFields)) }
                        else { try out.write((count == 0 ? "[\n" : ",\n") + listing.json) }
                    } catch {
                        failure = error
                        return false
                    }
                    count += 1
                    return true
                }
            }
            if let failure { throw failure }
            if format == "json" { try out.write(count == 0 ? "[]\n" : "\n]\n") }
            try out.flush()
            return ExitCode.success
        }
        // The table in two reads of one snapshot, holding no row: the first measures the columns, the second
        // writes each line as it reads it again (the rows were 600 MB at 1,000,000 assets).
        let header = ["TAG", "NAME", "TYPE", "WLL", "LOCATION", "LAST EXAM", "NEXT DUE", "STATUS"]
        func cells(_ row: RegisterRow) -> [String] {
            let l = AssetListing(row: row, today: context.today), a = l.asset
            return [a.tag, a.name, a.typeLabel, a.isElectrical ? "—" : Asset.wllText(a.wllKg), a.location,
                    l.lastThoroughExamination ?? "—", l.due.text,
                    AssetStatus(rawValue: l.status)?.label ?? l.status]
        }
        let source = RegisterSource(register, includingRetired: includingRetired) { row in
            kind == nil || row.asset.kind == kind
        }
        var layout = TextTable.Layout(header: header, rightAligned: [3])
        try orFail {
            try register.onOneSnapshot {
                try source.forEachRow { layout.widen(cells($0)) }
                try out.write(layout.line(header))
                try source.forEachRow { try out.write(layout.visibleLine(cells($0))) }
            }
        }
        try out.flush()
        return ExitCode.success
    }

    struct HistoryOptions: OptionTable {
        let format = Option.choice("--format", ["table", "json"], "How to print the history (default table).")
        let tag = Operand.tag
    }

    static let history = CommandSpec(
        name: "history", abstract: "Print an asset's inspection records, newest first.",
        usage: "rigbook history TAG [--format table|json]",
        discussion: """
            json is an array of records, newest first, each with id, asset_tag, asset_uuid, saved_at,
            draft_id, amends, operator, app_version, asset_wll_kg, asset_location, the 17 form
            fields under their stable names (inspection_type, … confirmed), then record_uuid,
            amends_uuid, superseded_by, superseded_by_uuid, amendment_reason and report_number (null
            but for thorough examinations saved since report numbers began), then the report
            particulars of LOLER Schedule 1 (examination_basis … next_examination_by, employer_name,
            employer_address, site_name, site_address, previous_thorough_examination; null where they do
            not apply or were not yet kept) and record_hash. A record superseded
            by an amendment no longer counts for status. Conflicting amendments (one
            record amended on two registers, merged) head the table with a ⚠ line, and
            the json with an entry of kind conflicting_amendments. See docs/FORMATS.md.
            TAG matches whatever its letter case (SL-ß is sl-ss); see docs/USER-GUIDE.md.
            """,
        options: HistoryOptions.self
    ) { arguments, context in
        let format = try arguments.choice(\.format, default: "table")
        let tag = try arguments.operand(\.tag)
        try arguments.finish()
        let register = try context.readRegister()
        let row = try findAsset(register, tag: tag)
        let (records, changes, tests) = try orFail {
            (try register.history(assetUUID: row.asset.uuid), try register.assetChanges(assetUUID: row.asset.uuid),
             try register.tests(assetUUID: row.asset.uuid))
        }
        // Said first in every format, as the full-screen history heads with it: until settled, one of two
        // amendments of a record stands for nothing.
        let conflicts = ConflictingAmendments.among(records)
        var out = Output()
        if format == "json" {
            // An electrical asset's tests come first, newest first, then its changes.
            try out.write(jsonArray(conflicts.map { HistoryExport.json($0, tag: row.asset.tag) }
                                    + tests.map { HistoryExport.json($0, tag: row.asset.tag) }
                                    + HistoryExport.entries(records: records, changes: changes, tag: row.asset.tag))
                          + "\n")
        } else {
            let report = row.status(on: context.today)
            // Made visible like the table's cells: this format is for people, wherever it goes.
            let title = "\(row.asset.tag) · \(row.asset.name) · \(report.status.label): \(report.explanation)"
            try out.write(VisibleText.make(title) + "\n")
            if row.asset.isElectrical {
                let table = tests.map { t -> [String] in
                    ["#\(t.id)", t.values.testDate, t.values.testType.label, t.passed ? "PASS" : "FAIL",
                     t.values.technician, t.values.attachments.map(\.name).joined(separator: ", ")]
                }
                let header = ["ID", "DATE", "TYPE", "RESULT", "TECHNICIAN", "ATTACHMENTS"]
                try out.write(TextTable.render(header: header, rows: table))
            } else {
                let table = records.map { r -> [String] in
                    ["#\(r.id)", r.values.inspectionDate, r.values.inspectionType.label,
                     r.values.result?.label ?? "—",
                     r.values.action.label, r.values.inspectorName, r.amends.map { "#\($0)" } ?? "",
                     // A conflicting amendment that does not stand is superseded by nothing: the other one stands.
                     r.supersededBy.map { "#\($0)" } ?? r.standsInstead ?? ""]
                }
                for conflict in conflicts { try out.write(conflict.warning + "\n") }
                let header = ["ID", "DATE", "TYPE", "RESULT", "ACTION", "INSPECTOR", "AMENDS", "SUPERSEDED BY"]
                try out.write(TextTable.render(header: header, rows: table))
            }
            try out.write(HistoryExport.changesTable(changes))
        }
        try out.flush()
        return ExitCode.success
    }

    struct DraftsListOptions: OptionTable {
        let format = Option.choice("--format", ["table", "json"], "How to print the drafts (default table).")
    }

    static let draftsList = CommandSpec(
        name: "drafts list", abstract: "List unsubmitted drafts (never part of the register).",
        usage: "rigbook drafts list [--format table|json]",
        discussion: """
            Drafts are what was typed into a form and not saved: an inspection or amendment, an asset
            edit, an electrical test, a batch inspection (KIND says which). json is an array of draft files
            as they are on disk (see docs/FORMATS.md; `form_kind` says which), each with `locked_by` when a
            session has it open. Unreadable drafts found on the way are moved to Drafts/Corrupt/ and
            reported on stderr.
            """,
        options: DraftsListOptions.self
    ) { arguments, context in
        let format = try arguments.choice(\.format, default: "table")
        try arguments.finish()
        _ = try context.readRegister() // drafts belong to a register: a wrong home is said, not listed empty
        let store = DraftStore(home: context.home)
        let (entries, singleSetAside) = store.entries()
        let (batches, batchSetAside) = store.batchEntries()
        for file in singleSetAside + batchSetAside {
            printError("rigbook: moved unreadable draft \(file.file) to \(store.corruptFolder) (\(file.reason))")
        }
        var out = Output()
        // Every kind together, newest first.
        let listings = (entries.map(DraftListing.init) + batches.map(DraftListing.init))
            .sorted { $0.updatedAt > $1.updatedAt }
        if format == "json" {
            try out.write(try JSONOutput.encode(listings) + "\n")
        } else {
            let now = Date()
            let rows = listings.map { e -> [String] in
                let age = Timestamp.parse(e.updatedAt).map { Elapsed.text(now.timeIntervalSince($0)) } ?? "?"
                let state = e.lockedBy.map { "open by \($0.user) (pid \($0.pid))" } ?? ""
                return [e.draftID, e.assets, e.kind, age, e.operatorName, e.host, state]
            }
            let header = ["ID", "ASSET", "KIND", "AGE", "OPERATOR", "HOST", "STATE"]
            try out.write(TextTable.render(header: header, rows: rows))
        }
        try out.flush()
        return ExitCode.success
    }

    struct DraftsDiscardOptions: OptionTable {
        let id = Operand("ID", missing: "the draft ID")
    }

    static let draftsDiscard = CommandSpec(
        name: "drafts discard", abstract: "Delete one draft for good.",
        usage: "rigbook drafts discard ID",
        discussion: "ID is a draft id (inspection-, asset-, test- or batch-<uuid>) or any beginning of one that"
            + " names a single draft:"
            + " the id as `drafts list` cuts it (…) will do; `drafts list --format json` prints ids whole."
            + " A draft open in a session is refused.",
        options: DraftsDiscardOptions.self
    ) { arguments, context in
        let given = try arguments.operand(\.id)
        try arguments.finish()
        let prefix = String(given.hasSuffix("…") ? given.dropLast() : given[...]).lowercased()
        guard DraftStore.isAnyDraftIDPrefix(prefix) else {
            throw UsageError("\(given) is not a draft id (they look like inspection-, asset-, test- or batch-<uuid>;"
                             + " see `rigbook drafts list`)")
        }
        let store = DraftStore(home: context.home)
        let matches = store.anyIDs(startingWith: prefix)
        guard matches.count < 2 else {
            let listed = matches.joined(separator: ", ")
            throw CommandFailure("rigbook: \(given) begins \(matches.count) drafts (\(listed)); give more of the id")
        }
        guard let id = matches.first else { throw CommandFailure("rigbook: there is no draft \(given)") }
        // Holding the lock while deleting: nobody can be typing into it meanwhile.
        guard case .acquired(let lock) = store.lock(id: id) else {
            let holder = store.holder(id: id).map { " (\($0.description))" } ?? ""
            throw CommandFailure("rigbook: draft \(id) is open in a session\(holder); not discarded")
        }
        defer { lock.release() }
        let named = AttachmentHousekeeping.hashes(ofDraft: id, in: store)
        do throws(DraftStoreError) { try store.delete(id: id) }
        catch { throw CommandFailure("rigbook: \(error.description)") }
        // Its photos go too, unless a record or another draft names them (no register read: none go).
        let removed = (try? context.readRegister()).map {
            AttachmentHousekeeping.release(named, home: context.home, register: $0)
        } ?? 0
        let files = removed == 1 ? "1 attached file" : "\(removed) attached files"
        print("Discarded draft \(id)" + (removed > 0 ? " and \(files)." : "."))
        return ExitCode.success
    }

    struct DraftsPurgeOptions: OptionTable {
        let olderThan = Option("--older-than", "DAYS", "Remove drafts last edited more than DAYS ago (default:"
                               + " RIGBOOK_DRAFT_RETENTION_DAYS, else 30).", range: 0...36_500)
    }

    static let draftsPurge = CommandSpec(
        name: "drafts purge", abstract: "Remove drafts already saved or older than the retention.",
        usage: "rigbook drafts purge [--older-than DAYS]",
        discussion: """
            Removes drafts whose form was already saved and drafts last edited more than DAYS ago (default:
            RIGBOOK_DRAFT_RETENTION_DAYS, else 30); moves unreadable ones to Drafts/Corrupt/. The same
            pass runs each time the full-screen register starts.
            """,
        options: DraftsPurgeOptions.self
    ) { arguments, context in
        let days = try arguments.int(\.olderThan) ?? context.draftRetentionDays
        try arguments.finish()
        let register = try context.readRegister()
        let report = DraftStore(home: context.home).housekeeping(register: register, retentionDays: days)
        try Output.line(report.summary ?? "Nothing to purge.")
        return ExitCode.success
    }

    struct VerifyOptions: OptionTable {
        let head = Option("--head", "HASH", "Also check that this head, printed earlier, is still in the register.")
        let certificate = Option("--certificate", "FILE", "Check a certificate (PDF or HTML) instead, without the"
                                 + " register.", kind: .file)
        let key = Option("--key", "EXAMINER.pem", "The examiner's published key the certificate must be signed"
                         + " with.", kind: .file)
    }

    static let verify = CommandSpec(
        name: "verify", abstract: "Check the register's hash chain: no record altered or removed.",
        usage: "rigbook verify [--head HASH] | rigbook verify --certificate FILE [--key EXAMINER.pem]",
        discussion: """
            Recomputes the SHA-256 of every entry (each asset as added, each inspection record) from its
            canonical content and its parent's hash, and checks that every parent and the head are in the
            register. Then checks that every record keeps the number it came in with, and folds every
            asset's status again from its records: a status or a number changed behind Rigbook's back is
            named. Prints one line with the count and the head (exit 0), or names the first entry that does
            not match and every record number and asset status that does not hold (exit 1). --head HASH
            also checks that a head printed earlier (on a certificate, in a log) is still in the register,
            so removing the newest entries is found too. Not found: a register deleted whole, or replaced
            by an older copy of itself (keep a head printed earlier and give it to --head). Each record's
            signature is checked against its examiner's key: one signed by a key the register does not hold, by
            a key retired before the record was saved, or that does not match its record is named like a broken
            hash. --certificate FILE checks a certificate (PDF or HTML) on any machine, without the register:
            each signed record it carries against its signature and key, and on a page, what the page prints
            of the record against the record. A certificate carries its own key, so it also says whether the
            key is one this data home's register holds; --key EXAMINER.pem (`rigbook keys export`) requires
            the examiner's published key. See docs/FORMATS.md.
            """,
        options: VerifyOptions.self
    ) { arguments, context in
        if let file = try arguments.value(\.certificate) {
            let key = try arguments.value(\.key)
            try arguments.finish()
            return try verifyCertificate(file, key: key, context: context)
        }
        let expected = try arguments.value(\.head)
        if let expected, expected.count != 64 || !expected.allSatisfy(\.isHexDigit) {
            throw UsageError("--head must be a SHA-256 of 64 hex digits, not \(expected)")
        }
        try arguments.finish()
        let register = try context.readRegister()
        // One snapshot: a save in another terminal while the chain is read is not taken for a removed entry.
        let result = try orFail { try register.onOneSnapshot { try register.verifyChain(expectedHead: expected) } }
        if !result.problems.isEmpty {
            // Named one by one up to a screenful; a register forged wholesale is said in a count.
            let named = result.problems.prefix(40).map { "rigbook: verify failed: \($0)" }
            let more = result.problems.count - named.count
            throw CommandFailure((named + (more > 0 ? ["rigbook: verify failed: and \(more) more like these"] : []))
                .joined(separator: "\n"))
        }
        // Said, not failed: an older Rigbook saves records unsigned; so does someone who removes a signature.
        for note in result.unsignedAfterKeys.prefix(40) { printError("rigbook: note: \(note)") }
        if result.unsignedAfterKeys.count > 40 {
            printError("rigbook: note: and \(result.unsignedAfterKeys.count - 40) more records like these")
        }
        var out = Output()
        let entries = result.entries == 1 ? "1 entry" : "\(result.entries) entries"
        let count = result.signatures
        let signed = count == 0 ? ""
            : "; \(count) signature\(count == 1 ? "" : "s") checked against the examiners' keys"
        try out.write("verified \(entries); head \(result.head ?? "none (an empty register)")\(signed)\n")
        try out.flush()
        return ExitCode.success
    }

    /// `verify --certificate FILE`: a line a signed record, exit 1 when any does not hold.
    /// A certificate carries its own key: anyone can make one that holds by itself. The key is then weighed against
    /// the examiner's published one (`--key`), or the register of this data home, where there is one.
    private static func verifyCertificate(_ file: String, key keyFile: String?, context: Context) throws -> Int32 {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure("rigbook: cannot read \(file)")
        }
        let shown = VisibleText.make(file)
        var published: PublicKey?
        if let keyFile {
            guard let text = try? String(contentsOfFile: keyFile, encoding: .utf8),
                  let key = try? PublicKey(pem: text) else {
                throw CommandFailure("rigbook: \(keyFile) is not an Ed25519 public key in PEM")
            }
            published = key
        }
        let findings: [CertificateCheck.Finding]
        do { findings = try CertificateCheck.check(Array(data)) } catch {
            throw CommandFailure("rigbook: \(shown): \(error)")
        }
        var failed = findings.compactMap { finding in
            finding.problem.map { "record \(finding.recordUUID.lowercased()) signed by \(finding.examiner): \($0)" }
        }
        if let published {
            failed += findings.filter { $0.fingerprint != published.fingerprint }.map {
                "record \($0.recordUUID.lowercased()) is signed by key \($0.shortFingerprint), not the key given "
                    + "(\(published.shortFingerprint))"
            }
        }
        guard failed.isEmpty else {
            throw CommandFailure(failed.map { "rigbook: \(shown): \($0)" }.joined(separator: "\n"))
        }
        // The keys this data home's register holds, and what it knows since of each record, where it has one:
        // said, never required (a page's "Amended by" banner is the register's, not the signed record's).
        let register = FileManager.default.fileExists(atPath: context.home.registerPath)
            ? try? Register.openForReading(path: context.home.registerPath) : nil
        let held = try? register?.examinerKeys()
        var out = Output()
        for finding in findings {
            let known = held?.first { $0.fingerprint == finding.fingerprint }
            let standing = published != nil ? "the key given"
                : known.map { "a key of this register's \(VisibleText.make($0.examiner))" }
                ?? "compare its fingerprint \(finding.fingerprint) with the examiner's published key "
                    + "(--key, from `rigbook keys export`)"
            try out.write("\(shown): record \(finding.recordUUID.lowercased()) signed by \(finding.examiner), key "
                          + "\(finding.shortFingerprint) (\(standing)): the signature holds\n")
            if let uuid = UUID(uuidString: finding.recordUUID),
               let newer = (try? register?.inspection(uuid: uuid))??.supersededByUUID,
               let amendment = try? register?.inspection(uuid: newer) {
                try out.write("\(shown): this register holds an amendment of record "
                              + "\(finding.recordUUID.lowercased()): #\(amendment.id)"
                              + (amendment.reportNumber.map { ", report \($0)" } ?? "")
                              + ", the report that stands\n")
            }
        }
        try out.flush()
        return ExitCode.success
    }

    struct SampleOptions: OptionTable {
        let assets = Option("--assets", "N", "How many assets to make (default 200, at most 1,000,000).",
                            range: 1...1_000_000)
        let seed = Option("--seed", "S", "The random seed (default 42): the same seed and day give the same"
                          + " register.")
    }

    static let sample = CommandSpec(
        name: "sample", abstract: "Fill an empty register with realistic sample data.",
        usage: "rigbook sample [--assets N] [--seed S]",
        discussion: """
            Makes N assets (default 200, at most 1,000,000) with years of history: about one in five an
            electrical item (test and tag) with its tests, the rest lifting equipment with its inspections. The
            same seed (default 42) and day give the same register. Only an empty register is filled.
            """,
        options: SampleOptions.self
    ) { arguments, context in
        let count = try arguments.int(\.assets) ?? 200
        let seed = try arguments.value(\.seed).map { (text: String) throws(UsageError) -> UInt64 in
            guard let value = UInt64(text) else { throw UsageError("--seed must be a whole number ≥ 0, not \(text)") }
            return value
        } ?? 42
        try arguments.finish()
        let register = try context.openRegister()
        try orFail {
            let existing = try register.assetCount()
            if existing > 0 {
                throw CommandFailure("rigbook: the register at \(register.path) already holds \(existing) assets;"
                                     + " sample fills only an empty register (try --home with a new folder)")
            }
            let started = Date()
            let showProgress = isatty(STDERR_FILENO) != 0 && count >= 20_000
            try SampleData(count: count, seed: seed, today: context.today).load(into: register) { done in
                if showProgress { StandardStreams.toStandardError("\rsample: \(done)/\(count) assets", ours: true) }
            }
            if showProgress { StandardStreams.toStandardError("\n", ours: true) }
            let records = try register.recordCount(), tests = try register.testCount()
            let electrical = SampleData.electricalCount(of: count)
            let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
            print("Made \(count) assets (\(count - electrical) lifting, \(electrical) electrical) with \(records)"
                  + " inspection records and \(tests) electrical tests in \(seconds) s at \(register.path).")
        }
        return ExitCode.success
    }

}

enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A plain text table for humans, aligned by display width, control characters made visible. Cells are
/// cut at 40 columns, except in the last column, which aligns nothing after it (`due` says there why an
/// item must not be used, and that sentence must be read whole).
enum TextTable {
    static func render(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        let cells = rows.map { $0.map(VisibleText.make) }
        var layout = Layout(header: header, rightAligned: rightAligned)
        for row in cells { layout.widen(visibleCells: row) }
        return layout.line(header) + cells.map(layout.line).joined()
    }

    /// The column widths, found a row at a time, so a long table can be measured in one pass and written in
    /// another without holding its rows (`due`).
    struct Layout {
        private var widths: [Int]
        private let rightAligned: Set<Int>

        init(header: [String], rightAligned: Set<Int> = []) {
            widths = header.map(\.displayWidth)
            self.rightAligned = rightAligned
        }

        /// Every column but the last is at most 40 wide (a longer cell overruns it).
        mutating func widen(visibleCells row: [String]) {
            for (i, cell) in row.enumerated() {
                widths[i] = max(widths[i], i == widths.count - 1 ? cell.displayWidth : min(40, cell.displayWidth))
            }
        }

        mutating func widen(_ row: [String]) { widen(visibleCells: row.map(VisibleText.make)) }

        /// A row of cells already made visible (the header is).
        func line(_ row: [String]) -> String {
            row.enumerated().map { i, cell in cell.padded(toWidth: widths[i], alignRight: rightAligned.contains(i)) }
                .joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }

        func visibleLine(_ row: [String]) -> String { line(row.map(VisibleText.make)) }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

/// A draft file as `drafts list --format json` prints it: the file's fields plus who has it open.
struct DraftListing: Encodable {
    /// The draft file as on disk: a single form's or a batch's.
    let file: any Encodable & Sendable
    let lockedBy: LockHolder?
    let draftID: String
    /// The table's ASSET: a single form's tag, a batch's first tag and how many more.
    let assets: String
    /// The table's KIND: inspection, amendment, asset edit, test, batch.
    let kind: String
    let updatedAt: String
    let operatorName: String
    let host: String

    init(_ entry: DraftEntry) {
        let draft = entry.draft
        file = draft
        lockedBy = entry.lockedBy
        draftID = draft.draftID
        assets = draft.assetTag
        kind = draft.isAssetEdit ? "asset edit" : draft.isTest ? "test" : draft.isAmendment ? "amendment" : "inspection"
        updatedAt = draft.updatedAt
        operatorName = draft.operatorName
        host = draft.host
    }

    init(_ entry: BatchDraftEntry) {
        let draft = entry.draft
        file = draft
        lockedBy = entry.lockedBy
        draftID = draft.draftID
        let tags = draft.assets.map(\.assetTag)
        assets = (tags.first ?? "") + (tags.count > 1 ? " +\(tags.count - 1)" : "")
        kind = "batch"
        updatedAt = draft.updatedAt
        operatorName = draft.operatorName
        host = draft.host
    }

    enum CodingKeys: String, CodingKey { case lockedBy = "locked_by" }

    func encode(to encoder: Encoder) throws {
        try file.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(lockedBy, forKey: .lockedBy)
    }
}
