import RigbookCore

/// The keys every kind of draft file (a single form's, a batch's) carries alike: which draft it is and in which
/// schema, who wrote it, where and with which build, when, and how many times (docs/FORMATS.md). They are named, read
/// and written here once, so one kind cannot drift from another. A draft writes them flat among its own keys (the
/// keyed containers asked of one encoder make one JSON object), and reads them as its own (`draft.updatedAt`)
/// through `DraftDocument`. Every one is required, as it always was in either kind.
public struct DraftHeader: Codable, Equatable, Sendable {
    public var schemaVersion: Int = DraftFile.schemaVersion
    /// The file's name: the form kind and the asset's UUID, or the batch's visit.
    public var draftID: String
    public var createdAt: String
    public var updatedAt: String
    public var appVersion: String = RigbookVersion.current
    /// The inspector named in the form, else the OS user.
    public var operatorName: String
    public var osUser: String
    public var host: String
    public var pid: Int32
    /// Counts writes of this draft: a newer file always has a higher revision.
    public var revision: Int

    /// By what they tell: the file, the writes, the writer.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case schemaVersion = "schema_version", draftID = "draft_id"
        case createdAt = "created_at", updatedAt = "updated_at", revision, appVersion = "app_version"
        case operatorName = "operator", osUser = "os_user", host, pid
    }

    /// The top-level keys of a draft file that are the header's.
    static let keys = Set(CodingKeys.allCases.map(\.stringValue))
}
