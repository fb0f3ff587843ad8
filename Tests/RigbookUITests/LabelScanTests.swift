import Foundation
import Synchronization
import Testing
@testable import RigbookUI
@testable import RigbookApp
import RigbookStore
import RigbookCore

/// Scanning labels back. A scanner types the payload and Enter like a keyboard: in the prompt (`#`)
/// or, with none open, into the filter its leading `/` opens; it never lands on a list key.
@Suite("Scanning labels", .serialized) struct LabelScanTests {
    /// Tags full of letters that are list keys (S sample, G last, D drafts, R retired, I batch, L labels, a add…).
    static let tags = ["SGD-0001", "DRIL-0002", "GS-0003", "WS-0004", "AE-0005"]

    static func harness() throws -> Harness {
        try Harness(.assets(tags.map { makeAsset(tag: $0, name: "2 t web sling") }),
                    profile: Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA 12345"))
    }

    func selectedTag(_ h: Harness) -> String? { h.state.list.selectedRow?.asset.tag }

    func payload(_ tag: String) -> String { LabelPayload(tag: tag, due: CalendarDate(iso: "2027-06-01")).text }

    @Test("# takes a scan and Enter, then jumps to the asset; no list key acts")
    func scanPromptJumps() throws {
        let h = try LabelScanTests.harness()
        h.press(.char("#"))
        #expect(h.screen.last?.hasPrefix("# scan: ") == true, "\(h.dump)")
        h.type(payload("DRIL-0002"))
        #expect(h.screen.last?.contains("DRIL-0002") == true)
        #expect(h.state.screens.isEmpty, "a key of the scan opened a screen:\n\(h.dump)")
        h.press(.enter)
        #expect(selectedTag(h) == "DRIL-0002", "\(h.dump)")
        #expect(h.state.list.scan == nil)
        #expect(h.state.list.query.isEmpty && !h.state.list.showRetired && h.state.list.marks.isEmpty)
        #expect(h.screen.last?.contains("DRIL-0002 · 2 t web sling") == true, "\(h.dump)")
    }

    @Test("a scan with no prompt open goes into the filter (its / opens it) and Enter jumps")
    func scanOnTheListFilters() throws {
        let h = try LabelScanTests.harness()
        h.press(.down, .down, .down)
        h.type(payload("SGD-0001"))
        #expect(h.state.screens.isEmpty, "a key of the scan opened a screen:\n\(h.dump)")
        #expect(h.state.list.editingFilter)
        h.press(.enter)
        #expect(selectedTag(h) == "SGD-0001", "\(h.dump)")
        #expect(h.state.list.query.isEmpty, "the jump clears the filter")
        #expect(!h.state.list.showRetired && h.state.list.marks.isEmpty && h.state.list.rows.count == 5)
    }

    @Test("the filter takes an exact tag too (selected, the filter kept); other words still just filter")
    func exactTagInTheFilter() throws {
        let h = try LabelScanTests.harness()
        h.press(.char("/"))
        h.type("s")
        let best = selectedTag(h)
        h.type("gd-0001")
        h.press(.enter)
        #expect(selectedTag(h) == "SGD-0001", "best match first was \(String(describing: best))")
        #expect(h.state.list.query == "sgd-0001" && !h.state.list.editingFilter)
        h.press(.escape, .char("/"))
        h.type("ws")
        h.press(.enter)
        #expect(h.state.list.query == "ws", "a fuzzy filter is kept as before")
    }

    @Test("a tag not in the register, or a newer label, says so")
    func unknown() throws {
        let h = try LabelScanTests.harness()
        h.press(.char("#"))
        h.type(payload("NOPE-9"))
        h.press(.enter)
        #expect(h.screen.last?.contains("No asset is tagged NOPE-9") == true, "\(h.dump)")
        h.press(.char("#"))
        h.type("/RB7:SGD-0001:20270101")
        h.press(.enter)
        // A notice longer than a row wraps over the rows above the footer's.
        #expect(h.flatScreen.contains("RB7"), "\(h.dump)")
    }

    @Test("marking by scan: the prompt stays open and each scan marks one asset; I opens them together")
    func markingByScan() throws {
        let h = try LabelScanTests.harness()
        h.press(.char("#"), .tab)
        #expect(h.screen.last?.hasPrefix("# mark: ") == true, "\(h.dump)")
        for tag in ["GS-0003", "AE-0005", "GS-0003"] {
            h.type(payload(tag))
            h.press(.enter)
        }
        #expect(h.state.list.scan != nil, "the prompt closed while marking")
        #expect(h.screen.last?.contains("GS-0003 was already marked · 2 marked") == true, "\(h.dump)")
        #expect(h.state.list.marks.count == 2)
        h.press(.escape)
        #expect(h.state.list.scan == nil)
        // With assets marked, # opens straight into marking.
        h.press(.char("#"))
        #expect(h.state.list.scan?.marking == true)
        h.press(.escape)
        h.press(.char("I"))
        let batch = try #require(h.state.screens.last as? BatchFormState, "\(h.dump)")
        #expect(batch.rows.map(\.asset.tag) == ["GS-0003", "AE-0005"])
    }

    @Test("L writes the labels of the last save into Documents/Labels and shows the path")
    func labelsOfTheLastSave() throws {
        let h = try LabelScanTests.harness()
        h.press(.char("L"))
        #expect(h.flatScreen.contains("Nothing saved yet"), "\(h.dump)")
        h.press(.char("#"), .tab)
        for tag in ["GS-0003", "AE-0005"] { h.type(payload(tag)); h.press(.enter) }
        h.press(.escape, .char("I"))
        h.press(.function(2))
        for _ in 0..<30 where (h.state.screens.last as? BatchFormState)?.form.focus != .confirmed { h.press(.down) }
        h.press(.char(" "))
        h.press(.ctrl("s"))
        #expect(h.screen.last?.contains("Saved 2 inspections") == true, "\(h.dump)")
        h.press(.char("L"))
        #expect(h.flatScreen.contains("Labels for 2 assets: "), "\(h.dump)")
        let files = try FileManager.default.contentsOfDirectory(atPath: LabelPrinting.folder(h.home))
        #expect(files.count == 1)
        let html = try String(contentsOfFile: LabelPrinting.folder(h.home) + "/" + files[0], encoding: .utf8)
        #expect(html.contains("data-payload=\"/RB1:GS-0003:20271130\""))
        #expect(html.contains("data-payload=\"/RB1:AE-0005:20271130\""))
        #expect(html.components(separatedBy: "<svg class=\"qr\"").count == 3)
    }

    @Test("labels written from several terminals in the same second each keep their own file")
    func labelsWrittenAtOnceNeverReplaceEachOther() throws {
        let h = try LabelScanTests.harness()
        let rows = h.state.list.rows
        let particulars = try h.register.particulars()
        let (today, home, now) = (h.state.today, h.home, Date())
        let paths = Mutex<[String: String]>([:])
        DispatchQueue.concurrentPerform(iterations: rows.count) { index in
            let row = rows[index]
            let path = try? LabelPrinting.write([row], particulars: particulars, today: today, home: home, now: now)
            paths.withLock { $0[row.asset.tag] = path }
        }
        let written = paths.withLock { $0 }
        #expect(Set(written.values).count == rows.count, "\(written)")
        for (tag, path) in written {
            let html = try String(contentsOfFile: path, encoding: .utf8)
            #expect(html.contains("data-payload=\"/RB1:\(tag):"), "\(path) holds another terminal's labels")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: LabelPrinting.folder(h.home)).count == rows.count)
    }

    @Test("a scan on an asset's history or a record goes to the scanned asset; none of its letters is a command",
          arguments: [[Key.enter], [.enter, .enter]])
    func scanAboveTheList(opening: [Key]) throws {
        // AE-0005 has an A (amend) and an E; SGD-0001 an S and a D; the date's digits move nothing.
        let h = try LabelScanTests.harness()
        let last = try #require(h.state.list.rows.first { $0.asset.tag == "WS-0004" }?.asset)
        try FormHarness.insertRecord(AmendmentTests.failedAmendment(), into: h.register, asset: last)
        h.press(.char("G"))
        h.press(opening)
        h.press(.char("/"))
        #expect(h.screen.last?.hasPrefix("# scan: /") == true, "\(h.dump)")
        h.type(String(payload("AE-0005").dropFirst()))
        #expect(!h.state.screens.contains { $0 is FormState }, "a letter of the scan opened a form:\n\(h.dump)")
        h.press(.enter)
        let history = try #require(h.state.screens.last as? HistoryState, "\(h.dump)")
        #expect(history.row.asset.tag == "AE-0005")
        #expect(h.state.screens.count == 1 && selectedTag(h) == "AE-0005")
        // An unknown tag says so and leaves the list.
        h.press(.char("#"))
        h.type("NOPE-1")
        h.press(.enter)
        #expect(h.state.screens.isEmpty && h.screen.last?.contains("No asset is tagged NOPE-1") == true, "\(h.dump)")
    }

    @Test("the history shows the label's QR code in half blocks (Q), module for module")
    func historyCode() throws {
        let h = try LabelScanTests.harness()
        h.press(.enter)
        h.press(.char("Q"))
        let row = try #require(h.state.list.selectedRow)
        let code = try #require(LabelPrinting.screenCode(row, today: harnessToday))
        let expected = code.halfBlockLines(quiet: 2)
        let top = HistoryState.headerHeight - 1
        for (offset, line) in expected.enumerated() {
            let shown = String(h.screen[top + offset].dropFirst(2).prefix(line.count))
            #expect(shown == line, "line \(offset):\n\(h.dump)")
            #expect(h.frame[2, top + offset].style.colour == .qr)
        }
        #expect(h.dump.contains(LabelPayload(tag: row.asset.tag, due: row.status(on: harnessToday).nextDue).text))
        h.press(.char("Q"))
        #expect(h.line(containing: "No inspection recorded yet") != nil, "\(h.dump)")
    }

    @Test("the colour code shows beside the status as a word once the register chooses one")
    func colourColumn() throws {
        let h = try Harness(.sample(count: 30), width: 100, prepare: { register in
            let organisation = try register.particulars().organisation
            var coded = organisation
            coded.colourCode = .quarters
            try register.record(.organisation(coded))
        })
        #expect(h.screen[2].contains("CODE"), "\(h.dump)")
        let list = h.state.list
        for y in 3..<(h.height - 1) {
            guard let index = Optional(list.rowIndex(visible: list.top + y - 3)), y - 3 < list.visibleCount else {
                break
            }
            let row = list.rows[index]
            let colour = ColourCodeScheme.quarters.colour(for: row, report: list.reports[index])
            let line = h.screen[y].trimmingCharacters(in: .whitespaces)
            #expect(line.hasSuffix(colour?.word ?? ""), "\(row.asset.tag): \(line)")
            if colour == nil { #expect(!["RED", "GREEN", "BLUE", "YELLOW"].contains { line.hasSuffix($0) }) }
        }
        #expect(["RED", "GREEN", "BLUE", "YELLOW"].contains { h.dump.contains($0) }, "\(h.dump)")
    }
}

/// The colour code is chosen in the examining organisation's editor, kept as a new version.
@Suite struct ColourCodeSettingTests {
    @Test func theOrganisationEditorCyclesTheColourCodeAndKeepsAVersion() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0042", name: "2 t web sling")]))
        h.press(.char(","), .enter)
        let editor = { h.state.screens.last as? ParticularEditorState }
        #expect(editor()?.change.fields == [.name, .address, .colourCode])
        #expect(h.line(containing: "Label colour code") != nil, "\(h.dump)")
        #expect(h.line(containing: "‹ none ›") != nil, "\(h.dump)")
        while editor()?.focus != .colourCode { h.press(.tab) }
        h.press(.right, .right)
        #expect(h.line(containing: "‹ Australian quarters") != nil, "\(h.dump)")
        h.press(.left)
        #expect(h.line(containing: "‹ six-monthly") != nil, "\(h.dump)")
        h.press(.char(" "))
        h.press(.ctrl("s"))
        #expect(try h.register.particulars().organisation.colourCode == .quarters)
        #expect(try h.register.particularsHistory(subject: Particulars.organisationUUID).count == 2)
        h.press(.escape)
        #expect(h.screen[2].contains("CODE"), "the list shows the colour column at once:\n\(h.dump)")
    }
}
