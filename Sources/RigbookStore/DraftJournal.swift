import Foundation
import RigbookCore

/// The keystroke journal beside a draft (`Drafts/<id>.journal`, issue 17): every edit appends the draft as it
/// now stands, one compact JSON line, with a single `write(2)` and no fsync. The kernel's page cache outlives
/// the process, so after `kill -9` the next start finds every edit the program had read; the durable draft
/// (written 500 ms after the last key, fsynced) still bounds what a power cut loses. After each durable draft
/// write the journal is truncated: the draft file then holds everything.
///
/// A line carries the `revision` of the draft file it extends (0: none written yet). It belongs to the draft
/// beside it only when its `draft_id` is that file's name and its `session_id` and `revision` are the file's
/// (or, with no file, the revision is 0); anything else is left over from an earlier write and is ignored.
public final class DraftJournal {
    public let id: String
    private var fd: Int32
    /// Bytes appended since the last truncation: past `DraftJournal.maximumBytes` nothing more is appended
    /// (the durable draft write, which truncates, must then be failing; its warning is on screen).
    private var bytes = 0
    /// The last line appended by hand, which the next is spliced from when only the notes and the time changed.
    private var last: DraftJournalLine.Written?
    /// One encoder for every line: made once, not per key.
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Larger than any run of edits between two draft writes (a line is a few kilobytes, a write comes at least
    /// once a second while typing); a larger journal is not read.
    public static let maximumBytes = 4 << 20

    init(id: String, fd: Int32) {
        self.id = id
        self.fd = fd
        var info = stat()
        if fstat(fd, &info) == 0 { bytes = Int(info.st_size) }
    }

    /// Appends the draft as one line, in one `write(2)`.
    public func append(_ draft: DraftFile) throws(DraftStoreError) {
        guard fd >= 0 else { throw .io("the journal of \(id) is closed") }
        var line: [UInt8]
        // A typed character changes the notes and the time alone: its line is the last one with those two spliced.
        let byHand = last.flatMap { DraftJournalLine.spliced(draft, from: $0) } ?? DraftJournalLine.written(draft)
        if let byHand {
            line = byHand.bytes
            last = byHand
        } else {
            last = nil
            guard let encoded = try? encoder.encode(draft) else { throw .io("the draft of \(id) cannot be encoded") }
            line = Array(encoded)
        }
        line.append(0x0A)
        guard bytes + line.count <= DraftJournal.maximumBytes else { throw .io("the journal of \(id) is full") }
        let written = line.withUnsafeBytes { buffer -> Int in
            var result: Int
            repeat { result = Glibc.write(fd, buffer.baseAddress, buffer.count) } while result < 0 && errno == EINTR
            return result
        }
        guard written == line.count else {
            // A short write leaves a partial line, which recovery skips; the next append starts a fresh line.
            if written > 0 { _ = Glibc.write(fd, "\n", 1) }
            throw .io("cannot append to the journal of \(id): \(String(cString: strerror(errno)))")
        }
        bytes += line.count
    }

    /// Empties the journal: a durable draft now holds every edit.
    public func truncate() {
        guard fd >= 0 else { return }
        if ftruncate(fd, 0) == 0 { bytes = 0 }
    }

    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    deinit { close() }
}

extension DraftStore {
    public func journalPath(for id: String) -> String { folder + "/" + id + ".journal" }

    /// Opens (creating it `0600`) the journal of draft `id` for appending. Only the holder of the draft's lock
    /// may: the caller checks. A link or anything but a regular file is refused, never followed.
    public func openJournal(id: String) throws(DraftStoreError) -> DraftJournal {
        guard DraftStore.isDraftID(id) else { throw .io("\(id) is not a draft id") }
        do { try DataHome.makePrivateDirectory(folder) }
        catch { throw .io("cannot create \(folder): \(DataHome.reason(error))") }
        let file = journalPath(for: id)
        let fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io("cannot open \(file): \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .io("cannot open \(file): not a regular file")
        }
        return DraftJournal(id: id, fd: fd)
    }

    /// The newest complete line of draft `id`'s journal, read under the draft file's rules (no link followed, a
    /// regular file, at most `DraftJournal.maximumBytes`); nil when there is none or it cannot be read.
    func journalTail(id: String) -> DraftFile? {
        let file = journalPath(for: id)
        let fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
              info.st_size <= DraftJournal.maximumBytes else { return nil }
        var data = Data(count: Int(info.st_size))
        var count = 0
        while count < data.count {
            let got = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        // The last line that decodes: a line cut short by a failed write is passed over.
        let lines = data.prefix(count).split(separator: 0x0A)
        for line in lines.reversed() {
            if let draft = try? DraftStore.decode(Data(line)), draft.draftID == id { return draft }
        }
        return nil
    }

    /// The journal's draft when it belongs to `file` (the draft file beside it, nil when there is none): same
    /// session, extending exactly that revision. Else nil: the journal is left over and says nothing.
    func journaled(id: String, over file: DraftFile?) -> DraftFile? {
        guard let journaled = journalTail(id: id) else { return nil }
        if let file {
            guard journaled.sessionID == file.sessionID, journaled.revision == file.revision,
                  journaled.formKind == file.formKind else { return nil }
        } else if journaled.revision != 0 {
            return nil
        }
        return journaled
    }

    /// Removes draft `id`'s journal (the draft was deleted, or its journal was folded into it).
    func deleteJournal(id: String) {
        unlink(journalPath(for: id))
    }

    /// Writes a journal's newer draft as the durable draft file and removes the journal: what start-up does with
    /// the journal a `kill -9` left, so the list, `drafts list` and every other reader see one file. The caller
    /// holds the draft's lock. Returns true when a journal was folded in.
    @discardableResult
    func foldJournal(id: String) -> Bool {
        let file = try? readFileOnly(id: id)
        guard let journaled = journaled(id: id, over: file ?? nil) else {
            deleteJournal(id: id)
            return false
        }
        var folded = journaled
        folded.revision = journaled.revision + 1
        guard (try? write(folded)) != nil else { return false }
        deleteJournal(id: id)
        return true
    }
}
