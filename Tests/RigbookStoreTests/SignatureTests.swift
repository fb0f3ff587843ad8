import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

// A record saved with an examiner's key is signed in its own transaction, over the bytes its hash is computed
// over; verify checks every signature against its key. Forgeries are made as an attacker with the file would: the
// triggers dropped, and the chain's hashes computed again, which anyone can do and no one can do for a signature.

@Suite("Signatures: made at the gate, checked by verify")
struct SignatureTests {
    /// A register with an asset and an examiner's key, and the key.
    private func signedRegister(_ path: String) throws -> (Register, Asset, SigningKey) {
        let register = try Register.open(path: path)
        let asset = makeAsset()
        try register.addAsset(asset)
        let key = try SigningKey.generate()
        try register.addKey(key.publicKey, examiner: "Jo Bloggs", stamp: testStamp)
        return (register, asset, key)
    }

    @Test("a record saved with a key is signed over its canonical bytes; unsigned ones stay valid")
    func signedAndVerified() throws {
        try withTemporaryDirectory { folder in
            let (register, asset, key) = try signedRegister(registerPath(in: folder))
            let unsigned = try register.insert(try validated(passingValues(on: "2026-01-01"), for: asset),
                                               saved: testStamp)
            let signer = RecordSigner(key: key, examiner: "Jo Bloggs")
            let id = try register.signing(with: signer) {
                try register.insert(try validated(passingValues(on: "2026-02-01"), for: asset), saved: testStamp)
            }
            let record = try #require(try register.history(assetUUID: asset.uuid).first { $0.id == id })
            let signatures = try register.signatures(of: record.recordUUID)
            #expect(signatures.count == 1)
            #expect(signatures.first?.fingerprint == key.publicKey.fingerprint)
            #expect(signatures.first?.recordHash == record.recordHash)
            let old = try #require(try register.history(assetUUID: asset.uuid).first { $0.id == unsigned })
            #expect(try register.signatures(of: old.recordUUID).isEmpty, "saved before keys")
            #expect(try register.verifyChain().problems == [])
        }
    }

    @Test("a retired key, or one the register does not hold, signs nothing and saves nothing")
    func retiredKeysRefuse() throws {
        try withTemporaryDirectory { folder in
            let (register, asset, key) = try signedRegister(registerPath(in: folder))
            try register.retireKey(fingerprint: key.publicKey.fingerprint, reason: "laptop stolen", stamp: testStamp)
            let stranger = try SigningKey.generate()
            for signer in [RecordSigner(key: key, examiner: "Jo Bloggs"), RecordSigner(key: stranger, examiner: "X")] {
                #expect(throws: RegisterError.self) {
                    try register.signing(with: signer) {
                        try register.insert(try validated(passingValues(on: "2026-02-01"), for: asset),
                                            saved: testStamp)
                    }
                }
            }
            #expect(try register.history(assetUUID: asset.uuid).isEmpty)
            #expect(try register.examinerKeys().first?.retirementReason == "laptop stolen")
            #expect(throws: RegisterError.self) {
                try register.retireKey(fingerprint: key.publicKey.fingerprint, reason: "again", stamp: testStamp)
            }
        }
    }

    @Test("a record altered and the chain hashed again still fails: its signature does not match")
    func rehashedForgeryFails() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, asset, key) = try signedRegister(path)
            try register.signing(with: RecordSigner(key: key, examiner: "Jo Bloggs")) {
                try register.insert(try validated(passingValues(on: "2026-03-10"), for: asset), saved: testStamp)
            }
            #expect(try register.verifyChain().problems == [])
            // The attacker moves the examination a day, and hashes the record and the signature after it again.
            let raw = try Database(path: path, mode: .readWrite)
            try raw.execute("""
                DROP TRIGGER IF EXISTS inspections_are_never_updated;
                UPDATE inspections SET notes = 'Examined with the hook latch replaced';
                """)
            try rehashTail(raw)
            let problems = try register.verifyChain().problems
            #expect(problems.first?.contains("does not match the record") == true, "\(problems)")
        }
    }

    @Test("a signature removed with the chain made whole again is noted: the record was saved after its key")
    func removedSignatureIsNoted() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, asset, _) = try signedRegister(path)
            // The examiner the record names: Alan Hughes.
            let key = try SigningKey.generate()
            try register.addKey(key.publicKey, examiner: "Alan Hughes", stamp: testStamp)
            try register.signing(with: RecordSigner(key: key, examiner: "Alan Hughes")) {
                try register.insert(try validated(passingValues(.preUse, on: "2026-03-10"), for: asset), saved: testStamp)
            }
            #expect(try register.verifyChain().unsignedAfterKeys.isEmpty)
            // The newest entry is the signature: gone, and the head put back on the record.
            let raw = try Database(path: path, mode: .readWrite)
            try raw.execute("""
                DROP TRIGGER IF EXISTS signatures_are_never_deleted;
                UPDATE register_chain SET head_hash = (SELECT parent_hash FROM signatures);
                DELETE FROM signatures;
                """)
            let verified = try register.verifyChain()
            #expect(verified.problems.isEmpty, "a chain without the signature is whole: \(verified.problems)")
            #expect(verified.unsignedAfterKeys.count == 1 && verified.unsignedAfterKeys[0].contains("Alan Hughes"),
                    "\(verified.unsignedAfterKeys)")
        }
    }

    @Test("two records' signatures swapped, and the chain hashed again, are each named")
    func swappedSignaturesFail() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, asset, key) = try signedRegister(path)
            let other = makeAsset(tag: "SL-0043")
            try register.addAsset(other)
            try register.signing(with: RecordSigner(key: key, examiner: "Jo Bloggs")) {
                try register.insert(try validated(passingValues(.preUse, on: "2026-03-10"), for: asset), saved: testStamp)
                try register.insert(try validated(passingValues(.preUse, on: "2026-03-11"), for: other), saved: testStamp)
            }
            #expect(try register.verifyChain().problems == [])
            let raw = try Database(path: path, mode: .readWrite)
            try raw.execute("""
                DROP TRIGGER IF EXISTS signatures_are_never_updated;
                UPDATE signatures SET signature = CASE id WHEN 1 THEN (SELECT signature FROM signatures WHERE id = 2)
                                                          ELSE (SELECT signature FROM signatures WHERE id = 1) END;
                """)
            try rehashTail(raw, from: ("signatures", 1))
            let problems = try register.verifyChain().problems
            #expect(problems.count == 2 && problems.allSatisfy { $0.contains("does not match the record") },
                    "\(problems)")
        }
    }

    @Test("a signature by a key retired before the record was saved, or by a key nobody knows, is named")
    func retiredOrUnknownKeysAreNamed() throws {
        try withTemporaryDirectory { folder in
            let path = registerPath(in: folder)
            let (register, asset, key) = try signedRegister(path)
            try register.signing(with: RecordSigner(key: key, examiner: "Jo Bloggs")) {
                try register.insert(try validated(passingValues(on: "2026-03-10"), for: asset), saved: testStamp)
            }
            // A retirement dated before the save arrives later (synced from another machine).
            try register.perform {
                try HashChain.append(register.db, SignatureStore.retirement, [
                    .text(UUID().uuidString), .text(key.publicKey.fingerprint), .text("lost"),
                    .text("2000-01-01T00:00:00.000Z"), .text("ops")])
            }
            let problems = try register.verifyChain().problems
            #expect(problems.first?.contains("retired on 2000-01-01") == true, "\(problems)")

            let otherFolder = folder.appendingPathComponent("other")
            try FileManager.default.createDirectory(at: otherFolder, withIntermediateDirectories: true)
            let (second, asset2, _) = try signedRegister(registerPath(in: otherFolder))
            let stranger = try SigningKey.generate()
            // Past `signing`, which would refuse it: a key the register never held.
            second.db.signer = RecordSigner(key: stranger, examiner: "X")
            _ = try second.insert(try validated(passingValues(on: "2026-03-10"), for: asset2), saved: testStamp)
            second.db.signer = nil
            let unknown = try second.verifyChain().problems
            #expect(unknown.first?.contains("which the register does not hold") == true, "\(unknown)")
        }
    }

    /// The altered record and every entry after it hashed again, as a forger's tool would: each entry's hash from
    /// its new parent, a signature pointed at its record's new hash, the head moved.
    private func rehashTail(_ db: Database, from first: (table: String, rowid: Int64)? = nil) throws {
        let triggers = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_updated'")
        var names: [String] = []
        while try triggers.step() { names.append(triggers.text(0)) }
        for name in names { try db.execute("DROP TRIGGER \(name)") }
        // Every entry by its parent: the chain is a line, each entry the child of the one before it.
        var childOf: [String: (kind: HashChain.Kind, rowid: Int64)] = [:]
        var start: (kind: HashChain.Kind, rowid: Int64)?
        // The assets (a table without row ids) come before the record: none is in the tail.
        for kind in HashChain.kinds where kind.table != "assets" {
            let rows = try db.prepare(kind.selectSQL("rowid"))
            let count = Int32(kind.hashed.count)
            while try rows.step() {
                if let parent = rows.optionalText(count + 2) { childOf[parent] = (kind, rows.int64(count)) }
                if let first, kind.table == first.table, rows.int64(count) == first.rowid {
                    start = (kind, first.rowid)
                } else if first == nil && kind.name == HashChain.inspection.name {
                    start = (kind, rows.int64(count))
                }
            }
        }
        var entry = try #require(start)
        while true {
            let rows = try db.prepare(entry.kind.selectSQL("rowid"))
            let count = Int32(entry.kind.hashed.count)
            var old = "", new = ""
            while try rows.step() {
                guard rows.int64(count) == entry.rowid else { continue }
                old = rows.text(count + 1)
                new = try HashChain.sha256(HashChain.canonical(entry.kind, rows))
            }
            try db.run("UPDATE \(entry.kind.table) SET \(entry.kind.hashColumn) = ? WHERE rowid = ?",
                       [.text(new), .integer(entry.rowid)])
            guard let child = childOf[old] else {
                try db.run("UPDATE register_chain SET head_hash = ?", [.text(new)])
                return
            }
            try db.run("UPDATE \(child.kind.table) SET parent_hash = ? WHERE rowid = ?",
                       [.text(new), .integer(child.rowid)])
            try db.run("UPDATE signatures SET record_hash = ? WHERE record_hash = ?", [.text(new), .text(old)])
            entry = child
        }
    }
}

@Suite("Signatures travel: merge and sync carry keys and signatures")
struct SignaturesTravelTests {
    /// A register with a signed record made by its examiner's key, and the key.
    private func signedRecord(_ register: Register, tag: String) throws -> SigningKey {
        let asset = makeAsset(tag: tag)
        try register.addAsset(asset)
        let key = try SigningKey.generate()
        try register.addKey(key.publicKey, examiner: "Jo Bloggs", stamp: testStamp)
        try register.signing(with: RecordSigner(key: key, examiner: "Jo Bloggs")) {
            try register.insert(try validated(passingValues(on: "2026-02-10"), for: asset), saved: testStamp)
        }
        return key
    }

    @Test("a merge brings a laptop's keys and signatures in, and the merged register verifies them")
    func mergeCarriesSignatures() throws {
        try withTemporaryDirectory { folder in
            let laptop = try Register.open(path: folder.appendingPathComponent("laptop.sqlite").path)
            let office = try Register.open(path: folder.appendingPathComponent("office.sqlite").path)
            let key = try signedRecord(laptop, tag: "SL-1")
            try laptop.retireKey(fingerprint: key.publicKey.fingerprint, reason: "laptop replaced", stamp: testStamp)
            let report = try office.merge(from: try Register.openForMerging(path: laptop.path))
            #expect(report.signatures >= 3, "the key, its retirement and the record's signature: \(report)")
            #expect(try office.examinerKeys().first?.retirementReason == "laptop replaced")
            let asset = try #require(try office.asset(tag: "SL-1")).asset
            let record = try #require(try office.history(assetUUID: asset.uuid).first)
            #expect(record.signedBy?.fingerprint == key.publicKey.fingerprint)
            let verified = try office.verifyChain()
            #expect(verified.problems.isEmpty && verified.signatures >= 1, "\(verified)")
        }
    }

    @Test("a replica verifies records signed on another, through the organisation's server")
    func syncCarriesSignatures() throws {
        let url = try newServer()
        try withTemporaryDirectory { folder in
            let a = try Register.open(path: folder.appendingPathComponent("a.sqlite").path)
            let b = try Register.open(path: folder.appendingPathComponent("b.sqlite").path)
            let key = try signedRecord(a, tag: "SL-1")
            _ = try a.sync(url: url)
            _ = try b.sync(url: url)
            #expect(try b.examinerKeys().map(\.fingerprint) == [key.publicKey.fingerprint])
            let verified = try b.verifyChain()
            #expect(verified.problems.isEmpty && verified.signatures >= 1, "\(verified)")
            let server = try PostgresConnection(url: url)
            #expect(try server.scalar("SELECT count(*) FROM signatures") != .integer(0))
        }
    }
}

@Suite("Signatures in the sample data")
struct SampleSignatureTests {
    @Test("the sample signs its last year with sample keys, leaves older records before keys, and stays one register")
    func sampleSignsItsLastYear() throws {
        try withTemporaryDirectory { folder in
            var registers: [Register] = []
            for name in ["a", "b"] {
                let register = try Register.open(path: folder.appendingPathComponent("\(name).sqlite").path)
                try SampleData(count: 60, seed: 42, today: testToday).load(into: register)
                registers.append(register)
            }
            let register = registers[0]
            let keys = try register.examinerKeys()
            #expect(!keys.isEmpty && keys.allSatisfy(\.sample))
            func signatures(_ register: Register) throws -> [String] {
                try register.perform {
                    // The signatures themselves differ: each register's identity is in its report numbers.
                    let rows = try register.db.prepare("SELECT entry_uuid, record_uuid, fingerprint, signed_at FROM "
                                                       + "signatures ORDER BY id")
                    var found: [String] = []
                    while try rows.step() { found.append((0..<4).map { rows.text(Int32($0)) }.joined(separator: " ")) }
                    return found
                }
            }
            let signed = try signatures(register)
            let records = try register.recordCount()
            #expect(!signed.isEmpty && signed.count < records, "some signed, some before keys")
            #expect(try signatures(registers[1]) == signed, "the same seed, the same register")
            let verified = try register.verifyChain()
            #expect(verified.problems.isEmpty && verified.signatures == signed.count, "\(verified)")
        }
    }
}
