/// When to write the draft: a pure trailing debounce with a ceiling, driven by the loop's clock.
///
/// A write comes `quiet` seconds after the last edit, but never more than `maxDelay` after the first
/// edit that is not yet written, so a person typing without pause still gets a write every `maxDelay`
/// seconds (a second by default). Nothing here reads a clock or starts a timer: every call takes
/// `now` from the caller, which wakes by `deadline` (or `nextTimeout(now:)` seconds from now) and
/// then asks `fireIfDue(now:)` whether to write.
public struct Debouncer: Sendable, Equatable {
    public let quiet: Double
    public let maxDelay: Double
    /// The first edit not yet written, and the last one.
    public private(set) var firstPending: Double?
    public private(set) var lastEdit: Double?

    public init(quiet: Double = 0.5, maxDelay: Double = 1.0) {
        self.quiet = quiet
        self.maxDelay = maxDelay
    }

    public var isPending: Bool { firstPending != nil }

    /// An edit happened at `now`: restart the quiet period.
    public mutating func poke(now: Double) {
        if firstPending == nil { firstPending = now }
        lastEdit = now
    }

    /// When the pending write falls due, if one is pending.
    public var deadline: Double? {
        guard let firstPending, let lastEdit else { return nil }
        return min(lastEdit + quiet, firstPending + maxDelay)
    }

    /// True once (and clears) when the pending write is due at `now`.
    public mutating func fireIfDue(now: Double) -> Bool {
        guard let deadline, now >= deadline else { return false }
        cancel()
        return true
    }

    /// True (and clears) if a write was pending: the caller writes at once (signal, suspend, close).
    public mutating func flush() -> Bool {
        defer { cancel() }
        return isPending
    }

    /// Forget the pending write (saved or discarded: a late write must not bring the draft back).
    public mutating func cancel() {
        firstPending = nil
        lastEdit = nil
    }

    /// Seconds the loop may wait before the next write is due (0 when overdue), nil when none is pending.
    public func nextTimeout(now: Double) -> Double? { deadline.map { max(0, $0 - now) } }
}
