import Foundation
import RigbookCore

/// A draft file's own facts, which travel with the form: the runtime keeps no draft state.
public struct DraftFileMeta: Sendable, Equatable {
    /// When the file was first written (ISO 8601, UTC).
    public var createdAt: String
    /// How many times it has been written.
    public var revision: Int
    /// The keys of the file a newer build wrote that this one does not know: every write puts them back.
    public var unknownKeys: UnknownDraftKeys

    public init(createdAt: String, revision: Int, unknownKeys: UnknownDraftKeys = UnknownDraftKeys()) {
        self.createdAt = createdAt
        self.revision = revision
        self.unknownKeys = unknownKeys
    }
}

/// What a draft write needs from the form; the runtime adds the time, operator and host.
///
/// Held in one shared, never-changed box: a typed key's journal effect carries a snapshot through `update`, the
/// effect list and the session, and a copy held inline retained and released each of its ~40 strings and values
/// at every step. A copy is one reference; a change makes a new box.
@dynamicMemberLookup
public struct DraftSnapshot: Sendable, Equatable {
    public struct Contents: Sendable, Equatable {
        /// The file: `Documents/Drafts/<draftID>.json`.
        public var draftID: String
        /// The form session the record will carry.
        public var sessionID: String
        public var assetUUID: UUID
        public var assetTag: String
        /// The record an amendment corrects: its id here (for people) and its uuid (what identifies it).
        public var amends: Int64?
        public var amendsUUID: UUID?
        public var values: InspectionValues
        /// The file as last written by this form; nil for a file not yet written.
        public var written: DraftFileMeta?
        /// The field that has the focus; a recovered draft opens there.
        public var focus: FormField
        /// The asset editor's values; nil for an inspection form's snapshot.
        public var assetValues: AssetDraft?
        /// The asset editor's focused field, by its name in the draft (`wll_kg`).
        public var assetFocus: String?
        /// Reg 10's answers as typed, once its dialog has opened.
        public var noticeAnswers: DefectNoticeAnswers?
        /// The electrical test form's values; nil for the other forms' snapshots.
        public var testValues: TestValues?
        /// The test form's focused field, by its name in the draft (`earth_continuity`).
        public var testFocus: String?
    }

    private final class Box: Sendable {
        let contents: Contents
        init(_ contents: Contents) { self.contents = contents }
    }

    private var box: Box

    public init(draftID: String, sessionID: String, assetUUID: UUID, assetTag: String, amends: Int64? = nil,
                amendsUUID: UUID? = nil, values: InspectionValues, written: DraftFileMeta?, focus: FormField,
                assetValues: AssetDraft? = nil, assetFocus: String? = nil, noticeAnswers: DefectNoticeAnswers? = nil,
                testValues: TestValues? = nil, testFocus: String? = nil) {
        box = Box(Contents(draftID: draftID, sessionID: sessionID, assetUUID: assetUUID, assetTag: assetTag,
                           amends: amends, amendsUUID: amendsUUID, values: values, written: written, focus: focus,
                           assetValues: assetValues, assetFocus: assetFocus, noticeAnswers: noticeAnswers,
                           testValues: testValues, testFocus: testFocus))
    }

    /// Everything at once: for a reader of several members on every key (the journal line), which through
    /// `dynamicMember` would run the runtime's key-path code once per member.
    public var contents: Contents { box.contents }

    public subscript<Value>(dynamicMember path: WritableKeyPath<Contents, Value>) -> Value {
        get { box.contents[keyPath: path] }
        set {
            var contents = box.contents
            contents[keyPath: path] = newValue
            box = Box(contents)
        }
    }

    public static func == (a: DraftSnapshot, b: DraftSnapshot) -> Bool {
        a.box === b.box || a.box.contents == b.box.contents
    }

    /// A typed edit: the inspection form's text field whose value alone changed since `base` (the focused one,
    /// typed into), with its text and the session and revision its journal line names; nil when anything else
    /// changed (the focus and the file written may: an edit line moves the focus to its field and carries the
    /// revision itself) and for the other forms. Compared through one copy, the probe: a line per key pays for it.
    public func typedEdit(since base: DraftSnapshot) -> (field: FormField, text: String, sessionID: String,
                                                         revision: Int)? {
        let field = box.contents.focus
        guard box.contents.assetValues == nil, box.contents.testValues == nil, field.hasText else { return nil }
        var probe = box.contents
        probe.values[text: field] = base.box.contents.values[text: field]
        probe.focus = base.box.contents.focus
        probe.written = base.box.contents.written
        guard probe == base.box.contents else { return nil }
        return (field, box.contents.values[text: field], box.contents.sessionID, box.contents.written?.revision ?? 0)
    }
}

/// A draft as a person is told about it, with times already written out by the runtime.
public struct DraftSummary: Sendable, Equatable {
    public var draftID: String
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
    /// The `kind` of an asset editor's draft.
    public static let assetEditKind = "asset edit"
    /// The `kind` of an electrical test form's draft.
    public static let testKind = "test"
    /// Who has it open right now, if anyone.
    public var lockedBy: String?

    public init(draftID: String, assetUUID: UUID, assetTag: String, kind: String, lastEdited: String, age: String,
                operatorName: String, host: String, byAnotherOperator: Bool, differences: [String],
                lockedBy: String? = nil) {
        self.draftID = draftID
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

    /// "WLL (kg): “2500”", … for each asset field an editor's draft changes.
    public static func differences(_ values: AssetDraft, from baseline: AssetDraft) -> [String] {
        Asset.Field.allCases.compactMap { field in
            let (now, then) = (AssetFormState.text(field, of: values), AssetFormState.text(field, of: baseline))
            return now == then ? nil : "\(field.label): “\(now.count > 40 ? String(now.prefix(39)) + "…" : now)”"
        }
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
            if field.hasText, values[text: field] != blank[text: field] {
                let text = values[text: field].replacingOccurrences(of: "\n", with: " ⏎ ")
                add(field, "“\(text.count > 40 ? String(text.prefix(39)) + "…" : text)”")
            } else if field.isFlag, values[flag: field] != blank[flag: field] {
                add(field, values[flag: field] ? "ticked" : "not ticked")
            }
        }
        if values.attachments != blank.attachments {
            let names = values.attachments.map(\.name).joined(separator: ", ")
            add(.attachments, names.isEmpty ? "none" : names)
        }
        return out
    }
}

/// What a batch draft write needs from the batch form; the runtime adds the time, operator and host.
public struct BatchDraftSnapshot: Sendable, Equatable {
    public var visit: UUID
    /// The assets of the batch, uuid and tag, in the batch's order.
    public var assets: [(uuid: UUID, tag: String)]
    public var values: InspectionValues
    public var written: DraftFileMeta?
    public var focus: FormField

    public var draftID: String { BatchIdentity.draftID(visit: visit) }

    public static func == (a: Self, b: Self) -> Bool {
        a.visit == b.visit && a.assets.map(\.uuid) == b.assets.map(\.uuid) && a.assets.map(\.tag) == b.assets.map(\.tag)
            && a.values == b.values && a.written == b.written && a.focus == b.focus
    }
}
