import Foundation
import RigbookCore
import RigbookStore
import RigbookUI
import Testing
@testable import RigbookApp

/// `e` on the list: the asset editor, its draft, its exit guard, retiring, history.
@Suite struct AssetEditorTests {
    static let sling = makeAsset(tag: "SL-0042", name: "2 t sling", location: "Bay 4", commissioned: "2026-06-01",
                                 intervalMonths: 6)

    /// The editor open on SL-0042, the focus moved `tabs` fields on.
    private func openEditor(_ h: Harness, tabs: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) {
        h.press(.char("e"), sourceLocation: sourceLocation)
        #expect(h.line(containing: "Edit SL-0042") != nil, "\(h.dump)", sourceLocation: sourceLocation)
        for _ in 0..<tabs { h.press(.tab, sourceLocation: sourceLocation) }
    }

    /// Moves from field `index` (the tag is 0) on to the reason, the last field, and types it.
    private func typeReason(_ h: Harness, from index: Int, _ reason: String) {
        for _ in index..<16 { h.press(.tab) }
        h.type(reason)
    }

    private var draftPath: (Harness) -> String {
        { $0.home.draftsFolder + "/" + DraftIdentity.assetDraftID(assetUUID: Self.sling.uuid) + ".json" }
    }

    @Test func movingASlingKeepsTheChangeInItsHistory() throws {
        let h = try Harness(.assets([Self.sling]))
        openEditor(h, tabs: 5)                      // location
        h.press(.ctrl("u"))
        h.type("Site B, bay 2")
        typeReason(h, from: 5, "moved to site B")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Saved SL-0042: location Bay 4 → Site B, bay 2.") != nil, "\(h.dump)")
        #expect(try h.register.asset(uuid: Self.sling.uuid)?.asset.location == "Site B, bay 2")
        #expect(h.line(containing: "Site B") != nil, "the list shows the new location")
        h.press(.enter)
        #expect(h.line(containing: "changed location Bay 4 → Site B, bay 2 — moved to site B") != nil, "\(h.dump)")
        #expect(!FileManager.default.fileExists(atPath: draftPath(h)), "saved: no draft left")
    }

    @Test func aChangeOfIntervalSaysWhereTheDueDateMovesBeforeItIsSaved() throws {
        let h = try Harness(.assets([Self.sling]))
        openEditor(h, tabs: 10)                     // interval
        h.press(.ctrl("u"))
        h.type("3")
        #expect(h.line(containing: "If saved: the next thorough examination moves to 2026-09-01 (now 2026-12-01)")
                != nil, "\(h.dump)")
    }

    @Test func anElectricalItemRetaggedToALookAlikeIsRefusedNamingTheTagHeld() throws {
        // Never tested and not commissioned: UNTESTED, the first row, above the lifting asset (OK).
        let drill = Asset.electrical(tag: "TT-0002", name: "Drill", site: "Workshop",
                                     particulars: ElectricalParticulars(equipmentClass: .classI, environment: .factory))
        let h = try Harness(.assets([makeAsset(tag: "TT-0001", name: "Sling"), drill]))
        h.press(.char("e"))
        #expect(h.line(containing: "Edit TT-0002") != nil, "\(h.dump)")
        h.press(.ctrl("u"))
        h.type("\u{422}\u{422}-0001")                  // Cyrillic Т: reads as TT-0001
        for _ in 0..<12 { h.press(.tab) }             // on to the reason, an electrical item's 13th field
        h.type("relabelled")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "looks like TT-0001, already in the register") != nil, "\(h.dump)")
        #expect(try h.register.asset(uuid: drill.uuid)?.asset.tag == "TT-0002")
    }

    @Test func aChangeWithoutAReasonIsRefusedUnderTheReason() throws {
        let h = try Harness(.assets([Self.sling]))
        openEditor(h, tabs: 3)                      // WLL
        h.press(.ctrl("u"))
        h.type("2500")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Not saved: 1 problem") != nil, "\(h.dump)")
        #expect(h.line(containing: "Say why the asset changes") != nil)
        #expect(try h.register.assetChanges(assetUUID: Self.sling.uuid).isEmpty)
    }

    @Test func whatWasTypedIsADraftKeptOnCloseAndOfferedBack() throws {
        let h = try Harness(.assets([Self.sling]))
        openEditor(h, tabs: 1)                      // name
        h.type(" (blue)")
        #expect(!FileManager.default.fileExists(atPath: draftPath(h)))
        h.advance(0.6)
        #expect(FileManager.default.fileExists(atPath: draftPath(h)), "written 500 ms after the last key")
        let file = try #require(try DraftStore(home: h.home)
                                    .read(id: DraftIdentity.assetDraftID(assetUUID: Self.sling.uuid)))
        #expect(file.formKind == "asset" && file.assetValues?.name == "2 t sling (blue)" && file.focusedField == "name")
        h.press(.escape)
        #expect(h.line(containing: "Leave these changes?") != nil)
        h.press(.char("c"))
        #expect(h.line(containing: "Kept the draft of the changes to SL-0042") != nil, "\(h.dump)")
        #expect(h.line(containing: "SL-0042✎") != nil, "the list marks the asset's draft")
        h.press(.char("e"))
        #expect(h.line(containing: "Unsubmitted draft for SL-0042") != nil, "\(h.dump)")
        #expect(h.line(containing: "Name / description: “2 t sling (blue)”") != nil, "\(h.dump)")
        h.press(.char("r"))
        #expect(h.line(containing: "2 t sling (blue)") != nil)
        h.press(.ctrl("u"))
        h.type("2 t sling")                          // back to what the asset holds: the draft goes
        h.advance(0.6)
        #expect(!FileManager.default.fileExists(atPath: draftPath(h)), "undone: no draft")
        h.press(.escape)
        #expect(h.line(containing: "Edit SL-0042") == nil, "nothing changed: closes at once")
    }

    @Test func aDraftIsFlushedWhenTheTerminalGoesAway() throws {
        let h = try Harness(.assets([Self.sling]))
        openEditor(h, tabs: 7)                      // serial
        h.type("SN-77")
        h.session.flushDrafts()
        let file = try DraftStore(home: h.home).read(id: DraftIdentity.assetDraftID(assetUUID: Self.sling.uuid))
        #expect(file?.assetValues?.serialNumber == "SN-77")
    }

    @Test func retiringFromTheEditorTakesTheAssetOffTheListAndRShowsIt() throws {
        let h = try Harness(.assets([Self.sling, makeAsset(tag: "SL-0043", name: "other", intervalMonths: 6)]))
        h.press(.char("j"), .char("k"))
        h.press(.char("/"))
        h.type("SL-0042")
        h.press(.enter)
        openEditor(h, tabs: 14)                     // in service
        h.press(.right, .right, .right, .right)     // disposed of, lost, sold, scrapped
        #expect(h.line(containing: "Retired: scrapped") != nil, "\(h.dump)")
        #expect(h.line(containing: harnessToday.iso) != nil, "dated today unless typed")
        #expect(h.line(containing: "If saved: RETIRED (scrapped)") != nil)
        h.press(.tab, .tab)
        h.type("cut through")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Saved SL-0042") != nil, "\(h.dump)")
        h.press(.escape)                            // clear the filter
        #expect(h.shownRows.map(\.tag) == ["SL-0043"], "\(h.dump)")
        h.press(.char("R"))
        #expect(h.shownRows.map(\.tag) == ["SL-0043", "SL-0042"], "\(h.dump)")
        #expect(h.shownRows.last?.status == .retired)
        #expect(try h.register.history(assetUUID: Self.sling.uuid).isEmpty && true)
    }

    @Test func anEditorKilledMidTypingLosesNothingItRead() throws {
        let h = try Harness(.assets([Self.sling]))
        openEditor(h, tabs: 1)                      // name
        h.type(" (blue)")                           // no time passes: no draft file yet, only the journal
        #expect(!FileManager.default.fileExists(atPath: draftPath(h)))
        h.session.releaseLock(DraftIdentity.assetDraftID(assetUUID: Self.sling.uuid))  // kill -9
        let later = try Harness(sharingHomeOf: h)
        #expect(later.line(containing: "SL-0042✎") != nil, "start-up folded the journal into a draft: \(later.dump)")
        later.press(.char("e"))
        #expect(later.line(containing: "Name / description: “2 t sling (blue)”") != nil, "\(later.dump)")
    }

    @Test func aSecondSessionIsToldWhoIsEditing() throws {
        let h = try Harness(.assets([Self.sling]))
        openEditor(h)
        let other = try Harness(sharingHomeOf: h)
        other.press(.char("e"))
        #expect(other.line(containing: "is being edited in another session") != nil, "\(other.dump)")
    }
}

/// Hostile testing: the editor's save said `disposition — → disposed_of`, the stored spelling.
extension AssetEditorTests {
    @Test func theSaveMessageWordsADispositionAsEverywhereElse() throws {
        let h = try Harness(.assets([Self.sling]))
        openEditor(h, tabs: 14)                     // in service
        h.press(.right)                             // disposed of
        h.press(.tab, .tab)
        h.type("sold for scrap")
        h.press(.ctrl("s"))
        #expect(h.flatScreen.contains("disposition — → disposed of"), "\(h.dump)")
        #expect(!h.flatScreen.contains("disposed_of"), "\(h.dump)")
    }
}
