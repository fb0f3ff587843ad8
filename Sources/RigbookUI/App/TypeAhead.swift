/// Type-ahead in a list of options: a letter jumps to the next option whose label starts with it, after
/// the one chosen now, wrapping round; the same letter again cycles through those options. No timer, so
/// what a key does never depends on how fast it was typed (and typing it twice is never a word).
enum TypeAhead {
    /// The keys that type ahead: letters, either case.
    static let keys: [Key] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".map { .char($0) }

    /// The keys' label in help and footers.
    static let label = "a–z"

    /// The option `key` moves to from `current` (nil: nothing chosen yet), or nil when no label starts with
    /// the letter (or `key` is not a letter).
    static func index(after current: Int?, in labels: [String], key: Key) -> Int? {
        guard case .char(let typed) = key, typed.isLetter, !labels.isEmpty else { return nil }
        let letter = typed.lowercased()
        let start = current.map { $0 + 1 } ?? 0
        for offset in 0..<labels.count {
            let index = (start + offset) % labels.count
            if labels[index].first.map({ $0.lowercased() == letter }) == true { return index }
        }
        return nil
    }
}
