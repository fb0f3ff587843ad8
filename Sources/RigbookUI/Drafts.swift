import Foundation
import RigbookCore

/// What a draft write needs from the form; the runtime adds times, operator, host and revision.
public struct DraftSnapshot: Sendable, Equatable {
    public var fileID: String
    public var sessionID: String
    public var assetUUID: UUID
    public var assetTag: String
    public var amends: Int64?
    public var values: InspectionValues

    public init(fileID: String, sessionID: String, assetUUID: UUID, assetTag: String, amends: Int64?, values: InspectionValues) {
        self.fileID = fileID
        self.sessionID = sessionID
        self.assetUUID = assetUUID
        self.assetTag = assetTag
        self.amends = amends
        self.values = values
    }
}

/// A draft as a person is told about it, with times already written out by the runtime.
public struct DraftSummary: Sendable, Equatable {
    public var fileID: String
    public var assetUUID: UUID
    public var assetTag: String
    public var kind: String
    public var lastEdited: String
    public var age: String
    public var operatorName: String
    public var host: String
    /// Started by someone other than the current inspector.
    public var byAnotherOperator: Bool
    /// Fields that differ from a blank form, as short "Label: value" texts.
    public var differences: [String]
    /// Who has it open right now, if anyone.
    public var lockedBy: String?

    public init(fileID: String, assetUUID: UUID, assetTag: String, kind: String, lastEdited: String, age: String,
                operatorName: String, host: String, byAnotherOperator: Bool, differences: [String], lockedBy: String? = nil) {
        self.fileID = fileID
        self.assetUUID = assetUUID
        self.assetTag = assetTag
        self.kind = kind
        self.lastEdited = lastEdited
        self.age = age
        self.operatorName = operatorName
        self.host = host
        self.byAnotherOperator = byAnotherOperator
        self.differences = differences
        self.lockedBy = lockedBy
    }

    /// "Result: Fail – dangerous, do not use", … for each field that differs from `blank`.
    public static func differences(_ values: InspectionValues, from blank: InspectionValues) -> [String] {
        var out: [String] = []
        func add(_ field: FormField, _ text: String) { out.append("\(field.briefLabel): \(text)") }
        // The facts that matter most first, so a short preview still shows them.
        if values.result != blank.result { add(.result, values.result?.label ?? "none") }
        if values.action != blank.action { add(.action, values.action.label) }
        if values.inspectionType != blank.inspectionType { add(.inspectionType, values.inspectionType.label) }
        for field in FormField.allCases {
            if let path = field.textPath, values[keyPath: path] != blank[keyPath: path] {
                let text = values[keyPath: path].replacingOccurrences(of: "\n", with: " ⏎ ")
                add(field, "“\(text.count > 40 ? String(text.prefix(39)) + "…" : text)”")
            } else if let path = field.flagPath, values[keyPath: path] != blank[keyPath: path] {
                add(field, values[keyPath: path] ? "ticked" : "not ticked")
            }
        }
        return out
    }
}

/// Asked when a form is opened and a draft for it exists: never applied silently.
public struct RecoveryState: Sendable {
    public var seed: FormSeed
    public var draft: DraftSummary
    /// The draft's values and session, used if the person chooses Recover.
    public var recovered: FormSeed
    public var selection = 0

    public static let options = ["Recover", "Discard", "Back"]

    public init(seed: FormSeed, draft: DraftSummary, recovered: FormSeed) {
        self.seed = seed
        self.draft = draft
        self.recovered = recovered
    }

    func draw(into frame: inout Frame) {
        var lines: [(String, Style)] = [
            ("Last edited \(draft.lastEdited) (\(draft.age) ago) by \(draft.operatorName) on \(draft.host).", .plain),
        ]
        if draft.byAnotherOperator {
            lines.append(("This draft was started by another operator (\(draft.operatorName)).", Style(colour: .yellow, bold: true)))
        }
        lines.append(("", .plain))
        lines.append(("It holds:", .bold))
        let room = max(1, frame.height - 10)
        for difference in draft.differences.prefix(room) { lines.append(("  " + difference, .plain)) }
        if draft.differences.count > room { lines.append(("  … and \(draft.differences.count - room) more", .dim)) }
        Box.drawQuestion(title: "Unsubmitted draft for \(draft.assetTag)", lines: lines, options: RecoveryState.options,
                         selection: selection, minWidth: 56,
                         footer: "←→ choose · Enter · r recover · d discard · Esc back", into: &frame)
    }
}

public enum DraftsAction: Sendable { case up, down, recover, discard, back, help }

/// All drafts on disk, to recover or discard (`D` from the list).
public struct DraftsState: Sendable {
    public var drafts: [DraftSummary]
    public var selection = 0
    /// Asking "discard this draft?" for the selected one.
    public var confirmingDiscard = false

    public init(drafts: [DraftSummary]) { self.drafts = drafts }

    public var selected: DraftSummary? { drafts.isEmpty ? nil : drafts[min(selection, drafts.count - 1)] }

    static let keymap = Keymap<DraftsAction>(title: "Drafts", [
        KeyBinding([.up, .char("k")], label: "↑ k", help: "Previous draft", action: .up),
        KeyBinding([.down, .char("j")], label: "↓ j", help: "Next draft", footer: "move", action: .down),
        KeyBinding([.enter], help: "Recover: open the form with the draft's values", footer: "recover", action: .recover),
        KeyBinding([.char("x")], help: "Discard the draft (asks first)", footer: "discard", action: .discard),
        KeyBinding([.escape, .char("q")], label: "Esc q", help: "Back to the register", footer: "back", action: .back),
        KeyBinding([.char("?"), .function(1)], label: "? F1", help: "This help", footer: "help", action: .help),
    ])

    func draw(into frame: inout Frame) {
        frame.fill(y: 0, style: .reverse)
        frame.put(" Drafts · \(drafts.count) unsubmitted", x: 0, y: 0, style: .reverse)
        frame.put("  ASSET      KIND        AGE       OPERATOR          HOST", x: 0, y: 1, style: .bold)
        if drafts.isEmpty { frame.put("  No drafts. Everything typed has been saved or discarded.", x: 0, y: 2, style: .dim) }
        for (index, draft) in drafts.prefix(max(0, frame.height - 3)).enumerated() {
            let y = 2 + index
            var line = "  " + draft.assetTag.padded(toWidth: 9) + "  " + draft.kind.padded(toWidth: 10) + "  "
                + draft.age.padded(toWidth: 8) + "  " + draft.operatorName.padded(toWidth: 16) + "  " + draft.host
            if let holder = draft.lockedBy { line += "  (open: \(holder))" }
            frame.put(line, x: 0, y: y)
            if index == selection { frame.restyle(y: y) { $0.reverse.toggle() } }
        }
        frame.put(DraftsState.keymap.footer(width: frame.width), x: 0, y: frame.height - 1, style: .dim)
        if confirmingDiscard, let draft = selected {
            var lines: [(String, Style)] = [("It holds:", .bold)]
            for difference in draft.differences.prefix(max(1, frame.height - 9)) { lines.append(("  " + difference, .plain)) }
            lines.append(("", .plain))
            lines.append(("d or Enter discards it for good · Esc keeps it", .bold))
            Box.draw(title: "Discard the draft for \(draft.assetTag)?", lines: lines,
                     width: min(frame.width - 4, 60), highlight: nil, footer: nil, into: &frame)
        }
    }
}
