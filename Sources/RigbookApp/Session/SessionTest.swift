import Foundation
import RigbookCore
import RigbookStore
import RigbookUI

/// The electrical test form's effects: its lock, its draft and its prefill. The draft writes,
/// the journal and the deletes are the inspection form's own (`writeDraft`, `journal`, `deleteDraft`): a test
/// form's snapshot carries `testValues`, and the draft file says `form_kind: test`.
extension Session {
    /// The test form of `row`, for `Drafts/test-<uuid>.json`.
    func openTestForm(row: RegisterRow, recover: Bool) throws -> [Event] {
        let opening = DraftedOpening(
            draftID: DraftIdentity.testDraftID(assetUUID: row.asset.uuid), heldTitle: "is open in another session",
            heldUntil: "It cannot be tested here until that form is closed.", seed: { try self.testSeed(row: row) },
            values: \.testValues, focus: TestField.init(key:),
            ready: Event.testFormReady, found: RecoveryState.init(testSeed:draft:recovered:))
        return try open(opening, tag: row.asset.tag, recover: recover)
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
                            own: try register.particulars().organisation.testLimits)
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
