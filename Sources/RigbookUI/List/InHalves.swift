import Dispatch
import Synchronization

/// Work over many rows done in two halves at once, one on each of two threads (this machine's kind has two cores).
enum InHalves {
    /// From how many rows the work is split: below it a thread's start costs more than it saves.
    static let threshold = 65_536

    /// `body`'s result for each part of `0..<count`, in order, with the part's range: two halves on two threads at
    /// once from `threshold` rows on, else one part on this thread. The second half starts at a multiple of
    /// `alignment` (so that results kept in blocks of rows join by appending). `body` writes only its own part's
    /// rows of any buffer it shares.
    static func map<Result: Sendable>(count: Int, alignment: Int = 1,
                                      _ body: @Sendable (_ range: Range<Int>) -> Result) -> [(range: Range<Int>,
                                                                                              result: Result)] {
        guard count >= threshold else { return [(0..<count, body(0..<count))] }
        let results = Mutex<[Result?]>([nil, nil])
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let result = body(range(part, of: 2, count: count, alignment: alignment))
            results.withLock { $0[part] = result }
        }
        let parts = results.withLock { $0 }
        return (0..<2).map { (range($0, of: 2, count: count, alignment: alignment), parts[$0]!) }
    }

    /// Part `part`'s rows of `0..<count` split into `parts`, each part after the first starting at a multiple of
    /// `alignment`.
    static func range(_ part: Int, of parts: Int, count: Int, alignment: Int = 1) -> Range<Int> {
        func start(_ part: Int) -> Int { part == parts ? count : count * part / parts / alignment * alignment }
        return start(part) ..< start(part + 1)
    }
}
