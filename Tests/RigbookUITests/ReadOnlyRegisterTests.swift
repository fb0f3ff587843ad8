import Foundation
import Testing
@testable import RigbookUI
@testable import RigbookApp
import RigbookStore
import RigbookCore

/// The full-screen program on a register it can only read (a file or folder this user may not write; here the
/// program's own read-only open, since tests may run as root, whom permissions do not stop): it says so from the
/// start and for the whole session, the forms still work and keep their drafts, and a save says in full why it
/// cannot be made. Before, nothing said so (a read-only file opens "to write" in SQLite without a word) and the
/// save's reason was cut at 80 columns.
@Suite("A register that can only be read", .serialized) struct ReadOnlyRegisterTests {
    @Test func itSaysSoFromTheStartAndASaveSaysWhyInFull() throws {
        let writer = try FormHarness(profile: FormTests.profile)
        let h = try FormHarness(sharingHomeOf: writer, readOnly: true)
        #expect(h.screen[0].contains("READ ONLY"), "\(h.screenText)")
        #expect(h.screen.last?.contains("Read only: it was opened only to read; nothing can be saved.") == true,
                "\(h.screenText)")

        h.press(.char("i"))
        h.fillCompletePass()
        h.focus(.notes)
        h.type("typed on a read-only register")
        h.press(.ctrl("s"))
        let form = try #require(h.form, "the form closed although nothing was saved")
        let reason = try #require(form.saveError)
        #expect(reason.hasPrefix(h.home.registerPath + " can only be read (it was opened only to read), so nothing"),
                "\(reason)")
        #expect(reason.hasSuffix("once the register can be written, recover the draft (D) and save it."), "\(reason)")
        // Whole on screen, wrapped at word boundaries over the bottom rows.
        #expect(h.flatScreen.contains("Not saved: " + reason), "\(h.screenText)")
        let rows = FormFooter.saveFailureRows(reason, width: FormHarness.width)
        #expect(rows.count > 2, "the reason is longer than the two rows it had")
        #expect(Array(h.screen.suffix(rows.count)) == rows.map { $0.padding(toLength: FormHarness.width,
                                                                             withPad: " ", startingAt: 0) },
                "\(h.screenText)")
        #expect(try writer.register.recordCount() == 0)
        // The form is still usable, its draft kept, and the header still says why.
        h.type(" and more")
        h.advance(0.6)
        #expect(try h.readDraft()?.values.notes == "typed on a read-only register and more")
        h.press(.escape, .char("c"))
        #expect(h.screen[0].contains("READ ONLY"), "\(h.screenText)")
    }
}
