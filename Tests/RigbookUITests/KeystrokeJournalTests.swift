import Foundation
import Testing
import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// Every edit reaches the keystroke journal at once, so a session that dies without flushing (kill -9)
/// loses nothing it had read, though the debounced draft file is behind.
@Suite("Keystroke journal", .serialized)
struct KeystrokeJournalTests {
    @Test func aSessionKilledMidTypingLosesNoCharacter() throws {
        let h = try FormHarness()
        h.harness.openFormOnInspectorName()
        h.type("Ann Smith")
        h.harness.advance(0.6)  // the debounced draft write: revision 1 holds the name
        let id = DraftIdentity.draftID(assetUUID: h.asset.uuid)
        let file = try Data(contentsOf: URL(fileURLWithPath: DraftStore(home: h.home).path(for: id)))
        let written = try JSONDecoder().decode(DraftFile.self, from: file)
        #expect(written.values.inspectorName == "Ann Smith")
        h.type(" Jr")  // no time passes: the draft file is now behind what was typed
        // The session dies without a word: nothing flushed, its lock gone with it.
        h.session.releaseLock(id)
        let later = try FormHarness(sharingHomeOf: h)
        later.press(.char("i"))
        #expect(later.harness.screen.contains { $0.contains("Recover") }, "\(later.harness.dump)")
        later.press(.char("r"))
        #expect(later.harness.state.form?.values.inspectorName == "Ann Smith Jr", "\(later.harness.dump)")
    }

    @Test func aJournalIsEmptiedByEachDraftWriteAndGoesWithTheDraft() throws {
        let h = try FormHarness()
        h.harness.openFormOnInspectorName()
        h.type("Ann")
        let id = DraftIdentity.draftID(assetUUID: h.asset.uuid)
        let journal = DraftStore(home: h.home).journalPath(for: id)
        #expect(!KeystrokeJournalTests.content(journal).isEmpty)
        h.harness.advance(0.6)
        #expect(KeystrokeJournalTests.content(journal).isEmpty)
        h.type("x")
        h.press(.escape, .char("d"))  // discard
        #expect(!FileManager.default.fileExists(atPath: journal))
    }

    /// A journal's content: its bytes before the first zero (the rest of the mapped file), as lines.
    static func content(_ path: String) -> [String] {
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        return String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The terminal loop stores a turn's journal line just before what the turn shows (`journalLinesWait`): the
    /// lines wait for `writeJournals`, the last per draft, and hold what writing each at once would have held.
    @Test func journalLinesThatWaitForTheScreenHoldWhatWritingThemAtOnceHeld() throws {
        func lastLine(_ h: FormHarness) throws -> DraftFile? {
            try DraftStore(home: h.home).read(id: DraftIdentity.draftID(assetUUID: h.asset.uuid))
        }
        let atOnce = try FormHarness()
        atOnce.harness.openFormOnInspectorName()
        atOnce.type("Ann Smith")
        let after = try FormHarness()
        after.harness.openFormOnInspectorName()
        after.session.journalLinesWait = true
        after.type("Ann")
        after.session.writeJournals()
        #expect(try lastLine(after)?.values.inspectorName == "Ann")
        // Keys of one turn: nothing reaches the journal before `writeJournals`, then their last state does.
        after.harness.burst(Key.typing(" Smith"))
        #expect(try lastLine(after)?.values.inspectorName == "Ann")
        after.session.writeJournals()
        let written = try #require(try lastLine(after)), expected = try #require(try lastLine(atOnce))
        #expect(written.values == expected.values && written.focusedField == expected.focusedField)
        // A draft write that falls due in a later turn comes after the waiting line: the journal is emptied.
        after.type("x")
        after.harness.advance(0.6)
        let id = DraftIdentity.draftID(assetUUID: after.asset.uuid)
        #expect(KeystrokeJournalTests.content(DraftStore(home: after.home).journalPath(for: id)).isEmpty)
        // Killed after the line and what it shows: nothing typed is lost.
        after.type(" Jr")
        after.session.writeJournals()
        after.session.releaseLock(id)
        let later = try FormHarness(sharingHomeOf: after)
        later.press(.char("i"))
        later.press(.char("r"))
        #expect(later.harness.state.form?.values.inspectorName == "Ann Smithx Jr", "\(later.harness.dump)")
    }

    /// A key typed into a text field is journaled as that field's edit (`DraftJournalEdit`), not the whole draft;
    /// anything else (a tick, a choice) as the whole draft. Replayed, the edits give what was on the screen.
    @Test func typedKeysAreEditLinesAndReplayToTheForm() throws {
        let h = try FormHarness()
        h.harness.openFormOnInspectorName()
        h.type("Ann")
        h.harness.advance(0.6)  // the draft file holds "Ann"; the journal starts again from it
        let id = DraftIdentity.draftID(assetUUID: h.asset.uuid)
        let journal = DraftStore(home: h.home).journalPath(for: id)
        h.type(" Smith")
        var lines = KeystrokeJournalTests.content(journal)
        #expect(lines.count == 6 && lines.allSatisfy { $0.contains(#""edit":"inspector_name""#) }, "\(lines)")
        #expect(lines.last?.contains(#""text":"Ann Smith""#) == true)
        // To the notes: its typed keys are the notes' edits, and the focus goes with them.
        while h.harness.state.form?.focus != .notes { h.press(.tab) }
        h.type("Sling \"ok\"\\")
        lines = KeystrokeJournalTests.content(journal)
        #expect(lines.last?.contains(#""edit":"notes""#) == true, "\(lines)")
        // A check box ticked: a whole line (no field's text changed alone).
        while h.harness.state.form?.focus != .checkCuts { h.press(.backTab) }
        h.press(.char(" "))
        lines = KeystrokeJournalTests.content(journal)
        #expect(lines.last?.contains(#""edit":"#) == false, "\(lines)")
        while h.harness.state.form?.focus != .notes { h.press(.tab) }
        h.type("!")
        let shown = try #require(h.harness.state.form)
        h.session.releaseLock(id)
        let replayed = try #require(try DraftStore(home: h.home).read(id: id))
        #expect(replayed.values.inspectorName == "Ann Smith")
        #expect(replayed.values.notes == "Sling \"ok\"\\!" && replayed.values.notes == shown.values.notes)
        #expect(replayed.values.checkCuts == shown.values.checkCuts)
        #expect(replayed.focusedField == "notes")
    }
}
