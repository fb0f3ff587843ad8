/// The answer to "Leave this inspection?" (and the test form's and the asset editor's question).
public enum LeaveChoice: Sendable, Equatable { case keepEditing, keepDraft, discard }

/// What Esc asks in a form holding unsaved input, for every form that keeps a draft (the inspection form, the
/// batch, the test form, the asset editor). Keeping the draft is offered only while the draft can be on disk: with
/// its last write failed (the title says DRAFT NOT ON DISK), closing would lose what was typed, so the question
/// says why and offers to keep editing or to discard, in words that say what discarding loses.
struct LeaveQuestion: Sendable {
    let title: String
    /// What the form holds that was not saved.
    let unsaved: String

    static let inspection = LeaveQuestion(title: "Leave this inspection?",
                                          unsaved: "You have typed into this form and not saved it.")
    static let test = LeaveQuestion(title: "Leave this test?", unsaved: inspection.unsaved)
    static let assetEdit = LeaveQuestion(title: "Leave these changes?",
                                         unsaved: "You have changed this asset and not saved it.")

    /// The question while the draft is on disk, or not yet written: keep editing, close and keep it, discard.
    var keepingDraft: Question<LeaveChoice> { question(draftNotWritten: nil) }

    /// The question while the draft's last write failed for `reason`: keep editing, or discard what was typed.
    func question(draftNotWritten reason: String?) -> Question<LeaveChoice> {
        let keepEditing = Question<LeaveChoice>.Option("Keep editing", answer: .keepEditing, keys: [.char("k")],
                                                       rank: .sometimes)
        guard let reason else {
            return Question(title: title, lines: [(unsaved, .plain)],
                            options: [keepEditing,
                                      .init("Close and keep draft", answer: .keepDraft, keys: [.char("c")],
                                            rank: .sometimes),
                                      .init("Discard", answer: .discard, keys: [.char("d")], rank: .sometimes)],
                            cancel: (.keepEditing, "keeps editing"), minWidth: 50)
        }
        // A reason may end a sentence of its own (an error's description): one full stop, not two.
        let why = "The draft could not be written to disk: " + reason + (reason.hasSuffix(".") ? "" : ".")
        return Question(title: title,
                        lines: [(unsaved, .plain), (why, Style(colour: .red, bold: true)),
                                ("Closing now would lose what you typed: keep editing, then save, or close once "
                                 + "the title no longer says DRAFT NOT ON DISK.", .plain)],
                        options: [keepEditing,
                                  .init("Discard what I typed", answer: .discard, keys: [.char("d")],
                                        rank: .sometimes)],
                        cancel: (.keepEditing, "keeps editing"), minWidth: 50)
    }

    /// The question for the draft as `draft` stands, shown from input batch `batch`.
    func opened(in batch: Int, draft: DraftTracker) -> Question<LeaveChoice> {
        question(draftNotWritten: draft.warning).opened(in: batch)
    }

    /// `open`, this question on screen, for the draft as `draft` stands now: a write that failed or succeeded
    /// since it opened changes what it may offer. It stays opened in the same batch, on the same answer if it
    /// still offers it (else on keep editing).
    func following(_ open: Question<LeaveChoice>, draft: DraftTracker) -> Question<LeaveChoice> {
        var now = question(draftNotWritten: draft.warning)
        guard now.answers != open.answers || now.lines.map(\.0) != open.lines.map(\.0) else { return open }
        now.opened = open.opened
        now.selection = now.answers.firstIndex(of: open.answers[open.selection]) ?? 0
        return now
    }
}
