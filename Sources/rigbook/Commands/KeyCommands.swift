import Foundation
import RigbookCore
import RigbookStore

/// `rigbook keys list|new|export|import|retire`: examiners' signing keys. The register holds the public keys (added,
/// retired with a reason, never edited); this machine's private keys stay in the data home's `keys` folder, and no
/// command writes one anywhere else.
enum KeyCommands {
    static let all = [list, new, export, importKey, retire]

    static let examiner = Option("--examiner", "NAME", "The examiner whose key it is.")
    static let key = Operand("KEY", missing: "the KEY (a fingerprint)")

    struct NewOptions: OptionTable {
        let examiner = KeyCommands.examiner
    }

    struct ExportOptions: OptionTable {
        let key = KeyCommands.key
        let out = Option("--out", "FILE.pem", "Write the key to FILE.pem instead of standard output.", kind: .file)
    }

    struct ImportOptions: OptionTable {
        let file = Operand("FILE.pem", missing: "the FILE.pem", kind: .file)
        let examiner = KeyCommands.examiner
    }

    struct RetireOptions: OptionTable {
        let key = KeyCommands.key
        let reason = Option("--reason", "TEXT", "Why it is retired (lost laptop, replaced key…).")
    }

    static let list = CommandSpec(
        name: "keys list", abstract: "List the examiners' keys the register holds, and which are on this machine.",
        usage: "rigbook keys list",
        discussion: """
            One line a key: its fingerprint (the SHA-256 of the public key; the first 16 digits name it), the
            examiner, when it was added, whether it is retired (when, and why), and whether its private key is on
            this machine. An examiner on two laptops has two keys.
            """,
        options: NoOptions.self
    ) { arguments, context in
        try arguments.finish()
        let register = try context.readRegister()
        let keys: [ExaminerKeyRecord]
        do { keys = try register.examinerKeys() } catch { throw CommandFailure("rigbook: \(error)") }
        guard !keys.isEmpty else {
            try Output.line("No examiner keys yet: one is made the first time an examiner saves on a machine, or "
                            + "with `rigbook keys new --examiner NAME`.")
            return ExitCode.success
        }
        let here = Set(KeyRing(home: context.home).fingerprints())
        let rows = keys.map { key in
            [key.publicKey.shortFingerprint, key.examiner + (key.sample ? " (sample key)" : ""),
             String(key.addedAt.prefix(10)),
             key.retiredAt.map { "retired \($0.prefix(10)): \(key.retirementReason ?? "")" } ?? "in use",
             here.contains(key.fingerprint) ? "here" : "—"]
        }
        var out = Output()
        try out.write(TextTable.render(header: ["KEY", "EXAMINER", "ADDED", "STATE", "PRIVATE KEY"], rows: rows))
        try out.flush()
        return ExitCode.success
    }

    static let new = CommandSpec(
        name: "keys new", abstract: "Make a signing key for an examiner on this machine.",
        usage: "rigbook keys new --examiner NAME",
        discussion: """
            Makes an Ed25519 key pair: the private key in this data home (keys/FINGERPRINT.pem, mode 0600), under
            the passphrase in the file RIGBOOK_KEY_PASSPHRASE_FILE names when it is set; the public key into the
            register, where it travels with backup, merge and sync. Saves by NAME are signed with it from then on.
            """,
        options: NewOptions.self
    ) { arguments, context in
        guard let examiner = try arguments.value(\.examiner), !examiner.trimmingCharacters(in: .whitespaces).isEmpty
        else { throw UsageError("keys new needs --examiner NAME") }
        try arguments.finish()
        let register = try context.openRegister()
        let ring = KeyRing(home: context.home)
        let key: SigningKey
        // Already one here: the new one signs from now on (`fingerprint(for:)` takes the newest), said.
        let earlier = (try? register.examinerKeys()).flatMap { ring.fingerprint(for: examiner, in: $0) }
        do {
            key = try ring.createAdded(to: register, examiner: examiner,
                                       passphrase: try KeyRing.passphraseFromEnvironment(context.environment),
                                       stamp: SaveStamp(today: context.today))
        } catch { throw CommandFailure("rigbook: \(error); no key was added") }
        let name = examiner.trimmingCharacters(in: .whitespaces)
        try Output.line("Key \(key.publicKey.shortFingerprint) made for \(name) "
                        + "(fingerprint \(key.publicKey.fingerprint))."
                        + (earlier.map { " It signs from now on, in place of \(RecordProof.grouped($0)) on this machine "
                            + "(retire that one with `rigbook keys retire`)." } ?? ""))
        return ExitCode.success
    }

    static let export = CommandSpec(
        name: "keys export", abstract: "Write an examiner's public key as PEM, for a client or another register.",
        usage: "rigbook keys export KEY [--out FILE.pem]",
        discussion: """
            KEY is a fingerprint or its start (at least 8 digits; spaces are ignored). Only the public key is ever
            written: a private key never leaves its data home by a command. Without --out it goes to standard
            output.
            """,
        options: ExportOptions.self
    ) { arguments, context in
        let out = try arguments.value(\.out)
        let word = try arguments.operand(\.key)
        try arguments.finish()
        let key = try find(word, in: try context.readRegister())
        let pem: String
        do { pem = try key.publicKey.pem } catch { throw CommandFailure("rigbook: \(error)") }
        try withSink(out, home: context.home) { try $0(pem) }
        return ExitCode.success
    }

    static let importKey = CommandSpec(
        name: "keys import", abstract: "Add an examiner's public key (PEM) made on another machine.",
        usage: "rigbook keys import FILE.pem --examiner NAME",
        discussion: """
            For an examiner whose laptop does not sync with this register: records signed with the key can then be
            checked here. A private key file is refused, whatever it holds: only public keys are imported.
            """,
        options: ImportOptions.self
    ) { arguments, context in
        guard let examiner = try arguments.value(\.examiner), !examiner.trimmingCharacters(in: .whitespaces).isEmpty
        else { throw UsageError("keys import needs --examiner NAME") }
        let file = try arguments.operand(\.file)
        try arguments.finish()
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure("rigbook: cannot read \(file); no key was added")
        }
        // A key in binary (DER) form reads as no text: say how to make the PEM the command takes.
        guard let text = String(data: data, encoding: .utf8), !text.contains("\u{0}") else {
            throw CommandFailure("rigbook: \(file) is not a PEM key (text starting -----BEGIN PUBLIC KEY-----); a "
                                 + "binary (DER) public key becomes one with `openssl pkey -pubin -inform DER -in "
                                 + "\(file) -out key.pem`; no key was added")
        }
        if text.contains("PRIVATE KEY") {
            throw CommandFailure("rigbook: \(file) holds a private key: import the public key (`rigbook keys export` "
                                 + "on its machine); no key was added")
        }
        let register = try context.openRegister()
        do {
            let key = try PublicKey(pem: text)
            try register.addKey(key, examiner: examiner, stamp: SaveStamp(today: context.today))
            try Output.line("Key \(key.shortFingerprint) of \(examiner.trimmingCharacters(in: .whitespaces)) added.")
        } catch let error as StandardStreams.Failure {
            throw error
        } catch { throw CommandFailure("rigbook: \(error); no key was added") }
        return ExitCode.success
    }

    static let retire = CommandSpec(
        name: "keys retire", abstract: "Retire a key (a lost or replaced laptop): it signs nothing from now on.",
        usage: "rigbook keys retire KEY --reason TEXT",
        discussion: """
            What the key signed before stays valid; a record signed with it after now fails `rigbook verify`. The
            retirement is an entry of the register's chain, with who and when, and cannot be undone: make a new
            key (`rigbook keys new`) for the examiner.
            """,
        options: RetireOptions.self
    ) { arguments, context in
        guard let reason = try arguments.value(\.reason), !reason.trimmingCharacters(in: .whitespaces).isEmpty
        else { throw UsageError("keys retire needs --reason TEXT (why: lost laptop, replaced key…)") }
        let word = try arguments.operand(\.key)
        try arguments.finish()
        let key = try find(word, in: try context.readRegister())
        let register = try context.openRegister()
        do {
            try register.retireKey(fingerprint: key.fingerprint, reason: reason, stamp: SaveStamp(today: context.today))
        } catch { throw CommandFailure("rigbook: \(error)") }
        try Output.line("Key \(key.publicKey.shortFingerprint) of \(key.examiner) retired: \(reason).")
        return ExitCode.success
    }

    /// The one key whose fingerprint starts with `word` (spaces ignored, at least 8 digits).
    static func find(_ word: String, in register: Register) throws -> ExaminerKeyRecord {
        let prefix = word.lowercased().filter { !$0.isWhitespace }
        guard prefix.count >= 8, prefix.allSatisfy(\.isHexDigit) else {
            throw UsageError("give a key's fingerprint, or at least its first 8 digits (`rigbook keys list`)")
        }
        let keys: [ExaminerKeyRecord]
        do { keys = try register.examinerKeys() } catch { throw CommandFailure("rigbook: \(error)") }
        let found = keys.filter { $0.fingerprint.hasPrefix(prefix) }
        guard found.count == 1, let key = found.first else {
            throw CommandFailure("rigbook: " + (found.isEmpty ? "no key \(word) in the register (`rigbook keys list`)"
                                                : "\(word) starts \(found.count) keys' fingerprints: give more digits"))
        }
        return key
    }
}
