import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

// What the hash chain does not cover is covered beside it: an asset's status is what its records fold to, a
// record keeps the number it came in with, and a register folded by a newer build is not written. Tampering is
// done as an attacker with the file would: another connection, the triggers that stand in the way dropped.

@Suite("Forged statuses and numbers are found")
struct ForgeryTests {
    /// A register whose asset SL-0042 is DO NOT USE (a dangerous fail, quarantined), with four records.
    private func dangerousRegister(_ path: String) throws -> (Register, Asset, [Int64]) {
        let register = try Register.open(path: path)
        let asset = makeAsset()
        try register.addAsset(asset)
        try register.addAsset(makeAsset(tag: "SL-0043"))
        var ids: [Int64] = []
        for values in [passingValues(on: "2026-01-01"), passingValues(.preUse, on: "2026-02-01"),
                       passingValues(on: "2026-03-01"), failingValues(on: "2026-03-10")] {
            ids.append(try register.insert(try validated(values, for: asset), saved: testStamp))
        }
        #expect(try register.asset(tag: "SL-0042")?.status(on: testToday).status == .doNotUse)
        return (register, asset, ids)
    }

    private func tamper(_ path: String, _ sql: String) throws {
        let raw = try Database(path: path, mode: .readWrite)
        try raw.execute("""
            DROP TRIGGER IF EXISTS assets_summaries_are_folded;
            DROP TRIGGER IF EXISTS inspections_are_never_updated;
            DROP TRIGGER IF EXISTS record_numbers_are_never_updated;
            \(sql)
            """)
    }

    /// What the attacker of the report set: an item that failed dangerous made to read OK and not due.
    private static let madeToReadOK = """
        UPDATE assets SET latest_result = 'pass', last_thorough_result = 'pass', latest_action = 'none',
            unresolved_fail = 0,
            unresolved_fail_date = NULL, open_remedy_deadline = NULL, out_of_service = NULL,
            next_due = '2027-09-07'
        WHERE tag = 'SL-0042';
        """

    @Test("a summary column cannot be updated except by the fold, through Rigbook or any other connection")
    func summariesRefuseUpdates() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, _, _) = try dangerousRegister(path)
            let raw = try Database(path: path, mode: .readWrite)
            for column in AssetColumns.summaryColumns {
                #expect(throws: DatabaseError.self, "\(column)") {
                    try raw.run("UPDATE assets SET \(column) = NULL WHERE tag = 'SL-0042'")
                }
            }
            // Fields that are not the summary are changed as ever (by the asset's changes).
            try raw.run("UPDATE assets SET location = location WHERE tag = 'SL-0042'")
            #expect(try register.verifyChain().problems == [])
        }
    }

    @Test("a DO NOT USE item's status forged to OK: verify folds it again and names the asset")
    func forgedStatusIsNamed() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, asset, _) = try dangerousRegister(path)
            try tamper(path, Self.madeToReadOK)
            #expect(try register.asset(tag: "SL-0042")?.status(on: testToday).status == .ok, "the forgery took")
            let problems = try register.verifyChain().problems
            #expect(problems.count == 1, "\(problems)")
            #expect(problems.first?.hasPrefix("asset SL-0042 (\(asset.uuid.uuidString.lowercased()))") == true,
                    "\(problems)")
            // Each column on its own is found too, and the other asset never is.
            for column in AssetColumns.summaryColumns {
                try withTemporaryDirectory { other in
                    let path = registerPath(in: other)
                    let (register, _, _) = try dangerousRegister(path)
                    try tamper(path, "UPDATE assets SET \(column) = '1999-01-01' WHERE tag = 'SL-0042'")
                    let problems = try register.verifyChain().problems
                    #expect(problems.count == 1 && problems[0].contains("SL-0042") && problems[0].contains(column),
                            "\(column): \(problems)")
                }
            }
        }
    }

    @Test("two records' numbers swapped: verify names both; an amends column changed: named")
    func swappedNumbersAreNamed() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, _, ids) = try dangerousRegister(path)
            try tamper(path, """
                UPDATE inspections SET id = -1 WHERE id = \(ids[1]);
                UPDATE inspections SET id = \(ids[1]) WHERE id = \(ids[2]);
                UPDATE inspections SET id = \(ids[2]) WHERE id = -1;
                """)
            let problems = try register.verifyChain().problems
            #expect(problems.contains { $0.hasPrefix("record #\(ids[1]) ") && $0.contains("came in as #\(ids[2])") },
                    "\(problems)")
            #expect(problems.contains { $0.hasPrefix("record #\(ids[2]) ") && $0.contains("came in as #\(ids[1])") },
                    "\(problems)")
        }
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, asset, ids) = try dangerousRegister(path)
            var values = failingValues(on: "2026-03-10")
            values.notes = "corrected"
            let amendment = try register.insert(
                try validated(values, for: asset, amending: try #require(try register.inspection(id: ids[3]))),
                saved: testStamp)
            #expect(try register.verifyChain().problems == [])
            try tamper(path, "UPDATE inspections SET amends = \(ids[0]) WHERE id = \(amendment)")
            let problems = try register.verifyChain().problems
            #expect(problems == ["record #\(amendment) amends #\(ids[3]) but says it amends #\(ids[0]):"
                                 + " its amends column was changed behind Rigbook's back"], "\(problems)")
        }
    }

    @Test("a register of the build before keeps its records' numbers from its first open on")
    func numbersKeptFromTheFirstOpen() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, _, ids) = try dangerousRegister(path)
            // The register as the build before left it: no numbers kept.
            try tamper(path, """
                DROP TRIGGER inspections_are_numbered; DROP TRIGGER electrical_tests_are_numbered;
                DROP TRIGGER record_numbers_are_never_deleted; DROP TABLE record_numbers;
                DELETE FROM rigbook_migrations WHERE name = '016-record-numbers';
                """)
            #expect(try register.verifyChain().problems == [])
            let reopened = try Register.open(path: path)
            #expect(try reopened.db.scalar("SELECT count(*) FROM record_numbers") == .integer(Int64(ids.count)))
            try tamper(path, """
                UPDATE inspections SET id = -1 WHERE id = \(ids[0]);
                UPDATE inspections SET id = \(ids[0]) WHERE id = \(ids[3]);
                UPDATE inspections SET id = \(ids[3]) WHERE id = -1;
                """)
            let problems = try reopened.verifyChain().problems
            #expect(problems.filter { $0.contains("its number was changed") }.count == 2, "\(problems)")
        }
    }

    @Test("a register folded by a newer build is read, never written; verify says it cannot check its statuses")
    func newerFoldIsNotWritten() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            do {
                let (register, _, _) = try dangerousRegister(path)
                try register.db.execute("PRAGMA user_version = \(HistorySummary.foldVersion + 1)")
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let refused = #expect(throws: RegisterError.self) { try Register.open(path: path) }
            #expect(refused?.description.contains("written by a newer Rigbook") == true,
                    "\(String(describing: refused))")
            #expect(refused?.description.contains("left untouched") == true, "\(String(describing: refused))")
            let reader = try Register.openForReading(path: path)
            #expect(try reader.asset(tag: "SL-0042")?.status(on: testToday).status == .doNotUse)
            #expect(try reader.verifyChain().problems.last?.contains("folded by a newer Rigbook") == true)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }
}
