import Foundation
import RigbookCore
import RigbookStore
import RigbookUI
import Testing

/// `a` in the list: a new asset through the 12 fields, with the same checks as `asset add`.
@Suite struct AssetFormTests {
    @Test func addsAnAssetTypedByKeys() throws {
        let h = try Harness(.empty)
        h.press(.char("a"))
        #expect(h.line(containing: "New asset") != nil)
        h.type("SL-0042")
        h.press(.tab)
        h.type("2 t web sling 3 m 王")
        h.press(.tab, .right, .right)                 // type: web sling → round sling → chain sling
        h.press(.tab)
        h.type("2000")
        h.press(.tab)
        h.type("3")
        h.press(.tab)
        h.type("Quay 1")
        for _ in 0..<4 { h.press(.tab) }             // manufacturer, serial, made, commissioned
        h.type("2026-01-10")
        h.press(.tab, .tab, .char(" "))             // interval left to its default; lifts persons: yes
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Added SL-0042 to the register.") != nil, "\(h.screen.joined(separator: "\n"))")
        let row = try #require(try h.register.asset(tag: "SL-0042"))
        #expect(row.asset.name == "2 t web sling 3 m 王")
        #expect(row.asset.type == .chainSling)
        #expect(row.asset.wllKg == 2000)
        #expect(row.asset.lengthM == 3)
        #expect(row.asset.location == "Quay 1")
        #expect(row.asset.commissioned == CalendarDate(iso: "2026-01-10"))
        #expect(row.asset.liftsPersons)
        #expect(row.asset.intervalMonths == 6, "default for an accessory lifting persons")
        #expect(h.line(containing: "SL-0042") != nil, "the list shows the new asset")
    }

    @Test func problemsAreListedUnderTheirFieldsAndNothingIsAdded() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0001", name: "existing")]))
        h.press(.char("a"))
        h.press(.tab, .tab, .tab)
        h.type("heavy")                               // WLL that is not a number
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Not added: ") != nil)
        #expect(h.line(containing: "must be a number greater than 0") != nil)
        #expect(h.line(containing: "The tag must not be empty.") != nil)
        #expect(try h.register.assetCount() == 1)
        // A duplicate tag is refused by the register and said so; the form stays.
        h.press(.backTab, .backTab, .backTab)
        h.type("sl-0001")
        h.press(.tab)
        h.type("x")
        h.press(.tab, .tab)
        for _ in 0..<5 { h.press(.backspace) }
        h.type("500")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "already in the register") != nil, "\(h.screen.joined(separator: "\n"))")
        #expect(try h.register.assetCount() == 1)
        #expect(h.line(containing: "New asset") != nil, "the form stays open")
    }

    @Test func escAsksBeforeDroppingWhatWasTyped() throws {
        let h = try Harness(.empty)
        h.press(.char("a"), .escape)
        #expect(h.line(containing: "New asset") == nil, "nothing typed: closes at once")
        h.press(.char("a"))
        h.type("SL-1")
        h.press(.escape)
        #expect(h.line(containing: "Cancel this new asset?") != nil)
        h.press(.char("x"))
        #expect(h.line(containing: "SL-1") != nil, "any other key keeps editing")
        h.press(.escape, .char("d"))
        #expect(h.line(containing: "New asset") == nil)
        #expect(try h.register.assetCount() == 0)
    }

    @Test(arguments: [
        ("", "2000", "", "tag"), ("T", "0", "", "greater than 0"), ("T", "2000", "61", "1 to 60"),
        ("T", "2000", "x", "1 to 60"),
    ])
    func draftValidation(tag: String, wll: String, interval: String, expected: String) {
        var draft = AssetDraft()
        draft.tag = tag
        draft.name = "name"
        draft.wllKg = wll
        draft.intervalMonths = interval
        guard case .failure(let problems) = draft.validated() else {
            Issue.record("expected a problem mentioning \(expected)")
            return
        }
        #expect(problems.items.contains { $0.1.contains(expected) })
    }

    @Test func draftBecomesAnAssetWithTheDefaultInterval() throws {
        var draft = AssetDraft()
        draft.tag = " CB-1 "
        draft.name = "1 t chain block"
        draft.type = .chainBlock
        draft.wllKg = "1000"
        let asset = try draft.validated().get()
        #expect(asset.tag == "CB-1")
        #expect(asset.intervalMonths == 12)
        draft.liftsPersons = true
        #expect(try draft.validated().get().intervalMonths == 6)
    }
}
