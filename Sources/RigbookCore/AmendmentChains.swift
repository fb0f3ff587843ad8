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

/// Chains of amendments (issue 14 §5). One register allows one live amendment per record, but two machines
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
