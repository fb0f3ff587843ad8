import RigbookCore

/// What the runtime hands over to open a form that keeps a draft (an inspection, a test, an asset's edit): the
/// asset and its records (for the *If saved* preview), the values that count as nothing typed and those shown
/// first, the session (the record carries it; the register refuses it twice), the draft already on disk when one
/// is recovered, the field to focus first, and `own`, what only the form kind opens with.
public struct DraftedFormSeed<Values: Sendable, Field: Sendable, Own: Sendable>: Sendable {
    public var row: RegisterRow
    public var history: [RecordFacts]
    public var baseline: Values
    public var initial: Values
    public var sessionID: String
    public var draft: DraftFileMeta?
    public var focus: Field?
    public var own: Own

    public init(row: RegisterRow, history: [RecordFacts] = [], baseline: Values, initial: Values? = nil,
                sessionID: String, draft: DraftFileMeta? = nil, focus: Field? = nil, own: Own) {
        self.row = row
        self.history = history
        self.baseline = baseline
        self.initial = initial ?? baseline
        self.sessionID = sessionID
        self.draft = draft
        self.focus = focus
        self.own = own
    }
}

/// What only the inspection form opens with: the record it amends (the newest of the chain of the record chosen;
/// nil: a fresh inspection), the record chosen when a later amendment had already superseded it, reg 10's answers
/// a recovered draft holds, and the register's particulars (what a thorough examination's report copies).
public struct InspectionOpening: Sendable {
    public var amending: StoredInspection?
    public var supersededChoice: Int64?
    public var noticeAnswers: DefectNoticeAnswers?
    /// The reg 10 answers the amended record's notices hold now: an amendment of its defect starts from them.
    public var amendedNotices: DefectNoticeAnswers?
    public var particulars: Particulars

    public init(amending: StoredInspection? = nil, supersededChoice: Int64? = nil,
                amendedNotices: DefectNoticeAnswers? = nil, particulars: Particulars = .initial) {
        self.amending = amending
        self.supersededChoice = supersededChoice
        self.amendedNotices = amendedNotices
        self.particulars = particulars
    }
}

public typealias FormSeed = DraftedFormSeed<InspectionValues, FormField, InspectionOpening>
/// A test form opens with the register's test limits in force: they judge it, and the test keeps them.
public typealias TestFormSeed = DraftedFormSeed<TestValues, TestField, TestLimits>
/// The asset editor has nothing of its own to open with; its baseline is the asset.
public typealias AssetEditorSeed = DraftedFormSeed<AssetDraft, Asset.Field, Void>

extension DraftedFormSeed where Own == InspectionOpening {
    /// The draft file's id: form kind and asset, never typed text.
    public var draftID: String { DraftIdentity.draftID(assetUUID: row.asset.uuid) }

    /// What a form opened to amend `chosen` amends: the newest record of its chain in `history` (read
    /// again at opening, so an amendment saved meanwhile counts), and `chosen`'s id when that is another.
    public static func target(amending chosen: StoredInspection?,
                              in history: [StoredInspection]) -> (amending: StoredInspection?, chosen: Int64?) {
        guard let chosen else { return (nil, nil) }
        let newest = chosen.newestOfChain(in: history)
        return (newest, newest.recordUUID == chosen.recordUUID ? nil : chosen.id)
    }
}

extension DraftedFormSeed where Own == TestLimits {
    public var draftID: String { DraftIdentity.testDraftID(assetUUID: row.asset.uuid) }
}

extension DraftedFormSeed where Values == AssetDraft, Own == Void {
    /// The editor of `row`'s asset, opening on the asset's values.
    public init(row: RegisterRow, sessionID: String) {
        self.init(row: row, baseline: AssetDraft(asset: row.asset), sessionID: sessionID, own: ())
    }

    public var draftID: String { DraftIdentity.assetDraftID(assetUUID: row.asset.uuid) }
}
