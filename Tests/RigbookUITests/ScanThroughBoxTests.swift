import Foundation
import Testing
@testable import RigbookUI
@testable import RigbookApp
import RigbookStore
import RigbookCore

/// A label scanned while a box that any key closes is on screen: the scanner's `/` closes the box and must
/// open what it opens with no box there (the filter, the scan prompt), so no character of the scan reaches a
/// list key (`I` batch, `R` retired, `S` sample, `G` last, `D` drafts, Enter…).
@Suite("Scanning through a box", .serialized) struct ScanThroughBoxTests {
    static let payload = "/RB1:AIQSGDR:20270301"

    static func harness() throws -> Harness {
        try Harness(.assets([makeAsset(tag: "AIQSGDR", name: "2 t web sling"), makeAsset(tag: "SL-0001", name: "Sling"),
                             makeAsset(tag: "SL-0002", name: "Sling"), TestFormTests.drill(tag: "TT-0003")]),
                    profile: Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA 12345"))
    }

    static func select(_ tag: String, in h: Harness, sourceLocation: SourceLocation = #_sourceLocation) {
        h.press(.char("g"))
        for _ in h.state.list.rows.indices where h.state.list.selectedRow?.asset.tag != tag { h.press(.down) }
        #expect(h.state.list.selectedRow?.asset.tag == tag, sourceLocation: sourceLocation)
    }

    /// Terminal 2 holds TT-0003's test form; terminal 1 marks two assets and asks for TT-0003: a box says it is
    /// open elsewhere.
    static func boxOverTheList() throws -> (Harness, Harness) {
        let h = try harness()
        let other = try Harness(sharingHomeOf: h)
        select("TT-0003", in: other)
        other.press(.char("i"))
        #expect(other.state.screens.last is TestFormState, "\(other.dump)")
        h.press(.char("g"))
        h.press(.char("m"), .char("m"))
        select("TT-0003", in: h)
        h.press(.char("i"))
        #expect(h.state.screens.last is MessageScreen, "\(h.dump)")
        return (h, other)
    }

    func expectJumpedOnly(_ h: Harness, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(h.state.screens.isEmpty, "a key of the scan opened a screen:\n\(h.dump)",
                sourceLocation: sourceLocation)
        #expect(h.state.list.selectedRow?.asset.tag == "AIQSGDR", "\(h.dump)", sourceLocation: sourceLocation)
        #expect(h.state.list.marks.count == 2 && !h.state.list.showRetired && h.state.list.rows.count == 4,
                sourceLocation: sourceLocation)
        #expect(h.state.list.query.isEmpty && !h.state.list.editingFilter, sourceLocation: sourceLocation)
    }

    @Test("typed key by key, the scan goes into the filter its / opens, and Enter jumps to the asset")
    func scanKeyByKey() throws {
        let (h, _) = try ScanThroughBoxTests.boxOverTheList()
        h.type(ScanThroughBoxTests.payload)
        #expect(h.state.list.editingFilter && h.state.list.query.hasSuffix("RB1:AIQSGDR:20270301"), "\(h.dump)")
        h.press(.enter)
        expectJumpedOnly(h)
    }

    @Test("a scan arriving in one burst is taken the same way")
    func scanInOneBurst() throws {
        let (h, _) = try ScanThroughBoxTests.boxOverTheList()
        h.burst(Key.typing(ScanThroughBoxTests.payload) + [.enter])
        expectJumpedOnly(h)
    }

    @Test("# closes the box and opens the scan prompt (marking, as two are marked)")
    func hashOpensThePrompt() throws {
        let (h, _) = try ScanThroughBoxTests.boxOverTheList()
        h.press(.char("#"))
        #expect(h.state.screens.isEmpty && h.state.list.scan?.marking == true, "\(h.dump)")
    }

    @Test("any other key still just closes the box")
    func otherKeysClose() throws {
        let (h, _) = try ScanThroughBoxTests.boxOverTheList()
        h.press(.char("x"))
        #expect(h.state.screens.isEmpty && !h.state.list.editingFilter && h.state.list.scan == nil)
    }

    @Test("on the Drafts screen, a scan (also while its discard question shows) goes to the scanned asset")
    func scanOnDrafts() throws {
        let h = try ScanThroughBoxTests.harness()
        ScanThroughBoxTests.select("SL-0001", in: h)
        h.openFormOnInspectorName()
        h.type(" Jr")
        h.press(.escape)
        h.press(.char("c"))
        #expect(h.state.screens.isEmpty, "\(h.dump)")
        h.press(.char("D"))
        #expect(h.state.screens.last is DraftsState)
        h.press(.char("x"))
        #expect((h.state.screens.last as? DraftsState)?.confirmingDiscard == true, "\(h.dump)")
        h.type(ScanThroughBoxTests.payload)
        #expect(h.state.screens.last is ScanScreen, "\(h.dump)")
        h.press(.enter)
        let history = try #require(h.state.screens.last as? HistoryState, "\(h.dump)")
        #expect(history.row.asset.tag == "AIQSGDR" && h.state.screens.count == 1)
        #expect(h.state.list.marks.isEmpty && !h.state.list.showRetired)
    }
}
