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

    @Test func aLoopInDamagedLinksEnds() {
        let links = [AmendmentLink(record: a1, amends: a2), AmendmentLink(record: a2, amends: a1)]
        _ = AmendmentChains.conflicts(links)
    }
}
