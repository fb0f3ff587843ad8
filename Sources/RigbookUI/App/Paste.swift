import RigbookCore

/// Pasted text made fit for one field: newlines kept in multi-line text and made spaces elsewhere,
/// other control characters dropped, and cut at the room the field has left. Counted, so the screen
/// can say what was not taken.
public struct Paste: Sendable, Equatable {
    public var characters: [Character] = []
    /// Control characters (tabs, escapes, …) left out.
    public var dropped = 0
    /// Characters the field does not take (a letter in a date or a reading), left out.
    public var refused = 0
    /// Characters that did not fit.
    public var cut = 0

    /// - Parameters:
    ///   - allowed: for fields that take only some characters (dates); the others are dropped.
    public init(_ text: String, multiline: Bool, room: Int, allowed: ((Character) -> Bool)? = nil) {
        var afterLineEnd = false
        // A terminal escape sequence copied with the text (colour from a log, `ESC[31m`) is left out whole: dropping
        // only its ESC would leave "[31m" in the field.
        var escape = EscapeSequence.none
        for character in text {
            if escape.continues(with: character) {
                dropped += 1
                continue
            }
            if character == "\u{1B}" {
                escape = .started
                dropped += 1
                continue
            }
            var kept = character
            let isLineEnd = character == "\n" || character == "\r\n" || character == "\r"
            defer { afterLineEnd = isLineEnd }
            if isLineEnd {
                // In one line, a run of line ends is one space: a terminal (tmux, many emulators) turns each LF of
                // a paste into CR, so a CRLF arrives as CR CR, which would otherwise be two spaces.
                if !multiline && afterLineEnd { continue }
                kept = multiline ? "\n" : " "
            } else if character.isControlCharacter
                        || character.unicodeScalars.contains(where: VisibleText.isHiddenFormat) {
                dropped += 1
                continue
            } else if allowed.map({ !$0(character) }) == true {
                refused += 1
                continue
            }
            if characters.count < room { characters.append(kept) } else { cut += 1 }
        }
    }

    /// What the footer says about it, e.g. "Pasted 9 of 17 characters: 8 control characters left out."
    public func report(field: String, limit: Int) -> String {
        let kept = characters.count, offered = characters.count + dropped + refused + cut
        var text = "Pasted \(kept)" + (offered > kept ? " of \(offered)" : "") + " character\(offered == 1 ? "" : "s")"
        var why: [String] = []
        if dropped > 0 { why.append("\(dropped) control character\(dropped == 1 ? "" : "s") left out") }
        if refused > 0 {
            why.append("\(refused) character\(refused == 1 ? "" : "s") left out that \(field) does not take")
        }
        if cut > 0 { why.append("\(field) holds at most \(limit)") }
        if !why.isEmpty { text += ": " + why.joined(separator: ", ") }
        return text + "."
    }
}

/// Where a paste is in a terminal escape sequence (ECMA-48): after ESC, inside a CSI (`ESC [` … a final byte
/// `@`–`~`) or an OSC (`ESC ]` … BEL or `ESC \`).
enum EscapeSequence {
    case none, started, control, command, commandEnding

    /// Whether `character` is part of the sequence (and so left out), moving on.
    mutating func continues(with character: Character) -> Bool {
        switch self {
        case .none: return false
        case .started:
            // Only a CSI or an OSC is left out with what follows; after a lone ESC, the text goes on.
            self = character == "[" ? .control : character == "]" ? .command : .none
            return self != .none
        case .control:
            // Parameters and intermediates (0x20–0x3F) go on; a final byte (0x40–0x7E) ends it; anything else is
            // not part of it.
            guard character.unicodeScalars.count == 1, let value = character.unicodeScalars.first?.value,
                  (0x20...0x7E).contains(value) else {
                self = .none
                return false
            }
            if value >= 0x40 { self = .none }
            return true
        case .command:
            if character == "\u{07}" { self = .none }
            if character == "\u{1B}" { self = .commandEnding }
            return true
        case .commandEnding:
            // ESC \ (the string terminator) ends it; ESC then anything else is a new sequence.
            self = character == "\\" ? .none : character == "[" ? .control : character == "]" ? .command : .none
            return self != .none || character == "\\"
        }
    }
}
