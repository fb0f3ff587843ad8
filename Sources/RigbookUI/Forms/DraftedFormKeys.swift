/// What the keys of a drafted form do.
public enum FormAction: Sendable {
    case next, previous, save, close, help, toggle, cycleForward, cycleBack, openChoices, pickExaminer
    case saveAndNext, cleanPass, typeAhead, history
    case attach, removeAttachment, previousAttachment, nextAttachment, goToField, setUp
}

/// The keymaps every drafted form declares: the same keys in the same places, in each form's words. A form kind
/// names what it saves, its clean pass (F2), its own keys, and what Space, a letter and Enter do on its choices.
enum DraftedFormKeys {
    /// Keys that work in every field, text fields included. `record`: what Ctrl-S writes ("the record");
    /// `authentication`: the tick that "Authenticate and save?" asks for; `own`: the form's keys before F1.
    static func fields(title: String, record: String, authentication: String, cleanPass: KeyBinding<FormAction>,
                       own: [KeyBinding<FormAction>] = []) -> Keymap<FormAction> {
        Keymap(title: title, whileTyping: true, [
            KeyBinding([.tab], label: "Tab", help: "Next field (also ↓ outside multi-line fields)", footer: "next",
                       brief: "next field", rank: .constant, action: .next),
            KeyBinding([.backTab], label: "Shift-Tab", help: "Previous field (also ↑ outside multi-line fields)",
                       brief: "previous field", rank: .often, action: .previous),
            KeyBinding([.ctrl("s")], help: "Save: checks every rule, then writes \(record) to the register "
                       + "(with only the \(authentication) unmet, asks \"Authenticate and save? y/n\")",
                       footer: "save", rank: .constant, action: .save),
            KeyBinding([.ctrl("n")],
                       help: "Save and next: saves as Ctrl-S does, then opens the next asset of the list",
                       brief: "save and open the next asset", rank: .often, action: .saveAndNext),
            KeyBinding([.escape, .ctrl("c")], label: "Esc Ctrl-C",
                       help: "Close the form (asks first if you typed anything)", footer: "close", rank: .often,
                       action: .close),
            cleanPass,
            .attachFile,
            FieldJump.binding,
        ] + own + [
            KeyBinding([.function(1)], label: "F1", help: "This help", footer: "help", rank: .sometimes, action: .help),
        ])
    }

    /// Keys of the fields that are not text: choices and check boxes.
    static func choices(title: String, space: String, typeAhead: String,
                        enter: KeyBinding<FormAction>) -> Keymap<FormAction> {
        Keymap(title: title, [
            KeyBinding([.char(" ")], label: "Space", help: space, footer: "tick", rank: .constant, action: .toggle),
            KeyBinding(TypeAhead.keys, label: TypeAhead.label, help: typeAhead,
                       brief: "jump to an option by its first letter", rank: .often, action: .typeAhead),
            KeyBinding([.right], label: "→", help: "Choice: next option (with nothing chosen, the first)",
                       brief: "next option", rank: .often, action: .cycleForward),
            KeyBinding([.left], label: "←", help: "Choice: previous option", brief: "previous option",
                       rank: .sometimes, action: .cycleBack),
            enter,
            KeyBinding([.down], label: "↓", help: "Next field", rank: .constant, action: .next),
            KeyBinding([.up], label: "↑", help: "Previous field", rank: .often, action: .previous),
        ])
    }

    /// The footer: the form's keys, with Space where it ticks, F1 last.
    static func footer(_ fields: Keymap<FormAction>, _ choices: Keymap<FormAction>) -> Keymap<FormAction> {
        Keymap(title: fields.title, Array(fields.bindings.dropLast()) + choices.bindings + [fields.bindings.last!])
    }

    /// The help page: the form's keys, then each situation's, then what is not a key, then the app's.
    static func helpLines(_ fields: Keymap<FormAction>, choices: Keymap<FormAction>, choicesHeading: String,
                          notes: [(keys: String, help: String)]) -> [(keys: String, help: String)] {
        fields.helpLines() + choices.helpSection(choicesHeading)
            + FormState.attachmentKeymap.helpSection("On the attachments line:")
            + AttachPrompt.keymap.helpSection("In the Attach a file prompt:")
            + EditableText.keymap.helpSection("In a text field:") + notes + App.keymap.helpSection("Everywhere:")
    }
}
