import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookUI
@testable import RigbookApp
import RigbookStore
import RigbookCore

/// The worklist keeps its place after a save, Ctrl-N saves and opens the next asset, and
/// the list follows what other terminals commit.
@Suite("The worklist")
struct WorklistTests {
    static let profile = Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1")

    /// Five overdue slings (commissioned long ago, never examined), in tag order.
    static let overdue = (1...5).map { makeAsset(tag: "WS-000\($0)", name: "Web sling \($0)", location: "Quay 1",
                                                  commissioned: "2024-01-01", intervalMonths: 6) }
    static let elsewhere = makeAsset(tag: "WS-0009", name: "Web sling 9", location: "Bay C", commissioned: "2024-01-01",
                                     intervalMonths: 6)

    private func harness() throws -> Harness {
        try Harness(.assets(WorklistTests.overdue + [WorklistTests.elsewhere]), profile: WorklistTests.profile)
    }

    private func selectedTag(_ h: Harness) -> String? { h.state.list.selectedRow?.asset.tag }

    @Test("after a clean pass the selection is on the next overdue asset, at the same place of a filtered list")
    func keepsItsPlace() throws {
        let h = try harness()
        h.press(.char("/"))
        h.type("quay")
        h.press(.enter, .down)
        #expect(selectedTag(h) == "WS-0002")
        for expected in ["WS-0003", "WS-0004"] {
            h.press(.char("i"), .function(2), .ctrl("s"), .char("y"))
            #expect(h.state.form == nil)
            #expect(selectedTag(h) == expected, "\(h.dump)")
            #expect(h.state.list.selection == 1, "the same position of the filtered list")
            #expect(h.state.list.query == "quay", "the filter is kept")
        }
        // The saved ones are OK now, last in attention order.
        h.press(.end)
        #expect(selectedTag(h) == "WS-0003", "\(h.dump)")
    }

    @Test("Ctrl-N saves and opens the next asset of the list; after the last it says so")
    func saveAndNext() throws {
        let h = try harness()
        h.press(.char("/"))
        h.type("quay")
        h.press(.enter)
        h.press(.char("i"), .function(2), .ctrl("n"), .char("y"))
        #expect(h.state.form?.row.asset.tag == "WS-0002", "\(h.dump)")
        #expect(h.screen[23].contains("Saved inspection for WS-0001 · status now OK · next: WS-0002"),
                "\(h.screen[23])")
        for tag in ["WS-0002", "WS-0003", "WS-0004"] {
            #expect(h.state.form?.row.asset.tag == tag)
            h.press(.function(2), .ctrl("n"), .char("y"))
        }
        #expect(h.state.form?.row.asset.tag == "WS-0005")
        h.press(.function(2), .ctrl("n"), .char("y"))
        // WS-0005 was the last to do: what follows it was examined today already.
        #expect(try h.register.recordCount() == 5)
        #expect(h.state.form == nil, "\(h.dump)")
        #expect(h.screen[23].contains("nothing after it left to do"), "\(h.screen[23])")
    }

    @Test("Ctrl-N on the only asset of the list saves and says there is no next")
    func saveAndNextAtTheEnd() throws {
        let h = try harness()
        h.press(.char("/"))
        h.type("ws-0009")
        h.press(.enter)
        h.press(.char("i"), .function(2), .ctrl("n"), .char("y"))
        #expect(h.state.form == nil)
        #expect(h.screen[23].contains("nothing after it left to do"), "\(h.screen[23])")
        #expect(try h.register.recordCount() == 1)
    }

    @Test("an asset added and a record saved by another process show within a second; selection and filter kept")
    func seesOtherTerminals() throws {
        let h = try harness()
        h.press(.char("/"))
        h.type("sling")
        h.press(.enter, .down, .down)
        #expect(selectedTag(h) == "WS-0003")
        // Another process: its own connection to the same register.
        let other = try Register.open(path: h.home.registerPath)
        try other.addAsset(makeAsset(tag: "WS-0000", name: "Web sling 0", location: "Quay 1",
                                     commissioned: "2024-01-01", intervalMonths: 6))
        #expect(h.line(containing: "WS-0000") == nil, "not before the loop's tick")
        h.advance(1)
        #expect(h.line(containing: "WS-0000") != nil, "\(h.dump)")
        #expect(h.screen[0].contains("7 assets"))
        #expect(selectedTag(h) == "WS-0003", "the selection stays on its asset")
        #expect(h.state.list.query == "sling")

        // A record saved elsewhere moves the asset to OK here too.
        let asset = try #require(try other.asset(tag: "WS-0001"))
        _ = try FormHarness.insertRecord(FormHarness.passValues(), into: other, asset: asset.asset)
        h.advance(1)
        let row = try #require(h.line(containing: "WS-0001"))
        #expect(row.text.contains(" OK "), "\(h.dump)")
        #expect(selectedTag(h) == "WS-0003")
    }

    /// The runtime's loop: a key goes to `update` without looking at the register first;
    /// the look comes once its frame is shown (`lookAround`), which says whether there is something new to draw.
    @Test("in the terminal loop the register is looked at after a key's frame, not before the key")
    func looksAroundAfterTheFrame() throws {
        let h = try harness()
        let other = try Register.open(path: h.home.registerPath)
        try other.addAsset(makeAsset(tag: "WS-0000", name: "Web sling 0", location: "Quay 1",
                                     commissioned: "2024-01-01", intervalMonths: 6))
        h.clock.milliseconds += 1000
        // What each frame the key brings shows, as it is drawn.
        var shown: [Bool] = []
        h.terminal.onDraw = { _ in shown.append(h.session.frame().lines.contains { $0.contains("WS-0000") }) }
        h.press(.down)
        #expect(shown == [false, true], "the key's frame, then the register's, looked at after it: \(shown)")
        #expect(h.line(containing: "WS-0000") != nil, "\(h.dump)")
        #expect(!h.session.lookAround(), "a second look within the second found something")
        h.clock.milliseconds += 1000
        #expect(!h.session.lookAround(), "nothing changed, yet the look says so")
    }

    @Test("its own saves do not reload the register; without changes a tick reads nothing")
    func ownSavesAreNotOthers() throws {
        let h = try harness()
        h.press(.char("i"), .function(2), .ctrl("s"), .char("y"))
        let before = h.state.list.rows
        h.advance(1)
        #expect(h.state.list.rows == before)
    }

    @Test("Ctrl-L repaints the whole screen and reads drafts and the register again")
    func controlL() throws {
        let h = try harness()
        // A draft another terminal kept: only file names tell the list about drafts.
        let drafts = DraftStore(home: h.home)
        let asset = WorklistTests.overdue[0]
        let draft = DraftFile(draftID: DraftIdentity.draftID(assetUUID: asset.uuid),
                              sessionID: DraftIdentity.sessionID(assetUUID: asset.uuid),
                              assetUUID: asset.uuid.uuidString.lowercased(), assetTag: asset.tag, amends: nil,
                              values: FormHarness.passValues(), createdAt: Timestamp.now(), updatedAt: Timestamp.now(),
                              operatorName: "other", revision: 1)
        try drafts.write(draft)
        #expect(!h.screen[0].contains("1 draft"))
        _ = h.terminal.takeDrawn()
        h.press(.ctrl("l"))
        #expect(h.screen[0].contains("✎ 1 draft"), "\(h.dump)")
        let drawn = h.terminal.takeDrawn()
        let rows = Set(drawn.flatMap(\.runs).map(\.y))
        #expect(drawn.count == 1 && rows.count >= h.height - 1, "a full repaint, not a diff: rows \(rows.sorted())")
    }
}
