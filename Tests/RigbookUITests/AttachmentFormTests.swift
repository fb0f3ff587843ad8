import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// Attachments on the inspection form, by keys: Ctrl-O's prompt with Tab completion, the copy and the draft
/// written at once, refusals as sentences, removal, discard and save.
@Suite("Attachments on the inspection form")
struct AttachmentFormTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4]

    /// A form harness with a folder of files to attach: two photos, a PDF, a text file, a folder and a FIFO.
    static func harness() throws -> (FormHarness, String) {
        let h = try FormHarness(profile: Profile(inspectorName: "Ann Smith", certificationNumber: "LEEA-1"))
        let files = h.home.root + "/files"
        try FileManager.default.createDirectory(atPath: files + "/sub folder", withIntermediateDirectories: true)
        try Data(jpeg).write(to: URL(fileURLWithPath: files + "/hook crack é.jpg"))
        try Data(jpeg + [9]).write(to: URL(fileURLWithPath: files + "/hook side.jpg"))
        try Data("%PDF-1.4 cert".utf8).write(to: URL(fileURLWithPath: files + "/cert.pdf"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: files + "/notes.txt"))
        #expect(mkfifo(files + "/pipe", 0o600) == 0)
        return (h, files)
    }

    func attachmentFiles(_ h: FormHarness) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: h.home.documents + "/Attachments")) ?? []
    }

    @Test("Ctrl-O, Tab completes the common beginning, Tab again lists, Enter attaches and writes the draft at once")
    func attachByKeys() throws {
        let (h, files) = try Self.harness()
        h.press(.char("i"))
        h.press(.ctrl("o"))
        #expect(h.shows("Attach a file"))
        h.type(files + "/ho")
        h.press(.tab)
        #expect(h.form?.attachPrompt?.text == files + "/hook ")
        h.press(.tab)
        #expect(h.form?.attachPrompt?.message?.contains("Tab again lists them") == true)
        h.press(.tab)
        #expect(h.shows("hook crack é.jpg") && h.shows("hook side.jpg"))
        h.type("c")
        h.press(.tab)
        #expect(h.form?.attachPrompt?.text == files + "/hook crack é.jpg")
        #expect(!h.draftExists)
        h.press(.enter)
        // No time has passed: the draft was written at once, naming the file already in Attachments/.
        #expect(h.form?.attachPrompt == nil)
        #expect(h.form?.values.attachments.map(\.name) == ["hook crack é.jpg"])
        let draft = try #require(try h.readDraft())
        #expect(draft.values.attachments.map(\.name) == ["hook crack é.jpg"])
        #expect(attachmentFiles(h) == [draft.values.attachments[0].sha256])
        #expect(h.shows("Attached hook crack é.jpg (8 bytes)."))
        h.focus(.attachments)
        #expect(h.shows("hook crack é.jpg · 8 bytes"))
    }

    @Test("a folder completes with its slash; refusals are sentences and the prompt stays to correct the path")
    func refusals() throws {
        let (h, files) = try Self.harness()
        h.press(.char("i"))
        h.press(.ctrl("o"))
        h.type(files + "/sub")
        h.press(.tab)
        #expect(h.form?.attachPrompt?.text == files + "/sub folder/")
        h.press(.enter)
        #expect(h.form?.attachPrompt?.message?.contains("is a folder") == true)
        let refused = [("notes.txt", "only photos and PDFs are attached."), ("pipe", "a regular file (a pipe"),
                       ("nope.jpg", "There is no file")]
        for (name, sentence) in refused {
            h.press(.ctrl("u"))
            h.type(files + "/" + name)
            h.press(.enter)
            #expect(h.form?.attachPrompt?.message?.contains(sentence) == true, "\(name)")
            #expect(h.flatScreen.contains(sentence), "\(name)")
        }
        h.press(.escape)
        #expect(h.form?.attachPrompt == nil)
        #expect(h.form?.values.attachments == [])
        #expect(attachmentFiles(h).isEmpty)
        #expect(!h.draftExists)
    }

    @Test("Delete on the attachments line removes one; discarding the draft removes its files")
    func removeAndDiscard() throws {
        let (h, files) = try Self.harness()
        h.press(.char("i"))
        for name in ["cert.pdf", "hook side.jpg"] {
            h.press(.ctrl("o"))
            h.type(files + "/" + name)
            h.press(.enter)
        }
        #expect(attachmentFiles(h).count == 2)
        h.focus(.attachments)
        h.press(.up)
        #expect(h.form?.attachmentSelection == 0)
        h.press(.delete)
        #expect(h.form?.values.attachments.map(\.name) == ["hook side.jpg"])
        #expect(h.shows("Removed cert.pdf"))
        h.advance(1)  // the debounced draft no longer names cert.pdf
        #expect(try h.readDraft()?.values.attachments.map(\.name) == ["hook side.jpg"])
        h.press(.escape)
        h.press(.char("d"))
        #expect(h.form == nil && !h.draftExists)
        // The draft named only "hook side.jpg" by then: it goes; cert.pdf waits for the start-up sweep.
        #expect(attachmentFiles(h).count == 1)
    }

    @Test("a saved record keeps its attachments; the record view lists them")
    func saved() throws {
        let (h, files) = try Self.harness()
        h.press(.char("i"))
        h.press(.ctrl("o"))
        h.type(files + "/cert.pdf")
        h.press(.enter)
        h.fillCompletePass()
        h.advance(1)
        h.press(.ctrl("s"))
        let record = try #require(try h.history().first)
        #expect(record.values.attachments.map(\.name) == ["cert.pdf"])
        #expect(try h.register.attachments(recordUUID: record.recordUUID) == record.values.attachments)
        #expect(!h.draftExists && attachmentFiles(h).count == 1)
        h.press(.enter, .enter)
        let lines = FormHistoryTests.recordLines(h).joined(separator: "\n")
        #expect(lines.contains("cert.pdf · 13 bytes"), "\(lines)")
        #expect(lines.contains("SHA-256 \(record.values.attachments[0].sha256.prefix(16))…"))
    }

    @Test("completion: the common beginning, a folder's slash, hidden names only when asked, ~ as home")
    func completion() {
        let entries = [PathListing.Entry(name: "hook a.jpg", isDirectory: false),
                       PathListing.Entry(name: "hook b.jpg", isDirectory: false),
                       PathListing.Entry(name: "photos", isDirectory: true),
                       PathListing.Entry(name: ".hidden", isDirectory: false)]
        func complete(_ text: String, all: Bool = false) -> PathCompletion.Result {
            PathCompletion.complete(PathListing(typed: text, expanded: text, entries: entries), listAll: all)
        }
        #expect(complete("d/h").text == "d/hook ")
        #expect(complete("d/hook ", all: true).candidates == ["hook a.jpg", "hook b.jpg"])
        #expect(complete("d/p").text == "d/photos/")
        #expect(complete("d/", all: true).candidates == ["hook a.jpg", "hook b.jpg", "photos/"])
        #expect(complete("d/.").text == "d/.hidden")
        #expect(complete("d/z").message == "Nothing in d/ starts with “z”.")
        #expect(PathCompletion.expandingTilde("~/x.jpg", home: "/home/ann") == "/home/ann/x.jpg")
        #expect(PathCompletion.expandingTilde("~", home: "/home/ann/") == "/home/ann/")
        #expect(PathCompletion.expandingTilde("~bob/x", home: "/home/ann") == "~bob/x")
        #expect(PathCompletion.split("a/b/c") == ("a/b/", "c"))
    }
}
