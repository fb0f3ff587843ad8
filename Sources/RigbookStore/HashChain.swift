import CCrypto
import Foundation
import RigbookCore

/// The register's hash chain (issue 12 §3): every inspection record carries the SHA-256 of its canonical
/// content and of its parent's hash, the way a git commit names its parent. The canonical form is in
/// docs/FORMATS.md ("Hash chain"); `canonical` is the only place that builds it.
enum HashChain {
    /// The columns hashed, in this order: UUIDs and content, never row ids (`id`, `amends`).
    static let hashedColumns = ["record_uuid", "asset_uuid", "draft_id", "amends_uuid"]
        + InspectionColumns.fieldColumns
        + ["amendment_reason", "saved_at", "app_version", "operator", "asset_wll_kg", "asset_location",
           "report_number"]

    /// Reads what `canonical` needs, in id order (the chain's order): the hashed columns, then `id`,
    /// `record_hash` and `parent_hash`.
    static let selectSQL = "SELECT " + hashedColumns.joined(separator: ", ")
        + ", id, record_hash, parent_hash FROM inspections ORDER BY id"

    /// The text that is hashed for a record whose column values `value` gives.
    static func canonical(parent: String?, _ value: (String) -> SQLValue) -> String {
        var text = "rigbook-entry 1\nkind inspection\nparent \(parent ?? "none")\n"
        for name in hashedColumns { text += name + " " + field(value(name)) + "\n" }
        return text
    }

    /// The canonical text of the record a `selectSQL` statement is on.
    static func canonical(_ s: Statement) -> String {
        canonical(parent: s.optionalText(Int32(hashedColumns.count + 2))) { name in
            s.value(Int32(hashedColumns.firstIndex(of: name)!))
        }
    }

    /// A value as `type:length:value`: `null`, `i:` integer, `r:` real (Swift's shortest round-trip form)
    /// or `t:` text, with its UTF-8 byte count, so no value can pass for another or run into the next line.
    private static func field(_ value: SQLValue) -> String {
        let (kind, text): (String, String?) = switch value {
        case .null: ("null", nil)
        case .integer(let v): ("i", String(v))
        case .real(let v): ("r", "\(v)")
        case .text(let v): ("t", v)
        }
        guard let text else { return kind }
        return "\(kind):\(text.utf8.count):\(text)"
    }

    /// SHA-256 of `text`'s UTF-8 bytes through libcrypto's EVP API, as 64 lower-case hex digits.
    static func sha256(_ text: String) throws -> String {
        guard let context = EVP_MD_CTX_new() else { throw HashError.libcrypto("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(text.utf8)
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1,
              EVP_DigestUpdate(context, bytes, bytes.count) == 1,
              EVP_DigestFinal_ex(context, &digest, &length) == 1 else {
            throw HashError.libcrypto("SHA-256")
        }
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }

    enum HashError: Error { case libcrypto(String) }

    /// The register's head (the newest entry's hash), nil while the chain is empty.
    static func head(_ db: Database) throws -> String? {
        try db.scalar("SELECT head_hash FROM register_chain").flatMap { if case .text(let t) = $0 { t } else { nil } }
    }

    /// Hashes the records the migration found (no hash yet) in id order, each onto the head, and moves
    /// the head along: run inside the migration's transaction, with the update trigger stepped aside.
    static func hashExistingRecords(_ db: Database) throws {
        let statement = try db.prepare(selectSQL)
        var rows: [(id: Int64, canonical: (String?) -> String)] = []
        while try statement.step() {
            let values = hashedColumns.indices.map { statement.value(Int32($0)) }
            rows.append((statement.int64(Int32(hashedColumns.count)), { parent in
                canonical(parent: parent) { values[hashedColumns.firstIndex(of: $0)!] }
            }))
        }
        var parent = try head(db)
        for row in rows {
            let hash = try sha256(row.canonical(parent))
            try db.run("UPDATE inspections SET record_hash = ?, parent_hash = ? WHERE id = ?",
                       [.text(hash), parent.map(SQLValue.text) ?? .null, .integer(row.id)])
            parent = hash
        }
        try db.run("UPDATE register_chain SET head_hash = ?", [parent.map(SQLValue.text) ?? .null])
    }
}

/// What `rigbook verify` found: how many records were checked and the head, or the first problem.
public struct ChainVerification: Sendable, Equatable {
    public var records: Int
    public var head: String?
    /// The first entry that does not match, as one sentence naming it; nil when the chain is whole.
    public var problem: String?
}

extension Register {
    /// Recomputes every record's hash from its canonical content and parent, checks that every parent and
    /// the head are entries of the register and, given `expectedHead` (a head printed earlier), that it
    /// still is one: so altered records and removed ones (the newest too) are both found.
    public func verifyChain(expectedHead: String? = nil) throws(RegisterError) -> ChainVerification {
        try perform {
            var hashes = Set<String>()
            var entries: [(name: String, hash: String?, parent: String?, recomputed: String)] = []
            let statement = try db.prepare(HashChain.selectSQL)
            let count = HashChain.hashedColumns.count
            while try statement.step() {
                let name = "record #\(statement.int64(Int32(count))) (\(statement.text(0).lowercased()))"
                let hash = statement.optionalText(Int32(count + 1))
                entries.append((name, hash, statement.optionalText(Int32(count + 2)),
                                try HashChain.sha256(HashChain.canonical(statement))))
                if let hash { hashes.insert(hash) }
            }
            let head = try HashChain.head(db)
            var result = ChainVerification(records: entries.count, head: head, problem: nil)
            for entry in entries {
                if entry.hash != entry.recomputed {
                    result.problem = "\(entry.name) does not match its hash \(entry.hash ?? "(none)")"
                } else if let parent = entry.parent, !hashes.contains(parent) {
                    result.problem = "\(entry.name) names a parent \(parent) that is not in the register"
                }
                if result.problem != nil { return result }
            }
            if let head, !hashes.contains(head) {
                result.problem = "the head \(head) is not in the register: its newest entries were removed"
            } else if head == nil && !entries.isEmpty {
                result.problem = "the register has records but no head"
            } else if let expectedHead, !hashes.contains(expectedHead.lowercased()) {
                result.problem = "the head \(expectedHead) given is not in the register: entries were removed"
            }
            return result
        }
    }
}
