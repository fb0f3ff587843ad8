import Foundation
import RigbookCore
import RigbookStore

/// Assets over their life: edit, retire, import.
extension Commands {
    struct AssetEditOptions: OptionTable {
        let asset = Operand.tag
        let reason = Option("--reason", "TEXT", "Why the asset changes: kept with each change.")
        let tag = Option("--tag", "TAG", "Its new tag (the old one still finds it).")
        let name = AssetOptions.name
        let type = AssetOptions.type
        let wll = AssetOptions.wll
        let interval = AssetOptions.interval
        let length = AssetOptions.length
        let location = AssetOptions.location
        let manufacturer = AssetOptions.manufacturer
        let serial = AssetOptions.serial
        let manufactured = AssetOptions.manufactured
        let commissioned = AssetOptions.commissioned
        let liftsPersons = AssetOptions.liftsPersons
        let noLiftsPersons = Flag("--no-lifts-persons", "It no longer lifts people.")
        let scheme = AssetOptions.scheme
        let site = Option("--site", "SITE", "Move it to this site of the register (name or uuid).")
        let equipmentClass = AssetOptions.equipmentClass
        let environment = AssetOptions.environment
        let risk = AssetOptions.risk
        let intervalReason = AssetOptions.intervalReason
        let clientRef = AssetOptions.clientRef
    }

    static let assetEdit = CommandSpec(
        name: "asset edit", abstract: "Change an asset's fields; every change is kept with its reason.",
        usage: """
            rigbook asset edit TAG --reason TEXT [--tag TAG] [--name TEXT] [--type TYPE] [--wll KG]
                   [--interval MONTHS] [--length M] [--location TEXT] [--manufacturer TEXT]
                   [--serial TEXT] [--manufactured YYYY-MM-DD] [--commissioned YYYY-MM-DD]
                   [--lifts-persons | --no-lifts-persons] [--scheme TEXT] [--site SITE]
                   [--class CLASS] [--environment ENV] [--risk normal|high] [--interval-reason TEXT]
                   [--client-ref TEXT]
            """,
        discussion: """
            Only the fields given change; an empty value clears an optional one (--length '',
            --manufactured '', --commissioned '', --client-ref ''). The same checks as `asset add`. Each field changed
            is kept in the asset's history (who, when, old, new, reason), which `rigbook history`
            shows. A new tag keeps the asset (its records, its uuid); the old tag still finds it.
            A change of the interval or the commission date says where the due date moves.
            --site moves the asset to another of the register's sites (by name or uuid), as on
            `asset add`: the premises a report of thorough examination names (Schedule 1 item 2), kept
            as a new version of the asset's particulars; --location is where on site it is kept.
            An electrical asset takes --class, --environment, --risk and --interval-reason;
            a new environment or risk moves its interval to the AS/NZS 3760 table's unless --interval
            is given (then with --interval-reason). --client-ref is the owner's own plant number,
            for either kind.
            """,
        options: AssetEditOptions.self
    ) { arguments, context in
        let reason = try arguments.required(\.reason)
        let given = try arguments.values([\.tag, \.name, \.type, \.wll, \.interval, \.length, \.location,
                                          \.manufacturer, \.serial, \.manufactured, \.commissioned, \.scheme, \.site,
                                          \.equipmentClass, \.environment, \.risk, \.intervalReason, \.clientRef])
        let liftsPersons: Bool? = arguments.flag(\.liftsPersons) ? true
            : arguments.flag(\.noLiftsPersons) ? false : nil
        let tag = try arguments.operand(\.asset)
        try arguments.finish()
        let register = try context.openRegister()
        let row = try findAsset(register, tag: tag)
        var edited = row.asset
        if let text = given["--tag"] { edited.tag = Tags.normalized(text) }
        if let text = given["--name"] { edited.name = text }
        if let text = given["--type"] { edited.type = try parseType(text) }
        if let text = given["--wll"] { edited.wllKg = try Parse.positiveNumber(text, option: "--wll") }
        if let text = given["--interval"] {
            edited.intervalMonths = try Parse.int(text, option: "--interval", range: Asset.intervalRange)
        }
        if let text = given["--length"] {
            edited.lengthM = text.isEmpty ? nil : try Parse.positiveNumber(text, option: "--length")
        }
        if let text = given["--location"] { edited.location = text }
        if let text = given["--manufacturer"] { edited.manufacturer = text }
        if let text = given["--serial"] { edited.serialNumber = text }
        if let text = given["--manufactured"] {
            edited.manufactured = text.isEmpty ? nil : try Parse.date(text, option: "--manufactured")
        }
        if let text = given["--commissioned"] {
            edited.commissioned = text.isEmpty ? nil : try Parse.date(text, option: "--commissioned")
        }
        if let text = given["--scheme"] { edited.examinationScheme = text.trimmingCharacters(in: .whitespaces) }
        if let text = given["--client-ref"] { edited.clientRef = text.trimmingCharacters(in: .whitespaces) }
        if let liftsPersons { edited.liftsPersons = liftsPersons }
        let electricalOptions = ["--class", "--environment", "--risk", "--interval-reason"].filter { given[$0] != nil }
        if var e = edited.electrical {
            let tableBefore = e.tableIntervalMonths
            if let word = given["--class"] {
                guard let value = ElectricalClass(word: word) else { throw UsageError("unknown --class \(word)") }
                e.equipmentClass = value
            }
            if let word = given["--environment"] {
                guard let value = ElectricalEnvironment(rawValue: word.lowercased()) else {
                    throw UsageError("unknown --environment \(word)")
                }
                e.environment = value
            }
            if let word = given["--risk"] {
                guard let value = ElectricalRisk(rawValue: word.lowercased()) else {
                    throw UsageError("unknown --risk \(word); one of: normal high")
                }
                e.risk = value
            }
            if let text = given["--interval-reason"] { e.intervalReason = text.trimmingCharacters(in: .whitespaces) }
            if given["--interval"] == nil, edited.intervalMonths == tableBefore {
                edited.intervalMonths = e.tableIntervalMonths
            }
            edited.electrical = e
        } else if let first = electricalOptions.first {
            throw UsageError("\(first) is for an electrical asset; \(row.asset.tag) is lifting equipment")
        }
        let problems = edited.editProblems(from: row.asset, today: context.today).map(\.message)
        if !problems.isEmpty { throw UsageError(problems.joined(separator: " ")) }
        // The site is found before anything is written, so a wrong name changes nothing.
        let site = try given["--site"].map { (name: String) throws -> (Particulars, Site) in
            try findSite(register, name)
        }
        var lines: [String] = []
        if !AssetField.differences(from: row.asset, to: edited).isEmpty {
            let changes: [AssetChange]
            do throws(RegisterError) {
                changes = try register.change(assetUUID: row.asset.uuid, to: edited, reason: reason)
            } catch let error where error.refusesTag { throw UsageError(error.description) }
            catch .invalidAsset(let problems) { throw UsageError(problems.joined(separator: " ")) }
            catch { throw CommandFailure("rigbook: \(error.description)") }
            lines.append("Changed \(row.asset.tag): " + changes.map(\.summary).joined(separator: "; ") + ".")
            if let moved = dueDateMove(from: row, to: edited, today: context.today) { lines.append(moved) }
        }
        if let (particulars, site) = site,
           let from = try putOnSite(register, assetUUID: row.asset.uuid, site, particulars) {
            lines.append("Moved \(row.asset.tag) from site \(from) to site \(site.name).")
        }
        if lines.isEmpty { lines.append("Nothing to change: \(row.asset.tag) already has these values.") }
        try Output.line(lines.joined(separator: "\n"))
        return ExitCode.success
    }

    struct AssetRetireOptions: OptionTable {
        let tag = Operand.tag
        let reason = Option.choice("--reason", ["disposed", "lost", "sold", "scrapped"], "How it left service.")
        let note = Option("--note", "TEXT", "More about it, for the history.")
        let on = Option("--on", "YYYY-MM-DD", "The day it left service (default today).")
    }

    static let assetRetire = CommandSpec(
        name: "asset retire", abstract: "Take an asset out of service for good; its records are kept.",
        usage: "rigbook asset retire TAG --reason disposed|lost|sold|scrapped [--note TEXT] [--on YYYY-MM-DD]",
        discussion: """
            A retired asset leaves the register list (a toggle there shows it), `due`, the calendar and
            the report; its inspection records stay, as LOLER regulation 11 asks. --on is the day it left
            service (default today, never in the future); --note says more, for the history.
            `asset list --retired` lists retired assets too.
            """,
        options: AssetRetireOptions.self
    ) { arguments, context in
        let word = try arguments.required(\.reason)
        guard let disposition = Disposition(word: word) else {
            throw UsageError("--reason must be one of disposed, lost, sold, scrapped, not \(word)")
        }
        let note = try arguments.value(\.note)
        let on = try arguments.date(\.on) ?? context.today
        if on > context.today { throw UsageError("--on \(on.iso) is in the future (today is \(context.today.iso))") }
        let tag = try arguments.operand(\.tag)
        try arguments.finish()
        let register = try context.openRegister()
        let row = try findAsset(register, tag: tag)
        let reason = note.map { "\(disposition.label): \($0)" } ?? "Retired: \(disposition.label)"
        do throws(RegisterError) {
            try register.retire(assetUUID: row.asset.uuid, as: disposition, on: on, reason: reason)
        } catch .invalidAsset(let problems) { throw CommandFailure("rigbook: " + problems.joined(separator: " ")) }
        catch { throw CommandFailure("rigbook: \(error.description)") }
        let records = row.summary.recordCount
        try Output.line("Retired \(row.asset.tag) (\(disposition.label)) on \(on.iso); its \(records) record"
                        + "\(records == 1 ? " is" : "s are") kept.")
        return ExitCode.success
    }

    struct ImportOptions: OptionTable {
        let file = Operand("FILE.csv", missing: "the FILE.csv to import", kind: .file)
        let dryRun = Flag.dryRun
    }

    static let importAssets = CommandSpec(
        name: "import", abstract: "Add the assets of a spreadsheet (CSV), all of them or none.",
        usage: "rigbook import FILE.csv [--dry-run]",
        discussion: """
            A header row names the columns, as `asset list --format csv` does: tag, name, type, wll_kg
            are needed; length_m, location, manufacturer, serial_number, manufactured, commissioned,
            interval_months, lifts_persons, examination_scheme, client_ref and uuid may be given;
            last_thorough_examination, latest_result, next_due, remedy_deadline and status are read
            past. Any other column is refused by name. Every row is checked as `asset add` checks it; problems are
            listed by line and column (line 37, wll_kg: …) and then nothing is imported. UTF-8 with or
            without a BOM, CRLF or LF, quoted fields with commas and line breaks; a leading ' that a
            spreadsheet put before =, +, - or @ is taken off. --dry-run checks everything and prints
            what would be added, writing nothing (on a new home, not even the register). See
            docs/FORMATS.md.
            """,
        options: ImportOptions.self
    ) { arguments, context in
        let dryRun = arguments.flag(\.dryRun)
        let file = try arguments.operand(\.file)
        try arguments.finish()
        let text = try readText(file)
        let rows: [AssetImport.Row]
        switch AssetImport.parse(text, today: context.today) {
        case .success(let parsed): rows = parsed
        case .failure(let problems): throw importFailure(file, problems.items.map(\.description))
        }
        // A dry run makes nothing on disk, not even the register a real import would make.
        let (register, isNew) = dryRun ? try context.registerForDryRun() : (try context.openRegister(), false)
        let count: Int
        do throws(RegisterError) { count = try register.importAssets(rows, dryRun: dryRun) }
        catch .importRefused(let problems) { throw importFailure(file, problems) }
        catch { throw CommandFailure("rigbook: \(error.description)") }
        var out = Output()
        if dryRun {
            if isNew { try out.write(context.noRegisterYet("importing")) }
            for row in rows {
                let a = row.asset
                try out.write("line \(row.line): would add \(a.tag) · \(a.name) · \(a.type.label) · WLL "
                              + "\(Asset.wllText(a.wllKg)) · every \(a.intervalMonths) months\n")
            }
            try out.write("Would import \(count) asset\(count == 1 ? "" : "s") from \(file); nothing was written"
                          + " (dry run).\n")
        } else {
            try out.write("Imported \(count) asset\(count == 1 ? "" : "s") from \(file).\n")
        }
        try out.flush()
        return ExitCode.success
    }

    /// The problems of a refused import, each on a line of stderr (the first 50), as one failure.
    static func importFailure(_ file: String, _ problems: [String],
                              saved: String = "nothing was imported") -> CommandFailure {
        var lines = problems.prefix(50).map { "rigbook: \(file): \($0)" }
        if problems.count > 50 { lines.append("rigbook: … and \(problems.count - 50) more") }
        lines.append("rigbook: \(saved) (\(problems.count) problem\(problems.count == 1 ? "" : "s")).")
        return CommandFailure(lines.joined(separator: "\n"))
    }

    /// A file's text: a regular file of UTF-8 (a spreadsheet's export), read whole.
    static func readText(_ path: String) throws(CommandFailure) -> String {
        let data: Data
        if path == "-" {
            // Standard input: a pipe from another program (`curl … | rigbook tests import -`).
            guard isatty(STDIN_FILENO) == 0 else {
                throw CommandFailure("rigbook: - reads the file from standard input, which is a terminal: pipe the "
                                     + "file in, or name it")
            }
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw CommandFailure("rigbook: cannot read \(path): \(String(cString: strerror(errno)))")
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw CommandFailure("rigbook: \(path) is not a regular file")
            }
            guard let read = FileManager.default.contents(atPath: path) else {
                throw CommandFailure("rigbook: cannot read \(path): \(String(cString: strerror(errno)))")
            }
            data = read
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure("rigbook: \(path) is not UTF-8 text; save the spreadsheet as CSV UTF-8")
        }
        return text
    }

    /// The asset a TAG names (a tag given up since still finds it), or a failure naming what was typed.
    static func findAsset(_ register: Register, tag: String) throws(CommandFailure) -> RegisterRow {
        do throws(RegisterError) {
            guard let found = try register.asset(tag: tag) else { throw RegisterError.unknownAsset("tagged \(tag)") }
            return found
        } catch {
            if case .unknownAsset = error, let problem = Tags.invisibleCharacterProblem(tag) {
                throw CommandFailure("rigbook: no asset has that tag. \(problem)")
            }
            throw CommandFailure("rigbook: \(error.description)")
        }
    }

    static func parseType(_ word: String) throws(UsageError) -> EquipmentType {
        guard let type = EquipmentType(rawValue: word) else {
            let types = EquipmentType.allCases.map(\.rawValue).joined(separator: " ")
            throw UsageError("unknown --type \(word); one of: \(types)")
        }
        return type
    }

    /// The register's site with this name (or uuid), and the particulars it was found in.
    static func findSite(_ register: Register, _ site: String) throws -> (Particulars, Site) {
        let particulars = try orFail { try register.particulars() }
        return (particulars, try SiteReference.resolve(site, in: particulars))
    }

    /// Puts the asset on another of the register's sites (its particulars' site): a new particulars version.
    /// Returns the name of the site it was on; nil when it is on `target` already.
    static func putOnSite(_ register: Register, assetUUID: UUID, _ target: Site,
                          _ particulars: Particulars) throws -> String? {
        var current = particulars.asset(assetUUID)
        guard current.siteUUID != target.uuid else { return nil }
        let from = particulars.sites[current.siteUUID]?.name ?? "another site"
        current.siteUUID = target.uuid
        _ = try orFail { try register.record(.asset(current)) }
        return from
    }

    /// "The next thorough examination is now due …": said when an edit moves the due date.
    static func dueDateMove(from row: RegisterRow, to edited: Asset, today: CalendarDate) -> String? {
        let before = row.status(on: today).nextDue
        let after = StatusRules.evaluate(asset: edited, summary: row.summary, today: today).nextDue
        guard before != after else { return nil }
        return "The next thorough examination is now due \(after?.iso ?? "— (none)")"
            + " (was \(before?.iso ?? "none"))."
    }
}
