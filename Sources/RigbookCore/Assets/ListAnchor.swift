/// Where a read of the register list starts: just after (or, going back, just before) this row, which has this
/// status. The list is in attention order (`AssetStatus`), then in the register's tag order.
public struct ListAnchor: Sendable, Hashable {
    public var status: AssetStatus
    public var tag: String

    public init(status: AssetStatus, tag: String) {
        self.status = status
        self.tag = tag
    }
}
