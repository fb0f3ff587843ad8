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
    /// The examiner's latest date for the next thorough examination (Schedule 1 item 8d); nil for records
    /// that are not thorough examinations and for those saved before examiners stated it.
    public var nextExaminationBy: CalendarDate?

    public init(id: Int64, type: InspectionType, result: InspectionResult, action: InspectionAction,
                remedyDeadline: CalendarDate?, inspectionDate: CalendarDate, amends: Int64? = nil,
                nextExaminationBy: CalendarDate? = nil) {
        self.id = id
        self.type = type
        self.result = result
        self.action = action
        self.remedyDeadline = remedyDeadline
        self.inspectionDate = inspectionDate
        self.amends = amends
        self.nextExaminationBy = nextExaminationBy
    }
}
