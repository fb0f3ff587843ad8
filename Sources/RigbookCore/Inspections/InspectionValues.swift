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

    /// Whether these values report the same defect as `other`, with the same danger: an amendment that keeps them
    /// has nothing new to tell the employer under reg 10.
    public func reportsSameDefect(as other: InspectionValues) -> Bool {
        result == other.result && defectDescription.trimmingCharacters(in: .whitespacesAndNewlines)
            == other.defectDescription.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public var allChecksTicked: Bool {
        checkMarking && checkCuts && checkDeformation && checkFittings && checkCorrosion
    }

    /// The values as JSON, field by field, under names shared by draft files, history and exports. Fields added
    /// since the first drafts may be absent (`amendment_reason` in every draft of a fresh inspection, the report
    /// particulars in drafts written before them); a choice not made is written as null, which is a value.
    public static let jsonFields: [JSONField<InspectionValues>] = [
        .required("inspection_type", \.inspectionType),
        .required("inspector_name", \.inspectorName),
        .required("certification_number", \.certificationNumber),
        .required("check_marking", \.checkMarking),
        .required("check_cuts", \.checkCuts),
        .required("check_deformation", \.checkDeformation),
        .required("check_fittings", \.checkFittings),
        .required("check_corrosion", \.checkCorrosion),
        .nullable("result", \.result),
        .required("notes", \.notes),
        .required("scheme_reference", \.schemeReference),
        .required("defect_description", \.defectDescription),
        .required("action", \.action),
        .required("remedy_deadline_set", \.remedyDeadlineSet),
        .required("remedy_deadline", \.remedyDeadline),
        .required("inspection_date", \.inspectionDate),
        .required("confirmed", \.confirmed),
        // Written only in an amendment: a fresh inspection's values read as before.
        .added("amendment_reason", \.amendmentReason, absent: "", omitted: { $0.isEmpty }),
        // Null: the basis that follows from the type.
        .nullable("examination_basis", \.examinationBasis),
        .added("installed_correctly", \.installedCorrectly, absent: false),
        .added("test_particulars", \.testParticulars, absent: ""),
        .added("repair_particulars", \.repairParticulars, absent: ""),
        .added("remedy_particulars", \.remedyParticulars, absent: ""),
        .added("next_examination_by", \.nextExaminationBy, absent: ""),
        // Not a form field: after every field's (`FormField.key` reads these by the field's position). Written
        // only when there are some: values without attachments read as before.
        .added("attachments", \.attachments, absent: [], omitted: { $0.isEmpty }),
    ]

    /// Every name this build reads and writes (a draft keeps the others as they were, `UnknownDraftKeys`).
    public static let jsonKeys = jsonFields.keys()

    public init(from decoder: Decoder) throws {
        self = try Self.jsonFields.read(from: decoder, into: InspectionValues())
    }

    public func encode(to encoder: Encoder) throws { try Self.jsonFields.write(self, to: encoder) }
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

    /// The JSON name of the field (`InspectionValues.jsonFields`, in the fields' order).
    public var key: String { InspectionValues.jsonFields[rawValue].key }

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
