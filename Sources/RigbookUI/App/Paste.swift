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
        for character in text {
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
