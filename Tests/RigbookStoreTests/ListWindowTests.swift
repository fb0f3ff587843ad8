import Foundation
import Testing
@testable import RigbookCore
@testable import RigbookStore

/// The list read a window at a time from the status columns gives what a full read sorted by `StatusRules` gives:
/// the same rows in the same order, the same counts and each row's place, on any day and after any kind of write.
@Suite struct ListWindowTests {
    static let sampleDay = CalendarDate(iso: "2026-11-30")!

    /// A 5,000-asset sample with every status: retired, quarantined (deadline open and passed), withdrawn, failed,
    /// remedy deadlines, and intervals changed after the records that set the due dates.
    static func withEveryStatus<T>(_ body: (Register, URL) throws -> T) throws -> T {
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            try SampleData(count: 5_000, seed: 11, today: sampleDay).load(into: register)
            let rows = try register.rows()
            for row in rows.prefix(40) {
                try register.retire(assetUUID: row.asset.uuid, as: .scrapped, on: sampleDay, reason: "Worn out")
            }
            for (offset, row) in rows.dropFirst(40).prefix(30).enumerated() where !row.asset.isElectrical {
                var values = remedyValues(on: "2026-11-20", deadline: offset % 2 == 0 ? "2026-12-10" : "2026-11-25")
                values.action = .quarantine
                try register.insert(try validated(values, for: row.asset, today: sampleDay), saved: testStamp)
            }
            for row in rows.dropFirst(70).prefix(60) where !row.asset.isElectrical {
                var edited = row.asset
                edited.intervalMonths = row.asset.intervalMonths == 3 ? 12 : 3
                try register.change(assetUUID: row.asset.uuid, to: edited, reason: "Scheme changed")
            }
            return try body(register, folder)
        }
    }

    /// Checks the windowed reads against a full read on `today`.
    static func expectSameList(_ register: Register, on today: CalendarDate, includingRetired: Bool = false,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let full = try register.rows(includingRetired: includingRetired)
        let statusOf = full.map { $0.status(on: today).status }
        let order = full.indices.sorted { (statusOf[$0], $0) < (statusOf[$1], $1) }
        let expected = order.map { full[$0].asset.uuid }
        var expectedCounts: [AssetStatus: Int] = [:]
        for status in AssetStatus.allCases where status != .retired || includingRetired { expectedCounts[status] = 0 }
        for status in statusOf { expectedCounts[status, default: 0] += 1 }
        let counts = try register.statusCounts(on: today, includingRetired: includingRetired)
        #expect(counts == expectedCounts, "counts on \(today.iso)", sourceLocation: sourceLocation)
        let statuses = includingRetired ? AssetStatus.allCases : AssetStatus.active

        func anchor(_ row: RegisterRow) -> ListAnchor { ListAnchor(status: row.status(on: today).status,
                                                                    tag: row.asset.tag) }
        var forwards: [RegisterRow] = []
        while true {
            let page = try register.listRows(on: today, statuses: statuses, counts: counts,
                                             from: forwards.last.map(anchor), limit: 97)
            forwards += page
            if page.count < 97 { break }
        }
        #expect(forwards.map(\.asset.uuid) == expected, "forwards on \(today.iso)", sourceLocation: sourceLocation)
        var backwards: [RegisterRow] = []
        while true {
            let page = try register.listRows(on: today, statuses: statuses, counts: counts,
                                             from: backwards.first.map(anchor), backwards: true, limit: 89)
            backwards = page + backwards
            if page.count < 89 { break }
        }
        #expect(backwards.map(\.asset.uuid) == expected, "backwards on \(today.iso)", sourceLocation: sourceLocation)
        for position in stride(from: 0, to: expected.count, by: max(1, expected.count / 40)) {
            #expect(try register.listPosition(of: expected[position], on: today, statuses: statuses,
                                              counts: counts) == position,
                    "place of row \(position) on \(today.iso)", sourceLocation: sourceLocation)
        }
    }

    @Test func everyStatusOnDaysAcrossItsBoundaries() throws {
        try Self.withEveryStatus { register, _ in
            let days = [-400, -31, 0, 1, 9, 11, 26, 30, 31, 45, 92, 200, 370, 800]
                .map { Self.sampleDay.addingDays($0) }
            var seen = Set<AssetStatus>()
            for today in days {
                try Self.expectSameList(register, on: today)
                seen.formUnion(try register.statusCounts(on: today).filter { $0.value > 0 }.keys)
            }
            try Self.expectSameList(register, on: Self.sampleDay, includingRetired: true)
            #expect(seen == Set(AssetStatus.active), "every status is met on some day")
        }
    }

    @Test func followsASaveFromAnotherConnectionAndAnImport() throws {
        try Self.withEveryStatus { register, folder in
            let other = try Register.open(path: registerPath(in: folder))
            let rows = try other.rows()
            let ok = try #require(rows.first { $0.status(on: Self.sampleDay).status == .ok && !$0.asset.isElectrical })
            try other.insert(try validated(failingValues(on: "2026-11-29"), for: ok.asset, today: Self.sampleDay),
                             saved: testStamp)
            let file = "tag,name,type,wll_kg,length_m,location,interval_months,lifts_persons,status,uuid\n"
                + "ZZ-NEW-1,Imported sling,web-sling,2000,,,6,,,\nAA-NEW-2,Imported hook,hook,500,,,6,yes,,\n"
            #expect(try other.importAssets(try AssetImport.parse(file, today: Self.sampleDay).get()) == 2)
            try Self.expectSameList(register, on: Self.sampleDay)
        }
    }

    @Test func followsAMerge() throws {
        try Self.withEveryStatus { register, folder in
            let otherFolder = folder.appendingPathComponent("other")
            let other = try Register.open(path: registerPath(in: otherFolder))
            for number in 0..<30 {
                let asset = makeAsset(tag: "MG-\(number)", commissioned: number % 3 == 0 ? nil : "2025-12-0\(number % 9 + 1)",
                                      intervalMonths: number % 2 == 0 ? 6 : 12)
                try other.addAsset(asset)
                if number % 5 == 1 {
                    try other.insert(try validated(failingValues(on: "2026-11-28"), for: asset, today: Self.sampleDay),
                                     saved: testStamp)
                }
            }
            _ = try register.merge(from: other)
            #expect(try register.assetCount() == 5_030)
            try Self.expectSameList(register, on: Self.sampleDay)
            try Self.expectSameList(register, on: Self.sampleDay.addingDays(60))
        }
    }

    @Test func followsASyncPull() throws {
        let url = try newServer()
        try Self.withEveryStatus { register, folder in
            _ = try register.sync(url: url)
            let replica = try Register.open(path: folder.appendingPathComponent("replica.sqlite").path)
            _ = try replica.sync(url: url)
            #expect(try replica.assetCount() == (try register.assetCount()))
            try Self.expectSameList(replica, on: Self.sampleDay)
            try Self.expectSameList(replica, on: Self.sampleDay.addingDays(31), includingRetired: true)
        }
    }

    @Test func verifyFindsAStatusColumnForgedBehindTheTriggers() throws {
        try Self.withEveryStatus { register, _ in
            #expect(try register.verifyChain().problems.isEmpty)
            let db = try Database(path: register.path)
            try db.execute("DROP TRIGGER assets_statuses_are_derived")
            try db.run("UPDATE assets SET status_class = 6 WHERE tag = (SELECT min(tag) FROM assets"
                       + " WHERE status_class = 2)")
            let problems = try register.verifyChain().problems
            #expect(problems.count == 1 && problems.first?.contains("changed behind Rigbook's back") == true,
                    "\(problems)")
        }
    }

    @Test func aStatusColumnCannotBeSetByHand() throws {
        try Self.withEveryStatus { register, _ in
            let db = try Database(path: register.path)
            #expect(throws: DatabaseError.self) {
                try db.run("UPDATE assets SET status_class = 6 WHERE status_class = 2")
            }
            #expect(throws: DatabaseError.self) {
                try db.run("UPDATE assets SET status_due = '2099-01-01' WHERE status_class = 6")
            }
        }
    }
}
