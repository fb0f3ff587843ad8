import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookUI
import RigbookStore
import RigbookCore

/// A filter that finds things (fuzzy, best first, by status with is:, over the site too)
/// and columns that use the width.
@Suite("A filter that finds things")
struct FuzzyFilterTests {
    static let depot = Site(uuid: UUID(), employerUUID: Particulars.mainEmployerUUID, name: "North Depot",
                            address: "Depot Lane, Testport")

    static var assets: [Asset] {
        var hoist = makeAsset(tag: "CB-0007", name: "Man-riding hoist", type: .chainBlock, location: "Gantry 2",
                              commissioned: "2026-10-01", intervalMonths: 6)
        hoist.liftsPersons = true
        hoist.serialNumber = "HX-778812"
        hoist.manufacturer = "Yale Industrial Products"
        return [
            makeAsset(tag: "WS-0102", name: "2 t web sling", location: "Quay 1", commissioned: "2026-10-01",
                      intervalMonths: 6),
            makeAsset(tag: "WS-0120", name: "1 t web sling", location: "Quay 1", commissioned: "2026-10-01",
                      intervalMonths: 6),
            makeAsset(tag: "HK-0001", name: "Swivel hook", type: .hook, location: "Warehouse 0102",
                      commissioned: "2026-10-01", intervalMonths: 6),
            makeAsset(tag: "SH-0003", name: "Bow shackle", type: .shackle, location: "Quay 2",
                      commissioned: "2024-01-01", intervalMonths: 6),
            makeAsset(tag: "EB-0004", name: "Eyebolt M20", type: .eyebolt, location: "Platform 2 south",
                      commissioned: "2024-01-01", intervalMonths: 6),
            hoist,
        ]
    }

    /// The assets above; CB-0007 on the North Depot site, the rest on the main site.
    private func harness(width: Int = 80) throws -> Harness {
        try Harness(.assets(FuzzyFilterTests.assets), width: width, prepare: { register in
            try register.record(.site(FuzzyFilterTests.depot))
            let hoist = try #require(try register.asset(tag: "CB-0007"))
            try register.record(.asset(AssetParticulars(assetUUID: hoist.asset.uuid,
                                                        siteUUID: FuzzyFilterTests.depot.uuid)))
        })
    }

    private func filter(_ h: Harness, _ query: String) -> [String] {
        h.press(.escape, .char("/"))
        h.type(query)
        return h.shownRows.map(\.tag)
    }

    @Test("ws0102 finds WS-0102 first, then what holds the letters less closely")
    func lettersInOrderBestFirst() throws {
        let h = try harness()
        let shown = filter(h, "ws0102")
        #expect(shown.first == "WS-0102", "\(h.dump)")
        #expect(!shown.contains("SH-0003"))
        #expect(filter(h, "WS-0102") == ["WS-0102"], "typed exactly, only itself")
        // Letters are found within one field, never across two: no field of HK-0001 holds "hk" then "0102".
        #expect(!filter(h, "hk0102").contains("HK-0001"))
        #expect(filter(h, "house 0102") == ["HK-0001"], "two words: both must match")
    }

    /// Slings on three quays whose names hold "2 t"; the one at Quay 2 is the least urgent of them.
    static let quays = [
        makeAsset(tag: "SL-0001", name: "2 t chain sling", location: "Quay 1", commissioned: "2024-01-01",
                  intervalMonths: 6),
        makeAsset(tag: "SL-0002", name: "1 t web sling", location: "Quay 2", commissioned: "2026-10-01",
                  intervalMonths: 6),
        makeAsset(tag: "SL-0003", name: "2 t web sling", location: "Quay 3", commissioned: "2024-01-01",
                  intervalMonths: 6),
        makeAsset(tag: "SL-0004", name: "Bow shackle", type: .shackle, location: "Quay 21", commissioned: "2026-10-01",
                  intervalMonths: 6),
    ]

    @Test("words that spell a whole location rank first; at: and site: keep that place exactly, quotes hold spaces")
    func placesMatchWhole() throws {
        let h = try Harness(.assets(FuzzyFilterTests.quays), prepare: { register in
            try register.record(.site(FuzzyFilterTests.depot))
            let shackle = try #require(try register.asset(tag: "SL-0004"))
            try register.record(.asset(AssetParticulars(assetUUID: shackle.asset.uuid,
                                                        siteUUID: FuzzyFilterTests.depot.uuid)))
        })
        // The overdue slings at Quay 1 and 3 hold "2" as well as the sling at Quay 2: the place named comes first.
        #expect(filter(h, "quay 2").first == "SL-0002", "\(h.dump)")
        #expect(filter(h, "QUAY 2").first == "SL-0002", "case does not matter")
        #expect(filter(h, "at:\"Quay 2\"") == ["SL-0002"], "\(h.dump)")
        #expect(filter(h, "at:\"quay 2\" sling") == ["SL-0002"])
        #expect(filter(h, "at:quay").isEmpty, "a place is matched whole, not by its beginning")
        #expect(Set(filter(h, "at:\"Quay 2")) == ["SL-0002"], "a quote still open while typing runs to the end")
        #expect(filter(h, "site:\"north depot\"") == ["SL-0004"])
        #expect(Set(filter(h, "site:main")).isEmpty)
        // Quoted, a fuzzy word may hold a space: "quay 2" in order, so Quay 21 too.
        #expect(Set(filter(h, "\"quay 2\"")) == ["SL-0002", "SL-0004"], "\(h.dump)")
        #expect(FilterQuery.narrows(from: "at:\"Quay 2\"", to: "at:\"Quay 2\" sl"))
        #expect(!FilterQuery.narrows(from: "at:\"Quay 2", to: "at:\"Quay 21"), "another place, not a narrower one")
        #expect(ListState.filterNotes.contains { $0.keys == "at:\"Quay 2\"" }, "the help names the place words")
    }

    @Test("is: filters by status, never as text; several is: words are any of them; a wrong word says so")
    func byStatus() throws {
        let h = try harness()
        #expect(Set(filter(h, "is:overdue")) == ["SH-0003", "EB-0004"], "\(h.dump)")
        #expect(h.screen[1].contains("2 OVERDUE") && !h.screen[1].contains(" OK"),
                "the header counts what the filter shows: \(h.screen[1])")
        #expect(h.screen[0].contains("filter: 2 shown"))
        #expect(filter(h, "is:overdue shackle") == ["SH-0003"])
        #expect(Set(filter(h, "is:ok is:overdue")).count == 6)
        #expect(Set(filter(h, "is:due_soon")).isEmpty)
        // A fuzzy "ok" finds the hook; is:ok does not look at text.
        #expect(filter(h, "ok").contains("HK-0001"))
        #expect(Set(filter(h, "is:ok")) == ["WS-0102", "WS-0120", "HK-0001", "CB-0007"])
        #expect(filter(h, "is:over") == filter(h, "is:overdue"), "a beginning is enough")
        #expect(filter(h, "is:broken").isEmpty)
        #expect(h.line(containing: "no status is called is:broken") != nil, "\(h.dump)")
    }

    @Test("the site, serial and maker are searched; the site shows as a column when there are several")
    func siteSerialMaker() throws {
        let h = try harness()
        #expect(filter(h, "north depot") == ["CB-0007"])
        #expect(filter(h, "hx778812") == ["CB-0007"])
        #expect(filter(h, "yale") == ["CB-0007"])
        h.press(.escape)
        #expect(h.screen[2].contains("SITE"), "\(h.dump)")
        let row = try #require(h.line(containing: "CB-0007"))
        #expect(row.text.contains("North D"), "\(h.dump)")
    }

    @Test("location is never cut while the name has room to spare; P marks what lifts persons")
    func columnsAt80() throws {
        let h = try harness()
        // At 80 columns with a site column there is no room to spare: the name keeps its least width.
        let columns = ListView.columns(width: 80, tagWidth: h.state.list.tagWidth, content: h.state.list.contentWidths)
        #expect(columns.first { $0.id == .name }?.width == 10, "\(columns.map { ($0.title, $0.width) })")
        let wider = try harness(width: 100)
        let row = try #require(wider.line(containing: "EB-0004"))
        #expect(row.text.contains("Platform 2 south") && row.text.contains("Warehouse 0102") == false,
                "\(wider.dump)")
        #expect(wider.line(containing: "Warehouse 0102") != nil && wider.line(containing: "North Depot") != nil,
                "site and location whole before the name grows: \(wider.dump)")
        let hoist = try #require(h.line(containing: "CB-0007"))
        let personsX = try #require(h.frame.column(of: " P ", y: 2)).advanced(by: 1)
        #expect(h.field(y: hoist.y, x: personsX, width: 1) == "P", "\(h.dump)")
        #expect(h.field(y: try #require(h.line(containing: "WS-0102")).y, x: personsX, width: 1) == " ")
        for line in h.screen { #expect(line.displayWidth == 80) }
    }

    @Test("at 120 columns and more, serial and maker have columns")
    func columnsAt120() throws {
        let narrow = try harness(width: 119)
        #expect(!narrow.screen[2].contains("SERIAL"))
        let h = try harness(width: 132)
        #expect(h.screen[2].contains("SERIAL") && h.screen[2].contains("MAKER"), "\(h.dump)")
        let hoist = try #require(h.line(containing: "CB-0007"))
        #expect(hoist.text.contains("HX-778812") && hoist.text.contains("Yale"), "\(h.dump)")
        for line in h.screen { #expect(line.displayWidth == 132) }
    }
}

/// The index keeps each row's tag and serial and, once each, the values its other fields share with other rows
/// (a keystroke over a million assets). Whatever the sharing, a row must score as the text it stands
/// for: every field of the row joined, lower-cased and scored field by field.
@Suite("The search index scores a row as its whole text")
struct SearchIndexEquivalenceTests {
    /// A small alphabet of letters, digits, marks and a CJK character, so words often match, in several ways.
    static let pieces = ["a", "B", "c", "sl", "ING", "0", "1", "2", "-", " ", "/", "q", "王", "É", "x"]

    static func text(_ random: inout SeededRandom, _ length: ClosedRange<Int>) -> String {
        (0..<random.below(length.count) + length.lowerBound).map { _ in random.pick(pieces) }.joined()
    }

    @Test("matches and scores equal the joined text's, for random rows and words", arguments: 0..<6)
    func sameAsJoinedText(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        // Few distinct names, locations and makers (shared), every tag and serial its own.
        let names = (0..<5).map { _ in SearchIndexEquivalenceTests.text(&random, 0...8) }
        let places = (0..<4).map { _ in SearchIndexEquivalenceTests.text(&random, 0...6) }
        var rows: [RegisterRow] = []
        for number in 0..<300 {
            var asset = makeAsset(tag: SearchIndexEquivalenceTests.text(&random, 1...5) + "\(number)",
                                  name: random.pick(names), location: random.pick(places))
            asset.serialNumber = SearchIndexEquivalenceTests.text(&random, 0...6)
            asset.clientRef = SearchIndexEquivalenceTests.text(&random, 0...4)
            asset.manufacturer = random.pick(places)
            rows.append(RegisterRow(asset: asset, summary: .empty))
        }
        var list = ListState(today: CalendarDate(iso: "2026-11-30")!)
        list.load(rows, today: list.today)
        let index = list.makeSearchIndex()
        let joined = list.rows.map { row in
            let a = row.asset
            return Array([a.tag, a.name, a.typeLabel, list.siteName(of: a), a.location, a.serialNumber,
                          a.clientRef, a.manufacturer, ""].joined(separator: "\u{1F}").lowercased().utf8)
        }
        for _ in 0..<200 {
            let terms = (0..<random.below(3) + 1).map { _ in
                Array(SearchIndexEquivalenceTests.text(&random, 1...3).lowercased().utf8)
            }
            let candidates = (0..<Int32(rows.count)).filter { _ in random.below(4) != 0 }
            let found = index.matches(terms, among: Array(candidates))
            var expected: (rows: [Int32], scores: [Int32]) = ([], [])
            for row in candidates {
                let scores = terms.map { term in
                    term.withUnsafeBufferPointer { t in
                        joined[Int(row)].withUnsafeBufferPointer { SearchIndex.score(t, in: $0) }
                    }
                }
                guard scores.allSatisfy({ $0 != nil }) else { continue }
                // A shared value that some of the words, one after another, spell whole scores its bonus per word.
                let a = list.rows[Int(row)].asset
                let bonus = [a.name, a.typeLabel, list.siteName(of: a), a.location, a.manufacturer, ""].map { value in
                    let whole = Array(value.lowercased().utf8)
                    let runs = terms.indices.flatMap { first in (first..<terms.count).map { terms[first...$0] } }
                    return runs.first { Array($0.joined(separator: [UInt8(ascii: " ")])) == whole }
                        .map { SearchIndex.wholeValueBonus * Int32($0.count) } ?? 0
                }.reduce(0, +)
                expected.rows.append(row)
                expected.scores.append(scores.reduce(0) { $0 + $1! } + bonus)
            }
            #expect(found.rows == expected.rows, "\(terms.map { String(decoding: $0, as: UTF8.self) })")
            #expect(found.scores == expected.scores)
        }
    }
}
