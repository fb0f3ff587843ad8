import Foundation

/// One asset as the register list shows it: the asset, its stored history summary and due date.
public struct RegisterRow: Sendable, Hashable {
    public var asset: Asset
    public var summary: HistorySummary
    public var hasDraft: Bool

    public init(asset: Asset, summary: HistorySummary, hasDraft: Bool = false) {
        self.asset = asset
        self.summary = summary
        self.hasDraft = hasDraft
    }

    public func status(on today: CalendarDate) -> StatusReport {
        StatusRules.evaluate(asset: asset, summary: summary, today: today)
    }
}

/// A saved inspection record, as read back from the register.
public struct StoredInspection: Sendable, Hashable {
    public var id: Int64
    public var assetUUID: UUID
    /// The form session it was typed in (stored in the `draft_id` column).
    public var sessionID: String
    public var amends: Int64?
    public var values: InspectionValues
    /// ISO 8601 UTC timestamp of the commit.
    public var savedAt: String
    public var appVersion: String
    public var operatorName: String
    /// The asset's WLL and location when the record was saved.
    public var assetWLLKg: Double
    public var assetLocation: String

    public init(id: Int64, assetUUID: UUID, sessionID: String, amends: Int64?, values: InspectionValues,
                savedAt: String, appVersion: String, operatorName: String, assetWLLKg: Double, assetLocation: String) {
        self.id = id
        self.assetUUID = assetUUID
        self.sessionID = sessionID
        self.amends = amends
        self.values = values
        self.savedAt = savedAt
        self.appVersion = appVersion
        self.operatorName = operatorName
        self.assetWLLKg = assetWLLKg
        self.assetLocation = assetLocation
    }

    /// Stored records passed the gate, so result and date are always present.
    public var facts: RecordFacts {
        RecordFacts(id: id, type: values.inspectionType, result: values.result ?? .pass, action: values.action,
                    remedyDeadline: values.remedyDeadlineSet ? CalendarDate(iso: values.remedyDeadline) : nil,
                    inspectionDate: CalendarDate(iso: values.inspectionDate) ?? CalendarDate(dayNumber: 0),
                    amends: amends)
    }
}

public enum RigbookVersion {
    public static let current = "0.1.0"
}
