import Foundation

/// Items made on a thread of their own, in order, at most one ahead of the one taken: a maker and a user on two
/// cores (a bulk load chains two: the sample drawn, then hashed and signed, while the register is written). A failure
/// of the maker is the user's at the item it would have been.
final class MadeAhead<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var made: [Result<Item?, Error>] = []
    private var stopped = false
    /// The maker has returned: after its last item, a failure, or `stop`.
    private var ended = false

    init(_ make: @escaping @Sendable () throws -> Item?) {
        let thread = Thread { [self] in
            defer {
                condition.lock()
                ended = true
                condition.broadcast()
                condition.unlock()
            }
            while true {
                let item = Result { try make() }
                condition.lock()
                while made.count >= 1 && !stopped { condition.wait() }
                if stopped {
                    condition.unlock()
                    return
                }
                made.append(item)
                condition.broadcast()
                condition.unlock()
                if case .success(nil) = item { return }
                if case .failure = item { return }
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The next item, waiting for it; nil after the last (or once stopped).
    func next() throws(RegisterError) -> Item? {
        condition.lock()
        while made.isEmpty && !ended { condition.wait() }
        guard !made.isEmpty else {
            condition.unlock()
            return nil
        }
        let item = made.removeFirst()
        condition.broadcast()
        condition.unlock()
        do { return try item.get() } catch let error as RegisterError { throw error }
        catch { throw RegisterError.writeFailed("the sample could not be made: \(error)") }
    }

    /// Lets the maker end: after the last item, or when the user gives up.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
