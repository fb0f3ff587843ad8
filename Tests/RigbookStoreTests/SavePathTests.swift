import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

@Suite("The save path: Register.insert")
struct SavePathTests {
    @Test("a validated record is stored once, exactly as validated, with its stamp and the asset snapshot")
    func insertOnce() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let asset = makeAsset(wllKg: 1500, location: "Quay 2")
            try register.addAsset(asset)
            var values = passingValues(on: "2026-03-01")
            values.notes = "  Label faded but legible.\nRe-check next time.  "
            let record = try validated(values, for: asset)

            #expect(try register.containsSession(id: record.sessionID) == false)
            let id = try register.insert(record, saved: testStamp)
            #expect(try register.recordCount() == 1)
            #expect(try register.containsSession(id: record.sessionID))
            #expect(try register.containsSession(id: record.sessionID + "-other") == false)

            let stored = try #require(try register.inspection(id: id))
            #expect(stored.values == record.values)
            #expect(stored.values.notes == "Label faded but legible.\nRe-check next time.")
            #expect(stored.assetUUID == asset.uuid)
            #expect(stored.sessionID == record.sessionID)
            #expect(stored.amends == nil)
            #expect(stored.savedAt == testStamp.savedAt)
            #expect(stored.appVersion == testStamp.appVersion)
            #expect(stored.operatorName == testStamp.operatorName)
            #expect(stored.assetWLLKg == 1500)
            #expect(stored.assetLocation == "Quay 2")
            #expect(try register.history(assetUUID: asset.uuid) == [stored])
        }
    }

    @Test("what the gate validated is what the register returns", arguments: [
        "2026-04-30", " 2026-04-30 ",
    ])
    func storedEqualsValidated(deadline: String) throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let asset = makeAsset()
            try register.addAsset(asset)
            let record = try validated(remedyValues(on: "2026-03-10", deadline: deadline), for: asset)
            let id = try register.insert(record, saved: testStamp)
            let stored = try #require(try register.inspection(id: id))
            #expect(stored.values == record.values)
            // The facts carry the uuid the insert made (it settles conflicting amendments' standing).
            #expect(stored.facts == record.facts(id: id, savedAt: testStamp.savedAt).known(as: stored.recordUUID))
        }
    }

    @Test("the same validated record twice: refused with .duplicateDraft, nothing written twice")
    func duplicateDraftRefused() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let asset = makeAsset()
            try register.addAsset(asset)
            let record = try validated(passingValues(on: "2026-03-01"), for: asset)
            try register.insert(record, saved: testStamp)
            let summary = try register.asset(uuid: asset.uuid)?.summary

            #expect(throws: RegisterError.duplicateSession(record.sessionID)) {
                try register.insert(record, saved: testStamp)
            }
            // Another record that reuses the draft id (a second save of the same form) is refused too.
            let sameForm = try validated(failingValues(on: "2026-03-02"), for: asset, sessionID: record.sessionID)
            #expect(throws: RegisterError.duplicateSession(record.sessionID)) {
                try register.insert(sameForm, saved: testStamp)
            }
            #expect(try register.recordCount() == 1)
            #expect(try register.asset(uuid: asset.uuid)?.summary == summary)
            #expect(RegisterError.duplicateSession(record.sessionID).description.contains("nothing was written twice"))
        }
    }

    @Test("summary columns follow every insert: overdue → ok → do not use")
    func statusFollowsInserts() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let asset = makeAsset(commissioned: "2024-01-10", intervalMonths: 12)
            try register.addAsset(asset)
            func status() throws -> AssetStatus? { try register.asset(uuid: asset.uuid)?.status(on: testToday).status }

            #expect(try status() == .overdue)
            try expectSummaryFollowsHistory(register, asset.uuid)

            // A pre-use check does not move the due date.
            try register.insert(try validated(passingValues(.preUse, on: "2026-03-01"), for: asset), saved: testStamp)
            #expect(try status() == .overdue)
            try expectSummaryFollowsHistory(register, asset.uuid)

            try register.insert(try validated(passingValues(on: "2026-03-02"), for: asset), saved: testStamp)
            #expect(try status() == .ok)
            let afterPass = try #require(try register.asset(uuid: asset.uuid))
            #expect(afterPass.summary.lastThoroughDate == day("2026-03-02"))
            #expect(afterPass.summary.lastThoroughResult == .pass)
            #expect(afterPass.summary.recordCount == 2)
            #expect(afterPass.status(on: testToday).nextDue == day("2027-03-02"))
            try expectSummaryFollowsHistory(register, asset.uuid)

            try register.insert(try validated(failingValues(on: "2026-03-10"), for: asset), saved: testStamp)
            #expect(try status() == .doNotUse)
            let afterFail = try #require(try register.asset(uuid: asset.uuid))
            #expect(afterFail.summary.lastThoroughResult == .failDangerous)
            #expect(afterFail.summary.latestAction == .quarantine)
            #expect(afterFail.summary.recordCount == 3)
            try expectSummaryFollowsHistory(register, asset.uuid)
        }
    }

    @Test("an asset with no commission date goes from untested to ok, and a remedy deadline shows")
    func untestedThenOk() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let asset = makeAsset(commissioned: nil)
            try register.addAsset(asset)
            #expect(try register.asset(uuid: asset.uuid)?.status(on: testToday).status == .untested)
            try expectSummaryFollowsHistory(register, asset.uuid)

            let initial = try validated(passingValues(.thoroughInitial, on: "2026-01-05"), for: asset)
            try register.insert(initial, saved: testStamp)
            #expect(try register.asset(uuid: asset.uuid)?.status(on: testToday).status == .ok)
            try expectSummaryFollowsHistory(register, asset.uuid)

            let remedy = try validated(remedyValues(on: "2026-03-10", deadline: "2026-04-30"), for: asset)
            try register.insert(remedy, saved: testStamp)
            let report = try #require(try register.asset(uuid: asset.uuid)?.status(on: testToday))
            #expect(report.status == .remedyBy)
            #expect(report.remedyDeadline == day("2026-04-30"))
            try expectSummaryFollowsHistory(register, asset.uuid)
            // After the deadline passes without a later examination: do not use.
            #expect(try register.asset(uuid: asset.uuid)?.status(on: day("2026-05-01")).status == .doNotUse)
        }
    }

    @Test("an amendment leaves the original byte-identical; the summary follows the amendment")
    func amendment() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let asset = makeAsset()
            try register.addAsset(asset)
            let original = try validated(failingValues(on: "2026-03-05"), for: asset)
            let originalID = try register.insert(original, saved: testStamp)
            #expect(try register.asset(uuid: asset.uuid)?.status(on: testToday).status == .doNotUse)
            let rawBefore = try rawInspectionRow(register.db, id: originalID)
            let storedBefore = try register.inspection(id: originalID)

            let correction = try validated(passingValues(on: "2026-03-05"), for: asset, amending: storedBefore)
            let amendmentStamp = SaveStamp(savedAt: "2026-03-15T11:00:00.000Z", appVersion: "0.1.0-test",
                                           operatorName: "keeper")
            let amendmentID = try register.insert(correction, saved: amendmentStamp)
            #expect(amendmentID != originalID)
            #expect(try rawInspectionRow(register.db, id: originalID) == rawBefore)
            // The original reads back as it was, now known to be superseded by the amendment.
            let amendment = try #require(try register.inspection(id: amendmentID))
            var superseded = storedBefore
            superseded?.supersededBy = amendmentID
            superseded?.supersededByUUID = amendment.recordUUID
            #expect(try register.inspection(id: originalID) == superseded)
            #expect(amendment.amends == originalID)
            #expect(amendment.amendsUUID == storedBefore?.recordUUID)
            #expect(amendment.values.amendmentReason == "Corrected in a test")

            let history = try register.history(assetUUID: asset.uuid)
            #expect(history.map(\.id).sorted() == [originalID, amendmentID].sorted())
            let row = try #require(try register.asset(uuid: asset.uuid))
            #expect(row.summary.recordCount == 1)
            #expect(row.summary.lastThoroughResult == .pass)
            #expect(row.summary.unresolvedFail == false)
            #expect(row.status(on: testToday).status == .ok)
            try expectSummaryFollowsHistory(register, asset.uuid)
        }
    }

    @Test("amending a record of another asset, or one that does not exist, is refused")
    func invalidAmendment() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let first = makeAsset(tag: "SL-0001"), second = makeAsset(tag: "SL-0002")
            try register.addAsset(first)
            try register.addAsset(second)
            let firstFailure = try validated(failingValues(on: "2026-03-05"), for: first)
            let firstRecord = try #require(try register.inspection(id: register.insert(firstFailure, saved: testStamp)))
            let secondSummary = try register.asset(uuid: second.uuid)?.summary

            let crossed = try validated(passingValues(on: "2026-03-06"), for: second, amending: firstRecord)
            let error = #expect(throws: RegisterError.self) { try register.insert(crossed, saved: testStamp) }
            guard case .invalidAmendment = error else {
                Issue.record("expected .invalidAmendment, got \(String(describing: error))")
                return
            }
            var elsewhere = firstRecord  // a record of another register: its uuid is not in this one
            elsewhere.id += 1000
            elsewhere.recordUUID = UUID()
            let missing = try validated(passingValues(on: "2026-03-06"), for: second, amending: elsewhere)
            let missingError = #expect(throws: RegisterError.self) { try register.insert(missing, saved: testStamp) }
            guard case .invalidAmendment = missingError else {
                Issue.record("expected .invalidAmendment, got \(String(describing: missingError))")
                return
            }
            #expect(try register.recordCount() == 1)
            #expect(try register.containsSession(id: crossed.sessionID) == false)
            #expect(try register.asset(uuid: second.uuid)?.summary == secondSummary)
            #expect(try register.asset(uuid: first.uuid)?.status(on: testToday).status == .doNotUse)
        }
    }

    @Test("a record for an asset that is not in the register is refused")
    func unknownAsset() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try register.addAsset(makeAsset())
            let stranger = makeAsset(tag: "XX-9999")
            let record = try validated(passingValues(on: "2026-03-01"), for: stranger)
            #expect(throws: RegisterError.unknownAsset(stranger.uuid.uuidString)) {
                try register.insert(record, saved: testStamp)
            }
            #expect(try register.recordCount() == 0)
            #expect(try register.containsSession(id: record.sessionID) == false)
        }
    }

    @Test("records dated on the same day fold in save order")
    func sameDayOrder() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let asset = makeAsset()
            try register.addAsset(asset)
            let withdrawal = try validated(failingValues(on: "2026-03-05", action: .withdraw), for: asset)
            try register.insert(withdrawal, saved: testStamp)
            // Inspected again the same day after the fault was found to be a misreading: pass, saved later.
            try register.insert(try validated(passingValues(on: "2026-03-05"), for: asset), saved: testStamp)
            // An earlier-dated record saved last does not become the latest.
            try register.insert(try validated(passingValues(.preUse, on: "2026-02-01"), for: asset), saved: testStamp)
            let row = try #require(try register.asset(uuid: asset.uuid))
            #expect(row.summary.latestResult == .pass)
            #expect(row.summary.latestAction == InspectionAction.none)
            #expect(row.summary.lastThoroughDate == day("2026-03-05"))
            #expect(row.status(on: testToday).status == .ok)
            let history = try register.history(assetUUID: asset.uuid)
            #expect(history.map(\.values.inspectionDate) == ["2026-03-05", "2026-03-05", "2026-02-01"])
            #expect(history[0].values.result == .pass, "newest first: same date, later save first")
            try expectSummaryFollowsHistory(register, asset.uuid)
        }
    }
}

@Suite("One live amendment per record")
struct SecondAmendmentTests {
    @Test("a second amendment of the same record is refused in the insert's transaction")
    func secondAmendmentRefused() throws {
        try withRegister(holding: makeAsset()) { register, asset in
            let originalID = try register.insert(try validated(passingValues(on: "2026-03-05"), for: asset),
                                                 saved: testStamp)
            // Read before the first amendment, as a second session would have it on screen.
            let original = try #require(try register.inspection(id: originalID))
            let first = try validated(failingValues(on: "2026-03-05", action: .withdraw), for: asset,
                                      amending: original)
            let firstID = try register.insert(first, saved: testStamp)
            let summary = try register.asset(uuid: asset.uuid)?.summary

            let second = try validated(passingValues(on: "2026-03-06"), for: asset, amending: original)
            let error = #expect(throws: RegisterError.self) { try register.insert(second, saved: testStamp) }
            #expect(error?.description == "record #\(originalID) has already been amended by #\(firstID); "
                    + "nothing was saved. Amend #\(firstID), the newest record of its chain, instead.")
            #expect(try register.recordCount() == 2)
            #expect(try register.containsSession(id: second.sessionID) == false)
            #expect(try register.asset(uuid: asset.uuid)?.summary == summary)
            #expect(try register.asset(uuid: asset.uuid)?.status(on: testToday).status == .withdrawn)
        }
    }
}

@Suite("Records of one day fold in save-time order (fold version 4)")
struct SameDayFoldTests {
    @Test("two records of one day fold by saved_at, whatever their row ids: merged registers agree")
    func saveTimeOrdersADay() {
        func facts(id: Int64, result: InspectionResult, savedAt: String) -> RecordFacts {
            RecordFacts(id: id, type: .thoroughPeriodic, result: result, action: result == .pass ? .none : .withdraw,
                        remedyDeadline: nil, inspectionDate: day("2026-03-10"), savedAt: savedAt)
        }
        // Register A saved the pass first (id 1), B got the fail first by a merge (id 1): same save times.
        let inA = [facts(id: 1, result: .pass, savedAt: "2026-03-10T09:00:00.000Z"),
                   facts(id: 2, result: .failDangerous, savedAt: "2026-03-10T15:00:00.000Z")]
        let inB = [facts(id: 1, result: .failDangerous, savedAt: "2026-03-10T15:00:00.000Z"),
                   facts(id: 2, result: .pass, savedAt: "2026-03-10T09:00:00.000Z")]
        #expect(HistorySummary(history: inA) == HistorySummary(history: inB))
        #expect(HistorySummary(history: inA).latestResult == .failDangerous)
        // A record not saved yet (the form's preview) comes after every saved one of its day.
        let preview = RecordFacts(id: Int64.max, type: .preUse, result: .pass, action: .none, remedyDeadline: nil,
                                  inspectionDate: day("2026-03-10"))
        #expect(HistorySummary(history: inA + [preview]).latestResult == .pass)
    }
}
