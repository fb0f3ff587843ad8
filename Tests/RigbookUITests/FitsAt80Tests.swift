import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

extension Harness {
    /// The screen as one line with runs of white space collapsed, so a sentence wrapped over rows reads as one.
    var flatScreen: String { FormHarness.collapse(screen.joined(separator: " ")) }
}

/// Hostile testing at 80×24: sentences cut at the right edge with no ellipsis. Each must now wrap at spaces
/// (a message) or end in "…" at a word (a one-line field).
@Suite struct FitsAt80Tests {
    /// `text` is on screen whole, wherever its rows break.
    private func expectWhole(_ text: String?, on h: Harness, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let text else {
            Issue.record("no message to look for\n\(h.dump)", sourceLocation: sourceLocation)
            return
        }
        #expect(text.displayWidth > 80, "the case needs a sentence longer than a row: \(text)",
                sourceLocation: sourceLocation)
        #expect(h.flatScreen.contains(FormHarness.collapse(text)), "“\(text)” is not whole on\n\(h.dump)",
                sourceLocation: sourceLocation)
    }

    @Test func thePasteMessageWraps() throws {
        let h = try FormHarness(profile: FormTests.profile)
        h.press(.char("i"))
        h.focus(.inspectorName)
        h.press(.ctrl("u"))
        h.press(.paste(String(repeating: "\u{1}", count: 12) + String(repeating: "n", count: 300)))
        expectWhole(h.form?.footerMessage?.text, on: h.harness)
    }

    @Test func theNotSavedMessageWraps() throws {
        let (h, files) = try AttachmentFormTests.harness()
        h.press(.char("i"))
        h.press(.ctrl("o"))
        h.type(files + "/hook side.jpg")
        h.press(.enter)
        h.fillCompletePass()
        // The copy is gone from Attachments/ before the save: refused, naming the file and what to do.
        let folder = h.home.documents + "/Attachments"
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            try FileManager.default.removeItem(atPath: folder + "/" + name)
        }
        h.press(.ctrl("s"))
        let message = h.form?.footerMessage?.text
        #expect(message?.hasPrefix("Not saved: hook side.jpg is no longer in") == true, "\(message ?? "nil")")
        expectWhole(message, on: h.harness)
    }

    @Test func theDraftNotWrittenMessageWraps() throws {
        let h = try FormHarness(profile: FormTests.profile)
        try? FileManager.default.removeItem(atPath: h.home.draftsFolder)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: h.home.draftsFolder))
        h.press(.char("i"))
        h.focus(.notes)
        h.type("kept")
        h.advance(0.6)
        let message = try #require(h.form?.footerMessage?.text)
        // Longer than two rows (it names a path): what matters comes first, the reason is cut at a word with "…".
        #expect(message.hasPrefix("⚠ Draft not written; what you typed is kept here and the register is untouched:"))
        let rows = Array(h.screen.suffix(2))
        #expect(FormHarness.collapse(rows.joined(separator: " ")).hasPrefix(
            "⚠ Draft not written; what you typed is kept here and the register is untouched:"), "\(h.harness.dump)")
        let last = String(rows[1].reversed().drop { $0 == " " }.reversed())
        #expect(last.hasSuffix("…"), "\(h.harness.dump)")
        #expect(FormHarness.collapse(message).hasPrefix(FormHarness.collapse(rows.joined(separator: " "))
                                                            .dropLast().trimmingCharacters(in: .whitespaces)),
                "the rows show the message's beginning word for word\n\(h.harness.dump)")
    }

    @Test func theBatchRefusalOfElectricalItemsWraps() throws {
        let drill = ElectricalListTests.item("TT-0001", "Makita drill", .classI, .construction)
        let lead = ElectricalListTests.item("TT-0002", "IEC cord", .cordSet, .nonHostile)
        let h = try Harness(.assets([drill, lead, makeAsset(tag: "SL-0001", name: "2 t web sling", intervalMonths: 6)]))
        h.press(.char("/"))
        h.type("TT-")
        h.press(.enter, .char("*"), .char("I"))
        let notice = h.state.notice?.text
        #expect(notice?.hasPrefix("A batch cannot test electrical items") == true, "\(notice ?? "nil")")
        expectWhole(notice, on: h)
    }

    @Test func theAssetEditorsIfSavedLineWraps() throws {
        let h = try Harness(.assets([AssetEditorTests.sling]))
        h.press(.char("e"))
        for _ in 0..<14 { h.press(.tab) }           // in service (after the client ref)
        h.press(.right)                             // disposed of
        let line = (h.state.screens.last as? AssetFormState)?.editorLine?.text
        #expect(line?.hasPrefix("If saved: RETIRED (disposed of)") == true, "\(line ?? "nil")")
        expectWhole(line, on: h)
    }

    @Test func theElectricalHistoryHeaderKeepsItsInterval() throws {
        var drill = ElectricalListTests.item("TT-0001", "Makita drill", .classI, .factory)
        drill.intervalMonths = 3
        drill.electrical?.intervalReason = "client policy: quarterly"
        let h = try Harness(.assets([drill]))
        h.press(.enter)
        let header = try #require(h.line(containing: "Electrical · Class I"), "\(h.dump)")
        #expect(header.text.contains("Every 3 months (client policy: quarterly)"), "\(h.dump)")
        #expect(h.line(containing: "Factories, workshops, manufacturing, maintenance") != nil, "\(h.dump)")
        for line in h.screen.prefix(5) {
            #expect(line.displayWidth <= 80)
        }
    }

    @Test func aLongEmployerLineInSettingsEndsInAnEllipsisAtAWord() throws {
        let address = "Quay Office, Harbour Road, Testport, Testshire, United Kingdom of Great Britain TP1 2QQ"
        let h = try Harness(.empty) { register in
            try register.record(.employer(Employer(uuid: Particulars.mainEmployerUUID, name: "Test Quay Ltd",
                                                   address: address)))
        }
        h.press(.char(","))
        let row = try #require(h.line(containing: "Test Quay Ltd (main)"), "\(h.dump)")
        let shown = String(row.text.reversed().drop { $0 == " " }.reversed())
        #expect(shown.hasSuffix("…"), "the employer's row is cut without an ellipsis: \(shown)")
        let beforeEllipsis = shown.dropLast().split(separator: " ").last.map(String.init) ?? ""
        #expect(address.split(separator: " ").map(String.init).contains(beforeEllipsis)
                    || address.split(separator: " ").map { String($0.dropLast()) }.contains(beforeEllipsis),
                "cut mid-word: “\(beforeEllipsis)”")
    }
}

/// One shared helper wraps and ellipsizes (`String.wrapped`, `String.ellipsized`), measured on what is drawn.
@Suite struct WrappingHelperTests {
    @Test func wrapsAtSpacesAndKeepsEveryWord() {
        let text = "Not saved: Ctrl-S arrived together with other keys. Check, then press it again."
        let lines = text.wrapped(toWidth: 40)
        #expect(lines.allSatisfy { $0.displayWidth <= 40 })
        #expect(lines.joined(separator: " ") == text)
    }

    @Test func pastItsRowsTheLastEndsInAnEllipsisAtAWord() {
        let lines = "one two three four five six seven eight nine ten".wrapped(toWidth: 10, maxLines: 2)
        #expect(lines == ["one two", "three…"])
    }

    @Test func aWordWiderThanTheLineIsCutNotLost() {
        #expect("abcdefghij klm".wrapped(toWidth: 4) == ["abcd", "efgh", "ij", "klm"])
    }

    @Test func ellipsizesAtAWordUnlessThatLeavesTooLittle() {
        #expect("Test Quay Ltd — Quay Office".ellipsized(toWidth: 20) == "Test Quay Ltd —…")
        #expect("Supercalifragilistic".ellipsized(toWidth: 8) == "Superca…")
        #expect("short".ellipsized(toWidth: 8) == "short")
    }

    @Test func controlCharactersAreMeasuredAsDrawn() {
        // ESC is drawn as ^[ (two columns): padding counts those, so the next column stays in line.
        let padded = "Bo\u{1B}\u{1B}Berg".padded(toWidth: 12)
        #expect(padded == "Bo^[^[Berg  ")
        #expect("a\u{1B}b".wrapped(toWidth: 80) == ["a^[b"])
    }
}
