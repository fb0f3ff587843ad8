import Foundation
import Synchronization
import Testing
@testable import RigbookApp
@testable import RigbookCore
@testable import RigbookStore
@testable import RigbookUI

/// A large register's list is read a window at a time (here from the first asset on, so a 5,000-asset sample is
/// one): walked page by page it shows the rows, order, counts and marks a full read shows, after writes from
/// elsewhere and on a new day.
@Suite struct ListWindowUITests {
    /// The list a full read gives on `today`: tags in attention order, and the counts.
    static func fullRead(_ register: Register, on today: CalendarDate) throws -> (tags: [String], counts: String) {
        let rows = try register.rows()
        let statuses = rows.map { $0.status(on: today).status }
        let tags = rows.indices.sorted { (statuses[$0], $0) < (statuses[$1], $1) }.map { rows[$0].asset.tag }
        var counts: [AssetStatus: Int] = [:]
        for status in statuses { counts[status, default: 0] += 1 }
        let line = AssetStatus.active.compactMap { status in counts[status].map { "\($0) \(status.label)" } }
        return (tags, line.joined(separator: "  "))
    }

    /// Walks the whole list from its top and checks it against a full read.
    static func expectSameAsFullRead(_ h: Harness, on today: CalendarDate,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(h.state.list.window != nil, "the list is a window", sourceLocation: sourceLocation)
        let expected = try fullRead(h.register, on: today)
        h.press(.home)
        let walked = h.walkWholeList(maxPages: 2_000)
        #expect(walked.rows.map(\.tag) == expected.tags, sourceLocation: sourceLocation)
        #expect(walked.misaligned.isEmpty, sourceLocation: sourceLocation)
        // The counts row shows as many as fit: each shown must be the full read's.
        let shown = h.screen[1].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " …", with: "")
        #expect(expected.counts.hasPrefix(shown), "counts \(shown) of \(expected.counts)",
                sourceLocation: sourceLocation)
        #expect(h.screen[0].contains("\(expected.tags.count) assets"), sourceLocation: sourceLocation)
        h.press(.end)
        #expect(h.shownRows.last?.tag == expected.tags.last, "End shows the last row", sourceLocation: sourceLocation)
        h.press(.home)
        #expect(h.shownRows.first?.tag == expected.tags.first, sourceLocation: sourceLocation)
    }

    @Test func aWalkThroughTheWindowIsTheFullList() throws {
        let h = try Harness(.sample(count: 5_000), width: 120, height: 60, listWindowFrom: 1)
        try Self.expectSameAsFullRead(h, on: harnessToday)
        // Back up a page at a time from the end: the window reads backwards.
        h.press(.end)
        var upwards: [String] = []
        for _ in 0..<2_000 {
            let tags = h.shownRows.map(\.tag).filter { !upwards.contains($0) }
            if tags.isEmpty { break }
            upwards = tags + upwards
            h.press(.pageUp)
        }
        #expect(upwards == (try Self.fullRead(h.register, on: harnessToday)).tags)
    }

    @Test func aSaveFromAnotherTerminalAnImportAndAMergeAppearInTheirPlaces() throws {
        let h = try Harness(.sample(count: 5_000), width: 120, height: 60, listWindowFrom: 1)
        let other = try Register.open(path: h.home.registerPath)
        let rows = try other.rows()
        let ok = try #require(rows.first { $0.status(on: harnessToday).status == .ok && !$0.asset.isElectrical })
        var failing = ok.asset
        failing.intervalMonths = 1
        try other.change(assetUUID: ok.asset.uuid, to: failing, reason: "Heavy use")
        try other.addAsset(Asset(tag: "AA-FIRST", name: "Imported hook", type: .hook, wllKg: 1000, intervalMonths: 6))
        try Self.expectSameAsFullRead(h.afterLookingAround(), on: harnessToday)

        let elsewhere = try Register.open(path: h.root.appendingPathComponent("elsewhere.sqlite").path)
        for number in 0..<25 {
            try elsewhere.addAsset(Asset(tag: "MG-\(number)", name: "Merged shackle", type: .shackle, wllKg: 500,
                                         commissioned: harnessToday.addingDays(-170 - number), intervalMonths: 6))
        }
        _ = try other.merge(from: elsewhere)
        try Self.expectSameAsFullRead(h.afterLookingAround(), on: harnessToday)
    }

    @Test func aNewDayMovesAssetsAcrossStatuses() throws {
        let day = Mutex(harnessToday)
        let h = try Harness(.sample(count: 5_000), width: 120, height: 60, calendar: { day.withLock { $0 } },
                            listWindowFrom: 1)
        let before = try Self.fullRead(h.register, on: harnessToday).counts
        let later = harnessToday.addingDays(20)
        day.withLock { $0 = later }
        try Self.expectSameAsFullRead(h.afterLookingAround(), on: later)
        #expect(try Self.fullRead(h.register, on: later).counts != before, "the new day moved some assets")
    }

    @Test func marksAndDashboardReadEveryRowAndComeBackToTheWindow() throws {
        let h = try Harness(.sample(count: 5_000), width: 120, height: 60, listWindowFrom: 1)
        let first = h.shownRows[0].tag
        h.press(.char("m"), .char("m"))
        h.press(.pageDown, .pageDown, .home)
        #expect(h.screen[3].hasPrefix(first + "•") || h.screen[3].contains("•"), "a mark survives the window's reads")
        #expect(h.screen[0].contains("2 marked"))
        h.press(.char("/"))
        h.type("ws0")
        h.settleSearchIndex()
        #expect(h.state.list.window?.filterAnswer != nil, "a filter runs over the register's index")
        let filtered = try h.expectedRows(matching: "ws0").count
        #expect(h.screen[0].contains("filter: \(filtered) shown"))
        h.press(.escape)
        #expect(h.state.list.window != nil, "the filter cleared, the list is a window again")
        h.press(.tab)
        #expect(h.screen.joined().contains("12 weeks") || h.state.screens.count == 1)
        h.press(.tab)
        #expect(h.state.list.window != nil)
        h.press(.char("*"))
        #expect(h.screen[0].contains("500 marked"), "* marks the first 500 shown, the batch's most")
        #expect(h.state.list.window != nil)
    }
}

extension ListWindowUITests {
    @Test func aSaveInTheWindowMovesTheAssetAndTheSelectionToTheNextToDo() throws {
        let profile = Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1")
        let h = try Harness(.sample(count: 5_000), width: 120, height: 60, profile: profile, listWindowFrom: 1)
        let list = h.state.list
        let start = try #require(list.window?.start)
        let index = try #require(list.rows.indices.first {
            list.reports[$0].status == .overdue && !list.rows[$0].asset.isElectrical
                && !list.rows[$0 + 1].asset.isElectrical && list.reports[$0 + 1].status == .overdue
        })
        let saved = list.rows[index].asset, next = list.rows[index + 1].asset
        for _ in 0..<(start + index) { h.press(.down) }
        #expect(h.state.list.selectedRow?.asset.uuid == saved.uuid)
        h.press(.char("i"), .function(2), .ctrl("s"))
        h.press(.char("y"))
        #expect(h.state.form == nil && h.state.screens.isEmpty, "\(h.screen.joined(separator: "\n"))")
        #expect(h.state.list.window != nil)
        #expect(h.state.list.selectedRow?.asset.uuid == next.uuid, "the worklist moves on to the next item")
        #expect(h.screen.contains { $0.contains(saved.tag) }, "the save is reported")
        try Self.expectSameAsFullRead(h, on: harnessToday)
    }
}

extension Harness {
    /// Lets the session look at the register (it does once a second) and returns the harness.
    func afterLookingAround() -> Harness {
        advance(1.5)
        return self
    }
}
