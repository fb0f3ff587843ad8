import Foundation
import Testing
import RigbookApp
import RigbookCore
import RigbookStore
import RigbookUI

/// Issue 11, "Drafts", as sessions meet it: a form's lock when `Drafts/` could not be used at first, two
/// sessions on one draft, and the Drafts screen after a recovered draft is discarded or kept.
@Suite("Hardening: drafts", .serialized)
struct HardeningDraftFlowTests {
    static let profile = Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1")
    /// A form retries a failed draft write within this many seconds, typing or not.
    static let retry = 5.0

    /// A file where the Drafts folder should be: nothing in it can be written or locked (tests run as
    /// root, where a read-only folder stops nothing).
    static func blockDrafts(_ h: FormHarness) throws {
        try? FileManager.default.removeItem(atPath: h.home.draftsFolder)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: h.home.draftsFolder))
    }

    static func unblockDrafts(_ h: FormHarness) throws {
        try FileManager.default.removeItem(atPath: h.home.draftsFolder)
    }

    /// Opens SL-0042's form while the Drafts folder is unusable and types into the inspector name: the
    /// form warns that its draft is not on disk.
    static func typeWithoutDrafts(_ h: FormHarness, _ text: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        try blockDrafts(h)
        h.press(.char("i"), .tab, sourceLocation: sourceLocation)
        h.type(text, sourceLocation: sourceLocation)
        h.advance(0.6, sourceLocation: sourceLocation)
        #expect(h.form?.draftWarning != nil, "no warning while Drafts/ is unusable", sourceLocation: sourceLocation)
    }

    /// A draft for SL-0042 left by an earlier session (a crash), with its own session id.
    static func earlierDraft(_ h: FormHarness, notes: String) throws -> Data {
        var values = InspectionValues.blank(inspectorName: "Bo Berg", certificationNumber: "C-7", today: harnessToday)
        values.notes = notes
        let uuid = h.asset.uuid
        let draft = DraftFile(draftID: h.draftID, sessionID: DraftIdentity.sessionID(assetUUID: uuid),
                              assetUUID: uuid.uuidString.lowercased(), assetTag: h.asset.tag, amends: nil,
                              values: values, createdAt: Timestamp.now(), updatedAt: Timestamp.now(),
                              operatorName: "Bo Berg", pid: 1, revision: 3)
        try DraftStore(home: h.home).write(draft)
        return try #require(FileManager.default.contents(atPath: h.draftPath))
    }

    // MARK: A form opened without its lock

    // MARK: Drafts on disk that are not what a draft can be

    @Test("opening a form whose draft is a symbolic link sets the link aside and offers nothing")
    func symlinkedDraftIsNotOffered() throws {
        let h = try FormHarness(profile: Self.profile)
        _ = try Self.earlierDraft(h, notes: "behind a link")
        let target = h.home.root + "/elsewhere.json"
        #expect(rename(h.draftPath, target) == 0)
        #expect(symlink(target, h.draftPath) == 0)
        h.press(.char("i"))
        #expect(!h.shows("Unsubmitted draft"))
        #expect(h.form?.values.notes == "")
        let notice = h.session.state.notice?.text ?? "no notice"
        #expect(notice.contains("symbolic link") && notice.contains("moved to Drafts/Corrupt/"), "\(notice)")
        #expect(FileManager.default.fileExists(atPath: target), "the link's target stays where it is")
    }

    // MARK: The Drafts screen

    /// Types into SL-0042's form, closes it keeping the draft, and opens the Drafts screen.
    static func keepDraftAndOpenDraftsScreen(_ h: FormHarness, _ text: String,
                                             sourceLocation: SourceLocation = #_sourceLocation) {
        h.press(.char("i"), .tab, sourceLocation: sourceLocation)
        h.type(text, sourceLocation: sourceLocation)
        h.press(.escape, sourceLocation: sourceLocation)
        h.press(.char("c"), sourceLocation: sourceLocation)
        h.press(.char("D"), sourceLocation: sourceLocation)
        #expect(h.shows("Drafts · 1 unsubmitted"), sourceLocation: sourceLocation)
    }
}
