import Foundation
import Synchronization
import Testing
import RigbookTestSupport
@testable import RigbookApp
@testable import RigbookCore
@testable import RigbookStore
@testable import RigbookUI

/// A large register's filter runs over an index made beside the loop, not over every row held: it must show the
/// rows, order and counts the whole list's filter shows, for every query, typed a key at a time, and again once
/// the register changes or the day does.
@Suite struct WindowFilterTests {
    /// The queries of the other filter tests, and what people type that is awkward (a quote left open, a field
    /// word alone, spaces, letters of several bytes).
    static let knownQueries = [
        "ws0102", "WS-0102", "hk0102", "house 0102", "hx778812", "yale", "north depot", "quay", "quay ", "quay 1",
        "quay 2", "QUAY 2", "q", "zzzz", "ws0", "sl", "ok", "shackle", "chain b", "sh-01", "仓库", "12.5", "sling 3",
        "HIRE-0815", "P-4471", "TT-0002", "owner's register renumbered", "at:quay", "at:\"quay 2\"", "at:\"quay 2",
        "site:main", "site:\"north depot\"", "at:", "is:", "is:broken", "is:due_soon", "is:ok", "is:ok is:overdue",
        "is:over", "is:overdue", "is:overdue shackle", "is:e", "is:elec", "is:elec is:do-not-use", "is:electrical",
        "is:electrical is:lifting", "is:lifting", "is:lifting is:do-not-use", "  ", "\"", "is:ok sl at:\"quay 1\"",
    ]

    /// A thousand queries made from the register's own words, cut and mixed, with status and place words.
    static func randomQueries(from rows: [RegisterRow], count: Int) -> [String] {
        var random = SeededRandom(seed: 20261208)
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789-. /仓库é\"")
        func piece(of text: String) -> String {
            let characters = Array(text)
            guard !characters.isEmpty else { return "" }
            let start = random.below(characters.count)
            var cut = String(characters[start..<min(characters.count, start + 1 + random.below(6))])
            if random.below(3) == 0 { cut = cut.uppercased() }
            if random.below(4) == 0 { cut.removeAll { $0 == "-" || $0 == " " } }
            return cut
        }
        func word() -> String {
            let asset = random.pick(rows).asset
            switch random.below(10) {
            case 0: return "is:" + piece(of: random.pick(AssetStatus.allCases.map(FilterQuery.word(for:))
                                                          + ["electrical", "lifting", "nothing"]))
            case 1: return "at:\"" + asset.location.lowercased() + (random.below(4) == 0 ? "" : "\"")
            case 2: return "site:" + random.pick(["main", "\"north depot\"", "nowhere"])
            case 3: return String((0..<(1 + random.below(3))).map { _ in random.pick(letters) })
            case 4: return piece(of: asset.name)
            case 5: return piece(of: asset.location)
            case 6: return piece(of: asset.serialNumber + " " + asset.manufacturer)
            default: return piece(of: asset.tag)
            }
        }
        return (0..<count).map { _ in (0..<(1 + random.below(3))).map { _ in word() }.joined(separator: " ") }
    }

    /// What the whole list's filter shows: the assets in order (`uuids` are its rows'), and the counts.
    static func shown(_ list: ListState, uuids: [UUID]) -> (uuids: [UUID], counts: [AssetStatus: Int]?) {
        ((0..<list.visibleCount).map { uuids[list.rowIndex(visible: $0)] }, list.shownCounts)
    }

    /// What a window's filter shows: its answer's rows.
    static func shown(_ list: ListState, index: RegisterSearchIndex) -> (uuids: [UUID], counts: [AssetStatus: Int]?) {
        ((list.matches ?? []).map { index.uuids[Int($0)] }, list.shownCounts)
    }

    @Test func theIndexAnswersEveryQueryAsTheWholeListDoes() throws {
        let h = try Harness(.sample(count: 5_000), width: 120, height: 40, listWindowFrom: 1)
        h.settleSearchIndex()
        let windowed = h.state.list
        let index = try #require(windowed.registerIndex)
        #expect(index.count == 5_000)
        let rows = try h.register.rows()
        var whole = ListState(today: harnessToday)
        whole.load(rows, today: harnessToday, particulars: try h.register.particulars())
        whole.searchIndex = whole.makeSearchIndex()
        let uuids = rows.map(\.asset.uuid)
        var compared = 0
        // The known queries a key at a time; the random ones whole, then with one more key (narrowing).
        let typings = Self.knownQueries.map { query in query.indices.map { String(query[...$0]) } }
            + Self.randomQueries(from: rows, count: 1_000).map { query in [String(query.dropLast()), query] }
        for prefixes in typings {
            var byIndex = windowed, byRows = whole
            for typed in prefixes {
                byIndex.setQuery(typed)
                byRows.setQuery(typed)
                let expected = Self.shown(byRows, uuids: uuids), found = Self.shown(byIndex, index: index)
                // Nothing to match ("is:" alone): the whole list shows, as a window of its own.
                if byRows.matches == nil || FilterQuery(typed).isEmpty {
                    #expect(byIndex.matches == nil, "\(typed)")
                    continue
                }
                #expect(found.uuids == expected.uuids, "\(typed): \(found.uuids.count) against \(expected.uuids.count)")
                #expect(found.counts == expected.counts, "\(typed)")
                #expect(byIndex.unknownStatusWords == byRows.unknownStatusWords, "\(typed)")
                #expect(byIndex.visibleCount == byRows.visibleCount, "\(typed)")
                compared += 1
            }
        }
        #expect(compared > 1_500, "most queries filter something")
    }

    /// Filters by keys and walks the answer page by page, comparing it with the whole list's filter.
    static func expectFilterWalk(_ h: Harness, _ query: String, today: CalendarDate = harnessToday,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        h.press(.escape, .char("/"))
        h.type(query)
        h.settleSearchIndex()
        h.press(.enter)
        var whole = ListState(today: today)
        whole.load(try h.register.rows(), today: today, particulars: try h.register.particulars())
        whole.setQuery(query)
        let expected = (0..<whole.visibleCount).map { whole.rows[whole.rowIndex(visible: $0)].asset.tag }
        #expect(h.state.list.window?.filterAnswer != nil, "a window of the filter's answer",
                sourceLocation: sourceLocation)
        #expect(h.screen[0].contains("filter: \(expected.count) shown"), "\(h.screen[0])", sourceLocation: sourceLocation)
        h.press(.home)
        let walked = expected.isEmpty ? (rows: [], misaligned: []) : h.walkWholeList(maxPages: 1_000)
        #expect(walked.rows.map(\.tag) == expected, sourceLocation: sourceLocation)
        #expect(walked.misaligned.isEmpty, sourceLocation: sourceLocation)
        if let last = expected.last {
            h.press(.end)
            #expect(h.shownRows.last?.tag == last, "End shows the last match", sourceLocation: sourceLocation)
        }
    }

    @Test func aKeyNeverWaitsForTheIndexAndTheFilterRunsWhenItComes() throws {
        let h = try Harness(.sample(count: 5_000), width: 120, height: 40, listWindowFrom: 1)
        h.press(.char("/"))
        h.type("sling")
        // Keys alone bring no idle tick, so the index is not made yet: the filter waits for it.
        let waited = h.state.list.registerIndex == nil
        #expect(waited)
        if waited {
            #expect(h.state.list.filterWaiting)
            #expect(h.screen[39].contains("indexing the register"), "\(h.screen[39])")
            #expect(h.screen[0].contains("5000 assets  filter: waiting for its index"), "\(h.screen[0])")
            // Keys work on the unfiltered list meanwhile.
            h.press(.enter, .down, .down, .down)
            #expect(h.state.list.selection == 3)
        }
        h.settleSearchIndex()
        #expect(!h.state.list.filterWaiting)
        if waited { #expect(h.state.list.selection == 0, "the filter, once it runs, selects its best match") }
        try Self.expectFilterWalk(h, "sling")
        try Self.expectFilterWalk(h, "is:overdue sh")
        try Self.expectFilterWalk(h, "zzzz")
        #expect(h.screen[3].contains("No asset matches “zzzz”"), "\(h.dump)")
        // Esc: the whole list again from its top, as when every row is held.
        h.press(.escape, .char("/"))
        h.type("ws0")
        h.press(.enter, .down, .down)
        h.press(.char("/"), .escape)
        #expect(h.state.list.window?.filterAnswer == nil)
        #expect(h.state.list.matches == nil)
        let first = try ListWindowUITests.fullRead(h.register, on: harnessToday).tags.first
        #expect(h.state.list.selectedRow?.asset.tag == first, "the selection goes to the top")
        try ListWindowUITests.expectSameAsFullRead(h, on: harnessToday)
    }

    @Test func aLabelScannedIntoTheFilterGoesToItsAsset() throws {
        let h = try Harness(.sample(count: 5_000), width: 120, height: 40, listWindowFrom: 1)
        h.settleSearchIndex()
        let tag = try ListWindowUITests.fullRead(h.register, on: harnessToday).tags[4_321]
        h.type(LabelPayload(tag: tag, due: CalendarDate(iso: "2027-06-01")).text)
        h.press(.enter)
        #expect(h.state.list.selectedRow?.asset.tag == tag, "\(h.dump)")
        #expect(h.state.list.query.isEmpty && h.state.list.window != nil, "the list is a window again, unfiltered")
        #expect(h.screen[39].contains(tag), "the list says what it found: \(h.screen[39])")
    }

    @Test func theFilterFollowsASaveElsewhereAnImportAMergeAndANewDay() throws {
        let day = Mutex(harnessToday)
        let h = try Harness(.sample(count: 5_000), width: 120, height: 40, calendar: { day.withLock { $0 } },
                            listWindowFrom: 1)
        h.settleSearchIndex()
        try Self.expectFilterWalk(h, "sl")
        let other = try Register.open(path: h.home.registerPath)
        let ok = try #require(try other.rows().first {
            $0.status(on: harnessToday).status == .ok && !$0.asset.isElectrical && $0.asset.name.contains("sling")
        })
        var renamed = ok.asset
        renamed.intervalMonths = 1
        renamed.name = "Quayside lifting beam"
        try other.change(assetUUID: ok.asset.uuid, to: renamed, reason: "Heavy use")
        try other.addAsset(Asset(tag: "AA-SLING", name: "Imported sling", type: .webSling, wllKg: 1000,
                                 intervalMonths: 6))
        _ = h.afterLookingAround()
        try Self.expectFilterWalk(h, "sl")
        try Self.expectFilterWalk(h, "quayside")

        let elsewhere = try Register.open(path: h.root.appendingPathComponent("elsewhere.sqlite").path)
        for number in 0..<25 {
            try elsewhere.addAsset(Asset(tag: "MG-\(number)", name: "Merged sling", type: .webSling, wllKg: 500,
                                         commissioned: harnessToday.addingDays(-170 - number), intervalMonths: 6))
        }
        _ = try other.merge(from: elsewhere)
        _ = h.afterLookingAround()
        try Self.expectFilterWalk(h, "merged")

        let later = harnessToday.addingDays(20)
        day.withLock { $0 = later }
        _ = h.afterLookingAround()
        try Self.expectFilterWalk(h, "is:due-soon", today: later)
    }
}
