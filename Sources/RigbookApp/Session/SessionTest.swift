import Foundation
import RigbookCore
import RigbookStore
import RigbookUI

/// The electrical test form's effects: its lock, its draft and its prefill. The draft writes,
/// the journal and the deletes are the inspection form's own (`writeDraft`, `journal`, `deleteDraft`): a test
/// form's snapshot carries `testValues`, and the draft file says `form_kind: test`.
extension Session {
    /// Takes the test draft's lock, then opens the test form, or asks about the draft it finds: the inspection
    /// form's way (`openForm`), for `Drafts/test-<uuid>.json`.
    func openTestForm(row: RegisterRow, recover: Bool) throws -> [Event] {
        let draftID = DraftIdentity.testDraftID(assetUUID: row.asset.uuid)
        var lockProblem: String?
        switch holdFormLock(draftID, tag: row.asset.tag, title: "is open in another session",
                            until: "It cannot be tested here until that form is closed.") {
        case .held: break
        case .elsewhere(let explained): return [explained]
        case .failed(let reason): lockProblem = reason
        }
        let seed = try testSeed(row: row)
        if let lockProblem {
            return [.testFormReady(seed),
                    .draftWriteFailed(draftID: draftID, reason: "drafts cannot be kept: \(lockProblem)")]
        }
        let draft: DraftFile?
        do {
            draft = try drafts.read(id: draftID)
        } catch DraftStoreError.unknownKind(let kind) {
            // Not ours to read, nor to set aside: the form opens fresh and its first write will say so.
            return [.testFormReady(seed),
                    .info("A draft of another kind (\(kind)) is in this test's place; left as it is.")]
        } catch {
            let moved = (try? drafts.setAside(fileName: draftID + ".json")) != nil
            return [.testFormReady(seed), .info("The draft for \(row.asset.tag) was \(error.description)"
                                                + (moved ? "; it was moved to Drafts/Corrupt/." : "."))]
        }
        guard let draft, let values = draft.testValues else { return [.testFormReady(seed)] }
        var recovered = seed
        recovered.initial = values
        recovered.sessionID = draft.sessionID
        recovered.draft = DraftFileMeta(of: draft)
        recovered.focus = draft.focusedField.flatMap(TestField.init(key:))
        if recover { return [.testFormReady(recovered)] }
        return [.draftFound(RecoveryState(testSeed: seed, draft: summary(DraftEntry(draft: draft, lockedBy: nil)),
                                          recovered: recovered))]
    }

    /// The prefilled test form: today, a periodic test, the technician and instrument from the test profile,
    /// and the register's test limits.
    func testSeed(row: RegisterRow) throws -> TestFormSeed {
        let profile = TestProfile.load(from: home.testProfilePath)
        let tests = try register.tests(assetUUID: row.asset.uuid)
        let inspections = try register.history(assetUUID: row.asset.uuid)
        return TestFormSeed(row: row, history: tests.map(\.facts) + inspections.map(\.facts),
                            baseline: TestValues(prefill: profile, today: state.today),
                            sessionID: DraftIdentity.testSessionID(assetUUID: row.asset.uuid),
                            // The register's limits in force as the form opens judge it; the test keeps them.
                            limits: try register.particulars().organisation.testLimits)
    }

    /// A test draft as the recovery question and the Drafts screen describe it.
    func testSummary(_ entry: DraftEntry, values: TestValues) -> DraftSummary {
        let draft = entry.draft
        var recoverable = values
        recoverable.authenticated = false  // never brought back: a person authenticates again
        let blank = TestValues(prefill: TestProfile.load(from: home.testProfilePath), today: state.today)
        let updated = Timestamp.parse(draft.updatedAt)
        let profile = TestProfile.load(from: home.testProfilePath)
        let another = draft.osUser != SystemIdentity.userName
            || (!profile.technician.isEmpty && draft.operatorName != profile.technician
                && draft.operatorName != SystemIdentity.userName)
        return DraftSummary(draftID: draft.draftID, assetUUID: UUID(uuidString: draft.assetUUID) ?? UUID(),
                            assetTag: draft.assetTag, kind: DraftSummary.testKind,
                            lastEdited: updated.map(Session.localTime) ?? draft.updatedAt,
                            age: updated.map { Elapsed.text(Date().timeIntervalSince($0)) } ?? "?",
                            operatorName: draft.operatorName, host: draft.host, byAnotherOperator: another,
                            differences: DraftSummary.differences(recoverable, from: blank),
                            lockedBy: entry.lockedBy?.description)
    }
}
