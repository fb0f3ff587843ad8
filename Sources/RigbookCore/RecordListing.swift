/// One saved record as scripts see it (`history --format json`, exports): the 17 fields under their
/// stable names (the same as in draft files), plus who saved it and when.
public struct RecordListing: Encodable, Sendable {
    public var id: Int64
    public var assetTag: String
    public var savedAt: String
    public var draftID: String
    public var amends: Int64?
    public var operatorName: String
    public var appVersion: String
    public var values: InspectionValues

    public init(record: StoredInspection, tag: String) {
        id = record.id
        assetTag = tag
        savedAt = record.savedAt
        draftID = record.draftID
        amends = record.amends
        operatorName = record.operatorName
        appVersion = record.appVersion
        values = record.values
    }

    enum CodingKeys: String, CodingKey {
        case id
        case assetTag = "asset_tag"
        case savedAt = "saved_at"
        case draftID = "draft_id"
        case amends
        case operatorName = "operator"
        case appVersion = "app_version"
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(assetTag, forKey: .assetTag)
        try c.encode(savedAt, forKey: .savedAt)
        try c.encode(draftID, forKey: .draftID)
        try c.encode(amends, forKey: .amends)
        try c.encode(operatorName, forKey: .operatorName)
        try c.encode(appVersion, forKey: .appVersion)
        // The 17 fields sit beside the metadata, not nested.
        try values.encode(to: encoder)
    }
}
