import Foundation
import RigbookCore

public enum TestRecordAction: Sendable { case up, down, back, help }

/// One saved electrical test in full: every field, each reading with its verdict, who saved it.
public struct TestRecordState: Screen {
    public let row: RegisterRow
    public let test: StoredTest
    var top = 0

    init(row: RegisterRow, test: StoredTest) {
        self.row = row
        self.test = test
    }

    static let keymap = Keymap<TestRecordAction>(title: "Test record",
                                                 KeyBinding.moves(up: .up, "Scroll up", down: .down, "Scroll down",
                                                                  footer: "scroll") + [
        .back(.back, to: "history"),
        .help(.help),
    ])

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        guard let action = TestRecordState.keymap.action(for: key) else { return .stay }
        switch action {
        case .up: top = max(0, top - 1)
        case .down: top = min(max(0, rows(width: context.area.width).count - (context.area.height - 2)), top + 1)
        case .back: return .pop
        case .help: return .help(TestRecordState.keymap)
        }
        return .stay
    }

    /// The fields the asset's class shows, in form order; a reading with its verdict beside it.
    var lines: [(String, String)] {
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

    func rows(width: Int) -> [(label: String, value: String)] {
        let labelWidth = min(24, width / 2)
        let valueWidth = max(8, width - labelWidth - 2)
        var rows: [(String, String)] = []
        for (label, value) in lines {
            let wrapped = value.split(separator: "\n", omittingEmptySubsequences: false).flatMap { part -> [String] in
                let characters = Array(part)
                return WrappedText.layout(characters, width: valueWidth).map { String(characters[$0.start..<$0.end]) }
            }
            for (index, part) in wrapped.enumerated() { rows.append((index == 0 ? label : "", part)) }
        }
        return rows
    }

    public func draw(into frame: inout Frame, area: Rect) {
        frame.fill(y: 0, in: area, style: .reverse)
        let result = test.passed ? "PASS" : "FAIL"
        frame.put(" Test #\(test.id) · \(row.asset.tag) · \(test.values.testDate) · \(result)", x: 0, y: 0, in: area,
                  style: .reverse)
        let labelWidth = min(24, area.width / 2)
        for (offset, row) in rows(width: area.width).dropFirst(top).prefix(area.height - 2).enumerated() {
            frame.put(" " + row.label, x: 0, y: 1 + offset, in: area, style: .bold, maxWidth: labelWidth)
            let failed = row.value.contains("· FAIL") || (offset + top == 0 && !test.passed)
            frame.put(row.value, x: labelWidth + 1, y: 1 + offset, in: area,
                      style: failed ? Style(colour: .red, bold: true) : .plain)
        }
        frame.put(TestRecordState.keymap.footer(width: area.width), x: 0, y: area.height - 1, in: area, style: .dim)
    }
}
