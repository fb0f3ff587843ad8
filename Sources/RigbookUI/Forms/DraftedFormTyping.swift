import RigbookCore

extension DraftedForm {
    /// Handles one key with `handle`: the key's input batch noted before, and the form laid out, scrolled to its
    /// focus, after.
    mutating func handlingKey<T>(context: ScreenContext, _ handle: (inout Self) -> T) -> T {
        inputBatch = context.batch
        let outcome = handle(&self)
        keepFocusVisible(width: context.area.width, height: context.area.height)
        return outcome
    }
}

extension DraftedForm {
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
        // The one owner of the text while the key changes it: a character is appended in place, where a copy still
        // held by the form made `apply` copy every character and the whole string first.
        self.editor = nil
        let outcome = editor.apply(accepted, multiline: typingMultiline, maxLength: typingLimit,
                                   width: FormLayout.textWidth(screenWidth: width), allowed: allowed)
        self.editor = editor
        switch outcome {
        case .changed:
            setTypedText(editor.text, now: now)
        case .pasted(let paste):
            setTypedText(editor.text, now: now)
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
