import RigbookCore

/// The inspection form's attachments (issue 15 §4): Ctrl-O hosts the "Attach a file" prompt; the file comes
/// back copied under its SHA-256 and joins the values, and the draft is written at once, so it names the file
/// before anything could sweep it. Delete removes one from the values only: its file stays until the draft is
/// discarded (or, unnamed, an hour's cleanup at start), so attaching it again is all an undo needs.
extension FormState {
    /// Keys of the attachments line.
    static let attachmentKeymap = Keymap<FormAction>(title: "Inspection form: attachments", [
        KeyBinding([.delete, .char("x")], label: "Delete x",
                   help: "Remove the selected file from this inspection (no question: Ctrl-O attaches it again)",
                   footer: "remove", action: .removeAttachment),
        KeyBinding([.up], label: "↑", help: "Previous file (from the first: the previous field)",
                   brief: "previous file", action: .previousAttachment),
        KeyBinding([.down], label: "↓", help: "Next file (from the last: the next field)", brief: "next file",
                   action: .nextAttachment),
        KeyBinding([.enter], help: "Next field", brief: "next field", action: .next),
    ])

    static let attachmentHint = "Delete or x removes the selected file; Ctrl-O attaches another."

    /// The prompt as it is, while it is open.
    public var attachPrompt: AttachPrompt? {
        if case .attaching(let prompt) = mode { return prompt }
        return nil
    }

    /// A key for the open prompt: its outcome made the form's effects, for the draft this form writes.
    mutating func handlePrompt(_ prompt: inout AttachPrompt, _ key: Key) -> Outcome {
        let outcome = prompt.handle(key)
        mode = .attaching(prompt)
        switch outcome {
        case nil: return .stay
        case .cancel?:
            mode = .editing
            return .stay
        case .list(let text)?: return .effects([.listPath(text, owner: draftID)])
        case .attach(let path)?: return .effects([.attachFile(path: path, owner: draftID)])
        }
    }

    /// The file is in the attachments folder: it joins the values and the draft is written now.
    mutating func attached(_ attachment: Attachment, now: Double) -> Outcome {
        if case .attaching = mode { mode = .editing }
        if values.attachments.contains(where: { $0.sha256 == attachment.sha256 }) {
            note("\(attachment.name) is attached already (the same content).")
            return .stay
        }
        values.attachments.append(attachment)
        attachmentSelection = values.attachments.count - 1
        changed(now: now)
        note("Attached \(attachment.name) (\(attachment.sizeText)).")
        // Not after the debounce: until the draft names the file, a start-up cleanup elsewhere could take it.
        _ = draft.writes.flush()
        guard batchMembers.isEmpty else { return .effects([.writeDraft(draftSnapshot)]) }
        return .effects([.journalDraft(draftID: draftID, draftSnapshot), .writeDraft(draftSnapshot)])
    }

    mutating func removeSelectedAttachment(now: Double) {
        guard focus == .attachments, values.attachments.indices.contains(attachmentSelection) else { return }
        let removed = values.attachments.remove(at: attachmentSelection)
        attachmentSelection = min(attachmentSelection, max(0, values.attachments.count - 1))
        changed(now: now)
        if values.attachments.isEmpty { focusField(.confirmed) }
        note("Removed \(removed.name); Ctrl-O attaches it again.")
    }

    mutating func moveAttachmentSelection(by step: Int) {
        let next = attachmentSelection + step
        if next < 0 {
            moveFocus(by: -1)
        } else if next >= values.attachments.count {
            moveFocus(by: 1)
        } else {
            attachmentSelection = next
        }
    }
}
