import RigbookCore

/// What the form asks of the app after a key.
enum FormOutcome: Sendable {
    case stay
    case close
    case discard
    case keepDraft
    case save(ValidatedInspection)
    case help
}

public enum FormAction: Sendable {
    case next, previous, save, close, help, toggle, cycleForward, cycleBack, openChoices
}

extension FormState {
    static let keymap = Keymap<FormAction>(title: "Inspection form", [
        KeyBinding([.tab], label: "Tab", help: "Next field (also ↓ outside multi-line fields)", footer: "next", action: .next),
        KeyBinding([.backTab], label: "Shift-Tab", help: "Previous field (also ↑ outside multi-line fields)", action: .previous),
        KeyBinding([.ctrl("s")], help: "Save: checks every rule, then writes the record to the register", footer: "save", action: .save),
        KeyBinding([.escape, .ctrl("c")], label: "Esc Ctrl-C", help: "Close the form (asks first if you typed anything)", footer: "close", action: .close),
        KeyBinding([.char(" ")], label: "Space", help: "Tick or untick a check box or toggle; next option of a choice", footer: "tick", action: .toggle),
        KeyBinding([.right], label: "→", help: "Choice: next option (with nothing chosen, the first)", action: .cycleForward),
        KeyBinding([.left], label: "←", help: "Choice: previous option", action: .cycleBack),
        KeyBinding([.enter], help: "Choice: list the options · multi-line text: new line · elsewhere: next field", action: .openChoices),
        KeyBinding([.function(1)], label: "F1", help: "This help", footer: "help", action: .help),
    ])

    /// Editing keys, for the help page (handled by the text widgets, not the keymap).
    static let editingHelp: [(keys: String, help: String)] = [
        ("← → Home End", "Move in text (Ctrl-A / Ctrl-E: start / end of line)"),
        ("Backspace Del", "Delete before / at the cursor"),
        ("Ctrl-K Ctrl-U", "Delete to the end / start of the line"),
        ("Ctrl-W", "Delete the word before the cursor"),
        ("↑ ↓", "Multi-line text: move between lines; past the ends, to the next field"),
        ("YYYY-MM-DD", "Dates: checked as you type; 2026-02-30 is refused, not corrected"),
    ]

    /// Handles one key. `width` is the screen width, for wrapping multi-line text like the view does.
    mutating func handle(_ key: Key, now: Double, width: Int, keepDraftOffered: Bool) -> FormOutcome {
        notice = nil
        if dialog != nil { return handleDialog(key) }
        if popup != nil { handlePopup(key, now: now); return .stay }
        if saving { return .stay }

        // Text widgets get first go at keys; what they do not use falls through to the keymap.
        if var editor, focus.kind != .choice {
            let multiline = focus.kind == .multiline
            if key == .enter && !multiline { moveFocus(by: 1); return .stay }
            var accepted = key
            if focus.kind == .date, case .char(let c) = key, !(c.isNumber && c.isASCII) && c != "-" {
                notice = "Dates are written YYYY-MM-DD."
                accepted = .function(99)
            }
            switch editor.apply(accepted, multiline: multiline, maxLength: focus.inputLimit,
                                width: FormLayout.textWidth(screenWidth: width)) {
            case .changed:
                self.editor = editor
                setText(focus, editor.text, now: now)
                return .stay
            case .moved:
                self.editor = editor
                return .stay
            case .full:
                notice = "\(focus.shortLabel) holds at most \(focus.inputLimit) characters; the rest was not taken."
                return .stay
            case .leaveUp:
                moveFocus(by: -1)
                return .stay
            case .leaveDown:
                moveFocus(by: 1)
                return .stay
            case .ignored:
                break
            }
        } else {
            switch key {
            case .up: moveFocus(by: -1); return .stay
            case .down: moveFocus(by: 1); return .stay
            default: break
            }
        }

        guard let action = FormState.keymap.action(for: key) else { return .stay }
        switch action {
        case .next: moveFocus(by: 1)
        case .previous: moveFocus(by: -1)
        case .help: return .help
        case .close:
            if hasUnsavedInput {
                dialog = LeaveDialog(options: keepDraftOffered ? [.keepEditing, .keepDraft, .discard] : [.keepEditing, .discard])
                return .stay
            }
            return .close
        case .save:
            return attemptSave()
        case .toggle:
            if let path = focus.flagPath {
                values[keyPath: path].toggle()
                changed(now: now)
            } else if focus.kind == .choice {
                Choices.cycle(focus, by: 1, in: &values)
                changed(now: now)
            }
        case .cycleForward, .cycleBack:
            if focus.kind == .choice {
                Choices.cycle(focus, by: action == .cycleForward ? 1 : -1, in: &values)
                changed(now: now)
            }
        case .openChoices:
            if focus.kind == .choice {
                popup = ChoicePopup(field: focus, selection: Choices.index(focus, in: values) ?? 0)
            } else {
                moveFocus(by: 1)
            }
        }
        return .stay
    }

    /// Ctrl-S: the gate decides. Unmet rules are listed and focus goes to the first field concerned.
    mutating func attemptSave() -> FormOutcome {
        if let editor, focus.kind == .date { validateDate(focus, text: editor.text, leaving: true) }
        switch SaveGate.validate(values, context: gateContext) {
        case .success(let record):
            saving = true
            saveError = nil
            // A write still waiting must not bring the draft back after the save removes it.
            draftWrites.cancel()
            return .save(record)
        case .failure(let failure):
            attemptedSave = true
            let count = failure.problems.count
            notice = "Not saved: \(count) rule\(count == 1 ? " is" : "s are") unmet (marked ⚠). Fix \(count == 1 ? "it" : "them") and press Ctrl-S again."
            if let first = failure.problems.first { focusField(first.field) }
            return .stay
        }
    }

    mutating func saveFailed(_ reason: String, now: Double) {
        saving = false
        saveError = reason
        // Nothing was saved: the draft must catch up with what is on screen.
        draftWrites.poke(now: now)
    }

    private mutating func handleDialog(_ key: Key) -> FormOutcome {
        guard var dialog else { return .stay }
        switch key {
        case .escape, .ctrl("c"), .char("k"):
            self.dialog = nil
            return .stay
        case .left, .backTab, .up:
            dialog.selection = (dialog.selection + dialog.options.count - 1) % dialog.options.count
        case .right, .tab, .down:
            dialog.selection = (dialog.selection + 1) % dialog.options.count
        case .char("d"):
            self.dialog = nil
            return .discard
        case .char("c") where dialog.options.contains(.keepDraft):
            self.dialog = nil
            return .keepDraft
        case .enter:
            self.dialog = nil
            switch dialog.options[dialog.selection] {
            case .keepEditing: return .stay
            case .keepDraft: return .keepDraft
            case .discard: return .discard
            }
        default:
            break
        }
        self.dialog = dialog
        return .stay
    }

    private mutating func handlePopup(_ key: Key, now: Double) {
        guard var popup else { return }
        let count = Choices.labels(popup.field).count
        switch key {
        case .escape, .ctrl("c"):
            self.popup = nil
            return
        case .up, .char("k"): popup.selection = (popup.selection + count - 1) % count
        case .down, .char("j"), .tab: popup.selection = (popup.selection + 1) % count
        case .home: popup.selection = 0
        case .end: popup.selection = count - 1
        case .enter, .char(" "):
            let before = values
            Choices.set(popup.field, to: popup.selection, in: &values)
            if values != before { changed(now: now) }
            self.popup = nil
            return
        default:
            break
        }
        self.popup = popup
    }
}
