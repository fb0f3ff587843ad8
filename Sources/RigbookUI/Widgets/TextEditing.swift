import RigbookCore

public enum TextEdit: Sendable {
    case left, right, lineStart, lineEnd, deleteBack, deleteForward, deleteToEnd, deleteToStart, deleteWord
    case lineUp, lineDown, newline
}

/// Text being edited and where the cursor is (a Character offset).
public struct EditableText: Sendable, Equatable {
    /// The text as characters: for the cursor, wrapping and drawing.
    public private(set) var characters: [Character]
    /// The same text as a string, what the field holds: kept beside the characters, so a character typed at the
    /// end is appended to both instead of the string being made again from every character on each key.
    public private(set) var text: String
    public var cursor: Int

    public init(_ text: String, cursor: Int? = nil) {
        characters = Array(text)
        self.text = text
        self.cursor = min(cursor ?? characters.count, characters.count)
    }

    /// After any change of `characters` but a character added at the end: the string made again from them.
    private mutating func textFromCharacters() { text = String(characters) }

    public enum Outcome: Equatable {
        case changed, moved, ignored
        /// The key would make the text longer than the field allows.
        case full
        /// ↑/↓ past the first or last line: the form moves focus.
        case leaveUp, leaveDown
        /// A paste went in as one edit (possibly nothing of it, when the field was full).
        case pasted(Paste)
    }

    /// The editing keys of every text field; printable keys are text and bound to nothing.
    public static let keymap = Keymap<TextEdit>(title: "Editing text", whileTyping: true, [
        KeyBinding([.left], help: "Move left in the text", brief: "left", rank: .often, action: .left),
        KeyBinding([.right], help: "Move right in the text", brief: "right", rank: .often, action: .right),
        KeyBinding([.home, .ctrl("a")], label: "Home Ctrl-A", help: "Start of the line", brief: "line start",
                   rank: .sometimes, action: .lineStart),
        KeyBinding([.end, .ctrl("e")], label: "End Ctrl-E", help: "End of the line", brief: "line end",
                   rank: .sometimes, action: .lineEnd),
        KeyBinding([.backspace, .ctrl("h")], label: "Backspace", help: "Delete before the cursor (Ctrl-H too)",
                   brief: "delete back", rank: .constant, action: .deleteBack),
        KeyBinding([.delete, .ctrl("d")], label: "Delete Ctrl-D", help: "Delete at the cursor", brief: "delete",
                   rank: .often, action: .deleteForward),
        KeyBinding([.ctrl("k")], help: "Delete to the end of the line (at its end: join the next line)",
                   brief: "delete to line end", rank: .sometimes, action: .deleteToEnd),
        KeyBinding([.ctrl("u")], help: "Delete to the start of the line", brief: "delete to line start",
                   rank: .sometimes, action: .deleteToStart),
        KeyBinding([.ctrl("w")], help: "Delete the word before the cursor", brief: "delete word",
                   rank: .sometimes, action: .deleteWord),
        KeyBinding([.up], help: "Multi-line text: the line above (from the first line: the previous field)",
                   brief: "line up (or previous field)", rank: .often, action: .lineUp),
        KeyBinding([.down], help: "Multi-line text: the line below (from the last line: the next field)",
                   brief: "line down (or next field)", rank: .often, action: .lineDown),
        KeyBinding([.enter], help: "Multi-line text: a new line · one-line text: the next field",
                   brief: "new line (one-line text: next field)", rank: .often, action: .newline),
    ])

    /// Applies an editing key. `width` is the columns a multi-line field wraps at.
    public mutating func apply(_ key: Key, multiline: Bool, maxLength: Int, width: Int = 60,
                               allowed: ((Character) -> Bool)? = nil) -> Outcome {
        if case .paste(let text) = key {
            let paste = Paste(text, multiline: multiline, room: max(0, maxLength - characters.count), allowed: allowed)
            characters.insert(contentsOf: paste.characters, at: cursor)
            textFromCharacters()
            cursor += paste.characters.count
            return .pasted(paste)
        }
        if case .char(let c) = key {
            if c == "\n" || c == "\r\n" { return multiline ? insert("\n", maxLength: maxLength) : .ignored }
            if c.unicodeScalars.contains(where: TextRules.isControl) { return .ignored } // pasted controls are dropped
            return insert(c, maxLength: maxLength)
        }
        guard let action = EditableText.keymap.action(for: key) else { return .ignored }
        switch action {
        case .newline:
            return multiline ? insert("\n", maxLength: maxLength) : .leaveDown
        case .left:
            guard cursor > 0 else { return .ignored }
            cursor -= 1
            return .moved
        case .right:
            guard cursor < characters.count else { return .ignored }
            cursor += 1
            return .moved
        case .lineStart:
            cursor = multiline ? lineStart(cursor) : 0
            return .moved
        case .lineEnd:
            cursor = multiline ? lineEnd(cursor) : characters.count
            return .moved
        case .deleteBack:
            return remove(max(0, cursor - 1)..<cursor)
        case .deleteForward:
            return remove(cursor..<min(cursor + 1, characters.count))
        case .deleteToEnd:
            let end = multiline ? lineEnd(cursor) : characters.count
            // At the end of a line Ctrl-K joins the next line, as in Emacs and readline.
            return remove(cursor..<(end == cursor && end < characters.count ? end + 1 : end))
        case .deleteToStart:
            return remove((multiline ? lineStart(cursor) : 0)..<cursor)
        case .deleteWord:
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace, characters[start - 1] != "\n" { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            return remove(start..<cursor)
        case .lineUp, .lineDown:
            let up = action == .lineUp
            guard multiline else { return up ? .leaveUp : .leaveDown }
            let lines = WrappedText.layout(characters, width: width)
            let row = WrappedText.row(of: cursor, in: lines)
            let target = up ? row - 1 : row + 1
            guard target >= 0, target < lines.count else { return up ? .leaveUp : .leaveDown }
            let column = DisplayWidth.of(String(characters[lines[row].start..<cursor]))
            cursor = WrappedText.index(atColumn: column, of: lines[target], in: characters)
            return .moved
        }
    }

    private mutating func insert(_ c: Character, maxLength: Int) -> Outcome {
        guard characters.count < maxLength else { return .full }
        if cursor == characters.count {
            characters.append(c)
            text.append(c)
        } else {
            characters.insert(c, at: cursor)
            textFromCharacters()
        }
        cursor += 1
        return .changed
    }

    /// Removes `range` (nothing there: the key is ignored), the cursor at its start.
    private mutating func remove(_ range: Range<Int>) -> Outcome {
        guard !range.isEmpty else { return .ignored }
        characters.removeSubrange(range)
        textFromCharacters()
        cursor = range.lowerBound
        return .changed
    }

    private func lineStart(_ index: Int) -> Int {
        var i = index
        while i > 0, characters[i - 1] != "\n" { i -= 1 }
        return i
    }

    private func lineEnd(_ index: Int) -> Int {
        var i = index
        while i < characters.count, characters[i] != "\n" { i += 1 }
        return i
    }
}

/// Soft-wrapping of multi-line text into rows of at most `width` columns.
public enum WrappedText {
    /// A visual row: characters `start..<end`; a newline ending the row is not part of it.
    public struct Row: Equatable, Sendable {
        public var start: Int
        public var end: Int
    }

    public static func layout(_ characters: [Character], width: Int) -> [Row] {
        let width = max(1, width)
        var rows: [Row] = []
        var start = 0
        var used = 0
        var lastSpace: Int?
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c == "\n" {
                rows.append(Row(start: start, end: i))
                start = i + 1
                used = 0
                lastSpace = nil
                i += 1
                continue
            }
            let w = DisplayWidth.of(c)
            if used + w > width && i > start {
                // Break after the last space on the row when there is one, else mid-word.
                let breakAt = lastSpace.map { $0 + 1 } ?? i
                rows.append(Row(start: start, end: breakAt))
                start = breakAt
                used = characters[start..<i].reduce(0) { $0 + DisplayWidth.of($1) }
                lastSpace = nil
                continue
            }
            if c == " " { lastSpace = i }
            used += w
            i += 1
        }
        rows.append(Row(start: start, end: characters.count))
        return rows
    }

    /// The row that shows the cursor at `index`.
    public static func row(of index: Int, in rows: [Row]) -> Int {
        for (n, row) in rows.enumerated() {
            let isLast = n == rows.count - 1
            if index >= row.start
                && (index < row.end || (index == row.end && (isLast || rows[n + 1].start > row.end))) {
                return n
            }
        }
        return max(0, rows.count - 1)
    }

    /// The index in `row` closest to display column `column`.
    public static func index(atColumn column: Int, of row: Row, in characters: [Character]) -> Int {
        var used = 0
        var i = row.start
        while i < row.end {
            let w = DisplayWidth.of(characters[i])
            if used + w > column { break }
            used += w
            i += 1
        }
        return i
    }
}
