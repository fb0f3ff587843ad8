import Dispatch

/// Work over many rows done in two halves at once, one on each of two threads (this machine's kind has two cores).
enum InHalves {
    /// From how many rows the work is split: below it a thread's start costs more than it saves.
    static let threshold = 65_536

    /// Calls `body` with each part's number and its range of `0..<count`: two halves on two threads at once from
    /// `threshold` rows on, else one part on this thread. Returns how many parts there were. `body` writes only
    /// its own part's results.
    @discardableResult
    static func run(count: Int, _ body: @Sendable (_ part: Int, _ range: Range<Int>) -> Void) -> Int {
        let parts = count >= threshold ? 2 : 1
        if parts == 1 {
            body(0, 0..<count)
        } else {
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                body(part, range(part, of: parts, count: count))
            }
        }
        return parts
    }

    /// Part `part`'s rows of `0..<count` split into `parts`.
    static func range(_ part: Int, of parts: Int, count: Int) -> Range<Int> {
        count * part / parts ..< count * (part + 1) / parts
    }
}
