#if canImport(Glibc)
import Glibc
#endif
import RigbookCore

/// The lower-cased searchable text of every row (tag, name, type, site, location, serial, client ref,
/// manufacturer), kept so that a filter keystroke over a million assets is a tight pass, not a million string
/// comparisons.
///
/// Matching is fzf's (its "v1" algorithm): a word matches a field when its characters appear in it in order
/// (`ws0102` in `ws-0102`), and scores more for characters at the start of a word and right after one another,
/// less for gaps. A word never matches across two fields, so a row's score for a word is its best field's.
/// Bytes are compared, so a character of several bytes matches as its bytes do.
///
/// A row's fields are of two sorts. Its *own* fields (tag, serial number, client ref) differ from row to row: their
/// bytes are kept per row, separated by 0x1F, with a bit set of the bytes in them (`ownBits`). Its *shared*
/// fields (name, type, site, location, manufacturer, kind) repeat across a register (a thousand "1 t web
/// sling"s on "Quay 2"): each distinct value is kept once, each distinct combination of them once, and a row
/// holds its combination's id. A keystroke scores each value and each combination once, so a row costs a
/// table look-up, and its own text is read only when the masks cannot answer (a keystroke over a
/// million assets).
struct SearchIndex: Sendable {
    static let separator: UInt8 = 0x1F
    /// How many shared fields a row gives (`Builder.shared`), in `SharedField`'s order.
    static let sharedPerRow = 6

    /// A row's shared fields, in the order the builder is given them.
    enum SharedField: Int, Sendable { case name, type, site, location, manufacturer, kind }

    /// A shared field's value that a row must hold whole (lower case): `at:"Quay 2"`.
    struct ExactValue: Sendable, Equatable {
        var field: SharedField
        var value: [UInt8]
    }

    /// What a row scores for each shared value that the query's words, some of them one after another, spell
    /// whole ("quay 2" is the location Quay 2): far above any scattered match, so the place named comes first.
    static let wholeValueBonus: Int32 = 256
    private var ownBytes: [UInt8] = []
    private var ownStarts: [UInt32] = [0]
    /// Which byte classes (`bitIndex`) each row's own text holds. For each block of 64 rows, one word per class;
    /// bit `row % 64` is the row's. A keystroke over a million rows reads a word per 64 rows and class, not a mask
    /// per row (reading those was most of a first key's time). Where in a word a byte is (its bonus) is not kept:
    /// at a million rows that doubled the index, and a one-letter word mostly scores its most on a shared value.
    private var ownBits: [UInt64] = []
    static let classCount = 64
    static let wordsPerBlock = classCount
    /// Each row's combination of shared values.
    private var rowCombinations: [UInt32] = []
    /// `sharedPerRow` value ids per combination.
    private var combinationValues: [UInt32] = []
    private var valueBytes: [UInt8] = []
    private var valueStarts: [UInt32] = [0]


    /// Fills an index a row at a time: `own` and `shared` for each of the row's fields, then `endRow`.
    struct Builder {
        private(set) var index = SearchIndex()
        private var valueIDs: [String: UInt32] = [:]
        private var combinationIDs: [Combination: UInt32] = [:]
        private var combination = Combination()
        private var sharedInRow = 0
        /// The byte classes (`bitIndex`) of the row's own text so far: a word with a byte not among them cannot
        /// match there. Filed into `ownBits` at the row's end.
        private var present: UInt64 = 0
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
            index.ownBits.reserveCapacity((capacity + 63) / 64 * SearchIndex.wordsPerBlock)
            index.rowCombinations.reserveCapacity(capacity)
        }

        mutating func own(_ text: String) {
            if ownInRow > 0 { index.ownBytes.append(SearchIndex.separator) }
            let start = index.ownBytes.count
            SearchIndex.appendLowercased(text, to: &index.ownBytes)
            for byte in index.ownBytes[start...] { present |= UInt64(1) << SearchIndex.bitIndex[Int(byte)] }
            ownInRow += 1
        }

        mutating func shared(_ text: String) {
            precondition(sharedInRow < SearchIndex.sharedPerRow, "a row gives six shared values")
            combination[sharedInRow] = valueID(text)
            sharedInRow += 1
        }

        private mutating func valueID(_ text: String) -> UInt32 {
            if let known = valueIDs[text] { return known }
            let id = UInt32(index.valueStarts.count - 1)
            SearchIndex.appendLowercased(text, to: &index.valueBytes)
            index.valueStarts.append(UInt32(index.valueBytes.count))
            valueIDs[text] = id
            return id
        }

        private mutating func combinationID(_ combination: Combination) -> UInt32 {
            if let known = combinationIDs[combination] { return known }
            let id = UInt32(combinationIDs.count)
            combinationIDs[combination] = id
            for slot in 0..<SearchIndex.sharedPerRow { index.combinationValues.append(combination[slot]) }
            return id
        }

        /// A row of the list: the asset's tag, serial number and client ref, then its name, type, site (by
        /// `particulars`), location, manufacturer and kind (in `SharedField`'s order).
        mutating func add(_ asset: Asset, particulars: Particulars) {
            let site = particulars.site(ofAsset: asset.uuid)?.name ?? ""
            own(asset.tag)
            own(asset.serialNumber)
            own(asset.clientRef)
            shared(asset.name)
            shared(asset.typeLabel)
            shared(site)
            shared(asset.location)
            shared(asset.manufacturer)
            // An electrical asset is found by its class and by the word "electrical".
            shared(asset.electrical.map { "electrical \($0.environment.label)" } ?? "")
            endRow()
        }

        mutating func endRow() {
            precondition(sharedInRow == SearchIndex.sharedPerRow, "a row gives six shared values")
            index.rowCombinations.append(combinationID(combination))
            index.ownStarts.append(UInt32(index.ownBytes.count))
            let row = index.rowCombinations.count - 1
            if row % 64 == 0 { index.ownBits.append(contentsOf: repeatElement(0, count: SearchIndex.wordsPerBlock)) }
            let base = row / 64 * SearchIndex.wordsPerBlock, bit = UInt64(1) << (row % 64)
            var left = present
            while left != 0 {
                index.ownBits[base + left.trailingZeroBitCount] |= bit
                left &= left - 1
            }
            present = 0
            sharedInRow = 0
            ownInRow = 0
        }

        /// Adds the rows `other` was given after this builder's, which are whole blocks of 64 rows: its values and
        /// combinations are filed under this builder's ids, its own text and bits are appended as they are.
        mutating func append(_ other: Builder) {
            precondition(index.rowCombinations.count % 64 == 0 && sharedInRow == 0, "whole blocks of whole rows")
            var valueMap = [UInt32](repeating: 0, count: other.valueIDs.count)
            for (text, id) in other.valueIDs.sorted(by: { $0.value < $1.value }) { valueMap[Int(id)] = valueID(text) }
            let shared = SearchIndex.sharedPerRow, values = other.index.combinationValues
            let combinationMap = (0..<values.count / shared).map { id in
                var mapped = Combination()
                for slot in 0..<shared { mapped[slot] = valueMap[Int(values[id * shared + slot])] }
                return combinationID(mapped)
            }
            index.rowCombinations.append(contentsOf: other.index.rowCombinations.lazy.map { combinationMap[Int($0)] })
            let offset = UInt32(index.ownBytes.count)
            index.ownBytes.append(contentsOf: other.index.ownBytes)
            index.ownStarts.append(contentsOf: other.index.ownStarts.dropFirst().lazy.map { $0 + offset })
            index.ownBits.append(contentsOf: other.index.ownBits)
        }
    }

    /// The index of `count` rows, `fill` giving row `row`'s fields to the builder: in two halves on two threads from
    /// `InHalves.threshold` rows on, joined (a first filter key at a million assets waited ~0.9 s for it).
    static func build(count: Int, _ fill: @Sendable (_ row: Int, _ builder: inout Builder) -> Void) -> SearchIndex {
        let parts = InHalves.map(count: count, alignment: 64) { range in
            var builder = Builder(capacity: range.count)
            for row in range { fill(row, &builder) }
            return builder
        }
        var joined = parts[0].result
        for part in parts.dropFirst() { joined.append(part.result) }
        return joined.index
    }

    /// A bit for each letter and digit of ASCII, the other bytes sharing the rest (a shared bit narrows less).
    private static let bitIndex: [UInt64] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt64(byte) - 0x61
        case UInt8(ascii: "0")...UInt8(ascii: "9"): 26 + UInt64(byte) - 0x30
        default: 36 + UInt64(byte) % 28
        }
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

    /// What the loop over the rows needs of one term, worked out once a keystroke.
    private struct TermPlan {
        /// The term's bytes in the terms' buffer.
        var start: Int
        var end: Int
        /// The most the term can score in any field: every byte matched with no gap and the biggest bonus. A row
        /// whose shared values reach it needs no look at its own text.
        var ceiling: Int32
        /// The term's distinct byte classes, in `classes`.
        var classStart: Int
        var classEnd: Int
    }

    /// The terms of a query as the loop over the rows reads them: their bytes in one buffer, so the loop retains
    /// and releases nothing, and each term's plan.
    private struct Query: Sendable {
        var bytes: [UInt8] = []
        var plans: [TermPlan] = []
        var classes: [Int] = []
        /// Runs of the terms joined by spaces, each with how many words it has.
        var phrases: [(bytes: [UInt8], words: Int32)] = []
        var exact: [ExactValue] = []

        init(_ terms: [[UInt8]], exact: [ExactValue]) {
            self.exact = exact
            for first in terms.indices {
                for last in first..<terms.count {
                    let run = terms[first...last]
                    phrases.append((Array(run.joined(separator: [UInt8(ascii: " ")])), Int32(run.count)))
                }
            }
            bytes = terms.flatMap { $0 }
            for term in terms {
                let start = plans.last?.end ?? 0, classStart = classes.count
                for byte in term where !classes[classStart...].contains(Int(SearchIndex.bitIndex[Int(byte)])) {
                    classes.append(Int(SearchIndex.bitIndex[Int(byte)]))
                }
                let ceiling = Int32(term.count) * (SearchIndex.scoreMatch + SearchIndex.bonusBoundary)
                    + SearchIndex.bonusBoundary * (SearchIndex.firstCharacterMultiplier - 1)
                plans.append(TermPlan(start: start, end: start + term.count, ceiling: ceiling, classStart: classStart,
                                      classEnd: classes.count))
            }
        }
    }

    /// Rows among `candidates` (nil: every row), in their order, that `keep` accepts (nil: all), that hold each
    /// `exact` value and whose text every term matches, with the sum of the terms' scores (0 without terms) and of
    /// `wholeValueBonus` for each shared value the terms spell whole.
    ///
    /// A first key visits every one of a million rows, so the loop writes its results straight into buffers
    /// sized for every candidate and reads its terms and tables through pointers: no append, no bounds check,
    /// no retain a row. Candidates in row order read the per-row tables front to back; in any other order
    /// (attention order) a sparse status's rows cost a cache miss each. Many candidates are gone over in two
    /// halves on two threads, each half writing from its start, then joined (a first key at a million).
    func matches(_ terms: [[UInt8]], exact: [ExactValue] = [], among candidates: [Int32]?,
                 keep: (@Sendable (Int32) -> Bool)? = nil) -> (rows: [Int32], scores: [Int32]) {
        let query = Query(terms, exact: exact)
        let capacity = candidates?.count ?? rowCombinations.count
        var found = 0
        var scores: [Int32] = []
        let rows = [Int32](unsafeUninitializedCapacity: capacity) { rowsOut, rowsWritten in
            scores = [Int32](unsafeUninitializedCapacity: capacity) { scoresOut, scoresWritten in
                guard let rowsBase = rowsOut.baseAddress, let scoresBase = scoresOut.baseAddress else { return }
                // The buffers' addresses cross to the other thread as numbers: each part writes only its own range.
                let rowsAddress = UInt(bitPattern: rowsBase), scoresAddress = UInt(bitPattern: scoresBase)
                let parts = InHalves.map(count: capacity) { range in
                    scan(query, candidates: candidates, range: range, keep: keep,
                         rowsOut: UnsafeMutablePointer(bitPattern: rowsAddress)! + range.lowerBound,
                         scoresOut: UnsafeMutablePointer(bitPattern: scoresAddress)! + range.lowerBound)
                }
                for (range, count) in parts {
                    if range.lowerBound != found {
                        (rowsBase + found).update(from: rowsBase + range.lowerBound, count: count)
                        (scoresBase + found).update(from: scoresBase + range.lowerBound, count: count)
                    }
                    found += count
                }
                scoresWritten = found
            }
            rowsWritten = found
        }
        return (rows, scores)
    }

    /// The rows of `range` of the candidates (nil: of every row) that match, written to `rowsOut` and `scoresOut`
    /// from their start; returns how many.
    private func scan(_ query: Query, candidates: [Int32]?, range: Range<Int>, keep: ((Int32) -> Bool)?,
                      rowsOut: UnsafeMutablePointer<Int32>, scoresOut: UnsafeMutablePointer<Int32>) -> Int {
        let termCount = query.plans.count, perRow = SearchIndex.sharedPerRow
        let valueCount = valueStarts.count - 1, combinationCount = combinationValues.count / perRow
        // Each distinct value's and combination's score for each term, worked out the first time a row needs it.
        let unknown = Int32.min, noMatch = Int32.min + 1
        var valueScores = [Int32](repeating: unknown, count: termCount * valueCount)
        var combinationScores = [Int32](repeating: unknown, count: termCount * combinationCount)
        // Each combination's whole-value bonus, or `noMatch` when it lacks an exact value.
        var combinationExtras = [Int32](repeating: unknown, count: combinationCount)
        var found = 0
        query.plans.withUnsafeBufferPointer { plans in
        query.bytes.withUnsafeBufferPointer { termBytes in
        query.classes.withUnsafeBufferPointer { classes in
        valueScores.withUnsafeMutableBufferPointer { valueScores in
        combinationScores.withUnsafeMutableBufferPointer { combinationScores in
        combinationExtras.withUnsafeMutableBufferPointer { combinationExtras in
        ownBytes.withUnsafeBufferPointer { own in
        valueBytes.withUnsafeBufferPointer { values in
        ownStarts.withUnsafeBufferPointer { ownStarts in
        valueStarts.withUnsafeBufferPointer { valueStarts in
        ownBits.withUnsafeBufferPointer { ownBits in
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
            /// A combination's whole-value bonus, `noMatch` when a value the query names exactly is not its.
            func combinationExtra(_ combination: Int) -> Int32 {
                var bonus: Int32 = 0
                for slot in 0..<perRow {
                    let id = Int(combinationValues[combination &* perRow &+ slot])
                    let value = values[Int(valueStarts[id])..<Int(valueStarts[id + 1])]
                    for required in query.exact where required.field.rawValue == slot {
                        guard required.value.elementsEqual(value) else { return noMatch }
                    }
                    if let phrase = query.phrases.first(where: { $0.bytes.elementsEqual(value) }) {
                        bonus += SearchIndex.wholeValueBonus * phrase.words
                    }
                }
                return bonus
            }
            @inline(__always) func visit(_ row: Int32) {
                if let keep, !keep(row) { return }
                let r = Int(row)
                let combination = Int(rowCombinations[r])
                var total = combinationExtras[combination]
                if total == unknown {
                    total = combinationExtra(combination)
                    combinationExtras[combination] = total
                }
                if total == noMatch { return }
                var t = 0
                while t < termCount {
                    let plan = plans[t]
                    var best = combinationScores[t &* combinationCount &+ combination]
                    if best == unknown {
                        best = combinationScore(t, combination, UnsafeBufferPointer(
                            rebasing: termBytes[plan.start..<plan.end]))
                        combinationScores[t &* combinationCount &+ combination] = best
                    }
                    // Its own text can beat its shared values only when they fall short of the most a term can
                    // score, and can match only when it holds each of the term's byte classes.
                    if best < plan.ceiling {
                        let block = (r &>> 6) &* SearchIndex.wordsPerBlock, bit = UInt64(1) &<< UInt64(r & 63)
                        var holds = true
                        for k in plan.classStart..<plan.classEnd where ownBits[block &+ classes[k]] & bit == 0 {
                            holds = false
                            break
                        }
                        if holds, let score = SearchIndex.score(
                            UnsafeBufferPointer(rebasing: termBytes[plan.start..<plan.end]),
                            in: UnsafeBufferPointer(rebasing: own[Int(ownStarts[r])..<Int(ownStarts[r + 1])])),
                           score > best {
                            best = score
                        }
                    }
                    if best == noMatch { break }
                    total &+= best
                    t += 1
                }
                if t == termCount {
                    rowsOut[found] = row
                    scoresOut[found] = total
                    found += 1
                }
            }
            if let candidates {
                candidates.withUnsafeBufferPointer { for row in $0[range] { visit(row) } }
            } else {
                for row in Int32(range.lowerBound)..<Int32(range.upperBound) { visit(row) }
            }
        }}}}}}}}}}}}}
        return found
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
