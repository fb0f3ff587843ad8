import RigbookCore

extension TestFormState {
    static let keymap = DraftedFormKeys.fields(
        title: "Test form", record: "the test", authentication: "authentication",
        cleanPass: KeyBinding([.function(2)], help: "Observations pass: visual inspection Pass (and polarity, the "
                              + "RCD's push-button where the class has them); the readings are still typed",
                              footer: "visual pass", rank: .often, action: .cleanPass))

    static let choiceKeymap = DraftedFormKeys.choices(
        title: "Test form: choices and check boxes", space: "Tick or untick a check box; next option of a choice",
        typeAhead: "Choice: the next option starting with that letter (p Pass, f Fail, a Automatic)",
        enter: KeyBinding([.enter], help: "Next field", brief: "next field", rank: .often, action: .next))

    static let footerKeymap = DraftedFormKeys.footer(keymap, choiceKeymap)

    static let notes: [(keys: String, help: String)] = [
        ("YYYY-MM-DD", "Dates: the test date and the instrument's calibration date"),
        ("today -1y", "Dates typed the quick way: today, or days, weeks, months, years from today (+14, -2w, -6m, "
         + "-1y); written out when you leave the field"),
        ("0-9 .", "Readings: a number with “.” as its decimal point (a comma or space is refused, not guessed "
         + "at); the verdict against its limit shows beside it as you type"),
        ("Paste", "Goes into the focused text field as text, in one step: never keys, ticks or a save"),
    ]

    static var helpLines: [(keys: String, help: String)] {
        DraftedFormKeys.helpLines(keymap, choices: choiceKeymap, choicesHeading: "On a choice or check box:",
                                  notes: notes)
    }

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome { handleDrafted(key, context: context) }

    mutating func handleKey(_ key: Key, now: Double, width: Int) -> Outcome {
        if case .note? = message { message = nil }
        if let outcome = handleModeKey(key, now: now) { return outcome }
        // A label scanned into the form never becomes a value (FormScanCatcher).
        if let outcome = replayingScan(key, { $0.handleKey($1, now: now, width: width) }) { return outcome }

        let field = focus
        if isTyping, let outcome = typeIntoField(
            key, allowed: field.isReading || field.kind == .date ? { TestFormState.allows($0, in: field) } : nil,
            refusal: { field.isReading ? "“\($0)” is not part of a reading: type a number such as 0.42."
                : "“\($0)” is not part of a date: write \(RelativeDate.short)." },
            width: width, now: now) {
            return outcome
        }

        return handleFieldKey(key, now: now)
    }

    static let ticksMoveOn = false
    func kind(of field: TestField) -> FieldKind { field.kind }
    func inputLimit(_ field: TestField) -> Int { field.inputLimit }
    /// A check box by the sentence it shows (the technician by name), any other field by its label.
    func label(of field: TestField) -> String { field.kind == .check ? field.checkLabel(values) : field.label }
    func optionLabels(_ field: TestField) -> [String] { TestChoices.labels(field) }
    func optionIndex(_ field: TestField) -> Int? { TestChoices.index(field, in: values) }
    mutating func chooseOption(_ field: TestField, _ index: Int) { TestChoices.set(field, index, in: &values) }
    func flag(_ field: TestField) -> Bool? { field.flagPath.map { values[keyPath: $0] } }
    mutating func toggleFlag(_ field: TestField) { if let path = field.flagPath { values[keyPath: path].toggle() } }
    /// An old calibration, and the particulars AS/NZS 3760 records (who may test, the instrument) left empty.
    func warnings(for field: TestField) -> [String] {
        (evaluation.warnings + TestGate.unrecorded(values)).filter { $0.field == field }.map(\.message)
    }

    mutating func handleOwn(_ action: FormAction, now: Double) -> Outcome {
        guard action == .cleanPass else { return .stay }
        values.visual = .pass
        if equipmentClass.needsPolarity { values.polarity = .pass }
        if equipmentClass.isRCD { values.rcdPushButton = .pass }
        changed(now: now)
        focusField(firstFieldNeedingInput)
        let readingsMissing = evaluation.verdicts.contains { $0.outcome == .missing }
        note("Visual inspection set to Pass" + (equipmentClass.needsPolarity ? ", polarity too" : "")
             + (equipmentClass.isRCD ? ", the push-button test too" : "")
             + (readingsMissing ? "; type the readings." : "."))
        return .stay
    }

    /// Ctrl-S (Ctrl-N: `andNext`): the test gate decides. Unmet rules are listed and focus goes to the first field
    /// concerned; when the authentication is the only one, the form asks for it on the spot.
    mutating func attemptSave(andNext: Bool) -> Outcome {
        if refusesSaveInBurst(andNext: andNext) { return .stay }
        saveAndNext = andNext
        if askAuthenticationIfOnlyItIsUnmet() { return .stay }
        return validateAndSave()
    }

    /// The only way to the register: `TestGate.validate`, whose `ValidatedTest` the save effect takes.
    mutating func validateAndSave() -> Outcome {
        expandRelativeDate(focus)
        switch TestGate.validate(values, gateContext) {
        case .success(let test):
            mode = .saving(test)
            sendToRegister()
            return .effects([.saveTest(test, thenNext: saveAndNext)])
        case .failure(let failure):
            refuseSave(unmet: failure.problems.count)
            if let first = failure.fields.first(where: { fields.contains($0) }) { focusField(first) }
            return .stay
        }
    }

    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        switch event {
        case .saved(_, let session, _, _) where session == sessionID:
            guard case .saving(let test) = mode else { return nil }
            return .popAll + .effects(deleteOwnDraft + [.rememberTechnician(test.values)] + closingEffects)
        default:
            return receiveShared(event, context: context)
        }
    }

    public var deadline: Double? { draft.deadline }

    /// The draft's debounce and its retry after a failed write.
    public mutating func advance(context: ScreenContext) -> [Effect] { draftEffectsDue(now: context.now) }

    public mutating func resized(context: ScreenContext) {
        keepFocusVisible(width: context.area.width, height: context.area.height)
    }
}

extension TestFormState {
}
