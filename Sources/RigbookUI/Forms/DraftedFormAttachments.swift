import RigbookCore

/// A drafted form's attachments: Ctrl-O hosts the "Attach a file" prompt; the file comes
/// back copied under its SHA-256 and joins the values, and the draft is written at once, so it names the file
/// before anything could sweep it. Delete removes one from the values only: its file stays until the draft is
/// discarded (or, unnamed, an hour's cleanup at start), so attaching it again is all an undo needs.
extension DraftedForm {
    /// A key for the open prompt: its outcome made the form's effects, for the draft this form writes.
    mutating func handlePrompt(_ key: Key) -> Outcome {
        guard var prompt = openAttachPrompt else { return .stay }
        let outcome = prompt.handle(key)
        openAttachPrompt = prompt
        switch outcome {
        case nil: return .stay
        case .cancel?:
            openAttachPrompt = nil
            return .stay
        case .list(let text)?: return .effects([.listPath(text, owner: draftID)])
        case .attach(let path)?: return .effects([.attachFile(path: path, owner: draftID)])
        }
    }

    /// The prompt's answers from the runtime (a folder listed, a file attached or refused); nil: not this form's.
    mutating func receiveAttachment(_ event: Event, now: Double) -> Outcome? {
        switch event {
        case .pathListed(let listing, let owner) where owner == draftID:
            openAttachPrompt?.listed(listing)
            return .stay
        case .attached(let attachment, let owner) where owner == draftID:
            return attached(attachment, now: now)
        case .attachRefused(let sentence, let owner) where owner == draftID:
            openAttachPrompt?.refused(sentence)
            return .stay
        default:
            return nil
        }
    }

    /// The file is in the attachments folder: it joins the values and the draft is written now.
    mutating func attached(_ attachment: Attachment, now: Double) -> Outcome {
        openAttachPrompt = nil
        if attachments.contains(where: { $0.sha256 == attachment.sha256 }) {
            note("\(attachment.name) is attached already (the same content).")
            return .stay
        }
        attachments.append(attachment)
        attachmentSelection = attachments.count - 1
        changed(now: now)
        note("Attached \(attachment.name) (\(attachment.sizeText)).")
        // Not after the debounce: until the draft names the file, a start-up cleanup elsewhere could take it.
        return .effects(writeDraftNow())
    }

    mutating func removeSelectedAttachment(now: Double) {
        guard attachmentsFocused, attachments.indices.contains(attachmentSelection) else { return }
        let removed = attachments.remove(at: attachmentSelection)
        attachmentSelection = min(attachmentSelection, max(0, attachments.count - 1))
        changed(now: now)
        note("Removed \(removed.name); Ctrl-O attaches it again.")
    }

    mutating func moveAttachmentSelection(by step: Int) {
        let next = attachmentSelection + step
        if next < 0 {
            moveFocus(by: -1)
        } else if next >= attachments.count {
            moveFocus(by: 1)
        } else {
            attachmentSelection = next
        }
    }
}

extension KeyBinding where Action == FormAction {
    /// Ctrl-O, on both form kinds.
    static let attachFile = KeyBinding([.ctrl("o")], label: "Ctrl-O",
                                       help: "Attach a photo or PDF: asks for its path (Tab completes); "
                                           + "copied at once, kept with the draft",
                                       footer: "attach", rank: .sometimes, action: .attach)
}

extension FormState {
}

extension FormState {
    /// Keys of the attachments line.
    static let attachmentKeymap = Keymap<FormAction>(title: "Inspection form: attachments", [
        KeyBinding([.delete, .char("x")], label: "Delete x",
                   help: "Remove the selected file from this inspection (no question: Ctrl-O attaches it again)",
                   footer: "remove", rank: .sometimes, action: .removeAttachment),
        KeyBinding([.up], label: "↑", help: "Previous file (from the first: the previous field)",
                   brief: "previous file", rank: .sometimes, action: .previousAttachment),
        KeyBinding([.down], label: "↓", help: "Next file (from the last: the next field)", brief: "next file",
                   rank: .sometimes, action: .nextAttachment),
        KeyBinding([.enter], help: "Next field", brief: "next field", rank: .sometimes, action: .next),
    ])

    static let attachmentHint = "Delete or x removes the selected file; Ctrl-O attaches another."

    /// The prompt as it is, while it is open.
    public var attachPrompt: AttachPrompt? { openAttachPrompt }
}

extension AttachPrompt {
    /// One row of a form's attachments line: the file's name (reversed when selected) and its size; "none"
    /// dimmed on the only row of an empty line.
    static func drawAttachment(_ attachments: [Attachment], row: Int, selected: Bool, in widget: Rect,
                               into frame: inout Frame) {
        guard row < attachments.count else {
            if attachments.isEmpty, row == 0 {
                frame.put("none (Ctrl-O attaches)", x: 0, y: 0, in: widget, style: .dim)
            }
            return
        }
        let attachment = attachments[row]
        let size = " · " + attachment.sizeText
        // The name as drawn (escaped, cut in the middle): its width places the size, which must not cover it.
        let name = attachment.name.fileNameFitting(width: max(4, widget.width - size.displayWidth))
        frame.put(name, x: 0, y: 0, in: widget, style: selected ? Style(reverse: true) : .plain,
                  maxWidth: max(4, widget.width - size.displayWidth))
        frame.put(size, x: min(name.displayWidth, widget.width - size.displayWidth), y: 0, in: widget,
                  style: .dim)
    }
}
