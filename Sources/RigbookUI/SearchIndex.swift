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
/// are kept per row, separated by 0x1F, with three masks of the bytes in them (`OwnMasks`). Its *shared*
/// fields (name, type, site, location, manufacturer, kind) repeat across a register (a thousand "1 t web
/// sling"s on "Quay 2"): each distinct value is kept once, each distinct combination of them once, and a row
/// holds its combination's id. A keystroke scores each value and each combination once, so a row costs a
/// table look-up, and its own text is read only when the masks cannot answer (issue 17: a keystroke over a
/// million assets).
struct SearchIndex: Sendable {
    static let separator: UInt8 = 0x1F
    /// How many shared fields a row gives (`Builder.shared`).
    static let sharedPerRow = 6
    private var ownBytes: [UInt8] = []
    private var ownStarts: [UInt32] = [0]
    private var ownMasks: [OwnMasks] = []
    /// Each row's combination of shared values.
    private var rowCombinations: [UInt32] = []
    /// `sharedPerRow` value ids per combination.
    private var combinationValues: [UInt32] = []
    private var valueBytes: [UInt8] = []
    private var valueStarts: [UInt32] = [0]

    /// The bytes of a row's own text, one bit per byte class (`bitIndex`): those present, and those found at the
    /// start of a word or where letters and digits change. A word with a byte not present cannot match there;
    /// a one-letter word's score there is known from the masks alone.
    struct OwnMasks: Sendable {
        var present: UInt64 = 0
        var atBoundary: UInt64 = 0
        var atChange: UInt64 = 0
    }

    /// Fills an index a row at a time: `own` and `shared` for each of the row's fields, then `endRow`.
    struct Builder {
        private(set) var index = SearchIndex()
        private var valueIDs: [String: UInt32] = [:]
        private var combinationIDs: [Combination: UInt32] = [:]
        private var combination = Combination()
        private var sharedInRow = 0
        private var masks = OwnMasks()
        private var ownInRow = 0

        /// Six value ids: a row's shared fields.
        private struct Combination: Hashable {
            var ids: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0)
            static func == (a: Combination, b: Combination) -> Bool { a.ids == b.ids }
            func hash(into hasher: inout Hasher) {
                hasher.combine(ids.0); hasher.combine(ids.1); hasher.combine(ids.2)
                hasher.combine(ids.3); hasher.combine(ids.4); hasher.combine(ids.5)
            }
            subscript(_ slot: Int) -> UInt32 {
                get { withUnsafeBytes(of: ids) { $0.load(fromByteOffset: slot * 4, as: UInt32.self) } }
                set {
                    withUnsafeMutableBytes(of: &ids) {
                        $0.storeBytes(of: newValue, toByteOffset: slot * 4, as: UInt32.self)
                    }
                }
            }
        }

        init(capacity: Int) {
            index.ownBytes.reserveCapacity(capacity * 20)
            index.ownStarts.reserveCapacity(capacity + 1)
            index.ownMasks.reserveCapacity(capacity)
            index.rowCombinations.reserveCapacity(capacity)
        }

        mutating func own(_ text: String) {
            if ownInRow > 0 { index.ownBytes.append(SearchIndex.separator) }
            let start = index.ownBytes.count
            SearchIndex.appendLowercased(text, to: &index.ownBytes)
            var previous = CharacterClass.other
            for byte in index.ownBytes[start...] {
                let bit = UInt64(1) << SearchIndex.bitIndex[Int(byte)]
                masks.present |= bit
                let current = SearchIndex.characterClass(byte)
                switch SearchIndex.bonus(previous, current) {
                case SearchIndex.bonusBoundary: masks.atBoundary |= bit
                case SearchIndex.bonusChange: masks.atChange |= bit
                default: break
                }
                previous = current
            }
            ownInRow += 1
        }

        mutating func shared(_ text: String) {
            precondition(sharedInRow < SearchIndex.sharedPerRow, "a row gives six shared values")
            let id: UInt32
            if let known = valueIDs[text] {
                id = known
            } else {
                id = UInt32(index.valueStarts.count - 1)
                SearchIndex.appendLowercased(text, to: &index.valueBytes)
                index.valueStarts.append(UInt32(index.valueBytes.count))
                valueIDs[text] = id
            }
            combination[sharedInRow] = id
            sharedInRow += 1
        }

        mutating func endRow() {
            precondition(sharedInRow == SearchIndex.sharedPerRow, "a row gives six shared values")
            let id: UInt32
            if let known = combinationIDs[combination] {
                id = known
            } else {
                id = UInt32(combinationIDs.count)
                combinationIDs[combination] = id
                for slot in 0..<SearchIndex.sharedPerRow { index.combinationValues.append(combination[slot]) }
            }
            index.rowCombinations.append(id)
            index.ownStarts.append(UInt32(index.ownBytes.count))
            index.ownMasks.append(masks)
            masks = OwnMasks()
            sharedInRow = 0
            ownInRow = 0
        }
    }

    /// A bit for each letter and digit of ASCII (exact: `exactBits`), the other bytes sharing the rest.
    private static let bitIndex: [UInt64] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt64(byte) - 0x61
        case UInt8(ascii: "0")...UInt8(ascii: "9"): 26 + UInt64(byte) - 0x30
        default: 36 + UInt64(byte) % 28
        }
    }

    private static func isExact(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Lower case as `String.lowercased()` gives it, without its cost for the ASCII text most fields are.
    private static func appendLowercased(_ text: String, to bytes: inout [UInt8]) {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            bytes.append(contentsOf: text.lowercased().utf8)
            return
        }
        for byte in text.utf8 {
            bytes.append((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte)
        }
    }

    /// Rows among `candidates`, in their order, that `keep` accepts (nil: all) and whose text every term matches,
    /// with the sum of the terms' scores (0 without terms).
    func matches(_ terms: [[UInt8]], among candidates: [Int32],
                 keep: ((Int32) -> Bool)? = nil) -> (rows: [Int32], scores: [Int32]) {
        var rows: [Int32] = []
        var scores: [Int32] = []
        rows.reserveCapacity(candidates.count)
        scores.reserveCapacity(candidates.count)
        // The terms in one buffer, so the loop over a million rows retains and releases nothing.
        let termBytes = terms.flatMap { $0 }
        var termStarts = [0]
        for term in terms { termStarts.append(termStarts[termStarts.count - 1] + term.count) }
        let termMasks = terms.map { $0.reduce(UInt64(0)) { $0 | UInt64(1) << SearchIndex.bitIndex[Int($1)] } }
        // A one-letter word of a letter or digit: its bit, whose masks give its score in a row's own text.
        let singleBits = terms.indices.map {
            terms[$0].count == 1 && SearchIndex.isExact(terms[$0][0]) ? termMasks[$0] : 0
        }
        let termCount = terms.count, perRow = SearchIndex.sharedPerRow
        let valueCount = valueStarts.count - 1, combinationCount = combinationValues.count / perRow
        // Each distinct value's and combination's score for each term, worked out the first time a row needs it.
        let unknown = Int32.min, noMatch = Int32.min + 1
        var valueScores = [Int32](repeating: unknown, count: termCount * valueCount)
        var combinationScores = [Int32](repeating: unknown, count: termCount * combinationCount)
        let boundaryScore = SearchIndex.scoreMatch + SearchIndex.bonusBoundary * SearchIndex.firstCharacterMultiplier
        let changeScore = SearchIndex.scoreMatch + SearchIndex.bonusChange * SearchIndex.firstCharacterMultiplier
        termBytes.withUnsafeBufferPointer { termBytes in
        valueScores.withUnsafeMutableBufferPointer { valueScores in
        combinationScores.withUnsafeMutableBufferPointer { combinationScores in
        ownBytes.withUnsafeBufferPointer { own in
        valueBytes.withUnsafeBufferPointer { values in
        ownStarts.withUnsafeBufferPointer { ownStarts in
        valueStarts.withUnsafeBufferPointer { valueStarts in
        ownMasks.withUnsafeBufferPointer { ownMasks in
        combinationValues.withUnsafeBufferPointer { combinationValues in
        rowCombinations.withUnsafeBufferPointer { rowCombinations in
            /// The best score of term `t` among a combination's values.
            func combinationScore(_ t: Int, _ combination: Int, _ term: UnsafeBufferPointer<UInt8>) -> Int32 {
                var best = noMatch
                for slot in 0..<perRow {
                    let id = Int(combinationValues[combination &* perRow &+ slot])
                    var score = valueScores[t &* valueCount &+ id]
                    if score == unknown {
                        let value = Int(valueStarts[id])..<Int(valueStarts[id + 1])
                        score = SearchIndex.score(term, in: UnsafeBufferPointer(rebasing: values[value])) ?? noMatch
                        valueScores[t &* valueCount &+ id] = score
                    }
                    if score > best { best = score }
                }
                return best
            }
            for row in candidates where keep?(row) ?? true {
                let r = Int(row)
                let combination = Int(rowCombinations[r])
                let masks = ownMasks[r]
                var total: Int32 = 0
                var t = 0
                while t < termCount {
                    let term = UnsafeBufferPointer(rebasing: termBytes[termStarts[t]..<termStarts[t + 1]])
                    var best = combinationScores[t &* combinationCount &+ combination]
                    if best == unknown {
                        best = combinationScore(t, combination, term)
                        combinationScores[t &* combinationCount &+ combination] = best
                    }
                    if termMasks[t] & ~masks.present == 0 {
                        let single = singleBits[t]
                        let score: Int32?
                        if single != 0 {
                            score = masks.atBoundary & single != 0 ? boundaryScore
                                : masks.atChange & single != 0 ? changeScore : SearchIndex.scoreMatch
                        } else {
                            score = SearchIndex.score(term, in: UnsafeBufferPointer(
                                rebasing: own[Int(ownStarts[r])..<Int(ownStarts[r + 1])]))
                        }
                        if let score, score > best { best = score }
                    }
                    if best == noMatch { break }
                    total += best
                    t += 1
                }
                if t == termCount {
                    rows.append(row)
                    scores.append(total)
                }
            }
        }}}}}}}}}}
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

    fileprivate enum CharacterClass { case other, letter, digit }

    fileprivate static func characterClass(_ byte: UInt8) -> CharacterClass {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), 0x80...: .letter
        case UInt8(ascii: "0")...UInt8(ascii: "9"): .digit
        default: .other
        }
    }

    fileprivate static func bonus(_ previous: CharacterClass, _ current: CharacterClass) -> Int32 {
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
