import Foundation
import Testing
@testable import RigbookApp
@testable import RigbookCore
@testable import RigbookStore
@testable import RigbookUI

/// A large register's window where reads fail, where the screen is taller than the rows the window keeps, and where
/// the status columns were changed behind Rigbook's back: the program goes on answering keys and shows every asset
/// under the status its records give.
@Suite struct ListWindowHardeningTests {
    @Test func aWindowReadThatFailsIsNotAskedAgainAtOnce() throws {
        let h = try Harness(.sample(count: 5_000), width: 120, height: 30, listWindowFrom: 1)
        #expect(h.state.list.window != nil)
        var list = h.state.list
        list.top = 3_000
        list.selection = 3_000
        let page = ListState.pageSize(Rect(width: 120, height: 30))
        #expect(list.windowRequest(pageSize: page) != nil, "the screen is beyond the window")
        // The read the screen needs failed: asking it again at once, with nothing changed, failed again for ever.
        #expect(list.windowEffects(after: .failure("no such index"), alongside: [], pageSize: page).isEmpty)
        #expect(!list.windowEffects(after: .tick, alongside: [], pageSize: page).isEmpty, "the tick asks again")
    }

    @Test func aListWhoseReadsFailStillAnswersKeysAndComesBack() throws {
        let h = try Harness(.sample(count: 5_000), width: 120, height: 30, listWindowFrom: 1)
        let db = try Database(path: h.home.registerPath)
        try db.execute("DROP INDEX assets_in_list_order")
        h.advance(1.5)
        #expect(h.screen.joined(separator: "\n").contains("no such index"), "\(h.screen.joined(separator: "\n"))")
        // Every page beyond the rows read needs a read that fails: each key answers with the failure.
        for _ in 0..<40 { h.press(.pageDown) }
        h.press(.home)
        #expect(h.state.list.selection == 0)
        try db.execute("CREATE INDEX assets_in_list_order ON assets(tag, status_class, status_due, status_soon,"
                       + " status_remedy)")
        try ListWindowUITests.expectSameAsFullRead(h.afterLookingAround(), on: harnessToday)
    }

    @Test func aScreenTallerThanTheWindowKeepsPagesDown() throws {
        // 496 rows a page: more than the rows a window keeps beyond the screen's top.
        let h = try Harness(.sample(count: 5_000), width: 120, height: 500, listWindowFrom: 1)
        try ListWindowUITests.expectSameAsFullRead(h, on: harnessToday)
        var list = h.state.list
        let page = ListState.pageSize(Rect(width: 120, height: 500))
        list.top = 2_000
        list.selection = 2_000
        #expect(list.windowRequest(pageSize: page) != nil)
        // Reads as the loop does them: each one brings the window nearer the screen, none is trimmed off again.
        var reads = 0
        while let request = list.windowRequest(pageSize: page), reads < 10 {
            let rows = try h.register.listRows(on: request.today, statuses: request.statuses, counts: request.counts,
                                               from: request.anchor, backwards: request.backwards,
                                               limit: request.limit)
            list.receiveWindow(ListWindowPage(request: request, rows: rows), pageSize: page)
            reads += 1
        }
        #expect(reads < 10, "the window never came to hold the screen")
        #expect(list.holdsRow(visible: 2_000) && list.holdsRow(visible: 2_000 + page - 1))
    }

    @Test func statusColumnsChangedBehindRigbooksBackAreNotTrusted() throws {
        let h = try Harness(.sample(count: 5_000), width: 120, height: 60, listWindowFrom: 1)
        #expect(h.state.list.window != nil)
        let db = try Database(path: h.home.registerPath)
        try db.execute("DROP TRIGGER assets_statuses_are_derived")
        // A dangerous item out of every class: counted among the OK ones and never listed.
        try db.run("UPDATE assets SET status_class = NULL WHERE tag = (SELECT min(tag) FROM assets"
                   + " WHERE status_class = 2)")
        _ = h.afterLookingAround()
        #expect(h.state.list.window == nil, "the list reads every row")
        #expect(h.screen.joined(separator: "\n").contains("rigbook verify"), "\(h.screen.joined(separator: "\n"))")
        let expected = try ListWindowUITests.fullRead(h.register, on: harnessToday)
        h.press(.home)
        let walked = h.walkWholeList(maxPages: 2_000)
        let missing = Set(expected.tags).subtracting(walked.rows.map(\.tag)).sorted()
        let same = walked.rows.map(\.tag) == expected.tags
        #expect(same, "the list differs from a full read; missing: \(missing)")
        #expect(h.screen[1].hasPrefix(" " + expected.counts.prefix(20)), "\(h.screen[1]) \(expected.counts)")
    }
}
