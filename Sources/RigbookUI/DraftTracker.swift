import RigbookCore

/// Where a form's draft file stands: when to write it next, whether it is on disk, why the last
/// write failed, and the file's own facts, which the form hands back with every write.
public struct DraftTracker: Sendable, Equatable {
    /// When to write the draft file (500 ms after the last edit, at most 1 s behind).
    public internal(set) var writes = Debouncer()
    /// The file as last written; nil while none is on disk.
    public internal(set) var written: DraftFileMeta?
    /// Why the last write failed; shown until a write succeeds.
    public internal(set) var warning: String?

    init(written: DraftFileMeta?) { self.written = written }

    public var onDisk: Bool { written != nil }

    mutating func wrote(_ meta: DraftFileMeta) {
        written = meta
        warning = nil
    }

    mutating func deleted() { written = nil }
}
