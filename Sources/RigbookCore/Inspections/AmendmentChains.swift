import Foundation

/// What a record amends, as the register keeps it: the record named by `amends_uuid` and, for an amendment
/// that settles *conflicting amendments*, the other live amendments it supersedes too (`also_amends`).
public struct AmendmentLink: Hashable, Sendable {
    public var record: UUID
    public var amends: UUID?
    public var alsoAmends: [UUID]

    public init(record: UUID, amends: UUID?, alsoAmends: [UUID] = []) {
        self.record = record
        self.amends = amends
        self.alsoAmends = alsoAmends
    }

    /// Every record this one supersedes.
    public var superseded: [UUID] { (amends.map { [$0] } ?? []) + alsoAmends }
}

/// Chains of amendments. One register allows one live amendment per record, but two machines
/// can each amend the same record; a merge keeps both, and the chain then has two live heads: the asset's
/// *conflicting amendments*. The next amendment of either head supersedes every head of its chain.
public enum AmendmentChains {
    /// The chains with more than one live head: each chain's first record and its live heads, in the order
    /// of `links` (save order), chains in the order of their first record.
    public static func conflicts(_ links: [AmendmentLink]) -> [(original: UUID, heads: [UUID])] {
        let superseded = Set(links.flatMap(\.superseded))
        let roots = rootsByRecord(links)
        var heads: [UUID: [UUID]] = [:]
        var order: [UUID] = []
        for link in links where !superseded.contains(link.record) {
            guard let root = roots[link.record], root != link.record else { continue }
            if heads[root] == nil { order.append(root) }
            heads[root, default: []].append(link.record)
        }
        return order.compactMap { root in heads[root].flatMap { $0.count > 1 ? (root, $0) : nil } }
    }

    /// The other live heads of the chain of `amended`: what an amendment of `amended` supersedes besides it.
    /// Empty when the chain has one head (the usual case).
    public static func otherHeads(amending amended: UUID, in links: [AmendmentLink]) -> [UUID] {
        conflicts(links).first { $0.heads.contains(amended) }?.heads.filter { $0 != amended } ?? []
    }

    /// Each record's chain: the first record found by following `amends` back (itself when it amends nothing).
    private static func rootsByRecord(_ links: [AmendmentLink]) -> [UUID: UUID] {
        let amends = Dictionary(links.map { ($0.record, $0.amends) }, uniquingKeysWith: { first, _ in first })
        var roots: [UUID: UUID] = [:]
        for link in links {
            var root = link.record
            var seen: Set<UUID> = [root]
            while let previous = amends[root] ?? nil, seen.insert(previous).inserted { root = previous }
            roots[link.record] = root
        }
        return roots
    }
}

/// Which amendment stands where a chain has conflicting amendments, worked out the same way on every register
/// (row ids differ between registers, so they never decide): of a chain's live heads, the one saved last, by
/// `(saved_at, record uuid)`, stands; the others are *outranked*: kept and shown, but not counted, until an
/// amendment of either settles them. A record superseded by several records (the one that two amendments
/// amend) is superseded by the one on the way to the head that stands.
public struct AmendmentStanding<Key: Hashable & Sendable>: Sendable {
    /// One record as the standing needs it: what it supersedes and how it ranks.
    public struct Entry: Sendable {
        public var key: Key
        public var amends: Key?
        public var alsoAmends: [Key]
        /// When it was saved (ISO 8601 UTC); the later stands.
        public var savedAt: String
        /// Its record uuid, which decides between two saved at the same instant.
        public var uuid: String

        public init(key: Key, amends: Key?, alsoAmends: [Key] = [], savedAt: String, uuid: String) {
            self.key = key
            self.amends = amends
            self.alsoAmends = alsoAmends
            self.savedAt = savedAt
            self.uuid = uuid
        }
    }

    /// Each outranked live head, with the head that stands in its chain.
    public private(set) var outrankedBy: [Key: Key] = [:]
    /// Each record that several records supersede, with the one leading to the head that stands.
    public private(set) var supersededBy: [Key: Key] = [:]

    public var isEmpty: Bool { outrankedBy.isEmpty && supersededBy.isEmpty }

    /// Whether any record is amended twice (two registers' amendments of it, merged): only then can a chain
    /// fork, so callers with many histories to fold look at this first, for the price of one pass.
    public static func forks<Amended: Sequence>(_ amended: Amended) -> Bool where Amended.Element == Key? {
        var once = Set<Key>()
        for key in amended { if let key, !once.insert(key).inserted { return true } }
        return false
    }

    public init(_ entries: [Entry]) {
        guard AmendmentStanding.forks(entries.lazy.map(\.amends)) else { return }

        let byKey = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        func rank(_ key: Key) -> (String, String) { byKey[key].map { ($0.savedAt, $0.uuid) } ?? ("", "") }
        func later(_ a: Key, _ b: Key) -> Bool { rank(a) > rank(b) }
        var superseders: [Key: [Key]] = [:]
        for entry in entries {
            for superseded in [entry.amends].compactMap({ $0 }) + entry.alsoAmends where byKey[superseded] != nil {
                superseders[superseded, default: []].append(entry.key)
            }
        }
        // Chains are followed back through `amends` alone, as `AmendmentChains` does.
        func root(_ key: Key) -> Key {
            var root = key
            var seen: Set<Key> = [root]
            while let previous = byKey[root]?.amends, byKey[previous] != nil, seen.insert(previous).inserted {
                root = previous
            }
            return root
        }
        var heads: [Key: [Key]] = [:]
        for entry in entries where superseders[entry.key] == nil {
            let chain = root(entry.key)
            if chain != entry.key { heads[chain, default: []].append(entry.key) }
        }
        var standing: [Key: Key] = [:]
        for (chain, live) in heads {
            guard let stands = live.max(by: { later($1, $0) }) else { continue }
            standing[chain] = stands
            for head in live where head != stands { outrankedBy[head] = stands }
        }
        // Whether `target` is `start` or follows it (supersedes it, directly or further on).
        func leads(from start: Key, to target: Key) -> Bool {
            var queue = [start]
            var seen: Set<Key> = [start]
            while let next = queue.popLast() {
                if next == target { return true }
                for after in superseders[next] ?? [] where seen.insert(after).inserted { queue.append(after) }
            }
            return false
        }
        for (record, by) in superseders where by.count > 1 {
            let stands = standing[root(record)]
            let leading = by.filter { candidate in stands.map { leads(from: candidate, to: $0) } ?? false }
            let pool = leading.isEmpty ? by : leading
            if let chosen = pool.max(by: { later($1, $0) }) { supersededBy[record] = chosen }
        }
    }
}
