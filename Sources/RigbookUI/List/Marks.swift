import Foundation

/// The assets marked on the register list for a batch inspection, in the order they were
/// marked: the batch form lists them in that order. At most `limit`, so one batch stays one reviewable form
/// and one transaction of bounded size.
public struct Marks: Sendable, Equatable {
    public static let limit = 500

    public private(set) var ordered: [UUID] = []
    private var set: Set<UUID> = []

    public init() {}

    public var count: Int { ordered.count }
    public var isEmpty: Bool { ordered.isEmpty }
    public func contains(_ uuid: UUID) -> Bool { set.contains(uuid) }

    /// Marks or unmarks one asset; false when it could not be marked because the limit is reached.
    @discardableResult
    public mutating func toggle(_ uuid: UUID) -> Bool {
        if set.remove(uuid) != nil {
            ordered.removeAll { $0 == uuid }
            return true
        }
        guard count < Marks.limit else { return false }
        set.insert(uuid)
        ordered.append(uuid)
        return true
    }

    /// Marks each of `uuids` not marked yet, up to the limit; returns how many could not be marked.
    @discardableResult
    public mutating func mark(_ uuids: [UUID]) -> Int {
        var left = 0
        for uuid in uuids where !set.contains(uuid) {
            guard count < Marks.limit else {
                left += 1
                continue
            }
            set.insert(uuid)
            ordered.append(uuid)
        }
        return left
    }

    public mutating func unmark(_ uuids: [UUID]) {
        let gone = Set(uuids)
        set.subtract(gone)
        ordered.removeAll { gone.contains($0) }
    }
}
