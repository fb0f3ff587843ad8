import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// Many rows are read through `rigbook_row` (the first frame reads three million columns at 100,000
/// assets): each row's columns arrive as the function's arguments. What arrives must be what the statement's own
/// columns hold, for every kind of row.
@Suite("Rows read through rigbook_row")
struct RowFunctionTests {
    /// A sample register (every status, records behind them) with an electrical asset, a retired one and a tag
    /// outside ASCII beside it.
    static func withMixedRegister(_ body: (Register) throws -> Void) throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let today = CalendarDate(iso: "2026-11-30")!
            try SampleData(count: 60, seed: 7, today: today).load(into: register)
            try register.addAsset(Asset.electrical(
                tag: "TT-0001", name: "Drill charger", site: "North Quay",
                particulars: ElectricalParticulars(equipmentClass: .classI, environment: .construction),
                commissioned: CalendarDate(iso: "2026-01-10")))
            try register.addAsset(makeAsset(tag: "仓-Ä-01", location: "Lager Süd"))
            let retiring = makeAsset(tag: "SL-RETIRED")
            try register.addAsset(retiring)
            _ = try register.retire(assetUUID: retiring.uuid, as: .scrapped, on: today, reason: "cut up")
            try body(register)
        }
    }

    @Test("every row, retired or not, equals the same row read column by column from the statement")
    func sameAsStatement() throws {
        try Self.withMixedRegister { register in
            let statement = try register.db.prepare("SELECT \(AssetColumns.select) FROM assets ORDER BY tag")
            var expected: [RegisterRow] = []
            while try statement.step() { expected.append(AssetColumns.row(statement)) }
            #expect(expected.count == 63)
            #expect(expected.contains { $0.asset.isElectrical } && expected.contains { $0.asset.retiredOn != nil })
            #expect(try register.rows(includingRetired: true) == expected)
            #expect(try register.rows() == expected.filter { $0.asset.retiredOn == nil })
            var streamed: [RegisterRow] = []
            try register.forEachRow(includingRetired: true) { streamed.append($0); return true }
            #expect(streamed == expected)
        }
    }

    @Test("a read stops when its body says so, and a read inside a read hands the rows back after it")
    func stopsAndNests() throws {
        try Self.withMixedRegister { register in
            let db = register.db
            let sql = "SELECT \(AssetColumns.selectThroughFunction) FROM assets ORDER BY tag"
            let innerStatement = try db.prepare(sql)
            var outer: [String] = [], innerCounts: [Int] = [], innerError: Error?
            try db.eachRow(try db.prepare(sql)) { columns in
                outer.append(AssetColumns.row(columns).asset.tag)
                if outer.count == 2 {
                    var inner = 0
                    do {
                        try db.eachRow(innerStatement) { _ in inner += 1; return inner < 5 }
                    } catch {
                        innerError = error
                    }
                    innerCounts.append(inner)
                }
                return outer.count < 4
            }
            #expect(innerError == nil)
            #expect(innerCounts == [5])
            let all = try register.rows(includingRetired: true).map(\.asset.tag)
            #expect(outer == Array(all.prefix(4)))
        }
    }

    @Test("outside a read the function does nothing and gives NULL")
    func outsideARead() throws {
        try Self.withMixedRegister { register in
            let result = try register.db.scalar("SELECT rigbook_row(1, 'a')")
            #expect(result == .null)
        }
    }

    /// The second: upper and lower case of one letter outside ASCII, so the tag keys (folded) sort otherwise than
    /// the tags (NOCASE folds ASCII alone): the middle key leaves the lower half half as large again as its room.
    @Test("a register large enough to be read in two halves reads as one pass over it does", arguments: [
        "CASE WHEN i % 4 = 0 THEN 'Ä-' ELSE 'SL-' END", "CASE WHEN i % 2 = 0 THEN 'é-' ELSE 'É-' END",
    ])
    func halvesOfALargeRegister(prefix: String) throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            // Made in SQL (the sample's 20,000 assets take half a minute in a debug build); a date, a result and a
            // place in some rows only.
            try register.db.execute("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
                INSERT INTO assets (tag, tag_key, uuid, name, type, wll_kg, location, interval_months, lifts_persons,
                                    created_at, last_thorough_date, latest_result, record_count)
                SELECT t, rigbook_tag_key(t), printf('%08X-0000-4000-8000-%012X', i, i), 'Sling ' || i, 'web-sling',
                       1000 + i % 7, CASE WHEN i % 3 = 0 THEN 'Bay ' || i % 9 ELSE '' END, 12, i % 2,
                       '2026-01-01T00:00:00Z', CASE WHEN i % 5 = 0 THEN NULL ELSE '2026-0' || (1 + i % 9) || '-15' END,
                       CASE WHEN i % 5 = 0 THEN NULL ELSE 'pass' END, i % 5
                FROM (SELECT i, \(prefix) || printf('%05d', i) AS t FROM n)
                """)
            #expect(try register.assetCount() == 20_000)
            let statement = try register.db.prepare("SELECT \(AssetColumns.select) FROM assets ORDER BY tag")
            var expected: [RegisterRow] = []
            while try statement.step() { expected.append(AssetColumns.row(statement)) }
            let rows = try register.rows(includingRetired: true)
            #expect(rows.count == expected.count)
            #expect(rows == expected)
        }
    }
}
