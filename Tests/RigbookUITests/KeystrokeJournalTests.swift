import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
@testable import RigbookStore
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

    /// A key that comes when the draft write is already due: its update writes the draft as it was before the key,
    /// then journals the key on top. The key's line extends the file just written, so a kill then loses nothing
    /// (it named the file before, and recovery took it for an older file's line and dropped the key).
    @Test func aKeyThatComesWithADueDraftWriteIsJournaledOnTheFileJustWritten() throws {
        let h = try FormHarness()
        h.harness.openFormOnInspectorName()
        h.type("Ann")
        let id = DraftIdentity.draftID(assetUUID: h.asset.uuid)
        h.clock.milliseconds += 600  // the debounce falls due with the next key, no tick between
        h.type("x")
        #expect(try DraftStore(home: h.home).readFileOnly(id: id)?.values.inspectorName == "Ann",
                "the write ran before the key")
        h.session.releaseLock(id)
        let later = try FormHarness(sharingHomeOf: h)
        later.press(.char("i"))
        later.press(.char("r"))
        #expect(later.harness.state.form?.values.inspectorName == "Annx", "\(later.harness.dump)")
    }

    /// The runtime stores a turn's journal line before the frame that shows its keys: at every draw the journal
    /// already holds what the form shows. Keys read in one turn (a burst) are one frame that shows all of them.
    @Test func theJournalLineIsStoredBeforeTheFrameThatShowsTheKey() throws {
        let h = try FormHarness()
        h.harness.openFormOnInspectorName()
        let id = DraftIdentity.draftID(assetUUID: h.asset.uuid)
        var draws = 0, behind: [String] = []
        h.harness.terminal.onDraw = { _ in
            guard let form = h.session.state.form, form.hasUnsavedInput else { return }
            draws += 1
            let journaled = (try? DraftStore(home: h.home).read(id: id))?.values.inspectorName
            if journaled != form.values.inspectorName {
                behind.append("shown \(form.values.inspectorName), journaled \(journaled ?? "nothing")")
            }
        }
        h.type("Ann")
        let frames = h.harness.runtime.framesDrawn
        h.harness.burst(Key.typing(" Smith"))
        #expect(h.harness.runtime.framesDrawn == frames + 1, "a burst of keys is one frame")
        #expect(h.harness.line(containing: "Ann Smith") != nil, "\(h.harness.dump)")
        #expect(draws >= 4 && behind.isEmpty, "\(behind)")
        // A draft write that falls due in a later turn comes after the line: the journal is emptied.
        h.type("x")
        h.harness.advance(0.6)
        #expect(KeystrokeJournalTests.content(DraftStore(home: h.home).journalPath(for: id)).isEmpty)
        // Killed once the frame is shown: nothing typed is lost.
        h.type(" Jr")
        h.session.releaseLock(id)
        let later = try FormHarness(sharingHomeOf: h)
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
