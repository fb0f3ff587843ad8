import RigbookCore

/// A key press, independent of the terminal library.
public enum Key: Hashable, Sendable {
    case char(Character)
    /// Ctrl with a letter, lower case: `.ctrl("s")`.
    case ctrl(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)
    /// Text the terminal delivered as a bracketed paste: inserted as text, never read as keys.
    case paste(String)

    /// How help and footers name the key.
    public var name: String {
        switch self {
        case .char(" "): "Space"
        case .char(let c): String(c)
        case .ctrl(let c): "Ctrl-\(c.uppercased())"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .function(let n): "F\(n)"
        case .paste: "a paste"
        }
    }

    /// The keys a string types, one per character (handy in tests and for pastes).
    public static func typing(_ text: String) -> [Key] { text.map { .char($0) } }

    /// A key that types a character (Space included): in a focused text field it is text, never an action.
    public var isPrintable: Bool {
        if case .char(let c) = self { return !c.isControlCharacter }
        return false
    }
}

extension Character {
    var isControlCharacter: Bool { unicodeScalars.contains { TextRules.isControl($0) } }
}
