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
        readBack(proof, HashChain.inspection, columns: InspectionColumns.written, select: InspectionColumns.select,
                 from: InspectionColumns.from, InspectionColumns.record)
    }

    /// The electrical test a proof carries, read back as `inspection` reads an inspection; nil when the proof carries
    /// no test. Its id is this table's, not the register's (a row id is never hashed), and its asset is not in it.
    public static func test(_ proof: RecordProof) -> StoredTest? {
        let kind = HashChain.electricalTest
        return readBack(proof, kind, columns: TestColumns.written + [kind.hashColumn], select: TestColumns.select,
                        from: kind.table, TestColumns.record)
    }

    /// The entry of `kind` a proof carries, inserted into a table of `columns` in memory, its hash the proof's, and
    /// read back by the register's own `select` and row mapping: one reading of a signed record for every kind.
    private static func readBack<Record>(_ proof: RecordProof, _ kind: HashChain.Kind, columns: [String],
                                         select: String, from: String,
                                         _ record: (Statement) -> Record) -> Record? {
        guard let entry = HashChain.parse(String(decoding: proof.record, as: UTF8.self)),
              entry.kind == kind.name else { return nil }
        do {
            let db = try Database(path: ":memory:")
            let names = columns.joined(separator: ", ")
            try db.execute("CREATE TABLE \(kind.table) (id INTEGER PRIMARY KEY, \(names))")
            let row = columns.map { $0 == kind.hashColumn ? .text(proof.recordHash) : entry.values[$0] ?? .null }
            let places = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            try db.run("INSERT INTO \(kind.table) (\(names)) VALUES (\(places))", row)
            let statement = try db.prepare("SELECT \(select) FROM \(from)")
            guard try statement.step() else { return nil }
            return record(statement)
        } catch { return nil }
    }
}
