import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

@Suite("Register.addAsset")
struct AddAssetTests {
    @Test("an asset reads back exactly, with an empty summary", arguments: [
        makeAsset(),
        Asset(tag: "仓库-7", name: "Shackle 3.25 t", type: .shackle, wllKg: 3250, lengthM: nil, location: "仓库 2",
              manufacturer: "", serialNumber: "", manufactured: day("2019-05-01"), commissioned: day("2019-06-01"),
              intervalMonths: 6, liftsPersons: true),
        // A longer interval set by an examination scheme: the reference reads back too.
        Asset(tag: "CB-0003", name: "Chain block 1 t", type: .chainBlock, wllKg: 1000, intervalMonths: 24,
              examinationScheme: "ES-2026-07, Acme Inspection Ltd"),
    ])
    func roundTrip(asset: Asset) throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try register.addAsset(asset)
            let row = try #require(try register.asset(tag: asset.tag))
            #expect(row.asset == asset)
            #expect(row.summary == .empty)
            #expect(try register.asset(uuid: asset.uuid) == row)
            #expect(try register.rows() == [row])
            try expectSummaryFollowsHistory(register, asset.uuid)
        }
    }

    @Test("a duplicate tag is refused, whatever its letter case", arguments: ["SL-0042", "sl-0042", "Sl-0042"])
    func duplicateTag(tag: String) throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try register.addAsset(makeAsset(tag: "SL-0042"))
            #expect(throws: RegisterError.duplicateTag(tag)) { try register.addAsset(makeAsset(tag: tag)) }
            #expect(try register.assetCount() == 1)
            #expect(try register.asset(tag: tag)?.asset.tag == "SL-0042")
            #expect(try register.rows().map(\.asset.tag) == ["SL-0042"])
        }
    }

    @Test("an invalid asset is refused with the reasons, and nothing is written")
    func invalidAsset() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            var zeroLoad = makeAsset(tag: "SL-0001"); zeroLoad.wllKg = 0
            var badInterval = makeAsset(tag: "SL-0002"); badInterval.intervalMonths = 61
            var emptyTag = makeAsset(tag: ""); emptyTag.name = " "
            var escape = makeAsset(tag: "SL-\u{1B}[2J")
            escape.location = "Bay\u{7}"
            for asset in [zeroLoad, badInterval, emptyTag, escape] {
                let error = #expect(throws: RegisterError.self) { try register.addAsset(asset) }
                guard case .invalidAsset(let problems) = error else {
                    Issue.record(
                        "expected .invalidAsset for \(asset.tag.debugDescription), got \(String(describing: error))")
                    continue
                }
                #expect(problems == asset.problems())
                #expect(!problems.isEmpty)
                #expect(error?.description.contains("\n") == false)
            }
            #expect(try register.assetCount() == 0)
        }
    }
}

@Suite("Sample data")
struct SampleDataTests {
    private struct Snapshot: Equatable {
        var rows: [RegisterRow]
        var recordsPerAsset: [Int]
        var recordCount: Int
        /// Record uuids too come from the seed.
        var recordUUIDs: [UUID]
        /// So do the electrical items' tests (their hashes also cover the assets' times of adding, which are not).
        var tests: [String]
    }

    private func snapshot(count: Int, seed: UInt64, today: CalendarDate = testToday) throws -> Snapshot {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            var progress: [Int] = []
            try SampleData(count: count, seed: seed, today: today).load(into: register) { progress.append($0) }
            #expect(progress.last == count)
            let rows = try register.rows()
            var uuids: [UUID] = []
            try register.forEachRecord { uuids.append($0.recordUUID) }
            #expect(Set(uuids).count == uuids.count)
            let tests = try rows.flatMap { row in
                try register.tests(assetUUID: row.asset.uuid).map { "\($0.testUUID) \($0.sessionID) \($0.passed)" }
            }
            return Snapshot(rows: rows,
                            recordsPerAsset: try rows.map { try register.history(assetUUID: $0.asset.uuid).count },
                            recordCount: try register.recordCount(), recordUUIDs: uuids, tests: tests)
        }
    }

    @Test("the same seed, count and day give the same register; another seed gives another")
    func deterministic() throws {
        let first = try snapshot(count: 200, seed: 7)
        let second = try snapshot(count: 200, seed: 7)
        #expect(first.rows.count == 200)
        #expect(first.rows.map(\.asset.tag) == second.rows.map(\.asset.tag))
        #expect(first.rows.map(\.summary) == second.rows.map(\.summary))
        #expect(first.recordsPerAsset == second.recordsPerAsset)
        #expect(first == second)

        let other = try snapshot(count: 200, seed: 8)
        #expect(other.rows.count == 200)
        #expect(other != first)
        #expect(other.rows.map(\.summary) != first.rows.map(\.summary) || other.recordsPerAsset != first.recordsPerAsset
                || other.rows.map(\.asset.tag) != first.rows.map(\.asset.tag))
    }

    @Test("about one asset in five is electrical: every class, tests through the gate, each story a newcomer meets")
    func electricalItems() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try SampleData(count: 200, seed: 42, today: testToday).load(into: register)
            let rows = try register.rows()
            #expect(rows.count == 200, "the count asked for is the total")
            let electrical = rows.filter(\.asset.isElectrical)
            #expect(electrical.count == 40)
            #expect(Set(electrical.compactMap { $0.asset.electrical?.equipmentClass }) == Set(ElectricalClass.allCases))
            #expect(Set(electrical.compactMap { $0.asset.electrical?.environment }).count >= 4)
            var statuses: [AssetStatus: Int] = [:]
            var tests: [StoredTest] = []
            for row in electrical {
                #expect(row.asset.problems().isEmpty, "\(row.asset.tag)")
                #expect(try register.history(assetUUID: row.asset.uuid).isEmpty, "no inspection records")
                let own = try register.tests(assetUUID: row.asset.uuid)
                tests += own
                statuses[row.status(on: testToday).status, default: 0] += 1
                // A test is the electrical item's examination: its last one is the list's LAST EXAM.
                #expect(row.summary.lastThoroughDate == own.first.flatMap { CalendarDate(iso: $0.values.testDate) })
                if let first = own.last { #expect(first.values.testType == .initial, "\(row.asset.tag)") }
            }
            #expect(tests.count == (try register.testCount()))
            #expect(tests.contains { $0.passed } && tests.contains { !$0.passed })
            #expect(tests.allSatisfy { $0.values.authenticated && !$0.verdicts.isEmpty })
            #expect(tests.filter { !$0.passed }.allSatisfy { !$0.values.notes.isEmpty })
            #expect(Set(tests.map(\.values.testType)).isSuperset(of: [.initial, .periodic]))
            for status in [AssetStatus.ok, .dueSoon, .overdue, .doNotUse, .untested] {
                #expect(statuses[status, default: 0] >= 1, "\(status): \(statuses)")
            }
            // Even five assets hold one electrical item, and it is the failed one.
            try withTemporaryDirectory { small in
                let five = try Register.open(path: registerPath(in: small))
                try SampleData(count: 5, seed: 42, today: testToday).load(into: five)
                let items = try five.rows().filter(\.asset.isElectrical)
                #expect(items.map { $0.status(on: testToday).status } == [.doNotUse])
                #expect(try five.assetCount() == 5)
            }
            #expect(try register.verifyChain().problem == nil, "tests are on the hash chain")
        }
    }

    @Test("every asset's stored summary is the fold of its history; 2 to 8 records per lifting asset on average")
    func summariesAndVolume() throws {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try SampleData(count: 300, seed: 1, today: testToday).load(into: register)
            let rows = try register.rows()
            #expect(rows.count == 300)
            #expect(Set(rows.map { $0.asset.tag.lowercased() }).count == 300)
            var records = 0
            var statuses = Set<AssetStatus>()
            for row in rows {
                #expect(row.asset.problems().isEmpty, "\(row.asset.tag)")
                let history = try register.history(assetUUID: row.asset.uuid)
                let tests = try register.tests(assetUUID: row.asset.uuid)
                records += history.count
                let folded = HistorySummary(history: history.map(\.facts) + tests.map(\.facts))
                #expect(row.summary == folded, "\(row.asset.tag)")
                #expect(row.summary.recordCount == history.count + tests.count)
                for record in history {
                    #expect(record.values.confirmed)
                    #expect(CalendarDate(iso: record.values.inspectionDate).map { $0 <= testToday } == true)
                }
                statuses.insert(row.status(on: testToday).status)
            }
            #expect(records == (try register.recordCount()))
            // A fifth of the assets are electrical, with tests instead of inspection records.
            let average = Double(records) / Double(rows.filter { !$0.asset.isElectrical }.count)
            #expect(average >= 2 && average <= 8, "average \(average) records per lifting asset")
            #expect(statuses.contains(.ok) && statuses.contains(.overdue) && statuses.count >= 4, "\(statuses)")
            // next_due columns agree with the status rules too.
            for row in rows.prefix(50) { try expectSummaryFollowsHistory(register, row.asset.uuid) }
        }
    }
}
