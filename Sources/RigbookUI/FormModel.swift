import Foundation
import RigbookCore

/// How a field is edited.
public enum FieldKind: Sendable {
    case choice, text, multiline, check, toggle, date
}

extension FormField {
    public var kind: FieldKind {
        switch self {
        case .inspectionType, .result, .action: .choice
        case .inspectorName, .certificationNumber, .schemeReference: .text
        case .notes, .defectDescription: .multiline
        case .checkMarking, .checkCuts, .checkDeformation, .checkFittings, .checkCorrosion, .confirmed: .check
        case .remedyDeadlineSet: .toggle
        case .remedyDeadline, .inspectionDate: .date
        }
    }

    /// The label beside a widget (check boxes carry their full sentence instead).
    public var shortLabel: String {
        switch self {
        case .certificationNumber: "Certification no."
        case .schemeReference: "Scheme reference"
        case .defectDescription: "Defect (part, defect)"
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
        default: shortLabel
        }
    }

    /// Longest text the widget accepts: the gate's bound, or 10 for a date.
    var inputLimit: Int { kind == .date ? 10 : maxLength }

    var textPath: WritableKeyPath<InspectionValues, String>? {
        switch self {
        case .inspectorName: \.inspectorName
        case .certificationNumber: \.certificationNumber
        case .schemeReference: \.schemeReference
        case .notes: \.notes
        case .defectDescription: \.defectDescription
        case .remedyDeadline: \.remedyDeadline
        case .inspectionDate: \.inspectionDate
        default: nil
        }
    }

    var flagPath: WritableKeyPath<InspectionValues, Bool>? {
        switch self {
        case .checkMarking: \.checkMarking
        case .checkCuts: \.checkCuts
        case .checkDeformation: \.checkDeformation
        case .checkFittings: \.checkFittings
        case .checkCorrosion: \.checkCorrosion
        case .remedyDeadlineSet: \.remedyDeadlineSet
        case .confirmed: \.confirmed
        default: nil
        }
    }

    /// The form's groups, in order, with their fields.
    static let groups: [(title: String, fields: [FormField])] = [
        ("Examination", [.inspectionType]),
        ("Inspector", [.inspectorName, .certificationNumber]),
        ("Checks — ticked means OK or not applicable", [.checkMarking, .checkCuts, .checkDeformation, .checkFittings, .checkCorrosion]),
        ("Findings", [.result, .notes, .schemeReference, .defectDescription, .action]),
        ("Dates", [.remedyDeadlineSet, .remedyDeadline, .inspectionDate]),
        ("Confirmation", [.confirmed]),
    ]
}

/// Options of the three choice fields, with "none chosen" only where SPEC §4 allows it.
enum Choices {
    static func labels(_ field: FormField) -> [String] {
        switch field {
        case .inspectionType: InspectionType.allCases.map(\.label)
        case .result: InspectionResult.allCases.map(\.label)
        case .action: InspectionAction.allCases.map(\.label)
        default: []
        }
    }

    /// The chosen option's index, nil when nothing is chosen.
    static func index(_ field: FormField, in v: InspectionValues) -> Int? {
        switch field {
        case .inspectionType: InspectionType.allCases.firstIndex(of: v.inspectionType)
        case .result: v.result.flatMap { InspectionResult.allCases.firstIndex(of: $0) }
        case .action: InspectionAction.allCases.firstIndex(of: v.action)
        default: nil
        }
    }

    static func set(_ field: FormField, to index: Int, in v: inout InspectionValues) {
        switch field {
        case .inspectionType: v.inspectionType = InspectionType.allCases[index]
        case .result: v.result = InspectionResult.allCases[index]
        case .action: v.action = InspectionAction.allCases[index]
        default: break
        }
    }

    /// ←/→ cycle; with nothing chosen, → takes the first option and ← the last.
    static func cycle(_ field: FormField, by step: Int, in v: inout InspectionValues) {
        let count = labels(field).count
        guard count > 0 else { return }
        let next = index(field, in: v).map { ($0 + step + count) % count } ?? (step > 0 ? 0 : count - 1)
        set(field, to: next, in: &v)
    }
}

/// What the runtime hands over to open a form: the asset, its history (for the preview), the
/// prefilled baseline and the values to start from.
public struct FormSeed: Sendable {
    public var row: RegisterRow
    public var history: [RecordFacts]
    public var baseline: InspectionValues
    public var initial: InspectionValues
    /// Unique per form session; the register refuses it twice.
    public var draftID: String
    public var amends: Int64?
    /// A draft file for this form is on disk already (recovered).
    public var draftOnDisk: Bool

    public init(row: RegisterRow, history: [RecordFacts], baseline: InspectionValues, initial: InspectionValues? = nil,
                draftID: String, amends: Int64? = nil, draftOnDisk: Bool = false) {
        self.row = row
        self.history = history
        self.baseline = baseline
        self.initial = initial ?? baseline
        self.draftID = draftID
        self.amends = amends
        self.draftOnDisk = draftOnDisk
    }

    /// The draft file's id: form kind and asset, never typed text.
    public var draftFileID: String { DraftIdentity.fileID(assetUUID: row.asset.uuid) }
}
