import Foundation
import RigbookCore
import RigbookStore

/// `rigbook tests import FILE.csv --authenticate`: the results a PAT tester already holds, read from its export
/// (the spreadsheet format PAT software documents) through the test form's gate, all rows or none, each test signed by
/// the technician its Person column names. docs/FORMATS.md ("`rigbook tests import`") gives the columns and the
/// test names.
enum TestCommands {
    struct ImportOptions: OptionTable {
        let file = Operand("FILE.csv", missing: "the FILE.csv of test results", kind: .file)
        let authenticate = Flag("--authenticate", "Each row's Person authenticates its test, as the form's tick"
                                + " does.")
        let dateFormat = Option.choice("--date-format", TestImport.DateFormat.allCases.map(\.rawValue),
                                       "How the export writes dates (default YYYY-MM-DD).")
        let licence = Option("--licence", "TEXT", "The technician's licence, where the export lacks it.")
        let calibrated = Option("--calibrated", "YYYY-MM-DD", "The instrument's calibration date, where the export"
                                + " lacks it.")
        let calibrationNoted = Flag("--calibration-noted", "The technician noted an instrument calibrated over 12"
                                    + " months before.")
        let type = Option.choice("--type", TestType.allCases.map(\.rawValue), "The tests' type (default periodic).",
                                 value: "TYPE")
        let addAssets = Flag("--add-assets", "Add the assets the register lacks.")
        let equipmentClass = Option.choice("--class", ElectricalClass.allCases.map(\.rawValue), "The class of the"
                                           + " assets added, where the export has none.", value: "CLASS")
        let environment = Option.choice("--environment", ElectricalEnvironment.allCases.map(\.rawValue),
                                        "Where the assets added are used.", value: "ENVIRONMENT")
        let dryRun = Flag.dryRun
    }

    static let importTests = CommandSpec(
        name: "tests import", abstract: "Save the test results of a PAT tester's export (CSV), all of them or none.",
        usage: "rigbook tests import FILE.csv --authenticate [--date-format YYYY-MM-DD|DD/MM/YYYY|MM/DD/YYYY]\n"
            + "           [--licence TEXT] [--calibrated YYYY-MM-DD] [--calibration-noted] [--type TYPE]\n"
            + "           [--add-assets --class CLASS --environment ENVIRONMENT] [--dry-run]",
        discussion: """
            FILE is a tester's export in the PAT spreadsheet format: a header row naming Asset Id, Test Date,
            Pass/Fail and Person (matched in any case), and where present Retest (Months), Instrument, Instrument
            Serial, Calibration Date, Licence, Comments, Procedure Reference; then Test, Result, Unit, Status
            groups, read by position, each naming a reading (Earth Continuity in Ω or Ohm, Insulation in MΩ or
            MOhm, >99 read as over 99, Protective Conductor Current or Touch Current in mA, Polarity P/F, RCD
            Trip Time in ms, Visual P/F). Every row is a test of the asset its Asset Id tags, checked by the
            test form's gate: a row whose readings fail cannot be a Pass, a Fail needs its comment. Problems are
            listed by line (line 37, Insulation (MΩ): …) and then nothing is saved. A BOM, CRLF, trailing empty
            columns and a second header block are read as a tester writes them.
            --authenticate: the Person of each row authenticates its test, as the form's tick does, and the test
            is signed with their key on this machine (made at their first save here; under a passphrase, read
            from the file RIGBOOK_KEY_PASSPHRASE_FILE names). --date-format: how the export writes dates
            (YYYY-MM-DD unless given). --licence and --calibrated fill what the export lacks; an instrument the
            register has seen gives its model and calibration date too. --calibration-noted: the technician has
            noted an instrument calibrated over 12 months before a test. --type: initial, periodic (the default),
            retest or after_repair. An Asset Id the register lacks is refused unless --add-assets, which adds it
            with the export's Asset Description, Asset Class (else --class) and Location Name, in --environment.
            A Retest (Months) other than the asset's interval is kept in the test's notes and warned about.
            --dry-run checks everything and saves nothing. See docs/FORMATS.md.
            """,
        options: ImportOptions.self
    ) { arguments, context in
        let authenticate = arguments.flag(\.authenticate), dryRun = arguments.flag(\.dryRun)
        let addAssets = arguments.flag(\.addAssets)
        var options = TestImport.Options()
        options.calibrationNoted = arguments.flag(\.calibrationNoted)
        if let format = try arguments.value(\.dateFormat) {
            guard let value = TestImport.DateFormat(rawValue: format.uppercased()) else {
                throw UsageError("unknown --date-format \(format); one of "
                                 + TestImport.DateFormat.allCases.map(\.rawValue).joined(separator: " "))
            }
            options.dateFormat = value
        }
        options.licence = try arguments.value(\.licence)?.trimmingCharacters(in: .whitespaces) ?? ""
        if let calibrated = try arguments.value(\.calibrated) {
            guard CalendarDate(iso: calibrated) != nil else {
                throw UsageError("--calibrated \(calibrated) is not a date YYYY-MM-DD")
            }
            options.calibrated = calibrated
        }
        if let type = try arguments.value(\.type) {
            guard let value = TestType(rawValue: type) else {
                throw UsageError("unknown --type \(type); one of "
                                 + TestType.allCases.map(\.rawValue).joined(separator: " "))
            }
            options.testType = value
        }
        let classWord = try arguments.value(\.equipmentClass), environmentWord = try arguments.value(\.environment)
        var adding: Register.NewTestedAssets?
        if addAssets {
            guard let classWord, let environmentWord else {
                throw UsageError("--add-assets needs --class CLASS and --environment ENVIRONMENT: how the assets it "
                                 + "adds are tested")
            }
            guard let equipmentClass = ElectricalClass(word: classWord) else {
                throw UsageError("unknown --class \(classWord); one of "
                                 + ElectricalClass.allCases.map(\.rawValue).joined(separator: " "))
            }
            guard let environment = ElectricalEnvironment(rawValue: environmentWord.lowercased()) else {
                throw UsageError("unknown --environment \(environmentWord); one of "
                                 + ElectricalEnvironment.allCases.map(\.rawValue).joined(separator: " "))
            }
            adding = Register.NewTestedAssets(equipmentClass: equipmentClass, environment: environment)
        } else if classWord != nil || environmentWord != nil {
            throw UsageError("--class and --environment say how --add-assets adds assets; give --add-assets too")
        }
        let file = try arguments.operand(\.file)
        try arguments.finish()
        guard authenticate || dryRun else {
            throw UsageError("tests import needs --authenticate: by it each row's Person authenticates the test, as "
                             + "the form's tick does (--dry-run checks without it)")
        }
        let text = try Commands.readText(file)
        let parsed = TestImport.parse(text, options: options)
        let (register, isNew) = dryRun ? try context.registerForDryRun() : (try context.openRegister(), false)
        // The rows that read well are checked against the register even when others did not: every problem at once.
        var problems = parsed.problems
        var planned: TestImportPlan?
        switch try orFail({ try register.planTestImport(parsed.rows, adding: adding, today: context.today) }) {
        case .success(let plan): planned = plan
        case .failure(let found): problems += found.items
        }
        guard problems.isEmpty, let plan = planned else {
            let ordered = problems.enumerated().sorted {
                ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
            }
            throw Commands.importFailure(file, ordered.map(\.element.description), saved: "nothing was saved")
        }
        let readPast = parsed.readPast
        for warning in plan.warnings { printError("rigbook: warning: \(file): \(warning)") }
        if !readPast.isEmpty {
            printError("rigbook: \(file): read past (Rigbook keeps nothing of them): "
                       + readPast.joined(separator: ", "))
        }
        let people = plan.technicians.map { "\($0.name) (\($0.tests) test\($0.tests == 1 ? "" : "s"))" }
        let vouched = people.joined(separator: ", ") + " authenticate\(people.count == 1 ? "s" : "") "
            + "the tests of \(file) as their tester recorded them"
        let assets = plan.newAssets.count
        let addedText = assets == 0 ? "" : " (adding \(assets) asset\(assets == 1 ? "" : "s"))"
        var out = Output()
        if dryRun {
            if isNew { try out.write(context.noRegisterYet("importing")) }
            for test in plan.tests {
                let t = test.test
                try out.write("line \(test.line): would save \(test.tag) · \(t.testDate.iso) · "
                              + "\(t.passed ? "Pass" : "Fail") · \(t.values.technician)\n")
            }
            try out.write("Would save \(plan.tests.count) test\(plan.tests.count == 1 ? "" : "s")\(addedText), signed: "
                          + "\(vouched). Nothing was saved (--dry-run).\n")
            try out.flush()
            return ExitCode.success
        }
        // Keys already here are unlocked first: a passphrase missing for one refuses the import before a key is
        // made for another.
        var signers: [String: RecordSigner] = [:]
        let ring = KeyRing(home: context.home)
        let held = try orFail { try register.examinerKeys() }
        let names = plan.technicians.map(\.name)
        for name in names.filter({ ring.fingerprint(for: $0, in: held) != nil })
            + names.filter({ ring.fingerprint(for: $0, in: held) == nil }) {
            signers[name] = try context.signer(for: name, register: register)
        }
        let ids: [Int64]
        do throws(RegisterError) {
            ids = try register.importTests(plan, signers: signers, saved: SaveStamp(today: context.today))
        }
        catch .importRefused(let problems) {
            throw Commands.importFailure(file, problems, saved: "nothing was saved")
        } catch { throw CommandFailure("rigbook: \(error.description); nothing was saved") }
        let keys = signers.values.map { "\($0.examiner) \($0.key.publicKey.shortFingerprint)" }.sorted()
        try out.write("\(vouched).\nSaved \(ids.count) test\(ids.count == 1 ? "" : "s") from \(file)"
                      + (assets == 0 ? "" : ", and added \(assets) asset\(assets == 1 ? "" : "s")")
                      + "; signed with \(keys.joined(separator: ", ")).\n")
        try out.flush()
        return ExitCode.success
    }
}
