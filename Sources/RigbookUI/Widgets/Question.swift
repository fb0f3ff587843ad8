/// A question in a box: some lines, then options as buttons. It answers with a typed value, never
/// an index; the screen that asked holds it and acts on the answer.
public struct Question<Answer: Sendable & Equatable>: Sendable {
    public struct Option: Sendable {
        public var label: String
        public var answer: Answer
        /// Keys that give this answer at once, and the word the hint shows after them ("discard").
        public var keys: [Key]
        public var hint: String?
        /// Where the key table lists the keys (`KeyBinding.rank`).
        public var rank: KeyRank

        /// An option taken with ← → and Enter only.
        public init(_ label: String, answer: Answer) {
            self.init(label, answer: answer, keys: [], rank: .rarely)
        }

        /// An option with keys of its own, which rank beside the screen's other keys.
        public init(_ label: String, answer: Answer, keys: [Key], rank: KeyRank, hint: String? = nil) {
            self.label = label
            self.answer = answer
            self.keys = keys
            self.hint = hint
            self.rank = rank
        }
    }

    public enum Action: Sendable, Equatable {
        case previous, next, takeSelected
        case answer(Answer)
    }

    public var title: String
    public var lines: [(String, Style)]
    public var options: [Option]
    public var selection = 0
    var minWidth: Int
    public let keymap: Keymap<Action>
    /// The safe answer (Esc): never refused.
    let cancelAnswer: Answer
    /// The input batch in which the question appeared; any other answer in that same burst of keys is
    /// refused, so keys typed or pasted ahead of the question cannot answer it.
    var opened: SeenInBatch?
    /// The last key was such an answer: the box says so.
    public private(set) var refusedEarlyKey = false
    /// The last input was a paste, which never answers a question: the box says so.
    public private(set) var refusedPaste = false

    /// - Parameters:
    ///   - cancel: the answer of Esc and Ctrl-C, and how the hint names it ("Esc back").
    ///   - otherKeys: the answer of any key not bound ("any other key keeps editing"), if any.
    public init(title: String, lines: [(String, Style)], options: [Option], cancel: (answer: Answer, hint: String),
                otherKeys: (help: String, answer: Answer)? = nil, minWidth: Int = 40) {
        self.title = title
        self.lines = lines
        self.options = options
        self.minWidth = minWidth
        cancelAnswer = cancel.answer
        var bindings: [KeyBinding<Action>] = []
        if options.count > 1 {
            bindings += [
                KeyBinding([.left, .up, .backTab], label: "←", help: "Previous option (also ↑ and Shift-Tab)",
                           footer: "choose", brief: "previous option", rank: .sometimes, action: .previous),
                KeyBinding([.right, .down, .tab], label: "→", help: "Next option (also ↓ and Tab)",
                           footer: "choose", brief: "next option", rank: .sometimes, action: .next),
            ]
        }
        bindings.append(KeyBinding([.enter], help: "Take the highlighted option",
                                   footer: options.count > 1 ? "picks" : "OK", rank: .often, action: .takeSelected))
        for option in options where !option.keys.isEmpty {
            bindings.append(KeyBinding(option.keys, help: option.label, footer: option.hint, rank: option.rank,
                                       action: .answer(option.answer)))
        }
        bindings.append(KeyBinding([.escape, .ctrl("c")], label: "Esc", help: "Ctrl-C too: " + cancel.hint,
                                   footer: cancel.hint, rank: .often, action: .answer(cancel.answer)))
        keymap = Keymap(title: title, otherKeys: otherKeys.map { ($0.help, .answer($0.answer)) }, bindings)
    }

    /// The question as shown in input batch `batch` (see `ScreenContext.batch`).
    func opened(in batch: Int) -> Question {
        var question = self
        question.opened = SeenInBatch(batch)
        return question
    }

    /// The answer, once a key gives one. `batch` is the input batch the key was read in.
    public mutating func handle(_ key: Key, batch: Int) -> Answer? {
        // A box any key answers takes a paste as any key; a question with answers of its own says why not.
        if case .paste = key, keymap.otherKeys == nil {
            refusedPaste = true
            refusedEarlyKey = false
            return nil
        }
        guard let action = keymap.action(for: key) else { return nil }
        refusedEarlyKey = false
        refusedPaste = false
        switch action {
        case .previous: selection = (selection + options.count - 1) % options.count
        case .next: selection = (selection + 1) % options.count
        case .takeSelected: return accept(options[selection].answer, batch: batch)
        case .answer(let answer): return accept(answer, batch: batch)
        }
        return nil
    }

    private mutating func accept(_ answer: Answer, batch: Int) -> Answer? {
        if answer != cancelAnswer, let opened, !opened.isSeen(by: batch) {
            refusedEarlyKey = true
            return nil
        }
        return answer
    }

    /// The options' answers, in the order the buttons show them.
    public var answers: [Answer] { options.map(\.answer) }

    func draw(into frame: inout Frame, area: Rect) {
        var lines = lines
        if refusedEarlyKey {
            let warning = Style(colour: .yellow, bold: true)
            lines += [("", .plain), ("That key came with the keys that opened this question: not taken.", warning),
                      ("Press it again to answer.", warning)]
        } else if refusedPaste {
            lines += [("", .plain), ("A paste does not answer a question: press a key.",
                                     Style(colour: .yellow, bold: true))]
        }
        if options.count > 1 {
            Box.drawQuestion(title: title, lines: lines, options: options.map(\.label), selection: selection,
                             minWidth: max(minWidth, keymap.hint.displayWidth), footer: keymap.hint,
                             in: area, into: &frame)
        } else {
            Box.draw(title: title, lines: lines + [("", .plain), (keymap.otherKeys?.help ?? keymap.hint, .dim)],
                     width: min(area.width - 4, max(minWidth, lines.map(\.0.displayWidth).max() ?? 0)),
                     in: area, into: &frame)
        }
    }
}
