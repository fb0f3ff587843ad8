import RigbookCore

/// A form that keeps a draft of what is typed and saves a record through a gate (the inspection form and the test
/// form): what the shared behaviour below needs of it. The draft's journal, writes and removal, the question when
/// leaving, a save refused or failed, the footer's message and the title's draft state are one piece of code for
/// every such form; a form kind declares its fields, its gate and its own keys.
protocol DraftedForm: FieldForm {
    /// What the form's gate validates, and the form kind's own modes beside the engine's.
    associatedtype Record: Sendable
    associatedtype OwnMode: Sendable
    var mode: FormMode<Record, OwnMode> { get set }
    /// Immediate messages under a field.
    var fieldMessages: [Field: String] { get set }
    /// The fields of the gate's rules unmet now.
    var unmetFields: [Field] { get }
    associatedtype Values: Sendable
    var values: Values { get set }
    /// What the form opened with: its asset and records, its baseline, its session (`DraftedFormSeed`), and what
    /// only the kind opens with.
    associatedtype Opening: Sendable
    var seed: DraftedFormSeed<Values, Field, Opening> { get }
    /// Where the values keep their attached files.
    static var attachmentsPath: WritableKeyPath<Values, [Attachment]> & Sendable { get }
    /// The form keeps its own keystroke journal (false: a batch's form, whose batch keeps the draft).
    var journals: Bool { get }
    /// First body line on screen.
    var scroll: Int { get set }
    static var authentication: Authentication<Field, Values> { get }
    /// The input batch in which the authentication got the focus: only a key from a later one may tick it.
    var authenticationShown: SeenInBatch { get }
    /// "Authenticate and save?" in this form's words, and the question while it is on screen.
    var authenticationPrompt: Question<AuthenticateChoice> { get }

    /// The form's keys (`DraftedFormKeys`) and its help page.
    static var keymap: Keymap<FormAction> { get }
    static var choiceKeymap: Keymap<FormAction> { get }
    static var helpLines: [(keys: String, help: String)] { get }
    /// A tick on a check box moves the focus on to the next field (the authentication's excepted).
    static var ticksMoveOn: Bool { get }
    /// The focused field's text being edited, and what holds back a label scanned into the form.
    var editor: EditableText? { get set }
    var scanCatcher: FormScanCatcher { get set }
    /// The frames shown when the key being handled came in (`ScreenContext.batch`); before a key, the last one's.
    var inputBatch: Int { get set }
    mutating func keepFocusVisible(width: Int, height: Int)
    /// The file selected on the attachments line.
    var attachmentSelection: Int { get set }
    var draftID: String { get }
    /// The values changed (at the loop's clock `now`).
    mutating func changed(now: Double)
    /// The focused field takes typed text now; how many characters a field holds, and setting its text.
    var isTyping: Bool { get }
    func inputLimit(_ field: Field) -> Int
    mutating func setText(_ field: Field, _ text: String, now: Double)
    /// Ctrl-S or Ctrl-N.
    mutating func attemptSave(andNext: Bool) -> Outcome
    /// One key as this form kind handles it: its modes, its text field, then `handleFieldKey`.
    mutating func handleKey(_ key: Key, now: Double, width: Int) -> Outcome
    /// The keys only this form kind has (F2's clean pass, F4's examiner, Enter on a choice).
    mutating func handleOwn(_ action: FormAction, now: Double) -> Outcome
    var draft: DraftTracker { get set }
    var draftSnapshot: DraftSnapshot { get }
    var hasUnsavedInput: Bool { get }
    var message: FormMessage? { get set }
    /// After a refused Ctrl-S the unmet rules are shown in red, not as quiet hints.
    var attemptedSave: Bool { get set }
    /// The input batch of the last change of values: Ctrl-S counts only from a later one.
    var lastChange: SeenInBatch { get }
    /// Counts changes of values: a key that moved it is journalled.
    var editCount: Int { get }
    /// The loop's clock at the key being handled.
    var clock: Double { get set }
    /// "Leave this inspection?" or the test's wording.
    static var leaveWording: LeaveQuestion { get }
    /// What "Discarded the … of TAG." calls the record being typed.
    static var recordNoun: String { get }
    /// The gate's verdict on the values as they are: the save, or the unmet rules shown.
    mutating func validateAndSave() -> Outcome
}

/// A line of a form's body, as its scrolling needs it: the field it belongs to, or a group's heading.
protocol FormBodyLine {
    associatedtype Field: Equatable
    var field: Field? { get }
    var isHeading: Bool { get }
}

/// A form's columns at a screen width: labels, then the values from `valueX`, `textWidth` wide.
struct FormColumns {
    let labelWidth: Int
    let valueX: Int
    let textWidth: Int

    init(width: Int) {
        labelWidth = FormLayout.labelWidth(screenWidth: width)
        valueX = labelWidth + 2
        textWidth = FormLayout.textWidth(screenWidth: width)
    }

    /// Where a field's widget is drawn on body row `y` of `area`.
    func widget(y: Int, in area: Rect) -> Rect {
        Rect(x: area.x + valueX, y: area.y + y, width: textWidth + 1, height: 1)
    }
}

/// The tick by which a person authenticates a record: its field, what messages call it, where it is kept.
struct Authentication<Field: Sendable, Values>: Sendable {
    let field: Field
    let noun: String
    let tick: WritableKeyPath<Values, Bool> & Sendable
}

/// What a drafted form is doing; the modes exclude each other. `Record` is what the form's gate validates, `Own`
/// the form kind's own modes (the inspection's list of options, reg 10's questions).
public enum FormMode<Record: Sendable, Own: Sendable>: Sendable {
    case editing
    /// "Leave this inspection?" (or test) is asked.
    case leaving(Question<LeaveChoice>)
    /// Ctrl-S with only the authentication unmet: "Authenticate and save? y/n".
    case authenticating(Question<AuthenticateChoice>)
    /// The record went to the register; waiting for the answer.
    case saving(Record)
    /// Ctrl-O: "Attach a file" asks for a path.
    case attaching(AttachPrompt)
    case own(Own)
}

/// What a form's footer says instead of its keys, if anything.
public enum FormMessage: Sendable, Equatable {
    /// A one-off line, gone at the next key.
    case note(String)
    /// Why the last save failed; stays until the values change or the next attempt.
    case saveFailed(String)
}

extension DraftedForm {
    var row: RegisterRow { seed.row }
    var history: [RecordFacts] { seed.history }
    var baseline: Values { seed.baseline }
    var sessionID: String { seed.sessionID }

    var typingLabel: String { label(of: focus) }
    var typingLimit: Int { inputLimit(focus) }
    var typingMultiline: Bool { kind(of: focus) == .multiline }
    mutating func setTypedText(_ text: String, now: Double) { setText(focus, text, now: now) }

    var draftOnDisk: Bool { draft.onDisk }

    var saveError: String? {
        if case .saveFailed(let reason)? = message { reason } else { nil }
    }

    var notice: String? {
        if case .note(let text)? = message { text } else { nil }
    }

    /// Shows a one-off line, unless a failed save is being reported (it matters more).
    mutating func note(_ text: String) {
        if saveError == nil { message = .note(text) }
    }

    /// The footer line, most important first: a failed save, a failing draft, a note, "Saving…".
    var footerMessage: (text: String, style: Style)? {
        let alarm = Style(colour: .red, bold: true)
        if let reason = saveError { return ("Not saved: \(reason)", alarm) }
        if let warning = draft.warning, message == nil {
            // What the person needs to know first; the reason (a path, an errno) last, where "…" may cut it.
            return ("⚠ Draft not written; what you typed is kept here and the register is untouched: \(warning).",
                    alarm)
        }
        if let text = notice { return (text, Style(colour: attemptedSave ? .red : .normal, bold: true)) }
        return saving ? ("Saving…", .bold) : nil
    }

    /// The title bar, the draft's state at its right: an asset's title gives way by its name, then its type
    /// (`FormTitle`); any other is cut at the end.
    func drawTitle(_ title: String, asset: Asset? = nil, into frame: inout Frame, area: Rect) {
        let state = draft.titleState
        let room = area.width - (state?.text.displayWidth ?? 0)
        frame.putTitleBar(asset.map { FormTitle.text(lead: title, asset: $0, width: room) } ?? title, state: state,
                          in: area)
    }

    /// The footer row: why a save failed (over the preview too), the message, else what `keys` draws.
    func drawFooter(into frame: inout Frame, area: Rect, keys: (inout Frame) -> Void) {
        if FormFooter.drawSaveFailure(saveError, in: area, into: &frame) {
            // Why the save failed, in full, over the preview and the footer.
        } else if let message = footerMessage {
            // A message longer than the footer takes the preview's row too: it matters more at that moment.
            frame.putMessage(message.text, bottom: area.height - 1, maxRows: 2, in: area, style: message.style)
        } else {
            keys(&frame)
        }
        drawFieldJump(into: &frame, area: area)
    }

    // MARK: Attachments and layout

    var attachments: [Attachment] {
        get { values[keyPath: Self.attachmentsPath] }
        set { values[keyPath: Self.attachmentsPath] = newValue }
    }

    var attachmentsFocused: Bool { kind(of: focus) == .attachments }

    /// The draft written now (after an attachment arrived), with its journal line where the form keeps one.
    mutating func writeDraftNow() -> [Effect] {
        _ = draft.writes.flush()
        guard journals else { return [.writeDraft(draftSnapshot)] }
        return [.journalDraft(draftID: draftID, draftSnapshot), .writeDraft(draftSnapshot)]
    }

    /// Rows of the body: the screen less the title, the preview, the footer and a failed save's reason.
    func bodyRows(width: Int, height: Int) -> Int {
        FormState.bodyHeight(screenHeight: height) - FormFooter.bodyRowsTaken(saveError, width: width)
    }

    /// Scrolls as little as possible to keep the focused field in view from `line`, its first line in `lines`,
    /// through the rows and messages that follow it.
    mutating func scroll<Line: FormBodyLine>(toFocusAt line: Int, in lines: [Line], body: Int)
        where Line.Field == Field {
        var last = line
        while last + 1 < lines.count, lines[last + 1].field == focus { last += 1 }
        scroll = FormLayout.scroll(scroll, keeping: line, through: last,
                                   headingAbove: line > 0 && lines[line - 1].isHeading, lines: lines.count,
                                   body: body)
    }

    // MARK: Modes

    /// The leave question while it is on screen; setting nil goes back to editing.
    var leaveQuestion: Question<LeaveChoice>? {
        get {
            if case .leaving(let question) = mode { question } else { nil }
        }
        set { mode = newValue.map(FormMode.leaving) ?? .editing }
    }

    /// "Authenticate and save?" while it is on screen; setting nil goes back to editing.
    var authenticationQuestion: Question<AuthenticateChoice>? {
        get {
            if case .authenticating(let question) = mode { question } else { nil }
        }
        set { mode = newValue.map(FormMode.authenticating) ?? .editing }
    }

    /// The "Attach a file" prompt while it is open; setting nil closes it.
    var openAttachPrompt: AttachPrompt? {
        get {
            if case .attaching(let prompt) = mode { prompt } else { nil }
        }
        set {
            if let prompt = newValue { mode = .attaching(prompt) } else if case .attaching = mode { mode = .editing }
        }
    }

    /// A validated record went to the register and its answer is awaited.
    var saving: Bool { if case .saving = mode { true } else { false } }

    /// Back to editing after the register refused the record.
    mutating func stopSaving() { mode = .editing }

    /// A key while one of the engine's questions or prompts is open (or a save is awaited); nil while editing or
    /// in the form kind's own mode.
    mutating func handleModeKey(_ key: Key, now: Double) -> Outcome? {
        switch mode {
        case .leaving: answerLeaveQuestion(key)
        case .authenticating: takeAuthentication(key, now: now) ? validateAndSave() : .stay
        case .saving: .stay
        case .attaching: handlePrompt(key)
        case .editing, .own: nil
        }
    }

    /// The engine's question or prompt over the form, when one is open (the text cursor hidden under it).
    func drawModeOverlay(into frame: inout Frame, area: Rect) {
        switch mode {
        case .leaving(let question):
            frame.cursor = nil
            question.draw(into: &frame, area: area)
        case .authenticating(let question):
            frame.cursor = nil
            question.draw(into: &frame, area: area)
        case .attaching(let prompt):
            frame.cursor = nil
            prompt.draw(into: &frame, area: area)
        case .editing, .saving, .own:
            break
        }
    }

    // MARK: The draft

    /// The draft's effects (`DraftTracker`) for this form's draft and values.
    var draftEffect: Effect? { draft.effect(draftID: draftID, unsaved: hasUnsavedInput) { draftSnapshot } }
    mutating func flushDraftEffect() -> Effect? {
        let snapshot = draftSnapshot
        return draft.flushEffect(draftID: draftID, unsaved: hasUnsavedInput) { snapshot }
    }

    var deleteOwnDraft: [Effect] { draft.deleteOwn(draftID: draftID) }

    /// Whatever closes the form: give the lock back and let the list re-read the asset.
    var closingEffects: [Effect] { [.releaseDraft(draftID: draftID), .refreshAsset(assetUUID: row.asset.uuid)] }

    /// A key to the form (`Screen.handle`): the clock and input batch noted, the kind's `handleKey`, the focus kept
    /// in view, and the keystroke journal's line first when the key changed the values.
    mutating func handleDrafted(_ key: Key, context: ScreenContext) -> Outcome {
        clock = context.now
        if case .editing = mode, handleFieldJump(key) {
            // The field jumped to may be below the part of the form on screen.
            keepFocusVisible(width: context.area.width, height: context.area.height)
            return .stay
        }
        let edits = editCount
        let outcome = handlingKey(context: context) { $0.handleKey(key, now: context.now, width: context.area.width) }
        return journalled(outcome, editsBefore: edits)
    }

    /// `outcome` of a key, with the keystroke journal's line first when the key changed the values.
    func journalled(_ outcome: Outcome, editsBefore: Int) -> Outcome {
        // Every edit goes to the keystroke journal at once, before anything the key also asked for (a close).
        guard editCount != editsBefore, journals else { return outcome }
        return .effects([.journalDraft(draftID: draftID, hasUnsavedInput ? draftSnapshot : nil)]) + outcome
    }

    // MARK: Leaving

    /// Esc: the leave question when something was typed, else the form closes and no draft remains.
    mutating func close() -> Outcome {
        if hasUnsavedInput {
            leaveQuestion = Self.leaveWording.opened(in: inputBatch, draft: draft)
            // Written now rather than after the debounce: the question must know whether the draft is on disk
            // before it is answered (a failed write takes "close and keep draft" off it).
            return .effects(flushDraftEffect().map { [$0] } ?? [])
        }
        draft.cancel()
        // Nothing typed (or typed and undone): no draft may remain.
        return .pop + .effects(deleteOwnDraft + closingEffects)
    }

    /// A key for the leave question on screen: its answer carried out, or the question kept.
    mutating func answerLeaveQuestion(_ key: Key) -> Outcome {
        guard var question = leaveQuestion else { return .stay }
        guard let answer = question.handle(key, batch: inputBatch) else {
            leaveQuestion = question
            return .stay
        }
        leaveQuestion = nil
        let tag = row.asset.tag
        switch answer {
        case .keepEditing:
            return .stay
        case .discard:
            draft.cancel()
            return .pop + .notify(.info("Discarded the \(Self.recordNoun) of \(tag)."))
                + .effects(deleteOwnDraft + closingEffects)
        case .keepDraft:
            let write = flushDraftEffect() ?? .writeDraft(draftSnapshot)
            return .pop + .notify(.info("Kept the draft for \(tag); open the asset again or press D to recover it."))
                + .effects([write] + closingEffects)
        }
    }

    // MARK: Keys

    /// A key no text field took: the form's keymap, then the focused field's (a choice's or check box's, the
    /// attachments line's).
    mutating func handleFieldKey(_ key: Key, now: Double) -> Outcome {
        if case .paste = key {
            note("Nothing pasted: “\(label(of: focus))” is not a text field.")
            return .stay
        }
        let focusKind = kind(of: focus)
        let fieldKeys = focusKind == .attachments ? FormState.attachmentKeymap : Self.choiceKeymap
        guard let action = Self.keymap.action(for: key) ?? (isTyping ? nil : fieldKeys.action(for: key)) else {
            return .stay
        }
        switch action {
        case .next: moveFocus(by: 1)
        case .previous: moveFocus(by: -1)
        case .help: return .help(title: Self.keymap.title, Self.helpLines)
        case .close: return close()
        case .save, .saveAndNext: return attemptSave(andNext: action == .saveAndNext)
        case .typeAhead:
            guard focusKind == .choice || focusKind == .toggle else { break }
            if jumpToOption(focus, key: key) {
                changed(now: now)
            } else {
                note(letterRefusal(focus, key: key))
            }
        case .toggle:
            if refusesTickInBurst() { return .stay }
            if flag(focus) != nil {
                fieldMessages[focus] = nil
                toggleFlag(focus)
                changed(now: now)
                // A check is read, ticked and left: the next one follows. The authentication stays put.
                if Self.ticksMoveOn, focusKind == .check, focus != Self.authentication.field { moveFocus(by: 1) }
            } else if focusKind == .choice {
                cycleOption(focus, by: 1)
                changed(now: now)
            }
        case .cycleForward, .cycleBack:
            if focusKind == .choice {
                cycleOption(focus, by: action == .cycleForward ? 1 : -1)
                changed(now: now)
            }
        case .attach: openAttachPrompt = AttachPrompt()
        case .removeAttachment: removeSelectedAttachment(now: now)
        case .previousAttachment, .nextAttachment: moveAttachmentSelection(by: action == .nextAttachment ? 1 : -1)
        case .cleanPass, .pickExaminer, .openChoices, .history, .setUp: return handleOwn(action, now: now)
        case .goToField: fieldJump = FieldJump()
        }
        return .stay
    }

    // MARK: Authentication

    /// When the authentication is the only rule unmet, asks "Authenticate and save?" on the spot; whether it did.
    mutating func askAuthenticationIfOnlyItIsUnmet() -> Bool {
        let unmet = unmetFields
        guard !values[keyPath: Self.authentication.tick], !unmet.isEmpty,
              unmet.allSatisfy({ $0 == Self.authentication.field }) else {
            return false
        }
        authenticationQuestion = authenticationPrompt.opened(in: inputBatch)
        return true
    }

    /// A key for "Authenticate and save?": true once `y` has ticked the authentication (the caller saves now).
    mutating func takeAuthentication(_ key: Key, now: Double) -> Bool {
        guard var question = authenticationQuestion else { return false }
        guard let answer = question.handle(key, batch: inputBatch) else {
            authenticationQuestion = question
            return false
        }
        authenticationQuestion = nil
        guard answer == .save else {
            focusField(Self.authentication.field)
            return false
        }
        // The question was on screen before this key (the question refuses one from the same burst).
        fieldMessages[Self.authentication.field] = nil
        values[keyPath: Self.authentication.tick] = true
        changed(now: now)
        return true
    }

    /// Space on the authentication in the same burst of keys that brought the focus there: not ticked, and the
    /// field says why (typed ahead, or pasted by a terminal without bracketed paste: a person has not seen it yet).
    /// True when refused.
    mutating func refusesTickInBurst() -> Bool {
        let authentication = Self.authentication
        guard focus == authentication.field, !values[keyPath: authentication.tick],
              !authenticationShown.isSeen(by: inputBatch) else { return false }
        fieldMessages[authentication.field] = "Not ticked: that Space came in the same burst of keys that "
            + "reached the \(authentication.noun). Read it, then press Space again."
        return true
    }

    // MARK: Saving

    /// Ctrl-S or Ctrl-N in the same burst as the change it would save: refused with a note (nobody has seen what
    /// would be saved). True when refused.
    mutating func refusesSaveInBurst(andNext: Bool) -> Bool {
        guard !lastChange.isSeen(by: inputBatch) else { return false }
        // Typed ahead or pasted without bracketed paste.
        note("Not saved: \(andNext ? "Ctrl-N" : "Ctrl-S") arrived together with other keys. "
             + "Check, then press it again.")
        return true
    }

    /// The gate refused the values: its rules shown in red from now on, and how many in the footer.
    mutating func refuseSave(unmet count: Int) {
        attemptedSave = true
        message = .note("Not saved: \(count) rule\(count == 1 ? " is" : "s are") unmet (marked ⚠). "
                        + "Fix \(count == 1 ? "it" : "them") and press Ctrl-S again.")
    }

    /// The record is on its way to the register: nothing more to write (a write still waiting must not bring the
    /// draft back after the save removes it).
    mutating func sendToRegister() {
        message = nil
        draft.cancel()
    }

    /// The runtime's answers every drafted form takes alike: a save refused by the register, the draft file's
    /// writes, a flush, an attachment. Nil: not this form's.
    mutating func receiveShared(_ event: Event, context: ScreenContext) -> Outcome? {
        switch event {
        case .saveFailed(let reason) where saving:
            stopSaving()
            message = .saveFailed(reason)
            // The reason may take rows of the body: the focus stays in view.
            keepFocusVisible(width: context.area.width, height: context.area.height)
            // Nothing was saved: the draft must catch up with what is on screen.
            draft.writes.poke(now: context.now)
            return .stay
        case _ where draft.receive(event, draftID: draftID, now: context.now):
            if let question = leaveQuestion {
                leaveQuestion = Self.leaveWording.following(question, draft: draft)
            }
            return .stay
        case .flush:
            return .effects(flushDraftEffect().map { [$0] } ?? [])
        default:
            return receiveAttachment(event, now: context.now)
        }
    }

    /// The draft's debounce and its retry after a failed write.
    mutating func draftEffectsDue(now: Double) -> [Effect] {
        guard draft.fireIfDue(now: now), let effect = draftEffect else { return [] }
        return [effect]
    }

    /// While editing, a key that may begin a scanned label is held back (`FormScanCatcher`); what it releases is
    /// handled key by key with `handle`. Nil: the key was not held, handle it as usual.
    mutating func replayingScan(_ key: Key, _ handle: (inout Self, Key) -> Outcome) -> Outcome? {
        guard let keys = catchingScan(key) else { return nil }
        var outcome = Outcome.stay
        for (index, held) in keys.enumerated() {
            scanCatcher.replaying = index == 0
            outcome = outcome + handle(&self, held)
        }
        scanCatcher.replaying = false
        return outcome
    }
}
