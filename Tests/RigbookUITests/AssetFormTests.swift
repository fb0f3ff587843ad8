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
        #expect(h.line(containing: "“heavy” is not a number: write digits") != nil, "\(h.dump)")
        #expect(h.line(containing: "The tag must not be empty.") != nil)
        #expect(try h.register.assetCount() == 1)
        // The focus went to the first field to fix, the tag. A duplicate tag is refused by the register and said so;
        // the form stays.
        #expect(h.line(containing: "▸ Tag") != nil, "\(h.dump)")
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
        guard case .failure(let problems) = draft.validated(today: harnessToday) else {
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
        let asset = try draft.validated(today: harnessToday).get()
        #expect(asset.tag == "CB-1")
        #expect(asset.intervalMonths == 12)
        draft.liftsPersons = true
        #expect(try draft.validated(today: harnessToday).get().intervalMonths == 6)
    }

    /// Opens the add-asset screen and types a tag, a name and a WLL, leaving the focus on the WLL.
    static func typeNewAsset(_ h: Harness, tag: String, name: String, wll: String) {
        h.press(.char("a"))
        h.type(tag)
        h.press(.tab)
        h.type(name)
        h.press(.tab, .tab)
        h.type(wll)
    }

    /// Asset dates take `today` and dates counted back, written out as the field is left.
    @Test func datesTypedTheQuickWayAreWrittenOutAsTheFieldIsLeft() throws {
        let h = try Harness(.empty)
        AssetFormTests.typeNewAsset(h, tag: "SL-0043", name: "2 t web sling", wll: "2000")
        for _ in 0..<5 { h.press(.tab) }             // length, location, manufacturer, serial, made
        h.type("-2y")
        h.press(.tab)
        #expect(h.line(containing: "2024-11-30") != nil, "the date made is written out:\n\(h.dump)")
        h.type("today")
        h.press(.ctrl("s"))                           // saved without leaving the field: read the same way
        #expect(h.line(containing: "Added SL-0043 to the register.") != nil, "\(h.dump)")
        let row = try #require(try h.register.asset(tag: "SL-0043"))
        #expect(row.asset.manufactured == CalendarDate(iso: "2024-11-30"))
        #expect(row.asset.commissioned == CalendarDate(iso: "2026-11-30"))
    }

    @Test func aQuickDateThatMeansNothingIsLeftAsTypedAndExplained() throws {
        let h = try Harness(.empty)
        AssetFormTests.typeNewAsset(h, tag: "SL-0044", name: "2 t web sling", wll: "2000")
        for _ in 0..<6 { h.press(.tab) }
        h.type("-6wm")
        h.press(.tab)
        #expect(h.line(containing: "-6wm") != nil, "\(h.dump)")
        h.press(.ctrl("s"))
        #expect(h.screen.joined().contains("counted back"), "\(h.dump)")
        #expect(try h.register.assetCount() == 0)
    }

    /// The screen refuses what `asset add` refuses, under the field to fix.
    @Test func aCommissionDateAfterTodayIsRefusedUnderItsField() throws {
        let h = try Harness(.empty)
        AssetFormTests.typeNewAsset(h, tag: "SL-0042", name: "2 t web sling", wll: "2000")
        for _ in 0..<6 { h.press(.tab) }             // length, location, manufacturer, serial, made, commissioned
        h.type("2026-12-01")                          // the day after the harness's today
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Not added: 1 problem") != nil, "\(h.dump)")
        let problem = try #require(h.line(containing: "⚠"), "\(h.dump)")
        #expect(problem.text.contains("The commission date (first use) 2026-12-01 is in the"), "\(h.dump)")
        #expect(h.screen[problem.y + 1].contains("future (today is 2026-11-30)."), "wrapped, not cut: \(h.dump)")
        let commissioned = try #require(h.line(containing: "Commissioned"))
        #expect(problem.y == commissioned.y + 1, "the problem sits under the commission date")
        #expect(h.line(containing: "▸ Commissioned") != nil, "the focus goes to the field to fix")
        #expect(try h.register.assetCount() == 0)
        // Today is fine.
        h.press(.ctrl("u"))
        h.type("2026-11-30")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Added SL-0042 to the register.") != nil, "\(h.dump)")
    }

    @Test func aTagThatLooksLikeOneHeldIsRefusedNamingIt() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0002", name: "Sling")]))
        AssetFormTests.typeNewAsset(h, tag: "\u{FF33}\u{FF2C}-0002", name: "Sling", wll: "500")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "looks like SL-0002, already in the register") != nil, "\(h.dump)")
        #expect(h.line(containing: "New asset") != nil, "the form stays open")
        #expect(try h.register.assetCount() == 1)
    }

    @Test func aTagWithARightToLeftOverrideIsRefusedAndNamed() throws {
        let h = try Harness(.assets([makeAsset(tag: "EV-1100", name: "Eyebolt")]))
        AssetFormTests.typeNewAsset(h, tag: "EV-\u{202E}0011", name: "Eyebolt", wll: "500")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "U+202E RIGHT-TO-LEFT OVERRIDE") != nil, "\(h.dump)")
        #expect(h.line(containing: "▸ Tag") != nil)
        #expect(try h.register.assetCount() == 1)
    }
}
