import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookUI
import RigbookCore

/// A large register's list is worked out in two halves at once (`InHalves`): the statuses and widths at
/// load, the filter's pass over the rows. Whatever the split, the answer is one pass's.
@Suite("A large list, in two halves")
struct LargeListTests {
    static let today = CalendarDate(iso: "2026-11-30")!
    /// More rows than `InHalves.threshold`, so the work is split.
    static let count = InHalves.threshold + 4_321

    /// Rows of every status: commissioned on several days with several intervals, some with drafts, some flagged.
    static func rows(seed: UInt64) -> [RegisterRow] {
        var random = SeededRandom(seed: seed)
        let names = ["2 t web sling", "Bow shackle 王", "Chain block", "Eyebolt M20", "1 t beam clamp"]
        let places = ["Quay 1", "Quay 2", "仓库 2", "Van 12", "Rigging store"]
        let days = ["2024-01-10", "2025-06-01", "2026-06-01", "2026-11-20"]
        return (0..<count).map { number in
            var asset = makeAsset(tag: "T\(random.below(9))-\(number)", name: random.pick(names),
                                  wllKg: Double(random.below(20) * 250 + 250), location: random.pick(places),
                                  commissioned: random.below(9) == 0 ? nil : random.pick(days),
                                  intervalMonths: [6, 12, 18][random.below(3)])
            asset.serialNumber = "SN\(random.below(1_000_000))"
            asset.manufacturer = random.pick(places)
            asset.liftsPersons = random.below(1_000) == 0
            return RegisterRow(asset: asset, summary: .empty, hasDraft: random.below(50) == 0)
        }
    }

    @Test("each row's status and the survey equal one pass's")
    func surveyInHalves() {
        let rows = LargeListTests.rows(seed: 7)
        let (reports, survey) = ListSurvey.statuses(of: rows, on: LargeListTests.today)
        #expect(reports == rows.map { $0.status(on: LargeListTests.today) })
        #expect(survey == ListSurvey.of(rows))
        #expect(survey.drafts == rows.filter(\.hasDraft).count)
        #expect(Set(reports.map(\.status)).count > 2, "the rows have several statuses")
    }

    @Test("the filter's matches in two halves equal each half's, joined")
    func filterInHalves() {
        var random = SeededRandom(seed: 11)
        var list = ListState(today: LargeListTests.today)
        list.load(LargeListTests.rows(seed: 3), today: LargeListTests.today)
        let index = list.makeSearchIndex()
        let middle = Int32(LargeListTests.count / 3)
        for words in ["q", "s", "ws", "sling 2", "王", "t1 sn4", "zz", "a 1 q"] {
            let terms = words.split(separator: " ").map { Array($0.utf8) }
            let whole = index.matches(terms, among: nil)
            let front = index.matches(terms, among: Array(0..<middle))
            let back = index.matches(terms, among: Array(middle..<Int32(LargeListTests.count)))
            #expect(whole.rows == front.rows + back.rows, "\(words)")
            #expect(whole.scores == front.scores + back.scores, "\(words)")
            // Some of the rows, as a longer word narrows them: the same rows as asking of each alone.
            let some = (0..<Int32(LargeListTests.count)).filter { _ in random.below(3) != 0 }
            let narrowed = index.matches(terms, among: some)
            let single = Set(index.matches(terms, among: nil).rows)
            #expect(narrowed.rows == some.filter { single.contains($0) }, "\(words)")
        }
    }

    @Test("the index built in two halves matches as one built in one pass")
    func indexBuiltInHalves() {
        let rows = LargeListTests.rows(seed: 13)
        let fill = { @Sendable (row: Int, builder: inout SearchIndex.Builder) in
            let asset = rows[row].asset
            builder.own(asset.tag)
            builder.own(asset.serialNumber)
            for value in [asset.name, asset.location, asset.manufacturer, "", row % 3 == 0 ? "electrical" : "", ""] {
                builder.shared(value)
            }
            builder.endRow()
        }
        let halves = SearchIndex.build(count: rows.count, fill)
        var builder = SearchIndex.Builder(capacity: rows.count)
        for row in rows.indices { fill(row, &builder) }
        let onePass = builder.index
        for words in ["q", "s", "ws", "sling 2", "王", "t1 sn4", "zz", "a 1 q", "el 仓", "bow 9"] {
            let terms = words.split(separator: " ").map { Array($0.utf8) }
            let split = halves.matches(terms, among: nil), whole = onePass.matches(terms, among: nil)
            #expect(split.rows == whole.rows, "\(words)")
            #expect(split.scores == whole.scores, "\(words)")
        }
        #expect(InHalves.range(1, of: 2, count: rows.count, alignment: 64).lowerBound % 64 == 0)
    }

    @Test("the filtered list is best first, then in attention order, and counts what it shows")
    func bestFirstAndCounts() {
        var list = ListState(today: LargeListTests.today)
        list.load(LargeListTests.rows(seed: 5), today: LargeListTests.today)
        let index = list.makeSearchIndex()
        for query in ["s", "sl", "quay", "is:overdue", "is:ok 2"] {
            list.setQuery(query)
            let parsed = FilterQuery(query)
            let rank = { (row: Int32) in list.reports[Int(row)].status.attentionRank }
            var found = parsed.terms.isEmpty
                ? (rows: Array(0..<Int32(LargeListTests.count)), scores: [Int32](repeating: 0,
                                                                              count: LargeListTests.count))
                : index.matches(parsed.terms, among: nil)
            if let statuses = parsed.statuses {
                let kept = found.rows.indices.filter { statuses.contains(list.reports[Int(found.rows[$0])].status) }
                found = (kept.map { found.rows[$0] }, kept.map { found.scores[$0] })
            }
            let expected = zip(found.rows, found.scores).sorted {
                ($0.1, -rank($0.0), -$0.0) > ($1.1, -rank($1.0), -$1.0)
            }.map(\.0)
            #expect(list.matches == expected, "\(query)")
            var counts: [AssetStatus: Int] = [:]
            for row in expected { counts[list.reports[Int(row)].status, default: 0] += 1 }
            #expect(list.shownCounts == counts, "\(query)")
        }
    }

    /// A large list's index is made ahead, beside the loop, from a copy of the list: the list takes it
    /// only while its rows and particulars are the copy's, and then filters exactly as with one made on the key.
    @Test("an index made ahead is taken while the rows are the same, and filters as one made on the first key")
    func indexMadeAhead() {
        let rows = LargeListTests.rows(seed: 17)
        var list = ListState(today: LargeListTests.today)
        list.load(rows, today: LargeListTests.today)
        #expect(list.wantsIndexAhead)
        let copy = list
        let prepared = copy.prepareSearchIndex()
        var onTheKey = list
        let taken = list.adopt(prepared), takenAgain = list.adopt(prepared)
        #expect(taken)
        #expect(list.hasSearchIndex && !list.wantsIndexAhead)
        #expect(!takenAgain, "one index only: a second is set aside")
        for query in ["s", "sl", "quay 2", "王", "is:overdue sn4"] {
            list.setQuery(query)
            onTheKey.setQuery(query)
            #expect(list.visibleCount == onTheKey.visibleCount, "\(query)")
            #expect((0..<min(50, list.visibleCount)).map { list.rowIndex(visible: $0) }
                        == (0..<min(50, onTheKey.visibleCount)).map { onTheKey.rowIndex(visible: $0) },
                    "\(query)")
        }

        // Loaded again (another terminal saved), or another register: the copy's rows are not these.
        var reloaded = copy
        reloaded.load(rows, today: LargeListTests.today)
        let reloadedTook = reloaded.adopt(prepared)
        #expect(!reloadedTook && !reloaded.hasSearchIndex)
        var small = ListState(today: LargeListTests.today)
        small.load(Array(rows.prefix(100)), today: LargeListTests.today)
        #expect(!small.wantsIndexAhead, "a small list makes its index on the key, in milliseconds")
        let smallTook = small.adopt(prepared)
        #expect(!smallTook)
    }
}
