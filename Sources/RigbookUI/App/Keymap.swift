/// How often a key is pressed where it is bound, most first. The README's key table and the man page's KEYS
/// list a screen's keys in this order, so a reader meets the keys that matter before the rare ones; the footer
/// and the help page keep the keymap's own order. Four steps rather than a number per key: a rank has to mean
/// the same on every screen, because one screen's line merges several keymaps (a form, its popups, its questions).
public enum KeyRank: Comparable, Sendable {
    /// Pressed on almost every visit: moving, the next field, saving, leaving.
    case constant
    /// The screen's main errands: what it is opened for, besides moving.
    case often
    /// Now and then: jumps, the help, a second way to a place.
    case sometimes
    /// Set-up, sample data, redrawing: once in a while.
    case rarely
}

/// One entry of a keymap: the keys, how they are shown, what they do. The footer, the help page,
/// the hints in boxes and the README's key table are all generated from these, so none of them can
/// disagree with what the keys do.
public struct KeyBinding<Action: Sendable>: Sendable {
    public var keys: [Key]
    /// Shown for the keys, e.g. "↑ k"; defaults to the keys' names. Each word names one of `keys`
    /// (`TypeAhead.label` stands for its letters), so the key table can tell which keys a label shows.
    public var label: String
    public var help: String
    /// Short text for the footer; nil keeps the binding out of the footer.
    public var footer: String?
    /// A few words for the README's key table when there is no footer text.
    public var brief: String?
    /// Where the key table lists it: asked of every binding, so a new key is placed on purpose.
    public var rank: KeyRank
    public var action: Action

    public init(_ keys: [Key], label: String? = nil, help: String, footer: String? = nil, brief: String? = nil,
                rank: KeyRank, action: Action) {
        self.keys = keys
        self.label = label ?? keys.map(\.name).joined(separator: " ")
        self.help = help
        self.footer = footer
        self.brief = brief
        self.rank = rank
        self.action = action
    }
}

extension KeyBinding {
    /// ↑ k and ↓ j: moving through a list or a page. Both have the footer's word in the key table, where they
    /// make one entry ("↑ k ↓ j move").
    static func moves(up: Action, _ upHelp: String, down: Action, _ downHelp: String,
                      footer: String = "move") -> [KeyBinding] {
        [KeyBinding([.up, .char("k")], label: "↑ k", help: upHelp, brief: footer, rank: .constant, action: up),
         KeyBinding([.down, .char("j")], label: "↓ j", help: downHelp, footer: footer, rank: .constant,
                    action: down)]
    }

    /// Esc and q go back (Ctrl-C too, as everywhere outside a form).
    static func back(_ action: Action, to place: String) -> KeyBinding {
        KeyBinding([.escape, .char("q"), .ctrl("c")], label: "Esc q", help: "Back to the \(place) (Ctrl-C too)",
                   footer: "back", rank: .constant, action: action)
    }

    /// ? and F1 open the screen's help page.
    static func help(_ action: Action) -> KeyBinding {
        KeyBinding([.char("?"), .function(1)], label: "? F1", help: "This help", footer: "help", rank: .sometimes,
                   action: action)
    }
}

/// A screen's keys in one situation. A key that is not in a keymap does nothing: there are no
/// key checks beside the keymaps.
public struct Keymap<Action: Sendable>: Sendable {
    public var title: String
    public var bindings: [KeyBinding<Action>]
    /// Live while a text field has focus: then printable keys are text, so none may be bound here.
    public var whileTyping: Bool
    /// What every key that is not bound does ("any key closes this"), if anything.
    public var otherKeys: (help: String, action: Action)?

    public init(title: String, whileTyping: Bool = false, otherKeys: (help: String, action: Action)? = nil,
                _ bindings: [KeyBinding<Action>]) {
        self.title = title
        self.whileTyping = whileTyping
        self.otherKeys = otherKeys
        self.bindings = bindings
    }

    public func action(for key: Key) -> Action? {
        if case .paste = key { return nil } // a paste is text: it answers no question and presses nothing
        return bindings.first { $0.keys.contains(key) }?.action ?? otherKeys?.action
    }

    /// Footer items, "label footer", in keymap order; bindings that share a footer word are one item
    /// ("← → choose").
    var footerItems: [String] {
        var items: [(labels: [String], word: String)] = []
        for binding in bindings {
            guard let word = binding.footer else { continue }
            if items.last?.word == word { items[items.count - 1].labels.append(binding.label) } else {
                items.append(([binding.label], word))
            }
        }
        return items.map { $0.labels.joined(separator: " ") + " " + $0.word }
    }

    /// The footer: as many items as fit, in order, but the last one (help) is always kept so a
    /// narrow terminal still says where the keys are explained.
    public func footer(width: Int) -> String {
        let items = footerItems
        guard let last = items.last else { return "" }
        // Widths add up (items are joined by two spaces), so each item is measured once: the footer is drawn
        // with every frame, and measuring the growing line again per item was a tenth of a list keystroke.
        let lastWidth = last.displayWidth
        var kept: [String] = []
        var used = 0
        for item in items.dropLast() {
            let grown = used + (kept.isEmpty ? 0 : 2) + item.displayWidth
            if grown + 2 + lastWidth > width { break }
            kept.append(item)
            used = grown
        }
        let wholeWidth = kept.isEmpty ? lastWidth : used + 2 + lastWidth
        return wholeWidth <= width ? (kept + [last]).joined(separator: "  ") : last
    }

    /// The one-line hint under a question or message box.
    public var hint: String { footerItems.joined(separator: " · ") }

    /// Lines for the help page: key labels in one column, descriptions in the next.
    public func helpLines() -> [(keys: String, help: String)] {
        bindings.map { ($0.label, $0.help) } + (otherKeys.map { [("Other keys", $0.help)] } ?? [])
    }

    /// Help lines under a heading of their own, for a page that shows several keymaps.
    public func helpSection(_ heading: String) -> [(keys: String, help: String)] {
        [("", ""), ("", heading)] + helpLines()
    }

    /// The keymap without its actions, for the catalogue of every screen's keys.
    public var summary: KeymapSummary {
        KeymapSummary(title: title, whileTyping: whileTyping,
                      bindings: bindings.map { .init(keys: $0.keys, label: $0.label, help: $0.help,
                                                     brief: $0.brief ?? $0.footer ?? $0.help.lowercasedFirst,
                                                     rank: $0.rank) },
                      otherKeys: otherKeys?.help)
    }
}

/// A keymap as data only: what the key walk test and the README's key table read.
public struct KeymapSummary: Sendable {
    public struct Binding: Sendable {
        public var keys: [Key]
        public var label: String
        public var help: String
        /// A few words for the key table: the binding's brief, else its footer word, else its help.
        public var brief: String
        public var rank: KeyRank
    }
    public var title: String
    public var whileTyping: Bool
    public var bindings: [Binding]
    public var otherKeys: String?
}
