import Foundation
import RigbookCore

/// This machine's examiners' private keys, one file each in the data home's `keys` folder, named by the key's
/// fingerprint: made here, read here, never copied by a command. A key file anyone else can read is refused, as ssh
/// refuses one: a key others can read signs for its examiner in their hands too.
public struct KeyRing: Sendable {
    public let home: DataHome

    public init(home: DataHome) {
        self.home = home
    }

    private var folder: String { home.keysFolder }

    private func path(_ fingerprint: String) -> String { folder + "/" + fingerprint + ".pem" }

    /// The fingerprints of the keys on this machine.
    public func fingerprints() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".pem") }.map { String($0.dropLast(4)) }
            .filter { $0.count == 64 && $0.allSatisfy(\.isHexDigit) }.sorted()
    }

    /// Whether the key is under a passphrase.
    public func isLocked(_ fingerprint: String) -> Bool {
        (try? String(contentsOfFile: path(fingerprint), encoding: .utf8))?.contains("ENCRYPTED PRIVATE KEY") ?? false
    }

    /// A new key, written to its file (0600) under `passphrase` when there is one.
    public func create(passphrase: String?) throws -> SigningKey {
        let key = try SigningKey.generate()
        let text = try key.pem(passphrase: passphrase)
        try DataHome.makePrivateDirectory(folder)
        // Created exclusively: a key file is never replaced.
        let name = key.publicKey.fingerprint + ".pem"
        _ = try AtomicFile.createNew(in: folder, permissions: .private, named: { _ in name }) {
            try $0.write(contentsOf: Data(text.utf8))
        }
        return key
    }

    /// The key `fingerprint` names, opened with `passphrase` when it is under one.
    public func load(_ fingerprint: String, passphrase: String?) throws(KeyError) -> SigningKey {
        let file = path(fingerprint)
        try Self.requirePrivate(folder, what: "the keys folder", fix: "chmod 700")
        var info = stat()
        guard lstat(file, &info) == 0 else {
            throw KeyError("no key \(fingerprint) on this machine (\(file) is missing)")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw KeyError("\(file) is not a regular file") }
        guard info.st_uid == geteuid() else { throw KeyError("\(file) belongs to another user") }
        guard info.st_mode & 0o077 == 0 else {
            throw KeyError("\(file) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))): "
                           + "run chmod 600 \(file), then save again")
        }
        let text: String
        do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
            throw KeyError("cannot read \(file): \(DataHome.reason(error))")
        }
        let key: SigningKey
        do { key = try SigningKey(pem: text, passphrase: passphrase) } catch {
            throw KeyError("\(file): \(error.description)")
        }
        guard key.publicKey.fingerprint == fingerprint else {
            throw KeyError("\(file) holds another key than its name says")
        }
        return key
    }

    /// The key that signs for `examiner` on this machine: the register's newest key of that examiner, not retired,
    /// whose private key is here. Nil when there is none.
    public func fingerprint(for examiner: String, in keys: [ExaminerKeyRecord]) -> String? {
        let here = Set(fingerprints())
        let name = examiner.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return keys.last { key in
            key.retiredAt == nil && here.contains(key.fingerprint)
                && key.examiner.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == name
        }?.fingerprint
    }

    /// The signer for `examiner`: this machine's key for them, or, when they have none here, a new key made and
    /// added to the register (the first time an examiner saves on a machine). `passphrase` is asked only of a key
    /// under one, and gives the passphrase a new key is written under (none: written plain).
    public func signer(for examiner: String, register: Register,
                       passphrase: (_ newKey: Bool) throws -> String?) throws -> RecordSigner {
        let keys = try register.examinerKeys()
        if let fingerprint = fingerprint(for: examiner, in: keys) {
            let key = try load(fingerprint, passphrase: isLocked(fingerprint) ? try passphrase(false) : nil)
            return RecordSigner(key: key, examiner: examiner)
        }
        let key = try createAdded(to: register, examiner: examiner, passphrase: try passphrase(true))
        return RecordSigner(key: key, examiner: examiner)
    }

    /// A new key for `examiner`, its public key added to the register; when the register refuses it, its file is
    /// removed again, so no private key lies about that signs for nobody.
    public func createAdded(to register: Register, examiner: String, passphrase: String?,
                            stamp: SaveStamp = SaveStamp()) throws -> SigningKey {
        let key = try create(passphrase: passphrase)
        do {
            try register.addKey(key.publicKey, examiner: examiner, stamp: stamp)
        } catch {
            unlink(path(key.publicKey.fingerprint))
            throw error
        }
        return key
    }

    /// The passphrase a key needs: the one in the file `RIGBOOK_KEY_PASSPHRASE_FILE` names when it is set; none for a
    /// new key without it (written plain); else `asked()` (the screen asks the person, a command refuses).
    public static func passphrase(newKey: Bool, environment: [String: String],
                                  otherwise asked: () throws -> String) throws -> String? {
        if let file = try passphraseFromEnvironment(environment) { return file }
        return newKey ? nil : try asked()
    }

    /// Refuses a file or folder others can read or write: what is in it signs for an examiner.
    static func requirePrivate(_ path: String, what: String, fix: String) throws(KeyError) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        guard info.st_mode & 0o077 == 0 else {
            throw KeyError("\(what) \(path) can be reached by others (mode \(String(info.st_mode & 0o777, radix: 8))):"
                           + " run \(fix) \(path), then try again")
        }
    }

    /// The passphrase in the file `RIGBOOK_KEY_PASSPHRASE_FILE` names (its first line), for commands without a
    /// terminal; nil when the variable is not set. Never from an argument, which `ps` shows to everyone; never from
    /// a file others can read.
    public static func passphraseFromEnvironment(_ environment: [String: String]) throws(KeyError) -> String? {
        guard let file = environment["RIGBOOK_KEY_PASSPHRASE_FILE"], !file.isEmpty else { return nil }
        try requirePrivate(file, what: "the passphrase file", fix: "chmod 600")
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw KeyError("cannot read the passphrase file \(file) (RIGBOOK_KEY_PASSPHRASE_FILE)")
        }
        // The first line, its line end (LF or CRLF) not part of it.
        var line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if line.hasSuffix("\r") { line.removeLast() }
        guard !line.isEmpty else { throw KeyError("the passphrase file \(file) is empty") }
        return line
    }
}
