#if canImport(Glibc)
import Glibc
#endif

/// The lower-cased searchable text of every row (tag, name, type, site, location, serial, manufacturer) in
/// one byte buffer, fields separated by 0x1F, so a filter keystroke over 100,000 assets is a tight scan
/// instead of 100,000 string comparisons.
///
/// Matching is fzf's (its "v1" algorithm): a word matches a field when its characters appear in it in order
/// (`ws0102` in `ws-0102`), and scores more for characters at the start of a word and right after one another,
/// less for gaps. A word never matches across two fields. Bytes are compared, so a character of several bytes
/// matches as its bytes do.
struct SearchIndex: Sendable {
    static let separator: UInt8 = 0x1F
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]

    init(_ texts: [String]) {
        bytes.reserveCapacity(texts.count * 64)
        starts.reserveCapacity(texts.count + 1)
        for text in texts {
            bytes.append(contentsOf: text.lowercased().utf8)
            starts.append(bytes.count)
        }
    }

    var count: Int { starts.count - 1 }

    /// Rows among `candidates`, in their order, that `keep` accepts and whose text every term matches, with the
    /// sum of the terms' scores (0 without terms).
    func matches(_ terms: [[UInt8]], among candidates: [Int32],
                 keep: (Int32) -> Bool = { _ in true }) -> (rows: [Int32], scores: [Int32]) {
        var rows: [Int32] = []
        var scores: [Int32] = []
        bytes.withUnsafeBufferPointer { buffer in
            for row in candidates where keep(row) {
                let start = starts[Int(row)], end = starts[Int(row) + 1]
                let text = UnsafeBufferPointer(rebasing: buffer[start..<end])
                var total: Int32 = 0
                var matched = true
                for term in terms {
                    guard let score = term.withUnsafeBufferPointer({ SearchIndex.score($0, in: text) }) else {
                        matched = false
                        break
                    }
                    total += score
                }
                if matched {
                    rows.append(row)
                    scores.append(total)
                }
            }
        }
        return (rows, scores)
    }

    // MARK: Scoring (fzf's constants)

    static let scoreMatch: Int32 = 16
    static let gapStart: Int32 = -3
    static let gapExtension: Int32 = -1
    /// At the start of a word (after a space, `-`, `/`…, or a field's start).
    static let bonusBoundary: Int32 = 8
    /// A digit after a letter or a letter after a digit (`sl0042`).
    static let bonusChange: Int32 = 7
    static let bonusConsecutive: Int32 = 4
    /// The word's first character counts its bonus twice.
    static let firstCharacterMultiplier: Int32 = 2

    private enum CharacterClass { case other, letter, digit }

    private static func characterClass(_ byte: UInt8) -> CharacterClass {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), 0x80...: .letter
        case UInt8(ascii: "0")...UInt8(ascii: "9"): .digit
        default: .other
        }
    }

    private static func bonus(_ previous: CharacterClass, _ current: CharacterClass) -> Int32 {
        if current == .other { return bonusBoundary }
        if previous == .other { return bonusBoundary }
        if previous != current { return bonusChange }
        return 0
    }

    /// The best score of `term` in any one field of `text`, nil when no field holds its characters in order.
    static func score(_ term: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard !term.isEmpty else { return 0 }
        guard let base = text.baseAddress else { return nil }
        // Most rows fail here: the term's bytes in order anywhere in the row, found with memchr.
        var offset = 0
        for byte in term {
            guard offset < text.count,
                  let found = memchr(base + offset, Int32(byte), text.count - offset) else { return nil }
            offset = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base + 1
        }
        var best: Int32?
        var fieldStart = 0
        while fieldStart <= text.count {
            var fieldEnd = fieldStart
            while fieldEnd < text.count && text[fieldEnd] != separator { fieldEnd += 1 }
            // Forward: the first end of the term in this field; backward: the shortest window ending there.
            var position = fieldStart, index = 0
            while position < fieldEnd && index < term.count {
                if text[position] == term[index] { index += 1 }
                position += 1
            }
            if index == term.count {
                let last = position - 1
                var start = last
                var back = term.count - 1
                while back >= 0 {
                    if text[start] == term[back] {
                        back -= 1
                        if back < 0 { break }
                    }
                    start -= 1
                }
                let score = windowScore(term, text, from: start, to: last, fieldStart: fieldStart)
                best = Swift.max(best ?? score, score)
            }
            fieldStart = fieldEnd + 1
        }
        return best
    }

    private static func windowScore(_ term: UnsafeBufferPointer<UInt8>, _ text: UnsafeBufferPointer<UInt8>,
                                    from start: Int, to end: Int, fieldStart: Int) -> Int32 {
        var score: Int32 = 0
        var index = 0
        var inGap = false
        var consecutive = 0
        var firstBonus: Int32 = 0
        var previous = start > fieldStart ? characterClass(text[start - 1]) : .other
        for position in start...end {
            let byte = text[position]
            let current = characterClass(byte)
            if index < term.count && byte == term[index] {
                score += scoreMatch
                var bonus = self.bonus(previous, current)
                if consecutive == 0 {
                    firstBonus = bonus
                } else {
                    if bonus >= bonusBoundary && bonus > firstBonus { firstBonus = bonus }
                    bonus = max(bonus, firstBonus, bonusConsecutive)
                }
                score += index == 0 ? bonus * firstCharacterMultiplier : bonus
                inGap = false
                consecutive += 1
                index += 1
            } else {
                score += inGap ? gapExtension : gapStart
                inGap = true
                consecutive = 0
                firstBonus = 0
            }
            previous = current
        }
        return score
    }
}
