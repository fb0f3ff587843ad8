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

/// Which state of the register a read saw: its `data_version` (other connections' commits) and the rows this
/// connection changed itself. Any commit by anyone changes one of them, so what was made from an equal stamp (the
/// filter's index of a large register) still holds.
public struct RegisterStamp: Sendable, Hashable {
    public var dataVersion: Int64
    public var ownChanges: Int64

    public init(dataVersion: Int64, ownChanges: Int64) {
        self.dataVersion = dataVersion
        self.ownChanges = ownChanges
    }
}
