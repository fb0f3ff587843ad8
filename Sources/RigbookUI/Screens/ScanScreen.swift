import RigbookCore

/// The scan prompt over a screen whose letters are commands (an asset's history, a record): `#` or `/` opens
/// it, so a label scanned there — `/RB1:…` and Enter, typed by the scanner — never reaches `A` (amend), `i` or
/// `Q`. Enter goes to the scanned asset's history from the register list.
struct ScanScreen: Screen {
    var prompt = ScanPrompt(marking: false)

    /// The prompt's keys: the list's, less switching to marking (a batch is gathered on the list).
    static let keymap = Keymap<ScanAction>(title: "Scan", whileTyping: true,
                                           ListState.scanKeymap.bindings.filter { $0.action != .switchMode })

    /// Opens the prompt; a `/` that opened it is the first character of a payload, so it is kept.
    init(opener: Key) {
        if opener == .char("/") { prompt.text = "/" }
    }

    var isOverlay: Bool { true }

    mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        switch prompt.edit(key) {
        case .lookUp:
            let typed = prompt.text
            guard !typed.trimmingCharacters(in: .whitespaces).isEmpty else { return .stay }
            return .scanned(typed)
        case .close: return .pop
        case .quit: return .effects([.quit])
        case .switchMode, .deleteBack, .deleteAll, nil: return .stay
        }
    }

    func draw(into frame: inout Frame, area: Rect) {
        guard area.height > 1 else { return }
        prompt.draw(into: &frame, area: area, y: area.height - 1, hint: ScanScreen.keymap.hint)
    }
}

extension Key {
    /// `/` (the first character of every label's payload) or `#` (the scan prompt's key): a box that any key
    /// closes hands such a key on rather than swallowing it, so the rest of a scan is not taken as commands.
    var startsScan: Bool { self == .char("/") || self == .char("#") }
}

extension KeyBinding {
    /// `#` (and `/`, where a scanned payload starts) opens the scan prompt on a screen whose letters are
    /// commands.
    static func scan(_ action: Action) -> KeyBinding {
        KeyBinding([.char("#"), .char("/")], help: "Scan a label (or type a tag) and go to its asset; a scanner's "
                   + "/RB1:… opens it by itself", footer: "scan", brief: "scan a label", rank: .sometimes,
                   action: action)
    }
}
