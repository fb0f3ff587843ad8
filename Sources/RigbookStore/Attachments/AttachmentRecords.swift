import Foundation
import RigbookCore

/// The files a saved record names: one append-only row per attachment in `attachments`, entries
/// of the hash chain (`kind attachment`) entered in the record's own transaction, right after it. The table
/// names the record by kind and uuid, so an inspection's and an electrical test's attachments share it.
enum AttachmentColumns {
    static let inspectionKind = "inspection"
    static let testKind = "electrical_test"

    /// Enters `attachments` of the record `recordUUID`, in order, inside the caller's write transaction.
    static func append(_ db: Database, _ attachments: [Attachment], kind: String, recordUUID: UUID,
                       attachedAt: String) throws {
        for values in entries(attachments, kind: kind, recordUUID: recordUUID, attachedAt: attachedAt) {
            try HashChain.append(db, HashChain.attachment, values)
        }
    }

    /// The attachment entries' columns (`HashChain.attachment.columns`), in position order.
    static func entries(_ attachments: [Attachment], kind: String, recordUUID: UUID,
                        attachedAt: String) -> [[SQLValue]] {
        attachments.enumerated().map { position, attachment in
            [.text(UUID().uuidString), .text(kind), .text(recordUUID.uuidString), .integer(Int64(position)),
             .text(attachment.sha256), .text(attachment.name), .integer(attachment.size), .text(attachedAt)]
        }
    }

    static let selectByRecord = "SELECT sha256, name, size FROM attachments WHERE record_uuid = ? ORDER BY position"

    static func attachment(_ s: Statement, from column: Int32 = 0) -> Attachment {
        Attachment(sha256: s.text(column), name: s.text(column + 1), size: s.int64(column + 2))
    }
}

extension Register {
    /// The files a record (an inspection or an electrical test) names, in the order they were attached.
    public func attachments(recordUUID: UUID) throws(RegisterError) -> [Attachment] {
        try perform { try attachmentsInTransaction(recordUUID: recordUUID) }
    }

    func attachmentsInTransaction(recordUUID: UUID) throws -> [Attachment] {
        try db.withKept(AttachmentColumns.selectByRecord, [.text(recordUUID.uuidString)]) { s in
            var found: [Attachment] = []
            while try s.step() { found.append(AttachmentColumns.attachment(s)) }
            return found
        }
    }

    /// The records' values with the files each names (records read by a single query carry none).
    /// The record with what the register keeps beside it: its files, and who signed it.
    func withAttachments(_ record: StoredInspection) throws -> StoredInspection {
        var record = record
        record.values.attachments = try attachmentsInTransaction(recordUUID: record.recordUUID)
        record.signedBy = try db.withKept("""
            SELECT k.examiner_name, s.fingerprint FROM signatures s
            LEFT JOIN examiner_keys k ON k.fingerprint = s.fingerprint WHERE s.record_uuid = ? ORDER BY s.id LIMIT 1
            """, [.text(record.recordUUID.uuidString)]) { row in
            try row.step() ? SignedBy(examiner: row.optionalText(0) ?? "an unknown key", fingerprint: row.text(1)) : nil
        }
        return record
    }

    /// Every record's attachments by record uuid, read at once (an export streams every record: one lookup
    /// each would cost more than the table). Empty when no record has any.
    func allAttachmentsByRecord() throws -> [UUID: [Attachment]] {
        let statement = try db.prepare(
            "SELECT record_uuid, sha256, name, size FROM attachments ORDER BY record_uuid, position")
        var byRecord: [UUID: [Attachment]] = [:]
        while try statement.step() {
            guard let uuid = statement.uuid(0) else { continue }
            byRecord[uuid, default: []].append(AttachmentColumns.attachment(statement, from: 1))
        }
        return byRecord
    }

    /// Every file a record of the register names: the attachments table, and the JSON column of electrical
    /// tests (which names them too, and is all a test saved before the table has). Start-up cleanup and a
    /// discard never remove these.
    public func referencedAttachmentHashes() throws(RegisterError) -> Set<String> {
        try perform {
            var hashes = Set<String>()
            let statement = try db.prepare("SELECT DISTINCT sha256 FROM attachments")
            while try statement.step() { hashes.insert(statement.text(0)) }
            let tests = try db.prepare("SELECT attachments FROM electrical_tests WHERE attachments <> '[]'")
            while try tests.step() { hashes.formUnion(AttachmentReferences.hashes(in: Data(tests.text(0).utf8))) }
            return hashes
        }
    }
}

/// Finds the SHA-256 names a file mentions, whatever its format: every run of exactly 64 lower-case hex digits.
/// Drafts of every kind (inspection, batch, asset, `test-*`, and formats to come) are read this way, so a draft
/// this build cannot decode still keeps its files: a stray match only keeps a file longer, never removes one.
public enum AttachmentReferences {
    public static func hashes(in data: Data) -> Set<String> {
        var found = Set<String>()
        var run: [UInt8] = []
        func end() {
            if run.count == 64 { found.insert(String(decoding: run, as: UTF8.self)) }
            run.removeAll(keepingCapacity: true)
        }
        for byte in data {
            if (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) {
                run.append(byte)
            } else {
                end()
            }
        }
        end()
        return found
    }
}
