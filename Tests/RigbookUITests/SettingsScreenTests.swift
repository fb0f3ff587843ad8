import Foundation
import Testing
@testable import RigbookUI
import RigbookStore
import RigbookCore

/// The Settings screen (`,` on the list) and the editors it opens: the register's particulars, each change a
/// new version in the register.
@Suite struct SettingsScreenTests {
    /// A register with one asset, and the harness's particulars (organisation, employer, its main site).
    private func harness(width: Int = 80, height: Int = 24) throws -> Harness {
        try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]), width: width, height: height)
    }

    private var settings: (Harness) -> SettingsState? { { $0.state.screens.last as? SettingsState } }
    private var editor: (Harness) -> ParticularEditorState? { { $0.state.screens.last as? ParticularEditorState } }

    @Test func commaOpensTheParticularsInSections() throws {
        let h = try harness()
        h.press(.char(","))
        #expect(h.screen[0].contains("Settings"), "\(h.dump)")
        for text in ["EXAMINING ORGANISATION", "Test Examinations Ltd — 1 Test Street, Testby",
                     "EMPLOYERS AND THEIR SITES", "Test Quay Ltd (main) — Quay Office, Harbour Road, Testport",
                     "Main site (main) — Harbour Road, Testport", "+ add a site for Test Quay Ltd",
                     "+ add an employer", "EXAMINERS", "+ add an examiner"] {
            #expect(h.line(containing: text) != nil, "\(text)\n\(h.dump)")
        }
        // The site sits under its employer, indented.
        let employer = try #require(h.line(containing: "Test Quay Ltd (main)"))
        let site = try #require(h.line(containing: "Main site (main)"))
        #expect(site.y == employer.y + 1)
        #expect(h.frame.column(of: "Main site", y: site.y)! > h.frame.column(of: "Test Quay Ltd", y: employer.y)!)
        #expect(h.screen[23].trimmingCharacters(in: .whitespaces) == SettingsState.keymap.footer(width: 80))
        // The details of the selected item, under the list.
        #expect(h.line(containing: "Name: Test Examinations Ltd") != nil, "\(h.dump)")
        h.press(.escape)
        #expect(h.state.screens.isEmpty, "Esc goes back to the list")
    }

    @Test func renamingTheEmployerAndGivingAnAddressOfSeveralLinesKeepsAVersion() throws {
        let h = try harness()
        h.press(.char(","), .char("j"), .enter)
        #expect(h.screen[0].contains("Employer · Test Quay Ltd"), "\(h.dump)")
        h.press(.ctrl("u"))
        h.type("Harbour Lifting Ltd")
        h.press(.tab, .ctrl("u"))
        h.type("Quay Office")
        h.press(.enter)
        h.type("Harbour Road")
        h.press(.enter)
        h.type("Testport TP1 1AA")
        #expect(h.screen[0].contains("changed"), "the title says there is something to save")
        h.press(.ctrl("s"))
        #expect(settings(h) != nil, "saved: back on Settings\n\(h.dump)")
        #expect(h.line(containing: "Saved Employer Harbour Lifting Ltd.") != nil, "\(h.dump)")
        #expect(h.line(containing: "Harbour Lifting Ltd (main) — Quay Office, Harbour Road, Testport TP1 1AA") != nil,
                "\(h.dump)")
        let employer = try #require(try h.register.particulars().employers[Particulars.mainEmployerUUID])
        #expect(employer.name == "Harbour Lifting Ltd")
        #expect(employer.address == "Quay Office\nHarbour Road\nTestport TP1 1AA")
        // Append-only: the migration's version, the harness's, and this one.
        let versions = try h.register.particularsHistory(subject: Particulars.mainEmployerUUID)
        #expect(versions.count == 3)
        #expect(versions.last?.operatorName == SystemIdentity.userName)
        // The details show the address line by line.
        #expect(h.line(containing: "Address: Quay Office") != nil, "\(h.dump)")
        let second = try #require(h.lines(containing: "Harbour Road").last)
        #expect(h.screen[second].hasPrefix("          Harbour Road"), "\(h.dump)")
    }

    @Test func addingAnEmployerASiteOfItAndAnExaminer() throws {
        let h = try harness()
        h.press(.char(","), .char("e"))
        #expect(h.screen[0].contains("New employer"), "\(h.dump)")
        h.type("Bolt Hire Ltd")
        h.press(.tab)
        h.type("Unit 4, Dock Lane")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Bolt Hire Ltd — Unit 4, Dock Lane") != nil, "\(h.dump)")
        #expect(settings(h)?.selectedRow == .employer(try #require(
            try h.register.particulars().employerList.first { $0.name == "Bolt Hire Ltd" }?.uuid)),
                "the selection follows what was added")
        // s adds a site to the selected employer; the employer can still be changed with ← →.
        h.press(.char("s"))
        #expect(h.screen[0].contains("New site of Bolt Hire Ltd"), "\(h.dump)")
        h.type("Depot")
        h.press(.tab)
        #expect(h.line(containing: "‹ Bolt Hire Ltd ›") != nil, "\(h.dump)")
        h.press(.tab)
        h.type("Dock Lane, Testport")
        h.press(.ctrl("s"))
        let particulars = try h.register.particulars()
        let depot = try #require(particulars.siteList.first { $0.name == "Depot" })
        #expect(particulars.employers[depot.employerUUID]?.name == "Bolt Hire Ltd")
        #expect(depot.address == "Dock Lane, Testport")
        let bolt = try #require(h.line(containing: "Bolt Hire Ltd — "))
        #expect(h.line(containing: "Depot — Dock Lane, Testport")?.y == bolt.y + 1, "\(h.dump)")
        // x adds an examiner; Space makes them self-employed.
        h.press(.char("x"))
        h.type("Ann Smith")
        h.press(.tab)
        h.type("LEEA 12345")
        h.press(.tab, .char(" "), .tab)
        h.type("3 Crane Row")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Ann Smith — LEEA 12345 · self-employed, 3 Crane Row") != nil, "\(h.dump)")
        let ann = try #require(try h.register.particulars().examiner(named: "ann smith"))
        #expect(ann.selfEmployed && ann.qualification == "LEEA 12345" && ann.address == "3 Crane Row")
    }

    @Test func aRefusedSaveSaysWhyUnderTheFieldAndKeepsWhatWasTyped() throws {
        let h = try harness()
        h.press(.char(","), .char("x"), .tab)
        h.type("LEEA 999")
        h.press(.ctrl("s"))
        #expect(editor(h) != nil, "still editing\n\(h.dump)")
        #expect(h.line(containing: "⚠ An examiner needs a name.") != nil, "\(h.dump)")
        #expect(h.line(containing: "Not saved: 1 problem (marked ⚠).") != nil, "\(h.dump)")
        #expect(editor(h)?.focus == .name, "the focus goes to the field concerned")
        #expect(h.line(containing: "LEEA 999") != nil, "what was typed is still there")
        #expect(try h.register.particulars().examiners.isEmpty)
        h.type("Bo")
        #expect(h.line(containing: "needs a name") == nil, "a problem goes once it is fixed")
        h.press(.ctrl("s"))
        #expect(try h.register.particulars().examiner(named: "Bo")?.qualification == "LEEA 999")
    }

    @Test func aNameAlreadyTakenIsRefusedUnderTheName() throws {
        let h = try harness()
        h.press(.char(","), .char("e"))
        h.type("  test quay LTD ")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Another employer is already named test quay LTD.") != nil, "\(h.dump)")
        #expect(try h.register.particulars().employers.count == 1)
    }

    /// The register checks again under its write lock: what another session saved meanwhile is refused there,
    /// and the sentence is shown whole while the typing stays.
    @Test func theRegistersRefusalIsShownAndTheTypingKept() throws {
        let h = try harness()
        h.press(.char(","), .char("e"))
        h.type("Bolt Hire Ltd")
        h.press(.tab)
        h.type("Unit 4")
        try h.register.record(.employer(Employer(name: "BOLT HIRE LTD", address: "elsewhere")))
        h.press(.ctrl("s"))
        #expect(editor(h) != nil, "\(h.dump)")
        #expect(h.line(containing: "Not saved: Another employer is already named Bolt Hire Ltd.") != nil, "\(h.dump)")
        #expect(editor(h)?.change[.name] == "Bolt Hire Ltd" && editor(h)?.change[.address] == "Unit 4")
        #expect(h.line(containing: "Unit 4") != nil)
        // Renamed, it saves.
        h.press(.backTab)
        h.type(" North")
        h.press(.ctrl("s"))
        #expect(try h.register.particulars().employerList.contains { $0.name == "Bolt Hire Ltd North" })
    }

    @Test func escAsksBeforeDroppingChangesAndNothingIsRecorded() throws {
        let h = try harness()
        h.press(.char(","), .enter, .escape)
        #expect(settings(h) != nil, "nothing changed: closes at once")
        h.press(.enter)
        h.type(" and Sons")
        h.press(.escape)
        #expect(h.line(containing: "Leave without saving?") != nil, "\(h.dump)")
        h.press(.char("z"))
        #expect(editor(h)?.change[.name] == "Test Examinations Ltd and Sons", "any other key keeps editing")
        h.press(.escape, .char("d"))
        #expect(settings(h) != nil)
        #expect(try h.register.particularsHistory(subject: Particulars.organisationUUID).count == 1)
        // Saving what is already there records nothing.
        h.press(.enter, .ctrl("s"))
        #expect(h.line(containing: "Nothing changed.") != nil, "\(h.dump)")
        #expect(try h.register.particularsHistory(subject: Particulars.organisationUUID).count == 1)
    }

    @Test func aCtrlSInTheBurstOfTypingDoesNotSave() throws {
        let h = try harness()
        h.press(.char(","), .char("e"))
        h.burst(Key.typing("Pasted Ltd") + [.ctrl("s")])
        #expect(editor(h) != nil)
        #expect(h.line(containing: "Ctrl-S arrived together with other keys") != nil, "\(h.dump)")
        #expect(try h.register.particulars().employers.count == 1)
        h.press(.ctrl("s"))
        #expect(try h.register.particulars().employers.count == 2)
    }

    @Test func hostilePastesAreCutAndCleaned() throws {
        let h = try harness()
        h.press(.char(","), .char("j"), .enter, .tab, .ctrl("u"))
        let hostile = String(repeating: "Dock \u{1B}[31mRoad\t", count: 1_000) // 13,000 characters
        h.press(.paste(hostile))
        #expect(h.line(containing: "Pasted 1000 of") != nil, "\(h.dump)")
        #expect(!h.frame.containsControlCharacter)
        h.press(.ctrl("s"))
        let address = try #require(try h.register.particulars().employers[Particulars.mainEmployerUUID]?.address)
        #expect(address.count <= 1000)
        #expect(!TextRules.containsControlCharacters(address))
        // A name is one line: a pasted line break becomes a space.
        h.press(.enter, .ctrl("u"))
        h.press(.paste("Two\nLines"))
        #expect(editor(h)?.change[.name] == "Two Lines")
    }

    @Test func historyShowsEveryVersionWithWhoAndWhen() throws {
        let h = try harness()
        h.press(.char(","), .char("j"), .enter, .tab, .end)
        h.type(", Quay 2")
        h.press(.ctrl("s"), .char("h"))
        #expect(h.screen[0].contains("History · Employer Test Quay Ltd · 3 versions, newest first"), "\(h.dump)")
        let change = try #require(h.line(containing: "Address: Quay Office, Harbour Road, Testport → Quay Office,"))
        #expect(h.screen[change.y + 1].contains("Testport, Quay 2"), "wrapped under itself\n\(h.dump)")
        let newest = try #require(h.line(containing: " · \(SystemIdentity.userName)"))
        let start = try #require(h.line(containing: "When the register was made · rigbook"))
        #expect(newest.y < start.y, "newest first")
        #expect(h.line(containing: "Name: Main employer → Test Quay Ltd") != nil, "\(h.dump)")
        h.press(.escape)
        #expect(settings(h) != nil)
        // The + lines have no history.
        h.press(.end, .char("h"))
        #expect(h.line(containing: "to see its history") != nil, "\(h.dump)")
    }

    @Test func unboundKeysDoNothingOnSettings() throws {
        let h = try harness()
        h.press(.char(","))
        let bound = Set(SettingsState.keymap.bindings.flatMap(\.keys) + App.keymap.bindings.flatMap(\.keys))
        let before = h.screen
        for key in UnboundKeyTests.universe where !bound.contains(key) {
            h.press(key)
            #expect(h.screen == before, "\(key.name) changed the settings screen")
        }
    }

    @Test func helpListsTheSettingsKeys() throws {
        let h = try harness()
        h.press(.char(","), .char("?"))
        for binding in SettingsState.keymap.bindings {
            #expect(h.screen.contains { $0.hasPrefix(" " + binding.label + " ") }, "\(binding.label)\n\(h.dump)")
        }
        h.press(.escape, .enter, .function(1))
        #expect(h.line(containing: "Ctrl-R") != nil && h.line(containing: "In a text field:") != nil, "\(h.dump)")
    }
}

/// `p` on the list: one asset's particulars.
@Suite struct AssetParticularsTests {
    private func harness(width: Int = 80, height: Int = 24) throws -> Harness {
        try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]), width: width, height: height,
                    prepare: { register in
                        try register.record(.site(Site(employerUUID: Particulars.mainEmployerUUID, name: "North yard",
                                                       address: "1 North Road")))
                    })
    }

    @Test func twoTerminalsEditingDifferentFieldsBothKeepTheirChangeAndTheSameFieldIsRefused() throws {
        let h = try harness()
        let other = try Harness(sharingHomeOf: h)
        let uuid = try #require(try h.register.asset(tag: "SL-0042")).asset.uuid
        h.press(.char("p"))
        other.press(.char("p"))
        h.press(.tab)
        h.type("Crane Hire plc")                        // the lessor, here
        other.press(.tab, .tab, .tab)
        other.type("DoC-2025-117")                      // the declaration's reference, there
        h.press(.ctrl("s"))
        other.press(.ctrl("s"))
        #expect(other.state.screens.isEmpty, "\(other.dump)")
        var saved = try #require(try h.register.particulars().assets[uuid])
        #expect(saved.lessor == "Crane Hire plc", "the first save's field is not lost to the second")
        #expect(saved.declarationReference == "DoC-2025-117")

        // Both change the lessor: the second is refused on that field, with the other's value shown.
        h.press(.char("p"), .tab, .ctrl("u"))
        h.type("Lift Co")
        other.press(.char("p"), .tab, .ctrl("u"))
        other.type("Hoist Hire")
        other.press(.tab, .tab)
        other.type(" rev B")
        h.press(.ctrl("s"))
        other.press(.ctrl("s"))
        #expect(FormHarness.collapse(other.screen.joined(separator: " "))
                    .contains("Changed meanwhile, in another terminal, to “Lift Co”"), "\(other.dump)")
        #expect(other.line(containing: "Saved the rest; 1 field was changed meanwhile") != nil)
        saved = try #require(try h.register.particulars().assets[uuid])
        #expect(saved.lessor == "Lift Co" && saved.declarationReference == "DoC-2025-117 rev B", "\(saved)")
        // Ctrl-S again saves what was typed over it, knowingly.
        other.press(.ctrl("s"))
        #expect(other.state.screens.isEmpty, "\(other.dump)")
        #expect(try h.register.particulars().assets[uuid]?.lessor == "Hoist Hire")
    }

    @Test func pEditsTheSelectedAssetsParticulars() throws {
        let h = try harness()
        let uuid = try #require(try h.register.asset(tag: "SL-0042")).asset.uuid
        h.press(.char("p"))
        #expect(h.screen[0].contains("Particulars of SL-0042 · 2 t web sling"), "\(h.dump)")
        #expect(h.line(containing: "‹ Main site (Test Quay Ltd) ›") != nil,
                "an asset never given a site is on the main one")
        #expect(h.line(containing: "WLL 2 t") != nil)
        h.press(.right)
        #expect(h.line(containing: "‹ North yard (Test Quay Ltd) ›") != nil, "\(h.dump)")
        h.press(.tab)
        h.type("Crane Hire plc, Depot 3")
        h.press(.tab)
        h.type("2 legs at 45°: 2.8 t")
        h.press(.enter)
        h.type("4 legs at 45°: 4.2 t")
        h.press(.tab)
        h.type("DoC-2025-117")
        h.press(.tab)
        h.type("2025-02-30")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "⚠ Enter the declaration date as YYYY-MM-DD") != nil, "\(h.dump)")
        #expect(try h.register.particulars().assets[uuid] == nil, "nothing recorded")
        h.press(.backspace, .backspace)
        h.type("28")
        h.press(.ctrl("s"))
        #expect(h.state.screens.isEmpty, "back on the list\n\(h.dump)")
        #expect(h.line(containing: "Saved the particulars of SL-0042.") != nil, "\(h.dump)")
        let saved = try #require(try h.register.particulars().assets[uuid])
        let north = try #require(try h.register.particulars().siteList.first { $0.name == "North yard" })
        #expect(saved.siteUUID == north.uuid)
        #expect(saved.lessor == "Crane Hire plc, Depot 3")
        #expect(saved.swlConfigurations == "2 legs at 45°: 2.8 t\n4 legs at 45°: 4.2 t")
        #expect(saved.declarationReference == "DoC-2025-117" && saved.declarationDate == "2025-02-28")
        // What a thorough examination would copy now.
        let report = try h.register.reportParticulars(assetUUID: uuid, examinerName: "")
        #expect(report.site.address == "1 North Road")
    }

    @Test func enterListsTheSitesToPickFrom() throws {
        let h = try harness()
        h.press(.char("p"), .enter)
        #expect(h.line(containing: "› Main site (Test Quay Ltd)") != nil, "\(h.dump)")
        h.press(.down, .enter)
        #expect(h.line(containing: "‹ North yard (Test Quay Ltd) ›") != nil, "\(h.dump)")
        h.press(.enter, .escape)
        #expect(h.line(containing: "‹ North yard (Test Quay Ltd) ›") != nil, "Esc in the list changes nothing")
    }

    @Test func aDateFieldTakesOnlyDateCharacters() throws {
        let h = try harness()
        h.press(.char("p"), .backTab)
        h.type("2025x")
        #expect(h.line(containing: "Dates are written YYYY-MM-DD.") != nil, "\(h.dump)")
        h.type("-01-0a5")
        let editor = try #require(h.state.screens.last as? ParticularEditorState)
        #expect(editor.change[.declarationDate] == "2025-01-05")
    }

    @Test func ctrlRShowsTheAssetsHistory() throws {
        let h = try harness()
        h.press(.char("p"), .tab)
        h.type("Lessor One")
        h.press(.ctrl("s"), .char("p"), .ctrl("r"))
        #expect(h.screen[0].contains("History · Particulars of SL-0042"), "\(h.dump)")
        #expect(h.line(containing: "Owner or lessor: Lessor One") != nil, "\(h.dump)")
        h.press(.escape)
        #expect(h.state.screens.last is ParticularEditorState, "back in the editor")
    }
}

/// Below 60 columns a label takes its own row above its value, as in the inspection form.
@Suite struct NarrowSettingsTests {
    @Test func labelsGetTheirOwnRowAt40Columns() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]), width: 40, height: 12)
        h.press(.char(","), .char("j"), .enter)
        let label = try #require(h.line(containing: "▸ Name"), "\(h.dump)")
        #expect(h.screen[label.y + 1].hasPrefix("  Test Quay Ltd"), "\(h.dump)")
        h.press(.tab)
        #expect(h.line(containing: "▸ Address") != nil, "\(h.dump)")
        #expect(h.line(containing: "Quay Office, Harbour Road, Testport") != nil, "the value is whole")
    }
}

/// Every screen of Settings at sizes down to 12×5: inside its width, nothing drawn from data as controls.
@Suite struct SettingsSmallTerminalTests {
    @Test(arguments: [(80, 24), (60, 20), (40, 12), (30, 8), (20, 6), (12, 5), (80, 5), (10, 3)])
    func everySettingsScreenFits(width: Int, height: Int) throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]), width: width, height: height,
                            prepare: { register in
                                for n in 1...30 {
                                    try register.record(.examiner(Examiner(
                                        name: "Examiner \(n) 检查员 reversed",
                                        qualification: String(repeating: "LEEA ", count: 40))))
                                }
                            })
        func check(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(h.screen.count == height, "\(what)", sourceLocation: sourceLocation)
            for (y, line) in h.screen.enumerated() {
                #expect(line.displayWidth == width, "\(what): line \(y)\n\(h.dump)", sourceLocation: sourceLocation)
            }
            #expect(!h.frame.containsControlCharacter, "\(what)", sourceLocation: sourceLocation)
        }
        h.press(.char(","))
        check("settings")
        h.press(.end)
        check("settings, end")
        h.press(.pageUp, .pageUp, .char("G"), .char("k"))
        check("settings, paging")
        h.press(.char("h"))
        check("history")
        h.press(.pageDown, .char("j"), .escape, .home, .char("j"), .enter)
        check("employer editor")
        h.press(.tab)
        h.type(String(repeating: "Harbour Road 码头路 ", count: 30))
        check("a long address")
        h.press(.ctrl("s"))
        check("saved")
        h.press(.escape, .escape, .char("p"), .enter)
        check("site list")
        h.press(.escape, .function(1))
        check("editor help")
        h.resize(width: max(1, width / 2), height: max(1, height / 2))
        h.resize(width: width, height: height)
        h.press(.escape)
        check("after resizing")
    }
}

/// A register whose sites are gone from the choices still answers Enter on the site with a sentence.
@Suite struct EmptyChoiceTests {
    @Test func enterOnAChoiceWithNothingToChooseSaysSo() throws {
        var editor = ParticularEditorState(editing: .site(Site(employerUUID: UUID(), name: "S")), isNew: true,
                                           particulars: Particulars())
        let context = ScreenContext(now: 0, today: harnessToday, area: Rect(width: 80, height: 24), batch: 1)
        _ = editor.handle(.tab, context: context)
        #expect(editor.focus == .employer)
        _ = editor.handle(.enter, context: context)
        #expect(editor.message?.text.contains("nothing to choose from") == true)
        var frame = Frame(width: 80, height: 24)
        editor.draw(into: &frame, area: frame.bounds)
        #expect(frame.lines.contains { $0.contains("(an employer not in the register)") })
    }
}
