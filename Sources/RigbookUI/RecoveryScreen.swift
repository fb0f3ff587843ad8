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

    public init(seed: FormSeed, draft: DraftSummary, recovered: FormSeed) {
        self.draft = draft
        target = .inspection(seed: seed, recovered: recovered)
        question = RecoveryState.question(tag: draft.assetTag)
    }

    /// The asset editor's draft (issue 14): the same question, the same answers.
    public init(assetSeed seed: AssetEditorSeed, draft: DraftSummary, recovered: AssetEditorSeed) {
        self.draft = draft
        target = .asset(seed: seed, recovered: recovered)
        question = RecoveryState.question(tag: draft.assetTag)
    }

    /// The electrical test form's draft (issue 15): the same question, the same answers.
    public init(testSeed seed: TestFormSeed, draft: DraftSummary, recovered: TestFormSeed) {
        self.draft = draft
        target = .test(seed: seed, recovered: recovered)
        question = RecoveryState.question(tag: draft.assetTag)
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
            .init("Recover", answer: .recover, keys: [.char("r")], hint: "recover"),
            .init("Discard", answer: .discard, keys: [.char("d")], hint: "discard"),
            .init("Back", answer: .back, keys: [.char("b")]),
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
            return .pop + .push(form(recovered: true, context: context))
        case .discard:
            return .pop + .notify(.info("Discarded the draft for \(draft.assetTag)."))
                + .effects([.deleteDraft(draftID: draft.draftID)])
                + .push(form(recovered: false, context: context))
        case .back:
            return .pop + .effects([.releaseDraft(draftID: draft.draftID), .refreshAsset(assetUUID: draft.assetUUID)])
        }
    }

    public func draw(into frame: inout Frame, area: Rect) {
        var lines: [(String, Style)] = [
            ("Last edited \(draft.lastEdited) (\(draft.age) ago) by \(draft.operatorName) on \(draft.host).", .plain),
        ]
        if draft.byAnotherOperator {
            lines.append(("This draft was started by another operator (\(draft.operatorName)).",
                          Style(colour: .yellow, bold: true)))
        }
        lines.append(("", .plain))
        lines.append(("It holds:", .bold))
        let room = max(1, area.height - 10)
        for difference in draft.differences.prefix(room) { lines.append(("  " + difference, .plain)) }
        if draft.differences.count > room { lines.append(("  … and \(draft.differences.count - room) more", .dim)) }
        var question = question
        question.lines = lines
        question.draw(into: &frame, area: area)
    }
}
