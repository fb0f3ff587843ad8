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
}
