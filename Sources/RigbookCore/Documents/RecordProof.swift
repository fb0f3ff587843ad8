import Foundation

/// Who signed a record: the examiner the key is for, and the key's fingerprint.
public struct SignedBy: Sendable, Hashable {
    public var examiner: String
    public var fingerprint: String

    public init(examiner: String, fingerprint: String) {
        self.examiner = examiner
        self.fingerprint = fingerprint
    }

    /// How a record viewer says it: "Jo Bloggs, key 3f2a 9c01 77be 0d4e".
    public var text: String { "\(examiner), key \(RecordProof.grouped(fingerprint))" }

    /// What a record saved before keys says instead.
    public static let beforeKeys = "unsigned (before keys)"
}

/// What a certificate carries so that anyone can check it without the register: the record's canonical bytes (the
/// bytes its chain hash is computed over), the examiner's signature over them and the examiner's public key. Written
/// into the certificate as a small JSON file (a PDF's embedded file, an HTML page's `<script type="application/json">`)
/// with one key a line, so that Debian's sed, base64 and openssl can check it with no Rigbook at all
/// (docs/FORMATS.md, "Checking a certificate").
public struct RecordProof: Sendable, Hashable {
    public var recordUUID: String
    public var recordHash: String
    public var examiner: String
    public var fingerprint: String
    /// The record's canonical text, exactly as hashed and signed.
    public var record: [UInt8]
    public var signature: [UInt8]
    /// The examiner's public key as PEM.
    public var publicKeyPEM: String

    public init(recordUUID: String, recordHash: String, examiner: String, fingerprint: String, record: [UInt8],
                signature: [UInt8], publicKeyPEM: String) {
        self.recordUUID = recordUUID
        self.recordHash = recordHash
        self.examiner = examiner
        self.fingerprint = fingerprint
        self.record = record
        self.signature = signature
        self.publicKeyPEM = publicKeyPEM
    }

    public static let format = "rigbook-proof 1"

    /// The file's name in a PDF, and the script's in a page.
    public var fileName: String { "rigbook-proof-\(recordUUID.lowercased()).json" }

    /// The fingerprint as people read it: its first 16 digits in fours.
    public var shortFingerprint: String { Self.grouped(fingerprint) }

    /// A fingerprint's first 16 digits in fours (`3f2a 9c01 77be 0d4e`): how people read a key's name.
    public static func grouped(_ fingerprint: String) -> String {
        var groups: [Substring] = []
        var rest = Substring(fingerprint.prefix(16))
        while !rest.isEmpty {
            groups.append(rest.prefix(4))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }

    /// The JSON file: one key a line, every value that is not plain text in base64.
    public var json: String {
        func line(_ key: String, _ value: String, last: Bool = false) -> String {
            "  \"\(key)\": \(JSONObject.quote(value))\(last ? "" : ",")\n"
        }
        return "{\n" + line("format", Self.format) + line("record_uuid", recordUUID.lowercased())
            + line("record_hash", recordHash) + line("examiner", examiner) + line("fingerprint", fingerprint)
            + line("record_base64", Data(record).base64EncodedString())
            + line("signature_base64", Data(signature).base64EncodedString())
            + line("public_key_base64", Data(publicKeyPEM.utf8).base64EncodedString(), last: true) + "}\n"
    }

    /// A proof read back from its JSON; nil when the text is not one.
    public init?(json text: String) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              object["format"] as? String == Self.format,
              let uuid = object["record_uuid"] as? String, let hash = object["record_hash"] as? String,
              let examiner = object["examiner"] as? String, let fingerprint = object["fingerprint"] as? String,
              let record = (object["record_base64"] as? String).flatMap({ Data(base64Encoded: $0) }),
              let signature = (object["signature_base64"] as? String).flatMap({ Data(base64Encoded: $0) }),
              let key = (object["public_key_base64"] as? String).flatMap({ Data(base64Encoded: $0) })
        else { return nil }
        self.init(recordUUID: uuid, recordHash: hash, examiner: examiner, fingerprint: fingerprint,
                  record: Array(record), signature: Array(signature),
                  publicKeyPEM: String(decoding: key, as: UTF8.self))
    }
}
