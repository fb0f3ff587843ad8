import Foundation
import RigbookCore

/// The electrical test form's fields as widgets (SPEC §12): how each is edited, where its value
/// lives in `TestValues`, its choices, and the groups the form shows them in.
extension TestField {
    public var kind: FieldKind {
        switch self {
        case .testType, .visual, .polarity, .rcdType, .rcdPushButton, .result: .choice
        case .technician, .licenceNumber, .instrumentModel, .instrumentSerial, .procedureReference: .text
        case .earthContinuity, .insulation, .leakage, .rcdTripTime, .loadCurrent: .text
        case .testDate, .calibrationDate: .date
        case .calibrationAcknowledged, .authenticated: .check
        case .notes: .multiline
        // One row a file; Ctrl-O attaches.
        case .attachments: .attachments
        }
    }

    /// The label beside a widget, within the label column at 80 columns.
    public var shortLabel: String {
        switch self {
        case .licenceNumber: "Licence no."
        case .rcdPushButton: "RCD push-button"
        default: label
        }
    }

    /// A reading: typed as text, judged as a number against its limit.
    public var isReading: Bool {
        switch self {
        case .earthContinuity, .insulation, .leakage, .rcdTripTime, .loadCurrent: true
        default: false
        }
    }

    /// The field's name in a draft file (`focused_field`): the test's own JSON names, never an index.
    public var key: String {
        rawValue.reduce(into: "") { out, c in
            if c.isUppercase { out += "_" + c.lowercased() } else { out.append(c) }
        }
    }

    public init?(key: String) {
        guard let field = TestField.allCases.first(where: { $0.key == key }) else { return nil }
        self = field
    }

    /// Longest text the widget accepts: a date's 10, a reading's 12, the gate's bounds otherwise.
    var inputLimit: Int {
        switch self {
        case .testDate, .calibrationDate: 10
        case .notes: TestGate.maxNotes
        default: isReading ? 12 : TestGate.maxText
        }
    }

    var textPath: WritableKeyPath<TestValues, String>? {
        switch self {
        case .testDate: \.testDate
        case .technician: \.technician
        case .licenceNumber: \.licenceNumber
        case .instrumentModel: \.instrumentModel
        case .instrumentSerial: \.instrumentSerial
        case .procedureReference: \.procedureReference
        case .calibrationDate: \.calibrationDate
        case .earthContinuity: \.earthContinuityOhm
        case .insulation: \.insulationMOhm
        case .leakage: \.leakageMA
        case .rcdTripTime: \.rcdTripTimeMs
        case .loadCurrent: \.loadCurrentA
        case .notes: \.notes
        default: nil
        }
    }

    var flagPath: WritableKeyPath<TestValues, Bool>? {
        switch self {
        case .calibrationAcknowledged: \.calibrationAcknowledged
        case .authenticated: \.authenticated
        default: nil
        }
    }

    /// The label of a check box: its whole sentence, the technician by name.
    func checkLabel(_ v: TestValues) -> String {
        switch self {
        case .authenticated:
            let name = v.technician.trimmingCharacters(in: .whitespaces)
            return "I, \(name.isEmpty ? "(technician)" : name), authenticate this test"
        case .calibrationAcknowledged: return "I have noted that the instrument's calibration is old"
        default: return label
        }
    }

    /// The form's groups, in order, with their fields (each group keeps only the fields the class shows).
    static let groups: [(title: String, fields: [TestField])] = [
        ("Test", [.testType, .testDate]),
        ("Technician and instrument", [.technician, .licenceNumber, .instrumentModel, .instrumentSerial,
                                       .procedureReference, .calibrationDate, .calibrationAcknowledged]),
        ("Inspection and readings", [.visual, .earthContinuity, .insulation, .leakage, .polarity, .rcdType,
                                     .rcdPushButton, .rcdTripTime, .loadCurrent]),
        ("Outcome", [.attachments, .notes, .result]),
        ("Authentication", [.authenticated]),
    ]
}

/// The options of the test form's choice fields, as labels and as the values they set.
enum TestChoices {
    static func labels(_ field: TestField) -> [String] {
        switch field {
        case .testType: TestType.allCases.map(\.label)
        case .visual, .polarity, .rcdPushButton: PassFail.allCases.map(\.label)
        case .rcdType: RCDType.allCases.map(\.label)
        case .result: TestResultChoice.allCases.map(\.label)
        default: []
        }
    }

    /// The option chosen now; nil when nothing is.
    static func index(_ field: TestField, in v: TestValues) -> Int? {
        switch field {
        case .testType: TestType.allCases.firstIndex(of: v.testType)
        case .visual: v.visual.flatMap { PassFail.allCases.firstIndex(of: $0) }
        case .polarity: v.polarity.flatMap { PassFail.allCases.firstIndex(of: $0) }
        case .rcdPushButton: v.rcdPushButton.flatMap { PassFail.allCases.firstIndex(of: $0) }
        case .rcdType: RCDType.allCases.firstIndex(of: v.rcdType)
        case .result: TestResultChoice.allCases.firstIndex(of: v.result)
        default: nil
        }
    }

    static func set(_ field: TestField, _ index: Int, in v: inout TestValues) {
        switch field {
        case .testType: v.testType = TestType.allCases[index]
        case .visual: v.visual = PassFail.allCases[index]
        case .polarity: v.polarity = PassFail.allCases[index]
        case .rcdPushButton: v.rcdPushButton = PassFail.allCases[index]
        case .rcdType: v.rcdType = RCDType.allCases[index]
        case .result: v.result = TestResultChoice.allCases[index]
        default: break
        }
    }

    /// What the widget shows.
    static func text(_ field: TestField, in v: TestValues) -> String {
        index(field, in: v).map { labels(field)[$0] } ?? "— choose —"
    }
}

extension DraftSummary {
    /// "Earth continuity (Ω): “2.5”", … for each field of a test draft that differs from the blank form.
    public static func differences(_ values: TestValues, from blank: TestValues) -> [String] {
        var out: [String] = []
        for field in TestField.allCases {
            if let path = field.textPath, values[keyPath: path] != blank[keyPath: path] {
                let text = values[keyPath: path].replacingOccurrences(of: "\n", with: " ⏎ ")
                out.append("\(field.label): “\(text.count > 40 ? String(text.prefix(39)) + "…" : text)”")
            } else if let path = field.flagPath, values[keyPath: path] != blank[keyPath: path] {
                out.append("\(field.label): \(values[keyPath: path] ? "ticked" : "not ticked")")
            } else if field.kind == .choice,
                      TestChoices.index(field, in: values) != TestChoices.index(field, in: blank) {
                out.append("\(field.label): \(TestChoices.text(field, in: values))")
            }
        }
        if values.attachments != blank.attachments {
            out.append("\(TestField.attachments.label): \(values.attachments.count)")
        }
        return out
    }
}
