import Foundation
import RigbookCore
import RigbookStore

/// `rigbook settings get|set|add`: the register's particulars from a shell. A key is a kind of
/// particular and one of its fields (`employer.address`); which employer, site, examiner or asset is named by
/// an option, so any name works, spaces, dots and all. See docs/DECISIONS.md, "Settings keys".
enum SettingsCommands {
    /// The kinds of particular, as keys begin.
    enum Kind: String, CaseIterable {
        /// `limits.*`: the electrical test limits, kept in the organisation's particulars.
        case organisation, limits, employer, site, examiner, asset

        /// The option that says which one (`--employer`…); nil for the one organisation (and its limits).
        var selector: String? { self == .organisation || self == .limits ? nil : "--" + rawValue }

        /// Its fields, in the order the Settings screen shows them.
        var fields: [ParticularField] {
            switch self {
            case .organisation: ParticularsChange.organisation(ExaminingOrganisation()).fields
            case .limits: ParticularField.limitFields
            case .employer: ParticularsChange.employer(Employer(name: "")).fields
            case .site: ParticularsChange.site(Site(employerUUID: UUID(), name: "")).fields
            case .examiner: ParticularsChange.examiner(Examiner(name: "")).fields
            case .asset: ParticularsChange.asset(AssetParticulars(assetUUID: UUID())).fields
            }
        }
    }

    /// A settings key: `kind.field`.
    struct Key: Equatable {
        let kind: Kind
        let field: ParticularField
        var name: String { "\(kind.rawValue).\(field.rawValue)" }
    }

    static let keys: [Key] = Kind.allCases.flatMap { kind in kind.fields.map { Key(kind: kind, field: $0) } }

    static let keyList = keys.map(\.name).joined(separator: " ")

    static func key(_ word: String) throws(UsageError) -> Key {
        guard let key = keys.first(where: { $0.name == word.lowercased() }) else {
            throw UsageError("unknown settings key \(word); the keys are: \(keyList)")
        }
        return key
    }

    /// The options that pick whose particulars a key is: `settings get` and `settings set` take them.
    protocol SelectingOptions: OptionTable {
        var employer: Option { get }
        var site: Option { get }
        var examiner: Option { get }
        var asset: Option { get }
    }

    static let employerOption = Option("--employer", "NAME", "The employer, by name or uuid (default: the main one).")
    static let siteOption = Option("--site", "NAME", "The site, by name or uuid (default: the main one).")
    static let examinerOption = Option("--examiner", "NAME", "The examiner, by name or uuid.")
    static let assetOption = Option("--asset", "TAG", "The asset.", kind: .tag)
    static let keyValues = ValueKind.choices(keys.map(\.name))

    struct GetOptions: SelectingOptions {
        let key = Operand("KEY", missing: "the settings KEY", kind: keyValues)
        let employer = employerOption
        let site = siteOption
        let examiner = examinerOption
        let asset = assetOption
        let format = Option.choice("--format", ["text", "json"], "How to print every particular (default text).")
    }

    struct SetOptions: SelectingOptions {
        let key = Operand("KEY", missing: "the settings KEY", kind: keyValues)
        let value = Operand("VALUE", missing: "the VALUE")
        let employer = employerOption
        let site = siteOption
        let examiner = examinerOption
        let asset = assetOption
    }

    /// The selecting options, read before any positional word (so an option's value is never taken for one).
    struct Selectors {
        var employer: String?
        var site: String?
        var examiner: String?
        var asset: String?

        init<Table: SelectingOptions>(_ arguments: inout Arguments<Table>) throws(UsageError) {
            employer = try arguments.value(\.employer)
            site = try arguments.value(\.site)
            examiner = try arguments.value(\.examiner)
            asset = try arguments.value(\.asset)
        }

        /// Refuses options that do not go with `kind` (a site may be narrowed by its employer).
        func check(for key: Key) throws(UsageError) {
            let given: [(String, String?)] = [("--employer", employer), ("--site", site), ("--examiner", examiner),
                                              ("--asset", asset)]
            for (option, value) in given where value != nil {
                let fits = option == key.kind.selector || (key.kind == .site && option == "--employer")
                if !fits { throw UsageError("\(key.name) takes no \(option)") }
            }
            if key.kind == .examiner && examiner == nil { throw UsageError("\(key.name) needs --examiner NAME") }
            if key.kind == .asset && asset == nil { throw UsageError("\(key.name) needs --asset TAG") }
        }
    }

    // MARK: Finding particulars by name

    /// The one whose uuid is `given`, else whose name is `given` (ignoring case and spaces at the ends).
    /// None is a failure that lists what there is; several, one that lists them (`describe`d) with their uuids.
    static func pick<T>(_ given: String, among items: [T], kind: String, option: String, uuid: (T) -> UUID,
                        name: (T) -> String, describe: ((T) -> String)? = nil) throws(CommandFailure) -> T {
        func label(_ item: T) -> String { describe?(item) ?? name(item) }
        if let byUUID = items.first(where: { uuid($0).uuidString.caseInsensitiveCompare(given) == .orderedSame }) {
            return byUUID
        }
        let matches = items.filter { Particulars.nameKey(name($0)) == Particulars.nameKey(given) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            let names = items.map(label)
            throw CommandFailure("rigbook: no \(kind) named \(given)"
                                 + (names.isEmpty ? "; there is none yet" : "; the \(kind)s are: "
                                    + names.joined(separator: ", ")))
        }
        let listed = matches.map { "\(label($0)) (\(uuid($0).uuidString))" }.joined(separator: ", ")
        throw CommandFailure("rigbook: \(matches.count) \(kind)s are named \(given): \(listed);"
                             + " give \(option) one of these uuids")
    }

    static func employer(_ given: String?, in particulars: Particulars) throws(CommandFailure) -> Employer {
        guard let given else {
            if let main = particulars.employers[Particulars.mainEmployerUUID] { return main }
            guard particulars.employers.count == 1, let only = particulars.employerList.first else {
                throw CommandFailure("rigbook: the register has no main employer; give --employer NAME")
            }
            return only
        }
        return try pick(given, among: particulars.employerList, kind: "employer", option: "--employer",
                        uuid: \.uuid, name: \.name)
    }

    /// `--site`, among the sites of `--employer` when it is given too; without `--site`, the main site, or
    /// the employer's only site.
    static func site(_ given: String?, employer: String?, in particulars: Particulars) throws(CommandFailure) -> Site {
        var sites = particulars.siteList
        var owner: Employer?
        if let employer {
            let found = try self.employer(employer, in: particulars)
            owner = found
            sites = sites.filter { $0.employerUUID == found.uuid }
        }
        guard let given else {
            if let owner {
                guard sites.count == 1 else {
                    throw CommandFailure("rigbook: \(owner.name) has \(sites.count) sites"
                                         + (sites.isEmpty ? "" : " (\(sites.map(\.name).joined(separator: ", ")))")
                                         + "; give --site NAME")
                }
                return sites[0]
            }
            guard let main = particulars.sites[Particulars.mainSiteUUID] else {
                throw CommandFailure("rigbook: the register has no main site; give --site NAME")
            }
            return main
        }
        // Sites of different employers may share a name: their employers tell them apart in a refusal.
        return try pick(given, among: sites, kind: "site", option: "--site", uuid: \.uuid, name: \.name,
                        describe: { site in
                            site.name + (particulars.employers[site.employerUUID].map { " of \($0.name)" } ?? "")
                        })
    }

    static func examiner(_ given: String, in particulars: Particulars) throws(CommandFailure) -> Examiner {
        try pick(given, among: particulars.examinerList, kind: "examiner", option: "--examiner", uuid: \.uuid,
                 name: \.name)
    }

    /// The asset tagged `tag` (its tag folded as everywhere else).
    static func asset(_ tag: String, in register: Register) throws -> RegisterRow {
        guard let row = try orFail({ try register.asset(tag: tag) }) else {
            if let problem = Tags.invisibleCharacterProblem(tag) {
                throw CommandFailure("rigbook: no asset has that tag. \(problem)")
            }
            throw CommandFailure("rigbook: no asset tagged \(tag) in the register")
        }
        return row
    }

    /// The version in force of the particular `key` names.
    static func subject(_ key: Key, _ selectors: Selectors, in particulars: Particulars,
                        register: Register) throws -> (change: ParticularsChange, title: String) {
        switch key.kind {
        case .organisation:
            return (.organisation(particulars.organisation), "the examining organisation")
        case .limits:
            return (.organisation(particulars.organisation), "the electrical test limits")
        case .employer:
            let e = try employer(selectors.employer, in: particulars)
            return (.employer(e), "employer \(e.name)")
        case .site:
            let s = try site(selectors.site, employer: selectors.employer, in: particulars)
            return (.site(s), "site \(s.name)")
        case .examiner:
            let e = try examiner(selectors.examiner ?? "", in: particulars)
            return (.examiner(e), "examiner \(e.name)")
        case .asset:
            let row = try asset(selectors.asset ?? "", in: register)
            return (.asset(particulars.asset(row.asset.uuid)), "asset \(row.asset.tag)")
        }
    }

    /// A field's value as `get` prints it: an employer or a site by name, self-employed as yes or no.
    static func value(_ field: ParticularField, of change: ParticularsChange, in particulars: Particulars) -> String {
        let raw = change[field]
        switch field {
        case .employer: return UUID(uuidString: raw).flatMap { particulars.employers[$0]?.name } ?? raw
        case .site: return UUID(uuidString: raw).flatMap { particulars.sites[$0]?.name } ?? raw
        default: return raw
        }
    }

    /// The text `set` stores for `value`: an employer or a site named becomes its uuid, yes/no is checked.
    static func stored(_ value: String, for key: Key, in particulars: Particulars) throws -> String {
        switch key.field {
        case .employer: return try employer(value, in: particulars).uuid.uuidString
        case .site: return try site(value, employer: nil, in: particulars).uuid.uuidString
        case .selfEmployed:
            switch value.trimmingCharacters(in: .whitespaces).lowercased() {
            case "yes", "true", "1": return "yes"
            case "no", "false", "0": return "no"
            default: throw UsageError("\(key.name) must be yes or no, not \(value)")
            }
        case let limit where limit.isLimit:
            let text = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard NumberText.decimal(text) != nil else {
                throw UsageError("\(key.name) must be a decimal number (1000, 0.5), not \(value)")
            }
            return text
        case .colourCode:
            let words = ColourCodeScheme.allCases.map(\.rawValue)
            guard let scheme = ColourCodeScheme(rawValue: value.trimmingCharacters(in: .whitespaces).lowercased())
            else { throw UsageError("\(key.name) must be one of \(words.joined(separator: ", ")), not \(value)") }
            return scheme.rawValue
        default: return value
        }
    }

    // MARK: Writing

    /// Records `change` (trimmed), turning refusals into the exit codes of the other commands: what was given
    /// is wrong, 64; the register could not be written, 1. Returns whether a new version was kept.
    static func record(_ change: ParticularsChange, in register: Register, current: Particulars) throws -> Bool {
        let change = change.trimmed
        let problems = change.problems(in: current)
        if !problems.isEmpty { throw UsageError(problems.joined(separator: " ") + " Nothing was recorded.") }
        do throws(RegisterError) { return try register.record(change) }
        catch .invalidParticulars(let problems) {
            throw UsageError(problems.joined(separator: " ") + " Nothing was recorded.")
        } catch { throw CommandFailure("rigbook: \(error.description)") }
    }

    // MARK: Listing

    /// The `get` listing: a heading per particular naming what selects it, then `key = value`, line breaks
    /// written `\n` (and a backslash `\\`) so that each value is one line.
    static func listing(_ particulars: Particulars, assets: [(tag: String, particulars: AssetParticulars)]) -> String {
        var sections: [String] = []
        func section(_ heading: String?, _ kind: Kind, _ change: ParticularsChange) {
            sections.append(SettingsCommands.section(heading, kind, change, in: particulars))
        }
        section(nil, .organisation, .organisation(particulars.organisation))
        let defaults = particulars.organisation.testLimits == .defaults ? "  (the defaults)" : ""
        section("[electrical test limits]" + defaults, .limits, .organisation(particulars.organisation))
        for e in particulars.employerList {
            let main = e.uuid == Particulars.mainEmployerUUID ? "  (main: the default)" : ""
            section("[employer \"\(escaped(e.name))\"]\(main)", .employer, .employer(e))
        }
        for s in particulars.siteList {
            let main = s.uuid == Particulars.mainSiteUUID ? "  (main: the default)" : ""
            let employer = particulars.employers[s.employerUUID].map { " of \"\(escaped($0.name))\"" } ?? ""
            section("[site \"\(escaped(s.name))\"\(employer)]\(main)", .site, .site(s))
        }
        for e in particulars.examinerList {
            section("[examiner \"\(escaped(e.name))\"]", .examiner, .examiner(e))
        }
        for asset in assets {
            section("[asset \"\(escaped(asset.tag))\"]", .asset, .asset(asset.particulars))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `get --format json`: every particular in force, as the register keeps them (docs/FORMATS.md).
    struct ListingJSON: Encodable {
        struct AssetEntry: Encodable {
            let tag: String
            let particulars: AssetParticulars

            enum CodingKeys: String, CodingKey { case tag }

            func encode(to encoder: Encoder) throws {
                try particulars.encode(to: encoder)
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(tag, forKey: .tag)
            }
        }
        let organisation: ExaminingOrganisation
        /// The test limits in force, defaults and all (the organisation's `test_limits` only when set).
        let limits: TestLimits
        let employers: [Employer]
        let sites: [Site]
        let examiners: [Examiner]
        let assets: [AssetEntry]
    }

    /// One subject's particulars: its heading (if any), then a `KEY = VALUE` line a field, line breaks as `\n`.
    static func section(_ heading: String?, _ kind: Kind, _ change: ParticularsChange,
                        in particulars: Particulars) -> String {
        let lines = kind.fields.map { field in
            "\(kind.rawValue).\(field.rawValue) = " + escaped(value(field, of: change, in: particulars))
        }
        return ((heading.map { [$0] } ?? []) + lines).joined(separator: "\n")
    }

    /// A value on one line: a line break written `\n`, and so a backslash `\\`.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// The kind the selectors given without a KEY name one subject of: the asset, the examiner, the site (which
    /// `--employer` may narrow), else the employer.
    static func kind(selectedBy selectors: Selectors) throws(UsageError) -> Kind? {
        let chosen: [(Kind, String?)] = [(.asset, selectors.asset), (.examiner, selectors.examiner),
                                         (.site, selectors.site)]
        let given = chosen.filter { $0.1 != nil }.map(\.0)
        if given.count > 1 || (selectors.employer != nil && (selectors.asset ?? selectors.examiner) != nil) {
            throw UsageError("give one of --employer (with --site), --site, --examiner or --asset without a KEY")
        }
        return given.first ?? (selectors.employer != nil ? .employer : nil)
    }

    /// The assets that have particulars of their own, with their tags, in tag order.
    static func assetsWithParticulars(_ particulars: Particulars, in register: Register)
        throws -> [(tag: String, particulars: AssetParticulars)] {
        try particulars.assets.values.map { asset in
            (try orFail { try register.asset(uuid: asset.assetUUID) }?.asset.tag ?? asset.assetUUID.uuidString, asset)
        }.sorted { $0.tag < $1.tag }
    }

    // MARK: Commands

    /// The keys for help: a kind a line (wrapped at 80 columns).
    static var keyLines: String {
        Kind.allCases.map { kind in
            var lines = ["  "]
            for key in keys where key.kind == kind {
                if lines[lines.count - 1].count + key.name.count + 1 > 80 { lines.append("  ") }
                lines[lines.count - 1] += (lines[lines.count - 1] == "  " ? "" : " ") + key.name
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static let keysDiscussion = """
        KEY is one of:
        \(keyLines)

        employer.* keys are the main employer's unless --employer NAME|UUID says which; site.* keys the
        main site's unless --site NAME|UUID does (--employer narrows the search, and alone picks the
        employer's only site); examiner.* keys need --examiner NAME|UUID and asset.* keys --asset TAG.
        limits.* keys are the electrical test limits (a number each: ohms, megohms, milliamps,
        milliseconds, months), kept with the organisation's particulars.
        Names are matched ignoring letter case; a name that several share is refused with their uuids.
        """

    static let get = CommandSpec(
        name: "settings get", abstract: "Print the register's particulars: one key, or all of them.",
        usage: """
            rigbook settings get [KEY] [--employer NAME] [--site NAME] [--examiner NAME]
                   [--asset TAG] [--format text|json]
            """,
        discussion: keysDiscussion + "\n\n" + """
            With KEY, its value is printed as it is (an address over several lines, an employer or a site by
            name, self_employed as yes or no). Without, every particular is printed: a heading naming it, then
            KEY = VALUE lines with line breaks written \\n; assets only when they have particulars of their
            own (the others are on the main site). --format json prints them as JSON (docs/FORMATS.md).
            Without KEY but with --asset, --examiner, --site or --employer, that one's particulars are printed
            the same way.
            """,
        options: GetOptions.self
    ) { arguments, context in
        let selectors = try Selectors(&arguments)
        let format = try arguments.choice(\.format, default: "text")
        let word = arguments.nextOperand(\.key)
        try arguments.finish()
        let key = try word.map { (word: String) throws(UsageError) in try SettingsCommands.key(word) }
        if let key {
            if format != "text" { throw UsageError("--format goes with settings get without a KEY") }
            try selectors.check(for: key)
        }
        let one = key == nil ? try kind(selectedBy: selectors) : nil
        if one != nil, format != "text" { throw UsageError("--format json goes with settings get without options") }
        let register = try context.readRegister()
        let particulars = try orFail { try register.particulars() }
        var out = Output()
        if let key {
            let (change, _) = try subject(key, selectors, in: particulars, register: register)
            try out.write(value(key.field, of: change, in: particulars) + "\n")
        } else if let one, let first = keys.first(where: { $0.kind == one }) {
            // One subject, picked by its option: its section, as in the whole listing.
            let (change, title) = try subject(first, selectors, in: particulars, register: register)
            try out.write(section("[\(title)]", one, change, in: particulars) + "\n")
        } else {
            let assets = try assetsWithParticulars(particulars, in: register)
            if format == "json" {
                let json = ListingJSON(organisation: particulars.organisation,
                                       limits: particulars.organisation.testLimits,
                                       employers: particulars.employerList,
                                       sites: particulars.siteList, examiners: particulars.examinerList,
                                       assets: assets.map { .init(tag: $0.tag, particulars: $0.particulars) })
                try out.write(try JSONOutput.encode(json) + "\n")
            } else {
                try out.write(listing(particulars, assets: assets))
            }
        }
        try out.flush()
        return ExitCode.success
    }

    static let set = CommandSpec(
        name: "settings set", abstract: "Change one particular; the register keeps every version, with who and when.",
        usage: """
            rigbook settings set KEY VALUE [--employer NAME] [--site NAME] [--examiner NAME]
                   [--asset TAG]
            """,
        discussion: keysDiscussion + "\n\n" + """
            VALUE is stored without spaces and line breaks at its ends; addresses and
            asset.swl_configurations may hold line breaks. site.employer and asset.site take an employer or
            a site by NAME or UUID; examiner.self_employed takes yes or no; asset.declaration_date is
            YYYY-MM-DD; organisation.colour_code (the labels' colour code) takes none, six-monthly or
            au-quarters. A limits.* VALUE is a number greater than 0 within reason (earth continuity at most
            10 Ω, insulation resistance 0.01 to 1000 MΩ, leakage at most 30 mA, a trip time at most 1000 ms,
            the calibration warning 1 to 60 whole months); a test form opened afterwards judges by it, and a
            saved test keeps the limits it was judged by. A value the register would refuse (a control
            character, an empty name, a name another employer, site of the same employer, or examiner has)
            is bad usage (exit 64).
            """,
        options: SetOptions.self
    ) { arguments, context in
        let selectors = try Selectors(&arguments)
        let key = try SettingsCommands.key(try arguments.operand(\.key))
        let value = try arguments.operand(\.value, missing: "the VALUE for \(key.name)")
        try arguments.finish()
        try selectors.check(for: key)
        let register = try context.openRegister()
        let particulars = try orFail { try register.particulars() }
        let (change, title) = try subject(key, selectors, in: particulars, register: register)
        let updated = change.setting(key.field, to: try stored(value, for: key, in: particulars))
        let kept = try record(updated, in: register, current: particulars)
        let renamed = key.field == .name ? " (now \(updated.trimmed[.name]))" : ""
        if key.field.isLimit {
            try Output.line(kept ? "Set \(key.name) to \(updated[key.field]) (was \(change[key.field])): test forms"
                            + " opened from now on judge by it."
                            : "\(key.name) is already \(change[key.field]); nothing recorded.")
        } else {
            try Output.line(kept ? "Set \(key.name) of \(title)\(renamed)."
                            : "\(key.name) of \(title) already says that; nothing recorded.")
        }
        return ExitCode.success
    }

    struct AddOptions: OptionTable {
        let what = Operand("employer|site|examiner", missing: "what to add: employer, site or examiner",
                           kind: .choices(["employer", "site", "examiner"]))
        let name = Operand("NAME", missing: "the NAME")
        let address = Option("--address", "TEXT", "Its address.")
        let employer = Option("--employer", "NAME", "The employer a site belongs to (by name or uuid).")
        let qualification = Option("--qualification", "TEXT", "An examiner's qualification.")
        let selfEmployed = Flag("--self-employed", "The examiner is self-employed.")
    }

    static let add = CommandSpec(
        name: "settings add", abstract: "Add an employer, a site of an employer, or an examiner.",
        usage: """
            rigbook settings add employer NAME [--address TEXT]
                   rigbook settings add site NAME [--employer NAME] [--address TEXT]
                   rigbook settings add examiner NAME [--qualification TEXT] [--self-employed]
                   [--address TEXT]
            """,
        discussion: """
            A site belongs to --employer, which may be left out while the register has one employer. Names
            must differ from those of other employers, of the employer's other sites, and of other examiners
            (ignoring letter case): they are how particulars are picked, and how the form finds its examiner.
            Change anything afterwards with `rigbook settings set`, or on the Settings screen (, on the list).
            """,
        options: AddOptions.self
    ) { arguments, context in
        let address = try arguments.value(\.address) ?? ""
        let employerName = try arguments.value(\.employer)
        let qualification = try arguments.value(\.qualification)
        let selfEmployed = arguments.flag(\.selfEmployed)
        let what = try arguments.operand(\.what)
        let name = try arguments.operand(\.name, missing: "the NAME of the \(what)")
        try arguments.finish()
        guard ["employer", "site", "examiner"].contains(what) else {
            throw UsageError("settings add takes employer, site or examiner, not \(what)")
        }
        if what != "site" && employerName != nil { throw UsageError("--employer goes with settings add site") }
        if what != "examiner" && (qualification != nil || selfEmployed) {
            throw UsageError("--qualification and --self-employed go with settings add examiner")
        }
        let register = try context.openRegister()
        let particulars = try orFail { try register.particulars() }
        let change: ParticularsChange
        switch what {
        case "employer":
            change = .employer(Employer(name: name, address: address))
        case "site":
            if employerName == nil && particulars.employers.count > 1 {
                throw UsageError("the register has \(particulars.employers.count) employers: give --employer NAME")
            }
            let employer = try SettingsCommands.employer(employerName, in: particulars)
            change = .site(Site(employerUUID: employer.uuid, name: name, address: address))
        default:
            change = .examiner(Examiner(name: name, qualification: qualification ?? "", selfEmployed: selfEmployed,
                                        address: address))
        }
        _ = try record(change, in: register, current: particulars)
        var added = "Added \(what) \(name.trimmingCharacters(in: .whitespacesAndNewlines))"
        if case .site(let site) = change, let employer = particulars.employers[site.employerUUID] {
            added += " for \(employer.name)"
        }
        try Output.line(added + ".")
        return ExitCode.success
    }
}
