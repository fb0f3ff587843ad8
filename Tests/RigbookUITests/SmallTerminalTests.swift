import Testing
@testable import RigbookUI
import RigbookCore

/// SPEC §9: works at 80×24 and degrades gracefully below; redraws on resize.
@Suite struct SmallTerminalTests {
    @Test func listRendersAt40x12() throws {
        let h = try Harness(.sample(count: 200), width: 40, height: 12)
        let f = h.frame
        #expect(f.width == 40 && f.height == 12)
        #expect(h.screen.count == 12)
        for (y, line) in h.screen.enumerated() { #expect(line.displayWidth == 40, "line \(y): \(line)") }
        #expect(h.screen[0].contains("200 assets"))
        let tag = f.column(of: "TAG", y: 2), name = f.column(of: "NAME", y: 2), status = f.column(of: "STATUS", y: 2)
        #expect(tag == 0)
        #expect(name != nil && status != nil)
        #expect((name ?? 0) < (status ?? 0))
        let expected = try h.expectedRows()
        let rows = h.shownRows
        #expect(rows.count == 8)
        #expect(rows.map(\.tag) == expected.prefix(8).map(\.tag))
        for row in rows {
            let label = try #require(row.status?.label)
            #expect(f.column(of: label, y: row.y) == status, "\(row.tag)")
        }
        // Names get the room the dropped columns left.
        #expect(h.screen[3].contains(String(expected[0].name.prefix(12))), "\(h.dump)")
    }

    @Test func selectionStaysVisibleMovingDown20RowsAt40x12() throws {
        let h = try Harness(.sample(count: 200), width: 40, height: 12)
        let tags = try h.expectedRows().map(\.tag)
        for step in 1...20 {
            h.press(.char("j"))
            let reversed = h.reversedListRows
            #expect(reversed.count == 1, "step \(step)\n\(h.dump)")
            if let y = reversed.first {
                #expect((3...10).contains(y))
                #expect(h.screen[y].hasPrefix(tags[step] + " "), "step \(step)\n\(h.dump)")
            }
        }
        #expect(h.reversedListRows == [10])
        #expect(h.screen[3].hasPrefix(tags[13] + " "))
    }

    /// At 40 columns not every count fits; the header must then say that something was left out.
    @Test func countsHeaderShowsEveryStatusOrSaysMoreAt40() throws {
        let h = try Harness(.sample(count: 200), width: 40, height: 12)
        let header = h.screen[1]
        let counted = Set(try h.expectedRows().map(\.status))
        let missing = counted.filter { !header.contains($0.label) }
        #expect(missing.isEmpty || header.contains("…"),
                "\(missing.map(\.label).sorted()) left out of “\(header)” without a mark")
        #expect(header.displayWidth == 40)
    }

    @Test(arguments: [(60, 20), (30, 8), (20, 6), (12, 5), (80, 5)])
    func smallerTerminalsStayInsideTheirWidth(width: Int, height: Int) throws {
        let h = try Harness(.sample(count: 200), width: width, height: height)
        func check(_ what: String) {
            #expect(h.screen.count == height, "\(what)")
            for (y, line) in h.screen.enumerated() { #expect(line.displayWidth == width, "\(what): line \(y)") }
            #expect(!h.frame.containsControlCharacter)
        }
        check("list")
        h.press(.char("j"), .end)
        check("end")
        if height > 4 { #expect(h.reversedListRows.count == 1, "\(h.dump)") }
        h.press(.char("/"))
        h.type("quay")
        check("filter")
        h.press(.enter, .char("?"))
        check("help")
    }

    /// The title gives up its right end to the date; when the date does not fit either, the title
    /// must still use the room rather than cut its own counts.
    @Test func titleKeepsItsCountsWhenTheDateDoesNotFit() throws {
        let narrow = try Harness(.sample(count: 200), width: 40, height: 12)
        narrow.press(.char("/"))
        narrow.type("quay")
        narrow.press(.enter)
        let shown = try narrow.expectedRows(matching: "quay").count
        #expect(narrow.screen[0].contains("\(shown) shown"), "filter count at 40 columns: “\(narrow.screen[0])”")

        let thirty = try Harness(.sample(count: 200), width: 30, height: 8)
        #expect(thirty.screen[0].contains("200 assets"), "“\(thirty.screen[0])”")

        let tiny = try Harness(.sample(count: 200), width: 12, height: 5)
        #expect(tiny.screen[0].contains("Rigbook"), "“\(tiny.screen[0])”")

        let wide = try Harness(.sample(count: 200), width: 80, height: 24)
        #expect(wide.screen[0].contains("200 assets") && wide.screen[0].contains("2026-11-30"))
    }

    @Test func welcomeAt40x12StillSaysHowToStart() throws {
        let h = try Harness(width: 40, height: 12)
        for line in h.screen { #expect(line.displayWidth == 40) }
        #expect(h.line(containing: "The register is empty") != nil, "\(h.dump)")
        #expect(h.line(containing: "Press S") != nil)
        #expect(h.line(containing: "rigbook asset add") != nil)
        h.press(.char("S"))
        #expect(h.screen[0].contains("200 assets"))
    }
}

@Suite struct ResizeTests {
    private func expectSelectionVisible(_ h: Harness, tag: String, _ comment: String,
                                        sourceLocation: SourceLocation = #_sourceLocation) {
        let reversed = h.reversedListRows
        #expect(reversed.count == 1, "\(comment)\n\(h.dump)", sourceLocation: sourceLocation)
        if let y = reversed.first {
            #expect(h.screen[y].hasPrefix(tag + " "), "\(comment)\n\(h.dump)", sourceLocation: sourceLocation)
        }
        for line in h.screen {
            #expect(line.displayWidth == h.width, "\(comment)", sourceLocation: sourceLocation)
        }
    }

    @Test func resizingKeepsTheSelectedRowVisible() throws {
        let h = try Harness(.sample(count: 200))
        let tags = try h.expectedRows().map(\.tag)
        h.press(.pageDown, .pageDown)
        h.press(Array(repeating: .char("j"), count: 10))
        expectSelectionVisible(h, tag: tags[50], "80×24")
        h.resize(width: 40, height: 12)
        expectSelectionVisible(h, tag: tags[50], "40×12")
        h.resize(width: 80, height: 8)
        expectSelectionVisible(h, tag: tags[50], "80×8")
        h.resize(width: 120, height: 40)
        expectSelectionVisible(h, tag: tags[50], "120×40")
        h.resize(width: 80, height: 24)
        expectSelectionVisible(h, tag: tags[50], "back to 80×24")
        h.press(.char("j"))
        expectSelectionVisible(h, tag: tags[51], "j after resizing")

        h.press(.end)
        h.resize(width: 40, height: 12)
        expectSelectionVisible(h, tag: tags[199], "End, then 40×12")
        h.press(.home)
        h.resize(width: 80, height: 24)
        expectSelectionVisible(h, tag: tags[0], "Home, then 80×24")
    }

    @Test func resizingWhileFilteredOrInHelp() throws {
        let h = try Harness(.sample(count: 200))
        let expected = try h.expectedRows(matching: "quay")
        h.press(.char("/"))
        h.type("quay")
        h.press(.enter)
        h.press(Array(repeating: .down, count: 15))
        h.resize(width: 40, height: 12)
        expectSelectionVisible(h, tag: expected[15].tag, "filtered, 40×12")
        h.press(.char("?"))
        h.resize(width: 80, height: 24)
        #expect(h.screen[0].contains("Help"))
        h.press(.escape)
        expectSelectionVisible(h, tag: expected[15].tag, "after help, 80×24")
    }
}

/// Hostile testing: at 10×3 a stray "N" stood beside the footer, the end of the column headings drawn on its row.
@Suite struct TinyTerminalTests {
    @Test(arguments: [(10, 3), (10, 2), (30, 3), (80, 3)])
    func theFooterRowHoldsTheFooterAlone(width: Int, height: Int) throws {
        let h = try Harness(.sample(count: 200), width: width, height: height)
        let footer = ListState.keymap.footer(width: width)
        #expect(h.screen[height - 1] == footer.padded(toWidth: width), "\(h.dump)")
    }
}
