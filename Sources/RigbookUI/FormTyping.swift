import RigbookCore

/// A form whose focused text field takes keys before its keymap (the inspection form and the test form): what
/// typing into that field needs of the form. One piece of code for both kinds.
protocol TextFieldHosting {
    var editor: EditableText? { get set }
    /// Holds back what may be a label scanned into the form (`FormScanCatcher`).
    var scanCatcher: FormScanCatcher { get set }
    /// The focused field's name in messages, how many characters it holds, whether it takes line breaks.
    var typingLabel: String { get }
    var typingLimit: Int { get }
    var typingMultiline: Bool { get }
    /// `deferringChecks`: the key typed one character at the end, shown by its echo; the rules judged after it.
    mutating func setTypedText(_ text: String, now: Double, deferringChecks: Bool)
    /// Judges what a typed character left for after its echo (the form's rules); before anything reads them.
    mutating func settleChecks()
    mutating func note(_ text: String)
    mutating func moveFocus(by step: Int)
    /// The frames shown when the key being handled came in (`ScreenContext.batch`); before a key, the last one's.
    var inputBatch: Int { get set }
    /// Set when the key typed one character at the end of the field's text (`TypedEcho`).
    var typedEcho: TypedEcho? { get set }
    /// Whether a typed character left the layout for after its echo.
    var layoutPending: Bool { get set }
    mutating func keepFocusVisible(width: Int, height: Int)
}

/// A typed character's echo (`TypedEcho`), for both forms: around each key, and the layout it leaves for after.
extension TextFieldHosting {
    /// Before a key: the layout the last one left is done, the key's batch noted, and no echo yet. True for the
    /// first key since the last frame (the form opened or a key came in an earlier batch), the only one an echo may
    /// follow.
    mutating func startKeyForEcho(context: ScreenContext) -> Bool {
        settleLayout(context: context)
        let first = inputBatch != context.batch
        inputBatch = context.batch
        typedEcho = nil
        return first
    }

    /// After a key: an echo kept only for the first key since the last frame; the form laid out now, or after the
    /// echo is written (`settleLayout`).
    mutating func endKeyForEcho(first: Bool, context: ScreenContext) {
        if !first { typedEcho = nil }
        if typedEcho != nil {
            layoutPending = true
        } else {
            keepFocusVisible(width: context.area.width, height: context.area.height)
        }
    }

    /// Judges the rules and lays the form out, scrolled to its focus, if a typed character left that for after its
    /// echo.
    mutating func settleLayout(context: ScreenContext) {
        settleChecks()
        guard layoutPending else { return }
        layoutPending = false
        keepFocusVisible(width: context.area.width, height: context.area.height)
    }
}

extension TextFieldHosting {
    /// Gives `key` to the focused text field. A character `allowed` refuses is not taken and `refusal` says why
    /// (nil `allowed`: any text). Nil when the field did not use the key: it falls through to the keymap.
    mutating func typeIntoField(_ key: Key, allowed: ((Character) -> Bool)?, refusal: (Character) -> String,
                                width: Int, now: Double) -> Outcome? {
        guard var editor else { return nil }
        var accepted = key
        if let allowed, case .char(let c) = key, !allowed(c) {
            note(refusal(c))
            accepted = .function(99)
        }
        let before = editor.characters.count
        // The one owner of the text while the key changes it: a character is appended in place, where a copy still
        // held by the form made `apply` copy every character and the whole string first.
        self.editor = nil
        let outcome = editor.apply(accepted, multiline: typingMultiline, maxLength: typingLimit,
                                   width: FormLayout.textWidth(screenWidth: width), allowed: allowed)
        self.editor = editor
        switch outcome {
        case .changed:
            var echo: TypedEcho?
            if case .char(let c) = accepted, editor.characters.count == before + 1, editor.cursor == before + 1,
               editor.characters.last == c {
                echo = TypedEcho(c, batch: inputBatch)
            }
            // The character's echo waits for nothing else: the rules it may break are judged after it is shown.
            setTypedText(editor.text, now: now, deferringChecks: echo != nil)
            typedEcho = echo
        case .pasted(let paste):
            setTypedText(editor.text, now: now, deferringChecks: false)
            note(paste.report(field: typingLabel, limit: typingLimit))
        case .moved:
            break
        case .full:
            note("\(typingLabel) holds at most \(typingLimit) characters; the rest was not taken.")
        case .leaveUp:
            moveFocus(by: -1)
        case .leaveDown:
            moveFocus(by: 1)
        case .ignored:
            return nil
        }
        return .stay
    }
}

extension FormState: TextFieldHosting {
    var typingLabel: String { focus.shortLabel }
    var typingLimit: Int { focus.inputLimit }
    var typingMultiline: Bool { focus.kind == .multiline }
    mutating func setTypedText(_ text: String, now: Double, deferringChecks: Bool) {
        setText(focus, text, now: now, deferringChecks: deferringChecks)
    }
}

extension TestFormState: TextFieldHosting {
    var typingLabel: String { focus.label }
    var typingLimit: Int { focus.inputLimit }
    var typingMultiline: Bool { focus.kind == .multiline }
    mutating func setTypedText(_ text: String, now: Double, deferringChecks: Bool) { setText(focus, text, now: now) }
    /// The test form judges its values as they are set (`evaluation`): nothing waits.
    mutating func settleChecks() {}
}
