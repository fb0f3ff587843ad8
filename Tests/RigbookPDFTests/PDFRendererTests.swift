import Foundation
import Testing
import RigbookCore
import RigbookPDF

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
                             rows: (1...rows).map { ["SL-\(String(format: "%04d", $0))", "2 t web sling \($0)",
                                                     "2027-05-30"] })),
            ])
    }

    /// Writes `bytes` to a temporary file and runs a poppler tool on it.
    func poppler(_ tool: String, _ arguments: [String] = [], _ bytes: [UInt8]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("d.pdf")
        try Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments + [file.path] + (tool == "pdftotext" ? ["-"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    /// pdfinfo's lines as key and value.
    func pdfInfo(_ bytes: [UInt8]) throws -> [String: String] {
        var info: [String: String] = [:]
        for line in try poppler("pdfinfo", [], bytes).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            info[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return info
    }

    @Test func a4WithItsMetadataAndEveryFontEmbedded() throws {
        let bytes = try PDFRenderer.render(PDFRendererTests.document())
        let info = try pdfInfo(bytes)
        #expect(info["Page size"] == "595.276 x 841.89 pts (A4)", "\(info)")
        #expect(info["Title"] == "Report of thorough examination SL-0042")
        #expect(info["Author"] == "Ann Smith")
        #expect(info["Pages"] == "1")
        #expect(info["CreationDate"]?.contains("2026") == true, "the document's date, not the clock: \(info)")
        let fonts = try poppler("pdffonts", [], bytes).split(separator: "\n").dropFirst(2)
        #expect(!fonts.isEmpty)
        for font in fonts {
            // name, type, encoding, emb, sub, uni, object ID: embedded and a subset.
            let columns = font.split(separator: " ", omittingEmptySubsequences: true)
            #expect(columns.count >= 7 && columns[columns.count - 5] == "yes" && columns[columns.count - 4] == "yes",
                    "not embedded as a subset: \(font)")
        }
        #expect(fonts.contains { $0.contains("DejaVuSans") } && fonts.contains { $0.contains("NotoSansCJK") },
                "\(fonts)")
    }

    @Test func theTextComesBackAsWrittenCJKIncluded() throws {
        let text = try poppler("pdftotext", ["-layout"], try PDFRenderer.render(PDFRendererTests.document()))
        for expected in ["Report of thorough examination", "Harbour Lifting Ltd", "仓库 2, North Quay",
                         "This report amends record #3.", "SL-0003", "page 1 of 1"] {
            #expect(text.contains(expected), "\(expected) missing from:\n\(text)")
        }
    }

    @Test func aLongTableRunsOntoPagesWithItsHeaderAndEveryPageSaysOfHowMany() throws {
        let bytes = try PDFRenderer.render(PDFRendererTests.document(rows: 120))
        let pages = try #require(Int(try pdfInfo(bytes)["Pages"] ?? ""))
        #expect(pages >= 3)
        for page in 1...pages {
            let text = try poppler("pdftotext", ["-f", "\(page)", "-l", "\(page)", "-layout"], bytes)
            #expect(text.contains("page \(page) of \(pages)"), "page \(page): \(text)")
            #expect(text.contains("Next due"), "the header row on page \(page)")
        }
        // Every row whole, once.
        let all = try poppler("pdftotext", ["-layout"], bytes)
        for row in [1, 60, 120] { #expect(all.components(separatedBy: "2 t web sling \(row) ").count == 2, "\(row)") }
    }

    @Test func theSameDocumentGivesTheSameBytes() throws {
        let first = try PDFRenderer.render(PDFRendererTests.document())
        let second = try PDFRenderer.render(PDFRendererTests.document())
        #expect(first == second)
        #expect(first.starts(with: Array("%PDF-".utf8)))
    }
}
