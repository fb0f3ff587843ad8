import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// Saved inspection records are evidence: the schema itself refuses to change or remove them,
/// whoever holds a connection.
@Suite("Inspection rows are never updated or deleted")
struct EvidenceTriggerTests {
    /// A register holding one asset with one saved record; returns the record id.
    private func registerWithOneRecord(_ path: String) throws -> (Register, Int64) {
        let register = try Register.open(path: path)
        let asset = makeAsset()
        try register.addAsset(asset)
        let id = try register.insert(try validated(passingValues(on: "2026-03-01"), for: asset), saved: testStamp)
        return (register, id)
    }

    @Test("a raw UPDATE through a second connection is refused with a message about evidence",
          arguments: [
              "UPDATE inspections SET notes = 'edited' WHERE id = ?",
              "UPDATE inspections SET result = 'fail_dangerous', action = 'withdraw' WHERE id = ?",
              "UPDATE inspections SET draft_id = draft_id || '-x' WHERE id = ?",
          ])
    func updateIsRefused(sql: String) throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, id) = try registerWithOneRecord(path)
            let other = try Database(path: path, mode: .readWrite)
            let before = try rawInspectionRow(other, id: id)
            #expect(!before.isEmpty)

            let error = #expect(throws: DatabaseError.self) { try other.run(sql, [.integer(id)]) }
            #expect(error?.message.contains("evidence") == true, "\(String(describing: error))")
            #expect(error?.isConstraint == true, "RAISE(ABORT) reports SQLITE_CONSTRAINT")
            #expect(error?.sql == sql)

            #expect(try rawInspectionRow(other, id: id) == before)
            #expect(try rawInspectionRow(register.db, id: id) == before)
        }
    }

    @Test("a raw DELETE through a second connection is refused with a message about evidence",
          arguments: ["DELETE FROM inspections WHERE id = ?", "DELETE FROM inspections WHERE id >= ?"])
    func deleteIsRefused(sql: String) throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, id) = try registerWithOneRecord(path)
            let other = try Database(path: path, mode: .readWrite)
            let before = try rawInspectionRow(other, id: id)

            let error = #expect(throws: DatabaseError.self) { try other.run(sql, [.integer(id)]) }
            #expect(error?.message.contains("evidence") == true, "\(String(describing: error))")

            #expect(try rawInspectionRow(other, id: id) == before)
            #expect(try register.recordCount() == 1)
        }
    }

    @Test("a refused UPDATE inside a transaction leaves the whole row and the summary unchanged")
    func refusedInTransaction() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, id) = try registerWithOneRecord(path)
            let other = try Database(path: path, mode: .readWrite)
            let before = try rawInspectionRow(other, id: id)
            #expect(throws: DatabaseError.self) {
                try other.transaction {
                    try other.run("UPDATE assets SET location = 'moved'")
                    try other.run("UPDATE inspections SET inspection_date = '2020-01-01' WHERE id = ?", [.integer(id)])
                }
            }
            #expect(try rawInspectionRow(other, id: id) == before)
            #expect(try register.rows().map(\.asset.location) == ["Bay 4"])
        }
    }

    /// `INSERT OR REPLACE` resolves a UNIQUE/PRIMARY KEY conflict by deleting the old row. SQLite does
    /// not fire DELETE triggers for that deletion unless `recursive_triggers` is on, so a colliding
    /// draft id (or id) silently replaces saved evidence unless the schema guards inserts as well.
    @Test("INSERT OR REPLACE cannot replace a saved record (the schema guards evidence against REPLACE too)",
          arguments: ["draft_id", "id", "record_uuid"])
    func replaceCannotOverwriteEvidence(conflictOn column: String) throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, id) = try registerWithOneRecord(path)
            let other = try Database(path: path, mode: .readWrite)
            let before = try rawInspectionRow(other, id: id)
            let original = try #require(try register.inspection(id: id))

            // Same id and draft id as the saved record, different result.
            let idValue = column == "id" ? "id" : "NULL"
            let draftIDValue = column == "draft_id" ? "draft_id" : "draft_id || '-other'"
            // Stored upper case: the lower-case spelling is another value to the unique index.
            let uuidValue = column == "record_uuid" ? "record_uuid" : "lower(record_uuid)"
            let replace = """
                INSERT OR REPLACE INTO inspections
                SELECT \(idValue), asset_uuid, \(draftIDValue),
                       amends, inspection_type, inspector_name, certification_number, check_marking, check_cuts,
                       check_deformation, check_fittings, check_corrosion, 'fail_dangerous', 'replaced',
                       scheme_reference, 'replaced', 'withdraw', remedy_deadline_set, remedy_deadline,
                       inspection_date, confirmed,
                       saved_at, app_version, operator, asset_wll_kg, asset_location,
                       \(uuidValue), amends_uuid, amendment_reason, report_number, record_hash, parent_hash,
                       examination_basis, installed_correctly, test_particulars, repair_particulars,
                       remedy_particulars, next_examination_by, particulars, visit_uuid, also_amends
                FROM inspections WHERE id = ?
                """
            let error = #expect(throws: DatabaseError.self) { try other.run(replace, [.integer(id)]) }
            #expect(error?.message.contains("evidence") == true, "\(String(describing: error))")

            #expect(try rawInspectionRow(other, id: id) == before,
                    "saved evidence was replaced via REPLACE on \(column)")
            #expect(try register.history(assetUUID: original.assetUUID).contains(original))
        }
    }
}
