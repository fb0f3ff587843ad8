import Synchronization

/// A screen's footer line by terminal width: its keymap is a constant, so the line is a pure function of the
/// width, worked out once per width instead of on every frame (it was a tenth of a list keystroke).
final class FooterMemo: Sendable {
    private let make: @Sendable (Int) -> String
    private let lines = Mutex<[Int: String]>([:])

    init(_ make: @escaping @Sendable (Int) -> String) { self.make = make }

    func footer(width: Int) -> String {
        if let line = lines.withLock({ $0[width] }) { return line }
        let line = make(width)
        lines.withLock { lines in
            if lines.count >= 64 { lines.removeAll() }
            lines[width] = line
        }
        return line
    }
}
