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
}
