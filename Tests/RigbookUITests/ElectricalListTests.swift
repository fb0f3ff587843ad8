import Foundation
import Testing
@testable import RigbookUI
@testable import RigbookApp
import RigbookStore
import RigbookCore

/// Electrical items on screen: the list and the dashboard treat electrical items and their tests like lifting
/// equipment and its thorough examinations.
@Suite struct ElectricalListTests {
    static func item(_ tag: String, _ name: String, _ cls: ElectricalClass, _ env: ElectricalEnvironment) -> Asset {
        Asset.electrical(tag: tag, name: name, site: "Workshop",
                         particulars: ElectricalParticulars(equipmentClass: cls, environment: env),
                         commissioned: CalendarDate(iso: "2026-10-01"))
    }

    /// A Class I drill that failed its earth test, a cord set that passed, and two slings.
    static func harness(width: Int = 100) throws -> Harness {
        let drill = item("TT-0001", "Makita drill", .classI, .construction)
        let lead = item("TT-0002", "IEC cord", .cordSet, .nonHostile)
        return try Harness(.assets([drill, lead, makeAsset(tag: "SL-0001", name: "2 t web sling", intervalMonths: 6),
                                    makeAsset(tag: "SL-0002", name: "Round sling", type: .roundSling,
                                              intervalMonths: 6)]),
                           width: width, prepare: { register in
            try register.insert(test: try test(drill, cls: .classI, earth: "1.8", notes: "earth high: tagged out"))
            try register.insert(test: try test(lead, cls: .cordSet, earth: "0.2"))
        })
    }

    static func test(_ asset: Asset, cls: ElectricalClass, earth: String, notes: String = "") throws -> ValidatedTest {
        var v = TestValues(prefill: TestProfile(technician: "Ana Reyes"), today: harnessToday)
        v.testDate = "2026-11-20"
        v.visual = .pass
        v.earthContinuityOhm = earth
        v.insulationMOhm = "50"
        v.polarity = .pass
        v.notes = notes
        v.authenticated = true
        let context = TestGate.Context(assetUUID: asset.uuid, equipmentClass: cls, today: harnessToday,
                                       sessionID: DraftIdentity.testSessionID(assetUUID: asset.uuid))
        return try TestGate.validate(v, context).get()
    }

    @Test("the TYPE column shows the class, WLL a dash, and a failed test makes the item DO NOT USE")
    func listColumns() throws {
        let h = try Self.harness()
        let drill = try #require(h.line(containing: "TT-0001"), "\(h.dump)")
        #expect(drill.text.contains("Class I"), "\(drill.text)")
        #expect(drill.text.contains("DO NOT USE"), "\(drill.text)")
        #expect(!drill.text.contains("0 kg"), "\(drill.text)")
        let lead = try #require(h.line(containing: "TT-0002"), "\(h.dump)")
        #expect(lead.text.contains("Cord set") && lead.text.contains("OK"), "\(lead.text)")
        #expect(lead.text.contains("2026-11-20"), "the test is the last examination: \(lead.text)")
        #expect(h.shownRows.first?.tag == "TT-0001", "DO NOT USE sorts first")
    }

    @Test("is:electrical and is:lifting narrow by kind, with is: statuses; fuzzy words find class and environment")
    func filterByKind() throws {
        let h = try Self.harness()
        func shown(_ query: String, sorted: Bool = true) -> [String] {
            h.press(.escape)
            h.press(.char("/"))
            h.type(query)
            h.press(.enter)
            let tags = h.shownRows.map(\.tag)
            return sorted ? tags.sorted() : tags
        }
        #expect(shown("is:electrical") == ["TT-0001", "TT-0002"], "\(h.dump)")
        #expect(shown("is:lifting") == ["SL-0001", "SL-0002"], "\(h.dump)")
        #expect(shown("is:elec is:do-not-use") == ["TT-0001"], "\(h.dump)")
        #expect(shown("is:lifting is:do-not-use").isEmpty, "\(h.dump)")
        #expect(shown("cord set", sorted: false).first == "TT-0002", "best match first: \(h.dump)")
        #expect(shown("construction") == ["TT-0001"], "\(h.dump)")
        #expect(shown("electrical") == ["TT-0001", "TT-0002"], "\(h.dump)")
    }

    @Test("typing on from is:e to is:electrical keeps the same rows (narrowing is still right)")
    func narrowingByKind() throws {
        #expect(FilterQuery("is:elec").kinds == [.electrical])
        #expect(FilterQuery("is:ok").kinds == nil)
        #expect(FilterQuery("is:bogus").unknownStatuses == ["bogus"])
        #expect(FilterQuery.narrows(from: "is:elec", to: "is:electrical"))
        #expect(!FilterQuery.narrows(from: "is:electrical", to: "is:electrical is:lifting"))
        #expect(FilterQuery.statusWords.hasSuffix("is:lifting is:electrical"))
    }

    /// `rigbook labels` writes its page a sheet at a time: the same page, byte for byte, as the one
    /// `L` makes whole, the failed drill's DANGER tag and the lead's test tag included, at every sheet's edge.
    @Test("the labels page written sheet by sheet equals the page made whole")
    func streamedLabels() throws {
        let h = try Self.harness()
        let rows = try h.register.rows(), particulars = try h.register.particulars()
        for sheet in Labels.Sheet.all {
            for count in Set([0, 1, 3, rows.count]) {
                let chosen = Array(rows.prefix(count))
                let tests = try LabelPrinting.lastTests(chosen, in: h.register)
                let whole = LabelPrinting.page(chosen, particulars: particulars, today: harnessToday, layout: .due,
                                               sheet: sheet, lastTests: tests, printedAt: "2026-11-30T09:00:00Z")
                var streamed = ""
                try LabelPrinting.stream(count: count, { body in try chosen.forEach(body) }, register: h.register,
                                         particulars: particulars, today: harnessToday, layout: .due, sheet: sheet,
                                         printedAt: "2026-11-30T09:00:00Z") { streamed += $0 }
                #expect(streamed == whole, "\(sheet.name), \(count) labels")
            }
        }
        let page = LabelPrinting.page(rows, particulars: particulars, today: harnessToday, layout: .due,
                                      sheet: .large, lastTests: try LabelPrinting.lastTests(rows, in: h.register))
        #expect(page.contains("class=\"label danger\" data-tag=\"TT-0001\""))
        #expect(page.contains("class=\"label tag\" data-tag=\"TT-0002\""))
    }

    /// The test form is not on screen yet: a test is saved into the register as its save will, and the list is
    /// told with the event a save sends (`.saved`), which is how `L` learns what the last save saved.
    @Test("L after a test save writes the item's test tag, or its DANGER tag when the test failed")
    func labelsAfterATestSave() throws {
        let h = try Self.harness()
        let rows = try h.register.rows()
        let drill = try #require(rows.first { $0.asset.tag == "TT-0001" }).asset
        let lead = try #require(rows.first { $0.asset.tag == "TT-0002" }).asset
        let retest = try Self.test(lead, cls: .cordSet, earth: "0.1")
        try h.register.insert(test: retest)
        h.session.send(.saved(assetUUID: lead.uuid, sessionID: retest.sessionID))
        h.press(.char("L"))
        // The notice names a long path: it wraps over the bottom rows.
        #expect(h.flatScreen.contains("Labels for 1 asset: "), "\(h.dump)")
        let first = try FileManager.default.contentsOfDirectory(atPath: LabelPrinting.folder(h.home))
        var html = try String(contentsOfFile: LabelPrinting.folder(h.home) + "/" + first[0], encoding: .utf8)
        #expect(html.contains("<div class=\"label tag\" data-tag=\"TT-0002\""), "\(html)")
        #expect(html.contains("RETEST DATE") && html.contains("Ana Reyes"))

        h.session.send(.saved(assetUUID: drill.uuid, sessionID: "test-drill"))
        h.press(.char("L"))
        let files = try FileManager.default.contentsOfDirectory(atPath: LabelPrinting.folder(h.home))
        #expect(files.count == 2)
        let newest = try #require(files.first { !first.contains($0) })
        html = try String(contentsOfFile: LabelPrinting.folder(h.home) + "/" + newest, encoding: .utf8)
        #expect(html.contains("<div class=\"label danger\" data-tag=\"TT-0001\""), "\(html)")
        #expect(html.contains("DANGER — DO NOT USE") && html.contains("earth high: tagged out"))
    }

    @Test("Tab: the dashboard counts the electrical items and their tests among the weeks")
    func dashboard() throws {
        let h = try Self.harness()
        h.press(.tab)
        #expect(h.screen[0].contains("4 assets (2 lifting, 2 electrical)"), "\(h.dump)")
        #expect(h.line(containing: "Electrical: 1 of 2 need attention") != nil, "\(h.dump)")
        #expect(h.line(containing: "examinations and tests") != nil, "\(h.dump)")
        let doNotUse = try #require(h.line(containing: "DO NOT USE"), "\(h.dump)")
        #expect(doNotUse.text.contains(" 1"), "\(doNotUse.text)")
    }
}

/// What is due on a DO NOT USE item: its NEXT DUE showed the day of the test that failed.
extension ElectricalListTests {
    @Test("a DO NOT USE item's NEXT DUE and history say what is due, a retest before use, not the day it failed")
    func doNotUseIsDueBeforeUse() throws {
        let h = try Self.harness()
        let drill = try #require(h.line(containing: "TT-0001"), "\(h.dump)")
        #expect(drill.text.contains("before use"), "\(drill.text)")
        #expect(drill.text.components(separatedBy: "2026-11-20").count == 2,
                "the last test's date, once: \(drill.text)")
        h.press(.enter)
        #expect(h.line(containing: "no passing test since · retest due before use") != nil, "\(h.dump)")
    }
}

/// Hostile testing: an electrical item's history said "Site —" (its location, empty) where its certificate
/// said "Main site" (the register's site, the default applied); the reading's label differed between screens.
extension ElectricalListTests {
    @Test("the history names the site the certificate names, from the same particulars, and the location apart")
    func historyNamesTheRegistersSite() throws {
        let h = try Self.harness()
        h.press(.char("/"))
        h.type("TT-0002")
        h.press(.enter, .enter)
        let particulars = try h.register.particulars()
        let lead = try #require(try h.register.rows().first { $0.asset.tag == "TT-0002" }).asset
        let site = try #require(particulars.site(ofAsset: lead.uuid), "an asset never given a site is on the main")
        #expect(site.uuid == Particulars.mainSiteUUID)
        #expect(h.line(containing: "Site \(site.name) · Location Workshop · Commissioned 2026-10-01") != nil,
                "\(h.dump)")
    }

    @Test("insulation has one wording, on the form, the record and the certificate's readings")
    func oneWordingForInsulation() {
        #expect(TestField.insulation.label == "Insulation (MΩ)")
        #expect(TestField.insulation.shortLabel == TestField.insulation.label)
    }
}
