import Foundation
import Synchronization
import RigbookCore

/// The keystroke journal beside a draft (`Drafts/<id>.journal`): every edit adds one compact JSON line,
/// the draft as it now stands or, for a key typed into a text field, that field's text (`DraftJournalEdit`), with
/// no fsync. The kernel's page cache outlives the process, so after `kill -9`
/// the next start finds every edit the program had read; the durable draft (written 500 ms after the last key,
/// fsynced) still bounds what a power cut loses. After each durable draft write the journal is emptied: the draft
/// file then holds everything.
///
/// The file is mapped shared and a line is stored into the mapping: it is in the page cache as soon as it is
/// stored, as a `write(2)` that returned is, without the system call (on ext4 an append's mtime and block
/// bookkeeping took ~30 µs a key, more than the rest of the line; DECISIONS.md). So that a reader never sees half
/// a line, the bytes after the content are zero and a line goes in back to front: all but its first byte, its
/// newline and a zero after it, then the first byte, which makes it part of the content. Emptying cuts the file to
/// nothing. A reader takes the bytes before the first zero (a journal written by `write(2)`, before the mapping,
/// has none: all of it).
///
/// A line carries the `revision` of the draft file it extends (0: none written yet). It belongs to the draft
/// beside it only when its `draft_id` is that file's name and its `session_id` and `revision` are the file's
/// (or, with no file, the revision is 0); anything else is left over from an earlier write and is ignored.
public final class DraftJournal {
    public let id: String
    private var fd: Int32
    /// The file, mapped shared (nil until the first line, and after a mapping failed).
    private var mapping: UnsafeMutableRawPointer?
    private var mappedBytes = 0
    /// The mapping's slot in `JournalMappingGuard`.
    private var guardSlot: Int?
    /// The content ends inside a line (an older build's write cut short): the next line begins with a newline.
    private var startsMidLine = false
    /// The file could not be mapped (a file system that refuses a shared mapping, every guard slot taken): lines
    /// go in with `pwrite(2)`, in the same order and format. Set by tests to take that way.
    var writesInstead = false
    /// Where the content ends has been read from the file (for `writesInstead`).
    private var endFound = false
    /// Where the next line goes: the first zero byte of the mapping.
    private var end = 0
    /// The start of an edit line, kept while the field, the session and the revision stay the same.
    private var editPrefix: (field: String, revision: Int, sessionID: String, bytes: [UInt8])?
    /// One encoder for every line: made once, not per key.
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Larger than any run of edits between two draft writes (a line is a few kilobytes, a write comes at least
    /// once a second while typing); a larger journal is not read, and the file never grows past it.
    public static let maximumBytes = 4 << 20
    /// The file's size when first mapped; doubled when a line does not fit.
    static let initialBytes = 64 << 10

    init(id: String, fd: Int32) {
        self.id = id
        self.fd = fd
    }

    /// Adds the draft as one line.
    public func append(_ draft: DraftFile) throws(DraftStoreError) {
        guard fd >= 0 else { throw .io("the journal of \(id) is closed") }
        if let line = DraftJournalLine.bytes(draft) { return try store(line) }
        // A draft the writer by hand does not cover: slower, never wrong.
        guard let encoded = try? DraftStore.encoded(draft, with: encoder) else {
            throw .io("the draft of \(id) cannot be encoded")
        }
        try store(encoded)
    }

    /// Adds one typed edit (`DraftJournalEdit`): `field` of the inspection draft the lines before stand for (of
    /// `sessionID`, extending `revision`) now holds `text`.
    public func appendEdit(field: String, text: String, sessionID: String, revision: Int) throws(DraftStoreError) {
        guard fd >= 0 else { throw .io("the journal of \(id) is closed") }
        let prefix = editPrefix(field: field, sessionID: sessionID, revision: revision)
        try store(DraftJournalEdit.line(prefix: prefix, text: text, updatedMilliseconds: DraftJournalEdit.now()))
    }

    private func editPrefix(field: String, sessionID: String, revision: Int) -> [UInt8] {
        if let kept = editPrefix, kept.field == field, kept.revision == revision, kept.sessionID == sessionID {
            return kept.bytes
        }
        let prefix = DraftJournalEdit.prefix(draftID: id, field: field, revision: revision, sessionID: sessionID)
        editPrefix = (field, revision, sessionID, prefix)
        return prefix
    }

    /// Stores `line`, its newline and the zero after them at the end of the content, the line's first byte last.
    private func store(_ line: [UInt8]) throws(DraftStoreError) {
        guard !line.isEmpty else { return }
        // Room for the line, its newline, the zero after and the newline a cut line before it may need.
        let mapping: UnsafeMutableRawPointer
        do {
            guard !writesInstead else { return try write(line) }
            mapping = try room(for: line.count + 3)
        } catch {
            guard writesInstead else { throw error }
            return try write(line)
        }
        let line = startsMidLine ? [0x0A] + line : line
        startsMidLine = false
        line.withUnsafeBytes { bytes in
            (mapping + end + 1).copyMemory(from: bytes.baseAddress! + 1, byteCount: bytes.count - 1)
        }
        mapping.storeBytes(of: 0x0A, toByteOffset: end + line.count, as: UInt8.self)
        mapping.storeBytes(of: 0, toByteOffset: end + line.count + 1, as: UInt8.self)
        // The stores above happen before the one that makes the line part of the content (x86 keeps stores in
        // order; the fence keeps the compiler from moving them).
        atomicMemoryFence(ordering: .releasing)
        mapping.storeBytes(of: line[0], toByteOffset: end, as: UInt8.self)
        end += line.count + 1
        // Cut short while this line went in: it went into private memory, not the file.
        if let guardSlot, JournalMappingGuard.faulted(guardSlot) { _ = try room(for: 0) }
    }

    /// The mapping, with room for `bytes` more after the content: mapped at the first line (the content a file
    /// already holds is kept: the zeros it grows by end it), mapped twice as large when full. Should another
    /// program have cut the file short under it (a store faulted, `JournalMappingGuard`), the file is emptied and
    /// mapped again, and this throws: the line stored then is gone, and the next must be a whole draft.
    private func room(for bytes: Int) throws(DraftStoreError) -> UnsafeMutableRawPointer {
        if let mapping, let guardSlot, !JournalMappingGuard.faulted(guardSlot), end + bytes <= mappedBytes {
            return mapping
        }
        if let guardSlot, JournalMappingGuard.faulted(guardSlot) {
            unmap()
            end = 0
            guard ftruncate(fd, 0) == 0 else {
                throw .io("cannot empty the journal of \(id): \(DraftJournal.reason())")
            }
            throw .io("the journal of \(id) was cut short by another program")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io("cannot read the journal of \(id): \(DraftJournal.reason())") }
        if mapping == nil {
            // The first mapping covers what the file holds; its content ends at the first zero.
            let mapping = try map(size: max(DraftJournal.initialBytes, Int(info.st_size)), fileSize: Int(info.st_size))
            let firstZero = memchr(mapping, 0, mappedBytes).map { UnsafeRawPointer($0) - UnsafeRawPointer(mapping) }
            end = firstZero ?? mappedBytes
            // An older build's last line cut short (no newline): the next line starts on a line of its own.
            startsMidLine = end > 0 && mapping.load(fromByteOffset: end - 1, as: UInt8.self) != 0x0A
        }
        while end + bytes > mappedBytes {
            guard mappedBytes < DraftJournal.maximumBytes else { throw .io("the journal of \(id) is full") }
            let size = min(mappedBytes * 2, DraftJournal.maximumBytes)
            unmap()
            _ = try map(size: size, fileSize: Int(info.st_size))
        }
        return mapping!
    }

    /// Maps the file's first `size` bytes, growing the file to that size first.
    private func map(size: Int, fileSize: Int) throws(DraftStoreError) -> UnsafeMutableRawPointer {
        if fileSize < size, ftruncate(fd, off_t(size)) != 0 {
            throw .io("cannot grow the journal of \(id): \(DraftJournal.reason())")
        }
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            writesInstead = true
            throw .io("cannot map the journal of \(id): \(DraftJournal.reason())")
        }
        guard let slot = JournalMappingGuard.register(mapped, bytes: size) else {
            munmap(mapped, size)
            writesInstead = true
            throw .io("too many journals are open to map the journal of \(id)")
        }
        mapping = mapped
        mappedBytes = size
        guardSlot = slot
        return mapped
    }

    private func unmap() {
        if let mapping { munmap(mapping, mappedBytes) }
        if let guardSlot { JournalMappingGuard.unregister(guardSlot) }
        mapping = nil
        mappedBytes = 0
        guardSlot = nil
    }

    /// Without a mapping: the line's bytes after its first, its newline and a zero with one `pwrite(2)`, then its
    /// first byte with another, so a reader sees the whole line or none of it, as with the mapping.
    private func write(_ line: [UInt8]) throws(DraftStoreError) {
        if !endFound {
            // The content is what comes before the first zero, or the whole file.
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            var last: UInt8 = 0x0A
            end = 0
            reading: while end < DraftJournal.maximumBytes {
                let got = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(end)) }
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { break }
                for index in 0..<got {
                    if chunk[index] == 0 { break reading }
                    last = chunk[index]
                    end += 1
                }
            }
            startsMidLine = last != 0x0A
            endFound = true
        }
        let line = startsMidLine ? [0x0A] + line : line
        guard end + line.count + 2 <= DraftJournal.maximumBytes else { throw .io("the journal of \(id) is full") }
        let rest = Array(line[1...]) + [0x0A, 0]
        guard DraftJournal.writeAll(fd, rest, at: end + 1), DraftJournal.writeAll(fd, [line[0]], at: end) else {
            throw .io("cannot add to the journal of \(id): \(DraftJournal.reason())")
        }
        startsMidLine = false
        end += line.count + 1
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int) -> Bool {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes {
                pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done))
            }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { return false }
            done += wrote
        }
        return true
    }

    private static func reason() -> String { String(cString: strerror(errno)) }

    /// Empties the journal: a durable draft now holds every edit.
    /// Empties the journal for good, the file cut to nothing (not only a zero at its start): what was typed before
    /// the draft file took it does not stay on disk after it. The next line maps the file again.
    public func truncate() {
        guard fd >= 0 else { return }
        unmap()
        // Failing that, left as it was: its lines are an earlier revision's, ignored beside the newer draft.
        if ftruncate(fd, 0) == 0 { (end, endFound, startsMidLine) = (0, true, false) } else { endFound = false }
    }

    public func close() {
        guard fd >= 0 else { return }
        unmap()
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
        // Read and write: a shared writable mapping needs both.
        let fd = open(file, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io("cannot open \(file): \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .io("cannot open \(file): not a regular file")
        }
        return DraftJournal(id: id, fd: fd)
    }

    /// Whether the journal at `path` holds a line: a regular file (no link followed) whose first byte is not the
    /// zero that ends a mapped journal's content.
    static func hasContent(journal path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        var first: UInt8 = 0
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return pread(fd, &first, 1, 0) == 1 && first != 0
    }

    /// The complete lines of draft `id`'s journal, oldest first, read under the draft file's rules (no link
    /// followed, a regular file, at most `DraftJournal.maximumBytes`); none when it cannot be read.
    func journalLines(id: String) -> [Data] {
        guard let data = RegularFile.read(journalPath(for: id), limit: DraftJournal.maximumBytes) else { return [] }
        // The content ends at the first zero byte (the rest of a mapped journal).
        return data.prefix(while: { $0 != 0 }).split(separator: 0x0A).map { Data($0) }
    }

    /// The draft draft `id`'s journal stands for over `file` (the draft file beside it, nil when there is none),
    /// nil when it says nothing. Its lines are read in order: a whole draft that belongs to the file (same session,
    /// extending exactly that revision; revision 0 with no file) is the draft from there on, an edit is made to
    /// the draft before it (the file, before any whole line) when it matches it, anything else (a line cut short by
    /// a power cut or an older build's failed write, a line left over from an earlier write) is passed over.
    func journaled(id: String, over file: DraftFile?) -> DraftFile? {
        let decoder = JSONDecoder()
        var journaled: DraftFile?
        for line in journalLines(id: id) {
            if let edit = try? decoder.decode(DraftJournalEdit.self, from: line) {
                if let base = journaled ?? file, let edited = edit.applied(to: base) { journaled = edited }
                continue
            }
            guard let draft = try? DraftStore.decode(line), draft.draftID == id else { continue }
            if let file {
                guard draft.sessionID == file.sessionID, draft.revision == file.revision,
                      draft.formKind == file.formKind else { continue }
            } else if draft.revision != 0 {
                continue
            }
            journaled = draft
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
