import Foundation
import Testing
@testable import RigbookUI
import RigbookCore

/// Found by hostile testing at 40×12: a question's buttons were cut off (Discard could be chosen without
/// being seen) and the dashboard left old text in its footer row.
@Suite struct NarrowScreenTests {
    @Test func aQuestionAt40ColumnsShowsEveryOption() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]), width: 40, height: 12)
        h.openFormOnInspectorName()
        h.type("typed")
        h.press(.escape)
        for option in ["[ Keep editing ]", "[ Close and keep draft ]", "[ Discard ]"] {
            #expect(h.line(containing: option) != nil, "\(option) is not on screen:\n\(h.dump)")
        }
        h.press(.right, .right)
        let discard = try #require(h.line(containing: "[ Discard ]"))
        let x = try #require(h.frame.column(of: "[ Discard ]", y: discard.y))
        #expect(h.frame[x, discard.y].style.reverse, "the chosen option is the one shown reversed")
        for line in h.screen { #expect(line.displayWidth == 40) }
    }

    @Test func theDashboardAt40x12KeepsItsFooterClean() throws {
        let h = try Harness(.sample(count: 30), width: 40, height: 12)
        h.press(.tab)
        let footer = h.screen[11].trimmingCharacters(in: .whitespaces)
        #expect(footer == DashboardState.keymap.footer(width: 40), "\(h.dump)")
    }
}
