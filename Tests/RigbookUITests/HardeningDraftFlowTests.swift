import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// Drafts as sessions meet them: a form's lock when `Drafts/` could not be used at first, two
/// sessions on one draft, and the Drafts screen after a recovered draft is discarded or kept.
@Suite("Hardening: drafts", .serialized)
struct HardeningDraftFlowTests {
    static let profile = Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1")
    /// A form retries a failed draft write within this many seconds, typing or not.
    static let retry = 5.0

    /// A file where the Drafts folder should be: nothing in it can be written or locked (tests run as
    /// root, where a read-only folder stops nothing).
    static func blockDrafts(_ home: DataHome) throws {
        try? FileManager.default.removeItem(atPath: home.draftsFolder)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: home.draftsFolder))
    }

    static func unblockDrafts(_ home: DataHome) throws {
        try FileManager.default.removeItem(atPath: home.draftsFolder)
    }

    /// Opens SL-0042's form while the Drafts folder is unusable and types into the inspector name: the
    /// form warns that its draft is not on disk.
    static func typeWithoutDrafts(_ h: FormHarness, _ text: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        try blockDrafts(h.home)
        h.openFormOnInspectorName(sourceLocation: sourceLocation)
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

    @Test("a form opened while Drafts/ was unusable takes its lock at the next write: a second session is refused")
    func lateLockKeepsTheSecondSessionOut() throws {
        let first = try FormHarness(profile: Self.profile)
        try Self.typeWithoutDrafts(first, " Jr")
        try Self.unblockDrafts(first.home)
        first.type("!")
        first.advance(0.6)
        #expect(first.form?.draftWarning == nil, "\(first.form?.draftWarning ?? "")")
        #expect(try first.readDraft()?.values.inspectorName == "Ann Smith Jr!")

        let second = try FormHarness(sharingHomeOf: first)
        second.press(.char("i"))
        #expect(second.form == nil)
        #expect(!second.shows("Unsubmitted draft"), "offered a draft whose form is open:\n\(second.harness.dump)")
        #expect(second.shows("SL-0042 is open in another session"))
    }

    @Test("once Drafts/ is usable, a form that could not write its draft writes it without another key")
    func failedWriteIsRetried() throws {
        let h = try FormHarness(profile: Self.profile)
        try Self.typeWithoutDrafts(h, " Jr")
        try Self.unblockDrafts(h.home)
        h.advance(Self.retry)
        #expect(h.form?.draftWarning == nil)
        #expect(try h.readDraft()?.values.inspectorName == "Ann Smith Jr")
        #expect(h.shows("DRAFT NOT ON DISK") == false)
    }

    @Test("a form without its lock never writes or deletes the draft of the session that has the form open")
    func locklessFormLeavesAnotherSessionsDraftAlone() throws {
        let first = try FormHarness(profile: Self.profile)
        try Self.typeWithoutDrafts(first, " Jr")
        try Self.unblockDrafts(first.home)

        // The folder is usable again; a second session opens the form first, and types.
        let second = try FormHarness(sharingHomeOf: first)
        second.openFormOnInspectorName()
        #expect(!second.shows("Unsubmitted draft"))
        second.type(" Sr")
        second.advance(0.6)
        let secondsDraft = try #require(FileManager.default.contents(atPath: second.draftPath))

        first.type("!")
        first.advance(0.6)
        first.advance(Self.retry)
        #expect(FileManager.default.contents(atPath: first.draftPath) == secondsDraft, "the first overwrote it")
        let warning = first.form?.draftWarning ?? ""
        #expect(warning.contains("open in another session"), "warning: \(warning)")
        #expect(first.flatScreen.contains("open in another session"), "\(first.screenText)")

        // Discarding the lockless form discards its own typing only.
        first.press(.escape)
        first.press(.char("d"))
        #expect(first.form == nil)
        #expect(FileManager.default.contents(atPath: first.draftPath) == secondsDraft, "the first deleted it")
        #expect(second.form?.values.inspectorName == "Ann Smith Sr")
    }

    @Test("a form that gets its lock late never overwrites an earlier session's draft it was not offered")
    func lateLockLeavesAnEarlierDraft() throws {
        let h = try FormHarness(profile: Self.profile)
        let earlier = try Self.earlierDraft(h, notes: "written before a crash")
        // A folder where the lock file should be: the lock cannot be taken, the draft can still be read.
        let lockPath = h.home.draftsFolder + "/" + h.draftID + ".lock"
        try FileManager.default.createDirectory(atPath: lockPath, withIntermediateDirectories: false)
        h.press(.char("i"))
        #expect(!h.shows("Unsubmitted draft"))
        h.focus(.notes)
        h.type("typed meanwhile")
        h.advance(0.6)
        #expect(h.form?.draftWarning != nil)

        try FileManager.default.removeItem(atPath: lockPath)
        h.type("!")
        h.advance(0.6)
        h.advance(Self.retry)
        #expect(FileManager.default.contents(atPath: h.draftPath) == earlier, "the earlier draft was overwritten")
        #expect(h.form?.draftWarning?.contains("earlier draft") == true, "\(h.form?.draftWarning ?? "")")
        h.press(.escape)
        h.press(.char("d"))
        #expect(FileManager.default.contents(atPath: h.draftPath) == earlier, "the earlier draft was deleted")

        // Offered as usual to whoever opens the form next.
        h.press(.char("i"))
        #expect(h.shows("Unsubmitted draft for SL-0042"))
    }

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
        h.openFormOnInspectorName(sourceLocation: sourceLocation)
        h.type(text, sourceLocation: sourceLocation)
        h.press(.escape, sourceLocation: sourceLocation)
        h.press(.char("c"), sourceLocation: sourceLocation)
        h.press(.char("D"), sourceLocation: sourceLocation)
        #expect(h.shows("Drafts · 1 unsubmitted"), sourceLocation: sourceLocation)
    }

    @Test("recovered from the Drafts screen, then discarded in the form: the Drafts screen no longer lists it")
    func draftsScreenAfterDiscardInTheForm() throws {
        let h = try FormHarness(profile: Self.profile)
        Self.keepDraftAndOpenDraftsScreen(h, " Jr")
        h.press(.enter)
        #expect(h.form?.values.inspectorName == "Ann Smith Jr")
        h.press(.escape)
        h.press(.char("d"))
        #expect(h.form == nil)
        #expect(!h.draftExists)
        #expect(h.session.state.screens.last is DraftsState)
        #expect(h.shows("Drafts · 0 unsubmitted"), "\(h.screenText)")
        #expect(h.shows("No drafts."))
    }

    @Test("recovered from the Drafts screen, changed and kept: the Drafts screen shows the draft as it is now")
    func draftsScreenAfterKeepInTheForm() throws {
        let h = try FormHarness(profile: Self.profile)
        Self.keepDraftAndOpenDraftsScreen(h, " Jr")
        h.press(.enter)
        #expect(h.form?.focus == .inspectorName)
        h.type(" II")
        h.press(.escape)
        h.press(.char("c"))
        #expect(h.session.state.screens.count == 1, "one Drafts screen, not one more")
        #expect(h.shows("Drafts · 1 unsubmitted"))
        #expect(h.line(containing: "SL-0042")?.contains("Ann Smith Jr II") == true, "\(h.screenText)")
    }

    @Test("x on the Drafts screen does not discard a draft whose form another session opened since the list was read")
    func draftsScreenDiscardChecksTheLockWhenItDeletes() throws {
        let first = try FormHarness(profile: Self.profile)
        first.openFormOnInspectorName()
        first.type(" Jr")
        first.press(.escape)
        first.press(.char("c"))

        let second = try FormHarness(sharingHomeOf: first)
        second.press(.char("D"))
        #expect(second.shows("Drafts · 1 unsubmitted"))
        #expect(!second.flatScreen.contains("(open:"))

        first.press(.char("i"))
        first.press(.char("r"))
        #expect(first.form?.values.inspectorName == "Ann Smith Jr")

        second.press(.char("x"))
        second.press(.char("d"))
        #expect(first.draftExists, "discarded under the form open in the first session")
        #expect(second.session.state.notice?.text.contains("open in another session") == true,
                "\(second.session.state.notice?.text ?? "no notice")")
        #expect(second.shows("Drafts · 1 unsubmitted"))
    }

    @Test("Enter on the Drafts screen on a draft whose form is open elsewhere explains, and opens nothing")
    func draftsScreenRecoverChecksTheLock() throws {
        let first = try FormHarness(profile: Self.profile)
        first.openFormOnInspectorName()
        first.type(" Jr")
        first.advance(0.6)

        let second = try FormHarness(sharingHomeOf: first)
        second.press(.char("D"))
        second.press(.enter)
        #expect(second.form == nil)
        #expect(second.shows("SL-0042 is open in another session"))
    }
}
