import RigbookCore

/// The passphrase of an examiner's key, asked once a run when a save needs it to sign: typed without being shown,
/// then the save is tried again. Esc leaves the save undone and the draft as it is.
public struct PassphraseScreen: Screen {
    public let examiner: String
    /// The save that needs the key, tried again with the passphrase.
    let retry: Effect
    /// Said above the prompt: why it is asked again (a passphrase that did not open the key).
    let reason: String?
    private var typed: [Character] = []

    public init(examiner: String, retry: Effect, reason: String? = nil) {
        self.examiner = examiner
        self.retry = retry
        self.reason = reason
    }

    public var isOverlay: Bool { true }

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        switch key {
        case .char(let character):
            typed.append(character)
        case .paste(let text):
            typed += text.filter { $0 != "\n" && $0 != "\r" }
        case .backspace:
            if !typed.isEmpty { typed.removeLast() }
        case .ctrl("u"):
            typed.removeAll()
        case .enter where !typed.isEmpty:
            return .pop + .effects([.unlockKey(passphrase: String(typed)), retry])
        case .escape, .ctrl("c"):
            return .pop + .effects([.refuseSave("The key of \(examiner) stays locked, so nothing was signed or "
                                                + "saved. What you typed is kept; save again to sign it.")])
        default:
            break
        }
        return .stay
    }

    public func draw(into frame: inout Frame, area: Rect) {
        var lines: [(String, Style)] = []
        if let reason { lines += [(reason, Style(colour: .yellow, bold: true)), ("", .plain)] }
        lines += [
            ("The key of \(examiner) on this machine is under a passphrase.", .plain),
            ("Type it to sign and save; it is kept until Rigbook quits.", .plain),
            ("", .plain),
            ("Passphrase: " + String(repeating: "•", count: min(typed.count, 32)), .bold),
        ]
        let width = min(area.width - 4, max(56, lines.map(\.0.displayWidth).max() ?? 0))
        Box.draw(title: "Sign with your key", lines: lines, width: width,
                 footer: "Enter signs and saves · Esc not now (the draft is kept)", in: area, into: &frame)
    }
}
