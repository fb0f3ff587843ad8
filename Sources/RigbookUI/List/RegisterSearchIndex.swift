import Foundation
import RigbookCore

/// The filter's index of a large register, whose list holds only a window of rows: made beside the loop from one
/// pass over the register, none of its rows kept. For each asset, in tag order as the whole list has them, it keeps
/// what the filter matches (`SearchIndex`), its status rank and kind (for the order and the `is:` words) and its
/// uuid, by which the list reads the few matches a screen shows.
///
/// It answers exactly as the whole list's filter does, from the same rows, ranks and order, while it is `current`:
/// made from the register as the list last read it, for the same day, particulars and retired rows. A commit
/// makes another one beside the loop; until it comes the one there is still answers.
public struct RegisterSearchIndex: Sendable {
    let index: SearchIndex
    let uuids: [UUID]
    let ranks: [UInt8]
    let kinds: [UInt8]
    public let basis: Basis

    /// What an index was made from.
    public struct Basis: Sendable, Equatable {
        public var stamp: RegisterStamp
        public var today: CalendarDate
        public var includesRetired: Bool
        public var particulars: Particulars

        public init(stamp: RegisterStamp, today: CalendarDate, includesRetired: Bool, particulars: Particulars) {
            self.stamp = stamp
            self.today = today
            self.includesRetired = includesRetired
            self.particulars = particulars
        }
    }

    public var count: Int { uuids.count }

    func kind(of row: Int32) -> AssetKind { AssetKind.allCases[Int(kinds[Int(row)])] }

    /// Fills an index an asset at a time, in tag order.
    public struct Builder {
        private var search: SearchIndex.Builder
        private var uuids: [UUID] = []
        private var ranks: [UInt8] = []
        private var kinds: [UInt8] = []
        private let basis: Basis

        /// `capacity`: about how many assets there are. Room for them is made once: an array grown by doubling
        /// copies itself, and holds both copies for a moment.
        public init(basis: Basis, capacity: Int) {
            self.basis = basis
            search = SearchIndex.Builder(capacity: capacity)
            uuids.reserveCapacity(capacity)
            ranks.reserveCapacity(capacity)
            kinds.reserveCapacity(capacity)
        }

        public mutating func add(_ row: RegisterRow) {
            let asset = row.asset
            search.add(asset, particulars: basis.particulars)
            uuids.append(asset.uuid)
            ranks.append(UInt8(row.status(on: basis.today).status.attentionRank))
            kinds.append(UInt8(AssetKind.allCases.firstIndex(of: asset.kind) ?? 0))
        }

        public func finish() -> RegisterSearchIndex {
            RegisterSearchIndex(index: search.index, uuids: uuids, ranks: ranks, kinds: kinds, basis: basis)
        }
    }
}
