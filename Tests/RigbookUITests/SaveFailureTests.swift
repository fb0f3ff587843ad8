import Foundation
import RigbookCore
import RigbookStore
@testable import RigbookUI
import Testing

/// A commit that fails leaves the form open with everything typed, and says why.
@Suite(.serialized) struct SaveFailureTests {
    @Test func aRegisterLockedTooLongKeepsTheFormAndSaysWhy() throws {
        let h = try FormHarness(profile: Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1"))
        h.press(.char("i"))
        h.fillCompletePass()
        h.focus(.notes)
        h.type("Kept through a failed save")
        let typed = try #require(h.form?.values)

        // Another program holds the register's write lock for longer than the 5 s busy timeout.
        let blocker = try Database(path: h.home.registerPath, busyTimeoutMilliseconds: 100)
        try blocker.execute("BEGIN EXCLUSIVE")
        h.press(.ctrl("s"))
        let form = try #require(h.form, "the form closed although nothing was saved")
        #expect(form.values == typed, "everything typed is still in the form")
        #expect(form.saveError?.contains("locked") == true, "\(String(describing: form.saveError))")
        #expect(h.shows("Not saved:"), "\(h.screenText)")
        #expect(try h.history().isEmpty)

        // The draft catches up with what is on screen: a failed save must not leave it behind.
        h.advance(0.6)
        #expect(try h.readDraft()?.values.notes == "Kept through a failed save")

        // Once the lock is gone, the same Ctrl-S saves, exactly once, and the draft goes.
        try blocker.execute("ROLLBACK")
        h.press(.ctrl("s"))
        #expect(h.form == nil)
        #expect(h.shows("Saved inspection for SL-0042"))
        #expect(try h.history().count == 1)
        #expect(!h.draftExists)
    }
}

/// A draft that cannot be written shows a lasting warning; the typing stays in the form and the
/// register is untouched.
@Suite struct DraftWriteFailureTests {
    @Test func aDraftFolderThatCannotBeWrittenWarnsAndKeepsTheTyping() throws {
        let h = try FormHarness(profile: Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1"))
        // A file where the Drafts folder should be: every draft write fails (root ignores permissions).
        try? FileManager.default.removeItem(atPath: h.home.draftsFolder)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: h.home.draftsFolder))
        let registerBefore = try Data(contentsOf: URL(fileURLWithPath: h.home.registerPath))
        h.press(.char("i"))
        h.focus(.notes)
        h.type("must not be lost")
        h.advance(0.6)
        let form = try #require(h.form)
        #expect(form.draftWarning != nil)
        #expect(form.values.notes == "must not be lost")
        #expect(h.shows("DRAFT NOT ON DISK"), "\(h.screenText)")
        #expect(h.shows("Draft not written"), "\(h.screenText)")
        h.press(.char("!"))
        h.advance(0.6)
        #expect(h.form?.draftWarning != nil, "the warning lasts while writes keep failing")
        #expect(try Data(contentsOf: URL(fileURLWithPath: h.home.registerPath)) == registerBefore,
                "the register is untouched")
        // Once the folder can be written again, the next write clears the warning.
        try FileManager.default.removeItem(atPath: h.home.draftsFolder)
        h.type("?")
        h.advance(0.6)
        #expect(h.form?.draftWarning == nil)
        #expect(try h.readDraft()?.values.notes == "must not be lost!?")
    }
}
