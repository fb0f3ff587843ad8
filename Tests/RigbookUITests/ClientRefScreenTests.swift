import Foundation
import Testing
@testable import RigbookApp
@testable import RigbookUI
import RigbookCore

/// The client ref (the owner's own plant number) on the screens: the filter finds an asset by it, and its
/// history screen shows it when it has one.
@Suite struct ClientRefScreenTests {
    private static func asset(_ tag: String, clientRef: String) -> Asset {
        var asset = makeAsset(tag: tag, name: "2 t web sling", intervalMonths: 6)
        asset.clientRef = clientRef
        return asset
    }

    @Test func theFilterFindsAnAssetByItsClientRef() throws {
        let h = try Harness(.assets([Self.asset("SL-1", clientRef: "P-4471"),
                                     Self.asset("SL-2", clientRef: "HIRE-0815"), Self.asset("SL-3", clientRef: "")]))
        for (query, tags) in [("p4471", ["SL-1"]), ("HIRE-08", ["SL-2"]), ("sling", ["SL-1", "SL-2", "SL-3"])] {
            h.press(.escape)
            h.press(.char("/"))
            h.type(query)
            h.press(.enter)
            #expect(Set(h.shownRows.map(\.tag)) == Set(tags), "\(query)\n\(h.dump)")
            #expect(Set(try h.expectedRows(matching: query).map(\.tag)) == Set(tags), "the harness's own reading")
        }
    }

    @Test func theHistoryScreenShowsItBesideTheSerialOnlyWhenThereIsOne() {
        func lines(_ asset: Asset) -> [String] {
            let state = HistoryState(row: RegisterRow(asset: asset, summary: .empty), records: [],
                                     today: CalendarDate(iso: "2026-11-30")!)
            var frame = Frame(width: 120, height: 12)
            state.draw(into: &frame, area: Rect(width: 120, height: 12))
            return frame.lines
        }
        let with = lines(Self.asset("SL-1", clientRef: "P-4471"))
        #expect(with[2].contains("· Serial — · Client ref P-4471"), "\(with[2])")
        #expect(!lines(Self.asset("SL-2", clientRef: "")).joined().contains("Client ref"))
        let electrical = Asset.electrical(tag: "TT-1", name: "Drill", particulars: ElectricalParticulars(
            equipmentClass: .classI, environment: .factory))
        var tagged = electrical
        tagged.clientRef = "HIRE-0815"
        #expect(lines(tagged)[1].contains("Every 6 months · Client ref HIRE-0815"), "\(lines(tagged))")
    }

    /// The add-asset form has it as its last field, and the editor changes it as any field, with a reason.
    @Test func theAssetFormAndEditorTakeIt() throws {
        let h = try Harness(.empty)
        AssetFormTests.typeNewAsset(h, tag: "SL-0042", name: "2 t web sling", wll: "2000")
        while (h.state.screens.last as? AssetFormState)?.focus != .clientRef { h.press(.tab) }
        #expect(h.line(containing: "▸ Client ref") != nil, "\(h.dump)")
        h.type("P-4471")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Added SL-0042") != nil, "\(h.dump)")
        #expect(try h.register.asset(tag: "SL-0042")?.asset.clientRef == "P-4471")

        h.press(.char("e"))
        while (h.state.screens.last as? AssetFormState)?.focus != .clientRef { h.press(.tab) }
        h.press(.ctrl("u"))
        h.type("HIRE-0815")
        for _ in 0..<3 { h.press(.tab) }              // in service, retired on, the reason
        h.type("owner's register renumbered")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Saved SL-0042") != nil, "\(h.dump)")
        #expect(try h.register.asset(tag: "SL-0042")?.asset.clientRef == "HIRE-0815")
    }
}
