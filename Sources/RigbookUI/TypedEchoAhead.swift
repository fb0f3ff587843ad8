import RigbookCore

/// A typed character's echo made ahead of its key (issue 17, key to screen), as ↓'s is (`EchoAhead`). Which character
/// comes next cannot be known, but in the inspection form's text field, with the cursor at the end, what a plain
/// character does can: it goes in as typed, the screen shows it at the cursor, and the keystroke journal gets a line
/// that is the one before it with the character added to the field's text. So while the loop waits the key `a` is
/// handed to `update` on a copy of the state (a probe: whatever would stop it — a full field, a wrap, a question, a
/// scan being caught — shows as no echo), and what it showed and journaled is kept with the character left out.
/// When a key comes that `character(of:)` takes, the terminal stores the journal line with that character, writes
/// the echo with it, and only then hands the key to `update`.
///
/// A key it does not take (a date's refused letter, `/` that may start a scan, a quote that the line would have to
/// escape, anything not plain ASCII) goes the usual way: nothing is written for it ahead.
public struct TypedEchoAhead: Sendable {
    /// The echo of the probe: one run of one cell, the probe character's, at the cursor.
    public let update: ScreenUpdate
    public let cursor: EchoAhead.Cursor?
    /// The screen as shown, before the echo.
    let shown: Frame
    /// The frames shown when it was made: it belongs to the next key of that batch only.
    public let batch: Int
    /// The typed edit the journal's line would hold, less the character: the draft, its field, the text before it,
    /// and the draft (session, revision) the journal's lines extend.
    public let draftID: String
    public let field: FormField
    public let text: String
    public let sessionID: String
    public let revision: Int
    /// What the field refuses to take (a date's letters), as the form judges it.
    let allowed: (@Sendable (Character) -> Bool)?

    /// The character the probe stood for.
    static let probe: UInt8 = 0x61  // a

    /// The byte of a key this echo can be written for, or nil: a plain printable ASCII character the field takes,
    /// other than `/` (a label scan may start with it: the form holds it back) and the two a JSON string escapes.
    public func character(of key: Key) -> UInt8? {
        guard case .char(let c) = key, let byte = c.asciiValue, byte >= 0x20, byte < 0x7F,
              c != "/", c != "\"", c != "\\" else { return nil }
        if let allowed, !allowed(c) { return nil }
        return byte
    }

    /// The echo written for `byte`: the probe's update with its character.
    public func update(typing byte: UInt8) -> ScreenUpdate {
        var update = self.update
        update.runs[0].scalars = [UInt32(byte)]
        return update
    }

    /// Whether `edit` of `draftID` (`DraftSnapshot.typedEdit`) is the one the journal line made ahead for `byte` holds.
    public func isLine(of edit: (field: FormField, text: String, sessionID: String, revision: Int), typing byte: UInt8,
                       draftID: String) -> Bool {
        draftID == self.draftID && edit.field == field && edit.sessionID == sessionID && edit.revision == revision
            && edit.text.utf8.count == text.utf8.count + 1 && edit.text.utf8.last == byte
            && edit.text.utf8.starts(with: text.utf8)
    }

    /// The screen as shown once the echo of `byte` is written.
    public func frame(typing byte: UInt8) -> Frame {
        var frame = shown
        _ = frame.echo(UInt32(byte))
        return frame
    }
}

extension App {
    /// The echo of a character typed next, made ahead onto `shown` (the screen as shown; `batch` frames shown so far)
    /// with the journal line it needs, when the state is the inspection form typing into a text field whose last
    /// journal line is `journaled` (nil: none, or not one a typed edit can follow). Nil wherever the probe
    /// character would not be echoed at the cursor and journaled as one character added to that field.
    public static func typedEchoAhead(_ state: AppState, shown: Frame, now: Double, batch: Int,
                                      journaled: DraftSnapshot?) -> TypedEchoAhead? {
        guard let journaled, state.notice == nil, let form = state.form, form.isTyping, form.focus.hasText,
              shown.width == state.width, shown.height == state.height else { return nil }
        var copy = state
        let probe = Key.char(Character(Unicode.Scalar(TypedEchoAhead.probe)))
        let effects = App.update(&copy, .key(probe), now: now, batch: batch)
        // Only the journal line: a key that also asked for anything else is not a plain character typed.
        guard effects.count == 1, case .journalDraft(let draftID, let snapshot?) = effects[0],
              draftID == form.draftID, let edit = snapshot.typedEdit(since: journaled),
              edit.field == form.focus, edit.text.utf8.last == TypedEchoAhead.probe else { return nil }
        let before = String(edit.text.dropLast())
        // The journal's line and the field hold the same text: the line ahead is the one the key would make.
        guard before == journaled.values[text: edit.field], before == form.values[text: edit.field] else { return nil }
        var frame = shown
        guard let update = App.echo(copy, batch: batch, scrolling: true, onto: &frame), update.scroll == nil,
              update.runs.count == 1, update.runs[0].scalars == [UInt32(TypedEchoAhead.probe)]
        else { return nil }
        return TypedEchoAhead(update: update, cursor: frame.cursor.map { EchoAhead.Cursor(x: $0.x, y: $0.y) },
                              shown: shown, batch: batch, draftID: draftID, field: edit.field, text: before,
                              sessionID: edit.sessionID, revision: edit.revision, allowed: form.typingAllowed)
    }
}
