import Testing
@testable import RigbookApp
import Foundation
@testable import RigbookUI
import RigbookCore

/// The register list at 80×24 (SPEC §7), driven through a real session.
@Suite struct ListScreenTests {
    @Test func emptyRegisterWelcomesAndLoadsSampleDataWithS() throws {
        let h = try Harness()
        #expect(h.screen[0].contains("Rigbook"))
        #expect(h.screen[0].contains("0 assets"))
        #expect(h.line(containing: "The register is empty") != nil, "\(h.dump)")
        let sampleLine = try #require(h.line(containing: "Press S"), "\(h.dump)")
        #expect(sampleLine.text.contains("sample data"))
        #expect(h.line(containing: "rigbook asset add") != nil, "how to add an asset\n\(h.dump)")
        #expect(h.line(containing: "STATUS") == nil, "no column headings over an empty register")

        h.press(.char("S"))
        #expect(try h.register.assetCount() == 200)
        #expect(h.screen[0].contains("200 assets"), "\(h.dump)")
        #expect(h.line(containing: "The register is empty") == nil)
        #expect(h.screen[2].hasPrefix("TAG"))
        #expect(h.shownRows.count == 20)
        #expect(h.shownRows.allSatisfy { $0.status != nil })
        #expect(h.screen[23].contains("Loaded 200 sample assets, lifting and electrical"), "\(h.screen[23])")
        // Both halves of the register: a fifth of the assets are electrical items, with their tests.
        let electrical = try h.register.rows().filter(\.asset.isElectrical)
        #expect(electrical.count == 40)
        #expect(try electrical.allSatisfy { try !h.register.tests(assetUUID: $0.asset.uuid).isEmpty
                                            || $0.status(on: harnessToday).status == .untested })

        // The notice lasts until the next key; then the footer is back.
        h.press(.char("j"))
        #expect(!h.screen[23].contains("Loaded"))
        #expect(h.screen[23].contains("move"))

        // S again refuses: sample data only goes into an empty register.
        h.press(.char("S"))
        #expect(try h.register.assetCount() == 200)
        #expect(h.screen[23].contains("empty register"), "\(h.screen[23])")
    }

    /// An empty marker column (draft, persons, colour) and the blanks after a column's text are plain, whatever
    /// the column's colour: in the selection bar a coloured blank would show as a block of that colour. (A status
    /// in reverse video, DO NOT USE, keeps its own blanks.)
    @Test func blanksInTheSelectionBarAreTheBarItself() throws {
        let h = try Harness(.sample(count: 200))
        for _ in 0..<25 {
            let y = try #require(h.reversedListRows.first, "\(h.dump)")
            let bar = h.state.list.tagWidth
            for x in 0..<bar where h.frame[x, y].text == " " {
                let style = h.frame[x, y].style
                #expect(style == Style(reverse: true) || !style.reverse, "cell \(x) of the bar, row \(y)\n\(h.dump)")
            }
            for row in h.shownRows {
                for x in (row.y == y ? bar : 0)..<h.frame.width where h.frame[x, row.y].text == " " {
                    let style = h.frame[x, row.y].style
                    #expect(style == .plain || style.reverse, "cell \(x) of row \(row.y)\n\(h.dump)")
                }
            }
            h.press(.down)
        }
    }

    @Test func headerCountsEveryStatusInWords() throws {
        let h = try Harness(.sample(count: 200))
        let expected = try h.expectedRows()
        let header = h.screen[1]
        for status in AssetStatus.allCases {
            let count = expected.filter { $0.status == status }.count
            if count > 0 {
                #expect(header.contains("\(count) \(status.label)"), "\(status.label): \(count) in \(header)")
            } else {
                #expect(!header.contains(status.label), "\(status.label) has no asset but shows in \(header)")
            }
        }
        #expect(expected.contains { $0.status == .overdue }, "the sample has overdue items")
        #expect(header.contains("OVERDUE"))
    }

    @Test func columnHeadingsInOrderAndRowsUnderThem() throws {
        let h = try Harness(.sample(count: 200))
        let f = h.frame
        let headings = ["TAG", "NAME", "TYPE", "WLL", "LOCATION", "LAST EXAM", "NEXT DUE", "STATUS"]
        let columns = headings.map { f.column(of: $0, y: 2) }
        #expect(!columns.contains(nil), "\(h.screen[2])")
        let found = columns.compactMap { $0 }
        #expect(found == found.sorted() && Set(found).count == found.count, "headings in order: \(h.screen[2])")
        #expect(columns.first == 0)
        for (y, line) in h.screen.enumerated() { #expect(line.displayWidth == 80, "line \(y)") }

        // The first row is the most urgent asset, with its tag, name start, WLL and status.
        let first = try #require(try h.expectedRows().first)
        #expect(h.screen[3].hasPrefix(first.tag + " "), "\(h.screen[3])")
        #expect(h.screen[3].contains(String(first.name.prefix(8))))
        #expect(h.screen[3].contains(first.status.label))
        #expect(first.status == .doNotUse)
        let typeColumn = try #require(columns[2])
        #expect(h.field(y: 3, x: typeColumn, width: 4) == String(first.typeLabel.prefix(4)), "\(h.screen[3])")
    }

    @Test func rowsComeInAttentionOrderDownTheWholeList() throws {
        let h = try Harness(.sample(count: 200))
        let expected = try h.expectedRows()
        let walk = h.walkWholeList()
        #expect(walk.rows.map(\.tag) == expected.map(\.tag))
        #expect(walk.rows.map(\.status) == expected.map { Optional($0.status) })
        let ranks = walk.rows.compactMap { $0.status?.attentionRank }
        #expect(ranks.count == 200)
        #expect(ranks == ranks.sorted(), "statuses in attention order")
        #expect(walk.rows.first?.status == .doNotUse)
        #expect(walk.rows.last?.status == expected.last?.status, "the least urgent status comes last")
        #expect(walk.misaligned.isEmpty, "\(walk.misaligned)")
    }

    @Test func keysMoveTheSelectionAndScroll() throws {
        let h = try Harness(.sample(count: 200))
        let tags = try h.expectedRows().map(\.tag)
        func expectSelected(_ index: Int, at y: Int, _ comment: String,
                            sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(h.reversedListRows == [y], "\(comment): reversed rows", sourceLocation: sourceLocation)
            #expect(h.screen[y].hasPrefix(tags[index] + " "),
                    "\(comment): row \(y) should be \(tags[index])\n\(h.dump)", sourceLocation: sourceLocation)
        }
        expectSelected(0, at: 3, "start")
        let tagWidth = h.state.list.tagWidth
        #expect((0..<tagWidth).allSatisfy { h.frame[$0, 3].style.reverse }, "the selected row's tag is reversed\n\(h.dump)")
        #expect(!h.frame[tagWidth + 4, 3].style.reverse, "a ↓ rewrites two tags, not two rows")
        #expect(!h.frame[0, 4].style.reverse && !h.frame[12, 4].style.reverse)

        h.press(.char("j")); expectSelected(1, at: 4, "j")
        h.press(.down); expectSelected(2, at: 5, "↓")
        h.press(.char("k")); expectSelected(1, at: 4, "k")
        h.press(.up); expectSelected(0, at: 3, "↑")
        h.press(.up); expectSelected(0, at: 3, "↑ at the top stays")

        h.press(.pageDown); expectSelected(20, at: 3, "PgDn")
        #expect(h.screen[22].hasPrefix(tags[39] + " "))
        h.press(.pageUp); expectSelected(0, at: 3, "PgUp")
        h.press(.char(" ")); expectSelected(20, at: 3, "Space")
        h.press(.home); expectSelected(0, at: 3, "Home")

        h.press(Array(repeating: .char("j"), count: 25))
        expectSelected(25, at: 22, "25 × j scrolls")
        #expect(h.screen[3].hasPrefix(tags[6] + " "), "scrolled by 6\n\(h.dump)")

        h.press(.end); expectSelected(199, at: 22, "End")
        h.press(.down); expectSelected(199, at: 22, "↓ at the end stays")
        h.press(.pageDown); expectSelected(199, at: 22, "PgDn at the end stays")
        h.press(.char("k")); expectSelected(198, at: 21, "k from the end")
        h.press(.char("g")); expectSelected(0, at: 3, "g")
        h.press(.char("G")); expectSelected(199, at: 22, "G")
        #expect(h.shownRows.last?.status == (try h.expectedRows()).last?.status)
    }

    @Test func movingTheSelectionSendsOnlyTheTwoChangedRows() throws {
        let h = try Harness(.sample(count: 200))
        #expect(Set(h.lastRuns.map(\.y)) == Set(0..<24), "the first frame is drawn whole")
        h.press(.char("j"))
        #expect(Set(h.lastRuns.map(\.y)) == [3, 4])
        h.press(.char("?"))
        h.press(.escape)
        h.press(.char("k"))
        #expect(Set(h.lastRuns.map(\.y)) == [3, 4])
        h.press(.char("x")) // an unbound key changes nothing
        #expect(h.lastRuns.isEmpty)
        h.press(.end)
        #expect(Set(h.lastRuns.map(\.y)) == Set(3...22), "scrolling redraws the rows, not the chrome")
    }

    @Test func endShowsTheLastAsset() throws {
        let h = try Harness(.sample(count: 200))
        let expected = try h.expectedRows()
        h.press(.end)
        let rows = h.shownRows
        #expect(rows.count == 20)
        #expect(rows.map(\.tag) == expected.suffix(20).map(\.tag))
        #expect(rows.last?.y == 22)
        #expect(h.reversedListRows == [22])
    }

    @Test func qAndCtrlCQuit() throws {
        let h = try Harness(.sample(count: 20))
        h.press(.char("j"))
        #expect(!h.session.isFinished)
        h.press(.char("q"))
        #expect(h.session.isFinished)
        let c = try Harness(.sample(count: 20))
        c.press(.ctrl("c"))
        #expect(c.session.isFinished)
    }
}

/// Hostile testing: the WLL column (6 wide) showed `1024 …`, a number cut.
@Suite struct WLLColumnTests {
    @Test(arguments: [80, 60])
    func aLimitIsNeverCut(width: Int) throws {
        let h = try Harness(.assets([makeAsset(tag: "SH-0001", name: "kilo shackle", wllKg: 1024),
                                     makeAsset(tag: "SH-0002", name: "big shackle", wllKg: 12250),
                                     makeAsset(tag: "SH-0003", name: "small", wllKg: 500)]),
                            width: width, height: 12)
        #expect(h.frame.column(of: "WLL", y: 2) != nil, "\(h.dump)")
        #expect(h.line(containing: "SH-0001")?.text.contains(" 1024 kg ") == true, "\(h.dump)")
        #expect(h.line(containing: "SH-0002")?.text.contains(" 12.25 t ") == true, "\(h.dump)")
        #expect(h.line(containing: "SH-0003")?.text.contains(" 500 kg ") == true, "\(h.dump)")
    }
}
