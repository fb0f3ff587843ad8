import Foundation
import Testing
import RigbookCore
@testable import RigbookUI

/// The list's row memo (`ListRowMemo`) may only ever save work: after any change, the list drawn with the memo
/// primed by the frames before must be exactly the list drawn from nothing. A stale row is a bug.
@Suite struct ListRowMemoTests {
    /// Draws `list` with its memos (kept across calls) and without, and expects the same cells, text and styles.
    private func expectSameAsFresh(_ list: ListState, width: Int = 80, height: Int = 24,
                                   _ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var memoised = Frame(width: width, height: height)
        ListView.draw(list, into: &memoised, area: memoised.bounds)
        var fresh = Frame(width: width, height: height)
        ListView.draw(list, into: &fresh, area: fresh.bounds, memoized: false)
        let drawn = memoised.lines.joined(separator: "\n"), expected = fresh.lines.joined(separator: "\n")
        #expect(memoised == fresh, "\(step): the memo drew\n\(drawn)\ninstead of\n\(expected)",
                sourceLocation: sourceLocation)
        #expect(memoised.cells == fresh.cells, "\(step): styles differ", sourceLocation: sourceLocation)
    }

    private func sampleList() throws -> ListState {
        let harness = try Harness(.sample(count: 60))
        return harness.state.list
    }

    @Test func movingAndScrollingDrawsWhatAFreshListDraws() throws {
        var list = try sampleList()
        expectSameAsFresh(list, "first frame")
        for step in 0..<45 {
            list.move(by: 1, pageSize: 20)
            expectSameAsFresh(list, "↓ \(step + 1)")
        }
        for step in 0..<45 {
            list.move(by: -1, pageSize: 20)
            expectSameAsFresh(list, "↑ \(step + 1)")
        }
        list.move(by: 40, pageSize: 20)
        expectSameAsFresh(list, "page down")
    }

    @Test func everyChangeOfWhatARowShowsRedrawsIt() throws {
        var list = try sampleList()
        expectSameAsFresh(list, "first frame")
        let shown = list.rows[list.rowIndex(visible: 2)]

        // Its asset's name, location and WLL (an edit from the asset editor or another terminal).
        var renamed = shown
        renamed.asset.name = "Renamed in another terminal"
        renamed.asset.location = "Bay 9"
        renamed.asset.wllKg += 500
        _ = list.update(renamed, today: harnessToday)
        expectSameAsFresh(list, "asset edited")
        #expect(list.rows.contains { $0.asset.name == "Renamed in another terminal" })

        // Its draft mark.
        var drafted = list.rows.first { $0.asset.uuid == shown.asset.uuid }!
        drafted.hasDraft.toggle()
        _ = list.update(drafted, today: harnessToday)
        expectSameAsFresh(list, "draft mark")

        // Its history: a new last examination, so a new status and due date.
        var examined = list.rows.first { $0.asset.uuid == shown.asset.uuid }!
        examined.summary.lastThoroughDate = harnessToday
        _ = list.update(examined, today: harnessToday)
        expectSameAsFresh(list, "examined today")

        // Marked for a batch, and unmarked.
        _ = list.marks.toggle(shown.asset.uuid)
        expectSameAsFresh(list, "marked")
        _ = list.marks.toggle(shown.asset.uuid)
        expectSameAsFresh(list, "unmarked")

        // Another day: every status worked out again.
        list.load(list.rows, today: harnessToday.addingDays(400))
        expectSameAsFresh(list, "a later day")

        // A filter, then none.
        list.setQuery("sl")
        expectSameAsFresh(list, "filtered")
        list.setQuery("")
        expectSameAsFresh(list, "filter cleared")

        // Another width: other columns.
        expectSameAsFresh(list, width: 132, "wide terminal")
        expectSameAsFresh(list, width: 50, "narrow terminal")
        expectSameAsFresh(list, "back to 80 columns")
    }

    @Test func aRenamedSiteRedrawsTheRowsOnIt() throws {
        var list = try sampleList()
        var particulars = list.particulars
        // A second site, so the list has a site column, and the first rows' assets on it.
        let employer = particulars.employers.keys.first!
        let site = Site(uuid: UUID(), employerUUID: employer, name: "Quay 2", address: "Dock road")
        particulars.sites[site.uuid] = site
        for index in 0..<5 {
            var asset = particulars.asset(list.rows[list.rowIndex(visible: index)].asset.uuid)
            asset.siteUUID = site.uuid
            particulars.assets[asset.assetUUID] = asset
        }
        list.setParticulars(particulars)
        expectSameAsFresh(list, width: 132, "two sites")
        particulars.sites[site.uuid]?.name = "Quay 3"
        list.setParticulars(particulars)
        expectSameAsFresh(list, width: 132, "site renamed")
    }
}
