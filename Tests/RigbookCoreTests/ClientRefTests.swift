import Foundation
import Testing
@testable import RigbookCore

/// The client ref (the owner's own plant number) as drafts, exports and imports carry it.
@Suite("The client ref in drafts, exports and imports")
struct ClientRefTests {
    static let today = CalendarDate(iso: "2026-11-30")!

    private func draft(clientRef: String) -> AssetDraft {
        var draft = AssetDraft()
        draft.tag = "SL-1"
        draft.name = "Web sling"
        draft.wllKg = "2000"
        draft.clientRef = clientRef
        return draft
    }

    @Test("a draft keeps it as typed in its JSON; a draft written before it reads as none")
    func draftJSON() throws {
        let typed = draft(clientRef: "P-4471")
        let data = try JSONEncoder().encode(typed)
        #expect(String(decoding: data, as: UTF8.self).contains("\"client_ref\":\"P-4471\""))
        #expect(try JSONDecoder().decode(AssetDraft.self, from: data) == typed)
        #expect(AssetDraft.jsonKeys.contains("client_ref"))
        let older = try JSONDecoder().decode(AssetDraft.self, from: Data(#"{"tag":"SL-1","name":"Web sling"}"#.utf8))
        #expect(older.clientRef == "" && older.tag == "SL-1")
        // The editor opens an asset with its client ref, so saving it keeps the one it has.
        var asset = sampleAsset()
        asset.clientRef = "HIRE-0815"
        #expect(AssetDraft(asset: asset).clientRef == "HIRE-0815")
    }

    @Test("validated trims it, for either kind; too long or with a control character it is refused by name")
    func validated() throws {
        #expect(try draft(clientRef: "  P-4471 ").validated(today: Self.today).get().clientRef == "P-4471")
        var electrical = draft(clientRef: " TT-7 ")
        electrical.kind = .electrical
        #expect(try electrical.validated(today: Self.today).get().clientRef == "TT-7")
        for bad in [String(repeating: "x", count: Asset.maxTextLength + 1), "P-\u{7}4471"] {
            guard case .failure(let problems) = draft(clientRef: bad).validated(today: Self.today) else {
                Issue.record("\(bad.debugDescription) was accepted")
                continue
            }
            #expect(problems.items.map(\.1).contains { $0.hasPrefix("The client ref ") }, "\(problems.items)")
        }
    }

    @Test("asset list and export have it as their last column: the text, or null when none")
    func exported() {
        var asset = sampleAsset()
        #expect(AssetListing.csvHeader.last == "client_ref")
        #expect(Array(AssetListing.csvHeader.dropLast()) == [
            "tag", "name", "type", "wll_kg", "length_m", "location", "manufacturer", "serial_number", "manufactured",
            "commissioned", "interval_months", "lifts_persons", "last_thorough_examination", "latest_result",
            "next_due", "remedy_deadline", "status", "uuid", "examination_scheme", "kind", "equipment_class",
            "environment", "risk", "interval_reason",
        ], "the columns before it as they were")
        let none = AssetListing(row: RegisterRow(asset: asset, summary: .empty), today: Self.today)
        #expect(none.json.contains("\"client_ref\":null") && none.csvFields.last == "", "\(none.json)")
        asset.clientRef = "P-4471"
        let some = AssetListing(row: RegisterRow(asset: asset, summary: .empty), today: Self.today)
        #expect(some.json.hasSuffix("\"client_ref\":\"P-4471\"}") && some.csvFields.last == "P-4471", "\(some.json)")
    }

    @Test("import reads it from a lifting row and an electrical row alike")
    func imported() throws {
        let text = "tag,name,type,wll_kg,kind,equipment_class,environment,client_ref\n"
            + "SL-1,Web sling,web-sling,2000,,,, P-4471\n"
            + "TT-1,Drill,,,electrical,class-1,factory,HIRE-0815\n"
            + "SL-2,Web sling,web-sling,2000,,,,\n"
        let rows = try AssetImport.parse(text, today: Self.today).get()
        #expect(rows.map(\.asset.clientRef) == ["P-4471", "HIRE-0815", ""])
        #expect(rows[1].asset.isElectrical)
        let bad = "tag,name,type,wll_kg,client_ref\nSL-1,Web sling,web-sling,2000,P-\u{7}1\n"
        guard case .failure(let problems) = AssetImport.parse(bad, today: Self.today) else {
            Issue.record("a control character was imported")
            return
        }
        #expect(problems.items.map(\.description).contains { $0.contains("The client ref holds control") })
    }
}
