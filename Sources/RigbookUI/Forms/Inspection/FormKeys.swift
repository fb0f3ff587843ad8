import RigbookCore

extension FormState {
    static let keymap = DraftedFormKeys.fields(
        title: "Inspection form", record: "the record", authentication: "confirmation",
        cleanPass: KeyBinding([.function(2)], help: "Clean pass: ticks all five checks and sets the result to Pass",
                              footer: "clean pass", rank: .often, action: .cleanPass),
        // F4, not Ctrl-O: Ctrl-O attaches a file on both form kinds.
        own: [KeyBinding([.function(4)], label: "F4",
                         help: "Inspector: pick one of the register's examiners (a new name is added when saved)",
                         brief: "pick an examiner", rank: .sometimes, action: .pickExaminer),
              KeyBinding([.function(3)], label: "F3",
                         help: "Set up the register's employer, site and examiner, which a report of thorough "
                            + "examination names; the form waits underneath", brief: "set up the register",
                         rank: .rarely, action: .setUp)])

    static let choiceKeymap = DraftedFormKeys.choices(
        title: "Inspection form: choices and check boxes",
        space: "Tick or untick a check box (a check then moves on) or toggle; next option of a choice",
        typeAhead: "Choice: the next option starting with that letter (again: the one after it)",
        enter: KeyBinding([.enter], help: "Choice: list the options · elsewhere: next field",
                          brief: "list the options", rank: .often, action: .openChoices))

    static let footerKeymap = DraftedFormKeys.footer(keymap, choiceKeymap)

    /// What the help page adds that is not a key.
    static let notes: [(keys: String, help: String)] = [
        ("YYYY-MM-DD", "Dates: checked as you type; 2026-02-30 is refused, not corrected"),
        ("today +14 +6m", "Dates: today, or days (+14), weeks (+2w), months (+6m), years (+1y) from the inspection "
         + "date (the inspection date itself: from today); filled in when you leave the field"),
        ("Paste", "Goes into the focused text field as text, in one step: never keys, ticks or a save"),
    ]

    static var helpLines: [(keys: String, help: String)] {
        DraftedFormKeys.helpLines(keymap, choices: choiceKeymap, choicesHeading: "On a choice, check box or toggle:",
                                  notes: notes)
    }

    var isTyping: Bool { editor != nil && focus.kind != .choice }
    /// What the focused text field takes as typed (nil: any text): a date only what a date is written with.
    var typingAllowed: (@Sendable (Character) -> Bool)? {
        guard focus.kind == .date else { return nil }
        return { @Sendable in RelativeDate.isAllowed($0) }
    }

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome { handleDrafted(key, context: context) }

    mutating func handleKey(_ key: Key, now: Double, width: Int) -> Outcome {
        if case .note? = message { message = nil }
        if let outcome = handleModeKey(key, now: now) { return outcome }
        switch mode {
        case .own(.choosing(var popup)):
            let answer = popup.handle(key)
            mode = answer == nil ? .own(.choosing(popup)) : .editing
            if case .chosen(let value)? = answer {
                let before = values
                Choices.set(value, in: &values)
                // An examiner fills the inspector's name and number: the field being edited shows it.
                if focus.hasText { editor = EditableText(values[text: focus]) }
                if values != before { changed(now: now) }
            }
            return .stay
        case .own(.notifying(var dialog, let record)):
            let answer = dialog.handle(key, batch: inputBatch)
            noticeAnswersChanged(dialog.answers, now: now)
            switch answer {
            case nil:
                mode = .own(.notifying(dialog, record))
                return .stay
            case .back?:
                mode = .editing
                note("Not saved: the record waits for reg 10's answers. Ctrl-S asks them again.")
                return .stay
            case .answered(let notices)?:
                return save(record, notices: notices)
            }
        default:
            // A label scanned into the form never becomes a value (FormScanCatcher).
            if let outcome = replayingScan(key, { $0.handleKey($1, now: now, width: width) }) { return outcome }
        }

        // Text widgets get first go at keys; what they do not use falls through to the keymap.
        if isTyping, let outcome = typeIntoField(
            key, allowed: typingAllowed,
            refusal: { "“\($0)” is not part of a date: write \(RelativeDate.short)." }, width: width, now: now) {
            return outcome
        }

        return handleFieldKey(key, now: now)
    }

    static let ticksMoveOn = true
    func kind(of field: FormField) -> FieldKind { field.kind }
    func inputLimit(_ field: FormField) -> Int { field.inputLimit }
    /// A check box by the sentence it shows (the examiner by name), any other field by its label.
    func label(of field: FormField) -> String { field.kind == .check ? checkLabel(field) : field.shortLabel }
    func optionLabels(_ field: FormField) -> [String] { Choices.options(field, in: values).map(\.label) }

    func optionIndex(_ field: FormField) -> Int? {
        Choices.current(field, in: values).flatMap { Choices.options(field, in: values).firstIndex(of: $0) }
    }

    mutating func chooseOption(_ field: FormField, _ index: Int) {
        Choices.set(Choices.options(field, in: values)[index], in: &values)
    }

    /// The option chosen, else the one the other values make (shown, not yet chosen).
    func choiceText(_ field: FormField) -> String {
        Choices.current(field, in: values)?.label ?? automaticChoice(field) ?? "— choose —"
    }

    func flag(_ field: FormField) -> Bool? { field.isFlag ? values[flag: field] : nil }
    mutating func toggleFlag(_ field: FormField) { values[flag: field].toggle() }

    mutating func handleOwn(_ action: FormAction, now: Double) -> Outcome {
        switch action {
        case .cleanPass:
            for field in FormField.checks { values[flag: field] = true }
            values.result = .pass
            changed(now: now)
            // On to what still needs the inspector: with everything else in place, the confirmation.
            focusField(firstFieldNeedingInput)
            note("All five checks ticked and the result set to Pass.")
        case .pickExaminer:
            let examiners = particulars.examinerList
            guard !examiners.isEmpty else {
                note("No examiners in the register yet: type the name; saving adds it (Settings lists them).")
                return .stay
            }
            if focus != .inspectorName && focus != .certificationNumber { focusField(.inspectorName) }
            mode = .own(.choosing(ChoicePopup(field: .inspectorName, examiners: examiners, in: values)))
        case .setUp:
            return .push(SetUpState(particulars: particulars))
        case .openChoices:
            if focus.kind == .choice {
                mode = .own(.choosing(ChoicePopup(field: focus, in: values)))
            } else {
                moveFocus(by: 1)
            }
        default:
            break
        }
        return .stay
    }

    /// Ctrl-S (Ctrl-N: `andNext`): the gate decides. Unmet rules are listed and focus goes to the first field
    /// concerned; when the confirmation is the only one, the form asks for it on the spot.
    mutating func attemptSave(andNext: Bool) -> Outcome {
        if refusesSaveInBurst(andNext: andNext) { return .stay }
        saveAndNext = andNext
        for field in [FormField.inspectionDate, .remedyDeadline, .nextExaminationBy] { expandRelativeDate(field) }
        if editor != nil, focus.kind == .date {
            validateDate(focus, text: values[text: focus], leaving: true)
        }
        if askAuthenticationIfOnlyItIsUnmet() { return .stay }
        return validateAndSave()
    }

    /// When the confirmation is the only rule unmet, asks "Authenticate and save?" on the spot; whether it did.
    /// The gate's verdict on the values as they are: a defect's reg 10 questions, the save, or the unmet rules.
    mutating func validateAndSave() -> Outcome {
        switch SaveGate.validate(values, context: gateContext) {
        case .success(let record) where DefectNotices.required(for: record.result, type: record.values.inspectionType):
            message = nil
            var dialog = DefectNoticeDialog(employer: gateContext.particulars?.employer.name ?? "the employer",
                                            examinationDate: record.inspectionDate, today: today, batch: inputBatch,
                                            answers: noticeAnswers ?? seed.own.amendedNotices)
            // An amendment that keeps the defect and its danger keeps the notices given for it, when they still
            // hold for this record; otherwise the questions are asked, prefilled.
            if noticeAnswers == nil, let amending, amending.values.reportsSameDefect(as: record.values),
               case .answered(let notices) = dialog.answerAsGiven() {
                return save(record, notices: notices)
            }
            mode = .own(.notifying(dialog, record))
            return .stay
        case .success(let record):
            return save(record, notices: nil)
        case .failure(let failure):
            refuseSave(unmet: failure.problems.count)
            if let first = failure.problems.first { focusField(first.field) }
            return .stay
        }
    }

    /// Sends the record (with a defect's reg 10 notices) to the register.
    private mutating func save(_ record: ValidatedInspection, notices: DefectNotices?) -> Outcome {
        mode = .saving(record)
        sendToRegister()
        return .effects([.save(record, notices, thenNext: saveAndNext)])
    }

    /// Results of the form's effects: the save, and the draft file's writes.
    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        switch event {
        case .particularsRecorded(_, _, _, let fresh):
            // Set up from over the form (F3): its gate judges by the particulars as they are now.
            particulars = fresh
            return nil
        case .saved(_, let session, _, _) where session == sessionID:
            // What follows a commit: the draft goes, the lock is given back, the inspector is
            // remembered (as saved, trimmed) for the next form, and the list re-reads the asset.
            guard case .saving(let record) = mode else { return nil }
            let v = record.values
            let rememberInspector = Effect.rememberInspector(name: v.inspectorName,
                                                             certificationNumber: v.certificationNumber)
            return .popAll + .effects(deleteOwnDraft + [rememberInspector] + closingEffects)
        default:
            return receiveShared(event, context: context)
        }
    }

    public var deadline: Double? {
        var due: [Double] = []
        if case .pending(let at) = preview { due.append(at) }
        if let at = draft.deadline { due.append(at) }
        return due.min()
    }

    /// The preview's quiet period, the draft's debounce and its retry after a failed write.
    public mutating func advance(context: ScreenContext) -> [Effect] {
        _ = advance(to: context.now)
        return draftEffectsDue(now: context.now)
    }

    public mutating func resized(context: ScreenContext) {
        keepFocusVisible(width: context.area.width, height: context.area.height)
    }
}
