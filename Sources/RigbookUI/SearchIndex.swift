#if canImport(Glibc)
import Glibc
#endif

/// The lower-cased searchable text of every row (tag, name, type, site, location, serial, manufacturer), kept so
/// that a filter keystroke over a million assets is a tight pass, not a million string comparisons.
///
/// Matching is fzf's (its "v1" algorithm): a word matches a field when its characters appear in it in order
/// (`ws0102` in `ws-0102`), and scores more for characters at the start of a word and right after one another,
/// less for gaps. A word never matches across two fields, so a row's score for a word is its best field's.
/// Bytes are compared, so a character of several bytes matches as its bytes do.
///
/// A row's fields are of two sorts. Its *own* fields (tag, serial number) differ from row to row: their bytes
/// are kept per row, separated by 0x1F. Its *shared* fields (name, type, site, location, manufacturer) repeat
/// across a register (a thousand "1 t web sling"s on "Quay 2"): each distinct value is kept once and a row holds
/// its ids, so a keystroke scores each distinct value once and a row's shared fields cost a table look-up each.
struct SearchIndex: Sendable {
    static let separator: UInt8 = 0x1F
    private var ownBytes: [UInt8] = []
    private var ownStarts: [UInt32] = [0]
    /// The bytes present in each row's own text, one bit per byte value modulo 64: a word with a byte whose bit
    /// is missing cannot be in it, found without reading the text.
    private var ownMasks: [UInt64] = []
    /// `sharedPerRow` ids per row into `valueBytes`.
    private var sharedIDs: [UInt32] = []
    private let sharedPerRow: Int
    private var valueBytes: [UInt8] = []
    private var valueStarts: [UInt32] = [0]

    /// Fills an index a row at a time: `own` and `shared` for each of the row's fields, then `endRow`.
    struct Builder {
        private(set) var index: SearchIndex
        private var ids: [String: UInt32] = [:]
        private var mask: UInt64 = 0
        private var ownInRow = 0

        init(sharedPerRow: Int, capacity: Int) {
            index = SearchIndex(sharedPerRow: sharedPerRow)
            index.ownBytes.reserveCapacity(capacity * 20)
            index.ownStarts.reserveCapacity(capacity + 1)
            index.ownMasks.reserveCapacity(capacity)
            index.sharedIDs.reserveCapacity(capacity * sharedPerRow)
        }

        mutating func own(_ text: String) {
            if ownInRow > 0 { index.ownBytes.append(SearchIndex.separator) }
            let start = index.ownBytes.count
            SearchIndex.appendLowercased(text, to: &index.ownBytes)
            for byte in index.ownBytes[start...] { mask |= SearchIndex.bit(byte) }
            ownInRow += 1
        }

        mutating func shared(_ text: String) {
            if let id = ids[text] {
                index.sharedIDs.append(id)
                return
            }
            let id = UInt32(index.valueStarts.count - 1)
            SearchIndex.appendLowercased(text, to: &index.valueBytes)
            index.valueStarts.append(UInt32(index.valueBytes.count))
            ids[text] = id
            index.sharedIDs.append(id)
        }

        mutating func endRow() {
            precondition(index.sharedIDs.count == (index.ownMasks.count + 1) * index.sharedPerRow,
                         "every row gives the same number of shared fields")
            index.ownStarts.append(UInt32(index.ownBytes.count))
            index.ownMasks.append(mask)
            mask = 0
            ownInRow = 0
        }
    }

    private init(sharedPerRow: Int) { self.sharedPerRow = sharedPerRow }

    var count: Int { ownMasks.count }

    private static func bit(_ byte: UInt8) -> UInt64 { 1 << UInt64(byte & 63) }

    /// Lower case as `String.lowercased()` gives it, without its cost for the ASCII text most fields are.
    private static func appendLowercased(_ text: String, to bytes: inout [UInt8]) {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            bytes.append(contentsOf: text.lowercased().utf8)
            return
        }
        for byte in text.utf8 { bytes.append((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte) }
    }

    /// Rows among `candidates`, in their order, that `keep` accepts and whose text every term matches, with the
    /// sum of the terms' scores (0 without terms).
    func matches(_ terms: [[UInt8]], among candidates: [Int32],
                 keep: (Int32) -> Bool = { _ in true }) -> (rows: [Int32], scores: [Int32]) {
        var rows: [Int32] = []
        var scores: [Int32] = []
        let termMasks = terms.map { $0.reduce(UInt64(0)) { $0 | SearchIndex.bit($1) } }
        // Each distinct shared value's score for each term, worked out the first time a row needs it.
        let unknown = Int32.min, noMatch = Int32.min + 1
        var tables = terms.map { _ in [Int32](repeating: unknown, count: valueStarts.count - 1) }
        let perRow = sharedPerRow
        ownBytes.withUnsafeBufferPointer { own in
        valueBytes.withUnsafeBufferPointer { values in
        ownStarts.withUnsafeBufferPointer { ownStarts in
        valueStarts.withUnsafeBufferPointer { valueStarts in
        ownMasks.withUnsafeBufferPointer { ownMasks in
        sharedIDs.withUnsafeBufferPointer { sharedIDs in
            for row in candidates where keep(row) {
                let r = Int(row)
                var total: Int32 = 0
                var matched = true
                for (t, term) in terms.enumerated() {
                    var best = noMatch
                    for k in 0..<perRow {
                        let id = Int(sharedIDs[r * perRow + k])
                        var score = tables[t][id]
                        if score == unknown {
                            let text = UnsafeBufferPointer(rebasing: values[Int(valueStarts[id])..<Int(valueStarts[id + 1])])
                            score = term.withUnsafeBufferPointer { SearchIndex.score($0, in: text) } ?? noMatch
                            tables[t][id] = score
                        }
                        best = Swift.max(best, score)
                    }
                    if termMasks[t] & ~ownMasks[r] == 0 {
                        let text = UnsafeBufferPointer(rebasing: own[Int(ownStarts[r])..<Int(ownStarts[r + 1])])
                        if let score = term.withUnsafeBufferPointer({ SearchIndex.score($0, in: text) }) {
                            best = Swift.max(best, score)
                        }
                    }
                    guard best != noMatch else {
                        matched = false
                        break
                    }
                    total += best
                }
                if matched {
                    rows.append(row)
                    scores.append(total)
                }
            }
        }}}}}}
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
        func find(_ byte: UInt8, from start: Int, to end: Int) -> Int? {
            guard start < end, let hit = memchr(base + start, Int32(byte), end - start) else { return nil }
            return UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
        }
        // Most rows fail here: the term's bytes in order anywhere in the row, found with memchr.
        var offset = 0
        for byte in term {
            guard let found = find(byte, from: offset, to: text.count) else { return nil }
            offset = found + 1
        }
        if term.count == 1 { return singleByteScore(term[0], in: text, find: find) }
        var best: Int32?
        var fieldStart = 0
        while fieldStart < text.count {
            let fieldEnd = find(separator, from: fieldStart, to: text.count) ?? text.count
            // Forward: the first end of the term in this field; backward: the shortest window ending there.
            var position = fieldStart
            var complete = true
            for byte in term {
                guard let found = find(byte, from: position, to: fieldEnd) else { complete = false; break }
                position = found + 1
            }
            if complete {
                let last = position - 1
                var start = last
                var back = term.count - 1
                while true {
                    if text[start] == term[back] {
                        if back == 0 { break }
                        back -= 1
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

    /// A one-letter term (the first key of every query, over every row): its best place is where its bonus is.
    private static func singleByteScore(_ byte: UInt8, in text: UnsafeBufferPointer<UInt8>,
                                        find: (UInt8, Int, Int) -> Int?) -> Int32 {
        var best: Int32 = 0
        var position = 0
        let current = characterClass(byte)
        while let found = find(byte, position, text.count) {
            let previous = found == 0 || text[found - 1] == separator ? CharacterClass.other
                : characterClass(text[found - 1])
            best = Swift.max(best, scoreMatch + bonus(previous, current) * firstCharacterMultiplier)
            if best == scoreMatch + bonusBoundary * firstCharacterMultiplier { break }
            position = found + 1
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
