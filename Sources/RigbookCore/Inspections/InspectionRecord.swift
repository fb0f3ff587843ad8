import Foundation

/// What status and due dates need to know of one saved inspection. The register keeps more (all 17
/// fields, who saved it and when); the status rules read only these.
public struct RecordFacts: Hashable, Sendable {
    public var id: Int64
    public var type: InspectionType
    public var result: InspectionResult
    public var action: InspectionAction
    public var remedyDeadline: CalendarDate?
    public var inspectionDate: CalendarDate
    /// The record this one corrects; the corrected record no longer counts for status.
    public var amends: Int64?
    /// Other records it supersedes: the other live amendments of a chain it settles (`AmendmentChains`).
    public var alsoAmends: [Int64] = []
    /// The examiner's latest date for the next thorough examination (Schedule 1 item 8d); nil for records
    /// that are not thorough examinations and for those saved before examiners stated it.
    public var nextExaminationBy: CalendarDate?
    /// When it was saved (ISO 8601 UTC); nil for a record not saved yet, which comes after every saved one.
    /// Records of one day fold in this order, so two registers merged either way fold alike (row ids differ).
    public var savedAt: String?
    /// Its record uuid (nil for an electrical test): decides which of two conflicting amendments saved at the
    /// same instant stands (`AmendmentStanding`).
    public var recordUUID: UUID?

    public init(id: Int64, type: InspectionType, result: InspectionResult, action: InspectionAction,
                remedyDeadline: CalendarDate?, inspectionDate: CalendarDate, amends: Int64? = nil,
                nextExaminationBy: CalendarDate? = nil, savedAt: String? = nil) {
        self.id = id
        self.type = type
        self.result = result
        self.action = action
        self.remedyDeadline = remedyDeadline
        self.inspectionDate = inspectionDate
        self.amends = amends
        self.nextExaminationBy = nextExaminationBy
        self.savedAt = savedAt
    }

    /// The same facts, known by `uuid`.
    public func known(as uuid: UUID?) -> RecordFacts {
        var facts = self
        facts.recordUUID = uuid
        return facts
    }

    /// The same facts, superseding `ids` too.
    public func alsoAmending(_ ids: [Int64]) -> RecordFacts {
        var facts = self
        facts.alsoAmends = ids
        return facts
    }

    /// The order records fold in: inspection date, then save time (a record not saved yet last), then row id.
    public static func foldOrder(_ a: RecordFacts, _ b: RecordFacts) -> Bool {
        if a.inspectionDate != b.inspectionDate { return a.inspectionDate < b.inspectionDate }
        let unsaved = "\u{10FFFF}"
        if (a.savedAt ?? unsaved) != (b.savedAt ?? unsaved) { return (a.savedAt ?? unsaved) < (b.savedAt ?? unsaved) }
        return a.id < b.id
    }
}
