import Foundation
import Testing
@testable import RigbookCore
import RigbookQR

// The label payload, colour codes, the QR matrix and the labels page.

@Suite("Label payload") struct LabelPayloadTests {
    @Test("an ordinary tag is written as it is, with the due date", arguments: [
        ("SL-0042", "2027-06-30", "/RB1:SL-0042:20270630"),
        ("sl-0042", "2027-06-30", "/RB1:SL-0042:20270630"),
        ("WS 12/B", "2026-01-01", "/RB1:WS 12/B:20260101"),
        ("A:B%C;D", "2026-01-01", "/RB1:A%3AB%25C%3BD:20260101"),
        ("仓-1", "2026-01-01", "/RB1:%E4%BB%93-1:20260101"),
    ])
    func written(tag: String, due: String, expected: String) {
        #expect(LabelPayload(tag: tag, due: day(due)).text == expected)
    }

    @Test("a payload stays in QR's alphanumeric set, without ;")
    func alphanumeric() {
        let allowed = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
        for tag in ["SL-0042", "a;b", "x y", "ÄÖ", "EV-\u{202E}0011", "t\u{1B}[2J"] {
            let text = LabelPayload(tag: tag, due: day("2027-01-31")).text
            #expect(text.allSatisfy(allowed.contains), "\(text)")
            #expect(!text.contains(";"))
        }
    }

    @Test("reading gives back the tag (as a tag compares) and the due date", arguments: [
        "SL-0042", "sl-0042", "A:B%C;D", "仓-1", "WS 12/B", "x\u{1B}y",
    ])
    func roundTrip(tag: String) throws {
        let payload = LabelPayload(tag: tag, due: day("2027-06-30"))
        guard case .payload(let read) = LabelPayload.read(payload.text) else {
            Issue.record("not read back: \(payload.text)")
            return
        }
        #expect(Tags.key(read.tag) == Tags.key(tag))
        #expect(read.due == day("2027-06-30"))
    }

    @Test("the slash, spaces around, Caps Lock and a missing due date are all read")
    func lenient() {
        #expect(LabelPayload.read("RB1:SL-0042:20270630")
                == .payload(LabelPayload(tag: "SL-0042", due: day("2027-06-30"))))
        #expect(LabelPayload.read("  /rb1:SL-0042:  \n") == .payload(LabelPayload(tag: "SL-0042", due: nil)))
        #expect(LabelPayload.read("/RB1:SL-0042") == .payload(LabelPayload(tag: "SL-0042", due: nil)))
        #expect(LabelPayload(tag: "SL-0042", due: nil).text == "/RB1:SL-0042:")
    }

    @Test("what is not a payload says so, and a newer or damaged one is named", arguments: [
        ("SL-0042", "no"), ("/RB:SL-1", "no"), ("ws0102", "no"), ("/RB2:SL-1:20270101", "newer"),
        ("/RB1:SL-1:20271301", "damaged"), ("/RB1:%ZZ:20270101", "damaged"), ("/RB1::20270101", "damaged"),
    ])
    func refused(text: String, kind: String) {
        switch (LabelPayload.read(text), kind) {
        case (.notAPayload, "no"): break
        case (.unreadable(let why), "newer"): #expect(why.contains("RB2"))
        case (.unreadable(let why), "damaged"): #expect(why.contains("damaged"))
        case (let other, _): Issue.record("\(text) read as \(other)")
        }
    }
}

@Suite("Colour codes") struct ColourCodeTests {
    @Test("Australian quarters: red Dec–Feb, green Mar–May, blue Jun–Aug, yellow Sep–Nov", arguments: [
        ("2026-12-01", LabelColour.red), ("2027-01-15", .red), ("2027-02-28", .red), ("2027-03-01", .green),
        ("2027-05-31", .green), ("2027-06-01", .blue), ("2027-08-31", .blue), ("2027-09-01", .yellow),
        ("2027-11-30", .yellow),
    ])
    func quarters(date: String, colour: LabelColour) {
        #expect(ColourCodeScheme.quarters.colour(on: day(date)) == colour)
    }

    @Test("six-monthly: the documented table, a new colour each half-year, repeating every two years", arguments: [
        ("2024-01-01", LabelColour.red), ("2024-07-01", .yellow), ("2025-03-10", .green), ("2025-12-31", .blue),
        ("2026-01-01", .red), ("2026-06-30", .red), ("2026-07-01", .yellow), ("2023-12-31", .blue),
    ])
    func sixMonthly(date: String, colour: LabelColour) {
        #expect(ColourCodeScheme.sixMonthly.colour(on: day(date)) == colour)
    }

    @Test func periodNames() {
        #expect(ColourCodeScheme.quarters.period(of: day("2026-12-05")) == "Dec 2026–Feb 2027")
        #expect(ColourCodeScheme.quarters.period(of: day("2027-02-05")) == "Dec 2026–Feb 2027")
        #expect(ColourCodeScheme.quarters.period(of: day("2027-04-05")) == "Mar–May 2027")
        #expect(ColourCodeScheme.sixMonthly.period(of: day("2027-09-05")) == "Jul–Dec 2027")
        #expect(ColourCodeScheme.none.colour(on: day("2027-09-05")) == nil)
    }

    @Test("no colour for an asset out of use or never examined")
    func outOfUse() {
        let row = RegisterRow(asset: sampleAsset(commissioned: "2026-01-01"),
                              summary: HistorySummary(lastThoroughDate: day("2026-10-01"), lastThoroughResult: .pass))
        let ok = row.status(on: day("2026-11-30"))
        #expect(ColourCodeScheme.quarters.colour(for: row, report: ok) == .yellow)
        var failed = ok
        failed.status = .doNotUse
        #expect(ColourCodeScheme.quarters.colour(for: row, report: failed) == nil)
    }

    @Test("the organisation's JSON without a colour code is what it was before colour codes")
    func organisationJSON() throws {
        let plain = ExaminingOrganisation(name: "Acme", address: "1 Quay")
        #expect(try ParticularsJSON.encode(plain) == #"{"address":"1 Quay","name":"Acme"}"#)
        let coded = ExaminingOrganisation(name: "Acme", address: "1 Quay", colourCode: .quarters)
        let text = try ParticularsJSON.encode(coded)
        #expect(text == #"{"address":"1 Quay","colour_code":"au-quarters","name":"Acme"}"#)
        #expect(ParticularsJSON.decode(ExaminingOrganisation.self, from: text) == coded)
        #expect(ParticularsJSON.decode(ExaminingOrganisation.self, from: #"{"address":"","name":"X"}"#)?.colourCode
                == ColourCodeScheme.none)
        let change = ParticularsChange.organisation(plain).setting(.colourCode, to: "six-monthly")
        #expect(change[.colourCode] == "six-monthly")
        #expect(change.setting(.colourCode, to: "plaid")[.colourCode] == "six-monthly",
                "an unknown word changes nothing")
    }
}

@Suite("QR codes and the labels page") struct LabelPageTests {
    @Test("libqrencode gives the smallest version, with its finder patterns")
    func matrix() throws {
        let code = try #require(QREncoder.matrix("/RB1:SL-0042:20270630", correction: .low))
        #expect(code.size == 21, "21 alphanumeric characters fit version 1 at level L")
        let medium = try #require(QREncoder.matrix("/RB1:SL-0042:20270630"))
        #expect(medium.size == 21, "and at level M too: the date's digits are encoded in numeric mode")
        let long = try #require(QREncoder.matrix("/RB1:%E4%BB%93-LONGER-TAG-0001:20270630"))
        #expect(long.size > 21)
        // A finder pattern's outer ring, in each of three corners.
        for (x0, y0) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            for i in 0..<7 {
                #expect(code.isDark(x: x0 + i, y: y0) && code.isDark(x: x0, y: y0 + i))
            }
            #expect(!code.isDark(x: x0 + 1, y: y0 + 1) && code.isDark(x: x0 + 3, y: y0 + 3))
        }
        #expect(QREncoder.matrix("a\u{0}b") == nil)
    }

    @Test("half blocks hold two module rows a line, with the quiet zone")
    func halfBlocks() throws {
        let code = try #require(QREncoder.matrix("/RB1:SL-0042:20270630", correction: .low))
        let lines = code.halfBlockLines(quiet: 2)
        #expect(lines.count == 13)
        #expect(lines.allSatisfy { $0.count == 25 })
        #expect(lines[0] == String(repeating: " ", count: 25))
        #expect(lines[1].dropFirst(2).hasPrefix("█▀▀▀▀▀█"))
    }

    static func items(_ count: Int) -> [Labels.Item] {
        var particulars = Particulars.initial
        particulars.employers[Particulars.mainEmployerUUID]?.name = "Harbour <Lifting> & Co"
        return (0..<count).map { $0 + 1 }.map { n in
            var asset = sampleAsset(commissioned: "2026-01-01", intervalMonths: 6)
            asset.uuid = UUID()
            asset.tag = String(format: "SL-%04d", n)
            let row = RegisterRow(asset: asset, summary: HistorySummary(lastThoroughDate: day("2026-10-01"),
                                                                      lastThoroughResult: .pass))
            return Labels.Item(row: row, particulars: particulars, today: day("2026-11-30"), scheme: .quarters)
        }
    }

    @Test("a page: labels per sheet, each with its payload, QR, employer and colour", arguments: [
        (Labels.Sheet.small, 15, 2), (Labels.Sheet.large, 8, 1), (Labels.Sheet.large, 9, 2),
        (Labels.Sheet.small, 14, 1), (Labels.Sheet.small, 28, 2), (Labels.Sheet.small, 0, 1),
    ])
    func page(sheet: Labels.Sheet, count: Int, pages: Int) {
        for layout in Labels.Layout.allCases {
            let html = Labels.render(LabelPageTests.items(count), layout: layout, sheet: sheet,
                                     qr: { QREncoder.matrix($0) }, printedAt: "2026-11-30T09:00:00Z")
            #expect(html.components(separatedBy: "<section class=\"sheet").count - 1 == pages)
            #expect(html.components(separatedBy: "</section>").count - 1 == pages, "every sheet closed")
            #expect(html.contains("<title>Labels, \(sheet.name) — \(count) label\(count == 1 ? "" : "s"), printed "))
            #expect(html.components(separatedBy: "<div class=\"label ").count - 1 == count)
            #expect(html.components(separatedBy: "<svg class=\"qr\"").count - 1 == count)
            guard count > 0 else { continue }
            #expect(html.contains("data-payload=\"/RB1:SL-0001:20270401\""))
            #expect(html.contains("Harbour &lt;Lifting&gt; &amp; Co"))
            #expect(html.contains("crispEdges"))
            #expect(!html.contains("<script"), "self-contained and inert")
            if layout == .card { #expect(html.contains("YELLOW · Sep–Nov 2026")) }
            if layout == .due { #expect(html.contains("NEXT EXAMINATION DUE") && html.contains("APR 2027")) }
        }
    }

    @Test("the card gives the owner's client ref under the name, only when the asset has one")
    func cardClientRef() {
        var asset = sampleAsset(commissioned: "2026-01-01", intervalMonths: 6)
        asset.clientRef = "HIRE-<0815>"
        let items = LabelPageTests.items(1) + [Labels.Item(row: RegisterRow(asset: asset, summary: .empty),
                                                            particulars: .initial, today: day("2026-11-30"),
                                                            scheme: .quarters)]
        let html = Labels.render(items, layout: .card, sheet: .small, qr: { _ in nil }, printedAt: "now")
        #expect(html.components(separatedBy: "Client ref").count - 1 == 1, "the first asset has none")
        #expect(html.contains("<div class=\"line small\">Client ref <bdi>HIRE-&lt;0815&gt;</bdi></div>"))
        let due = Labels.render(items, layout: .due, sheet: .small, qr: { _ in nil }, printedAt: "now")
        #expect(!due.contains("Client ref"), "the due label has no room for it")
    }

    @Test("an asset out of use says so instead of a due date")
    func outOfUse() {
        var item = LabelPageTests.items(1)[0]
        item.status = .doNotUse
        let html = Labels.render([item], layout: .due, sheet: .small, qr: { _ in nil }, printedAt: "now")
        #expect(html.contains("DO NOT USE"))
        #expect(!html.contains("NEXT EXAMINATION DUE"))
        #expect(html.contains("No QR code"))
    }
}
