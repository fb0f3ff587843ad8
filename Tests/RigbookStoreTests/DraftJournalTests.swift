import Foundation
import Glibc
import Testing
import RigbookCore
@testable import RigbookStore

/// The keystroke journal beside a draft: read back with the draft, ignored when it does not belong to
/// the file beside it, folded into the file at start-up, removed with the draft.
extension DraftStoreTests {
    /// A draft with `notes`, as a journal line extending revision `revision`.
    func journalLine(_ base: DraftFile, notes: String, revision: Int) -> DraftFile {
        var line = base
        line.values.notes = notes
        line.revision = revision
        return line
    }

    /// A draft file of revision 3 whose notes say "written", and its journal, open.
    func writtenWithJournal(_ temp: TempHome) throws -> (DraftFile, DraftJournal) {
        var file = makeDraft(assetUUID: UUID(), revision: 3)
        file.values.notes = "written"
        try temp.store.write(file)
        return (file, try temp.store.openJournal(id: file.draftID))
    }

    @Test("a journal without a draft file gives the last edit read")
    func journalAloneIsTheDraft() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let uuid = UUID()
        let base = makeDraft(assetUUID: uuid, revision: 0)
        guard case .acquired(let lock) = temp.store.lock(id: base.draftID) else { Issue.record("no lock"); return }
        defer { lock.release() }
        let journal = try temp.store.openJournal(id: base.draftID)
        for count in 1...12 {
            try journal.append(journalLine(base, notes: String(repeating: "x", count: count), revision: 0))
        }
        let read = try #require(try temp.store.read(id: base.draftID))
        #expect(read.values.notes == String(repeating: "x", count: 12))
        #expect(read.revision == 0)
    }

    @Test("a journal extending the file's revision wins; one from another revision or session is ignored")
    func journalBelongsOnlyToItsRevision() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let (file, journal) = try writtenWithJournal(temp)

        try journal.append(journalLine(file, notes: "written and typed", revision: 3))
        #expect(try temp.store.read(id: file.draftID)?.values.notes == "written and typed")

        // Left over from before revision 3 (a kill between the durable write and the truncation).
        journal.truncate()
        try journal.append(journalLine(file, notes: "older", revision: 2))
        #expect(try temp.store.read(id: file.draftID)?.values.notes == "written")

        // Another session's journal beside this file.
        journal.truncate()
        var other = journalLine(file, notes: "someone else", revision: 3)
        other.sessionID = DraftIdentity.sessionID(assetUUID: try #require(UUID(uuidString: file.assetUUID)))
        try journal.append(other)
        #expect(try temp.store.read(id: file.draftID)?.values.notes == "written")
    }

    @Test("an emptied journal keeps nothing of the lines before: the file is cut to nothing, and takes lines again")
    func emptiedJournalKeepsNothing() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let (file, journal) = try writtenWithJournal(temp)
        try journal.append(journalLine(file, notes: "typed before the durable write", revision: 3))
        journal.truncate()
        let path = temp.store.journalPath(for: file.draftID)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.isEmpty, "\(bytes.count) bytes left")
        try journal.append(journalLine(file, notes: "typed after", revision: 3))
        #expect(try temp.store.read(id: file.draftID)?.values.notes == "typed after")
    }

    @Test("a journal an older build wrote with write(2), its last line cut short, is read and added to")
    func olderJournalWithTornLine() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let base = makeDraft(assetUUID: UUID(), revision: 0)
        try temp.store.openJournal(id: base.draftID).close()
        let path = temp.store.journalPath(for: base.draftID)
        var older = try JSONEncoder().encode(journalLine(base, notes: "whole", revision: 0))
        older.append(contentsOf: Data("\n{\"schema_version\":1,\"draft_id\":\"cut".utf8))
        try older.write(to: URL(fileURLWithPath: path))
        #expect(try temp.store.read(id: base.draftID)?.values.notes == "whole")
        #expect(temp.store.ids() == [base.draftID])
        // This build maps it, keeps what it holds and starts its own line after the cut one.
        let journal = try temp.store.openJournal(id: base.draftID)
        try journal.append(journalLine(base, notes: "whole, then more", revision: 0))
        #expect(try temp.store.read(id: base.draftID)?.values.notes == "whole, then more")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.starts(with: older))
        journal.truncate()
        #expect(try temp.store.read(id: base.draftID) == nil)
        #expect(temp.store.ids().isEmpty)
    }

    @Test("where the file cannot be mapped, lines go in with pwrite in the same format, after an older build's")
    func journalWithoutMapping() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let (file, journal) = try writtenWithJournal(temp)
        let path = temp.store.journalPath(for: file.draftID)
        var older = try JSONEncoder().encode(journalLine(file, notes: "older build", revision: 3))
        older.append(contentsOf: Data("\n{\"cut".utf8))
        try older.write(to: URL(fileURLWithPath: path))
        journal.writesInstead = true
        try journal.appendEdit(field: "notes", text: "older build, typed", sessionID: file.sessionID, revision: 3)
        #expect(try temp.store.read(id: file.draftID)?.values.notes == "older build, typed")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).starts(with: older))
        journal.truncate()
        #expect(try temp.store.read(id: file.draftID)?.values.notes == "written")
        for text in ["w", "wr", "wri"] {
            try journal.appendEdit(field: "notes", text: text, sessionID: file.sessionID, revision: 3)
        }
        #expect(try temp.store.read(id: file.draftID)?.values.notes == "wri")
        journal.truncate()
        try journal.append(journalLine(file, notes: "whole", revision: 3))
        #expect(try temp.store.read(id: file.draftID)?.values.notes == "whole")
    }

    @Test("typed edits replay over the file and over whole lines; one that does not match is passed over")
    func editsReplayInOrder() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let (file, journal) = try writtenWithJournal(temp)
        // Over the file (the journal was emptied by its write).
        try journal.appendEdit(field: "notes", text: "written, typed", sessionID: file.sessionID, revision: 3)
        var read = try #require(try temp.store.read(id: file.draftID))
        #expect(read.values.notes == "written, typed" && read.focusedField == "notes" && read.revision == 3)
        #expect(read.values.defectDescription == file.values.defectDescription)
        // Over a whole line, field after field; quotes, backslashes, newlines and any script survive.
        try journal.append(journalLine(file, notes: "whole", revision: 3))
        try journal.appendEdit(field: "defect_description", text: "cut \"strand\"\\\n二", sessionID: file.sessionID,
                               revision: 3)
        try journal.appendEdit(field: "notes", text: "whole!", sessionID: file.sessionID, revision: 3)
        read = try #require(try temp.store.read(id: file.draftID))
        #expect(read.values.notes == "whole!" && read.values.defectDescription == "cut \"strand\"\\\n二")
        // Another revision, another session, a field this build does not know: passed over.
        try journal.appendEdit(field: "notes", text: "stale", sessionID: file.sessionID, revision: 2)
        try journal.appendEdit(field: "notes", text: "other", sessionID: "someone else", revision: 3)
        try journal.appendEdit(field: "colour", text: "red", sessionID: file.sessionID, revision: 3)
        #expect(try temp.store.read(id: file.draftID)?.values.notes == "whole!")
        // Folded at start: the file takes the replayed draft.
        journal.close()
        #expect(temp.store.foldJournal(id: file.draftID))
        #expect(try temp.store.read(id: file.draftID)?.values.notes == "whole!")
        #expect(try temp.store.read(id: file.draftID)?.revision == 4)
    }

    @Test("a journal cut short by another program under its mapping: no crash, the next line starts it again")
    func journalCutShortUnderTheMapping() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let base = makeDraft(assetUUID: UUID(), revision: 0)
        let journal = try temp.store.openJournal(id: base.draftID)
        try journal.append(journalLine(base, notes: "one", revision: 0))
        let path = temp.store.journalPath(for: base.draftID)
        #expect(Glibc.truncate(path, 0) == 0)
        // This store lands past the file's end: the fault is caught and the line reported as not written.
        #expect(throws: DraftStoreError.self) {
            try journal.appendEdit(field: "notes", text: "one, two", sessionID: base.sessionID, revision: 0)
        }
        try journal.append(journalLine(base, notes: "one, two", revision: 0))
        #expect(try temp.store.read(id: base.draftID)?.values.notes == "one, two")
    }

    @Test("start-up folds a journal into its draft file; deleting the draft removes the journal")
    func housekeepingFoldsJournal() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let register = try temp.openRegister()
        let asset = makeAsset(tag: "SL-0042")
        try register.addAsset(asset)
        let base = makeDraft(assetUUID: asset.uuid, revision: 0, updatedAt: Date())
        let journal = try temp.store.openJournal(id: base.draftID)
        try journal.append(journalLine(base, notes: "typed before kill -9", revision: 0))
        journal.close()

        let report = temp.store.housekeeping(register: register, retentionDays: 30)
        #expect(report.journalsFolded == [base.draftID])
        #expect(!FileManager.default.fileExists(atPath: temp.store.journalPath(for: base.draftID)))
        #expect(temp.store.ids() == [base.draftID])
        let folded = try #require(try temp.store.read(id: base.draftID))
        #expect(folded.values.notes == "typed before kill -9")
        #expect(folded.revision == 1)

        let again = try temp.store.openJournal(id: base.draftID)
        try again.append(journalLine(folded, notes: "more", revision: 1))
        try temp.store.delete(id: base.draftID)
        #expect(!FileManager.default.fileExists(atPath: temp.store.journalPath(for: base.draftID)))
        #expect(try temp.store.read(id: base.draftID) == nil)
    }

    @Test("a journal that is a symbolic link is neither followed nor opened")
    func journalLinkRefused() throws {
        let temp = TempHome()
        defer { temp.remove() }
        let base = makeDraft(assetUUID: UUID(), revision: 0)
        try temp.store.write(base)
        let target = temp.root + "/elsewhere.txt"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
        #expect(symlink(target, temp.store.journalPath(for: base.draftID)) == 0)
        #expect(throws: DraftStoreError.self) { try temp.store.openJournal(id: base.draftID) }
        #expect(try temp.store.read(id: base.draftID)?.values == base.values)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }
}
