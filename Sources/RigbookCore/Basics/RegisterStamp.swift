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
