/// A key press, independent of the terminal library.
public enum Key: Hashable, Sendable {
    case char(Character)
    /// Ctrl with a letter, lower case: `.ctrl("s")`.
    case ctrl(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)

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
        }
    }

    /// The keys a string types, one per character (handy in tests and for pastes).
    public static func typing(_ text: String) -> [Key] { text.map { .char($0) } }
}

/// One entry of a keymap: the keys, how they are shown, what they do. The footer and the help
/// screen are both generated from these, so they cannot disagree with what the keys do.
public struct KeyBinding<Action: Sendable>: Sendable {
    public var keys: [Key]
    /// Shown for the keys, e.g. "↑↓ j k"; defaults to the keys' names.
    public var label: String
    public var help: String
    /// Short text for the footer; nil keeps the binding out of the footer.
    public var footer: String?
    public var action: Action

    public init(_ keys: [Key], label: String? = nil, help: String, footer: String? = nil, action: Action) {
        self.keys = keys
        self.label = label ?? keys.map(\.name).joined(separator: " ")
        self.help = help
        self.footer = footer
        self.action = action
    }
}

public struct Keymap<Action: Sendable>: Sendable {
    public var title: String
    public var bindings: [KeyBinding<Action>]

    public init(title: String, _ bindings: [KeyBinding<Action>]) {
        self.title = title
        self.bindings = bindings
    }

    public func action(for key: Key) -> Action? {
        bindings.first { $0.keys.contains(key) }?.action
    }

    /// "label footer" pairs that fit in `width` columns, most important first.
    /// The footer: as many items as fit, in order, but the last one (help) is always kept so a
    /// narrow terminal still says where the keys are explained.
    public func footer(width: Int) -> String {
        let items = bindings.compactMap { binding in binding.footer.map { binding.label + " " + $0 } }
        guard let last = items.last else { return "" }
        var text = ""
        for item in items.dropLast() {
            let candidate = (text.isEmpty ? "" : text + "  ") + item
            if (candidate + "  " + last).displayWidth > width { break }
            text = candidate
        }
        let whole = text.isEmpty ? last : text + "  " + last
        return whole.displayWidth <= width ? whole : last
    }

    /// Lines for the help screen: key labels in one column, descriptions in the next.
    public func helpLines() -> [(keys: String, help: String)] {
        bindings.map { ($0.label, $0.help) }
    }
}
