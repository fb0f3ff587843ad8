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
        var recoverable = values
        recoverable.authenticated = false  // never brought back: a person authenticates again
        let profile = TestProfile.load(from: home.testProfilePath)
        let blank = TestValues(prefill: profile, today: state.today)
        return summary(entry.draft.header, asset: entry.draft.assetUUID, tag: entry.draft.assetTag,
                       kind: DraftSummary.testKind, writer: profile.technician,
                       lockedBy: entry.lockedBy?.description,
                       differences: DraftSummary.differences(recoverable, from: blank))
    }
}
