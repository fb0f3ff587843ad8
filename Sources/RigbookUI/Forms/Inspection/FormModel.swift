import Foundation
import RigbookCore

/// How a field is edited.
public enum FieldKind: Sendable {
    case choice, text, multiline, check, toggle, date
    /// The files attached: one row each, one selected.
    case attachments
}

extension FormField {
    public var kind: FieldKind {
        switch self {
        case .inspectionType, .result, .action, .examinationBasis: .choice
        case .inspectorName, .certificationNumber, .schemeReference, .amendmentReason: .text
        case .notes, .defectDescription, .testParticulars, .repairParticulars, .remedyParticulars: .multiline
        case .checkMarking, .checkCuts, .checkDeformation, .checkFittings, .checkCorrosion, .confirmed,
             .installedCorrectly: .check
        case .remedyDeadlineSet: .toggle
        case .remedyDeadline, .inspectionDate, .nextExaminationBy: .date
        case .attachments: .attachments
        }
    }

    /// The multi-line fields in form order: the layout's key counts their rows every key, and looking up every
    /// field's wrap to find these five hashed each of them.
    static let multilineCases = FormField.allCases.filter { $0.kind == .multiline }

    /// The label beside a widget (check boxes carry their full sentence instead).
    public var shortLabel: String {
        switch self {
        case .certificationNumber: "Certification no."
        case .schemeReference: "Scheme reference"
        case .defectDescription: "Defect (part, defect)"
        case .testParticulars: "Test particulars"
        case .repairParticulars: "Repair required"
        case .remedyParticulars: "Remedy required"
        case .nextExaminationBy: "Next exam. by"
        default: label
        }
    }

    /// A few words for tables and the record view, where the full check sentence does not fit.
    public var briefLabel: String {
        switch self {
        case .checkMarking: "Check: marking legible"
        case .checkCuts: "Check: no cuts or wear"
        case .checkDeformation: "Check: no deformation"
        case .checkFittings: "Check: fittings secure"
        case .checkCorrosion: "Check: no corrosion"
        case .confirmed: "Confirmed accurate"
        case .installedCorrectly: "Installed correctly"
        case .nextExaminationBy: "Next examination by"
        default: shortLabel
        }
    }

    /// Longest text the widget accepts: the gate's bound, or 10 for a date.
    var inputLimit: Int { kind == .date ? 10 : maxLength }

    /// A text field: its value is `InspectionValues[text:]`.
    var hasText: Bool { kind == .text || kind == .multiline || kind == .date }

    /// A check box or toggle: its state is `InspectionValues[flag:]`.
    var isFlag: Bool { kind == .check || kind == .toggle }

    /// The form's groups, in order, with their fields (the first only in an amendment's form).
    static let groups: [(title: String, fields: [FormField])] = [
        ("Amendment", [.amendmentReason]),
        ("Examination", [.inspectionType]),
        ("Inspector", [.inspectorName, .certificationNumber]),
        ("Checks — ticked means OK or not applicable",
         [.checkMarking, .checkCuts, .checkDeformation, .checkFittings, .checkCorrosion]),
        ("Findings", [.result, .notes, .schemeReference, .defectDescription, .action]),
        ("Dates", [.remedyDeadlineSet, .remedyDeadline, .inspectionDate]),
        (reportGroupTitle, reportFields),
        ("Attachments", [.attachments]),
        ("Confirmation", [.confirmed]),
    ]

    static let reportGroupTitle = "Report particulars (LOLER Schedule 1)"

    /// The five checks of SPEC §4 (F2 ticks them all).
    static let checks: [FormField] = [.checkMarking, .checkCuts, .checkDeformation, .checkFittings, .checkCorrosion]
}

/// One option of a choice field, as the value it sets (never an index into a list of labels).
public enum ChoiceValue: Sendable, Equatable {
    case inspectionType(InspectionType)
    case result(InspectionResult)
    case action(InspectionAction)
    case basis(ExaminationBasis)
    /// One of the register's examiners: sets the inspector's name and certification number.
    case examiner(Examiner)

    public var label: String {
        switch self {
        case .examiner(let e): e.qualification.isEmpty ? e.name : "\(e.name) · \(e.qualification)"
        case .inspectionType(let type): type.label
        case .result(let result): result.label
        case .action(let action): action.label
        case .basis(let basis): basis.label
        }
    }
}

/// Options of the three choice fields, with "none chosen" only where SPEC §4 allows it.
enum Choices {
    /// The options of `field` for these values (the bases that fit the inspection type).
    static func options(_ field: FormField, in v: InspectionValues) -> [ChoiceValue] {
        switch field {
        case .inspectionType: InspectionType.allCases.map(ChoiceValue.inspectionType)
        case .result: InspectionResult.allCases.map(ChoiceValue.result)
        case .action: InspectionAction.allCases.map(ChoiceValue.action)
        case .examinationBasis: ExaminationBasis.allowed(for: v.inspectionType).map(ChoiceValue.basis)
        default: []
        }
    }

    /// The chosen option, nil when nothing is chosen.
    static func current(_ field: FormField, in v: InspectionValues) -> ChoiceValue? {
        switch field {
        case .inspectionType: .inspectionType(v.inspectionType)
        case .result: v.result.map(ChoiceValue.result)
        case .action: .action(v.action)
        case .examinationBasis: v.examinationBasis.map(ChoiceValue.basis)
        default: nil
        }
    }

    static func set(_ value: ChoiceValue, in v: inout InspectionValues) {
        switch value {
        case .inspectionType(let type): v.inspectionType = type
        case .result(let result): v.result = result
        case .action(let action): v.action = action
        case .basis(let basis): v.examinationBasis = basis
        case .examiner(let examiner):
            v.inspectorName = examiner.name
            if !examiner.qualification.isEmpty { v.certificationNumber = examiner.qualification }
        }
    }
}

/// A check box's value, by a switch over the field (as `[text:]`, RigbookCore): not key paths, whose runtime code a
/// key arriving cold pays for on every line of the form it draws.
extension InspectionValues {
    /// A check box's or toggle's state (`FormField.isFlag`); false for any other field, which a write leaves alone.
    subscript(flag field: FormField) -> Bool {
        get {
            switch field {
            case .checkMarking: checkMarking
            case .checkCuts: checkCuts
            case .checkDeformation: checkDeformation
            case .checkFittings: checkFittings
            case .checkCorrosion: checkCorrosion
            case .remedyDeadlineSet: remedyDeadlineSet
            case .confirmed: confirmed
            case .installedCorrectly: installedCorrectly
            default: false
            }
        }
        set {
            switch field {
            case .checkMarking: checkMarking = newValue
            case .checkCuts: checkCuts = newValue
            case .checkDeformation: checkDeformation = newValue
            case .checkFittings: checkFittings = newValue
            case .checkCorrosion: checkCorrosion = newValue
            case .remedyDeadlineSet: remedyDeadlineSet = newValue
            case .confirmed: confirmed = newValue
            case .installedCorrectly: installedCorrectly = newValue
            default: break
            }
        }
    }
}
