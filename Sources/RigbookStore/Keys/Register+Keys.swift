import Foundation
import RigbookCore

/// An examiner's public key as the register holds it: added, and retired from a time on with a reason.
public struct ExaminerKeyRecord: Sendable, Hashable {
    public var publicKey: PublicKey
    public var examiner: String
    /// One of the sample data's keys, never a person's.
    public var sample: Bool
    public var addedAt: String
    public var retiredAt: String?
    public var retirementReason: String?

    public var fingerprint: String { publicKey.fingerprint }
}

/// A record's signature as the register holds it.
public struct RecordSignature: Sendable, Hashable {
    /// The kind of entry signed (`inspection`, `electrical_test`, `notice`).
    public var recordKind: String
    public var recordUUID: String
    public var recordHash: String
    public var fingerprint: String
    public var signature: [UInt8]
    public var signedAt: String
}

extension Register {
    /// Adds an examiner's public key. A key the register holds already is refused: a key is added once.
    public func addKey(_ key: PublicKey, examiner: String, sample: Bool = false,
                       stamp: SaveStamp = SaveStamp()) throws(RegisterError) {
        let name = examiner.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw .writeFailed("a key needs the examiner's name") }
        if let problem = SignatureStore.textProblem(name, what: "the examiner's name", limit: Asset.maxTextLength) {
            throw .writeFailed(problem)
        }
        try perform {
            try db.transaction {
                if try db.scalar("SELECT 1 FROM examiner_keys WHERE fingerprint = ?", [.text(key.fingerprint)]) != nil {
                    throw RegisterError.writeFailed("the register holds key \(key.shortFingerprint) already")
                }
                try HashChain.append(db, SignatureStore.key, [
                    .text(UUID().uuidString), .text(key.fingerprint), .text(Data(key.raw).base64EncodedString()),
                    .text(name), .integer(sample ? 1 : 0), .text(stamp.savedAt), .text(stamp.operatorName),
                ])
            }
        }
    }

    /// Retires a key from now on: what it signed before stays valid, nothing it signs after is.
    public func retireKey(fingerprint: String, reason: String, stamp: SaveStamp = SaveStamp()) throws(RegisterError) {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else { throw .writeFailed("a key is retired with a reason") }
        if let problem = SignatureStore.textProblem(reason, what: "the reason", limit: 1_000) {
            throw .writeFailed(problem)
        }
        try perform {
            try db.transaction {
                guard let key = try examinerKeys().first(where: { $0.fingerprint == fingerprint }) else {
                    throw RegisterError.writeFailed("the register holds no key \(fingerprint)")
                }
                if let retired = key.retiredAt {
                    throw RegisterError.writeFailed("key \(key.publicKey.shortFingerprint) was retired on \(retired)")
                }
                try HashChain.append(db, SignatureStore.retirement, [
                    .text(UUID().uuidString), .text(fingerprint), .text(reason), .text(stamp.savedAt),
                    .text(stamp.operatorName),
                ])
            }
        }
    }

    /// Every examiner's key the register holds, in the order they were added.
    public func examinerKeys() throws(RegisterError) -> [ExaminerKeyRecord] {
        try perform {
            let statement = try db.prepare("""
                SELECT k.public_key, k.examiner_name, k.sample, k.added_at, r.retired_at, r.reason
                FROM examiner_keys k LEFT JOIN key_retirements r ON r.fingerprint = k.fingerprint ORDER BY k.id
                """)
            var keys: [ExaminerKeyRecord] = []
            while try statement.step() {
                guard let raw = Data(base64Encoded: statement.text(0)),
                      let key = try? PublicKey(raw: Array(raw)) else { continue }
                keys.append(ExaminerKeyRecord(publicKey: key, examiner: statement.text(1),
                                              sample: statement.int(2) != 0,
                                              addedAt: statement.text(3), retiredAt: statement.optionalText(4),
                                              retirementReason: statement.optionalText(5)))
            }
            return keys
        }
    }

    /// The signatures of the record (inspection, test or notice) `uuid` names.
    public func signatures(of uuid: UUID) throws(RegisterError) -> [RecordSignature] {
        try perform {
            let statement = try db.prepare("""
                SELECT record_kind, record_uuid, record_hash, fingerprint, signature, signed_at FROM signatures
                WHERE record_uuid = ? ORDER BY id
                """)
            try statement.bind([.text(uuid.uuidString)])
            var found: [RecordSignature] = []
            while try statement.step() {
                found.append(RecordSignature(recordKind: statement.text(0), recordUUID: statement.text(1),
                                             recordHash: statement.text(2), fingerprint: statement.text(3),
                                             signature: Array(Data(base64Encoded: statement.text(4)) ?? Data()),
                                             signedAt: statement.text(5)))
            }
            return found
        }
    }

    /// What a certificate of the inspection or test `uuid` carries so that anyone can check it: its canonical bytes,
    /// its first signature and the key that made it. Nil for a record saved before keys.
    public func proof(of uuid: UUID) throws(RegisterError) -> RecordProof? {
        guard let signature = try signatures(of: uuid).first else { return nil }
        guard let key = try examinerKeys().first(where: { $0.fingerprint == signature.fingerprint }),
              let kind = HashChain.kinds.first(where: { $0.name == signature.recordKind }),
              let column = SignatureStore.signable[kind.name]?.uuid else { return nil }
        return try perform {
            let statement = try db.prepare(kind.selectSQL(where: "\(column) = ?"))
            try statement.bind([.text(uuid.uuidString)])
            guard try statement.step() else { return nil }
            let canonical = HashChain.canonical(kind, statement)
            return RecordProof(recordUUID: uuid.uuidString, recordHash: signature.recordHash, examiner: key.examiner,
                               fingerprint: key.fingerprint, record: Array(canonical.utf8),
                               signature: signature.signature, publicKeyPEM: try key.publicKey.pem)
        }
    }

    /// The people who may vouch for a record from outside the form: the register's examiners and everyone who
    /// holds a key in it not retired, as the register spells them, each once.
    public func knownPeople() throws(RegisterError) -> [String] {
        var seen: Set<String> = []
        // A key retired makes no one known: a person whose only key is retired signs nothing by a new one.
        return (try particulars().examiners.values.map(\.name).sorted()
                + examinerKeys().filter { $0.retiredAt == nil }.map(\.examiner))
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { seen.insert($0.lowercased()).inserted }
    }

    /// `name` as the register spells it among `knownPeople` (letter case and surrounding spaces aside); nil for a
    /// stranger, a look-alike or a typo, which must never quietly become a new signing identity.
    /// `people`: the `knownPeople` already read, for many names in a row.
    public func knownPerson(_ name: String, among people: [String]? = nil) throws(RegisterError) -> String? {
        let folded = name.trimmingCharacters(in: .whitespaces).lowercased()
        let candidates: [String]
        if let people { candidates = people } else { candidates = try knownPeople() }
        return candidates.first { $0.lowercased() == folded }
    }

    /// Refuses a signer whose key the register does not hold, or has retired.
    func requireSigning(_ signer: RecordSigner) throws {
        let held = try examinerKeys().first { $0.fingerprint == signer.fingerprint }
        guard let held else {
            throw RegisterError.writeFailed("the register does not hold the key "
                                            + "\(signer.key.publicKey.shortFingerprint) of \(signer.examiner): "
                                            + "nothing was saved")
        }
        if let retired = held.retiredAt {
            throw RegisterError.writeFailed("the key \(signer.key.publicKey.shortFingerprint) of \(held.examiner) was "
                                            + "retired on \(retired): nothing was saved")
        }
    }

    /// Runs `body` (a save) with what it writes of a person's signed by `signer`, once the register holds the
    /// signer's key for that examiner and has not retired it. Nil: nothing is signed (the records of a register
    /// without keys).
    @discardableResult
    public func signing<T>(with signer: RecordSigner?, _ body: () throws -> T) throws -> T {
        guard let signer else { return try body() }
        try requireSigning(signer)
        db.signer = signer
        defer {
            db.signer = nil
            db.pendingSignatures = []
        }
        return try body()
    }
}
