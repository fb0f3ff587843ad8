import Testing
@testable import RigbookApp
@testable import RigbookUI
import RigbookCore

/// `/` filters as you type (SPEC §7), fuzzily over tag, name, type, site, location, serial and
/// manufacturer, ignoring case.
@Suite struct FilterTests {
    private func shownCount(_ h: Harness) -> Int? {
        guard let range = h.screen[0].range(of: "filter: ") else { return nil }
        return Int(h.screen[0][range.upperBound...].prefix { $0.isNumber })
    }

    @Test func typingQuayShowsOnlyMatchingRowsInAttentionOrder() throws {
        let h = try Harness(.sample(count: 200))
        let expected = try h.expectedRows(matching: "quay")
        #expect(expected.count > 20, "more than a page of quay assets in the sample")
        #expect(expected.count < 200)

        h.press(.char("/"))
        #expect(h.screen[23].hasPrefix("/"), "\(h.screen[23])")
        #expect(h.frame.cursor.map { [$0.x, $0.y] } == [1, 23])
        h.type("quay")
        #expect(h.screen[23].hasPrefix("/quay"))
        #expect(h.frame.cursor.map { [$0.x, $0.y] } == [5, 23])
        #expect(shownCount(h) == expected.count, "\(h.screen[0])")
        #expect(h.screen[0].contains("200 assets"), "the title still counts the register")
        #expect(!h.session.isFinished)

        h.press(.enter)
        #expect(h.frame.cursor == nil, "typing mode left")
        let walk = h.walkWholeList()
        #expect(walk.rows.map(\.tag) == expected.map(\.tag))
        #expect(walk.misaligned.isEmpty, "\(walk.misaligned)")
    }

    @Test func upperCaseQueryGivesTheSameRows() throws {
        let lower = try Harness(.sample(count: 200))
        lower.press(.char("/")); lower.type("quay"); lower.press(.enter)
        let upper = try Harness(.sample(count: 200))
        upper.press(.char("/")); upper.type("QUAY"); upper.press(.enter)
        #expect(shownCount(upper) == shownCount(lower))
        #expect(shownCount(upper) == (try upper.expectedRows(matching: "quay").count))
        #expect(upper.walkWholeList().rows.map(\.tag) == lower.walkWholeList().rows.map(\.tag))
    }

    @Test func filterMatchesNameTypeTagAndCJKLocation() throws {
        let h = try Harness(.sample(count: 200))
        for query in ["shackle", "chain b", "sh-01", "仓库", "12.5", "sling 3"] {
            h.press(.escape)
            h.press(.char("/"))
            h.type(query)
            h.press(.enter)
            let expected = try h.expectedRows(matching: query)
            #expect(shownCount(h) == expected.count, "\(query): \(h.screen[0])")
            // The same assets, best match first (FuzzyFilterTests checks the ranking).
            let shown = h.walkWholeList().rows.map(\.tag)
            #expect(Set(shown) == Set(expected.map(\.tag)), "\(query)\n\(h.dump)")
            if expected.isEmpty { #expect(h.shownRows.isEmpty) }
        }
    }

    @Test func backspaceWidensTheFilter() throws {
        let h = try Harness(.sample(count: 200))
        h.press(.char("/"))
        h.type("quay 1")
        let narrow = try h.expectedRows(matching: "quay 1").count
        #expect(shownCount(h) == narrow)
        h.press(.backspace)
        let wide = try h.expectedRows(matching: "quay ").count
        #expect(wide > narrow)
        #expect(shownCount(h) == wide, "\(h.screen[0])")
        #expect(h.screen[23].hasPrefix("/quay "))
        h.press(.backspace, .backspace, .backspace, .backspace)
        #expect(shownCount(h) == (try h.expectedRows(matching: "q").count))
        h.press(.backspace)
        #expect(shownCount(h) == nil, "an empty query shows everything: \(h.screen[0])")
        #expect(h.shownRows.count == 20)
        h.press(.backspace) // nothing left to delete
        #expect(h.screen[23].hasPrefix("/"))
    }

    @Test func escClearsTheFilterAndShowsAll() throws {
        let h = try Harness(.sample(count: 200))
        let all = try h.expectedRows()
        h.press(.char("/"))
        h.type("quay")
        h.press(.escape)
        #expect(shownCount(h) == nil, "\(h.screen[0])")
        #expect(!h.screen[23].hasPrefix("/"))
        #expect(h.frame.cursor == nil)
        #expect(h.screen[3].hasPrefix(all[0].tag + " "))
        #expect(h.walkWholeList().rows.count == 200)

        // Esc also clears a filter kept with Enter.
        h.press(.home, .char("/"))
        h.type("quay")
        h.press(.enter)
        #expect(shownCount(h) != nil)
        h.press(.escape)
        #expect(shownCount(h) == nil)
        #expect(h.screen[3].hasPrefix(all[0].tag + " "))
    }

    @Test func enterKeepsTheFilterAndLeavesTypingMode() throws {
        let h = try Harness(.sample(count: 200))
        let expected = try h.expectedRows(matching: "quay")
        h.press(.char("/"))
        h.type("quay")
        h.press(.enter)
        #expect(shownCount(h) == expected.count)
        #expect(h.screen[23].hasPrefix("/quay  "), "\(h.screen[23])")
        #expect(h.screen[23].contains("move"), "the key footer is back: \(h.screen[23])")
        #expect(h.frame.cursor == nil)

        // j now moves instead of typing.
        h.press(.char("j"))
        #expect(shownCount(h) == expected.count)
        #expect(h.reversedListRows == [4])
        #expect(h.screen[4].hasPrefix(expected[1].tag + " "))

        // q now quits rather than typing.
        let typing = try Harness(.sample(count: 20))
        typing.press(.char("/"))
        typing.type("q")
        #expect(!typing.session.isFinished, "q typed into the filter does not quit")
        typing.press(.enter, .char("q"))
        #expect(typing.session.isFinished)
    }

    @Test func aQueryMatchingNothingSaysSo() throws {
        let h = try Harness(.sample(count: 200))
        h.press(.char("/"))
        h.type("zzzz")
        #expect(shownCount(h) == 0)
        #expect(h.line(containing: "No asset matches") != nil, "\(h.dump)")
        #expect(h.screen[3].contains("“zzzz”"), "\(h.dump)")
        #expect(h.reversedListRows.isEmpty)
        h.press(.enter)
        h.press(.char("j"), .end, .pageUp, .enter)
        #expect(h.screen[23].contains("no asset selected"), "\(h.screen[23])")
        #expect(h.line(containing: "No asset matches") != nil)
    }
}
