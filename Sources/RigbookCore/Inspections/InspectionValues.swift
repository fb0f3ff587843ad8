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

    // Report particulars (LOLER Schedule 1): only a thorough examination has them.
    /// Items 6 and 7(a); nil: the basis that follows from the type and the asset's interval.
    public var examinationBasis: ExaminationBasis?
    /// Item 6(b), after installation or assembly: installed correctly and safe to operate.
    public var installedCorrectly: Bool
    /// Item 8e: particulars of any test (e.g. proof load 1.25 × WLL, the load, the certificate).
    public var testParticulars: String
    /// Item 8b: the repair, renewal or alteration a defect requires.
    public var repairParticulars: String
    /// Item 8c(ii): the remedy a defect not yet dangerous requires.
    public var remedyParticulars: String
    /// Item 8d: the latest date of the next thorough examination, as typed; empty: the interval's date.
    public var nextExaminationBy: String
    /// Photos and PDFs attached, in the order attached: kept in `Documents/Attachments/` under
    /// their SHA-256. Not a form field: the form lists them under its fields. Absent from older drafts.
    public var attachments: [Attachment] = []

    public init(inspectionType: InspectionType = .thoroughPeriodic, inspectorName: String = "",
                certificationNumber: String = "", checkMarking: Bool = false, checkCuts: Bool = false,
                checkDeformation: Bool = false, checkFittings: Bool = false, checkCorrosion: Bool = false,
                result: InspectionResult? = nil, notes: String = "", schemeReference: String = "",
                defectDescription: String = "", action: InspectionAction = .none,
                remedyDeadlineSet: Bool = false, remedyDeadline: String = "", inspectionDate: String = "",
                confirmed: Bool = false, amendmentReason: String = "", examinationBasis: ExaminationBasis? = nil,
                installedCorrectly: Bool = false, testParticulars: String = "", repairParticulars: String = "",
                remedyParticulars: String = "", nextExaminationBy: String = "") {
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
        self.examinationBasis = examinationBasis
        self.installedCorrectly = installedCorrectly
        self.testParticulars = testParticulars
        self.repairParticulars = repairParticulars
        self.remedyParticulars = remedyParticulars
        self.nextExaminationBy = nextExaminationBy
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
        case examinationBasis = "examination_basis"
        case installedCorrectly = "installed_correctly"
        case testParticulars = "test_particulars"
        case repairParticulars = "repair_particulars"
        case remedyParticulars = "remedy_particulars"
        case nextExaminationBy = "next_examination_by"
        // Not a form field: after every field's key (`FormField.key` reads these by the field's position).
        case attachments
    }

    /// Every name this build reads and writes (a draft keeps the others as they were, `UnknownDraftKeys`).
    public static let jsonKeys = Set(CodingKeys.allCases.map(\.stringValue))

    /// Reads what `encode` writes; `amendment_reason` may be absent (drafts written before it existed,
    /// and every draft of a fresh inspection), and so may the report particulars (drafts written before them).
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
        examinationBasis = try c.decodeIfPresent(ExaminationBasis.self, forKey: .examinationBasis)
        installedCorrectly = try c.decodeIfPresent(Bool.self, forKey: .installedCorrectly) ?? false
        testParticulars = try c.decodeIfPresent(String.self, forKey: .testParticulars) ?? ""
        repairParticulars = try c.decodeIfPresent(String.self, forKey: .repairParticulars) ?? ""
        remedyParticulars = try c.decodeIfPresent(String.self, forKey: .remedyParticulars) ?? ""
        nextExaminationBy = try c.decodeIfPresent(String.self, forKey: .nextExaminationBy) ?? ""
        attachments = try c.decodeIfPresent([Attachment].self, forKey: .attachments) ?? []
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
        try c.encode(examinationBasis, forKey: .examinationBasis) // null: the basis that follows from the type
        try c.encode(installedCorrectly, forKey: .installedCorrectly)
        try c.encode(testParticulars, forKey: .testParticulars)
        try c.encode(repairParticulars, forKey: .repairParticulars)
        try c.encode(remedyParticulars, forKey: .remedyParticulars)
        try c.encode(nextExaminationBy, forKey: .nextExaminationBy)
        // Written only when there are some: values without attachments read as before.
        if !attachments.isEmpty { try c.encode(attachments, forKey: .attachments) }
    }
}

/// The 17 form fields, in SPEC §4 order, then the amendment's reason, which an amendment's form shows
/// above them, then the report particulars of Schedule 1, which the form shows above the confirmation.
public enum FormField: Int, CaseIterable, Sendable, Comparable {
    case inspectionType, inspectorName, certificationNumber
    case checkMarking, checkCuts, checkDeformation, checkFittings, checkCorrosion
    case result, notes, schemeReference, defectDescription, action
    case remedyDeadlineSet, remedyDeadline, inspectionDate, confirmed
    case amendmentReason
    case examinationBasis, installedCorrectly, testParticulars, repairParticulars, remedyParticulars
    case nextExaminationBy
    /// The files attached: a line of the form, shown once there is one, not a value typed.
    case attachments

    /// The 17 fields every inspection has, in form order.
    public static let inspectionFields = allCases.filter { $0.rawValue <= FormField.confirmed.rawValue }

    /// The report particulars (Schedule 1), in form order.
    public static let reportFields: [FormField] = [
        .examinationBasis, .installedCorrectly, .testParticulars, .repairParticulars, .remedyParticulars,
        .nextExaminationBy,
    ]

    /// Form order: the amendment's reason first, then the 17 with the report particulars before the
    /// confirmation, which authenticates everything above it.
    public static func < (a: FormField, b: FormField) -> Bool { a.formOrder < b.formOrder }

    private var formOrder: Int {
        switch self {
        case .amendmentReason: -1
        case .confirmed: 100
        default: rawValue
        }
    }

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
        case .examinationBasis: "Basis of examination"
        case .installedCorrectly: "Installed correctly and safe to operate"
        case .testParticulars: "Particulars of any test (load, method, certificate)"
        case .repairParticulars: "Repair, renewal or alteration required"
        case .remedyParticulars: "Remedy required (defect not yet dangerous)"
        case .nextExaminationBy: "Latest date of next thorough examination"
        case .attachments: "Attachments"
        }
    }

    /// The JSON name of the field (same as `InspectionValues.CodingKeys`).
    public var key: String { InspectionValues.CodingKeys.allCases[rawValue].rawValue }

    /// The field with this JSON name (`FormField.key`), nil for a name this build does not know.
    public init?(key: String) {
        guard let field = FormField.allCases.first(where: { $0.key == key }) else { return nil }
        self = field
    }

    public var isMultiline: Bool {
        [.notes, .defectDescription, .testParticulars, .repairParticulars, .remedyParticulars].contains(self)
    }

    /// Whether the form shows this field for these values: the report particulars only where they apply.
    public func applies(to v: InspectionValues) -> Bool {
        switch self {
        case .examinationBasis, .testParticulars, .nextExaminationBy: v.inspectionType.isThorough
        case .installedCorrectly: v.inspectionType == .thoroughAfterInstallation
        case .repairParticulars:
            v.inspectionType.isThorough && (v.result == .defectToBeRemedied || v.result == .failDangerous)
        case .remedyParticulars: v.inspectionType.isThorough && v.result == .defectToBeRemedied
        case .attachments: !v.attachments.isEmpty
        default: true
        }
    }

    /// Longest text the gate accepts (SPEC §4 rule 10).
    public var maxLength: Int { isMultiline ? 4000 : 200 }
}

/// A text field's value by a switch over the field. Not key paths: `values[keyPath:]` runs the runtime's key-path
/// code, lines of machine code a key arriving cold pays for on every line of the form it draws.
extension InspectionValues {
    /// A text field's value (a text, multi-line or date field); "" for any other field, which a write leaves alone.
    public subscript(text field: FormField) -> String {
        get {
            switch field {
            case .inspectorName: inspectorName
            case .certificationNumber: certificationNumber
            case .schemeReference: schemeReference
            case .notes: notes
            case .defectDescription: defectDescription
            case .remedyDeadline: remedyDeadline
            case .inspectionDate: inspectionDate
            case .amendmentReason: amendmentReason
            case .testParticulars: testParticulars
            case .repairParticulars: repairParticulars
            case .remedyParticulars: remedyParticulars
            case .nextExaminationBy: nextExaminationBy
            default: ""
            }
        }
        set {
            switch field {
            case .inspectorName: inspectorName = newValue
            case .certificationNumber: certificationNumber = newValue
            case .schemeReference: schemeReference = newValue
            case .notes: notes = newValue
            case .defectDescription: defectDescription = newValue
            case .remedyDeadline: remedyDeadline = newValue
            case .inspectionDate: inspectionDate = newValue
            case .amendmentReason: amendmentReason = newValue
            case .testParticulars: testParticulars = newValue
            case .repairParticulars: repairParticulars = newValue
            case .remedyParticulars: remedyParticulars = newValue
            case .nextExaminationBy: nextExaminationBy = newValue
            default: break
            }
        }
    }
}
