import Foundation
import RigbookStore
import RigbookCore
import RigbookUI
import Testing
@testable import RigbookApp

/// Below 60 columns a form field's label sits on its own row, so labels and values are not cut short.
@Suite struct NarrowFormTests {
    @Test func labelsGetTheirOwnRowAt40Columns() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]), width: 40, height: 12)
        h.press(.char("i"), .backTab) // it opens on the inspector's name, the first field that needs the inspector
        #expect(h.line(containing: "▸ Inspection type") != nil, "\(h.screen.joined(separator: "\n"))")
        #expect(h.line(containing: "‹ Thorough examination (periodic) ›") != nil, "the choice is not cut")
        for _ in 0..<9 { h.press(.tab) }
        h.type("Sleeve abraded near the eye")
        #expect(h.line(containing: "▸ Notes") != nil, "\(h.screen.joined(separator: "\n"))")
        #expect(h.line(containing: "Sleeve abraded near the eye") != nil, "what is typed is in view")
        for line in h.screen { #expect(line.displayWidth == 40) }
    }

    @Test func eightyColumnsKeepLabelsBesideWidgets() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]))
        h.press(.char("i"))
        let line = try #require(h.line(containing: "Inspection type"))
        #expect(line.text.contains("‹ Thorough examination (periodic) ›"),
                "label and value on one row at 80 columns")
    }
}

/// A signal while the help page is open over a form still writes the draft.
@Suite struct FlushUnderHelpTests {
    @Test func flushReachesAFormUnderTheHelpPage() throws {
        let h = try FormHarness(profile: Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1"))
        h.press(.char("i"))
        h.focus(.notes)
        h.type("typed just before F1")
        h.press(.function(1))
        #expect(h.form == nil, "help is on top of the form")
        h.session.flushDrafts()
        #expect(try h.readDraft()?.values.notes == "typed just before F1")
    }
}
