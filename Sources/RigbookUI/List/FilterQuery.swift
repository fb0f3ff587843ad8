import RigbookCore

/// What was typed after `/`, read as words: `is:WORD` keeps assets of a status (several `is:` words: any of
/// them), `at:WORD` and `site:WORD` keep assets whose location or site is exactly that, every other word must
/// match fuzzily (`SearchIndex`). A status is never matched as text, since a fuzzy "ok" would find every hook; a
/// place is matched whole, since a fuzzy "quay 2" also finds the "2 t" slings on Quay 1. Double quotes make a
/// word of what holds spaces (`at:"Quay 2"`).
struct FilterQuery: Sendable, Equatable {
    /// The statuses kept, nil when no `is:` word narrows them.
    var statuses: Set<AssetStatus>?
    /// `is:` words that name no status (the list says which words there are).
    var unknownStatuses: [String] = []
    /// The fuzzy words, lower-cased, as UTF-8.
    var terms: [[UInt8]] = []
    /// How many `is:` words there are: adding one widens the statuses, so the previous matches no longer hold
    /// every new one.
    var statusWordCount = 0
    /// The kinds kept (`is:electrical`, `is:lifting`), nil when no such word narrows them. A kind
    /// narrows together with the statuses: `is:overdue is:electrical` is the overdue electrical items.
    var kinds: Set<AssetKind>?
    /// The places named by `at:` and `site:` words, lower-cased: a row keeps only with each value exactly.
    var exact: [SearchIndex.ExactValue] = []

    /// The words that name a shared field, matched whole.
    static let fieldWords: [(prefix: String, field: SearchIndex.SharedField)] = [("at:", .location), ("site:", .site)]

    init(_ text: String) {
        for word in FilterQuery.words(text.lowercased()) {
            if let (prefix, field) = FilterQuery.fieldWords.first(where: { word.hasPrefix($0.prefix) }) {
                let value = word.dropFirst(prefix.count)
                // "at:" alone is still being typed: it narrows nothing yet.
                if !value.isEmpty { exact.append(SearchIndex.ExactValue(field: field, value: Array(value.utf8))) }
                continue
            }
            guard word.hasPrefix("is:") else {
                terms.append(Array(word.utf8))
                continue
            }
            statusWordCount += 1
            let name = FilterQuery.squeezed(word.dropFirst(3))
            // "is:" alone is still being typed: it narrows nothing yet.
            guard !name.isEmpty else { continue }
            let named = AssetStatus.allCases.filter {
                FilterQuery.squeezed(Substring(FilterQuery.word(for: $0))).hasPrefix(name)
            }
            if named.isEmpty {
                let kinds = AssetKind.allCases.filter { FilterQuery.squeezed(Substring($0.rawValue)).hasPrefix(name) }
                if kinds.isEmpty { unknownStatuses.append(String(word.dropFirst(3))) }
                self.kinds = (self.kinds ?? []).union(kinds)
                continue
            }
            statuses = (statuses ?? []).union(named)
        }
    }

    /// The words of `text`, split at spaces and tabs outside double quotes; the quotes go (one left open while
    /// typing runs to the end).
    static func words(_ text: String) -> [Substring] {
        var words: [Substring] = [], word = "", quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if !quoted && (character == " " || character == "\t") {
                if !word.isEmpty { words.append(Substring(word)) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(Substring(word)) }
        return words
    }

    /// The word `is:` takes for a status: its label in lower case, words joined by `-` (`is:due-soon`).
    static func word(for status: AssetStatus) -> String {
        status.label.lowercased().replacingOccurrences(of: " ", with: "-")
    }

    /// Every status word, for help and for the message that says a word names none.
    static var statusWords: String {
        (AssetStatus.allCases.map { "is:" + word(for: $0) } + AssetKind.allCases.map { "is:" + $0.rawValue })
            .joined(separator: " ")
    }

    /// Without `-` and `_`, so `is:duesoon` and `is:due_soon` work too; a beginning is enough (`is:over`).
    private static func squeezed(_ text: Substring) -> String { text.filter { $0 != "-" && $0 != "_" } }

    var isEmpty: Bool {
        statuses == nil && kinds == nil && terms.isEmpty && unknownStatuses.isEmpty && exact.isEmpty
    }

    /// Whether `longer`, typed on from `shorter`, can only keep fewer assets: then the previous matches are the
    /// only candidates. A longer word matches less and another fuzzy word narrows, but an `is:` word widens (its
    /// statuses are added), and so can a fuzzy word that becomes one (`is` → `is:`); a place typed on names
    /// another place, not a narrower one.
    static func narrows(from shorter: String, to longer: String) -> Bool {
        let a = shorter.lowercased(), b = longer.lowercased()
        guard !a.isEmpty, b.hasPrefix(a) else { return false }
        let before = FilterQuery(a), after = FilterQuery(b)
        guard before.statusWordCount == after.statusWordCount, before.exact == after.exact else { return false }
        if let keptKinds = before.kinds, !(after.kinds.map { $0.isSubset(of: keptKinds) } ?? false) { return false }
        guard let kept = before.statuses else { return true }
        return after.statuses.map { $0.isSubset(of: kept) } ?? false
    }
}
