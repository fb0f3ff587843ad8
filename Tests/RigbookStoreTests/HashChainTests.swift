import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

@Suite("The hash chain and report numbers")
struct HashChainTests {
    /// A register with three thorough examinations and a pre-use check, newest last.
    private func registerWithRecords(_ path: String) throws -> (Register, [Int64]) {
        let register = try Register.open(path: path)
        let asset = makeAsset()
        try register.addAsset(asset)
        var ids: [Int64] = []
        for (type, date) in [(InspectionType.thoroughPeriodic, "2026-03-01"), (.preUse, "2026-03-02"),
                             (.thoroughPeriodic, "2026-03-03"), (.thoroughPeriodic, "2026-03-04")] {
            ids.append(try register.insert(try validated(passingValues(type, on: date), for: asset), saved: testStamp))
        }
        return (register, ids)
    }

    /// A second connection with the evidence triggers dropped: what someone editing the file would do.
    private func tamper(_ path: String, _ sql: String) throws {
        let raw = try Database(path: path, mode: .readWrite)
        try raw.execute("""
            DROP TRIGGER IF EXISTS inspections_are_never_updated; DROP TRIGGER IF EXISTS inspections_are_never_deleted;
            DROP TRIGGER IF EXISTS notices_are_never_updated; DROP TRIGGER IF EXISTS notices_are_never_deleted;
            \(sql)
            """)
    }

    @Test("records chain onto the head; each is hashed with the SHA-256 of its canonical text; verify passes")
    func chainIsWhole() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, ids) = try registerWithRecords(path)
            let result = try register.verifyChain()
            #expect(result.problem == nil && result.entries == 11,
                    """
                    the new register's employer and site, the asset, the examiner added with the first record, \
                    four records and the three examinations' notices of the report to send
                    """)
            // Each thorough examination is followed by its notice; the last notice is the head.
            func noticeHash(_ id: Int64) throws -> SQLValue? {
                try register.db.scalar("""
                    SELECT n.entry_hash FROM notices n JOIN inspections i ON i.record_uuid = n.record_uuid
                    WHERE i.id = ?
                    """, [.integer(id)])
            }
            #expect(result.head.map(SQLValue.text) == (try noticeHash(ids[3])))
            let parent = try register.db.scalar("SELECT parent_hash FROM inspections WHERE id = ?", [.integer(ids[3])])
            #expect(parent == (try noticeHash(ids[2])))
            // The register's first particulars start the chain; the asset follows them, and the first record
            // chains onto the examiner it added.
            #expect(try register.db.scalar("SELECT parent_hash FROM particulars WHERE id = 1") == .null)
            #expect(try register.db.scalar("SELECT parent_hash FROM assets")
                    == (try register.db.scalar("SELECT entry_hash FROM particulars WHERE id = 2")))
            #expect(try register.db.scalar("SELECT parent_hash FROM inspections WHERE id = ?", [.integer(ids[0])])
                    == (try register.db.scalar("SELECT entry_hash FROM particulars ORDER BY id DESC LIMIT 1")))
            // The EVP digest is SHA-256: the standard test vector.
            #expect(try HashChain.sha256("abc")
                    == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        }
    }

    @Test("thorough examinations get gap-free report numbers from the register's identity; others none")
    func reportNumbers() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, ids) = try registerWithRecords(path)
            guard case .text(let identity)? = try register.db.scalar("SELECT identity FROM register_chain") else {
                Issue.record("no identity"); return
            }
            #expect(UUID(uuidString: identity) != nil)
            let prefix = String(identity.prefix(8)).uppercased()
            let numbers = try ids.map { try register.inspection(id: $0)?.reportNumber }
            #expect(numbers == [prefix + "-000001", nil, prefix + "-000002", prefix + "-000003"])
            #expect(ReportNumber.make(identity: "7f3a91c2-0000", sequence: 123) == "7F3A91C2-000123")
        }
    }

    /// What verify finds after `sql(ids)` ran behind the triggers' back, with the records' ids.
    private func problemAfterTampering(_ sql: ([Int64]) -> String) throws -> (problem: String?, ids: [Int64]) {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, ids) = try registerWithRecords(path)
            try tamper(path, sql(ids))
            return (try register.verifyChain().problem, ids)
        }
    }

    @Test("a column altered behind the triggers' back: verify names that record")
    func alteredRecordIsFound() throws {
        let (problem, ids) = try problemAfterTampering {
            "UPDATE inspections SET result = 'fail_dangerous' WHERE id = \($0[1])"
        }
        #expect(problem?.hasPrefix("record #\(ids[1]) ") == true, "\(String(describing: problem))")
        #expect(problem?.contains("does not match") == true, "\(String(describing: problem))")
    }

    @Test("the newest records deleted behind the triggers' back: the head, or a head printed earlier, is missing")
    func removedNewestIsFound() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, ids) = try registerWithRecords(path)
            let printed = try #require(try register.verifyChain().head)
            try tamper(path, """
                DELETE FROM notices WHERE record_uuid IN (SELECT record_uuid FROM inspections WHERE id >= \(ids[2]));
                DELETE FROM inspections WHERE id >= \(ids[2]);
                """)
            #expect(try register.verifyChain().problem?.contains("head") == true)
            // Covering the tracks: the head row moved back to what is now the newest record. The chain then holds,
            // but the numbers kept as records came in name the ones removed.
            try tamper(path, """
                UPDATE register_chain SET head_hash = (SELECT record_hash FROM inspections WHERE id = \(ids[1]));
                """)
            let problems = try register.verifyChain().problems
            #expect(problems.contains { $0.hasPrefix("record #\(ids[2]) ") && $0.contains("no longer in the register") },
                    "\(problems)")
            #expect(!problems.contains { $0.contains("head") }, "\(problems)")
            let problem = try #require(try register.verifyChain(expectedHead: printed).problem)
            #expect(problem.contains(printed), "\(problem)")
        }
    }

    @Test("an asset's particulars altered behind Rigbook's back: verify names the asset")
    func alteredAssetIsFound() throws {
        let (problem, _) = try problemAfterTampering { _ in "UPDATE assets SET wll_kg = 5000" }
        #expect(problem?.hasPrefix("asset SL-0042 (") == true, "\(String(describing: problem))")
    }

    @Test("a record deleted from the middle: the next record names a parent that is not there")
    func removedMiddleIsFound() throws {
        let (problem, ids) = try problemAfterTampering { "DELETE FROM inspections WHERE id = \($0[1])" }
        let found = try #require(problem)
        #expect(found.hasPrefix("record #\(ids[2]) ") && found.contains("parent"), "\(found)")
    }

    @Test("a register of the previous schema migrates: records hashed in order, nothing else rewritten")
    func previousSchemaMigrates() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            do {
                // Migration 001, two records, then 002–004: the register as the build before this one left it.
                let db = try firstSchemaDatabase(at: path)
                let asset = "00000000-0000-4000-8000-000000000042"
                try db.run("""
                    INSERT INTO assets (tag, uuid, name, type, wll_kg, interval_months, lifts_persons, created_at)
                    VALUES ('SL-0042', ?, '2 t web sling', 'web-sling', 2000, 12, 0, '2026-01-01T00:00:00.000Z')
                    """, [.text(asset)])
                for id in 1...2 {
                    try insertFirstSchemaRecord(db, FirstSchemaRecord(
                        id: Int64(id), asset: asset, result: "pass", action: "none", date: "2026-02-0\(id)",
                        inspector: "Ann Smith", operatorName: "ann", savedAt: "2026-02-01T10:00:00.000Z",
                        wllKg: 2000, location: "Bay A"))
                }
                for migration in RegisterSchema.migrations[1...3] {
                    try db.execute(migration.sql)
                    try db.run("INSERT INTO rigbook_migrations (name, applied_at) VALUES (?, '2026-01-02')",
                               [.text(migration.name)])
                }
            }
            let before = try Database(path: path, mode: .readOnly)
            let oldRows = try (1...2).map { try rawInspectionRow(before, id: Int64($0)) }
            let register = try Register.open(path: path)
            for id in 1...2 {
                let row = try rawInspectionRow(register.db, id: Int64(id))
                #expect(row.prefix(oldRows[id - 1].count) == oldRows[id - 1][...])
                #expect(try register.inspection(id: Int64(id))?.reportNumber == nil)
            }
            let result = try register.verifyChain()
            #expect(result.problem == nil && result.entries == 5, "the asset, two records, the employer and site")
            // Migration 006 chains the register's first particulars after what 005 hashed.
            #expect(result.head.map(SQLValue.text)
                    == (try register.db.scalar("SELECT entry_hash FROM particulars ORDER BY id DESC LIMIT 1")))
            #expect(try register.db.scalar("SELECT parent_hash FROM particulars WHERE id = 1")
                    == (try register.inspection(id: 2)?.recordHash).map(SQLValue.text))
            // The update trigger is back, and new records chain on.
            #expect(throws: DatabaseError.self) { try register.db.run("UPDATE inspections SET notes = 'x'") }
            let asset = try #require(try register.asset(tag: "SL-0042")?.asset)
            let id = try register.insert(try validated(passingValues(on: "2026-03-01"), for: asset), saved: testStamp)
            let newest = try register.notices(recordUUID: try #require(try register.inspection(id: id)?.recordUUID))
            #expect(try register.verifyChain().head == newest.last?.entryHash)
            #expect(try register.inspection(id: id)?.reportNumber?.hasSuffix("-000001") == true)
        }
    }
}

@Suite("The hash chain covers particulars and notices")
struct ParticularsAndNoticesChainTests {
    /// A register with one thorough examination (so a notice) and a renamed employer, then `sql` run behind
    /// the triggers' back; what verify says.
    private func problem(after sql: String) throws -> String? {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let register = try Register.open(path: path)
            let asset = makeAsset()
            try register.addAsset(asset)
            try register.record(.employer(Employer(uuid: Particulars.mainEmployerUUID, name: "Quay Ltd",
                                                   address: "Harbour Road")))
            try register.insert(try validated(passingValues(on: "2026-03-01"), for: asset), saved: testStamp)
            #expect(try register.verifyChain().problem == nil)
            let raw = try Database(path: path, mode: .readWrite)
            try raw.execute("""
                DROP TRIGGER particulars_are_never_updated; DROP TRIGGER particulars_are_never_deleted;
                DROP TRIGGER notices_are_never_updated; DROP TRIGGER notices_are_never_deleted;
                \(sql)
                """)
            return try register.verifyChain().problem
        }
    }

    @Test("a notice marked done behind Rigbook's back is found")
    func alteredNotice() throws {
        let found = try #require(try problem(after: "UPDATE notices SET done_on = '2026-03-02'"))
        #expect(found.hasPrefix("notice report_to_employer on record ") && found.contains("does not match"), "\(found)")
    }

    @Test("an employer's address changed in place, or its newest version removed, is found")
    func alteredParticulars() throws {
        let altered = try #require(try problem(after: """
            UPDATE particulars SET content = replace(content, 'Harbour Road', 'Elsewhere') \
            WHERE subject_kind = 'employer'
            """))
        #expect(altered.hasPrefix("particulars of employer ") && altered.contains("does not match"), "\(altered)")
        let removed = try #require(try problem(after: """
            DELETE FROM particulars WHERE id = (SELECT max(id) FROM particulars WHERE subject_kind = 'employer')
            """))
        #expect(removed.contains("parent") && removed.contains("not in the register"), "\(removed)")
    }

    @Test("the triggers refuse editing and deleting particulars and notices")
    func triggersRefuse() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            for sql in ["UPDATE particulars SET operator = 'x'", "DELETE FROM particulars",
                        "INSERT OR REPLACE INTO particulars SELECT * FROM particulars WHERE id = 1"] {
                #expect(throws: DatabaseError.self, "\(sql)") { try register.db.run(sql) }
            }
            #expect(try register.particulars().sites[Particulars.mainSiteUUID]?.name == "Main site")
        }
    }
}

@Suite("Notices done only for duties a save opened")
struct NoticeDutyTests {
    @Test("a pass has no defect to report and an item not hired no lessor: those duties are refused")
    func onlyOpenedDuties() throws {
        try withRegister(holding: makeAsset()) { register, asset in
            let id = try register.insert(try validated(passingValues(on: "2026-03-01"), for: asset), saved: testStamp)
            let record = try #require(try register.inspection(id: id))
            for duty in [NoticeDuty.employerTold, .enforcingAuthority, .reportToLessor] {
                let refused = #expect(throws: RegisterError.self) {
                    try register.addNotice(Notice(recordUUID: record.recordUUID, duty: duty, recipient: "x",
                                                  doneOn: day("2026-03-02")), today: testToday)
                }
                #expect(refused?.description.contains("its save did not open one") == true, "\(duty)")
            }
            try register.addNotice(Notice(recordUUID: record.recordUUID, duty: .reportToEmployer, recipient: "Quay",
                                          doneOn: day("2026-03-02")), today: testToday)
            #expect(try register.openNotices().isEmpty)
        }
    }
}
