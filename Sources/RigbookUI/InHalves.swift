import Dispatch

/// Work over many rows done in two halves at once, one on each of two threads (this machine's kind has two cores).
enum InHalves {
    /// From how many rows the work is split: below it a thread's start costs more than it saves.
    static let threshold = 65_536

    /// Calls `body` with each part's number and its range of `0..<count`: two halves on two threads at once from
    /// `threshold` rows on, else one part on this thread. Returns how many parts there were. `body` writes only
    /// its own part's results. The second half starts at a multiple of `alignment` (so that results kept in blocks
    /// of rows join by appending).
    @discardableResult
    static func run(count: Int, alignment: Int = 1,
                    _ body: @Sendable (_ part: Int, _ range: Range<Int>) -> Void) -> Int {
        let parts = count >= threshold ? 2 : 1
        if parts == 1 {
            body(0, 0..<count)
        } else {
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                body(part, range(part, of: parts, count: count, alignment: alignment))
            }
        }
        return parts
    }

    /// Part `part`'s rows of `0..<count` split into `parts`, each part after the first starting at a multiple of
    /// `alignment`.
    static func range(_ part: Int, of parts: Int, count: Int, alignment: Int = 1) -> Range<Int> {
        func start(_ part: Int) -> Int { part == parts ? count : count * part / parts / alignment * alignment }
        return start(part) ..< start(part + 1)
    }
}
