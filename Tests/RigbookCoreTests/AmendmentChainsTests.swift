import Foundation
import Testing
@testable import RigbookCore

@Suite struct AmendmentChainsTests {
    let x = UUID(), a1 = UUID(), a2 = UUID(), a3 = UUID(), b2 = UUID(), settle = UUID(), y = UUID()

    @Test func aChainWithOneHeadIsNoConflict() {
        let links = [AmendmentLink(record: x, amends: nil), AmendmentLink(record: a1, amends: x),
                     AmendmentLink(record: y, amends: nil)]
        #expect(AmendmentChains.conflicts(links).isEmpty)
        #expect(AmendmentChains.otherHeads(amending: a1, in: links).isEmpty)
    }

    @Test func twoAmendmentsOfOneRecordConflictEvenWhenOneWasAmendedSince() {
        // Laptop B amended its amendment again: the heads are A1 and B2, both of X's chain.
        let links = [AmendmentLink(record: x, amends: nil), AmendmentLink(record: a1, amends: x),
                     AmendmentLink(record: a2, amends: x), AmendmentLink(record: b2, amends: a2)]
        let conflicts = AmendmentChains.conflicts(links)
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.original == x && conflicts.first?.heads == [a1, b2])
        #expect(AmendmentChains.otherHeads(amending: b2, in: links) == [a1])
    }

    @Test func anAmendmentSupersedingEveryHeadSettlesIt() {
        let links = [AmendmentLink(record: x, amends: nil), AmendmentLink(record: a1, amends: x),
                     AmendmentLink(record: a2, amends: x), AmendmentLink(record: a3, amends: x),
                     AmendmentLink(record: settle, amends: a1, alsoAmends: [a2, a3])]
        #expect(AmendmentChains.conflicts(links).isEmpty)
        // Superseding only one of three leaves two heads.
        let partial = Array(links.dropLast()) + [AmendmentLink(record: settle, amends: a1, alsoAmends: [a2])]
        #expect(AmendmentChains.conflicts(partial).first?.heads == [a3, settle])
    }

    /// Row ids differ between registers: the head that stands is chosen by (saved_at, record uuid) alone, so two
    /// registers holding the same records in another order choose the same one.
    @Test func theConflictingAmendmentSavedLastStandsWhateverTheOrder() {
        func entry(_ key: UUID, amends: UUID?, at savedAt: String) -> AmendmentStanding<UUID>.Entry {
            AmendmentStanding.Entry(key: key, amends: amends, savedAt: savedAt, uuid: key.uuidString)
        }
        let entries = [entry(x, amends: nil, at: "2026-01-10T09:00:00.000Z"),
                       entry(a1, amends: x, at: "2026-01-11T09:00:00.000Z"),
                       entry(a2, amends: x, at: "2026-01-12T09:00:00.000Z"),
                       entry(b2, amends: a2, at: "2026-01-12T10:00:00.000Z")]
        for order in [entries, entries.reversed(), [entries[2], entries[0], entries[3], entries[1]]] {
            let standing = AmendmentStanding(order)
            #expect(standing.outrankedBy == [a1: b2])
            // X is amended twice: by the amendment on the way to the head that stands.
            #expect(standing.supersededBy == [x: a2])
        }
        // Saved at the same instant (two registers' clocks): the greater uuid stands, on both.
        let tie = [entry(x, amends: nil, at: "2026-01-10T09:00:00.000Z"),
                   entry(a1, amends: x, at: "2026-01-11T09:00:00.000Z"),
                   entry(a2, amends: x, at: "2026-01-11T09:00:00.000Z")]
        let later = max(a1.uuidString, a2.uuidString) == a1.uuidString ? a1 : a2
        let earlier = later == a1 ? a2 : a1
        #expect(AmendmentStanding(tie).outrankedBy == [earlier: later])
        #expect(AmendmentStanding(tie.reversed()).outrankedBy == [earlier: later])
        // Settled: nothing is outranked any more.
        let settled = tie + [AmendmentStanding.Entry(key: settle, amends: a1, alsoAmends: [a2],
                                                     savedAt: "2026-01-12T09:00:00.000Z", uuid: settle.uuidString)]
        #expect(AmendmentStanding(settled).outrankedBy.isEmpty)
        // No chain forks: nothing to say, at the price of one pass.
        #expect(AmendmentStanding(Array(entries.prefix(2))).isEmpty)
    }

    @Test func aLoopInDamagedLinksEnds() {
        let links = [AmendmentLink(record: a1, amends: a2), AmendmentLink(record: a2, amends: a1)]
        _ = AmendmentChains.conflicts(links)
    }
}
