import Foundation
import Testing
import RigbookCore
import RigbookPDF
import RigbookTestSupport

/// The PDF renderer read back with poppler's tools: A4, fonts embedded, the text (CJK too) as written, the page
/// furniture on every page, tables whose rows never split, and the same bytes for the same document.
@Suite struct PDFRendererTests {
    static func document(rows: Int = 3) -> PrintedDocument {
        PrintedDocument(
            title: "Report of thorough examination SL-0042", author: "Ann Smith",
            created: "2026-11-30T09:15:00Z", footer: "Harbour Lifting Ltd · record #7 · sha256 3f2a…",
            blocks: [
                .heading("Report of thorough examination", level: 1),
                .paragraph("Lifting Operations and Lifting Equipment Regulations 1998, regulation 10", .small),
                .fields([.init("1 Employer", "Harbour Lifting Ltd\n1 Quay Road, Testport"),
                         .init("2 Premises", "仓库 2, North Quay")]),
                .paragraph("This report amends record #3.", .banner),
                .heading("Items", level: 2),
                .table(.init(columns: [.init("Tag", share: 1), .init("Name", share: 3), .init("Next due", share: 1)],
                             cells: (1...rows).map { ["SL-\(String(format: "%04d", $0))", "2 t web sling \($0)",
                                                      "2027-05-30"] })),
            ])
    }

    @Test func a4WithItsMetadataAndEveryFontEmbedded() throws {
        let bytes = try PDFRenderer.render(PDFRendererTests.document())
        let info = try Poppler.info(bytes)
        #expect(info["Page size"] == "595.276 x 841.89 pts (A4)", "\(info)")
        #expect(info["Title"] == "Report of thorough examination SL-0042")
        #expect(info["Author"] == "Ann Smith")
        #expect(info["Pages"] == "1")
        #expect(info["CreationDate"]?.contains("2026") == true, "the document's date, not the clock: \(info)")
        let fonts = try Poppler.fonts(bytes)
        #expect(!fonts.isEmpty && fonts.allSatisfy(\.embeddedSubset), "\(fonts)")
        #expect(fonts.contains { $0.name.contains("DejaVuSans") } && fonts.contains { $0.name.contains("NotoSansCJK") },
                "\(fonts)")
    }

    @Test func theTextComesBackAsWrittenCJKIncluded() throws {
        let text = try Poppler.run("pdftotext", ["-layout"], try PDFRenderer.render(PDFRendererTests.document()))
        for expected in ["Report of thorough examination", "Harbour Lifting Ltd", "仓库 2, North Quay",
                         "This report amends record #3.", "SL-0003", "page 1 of 1"] {
            #expect(text.contains(expected), "\(expected) missing from:\n\(text)")
        }
    }

    @Test func aLongTableRunsOntoPagesWithItsHeaderAndEveryPageSaysOfHowMany() throws {
        let bytes = try PDFRenderer.render(PDFRendererTests.document(rows: 120))
        let pages = try #require(Int(try Poppler.info(bytes)["Pages"] ?? ""))
        #expect(pages >= 3)
        for page in 1...pages {
            let text = try Poppler.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", "-layout"], bytes)
            #expect(text.contains("page \(page) of \(pages)"), "page \(page): \(text)")
            #expect(text.contains("Next due"), "the header row on page \(page)")
        }
        // Every row whole, once.
        let all = try Poppler.run("pdftotext", ["-layout"], bytes)
        for row in [1, 60, 120] { #expect(all.components(separatedBy: "2 t web sling \(row) ").count == 2, "\(row)") }
    }

    @Test func theSameDocumentGivesTheSameBytes() throws {
        let first = try PDFRenderer.render(PDFRendererTests.document())
        let second = try PDFRenderer.render(PDFRendererTests.document())
        #expect(first == second)
        #expect(first.starts(with: Array("%PDF-".utf8)))
    }

    @Test func aParagraphTallerThanAPageGoesOnOverTheNextWithNothingLost() throws {
        let lines = (1...150).map { "Line \($0) of the notes." }
        let document = PrintedDocument(title: "Notes", created: "2026-11-30T09:15:00Z", blocks: [
            .heading("Notes", level: 2), .paragraph(.lines(lines.joined(separator: "\n")), .banner),
            .paragraph("After the notes.", .plain),
        ])
        let bytes = try PDFRenderer.render(document)
        let pages = try #require(Int(try Poppler.info(bytes)["Pages"] ?? ""))
        #expect(pages >= 2)
        let text = try Poppler.run("pdftotext", ["-layout"], bytes)
        for line in lines + ["After the notes."] {
            #expect(text.components(separatedBy: line + "\n").count == 2 || text.contains(line), "\(line)")
        }
        // Each line once, in order.
        let found = lines.compactMap { text.range(of: $0 + "\n")?.lowerBound }
        #expect(found.count == lines.count && found == found.sorted())
    }

    @Test func aDocumentWrittenRowByRowIsTheSameAsOneHeldWhole() throws {
        let whole = PDFRendererTests.document(rows: 80)
        var streamed: [UInt8] = []
        try PDFRenderer.write(whole.cover, content: { writer in
            for block in whole.blocks {
                guard case .table(let table) = block else { try writer.write(block); continue }
                try writer.startTable(table.columns)
                for row in table.rows { try writer.writeRow(row) }
                try writer.endTable()
            }
        }, to: { streamed += $0 })
        #expect(streamed == (try PDFRenderer.render(whole)))
    }

    @Test func aHeadingIsNeverTheLastLineOfAPage() throws {
        // Pages filled with more and more rows, then a heading: wherever the page ends, the heading goes over with
        // the paragraph it heads.
        var wentOver = false
        for count in 40...52 {
            var blocks: [PrintedDocument.Block] = [.table(.init(columns: [.init("Row")],
                                                                cells: (1...count).map { ["Row \($0)"] }))]
            blocks += [.heading("The heading", level: 2), .paragraph("What it heads.", .plain)]
            let bytes = try PDFRenderer.render(PrintedDocument(title: "T", created: "2026-11-30T09:15:00Z",
                                                               blocks: blocks))
            let pages = try #require(Int(try Poppler.info(bytes)["Pages"] ?? ""))
            for page in 1...pages {
                let text = try Poppler.run("pdftotext", ["-f", "\(page)", "-l", "\(page)"], bytes)
                #expect(text.contains("The heading") == text.contains("What it heads."), "\(count), page \(page)")
                if page > 1 && text.contains("The heading") && !text.contains("Row ") { wentOver = true }
            }
        }
        #expect(wentOver, "some count of rows left room for the heading but not what follows it")
    }

    @Test func aFileEmbeddedByQPDFComesBackByteForByteWithThePagesUntouched() throws {
        let drawn = try PDFRenderer.render(PDFRendererTests.document())
        let record = Array("{\"record\": 7, \"note\": \"仓库 2\"}\n".utf8)
        let file = EmbeddedFiles.File(name: "record-7.json", bytes: record, description: "The signed record",
                                      mediaType: "application/json")
        let carried = try EmbeddedFiles.embed([file], in: drawn)
        #expect(try EmbeddedFiles.embed([file], in: drawn) == carried, "the same PDF and file, the same bytes")
        #expect(try Poppler.run("pdfdetach", ["-list"], carried).contains("1: record-7.json"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("detach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = folder.appendingPathComponent("out.json").path
        _ = try Poppler.run("pdfdetach", ["-save", "1", "-o", saved], carried)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: saved))) == record)
        // The pages as drawn: the same text, the same metadata.
        #expect(try Poppler.run("pdftotext", [], carried) == (try Poppler.run("pdftotext", [], drawn)))
        #expect(try Poppler.info(carried)["Title"] == "Report of thorough examination SL-0042")
        // A second file sorts beside it; a name already carried is refused.
        let both = try EmbeddedFiles.embed([.init(name: "a-key.pem", bytes: Array("key".utf8))], in: carried)
        #expect(try Poppler.run("pdfdetach", ["-list"], both).contains("2 embedded files"))
        #expect(throws: PDFError.self) { try EmbeddedFiles.embed([file], in: carried) }
        #expect(throws: PDFError.self) { try EmbeddedFiles.embed([file], in: Array("not a PDF".utf8)) }
    }

    @Test("a row taller than a page is the one row cut, between its lines, with nothing lost",
          arguments: [false, true])
    func aRowTallerThanAPageIsCutBetweenItsLines(asField: Bool) throws {
        let lines = (1...240).map { "Defect line \($0)." }
        let tall: RichText = .lines(lines.joined(separator: "\n"))
        let block: PrintedDocument.Block = asField
            ? .fields([.init("8a  Defect", tall), .init("8b  Repair", "None.")])
            : .table(.init(columns: [.init("Tag"), .init("Defect", share: 3)],
                           cells: [["SL-1", "Short."], ["SL-2", tall], ["SL-3", "After it."]]))
        let bytes = try PDFRenderer.render(PrintedDocument(title: "T", created: "2026-11-30T09:15:00Z",
                                                           blocks: [.heading("Defects", level: 2), block]))
        let pages = try #require(Int(try Poppler.info(bytes)["Pages"] ?? ""))
        #expect(pages >= 3)
        let text = try Poppler.run("pdftotext", [], bytes)
        let found = lines.compactMap { text.range(of: $0 + "\n")?.lowerBound }
        #expect(found.count == lines.count && found == found.sorted(), "every line once, in order")
        #expect(text.contains(asField ? "None." : "After it."))
        if !asField {
            for page in 1...pages {
                let onPage = try Poppler.run("pdftotext", ["-f", "\(page)", "-l", "\(page)"], bytes)
                #expect(onPage.contains("Defect\n") || onPage.hasPrefix("Tag"), "the header on page \(page)")
            }
        }
    }
}
