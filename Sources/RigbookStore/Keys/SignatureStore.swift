import Foundation
import RigbookCore

/// Who vouches for a record, provably: an examiner's key signs the record's canonical bytes (the very bytes its
/// chain hash is computed over) at the gate, in the save's own transaction, and the signature is an entry of the
/// chain of its own. Examiners' public keys are entries too, added and retired with a reason, never edited, so
/// they travel with backup, merge and sync like every other entry. docs/FORMATS.md ("Signatures") describes them.
enum SignatureStore {
    /// A key added: the examiner it is for, and whether it is one of the sample data's.
    static let key = HashChain.Kind(
        name: "examiner_key", table: "examiner_keys",
        columns: ["entry_uuid", "fingerprint", "public_key", "examiner_name", "sample", "added_at", "operator"],
        hashColumn: "entry_hash", key: "id", order: "id",
        label: "'key ' || fingerprint || ' of ' || examiner_name || ' (entry ' || id || ')'")

    /// A key retired, from `retired_at` on, with the reason.
    static let retirement = HashChain.Kind(
        name: "key_retirement", table: "key_retirements",
        columns: ["entry_uuid", "fingerprint", "reason", "retired_at", "operator"],
        hashColumn: "entry_hash", key: "id", order: "id",
        label: "'retirement of key ' || fingerprint || ' (entry ' || id || ')'")

    /// A record's signature: the record by kind, uuid and hash, the key by fingerprint, the signature in base64.
    static let signature = HashChain.Kind(
        name: "signature", table: "signatures",
        columns: ["entry_uuid", "record_kind", "record_uuid", "record_hash", "fingerprint", "signature", "signed_at"],
        hashColumn: "entry_hash", key: "id", order: "id",
        label: "'signature of ' || record_kind || ' ' || lower(record_uuid) || ' (entry ' || id || ')'")

    /// The kinds of entry a person vouches for, each with the column that names it and the one that dates it (a
    /// notice only when it records a duty done).
    static let signable: [String: (uuid: String, saved: String)] = [
        HashChain.inspection.name: ("record_uuid", "saved_at"),
        HashChain.electricalTest.name: ("test_uuid", "saved_at"),
        HashChain.notice.name: ("notice_uuid", "recorded_at"),
    ]

    /// The tables, append-only like every table of evidence.
    static func migrationSQL(appendOnly: (String, String) -> String) -> String {
        """
        CREATE TABLE examiner_keys (
            id INTEGER PRIMARY KEY,
            entry_uuid TEXT NOT NULL UNIQUE,
            fingerprint TEXT NOT NULL UNIQUE CHECK (length(fingerprint) = 64 AND fingerprint NOT GLOB '*[^0-9a-f]*'),
            public_key TEXT NOT NULL,
            examiner_name TEXT NOT NULL,
            sample INTEGER NOT NULL CHECK (sample IN (0, 1)),
            added_at TEXT NOT NULL,
            operator TEXT NOT NULL,
            entry_hash TEXT NOT NULL UNIQUE,
            parent_hash TEXT
        );
        \(appendOnly("examiner_keys", "examiner keys are evidence: retire a key instead"))
        CREATE TABLE key_retirements (
            id INTEGER PRIMARY KEY,
            entry_uuid TEXT NOT NULL UNIQUE,
            fingerprint TEXT NOT NULL UNIQUE,
            reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
            retired_at TEXT NOT NULL,
            operator TEXT NOT NULL,
            entry_hash TEXT NOT NULL UNIQUE,
            parent_hash TEXT
        );
        \(appendOnly("key_retirements", "the retirement of a key is evidence and stands"))
        CREATE TABLE signatures (
            id INTEGER PRIMARY KEY,
            entry_uuid TEXT NOT NULL UNIQUE,
            record_kind TEXT NOT NULL,
            record_uuid TEXT NOT NULL,
            record_hash TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            signature TEXT NOT NULL,
            signed_at TEXT NOT NULL,
            entry_hash TEXT NOT NULL UNIQUE,
            parent_hash TEXT
        );
        CREATE INDEX signatures_by_record ON signatures(record_uuid);
        \(appendOnly("signatures", "signatures are evidence and cannot be changed"))
        """
    }

    /// Signs an entry of `kind` whose canonical bytes were just hashed to `hash`, when the register has a signer and
    /// the kind is one a person vouches for: the signature waits in `db.pendingSignatures` until the entry's row is
    /// in, then `appendPending` chains it after the entry.
    static func sign(_ db: Database, _ kind: HashChain.Kind, canonical: [UInt8], hash: String,
                     _ value: (String) -> SQLValue) throws {
        guard let signer = db.signer,
              let signature = try signature(by: signer, kind, canonical: canonical, hash: hash, value) else { return }
        db.pendingSignatures.append(signature)
    }

    /// The signature entry's columns (`signature.columns`) when `signer` signs an entry of `kind` whose canonical
    /// bytes hash to `hash`; nil for an entry no person vouches for. Needs no register: a bulk load signs off the
    /// thread that writes.
    static func signature(by signer: RecordSigner, _ kind: HashChain.Kind, canonical: [UInt8], hash: String,
                          _ value: (String) -> SQLValue) throws -> [SQLValue]? {
        guard let columns = signable[kind.name] else { return nil }
        // A notice is vouched for when it says a duty was done; one a save opens is part of its record, signed.
        if kind.name == HashChain.notice.name && value("done_on") == .null { return nil }
        guard case .text(let uuid) = value(columns.uuid), case .text(let savedAt) = value(columns.saved) else {
            return nil
        }
        let signature = try signer.sign(canonical)
        // Signed as it is saved, so dated by its save; named by what it signs, so the same record and key always
        // give the same entry (sample data from one seed is one register).
        let name = try HashChain.sha256(uuid + " " + signer.fingerprint)
        return [
            .text(uuidText(hex: name)),
            .text(kind.name), .text(uuid), .text(hash), .text(signer.fingerprint),
            .text(Data(signature).base64EncodedString()), .text(savedAt),
        ]
    }

    /// Why a text a key entry keeps cannot be kept: too long, or holding what could drive a terminal or hide
    /// characters (control and invisible format characters); nil when it can.
    static func textProblem(_ text: String, what: String, limit: Int) -> String? {
        if text.count > limit { return "\(what) is longer than \(limit) characters" }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control
                                                   || VisibleText.isHiddenFormat($0) }) {
            return "\(what) holds control or invisible characters"
        }
        return nil
    }

    /// The first 32 hex digits of `hex` written as a uuid.
    private static func uuidText(hex: String) -> String {
        var digits = Substring(hex.prefix(32).uppercased())
        return [8, 4, 4, 4, 12].map { length in
            defer { digits = digits.dropFirst(length) }
            return String(digits.prefix(length))
        }.joined(separator: "-")
    }

    /// Chains the signatures waiting for their entries, which are now in.
    static func appendPending(_ db: Database) throws {
        guard !db.pendingSignatures.isEmpty else { return }
        let waiting = db.pendingSignatures
        db.pendingSignatures = []
        for values in waiting { try HashChain.append(db, signature, values) }
    }
}

/// What signs at the gate: an examiner's private key, once the register knows its public key and has not retired
/// it (checked by `Register.signing`).
public struct RecordSigner: Sendable {
    public let key: SigningKey
    public let examiner: String

    public init(key: SigningKey, examiner: String) {
        self.key = key
        self.examiner = examiner
        fingerprint = key.publicKey.fingerprint
    }

    /// Worked out once: every signature names it twice.
    let fingerprint: String

    func sign(_ bytes: [UInt8]) throws -> [UInt8] {
        do { return try key.sign(bytes) } catch { throw RegisterError.writeFailed("the record could not be signed: "
                                                                                     + error.description) }
    }
}

/// `verify`'s look at the signatures, made as it reads every entry: each signature against the key it names (known
/// to the register, not retired before the record was saved) and the canonical bytes of the record whose hash it
/// names. A record saved offline before its key's retirement and synced after it is valid: what counts is when it
/// was saved.
struct SignatureCheck {
    private struct Signed {
        let kind: String
        let fingerprint: String
        let signature: [UInt8]
    }

    private var byRecordHash: [String: [Signed]] = [:]
    private var keys: [String: (key: PublicKey, retiredAt: String?)] = [:]
    private var found = Set<String>()
    /// Each examiner (by name, folded) and when their first key was added.
    private var keyedSince: [String: String] = [:]
    /// Records saved after their examiner had a key, with no signature.
    private(set) var unsignedAfterKeys: [String] = []

    private static func folded(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
    private var noted: [String] = []

    init(_ db: Database) throws {
        let keyRows = try db.prepare("""
            SELECT k.fingerprint, k.public_key, r.retired_at, k.examiner_name, k.added_at FROM examiner_keys k
            LEFT JOIN key_retirements r ON r.fingerprint = k.fingerprint
            """)
        while try keyRows.step() {
            guard let raw = Data(base64Encoded: keyRows.text(1)), let key = try? PublicKey(raw: Array(raw)),
                  key.fingerprint == keyRows.text(0) else {
                noted.append("key \(keyRows.text(0)) in the register is not the key its fingerprint names")
                continue
            }
            keys[key.fingerprint] = (key, keyRows.optionalText(2))
            let examiner = SignatureCheck.folded(keyRows.text(3)), added = keyRows.text(4)
            if keyedSince[examiner].map({ added < $0 }) ?? true { keyedSince[examiner] = added }
        }
        let rows = try db.prepare("SELECT record_hash, record_kind, fingerprint, signature FROM signatures ORDER BY id")
        while try rows.step() {
            byRecordHash[rows.text(0), default: []].append(Signed(
                kind: rows.text(1), fingerprint: rows.text(2),
                signature: Array(Data(base64Encoded: rows.text(3)) ?? Data())))
        }
    }

    /// Checks the signatures of the entry a `selectSQL` statement of `kind` is on, whose hash is `hash`.
    mutating func check(_ kind: HashChain.Kind, _ statement: Statement, hash: String, canonical: String) {
        let hashed = kind.hashed
        func column(_ name: String) -> String? {
            hashed.firstIndex(of: name).flatMap { statement.optionalText(Int32($0)) }
        }
        let name = statement.text(Int32(hashed.count))
        let savedAt = SignatureStore.signable[kind.name].flatMap { column($0.saved) } ?? ""
        guard let signed = byRecordHash[hash] else {
            // A record its examiner saved after they had a key, unsigned: an older Rigbook's, or its signature
            // removed (with every hash after it made again). Noted, not failed: both happen.
            let examiner = kind.name == HashChain.inspection.name ? column("inspector_name")
                : kind.name == HashChain.electricalTest.name ? column("technician") : nil
            if let examiner, let since = keyedSince[SignatureCheck.folded(examiner)], since <= savedAt {
                unsignedAfterKeys.append("\(name), by \(examiner), was saved on \(savedAt) after they had a signing "
                                         + "key (from \(since)) and is not signed: saved by an older Rigbook, or its "
                                         + "signature was removed")
            }
            return
        }
        found.insert(hash)
        for signature in signed {
            guard signature.kind == kind.name else {
                noted.append("a signature names \(name) as a \(signature.kind)")
                continue
            }
            guard let key = keys[signature.fingerprint] else {
                noted.append("\(name) is signed by key \(signature.fingerprint), which the register does not hold")
                continue
            }
            if let retired = key.retiredAt, retired < savedAt {
                noted.append("\(name) is signed by key \(signature.fingerprint), retired on \(retired) before the "
                                + "record was saved on \(savedAt)")
            } else if !key.key.verifies(signature.signature, of: Array(canonical.utf8)) {
                noted.append("the signature of \(name) by key \(signature.fingerprint) does not match the record")
            }
        }
    }

    /// How many signatures the register holds.
    var count: Int { byRecordHash.values.reduce(0) { $0 + $1.count } }

    /// What did not hold, and every signature naming a record the register does not have.
    func problems() -> [String] {
        noted + byRecordHash.keys.filter { !found.contains($0) }.sorted().map { hash in
            "a signature names a record \(hash) that is not in the register"
        }
    }
}
