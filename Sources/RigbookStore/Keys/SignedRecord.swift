import Foundation
import RigbookCore

/// A signed record as a certificate carries it (`RecordProof`), checked with nothing but itself: its bytes give its
/// hash, its key gives its fingerprint, and the key's signature covers the bytes. What `verify --certificate` asks.
public enum SignedRecord {
    /// Why the proof does not hold; nil when it does.
    public static func problem(_ proof: RecordProof) -> String? {
        guard let hash = try? HashChain.sha256(proof.record), hash == proof.recordHash else {
            return "the record it carries is not the record whose hash it names (\(proof.recordHash)): it was changed"
        }
        guard let key = try? PublicKey(pem: proof.publicKeyPEM) else { return "the key it carries is not a key" }
        guard key.fingerprint == proof.fingerprint else {
            return "the key it carries is not the key \(proof.fingerprint) it names"
        }
        guard key.verifies(proof.signature, of: proof.record) else {
            return "the signature does not match the record: the record or the signature was changed"
        }
        return nil
    }

    /// The column values of the record a proof carries, as text (`result` → `fail_dangerous`); nil when its bytes
    /// are not a record's canonical text.
    public static func fields(_ proof: RecordProof) -> [String: String]? {
        guard let entry = HashChain.parse(String(decoding: proof.record, as: UTF8.self)) else { return nil }
        var fields: [String: String] = ["kind": entry.kind]
        for (name, value) in entry.values {
            switch value {
            case .null: continue
            case .integer(let number): fields[name] = String(number)
            case .real(let number): fields[name] = "\(number)"
            case .text(let text): fields[name] = text
            }
        }
        return fields
    }
}

extension SignedRecord {
    /// The inspection a proof carries, read back from its canonical text through the register's own row mapping (in
    /// a table of its own in memory), so a page's report can be made again from the signed record alone; nil when the
    /// proof carries no inspection. Its asset and notices are not in the record: a report made from it shows
    /// every Schedule 1 item but the equipment's identity (item 3) as the signed record says.
    public static func inspection(_ proof: RecordProof) -> StoredInspection? {
        guard let entry = HashChain.parse(String(decoding: proof.record, as: UTF8.self)),
              entry.kind == HashChain.inspection.name else { return nil }
        let values = entry.values
        do {
            let db = try Database(path: ":memory:")
            try db.execute("CREATE TABLE inspections (id INTEGER PRIMARY KEY, "
                           + InspectionColumns.written.joined(separator: ", ") + ")")
            var row = InspectionColumns.written.map { values[$0] ?? .null }
            if let hash = InspectionColumns.written.firstIndex(of: "record_hash") {
                row[hash] = .text(proof.recordHash)
            }
            try db.run(InspectionColumns.insertSQL, row)
            let statement = try db.prepare("SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from)")
            guard try statement.step() else { return nil }
            return InspectionColumns.record(statement)
        } catch { return nil }
    }
}
