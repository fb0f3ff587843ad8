import Foundation
import RigbookCore
import RigbookStore

/// `rigbook record TAG --from FILE.json`: an inspection record from outside the form (a script, another system),
/// through the same gate, authenticated on the command line, never from the file, and signed with the examiner's
/// key. docs/FORMATS.md ("`rigbook record`") lists the keys it reads.
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

    static let spec = CommandSpec(
        name: "record", abstract: "Save an inspection record from a JSON file, through the form's gate, signed.",
        usage: "rigbook record TAG --from FILE.json|- --examiner NAME --authenticate [--amends REPORT_NO] [--dry-run]",
        discussion: """
            FILE holds one JSON object shaped like an entry of `history --format json`: the form's fields
            (inspection_type, result, defect_description, inspection_date, …) and the report particulars by
            their keys; `-` reads standard input. Keys the register makes (id, saved_at, record_uuid,
            report_number, hashes…) and unknown keys are refused by name, and so are confirmed and
            authenticated: who vouches for the record is --examiner NAME (an examiner of the register's
            particulars), with --authenticate, never the file. The record is checked by the form's gate
            (every refusal listed with its field, exit 1, nothing written) and signed with the examiner's
            key on this machine (made at their first save here; under a passphrase, read from the file
            RIGBOOK_KEY_PASSPHRASE_FILE names). --amends REPORT_NO makes an amendment (give
            amendment_reason). --dry-run checks and prints what would be saved, and saves nothing.
            """,
        flags: ["--authenticate", "--dry-run"]
    ) { arguments, context in
        guard let from = try arguments.option("--from") else { throw UsageError("record needs --from FILE.json") }
        guard let examiner = try arguments.option("--examiner")?.trimmingCharacters(in: .whitespaces),
              !examiner.isEmpty else { throw UsageError("record needs --examiner NAME: who makes the report") }
        let authenticate = arguments.flag("--authenticate"), dryRun = arguments.flag("--dry-run")
        let amends = try arguments.option("--amends")
        let tag = try arguments.positional("the TAG of the asset examined")
        try arguments.finish()
        guard authenticate else {
            throw UsageError("record needs --authenticate: by it \(examiner) authenticates the report, as the form's "
                             + "tick does; a file cannot")
        }
        let object = try readObject(from)
        let register = try context.openRegister()
        do {
            guard let row = try register.asset(tag: tag) else {
                throw CommandFailure("rigbook: no asset is tagged \(tag); nothing was saved")
            }
            if row.asset.isElectrical {
                throw CommandFailure("rigbook: \(row.asset.tag) is an electrical item: it is tested, not inspected; "
                                     + "nothing was saved")
            }
            let particulars = try register.particulars()
            guard let known = particulars.examiners.values.first(where: {
                $0.name.trimmingCharacters(in: .whitespaces).lowercased() == examiner.lowercased()
            }) else {
                let names = particulars.examiners.values.map(\.name).sorted().joined(separator: ", ")
                throw CommandFailure("rigbook: \(examiner) is not an examiner of this register"
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
        } catch let error as StandardStreams.Failure {
            throw error
        } catch {
            throw CommandFailure("rigbook: \(error); nothing was saved")
        }
        return ExitCode.success
    }

    /// The JSON object the file holds, its keys checked: those the register makes, authentication and unknown
    /// ones are refused, each by name.
    static func readObject(_ from: String) throws -> [String: Any] {
        let data: Data?
        if from == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: from)
        }
        guard let data else { throw CommandFailure("rigbook: cannot read \(from); nothing was saved") }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw CommandFailure("rigbook: \(from) is not one JSON object; nothing was saved")
        }
        var refusals: [String] = []
        for key in object.keys.sorted() {
            if authentication.contains(key) {
                refusals.append("\(key): authentication is given on the command line (--authenticate), never "
                                + "read from a file")
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
        return object
    }

    /// The form's values from the file's keys over a new form's, the inspector the examiner named.
    static func values(_ object: [String: Any], examiner: Examiner) throws -> InspectionValues {
        if let named = object["inspector_name"] as? String,
           named.trimmingCharacters(in: .whitespaces).lowercased() != examiner.name.lowercased() {
            throw CommandFailure("rigbook: inspector_name says \(named), --examiner \(examiner.name): the person "
                                 + "who authenticates is the one who made the report; nothing was saved")
        }
        var fresh = InspectionValues()
        fresh.inspectorName = examiner.name
        fresh.certificationNumber = examiner.qualification
        let base = try JSONSerialization.jsonObject(with: JSONEncoder().encode(fresh)) as? [String: Any] ?? [:]
        let merged = base.merging(object) { _, given in given }
        do {
            return try JSONDecoder().decode(InspectionValues.self,
                                            from: JSONSerialization.data(withJSONObject: merged))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.dataCorrupted(context) {
            let key = context.codingPath.last?.stringValue ?? "the file"
            throw CommandFailure("rigbook: \(key): not a value it can hold (\(context.debugDescription)); "
                                 + "nothing was saved")
        }
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
