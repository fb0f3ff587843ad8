/// The 17 fields of the inspection form (SPEC §4), in form order, and an amendment's reason. This is the
/// draft model: a value with equality, so "unsaved input" is simply `values != baseline`. Dates are kept
/// as typed text, because half a date is still something a person typed and must not be lost.
public struct InspectionValues: Hashable, Sendable, Codable {
    public var inspectionType: InspectionType
    public var inspectorName: String
    public var certificationNumber: String
    public var checkMarking: Bool
    public var checkCuts: Bool
    public var checkDeformation: Bool
    public var checkFittings: Bool
    public var checkCorrosion: Bool
    public var result: InspectionResult?
    public var notes: String
    public var schemeReference: String
    public var defectDescription: String
    public var action: InspectionAction
    public var remedyDeadlineSet: Bool
    public var remedyDeadline: String
    public var inspectionDate: String
    public var confirmed: Bool
    /// Why an amendment corrects the record it amends. Not one of the 17: only an amendment has it (the
    /// form shows it only when amending), and it is empty otherwise.
    public var amendmentReason: String

    public init(inspectionType: InspectionType = .thoroughPeriodic, inspectorName: String = "",
                certificationNumber: String = "", checkMarking: Bool = false, checkCuts: Bool = false,
                checkDeformation: Bool = false, checkFittings: Bool = false, checkCorrosion: Bool = false,
                result: InspectionResult? = nil, notes: String = "", schemeReference: String = "",
                defectDescription: String = "", action: InspectionAction = .none,
                remedyDeadlineSet: Bool = false, remedyDeadline: String = "", inspectionDate: String = "",
                confirmed: Bool = false, amendmentReason: String = "") {
        self.inspectionType = inspectionType
        self.inspectorName = inspectorName
        self.certificationNumber = certificationNumber
        self.checkMarking = checkMarking
        self.checkCuts = checkCuts
        self.checkDeformation = checkDeformation
        self.checkFittings = checkFittings
        self.checkCorrosion = checkCorrosion
        self.result = result
        self.notes = notes
        self.schemeReference = schemeReference
        self.defectDescription = defectDescription
        self.action = action
        self.remedyDeadlineSet = remedyDeadlineSet
        self.remedyDeadline = remedyDeadline
        self.inspectionDate = inspectionDate
        self.confirmed = confirmed
        self.amendmentReason = amendmentReason
    }

    /// The prefilled form (SPEC §4 defaults): the baseline that "unsaved input" is measured against.
    public static func blank(inspectorName: String, certificationNumber: String,
                             today: CalendarDate) -> InspectionValues {
        InspectionValues(inspectorName: inspectorName, certificationNumber: certificationNumber,
                         inspectionDate: today.iso)
    }

    public var allChecksTicked: Bool {
        checkMarking && checkCuts && checkDeformation && checkFittings && checkCorrosion
    }

    /// Stable JSON names, shared by draft files, history and exports.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case inspectionType = "inspection_type"
        case inspectorName = "inspector_name"
        case certificationNumber = "certification_number"
        case checkMarking = "check_marking"
        case checkCuts = "check_cuts"
        case checkDeformation = "check_deformation"
        case checkFittings = "check_fittings"
        case checkCorrosion = "check_corrosion"
        case result
        case notes
        case schemeReference = "scheme_reference"
        case defectDescription = "defect_description"
        case action
        case remedyDeadlineSet = "remedy_deadline_set"
        case remedyDeadline = "remedy_deadline"
        case inspectionDate = "inspection_date"
        case confirmed
        case amendmentReason = "amendment_reason"
    }

    /// Reads what `encode` writes; `amendment_reason` may be absent (drafts written before it existed,
    /// and every draft of a fresh inspection).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        inspectionType = try c.decode(InspectionType.self, forKey: .inspectionType)
        inspectorName = try c.decode(String.self, forKey: .inspectorName)
        certificationNumber = try c.decode(String.self, forKey: .certificationNumber)
        checkMarking = try c.decode(Bool.self, forKey: .checkMarking)
        checkCuts = try c.decode(Bool.self, forKey: .checkCuts)
        checkDeformation = try c.decode(Bool.self, forKey: .checkDeformation)
        checkFittings = try c.decode(Bool.self, forKey: .checkFittings)
        checkCorrosion = try c.decode(Bool.self, forKey: .checkCorrosion)
        result = try c.decodeIfPresent(InspectionResult.self, forKey: .result)
        notes = try c.decode(String.self, forKey: .notes)
        schemeReference = try c.decode(String.self, forKey: .schemeReference)
        defectDescription = try c.decode(String.self, forKey: .defectDescription)
        action = try c.decode(InspectionAction.self, forKey: .action)
        remedyDeadlineSet = try c.decode(Bool.self, forKey: .remedyDeadlineSet)
        remedyDeadline = try c.decode(String.self, forKey: .remedyDeadline)
        inspectionDate = try c.decode(String.self, forKey: .inspectionDate)
        confirmed = try c.decode(Bool.self, forKey: .confirmed)
        amendmentReason = try c.decodeIfPresent(String.self, forKey: .amendmentReason) ?? ""
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(inspectionType, forKey: .inspectionType)
        try c.encode(inspectorName, forKey: .inspectorName)
        try c.encode(certificationNumber, forKey: .certificationNumber)
        try c.encode(checkMarking, forKey: .checkMarking)
        try c.encode(checkCuts, forKey: .checkCuts)
        try c.encode(checkDeformation, forKey: .checkDeformation)
        try c.encode(checkFittings, forKey: .checkFittings)
        try c.encode(checkCorrosion, forKey: .checkCorrosion)
        try c.encode(result, forKey: .result) // explicit null: "none chosen" is a value
        try c.encode(notes, forKey: .notes)
        try c.encode(schemeReference, forKey: .schemeReference)
        try c.encode(defectDescription, forKey: .defectDescription)
        try c.encode(action, forKey: .action)
        try c.encode(remedyDeadlineSet, forKey: .remedyDeadlineSet)
        try c.encode(remedyDeadline, forKey: .remedyDeadline)
        try c.encode(inspectionDate, forKey: .inspectionDate)
        try c.encode(confirmed, forKey: .confirmed)
        // Only an amendment has a reason: a fresh inspection's values stay the 17 fields.
        if !amendmentReason.isEmpty { try c.encode(amendmentReason, forKey: .amendmentReason) }
    }
}

/// The 17 form fields, in SPEC §4 order (also the focus order), then the amendment's reason, which an
/// amendment's form shows above them.
public enum FormField: Int, CaseIterable, Sendable, Comparable {
    case inspectionType, inspectorName, certificationNumber
    case checkMarking, checkCuts, checkDeformation, checkFittings, checkCorrosion
    case result, notes, schemeReference, defectDescription, action
    case remedyDeadlineSet, remedyDeadline, inspectionDate, confirmed
    case amendmentReason

    /// The 17 fields every inspection has, in form order.
    public static let inspectionFields = allCases.filter { $0 != .amendmentReason }

    /// Form order: the amendment's reason comes first, above the 17.
    public static func < (a: FormField, b: FormField) -> Bool { a.formOrder < b.formOrder }

    private var formOrder: Int { self == .amendmentReason ? -1 : rawValue }

    public var label: String {
        switch self {
        case .inspectionType: "Inspection type"
        case .inspectorName: "Inspector name"
        case .certificationNumber: "Certification / qualification no."
        case .checkMarking: "ID tag and WLL marking present and legible"
        case .checkCuts: "No cuts, nicks, cracks, abrasion, broken wires or stitching"
        case .checkDeformation: "No deformation, stretch, twist or excessive wear"
        case .checkFittings: "Hooks, safety latches, pins and fittings secure and working"
        case .checkCorrosion: "No corrosion, heat or chemical damage"
        case .result: "Result"
        case .notes: "Notes"
        case .schemeReference: "Examination scheme / procedure reference"
        case .defectDescription: "Defect description (part and defect)"
        case .action: "Action"
        case .remedyDeadlineSet: "Remedy deadline set"
        case .remedyDeadline: "Remedy deadline"
        case .inspectionDate: "Inspection date"
        case .confirmed: "I confirm this record is accurate"
        case .amendmentReason: "Reason for amendment"
        }
    }

    /// The JSON name of the field (same as `InspectionValues.CodingKeys`).
    public var key: String { InspectionValues.CodingKeys.allCases[rawValue].rawValue }

    public var isMultiline: Bool { self == .notes || self == .defectDescription }

    /// Longest text the gate accepts (SPEC §4 rule 10).
    public var maxLength: Int { isMultiline ? 4000 : 200 }
}
