import Foundation
import Testing
import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// Issue 17: every edit reaches the keystroke journal at once, so a session that dies without flushing (kill -9)
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
        #expect(((try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0) > 0)
        h.harness.advance(0.6)
        #expect((try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) == 0)
        h.type("x")
        h.press(.escape, .char("d"))  // discard
        #expect(!FileManager.default.fileExists(atPath: journal))
    }

    /// The terminal loop writes a key's frame first and its journal line right after (`journalsAfterFrame`): the
    /// lines wait for `writeJournals`, the last per draft, and hold what writing each at once would have held.
    @Test func journalLinesWrittenAfterTheFrameHoldWhatWritingThemAtOnceHeld() throws {
        func lastLine(_ h: FormHarness) throws -> DraftFile? {
            let id = DraftIdentity.draftID(assetUUID: h.asset.uuid)
            let text = try String(contentsOfFile: DraftStore(home: h.home).journalPath(for: id), encoding: .utf8)
            guard let line = text.split(separator: "\n").last else { return nil }
            return try JSONDecoder().decode(DraftFile.self, from: Data(line.utf8))
        }
        let atOnce = try FormHarness()
        atOnce.harness.openFormOnInspectorName()
        atOnce.type("Ann Smith")
        let after = try FormHarness()
        after.harness.openFormOnInspectorName()
        after.session.journalsAfterFrame = true
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
        let journal = DraftStore(home: after.home).journalPath(for: id)
        #expect((try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) == 0)
        // Killed after the frame and its line: nothing typed is lost.
        after.type(" Jr")
        after.session.writeJournals()
        after.session.releaseLock(id)
        let later = try FormHarness(sharingHomeOf: after)
        later.press(.char("i"))
        later.press(.char("r"))
        #expect(later.harness.state.form?.values.inspectorName == "Ann Smithx Jr", "\(later.harness.dump)")
    }
}
