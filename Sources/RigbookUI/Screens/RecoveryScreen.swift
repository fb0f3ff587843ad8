import Foundation
import RigbookCore

/// The answer to "Unsubmitted draft for …": never applied silently.
public enum RecoveryChoice: Sendable, Equatable { case recover, discard, back }

/// Asked when a form is opened and a draft for it exists; drawn over the list.
public struct RecoveryState: Screen {
    public var draft: DraftSummary
    /// The form to open: as it opens fresh (Discard), and with the draft's values and session (Recover).
    enum Target: Sendable {
        case inspection(seed: FormSeed, recovered: FormSeed)
        case asset(seed: AssetEditorSeed, recovered: AssetEditorSeed)
        case test(seed: TestFormSeed, recovered: TestFormSeed)
    }
    var target: Target
    var question: Question<RecoveryChoice>
    /// What the person asked for when it is not what the draft holds (`A` on a record, with an inspection's
    /// draft on disk): the box says so, and its answers say which form each opens. Nil: the usual question.
    public private(set) var asked: String?

    private init(_ target: Target, draft: DraftSummary) {
        self.draft = draft
        self.target = target
        question = RecoveryState.question(tag: draft.assetTag)
    }

    public init(seed: FormSeed, draft: DraftSummary, recovered: FormSeed) {
        self.init(.inspection(seed: seed, recovered: recovered), draft: draft)
        // One draft per asset holds its inspection or its amendment. `A` on a record whose asset has another
        // draft must not open that draft as if it were the amendment: the box says so, and Discard amends. (`i`
        // is how any draft of the asset is got back, so it keeps the usual question.)
        guard let wanted = seed.own.amending, recovered.own.amending?.recordUUID != wanted.recordUUID else { return }
        asked = "You asked to amend record #\(wanted.id), but \(draft.assetTag) has an unsaved \(draft.kind) "
            + "draft, and an asset has one form at a time: resume the draft, or discard it to amend #\(wanted.id)."
        question = RecoveryState.otherDraftQuestion(tag: draft.assetTag, kind: draft.kind,
                                                    wanted: "amend #\(wanted.id)")
    }

    /// The asset editor's draft: the same question, the same answers.
    public init(assetSeed seed: AssetEditorSeed, draft: DraftSummary, recovered: AssetEditorSeed) {
        self.init(.asset(seed: seed, recovered: recovered), draft: draft)
    }

    /// The electrical test form's draft: the same question, the same answers.
    public init(testSeed seed: TestFormSeed, draft: DraftSummary, recovered: TestFormSeed) {
        self.init(.test(seed: seed, recovered: recovered), draft: draft)
    }

    private func form(recovered: Bool, context: ScreenContext) -> any Screen {
        switch target {
        case .inspection(let seed, let draft): FormState(seed: recovered ? draft : seed, context: context)
        case .asset(let seed, let draft): AssetFormState(editing: recovered ? draft : seed, context: context)
        case .test(let seed, let draft): TestFormState(seed: recovered ? draft : seed, context: context)
        }
    }

    static func question(tag: String) -> Question<RecoveryChoice> {
        Question(title: "Unsubmitted draft for \(tag)", lines: [], options: [
            .init("Recover", answer: .recover, keys: [.char("r")], rank: .constant, hint: "recover"),
            .init("Discard", answer: .discard, keys: [.char("d")], rank: .often, hint: "discard"),
            .init("Back", answer: .back, keys: [.char("b")], rank: .sometimes),
        ], cancel: (.back, "back"), minWidth: 56)
    }

    /// The question when the draft is not the form asked for: the same answers, named for what each opens.
    static func otherDraftQuestion(tag: String, kind: String, wanted: String) -> Question<RecoveryChoice> {
        Question(title: "Unsaved \(kind) draft for \(tag)", lines: [], options: [
            .init("Resume the draft", answer: .recover, keys: [.char("r")], rank: .constant, hint: "resume"),
            .init("Discard it, \(wanted)", answer: .discard, keys: [.char("d")], rank: .often,
                  hint: "discard, \(wanted)"),
            .init("Back", answer: .back, keys: [.char("b")], rank: .sometimes),
        ], cancel: (.back, "back"), minWidth: 56)
    }

    public var selection: Int { question.selection }
    public var isOverlay: Bool { true }

    public mutating func opened(context: ScreenContext) { question = question.opened(in: context.batch) }

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        switch question.handle(key, batch: context.batch) {
        case nil:
            return .stay
        case .recover:
            // What was asked for is not forgotten: the notice says how to get to it.
            let reminder = asked.map { _ in
                Outcome.notify(.info("Resumed the \(draft.kind) draft of \(draft.assetTag): save or discard it, "
                                     + "then ask again."))
            } ?? .stay
            return .pop + .push(form(recovered: true, context: context)) + reminder
        case .discard:
            return .pop + .notify(.info("Discarded the draft for \(draft.assetTag)."))
                + .effects([.deleteDraft(draftID: draft.draftID)])
                + .push(form(recovered: false, context: context))
        case .back:
            return .pop + .effects([.releaseDraft(draftID: draft.draftID), .refreshAsset(assetUUID: draft.assetUUID)])
        }
    }

    public func draw(into frame: inout Frame, area: Rect) {
        var lines: [(String, Style)] = asked.map { [($0, Style(colour: .yellow, bold: true)), ("", .plain)] } ?? []
        lines.append(("Last edited \(draft.lastEdited) (\(draft.age) ago) by \(draft.operatorName) on \(draft.host).",
                      .plain))
        if draft.byAnotherOperator {
            lines.append(("This draft was started by another operator (\(draft.operatorName)).",
                          Style(colour: .yellow, bold: true)))
        }
        lines.append(("", .plain))
        lines.append(("It holds:", .bold))
        let room = max(1, area.height - 10 - (asked == nil ? 0 : 4))  // the request takes some three rows and a gap
        for difference in draft.differences.prefix(room) { lines.append(("  " + difference, .plain)) }
        if draft.differences.count > room { lines.append(("  … and \(draft.differences.count - room) more", .dim)) }
        var question = question
        question.lines = lines
        question.draw(into: &frame, area: area)
    }
}
