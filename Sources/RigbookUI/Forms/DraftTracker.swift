import RigbookCore

/// Where a form's draft file stands: when to write it next, whether it is on disk, why the last
/// write failed, and the file's own facts, which the form hands back with every write.
public struct DraftTracker: Sendable, Equatable {
    /// Seconds after a failed write before the form tries again, typing or not: the folder may have become
    /// usable, or the session that had the form open may have closed it.
    public static let retryDelay = 5.0

    /// When to write the draft file (500 ms after the last edit, at most 1 s behind).
    public internal(set) var writes = Debouncer()
    /// The file as last written; nil while none is on disk.
    public internal(set) var written: DraftFileMeta?
    /// Why the last write failed; shown until a write succeeds.
    public internal(set) var warning: String?
    /// When to try a failed write again, if one failed.
    public internal(set) var retryAt: Double?

    init(written: DraftFileMeta?) { self.written = written }

    public var onDisk: Bool { written != nil }

    /// Where the typing stands, for a form's title: written to the draft file, waiting for the debounce, or
    /// failing (in red); nil with no draft.
    var titleState: (text: String, style: Style)? {
        if warning != nil { return (" ⚠ DRAFT NOT ON DISK ", Style(colour: .red, bold: true, reverse: true)) }
        return writes.isPending ? (" draft … ", .reverse) : onDisk ? (" ✎ draft saved ", .reverse) : nil
    }

    /// The next write or retry, on the loop's clock.
    var deadline: Double? { [writes.deadline, retryAt].compactMap { $0 }.min() }

    /// True once (and clears) when a write or a retry is due at `now`.
    mutating func fireIfDue(now: Double) -> Bool {
        if writes.fireIfDue(now: now) {
            retryAt = nil
            return true
        }
        guard let retryAt, now >= retryAt else { return false }
        self.retryAt = nil
        return true
    }

    /// Nothing more to write: saved, discarded, closed.
    mutating func cancel() {
        writes.cancel()
        retryAt = nil
    }

    mutating func wrote(_ meta: DraftFileMeta) {
        written = meta
        warning = nil
        retryAt = nil
    }

    mutating func failed(_ reason: String, now: Double) {
        warning = reason
        retryAt = now + DraftTracker.retryDelay
    }

    mutating func deleted() { written = nil }

    /// The runtime's word on the draft `draftID`: written, not written, or removed. False: the event is not that.
    mutating func receive(_ event: Event, draftID: String, now: Double) -> Bool {
        switch event {
        case .draftWritten(let id, let meta) where id == draftID: wrote(meta)
        case .draftWriteFailed(let id, let reason) where id == draftID: failed(reason, now: now)
        case .draftDeleted(let id) where id == draftID: deleted()
        default: return false
        }
        return true
    }
}

extension DraftTracker {
    /// A write while the values differ from the baseline, a removal once back to it (undone typing leaves no draft).
    func effect(draftID: String, unsaved: Bool, snapshot: () -> DraftSnapshot?) -> Effect? {
        unsaved ? snapshot().map(Effect.writeDraft) : onDisk ? .deleteDraft(draftID: draftID) : nil
    }

    /// The draft effect to run at once (signal, suspend, close and keep draft), if anything is unwritten.
    mutating func flushEffect(draftID: String, unsaved: Bool, snapshot: () -> DraftSnapshot?) -> Effect? {
        let pending = writes.flush()
        return pending || (unsaved && !onDisk) ? effect(draftID: draftID, unsaved: unsaved, snapshot: snapshot) : nil
    }

    /// Removes the draft this form wrote (or recovered), and only that: a draft on disk that the form never
    /// wrote is another session's (the form opened without its lock), never this form's to delete.
    func deleteOwn(draftID: String) -> [Effect] { onDisk ? [.deleteDraft(draftID: draftID)] : [] }
}
