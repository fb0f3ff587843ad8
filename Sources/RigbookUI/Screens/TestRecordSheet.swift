import Foundation
import RigbookCore

/// An electrical test as the record viewer shows it: every field the asset's class shows, each reading with its
/// verdict, the limits it was judged by and who saved it; a failure in red.
public struct TestRecordSheet: RecordSheet {
    let row: RegisterRow
    let test: StoredTest
    public var printed: PrintedRecord { .test(testUUID: test.testUUID) }

    public init(row: RegisterRow, record: StoredTest) {
        self.row = row
        test = record
    }

    public static let keymap = RecordKeys.keymap(title: "Test record")

    public var title: String {
        " Test #\(test.id) · \(row.asset.tag) · \(test.values.testDate) · \(test.passed ? "PASS" : "FAIL")"
    }

    /// The fields the asset's class shows, in form order; a reading with its verdict beside it.
    public var lines: [(String, String)] {
        let v = test.values
        let verdicts = Dictionary(test.verdicts.map { ($0.field, $0) }, uniquingKeysWith: { first, _ in first })
        func text(_ value: String) -> String { value.isEmpty ? "—" : value }
        let cls = row.asset.electrical?.equipmentClass ?? .other
        var lines: [(String, String)] = [("Recorded result", test.passed ? "PASS" : "FAIL")]
        for field in TestField.shown(for: cls) {
            let value: String
            switch field {
            case .calibrationAcknowledged:
                guard v.calibrationAcknowledged else { continue }
                value = "yes"
            case .authenticated:
                lines.append(("Authenticated", v.authenticated ? "yes, by \(v.technician)" : "no"))
                continue
            case .attachments:
                value = v.attachments.isEmpty ? "none" : v.attachments.map(\.name).joined(separator: ", ")
            case .result:
                lines.append(("Result chosen", v.result.label))
                continue
            default:
                if let path = field.textPath { value = text(v[keyPath: path]) } else {
                    value = TestChoices.index(field, in: v) == nil ? "—" : TestChoices.text(field, in: v)
                }
            }
            var line = value
            if let verdict = verdicts[field.rawValue], field.isReading || field == .polarity
                || field == .rcdPushButton {
                line += " · " + verdict.outcome.uppercased() + (field.isReading ? " (\(verdict.text))" : "")
            }
            lines.append((field.shortLabel, line))
        }
        // The limits of the record, not the register's today: a later change of settings never changes what
        // an old test said.
        return lines + [
            ("Judged by the limits", test.limits?.summary ?? "not readable in this record"),
            ("Saved at", test.savedAt),
            ("Saved by (operator)", test.operatorName),
            ("Rigbook version", test.appVersion),
            ("Session id", test.sessionID),
            ("Test uuid", test.testUUID.uuidString.lowercased()),
            ("SHA-256", test.entryHash ?? "—"),
        ]
    }

    /// A failed reading's row, and the recorded result (the first row) of a failed test.
    public func valueStyle(_ value: String, index: Int) -> Style {
        value.contains("· FAIL") || (index == 0 && !test.passed) ? Style(colour: .red, bold: true) : .plain
    }
}
