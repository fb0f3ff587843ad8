import Foundation
import RigbookCore
import RigbookStore

/// `rigbook record TAG --from FILE.json`: an inspection record, or an electrical asset's test, from outside the form (a
/// script, another system), through the same gate, authenticated on the command line, never from the file, and
/// signed with the examiner's key. docs/FORMATS.md ("`rigbook record`") lists the keys it reads.
enum RecordCommand {
    /// Keys of a `history --format json` entry that the register makes: refused, by name, when a file has them.
    static let madeByTheRegister: Set<String> = [
        "id", "asset_tag", "asset_uuid", "saved_at", "draft_id", "amends", "operator", "app_version", "asset_wll_kg",
        "asset_location", "record_uuid", "amends_uuid", "superseded_by", "superseded_by_uuid", "report_number",
        "particulars", "record_hash", "also_amends_uuids", "outranked_by", "outranked_by_uuid", "kind", "verdicts",
        "limits", "entry_hash", "parent_hash", "visit_uuid",
        // The particulars a save copies from the register.
        "employer_name", "employer_address", "site_name", "site_address", "previous_thorough_examination",
    ]
    /// Who vouches for a record is said on the command line, never in a file.
    static let authentication: Set<String> = ["confirmed", "authenticated"]

    /// The keys a file may hold: the form's fields and report particulars (files are attached in the form only).
    static var readable: Set<String> {
        Set(InspectionValues.jsonKeys).subtracting(authentication).subtracting(["attachments"])
    }

    /// A test's entry of `history` has these beside an inspection record's, made by the register (`result` is the
    /// result the readings give; the manual choice is `result_choice`).
    static let madeForATest: Set<String> = ["test_uuid", "result", "entry_hash"]

    /// The keys a test's file may hold: the test form's fields as `history` names them.
    static var readableForATest: Set<String> {
        Set(TestValues.jsonKeys).subtracting(authentication).subtracting(["attachments", "result"])
            .union(["result_choice"])
    }

    struct Options: OptionTable {
        let tag = Operand("TAG", missing: "the TAG of the asset examined", kind: .tag)
        let from = Option("--from", "FILE.json|-", "The record as JSON; - reads standard input.", kind: .file)
        let examiner = Option("--examiner", "NAME", "Who makes the report (a test's technician).")
        let authenticate = Flag("--authenticate", "The examiner authenticates the report, as the form's tick does.")
        let amends = Option("--amends", "REPORT_NO", "Amend this report.")
        let dryRun = Flag.dryRun
    }

    static let spec = CommandSpec(
        name: "record",
        abstract: "Save an inspection record or a test from a JSON file, through the form's gate, signed.",
        usage: "rigbook record TAG --from FILE.json|- --examiner NAME --authenticate [--amends REPORT_NO] [--dry-run]",
        discussion: """
            FILE holds one JSON object shaped like an entry of `history --format json`: the form's fields
            (inspection_type, result, defect_description, inspection_date, …) and the report particulars by
            their keys; `-` reads standard input. Keys the register makes (id, saved_at, record_uuid,
            report_number, hashes…) and unknown keys are refused by name, and so are confirmed and
            authenticated: who vouches for the record is --examiner NAME (an examiner of the register's
            particulars), with --authenticate, never the file. For an electrical asset the file holds a test, as
            `history` writes one (test_date, technician, visual, earth_continuity_ohm, insulation_mohm,
            result_choice, notes, …), checked by the test form's gate; NAME is its technician, an examiner of the
            particulars or a holder of a key in the register. The record is checked by the form's gate
            (every refusal listed with its field, exit 1, nothing written) and signed with the examiner's
            key on this machine (made at their first save here; under a passphrase, read from the file
            RIGBOOK_KEY_PASSPHRASE_FILE names). --amends REPORT_NO makes an amendment (give
            amendment_reason). --dry-run checks and prints what would be saved, and saves nothing.
            """,
        options: Options.self
    ) { arguments, context in
        guard let from = try arguments.value(\.from) else { throw UsageError("record needs --from FILE.json") }
        guard let examiner = try arguments.value(\.examiner)?.trimmingCharacters(in: .whitespaces),
              !examiner.isEmpty else { throw UsageError("record needs --examiner NAME: who makes the report") }
        let authenticate = arguments.flag(\.authenticate), dryRun = arguments.flag(\.dryRun)
        let amends = try arguments.value(\.amends)
        let tag = try arguments.operand(\.tag)
        try arguments.finish()
        guard authenticate || dryRun else {
            throw UsageError("record needs --authenticate: by it \(examiner) authenticates the report, as the form's "
                             + "tick does; a file cannot (--dry-run checks without it)")
        }
        let object = try readObject(from)
        // A dry run makes nothing on disk, not even the register a real record would make.
        let register = dryRun ? try context.registerForDryRun().register : try context.openRegister()
        do {
            guard let row = try register.asset(tag: tag) else {
                throw CommandFailure("rigbook: no asset is tagged \(tag); nothing was saved")
            }
            if let electrical = row.asset.electrical {
                if amends != nil {
                    throw UsageError("--amends: a test is never amended; a new test supersedes it (the latest counts)")
                }
                try checkKeys(object, from: from, readable: readableForATest,
                              madeByTheRegister: madeByTheRegister.union(madeForATest))
                return try recordTest(object, asset: row.asset, equipmentClass: electrical.equipmentClass,
                                      examiner: examiner, dryRun: dryRun, register: register, context: context)
            }
            try checkKeys(object, from: from, readable: readable, madeByTheRegister: madeByTheRegister)
            let particulars = try register.particulars()
            guard let known = particulars.examiners.values.first(where: {
                $0.name.trimmingCharacters(in: .whitespaces).lowercased() == examiner.lowercased()
            }) else {
                let names = particulars.examiners.values.map(\.name).sorted().joined(separator: ", ")
                throw CommandFailure("rigbook: \(VisibleText.make(examiner)) is not an examiner of this register"
                                     + (names.isEmpty ? "" : " (its examiners: \(names))")
                                     + "; add one with `rigbook settings add examiner`. Nothing was saved")
            }
            var values = try values(object, examiner: known)
            values.confirmed = true
            let amending = try amends.map { try amended($0, of: row.asset, in: register) }
            let gate = SaveGate.Context(asset: row.asset, today: context.today,
                                        sessionID: DraftIdentity.sessionID(assetUUID: row.asset.uuid),
                                        amending: amending,
                                        particulars: try register.reportParticulars(assetUUID: row.asset.uuid,
                                                                                    examinerName: known.name))
            let record: ValidatedInspection
            switch SaveGate.validate(values, context: gate) {
            case .success(let valid): record = valid
            case .failure(let failure):
                throw CommandFailure(failure.problems.map { "rigbook: \($0.field.key): \($0.message)" }
                    .joined(separator: "\n") + "\nrigbook: nothing was saved")
            }
            // A script's retry of a record already saved is refused, not saved twice.
            if amending == nil, let same = try register.history(assetUUID: row.asset.uuid).first(where: {
                $0.values == record.values && $0.supersededByUUID == nil
            }) {
                let report = same.reportNumber.map { ", report \($0)" } ?? ""
                throw CommandFailure("rigbook: the same record of \(row.asset.tag) is already in the register as "
                                     + "#\(same.id)\(report); nothing was saved")
            }
            let vouched = "\(known.name) authenticates this \(values.inspectionType.label.lowercased()) of "
                + "\(row.asset.tag) on \(values.inspectionDate): \(values.result?.label ?? "no result")"
                + (amending.map { ", amending #\($0.id)" } ?? "")
            if dryRun {
                try Output.line("Would save, signed: \(vouched). Nothing was saved (--dry-run).")
                return ExitCode.success
            }
            let signer = try context.signer(for: known.name, register: register)
            let id = try register.signing(with: signer) {
                try register.insert(record, saved: SaveStamp(today: context.today))
            }
            let saved = try register.inspection(id: id)
            try Output.line("\(vouched).\nSaved record #\(id)" + (saved?.reportNumber.map { ", report \($0)" } ?? "")
                            + ", signed with key \(signer.key.publicKey.shortFingerprint).")
        } catch let error as CommandFailure {
            throw error
        } catch let error as UsageError {
            throw error
        } catch let error as StandardStreams.Failure {
            throw error
        } catch {
            let said = "\(error)"
            throw CommandFailure("rigbook: " + (said.contains("nothing was saved") ? said
                                                : said + "; nothing was saved"))
        }
        return ExitCode.success
    }

    /// The JSON object the file holds.
    static func readObject(_ from: String) throws -> [String: Any] {
        let data = Data(try Commands.readText(from).utf8)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw CommandFailure("rigbook: \(from) is not one JSON object; nothing was saved")
        }
        return object
    }

    /// Refuses, each by name, the keys of `object` that the register makes, authentication, and unknown ones.
    static func checkKeys(_ object: [String: Any], from: String, readable: Set<String>,
                          madeByTheRegister: Set<String>) throws {
        var refusals: [String] = []
        for key in object.keys.sorted() {
            if authentication.contains(key) {
                refusals.append("\(key): authentication is given on the command line (--authenticate), never "
                                + "read from a file")
            } else if key == "result", madeByTheRegister.contains(key) {
                refusals.append("result: the register works it out from the readings (the manual choice is "
                                + "result_choice)")
            } else if madeByTheRegister.contains(key) {
                refusals.append("\(key): the register makes it when it saves the record (leave it out)")
            } else if key == "attachments" {
                refusals.append("attachments: files are attached in the form (Ctrl-O)")
            } else if !readable.contains(key) {
                refusals.append("\(key): not a key a record has (docs/FORMATS.md, `rigbook record`)")
            }
        }
        guard refusals.isEmpty else {
            throw CommandFailure(refusals.map { "rigbook: \(from): \($0)" }.joined(separator: "\n")
                                 + "\nrigbook: nothing was saved")
        }
    }

    /// The form's values from the file's keys over a new form's, the inspector the examiner named.
    static func values(_ object: [String: Any], examiner: Examiner) throws -> InspectionValues {
        if let named = object["inspector_name"] as? String,
           named.trimmingCharacters(in: .whitespaces).lowercased() != examiner.name.lowercased() {
            throw CommandFailure("rigbook: inspector_name says \(VisibleText.make(named)), --examiner "
                                 + "\(examiner.name): the person who authenticates is the one who made the report; "
                                 + "nothing was saved")
        }
        var fresh = InspectionValues()
        fresh.inspectorName = examiner.name
        fresh.certificationNumber = examiner.qualification
        return try decoded(object, over: fresh)
    }

    /// `fresh` with the file's keys read over it, by the values' own JSON (a draft's).
    static func decoded<Values: Codable>(_ object: [String: Any], over fresh: Values) throws -> Values {
        let base = try JSONSerialization.jsonObject(with: JSONEncoder().encode(fresh)) as? [String: Any] ?? [:]
        let merged = base.merging(object) { _, given in given }
        do {
            return try JSONDecoder().decode(Values.self, from: JSONSerialization.data(withJSONObject: merged))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.dataCorrupted(context) {
            let key = context.codingPath.last?.stringValue ?? "the file"
            throw CommandFailure("rigbook: \(key): not a value it can hold (\(context.debugDescription)); "
                                 + "nothing was saved")
        } catch let DecodingError.valueNotFound(_, context) {
            let key = context.codingPath.last?.stringValue ?? "the file"
            throw CommandFailure("rigbook: \(key): null is not a value it can hold (leave the key out instead); "
                                 + "nothing was saved")
        }
    }

    /// A test of an electrical asset: the test form's values from a `history` entry's keys (a reading as a number
    /// or as text, `">99"`), through the test form's gate, signed by the technician --examiner names.
    static func recordTest(_ object: [String: Any], asset: Asset, equipmentClass: ElectricalClass, examiner: String,
                           dryRun: Bool, register: Register, context: Context) throws -> Int32 {
        let technician = try knownTechnician(examiner, in: register)
        if let named = object["technician"] as? String,
           named.trimmingCharacters(in: .whitespaces).lowercased() != technician.lowercased() {
            throw CommandFailure("rigbook: technician says \(VisibleText.make(named)), --examiner \(technician): the "
                                 + "person who authenticates is the one who tested; nothing was saved")
        }
        var given: [String: Any] = [:]
        let readings: Set<String> = ["earth_continuity_ohm", "insulation_mohm", "leakage_ma", "load_current_a",
                                     "rcd_trip_time_ms"]
        for (key, value) in object {
            // `history` names the manual choice result_choice, and writes readings as numbers. A JSON true is a
            // boolean, never a reading (Foundation reads 0 and 1 as numbers that also pass for booleans).
            let name = key == "result_choice" ? "result" : key
            if readings.contains(key), let number = value as? NSNumber, String(cString: number.objCType) != "c" {
                given[name] = readingText(number.doubleValue)
            } else {
                given[name] = value
            }
        }
        var fresh = TestValues()
        fresh.technician = technician
        var values = try decoded(given, over: fresh)
        values.authenticated = true
        let gate = TestGate.Context(assetUUID: asset.uuid, equipmentClass: equipmentClass,
                                    commissioned: asset.commissioned, today: context.today,
                                    sessionID: DraftIdentity.testSessionID(assetUUID: asset.uuid),
                                    limits: try register.particulars().organisation.testLimits)
        guard case .success(let test) = TestGate.validate(values, gate) else {
            let problems = TestGate.evaluate(values, gate).problems
            throw CommandFailure(problems.map { "rigbook: \(key(of: $0.field)): \($0.message)" }
                .joined(separator: "\n") + "\nrigbook: nothing was saved")
        }
        if let same = try register.sameTest(as: test.values, assetUUID: asset.uuid) {
            throw CommandFailure("rigbook: the same test of \(asset.tag) (the day, the technician and every reading) "
                                 + "is already in the register as test #\(same); nothing was saved")
        }
        let vouched = "\(technician) authenticates this \(values.testType.label.lowercased()) test of \(asset.tag) on "
            + "\(test.testDate.iso): \(test.passed ? "Pass" : "Fail")"
        if dryRun {
            try Output.line("Would save, signed: \(vouched). Nothing was saved (--dry-run).")
            return ExitCode.success
        }
        let signer = try context.signer(for: technician, register: register)
        let id = try register.signing(with: signer) {
            try register.insert(test: test, saved: SaveStamp(today: context.today))
        }
        try Output.line("\(vouched).\nSaved test #\(id), signed with key \(signer.key.publicKey.shortFingerprint).")
        return ExitCode.success
    }

    /// A JSON number as the reading a person would have typed: digits and a point, never an exponent (1e-07).
    static func readingText(_ value: Double) -> String {
        let shortest = ExportValue.number(value).csv
        guard shortest.contains("e"), value.isFinite else { return shortest }
        var text = String(format: "%.12f", value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// The JSON key of a test form's field, which a refusal names.
    static func key(of field: TestField) -> String {
        let paths: [TestField: String] = [
            .testType: "test_type", .testDate: "test_date", .technician: "technician",
            .licenceNumber: "licence_number", .instrumentModel: "instrument_model",
            .instrumentSerial: "instrument_serial", .procedureReference: "procedure_reference",
            .calibrationDate: "calibration_date", .calibrationAcknowledged: "calibration_acknowledged",
            .visual: "visual", .earthContinuity: "earth_continuity_ohm", .insulation: "insulation_mohm",
            .leakage: "leakage_ma", .polarity: "polarity", .rcdType: "rcd_type", .rcdPushButton: "rcd_push_button",
            .rcdTripTime: "rcd_trip_time_ms", .loadCurrent: "load_current_a", .notes: "notes",
            .result: "result_choice",
        ]
        return paths[field] ?? field.label
    }

    /// The technician --examiner names, as the register spells them: an examiner of its particulars, or a person
    /// who holds a key in it (who has saved a test on some machine).
    static func knownTechnician(_ name: String, in register: Register) throws -> String {
        if let known = try register.knownPerson(name) { return known }
        let listed = try register.knownPeople().joined(separator: ", ")
        throw CommandFailure("rigbook: \(VisibleText.make(name)) is neither an examiner of this register nor a "
                             + "technician with a key in "
                             + "it" + (listed.isEmpty ? "" : " (known: \(listed))") + "; add one with `rigbook "
                             + "settings add examiner` or `rigbook keys new --examiner NAME`. Nothing was saved")
    }

    /// The record an amendment corrects: the one `reportNumber` names, or the newest amendment of it, on the
    /// same asset.
    static func amended(_ reportNumber: String, of asset: Asset, in register: Register) throws -> StoredInspection {
        var record = try RecordReference.resolve(reportNumber, in: register, allowingTag: false)
        guard record.assetUUID == asset.uuid else {
            throw CommandFailure("rigbook: \(reportNumber) is a record of another asset; nothing was saved")
        }
        while let newer = try record.supersededByUUID.flatMap({ try register.inspection(uuid: $0) }) {
            record = newer
        }
        return record
    }
}
