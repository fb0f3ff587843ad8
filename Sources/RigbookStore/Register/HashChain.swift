import CCrypto
import Foundation
import RigbookCore

/// The register's hash chain: every entry of evidence (an asset's addition, an inspection
/// record) carries the SHA-256 of its canonical content and of its parent's hash, the way a git commit names
/// its parent. The canonical form is in docs/FORMATS.md ("Hash chain"); `canonical` is the only place that
/// builds it.
enum HashChain {
    /// A kind of entry: its table, the columns hashed (in this order: UUIDs and content, never row ids),
    /// the column holding its hash and the order the migration hashes entries already there in.
    struct Kind: Sendable {
        let name: String
        let table: String
        let columns: [String]
        /// Columns added to the kind after its entries were first hashed: hashed only when not NULL, so an
        /// entry made before them keeps its hash, and one made after cannot lose or gain one unnoticed.
        var extensionColumns: [String] = []
        let hashColumn: String
        /// The column the migration finds an entry again by.
        let key: String
        let order: String
        /// How verify names an entry, from columns read after the hashed ones.
        let label: String
        /// A column that, when not NULL, holds the entry's canonical columns as they were hashed (an asset
        /// changed since it was added keeps them in `as_added`; its columns hold its current values).
        var snapshotColumn: String?

        var hashed: [String] { columns + extensionColumns }

        /// Reads what `canonical` needs: the hashed columns, then `extra` (the label, unless given), the
        /// hash and the parent, then the snapshot column if the kind has one.
        func selectSQL(_ extra: String? = nil, where condition: String? = nil) -> String {
            "SELECT " + hashed.joined(separator: ", ") + ", \(extra ?? label), \(hashColumn), parent_hash"
                + (snapshotColumn.map { ", " + $0 } ?? "") + " FROM \(table)"
                + (condition.map { " WHERE " + $0 } ?? "") + " ORDER BY \(order)"
        }

        /// The kind as it was before any extension columns (what migration 005 hashed).
        var original: Kind {
            var kind = self
            kind.extensionColumns = []
            kind.snapshotColumn = nil
            return kind
        }
    }

    static let inspection = Kind(
        name: "inspection", table: "inspections",
        columns: ["record_uuid", "asset_uuid", "draft_id", "amends_uuid"] + InspectionColumns.fieldColumns
            + ["amendment_reason", "saved_at", "app_version", "operator", "asset_wll_kg", "asset_location",
               "report_number"],
        extensionColumns: InspectionColumns.reportColumns + [InspectionColumns.visitColumn,
                                                             InspectionColumns.alsoAmendsColumn],
        hashColumn: "record_hash", key: "id", order: "id",
        label: "'record #' || id || ' (' || lower(record_uuid) || ')'")

    /// An asset as it was added (its summary columns change with its records and are never hashed): the columns
    /// migration 005 first hashed, then, hashed only when not NULL, its kind and every field added since, in field
    /// order (an electrical asset's, the client ref).
    static let asset = Kind(
        name: "asset", table: "assets", columns: assetColumns,
        extensionColumns: ["asset_kind"] + AssetField.added.map(\.rawValue).filter { !assetColumns.contains($0) },
        hashColumn: "entry_hash", key: "uuid", order: "created_at, tag",
        label: "'asset ' || tag || ' (' || lower(uuid) || ')'", snapshotColumn: "as_added")

    /// Frozen, not derived from `AssetField`: every register's chain was hashed over these, in this order.
    private static let assetColumns = [
        "uuid", "tag", "name", "type", "wll_kg", "length_m", "location", "manufacturer", "serial_number",
        "manufactured", "commissioned", "interval_months", "lifts_persons", "examination_scheme", "created_at",
    ]

    /// A new version of a particular (employer, site, organisation, examiner, an asset's particulars).
    static let particular = Kind(
        name: "particulars", table: "particulars",
        columns: ["entry_uuid", "subject_kind", "subject_uuid", "content", "changed_at", "operator"],
        hashColumn: "entry_hash", key: "id", order: "id",
        label: "'particulars of ' || subject_kind || ' ' || lower(subject_uuid) || ' (entry ' || id || ')'")

    /// A reg 10 notice on a record.
    static let notice = Kind(
        name: "notice", table: "notices",
        columns: ["notice_uuid", "record_uuid", "duty", "recipient", "done_on", "serious_risk", "recorded_at",
                  "operator"],
        hashColumn: "entry_hash", key: "id", order: "id",
        label: "'notice ' || duty || ' on record ' || lower(record_uuid) || ' (entry ' || id || ')'")

    /// One change of one asset field: old and new values as the asset's columns store them.
    static let assetChange = Kind(
        name: "asset_change", table: "asset_changes",
        columns: ["change_uuid", "asset_uuid", "field", "old_value", "new_value", "reason", "changed_at", "operator",
                  "session_id"],
        hashColumn: "entry_hash", key: "id", order: "id",
        label: "'change of ' || field || ' of asset ' || lower(asset_uuid) || ' (entry ' || id || ')'")

    /// Another register's work brought in: names that register's head, so its newest entries
    /// are covered by this register's chain as well.
    static let merge = Kind(
        name: "merge", table: "merges",
        columns: ["merge_uuid", "other_identity", "other_head", "merged_at", "operator"],
        hashColumn: "entry_hash", key: "id", order: "id",
        label: "'merge of register ' || lower(other_identity) || ' (entry ' || id || ')'")

    /// An electrical test: every column but its id.
    static let electricalTest = Kind(
        name: "electrical_test", table: "electrical_tests", columns: TestColumns.written,
        hashColumn: "entry_hash", key: "id", order: "id",
        label: "'test #' || id || ' (' || lower(test_uuid) || ')'")

    /// A file attached to a record: entered right after its record, in the same transaction.
    static let attachment = Kind(
        name: "attachment", table: "attachments",
        columns: ["entry_uuid", "record_kind", "record_uuid", "position", "sha256", "name", "size", "attached_at"],
        hashColumn: "entry_hash", key: "id", order: "id",
        label: "'attachment ' || sha256 || ' of ' || record_kind || ' ' || lower(record_uuid)"
            + " || ' (entry ' || id || ')'")

    /// Assets first: a record's asset is always added before it, and a notice's record before the notice.
    static let kinds = [asset, particular, inspection, notice, assetChange, merge, electricalTest, attachment,
                        SignatureStore.key, SignatureStore.retirement, SignatureStore.signature]

    /// The text that is hashed for an entry whose column values `value` gives.
    static func canonical(_ kind: Kind, parent: String?, _ value: (String) -> SQLValue) -> String {
        String(decoding: canonicalBytes(kind, parent: parent, value), as: UTF8.self)
    }

    /// `canonical`'s UTF-8 bytes, built as bytes: the save path hashes them without making the text.
    static func canonicalBytes(_ kind: Kind, parent: String?, _ value: (String) -> SQLValue) -> [UInt8] {
        canonicalBytes(kind, parent: parent) { _, name in value(name) }
    }

    /// The column lines of a row written as `layout`'s columns, its values found by position, not by name (its
    /// canonical text after the header, which alone names the parent), appended to `bytes`: a bulk load makes them
    /// before the entry's place in the chain is known.
    static func appendBody(_ layout: Layout, _ values: [SQLValue], to bytes: inout [UInt8]) {
        appendBody(layout.kind, { index, _ in layout.positions[index].map { values[$0] } ?? .null }, to: &bytes)
    }

    /// `value` is given each hashed column's place in `kind.hashed` and its name.
    private static func canonicalBytes(_ kind: Kind, parent: String?,
                                       at value: (Int, String) -> SQLValue) -> [UInt8] {
        var bytes = Array(header(kind, parent: parent).utf8)
        bytes.reserveCapacity(2_048)
        appendBody(kind, value, to: &bytes)
        return bytes
    }

    /// Where each of a kind's hashed columns is in a row written as `columns` (nil: not written, so NULL): looked up
    /// once, so a bulk load builds each canonical text without finding its columns by name.
    struct Layout: Sendable {
        let kind: Kind
        let columns: [String]
        let positions: [Int?]

        init(_ kind: Kind, columns: [String]) {
            self.kind = kind
            self.columns = columns
            positions = kind.hashed.map { columns.firstIndex(of: $0) }
        }
    }

    static func header(_ kind: Kind, parent: String?) -> String {
        "rigbook-entry 1\nkind \(kind.name)\nparent \(parent ?? "none")\n"
    }

    /// The column lines of the canonical text: what `as_added` keeps of an asset.
    static func body(_ kind: Kind, _ value: (String) -> SQLValue) -> String {
        var bytes: [UInt8] = []
        appendBody(kind, { _, name in value(name) }, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A line `name type:length:value` per column, then one per extension column that is not NULL.
    private static func appendBody(_ kind: Kind, _ value: (Int, String) -> SQLValue, to bytes: inout [UInt8]) {
        for (index, name) in kind.columns.enumerated() { appendLine(name, value(index, name), to: &bytes) }
        for (offset, name) in kind.extensionColumns.enumerated() {
            let v = value(kind.columns.count + offset, name)
            if v != .null { appendLine(name, v, to: &bytes) }
        }
    }

    /// Refuses an entry another register (or the server) sends whose contents do not give its hash: it was changed
    /// after it was made, and must not come in, where verify would fail for good. Needs only the entry: its
    /// parent is its own `parent_hash`, so a part of a chain can be checked entry by entry.
    static func checkIncoming(_ kind: Kind, key: String, _ row: (String) -> SQLValue) throws {
        var parent: String?
        if case .text(let text) = row("parent_hash") { parent = text }
        let hash: String
        if let column = kind.snapshotColumn, case .text(let snapshot) = row(column) {
            hash = try sha256(header(kind, parent: parent) + snapshot)
        } else {
            hash = try sha256(canonicalBytes(kind, parent: parent, row))
        }
        guard case .text(let stored) = row(kind.hashColumn), hash == stored else {
            throw RegisterError.mergeRefused(["the other side's \(kind.name) \(key.lowercased()) "
                                              + "does not match its hash "
                                              + "(it was changed after it was made): nothing was brought in"])
        }
    }

    /// The canonical text of the entry a `selectSQL` statement is on (from its snapshot when it has one).
    static func canonical(_ kind: Kind, _ s: Statement) -> String {
        let hashed = kind.hashed
        let parent = s.optionalText(Int32(hashed.count + 2))
        if kind.snapshotColumn != nil, let snapshot = s.optionalText(Int32(hashed.count + 3)) {
            return header(kind, parent: parent) + snapshot
        }
        return canonical(kind, parent: parent) { name in s.value(Int32(hashed.firstIndex(of: name)!)) }
    }

    /// A canonical text read back: its kind, its parent and its column values; nil when it is not one.
    static func parse(_ text: String) -> (kind: String, parent: String?, values: [String: SQLValue])? {
        let lines = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
        guard lines.count == 4, lines[0] == "rigbook-entry 1", lines[1].hasPrefix("kind "),
              lines[2].hasPrefix("parent "), let values = parseBody(String(lines[3])) else { return nil }
        let parent = String(lines[2].dropFirst("parent ".count))
        return (String(lines[1].dropFirst("kind ".count)), parent == "none" ? nil : parent, values)
    }

    /// The column values of a canonical body (`body`), nil when it is not one. Lengths count UTF-8 bytes.
    static func parseBody(_ text: String) -> [String: SQLValue]? {
        let bytes = Array(text.utf8)
        var values: [String: SQLValue] = [:]
        var i = 0
        func upTo(_ stop: UInt8) -> String? {
            guard let end = bytes[i...].firstIndex(of: stop) else { return nil }
            defer { i = end + 1 }
            return String(decoding: bytes[i..<end], as: UTF8.self)
        }
        while i < bytes.count {
            guard let name = upTo(0x20) else { return nil }
            if bytes[i...].starts(with: Array("null\n".utf8)) {
                values[name] = .null
                i += 5
                continue
            }
            guard let type = upTo(0x3A), let countText = upTo(0x3A), let count = Int(countText),
                  i + count < bytes.count, bytes[i + count] == 0x0A else { return nil }
            let text = String(decoding: bytes[i..<(i + count)], as: UTF8.self)
            i += count + 1
            switch type {
            case "i": guard let v = Int64(text) else { return nil }; values[name] = .integer(v)
            case "r": guard let v = Double(text) else { return nil }; values[name] = .real(v)
            case "t": values[name] = .text(text)
            default: return nil
            }
        }
        return values
    }

    /// `values`, bound to `columns` for an insert, with the entry's hash and parent (the head) added at the
    /// end; moves the head to it. Only inside the write transaction that inserts the entry.
    static func chained(_ db: Database, _ kind: Kind, columns: [String], _ values: [SQLValue]) throws -> [SQLValue] {
        let parent = try head(db)
        let byName = Dictionary(uniqueKeysWithValues: zip(columns, values))
        let canonical = canonicalBytes(kind, parent: parent) { byName[$0] ?? .null }
        let hash = try sha256(canonical)
        try SignatureStore.sign(db, kind, canonical: canonical, hash: hash) { byName[$0] ?? .null }
        if db.heldChainHead != nil {
            db.heldChainHead = .some(hash)
        } else {
            try writeHead(db, hash)
        }
        return values + [.text(hash), parent.map(SQLValue.text) ?? .null]
    }

    /// Inserts an entry of `kind` whose columns (`kind.columns`, in order) hold `values`, hashed onto the head, and
    /// its signature after it when a person vouches for it; returns the entry's row id. Only inside a write
    /// transaction; the statement is kept, since saves and merges run it many times.
    @discardableResult
    static func append(_ db: Database, _ kind: Kind, _ values: [SQLValue]) throws -> Int64 {
        try db.withKept(insertSQL(kind), try chained(db, kind, columns: kind.columns, values)) {
            while try $0.step() {}
        }
        let id = db.lastInsertRowID
        try SignatureStore.appendPending(db)
        return id
    }

    /// The insert of an entry of `kind`: its columns, its hash and its parent.
    static func insertSQL(_ kind: Kind) -> String {
        let names = kind.columns + [kind.hashColumn, "parent_hash"]
        return "INSERT INTO \(kind.table) (\(names.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
    }

    /// One column's line: its name, then its value as `type:length:value` — `null`, `i:` integer, `r:` real
    /// (Swift's shortest round-trip form) or `t:` text, with its UTF-8 byte count, so no value can pass for
    /// another or run into the next line.
    private static func appendLine(_ name: String, _ value: SQLValue, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: name.utf8)
        bytes.append(0x20)
        func typed(_ type: UInt8, _ text: String) {
            bytes.append(type)
            bytes.append(0x3A)
            bytes.append(contentsOf: String(text.utf8.count).utf8)
            bytes.append(0x3A)
            bytes.append(contentsOf: text.utf8)
        }
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .integer(let v): typed(UInt8(ascii: "i"), String(v))
        case .real(let v): typed(UInt8(ascii: "r"), "\(v)")
        case .text(let v): typed(UInt8(ascii: "t"), v)
        }
        bytes.append(0x0A)
    }

    /// SHA-256 of `text`'s UTF-8 bytes, as 64 lower-case hex digits.
    static func sha256(_ text: String) throws -> String { try sha256(Array(text.utf8)) }

    /// SHA-256 of bytes (a canonical text's, a file's) through libcrypto's EVP API, lower-case hex.
    static func sha256(_ data: some ContiguousBytes) throws -> String {
        guard let context = EVP_MD_CTX_new() else { throw HashError.libcrypto("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { buffer in
            EVP_DigestInit_ex(context, sha256Digest ?? EVP_sha256(), nil) == 1
                && EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) == 1
                && EVP_DigestFinal_ex(context, &digest, &length) == 1
        }
        guard ok else { throw HashError.libcrypto("SHA-256") }
        return hex(digest.prefix(Int(length)))
    }

    /// SHA-256 as libcrypto's provider gives it, fetched once: `EVP_sha256()` looked it up again for every hash (a
    /// ninth of the time of hashing an entry: 1.45 → 1.28 µs for 1,500 bytes). Shared read-only by every thread, as
    /// libcrypto allows.
    nonisolated(unsafe) private static let sha256Digest = EVP_MD_fetch(nil, "SHA256", nil)

    /// Lower-case hex digits (String(format:) per byte cost more than the hash itself).
    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    enum HashError: Error { case libcrypto(String) }

    /// The register's head (the newest entry's hash), nil while the chain is empty.
    static func head(_ db: Database) throws -> String? {
        if let held = db.heldChainHead { return held }
        return try db.withKept("SELECT head_hash FROM register_chain", []) { try $0.step() ? $0.value(0) : nil }
            .flatMap { if case .text(let t) = $0 { t } else { nil } }
    }

    private static func writeHead(_ db: Database, _ hash: String) throws {
        try db.withKept("UPDATE register_chain SET head_hash = ?", [.text(hash)]) { while try $0.step() {} }
    }

    /// Runs `body`, which appends many entries inside the caller's write transaction, with the chain's head
    /// read once and written once at the end, not read and rewritten per entry (a 300-record batch made 1,200
    /// statements of it). The transaction rolls back whatever `body` throws, so a head never written is right.
    static func holdingHead<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        guard db.heldChainHead == nil else { return try body() }
        let start = try head(db)
        db.heldChainHead = .some(start)
        defer { db.heldChainHead = nil }
        let value = try body()
        if case .some(.some(let end)) = db.heldChainHead, end != start { try writeHead(db, end) }
        return value
    }

    /// Hashes the entries the migration found (no hash yet), assets then records, each in its kind's order,
    /// each onto the head, and moves the head along: inside the migration's transaction, with the records'
    /// update trigger stepped aside. The kinds as migration 005 knew them: later tables and columns are not
    /// there yet.
    static func hashExistingEntries(_ db: Database) throws {
        var parent = try head(db)
        for kind in [asset.original, inspection.original] {
            let statement = try db.prepare(kind.selectSQL(kind.key))
            var rows: [(key: SQLValue, values: [SQLValue])] = []
            while try statement.step() {
                rows.append((statement.value(Int32(kind.columns.count)),
                             kind.columns.indices.map { statement.value(Int32($0)) }))
            }
            for row in rows {
                let hash = try sha256(canonical(kind, parent: parent) { row.values[kind.columns.firstIndex(of: $0)!] })
                try db.run("UPDATE \(kind.table) SET \(kind.hashColumn) = ?, parent_hash = ? WHERE \(kind.key) = ?",
                           [.text(hash), parent.map(SQLValue.text) ?? .null, row.key])
                parent = hash
            }
        }
        try db.run("UPDATE register_chain SET head_hash = ?", [parent.map(SQLValue.text) ?? .null])
    }
}

/// What `rigbook verify` found: how many entries (assets and records) were checked and the head, or the
/// problems.
public struct ChainVerification: Sendable, Equatable {
    public var entries: Int
    public var head: String?
    /// How many of the entries are signatures, each checked against its key and its record.
    public var signatures = 0
    /// Records saved after their examiner had a signing key that carry no signature, a sentence each: not a problem
    /// (an older Rigbook saves them), said beside the result.
    public var unsignedAfterKeys: [String] = []
    /// What does not hold, a sentence each: the first entry of the chain that does not match, then every record
    /// whose number was changed and every asset whose stored status is not what its records fold to.
    public var problems: [String] = []
    /// The first problem; nil when everything holds.
    public var problem: String? { problems.first }
}

extension Register {
    /// Recomputes every record's hash from its canonical content and parent, checks that every parent and
    /// the head are entries of the register and, given `expectedHead` (a head printed earlier), that it
    /// still is one: so altered records and removed ones (the newest too) are both found. Then checks what
    /// the chain does not cover: every record still has the number it came in with, every asset's status
    /// columns are what its records fold to, and the columns the list finds statuses by follow them.
    public func verifyChain(expectedHead: String? = nil) throws(RegisterError) -> ChainVerification {
        try perform {
            var result = try verifyEntries(expectedHead: expectedHead)
            result.problems += try RegisterSchema.numberProblems(db)
            if case .integer(let fold)? = try db.scalar("PRAGMA user_version"), fold > HistorySummary.foldVersion {
                result.problems.append("the assets' statuses were folded by a newer Rigbook (status fold \(fold)):"
                                       + " this build cannot check them; verify with that version")
            } else {
                result.problems += try RegisterSchema.summaryProblems(db)
            }
            result.problems += try StatusColumns.problems(db)
            return result
        }
    }

    /// The chain itself: every entry's hash, its parent, the merges' heads, the assets' changes and the head.
    private func verifyEntries(expectedHead: String?) throws -> ChainVerification {
        do {
            var hashes = Set<String>()
            var entries: [(name: String, hash: String?, parent: String?, recomputed: String)] = []
            var signatures = try SignatureCheck(db)
            for kind in HashChain.kinds {
                let statement = try db.prepare(kind.selectSQL())
                let count = kind.hashed.count
                while try statement.step() {
                    let hash = statement.optionalText(Int32(count + 1))
                    let canonical = HashChain.canonical(kind, statement)
                    entries.append((statement.text(Int32(count)), hash, statement.optionalText(Int32(count + 2)),
                                    try HashChain.sha256(canonical)))
                    if let hash {
                        hashes.insert(hash)
                        signatures.check(kind, statement, hash: hash, canonical: canonical)
                    }
                }
            }
            let head = try HashChain.head(db)
            var result = ChainVerification(entries: entries.count, head: head)
            result.signatures = signatures.count
            result.unsignedAfterKeys = signatures.unsignedAfterKeys
            for entry in entries {
                if entry.hash != entry.recomputed {
                    result.problems = ["\(entry.name) does not match its hash \(entry.hash ?? "(none)")"]
                } else if let parent = entry.parent, !hashes.contains(parent) {
                    result.problems = ["\(entry.name) names a parent \(parent) that is not in the register"]
                }
                if result.problem != nil { return result }
            }
            // Each signature against its key and the bytes of the record it names: every one that fails, named.
            let signatureProblems = signatures.problems()
            if !signatureProblems.isEmpty {
                result.problems = signatureProblems
                return result
            }
            // A merge names the other register's head: removing that register's newest entries shows too.
            let merges = try db.prepare("SELECT other_head, \(HashChain.merge.label) FROM merges ORDER BY id")
            while try merges.step() {
                guard !hashes.contains(merges.text(0)) else { continue }
                result.problems = ["\(merges.text(1)) names a head \(merges.text(0)) that is not in the register:"
                                   + " entries it brought in were removed"]
                return result
            }
            // An asset's columns must be what it was added as, with its changes applied.
            if let problem = try AssetChangeStore.foldProblem(db) {
                result.problems = [problem]
                return result
            }
            if let head, !hashes.contains(head) {
                result.problems = ["the head \(head) is not in the register: its newest entries were removed"]
            } else if head == nil && !entries.isEmpty {
                result.problems = ["the register has entries but no head"]
            } else if let expectedHead, !hashes.contains(expectedHead.lowercased()) {
                result.problems = ["the head \(expectedHead) given is not in the register: entries were removed"]
            }
            return result
        }
    }
}
