/// Ctrl-G, then the first letters of a field's label: the focus goes to that field (Notes is ten Tabs from the top
/// of an inspection), with Enter. The labels that start with what was typed match, else those with a word that
/// does; Enter goes to the first. It waits for Enter even when one field is left: a jump made then put the rest of
/// the letters typed ("loc" for Location) into the field. Esc (or Ctrl-G again) goes nowhere.
struct FieldJump: Sendable, Equatable {
    private(set) var typed = ""
    /// The letter just refused, for the prompt to say so.
    private(set) var refused: Character?

    enum Outcome: Equatable {
        case open
        case jump(to: Int)
        case cancel
    }

    static let binding = KeyBinding<FormAction>([.ctrl("g")], label: "Ctrl-G",
                                                help: "Go to a field: the first letters of its label, then Enter (the "
                                                    + "first of several; Esc stays)",
                                                brief: "go to a field", rank: .sometimes, action: .goToField)

    /// The indexes of the labels `typed` begins; when none, of those with a word it begins ("no" is Notes, not
    /// "Certification no.").
    static func matches(_ typed: String, in labels: [String]) -> [Int] {
        let wanted = typed.lowercased()
        guard !wanted.isEmpty else { return Array(labels.indices) }
        let starts = labels.indices.filter { labels[$0].lowercased().hasPrefix(wanted) }
        guard starts.isEmpty else { return starts }
        return labels.indices.filter { index in
            labels[index].lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                .contains { $0.hasPrefix(wanted) }
        }
    }

    mutating func handle(_ key: Key, labels: [String]) -> Outcome {
        refused = nil
        switch key {
        case .escape, .ctrl("g"), .ctrl("c"): return .cancel
        case .enter: return FieldJump.matches(typed, in: labels).first.map { .jump(to: $0) } ?? .open
        case .backspace:
            if !typed.isEmpty { typed.removeLast() }
        case .char(let character) where !character.isNewline:
            if FieldJump.matches(typed + String(character), in: labels).isEmpty {
                refused = character
            } else {
                typed.append(character)
            }
        default: break
        }
        return .open
    }

    /// The prompt on the footer row: what was typed, and the fields it names.
    func draw(labels: [String], into frame: inout Frame, area: Rect) {
        let y = area.height - 1
        let prompt = " Go to field: \(typed)"
        let found = FieldJump.matches(typed, in: labels).map { labels[$0] }
        let said = refused.map { "  no field starts with “\(typed)\($0)”" }
            ?? "  Enter → " + found.joined(separator: " · ")
        frame.fill(y: y, in: area, style: .reverse)
        frame.put(prompt, x: 0, y: y, in: area, style: .reverse)
        frame.put(said, x: prompt.displayWidth, y: y, in: area, style: Style(bold: refused != nil, reverse: true),
                  maxWidth: max(0, area.width - prompt.displayWidth))
        frame.cursor = (area.x + min(prompt.displayWidth, area.width - 1), area.y + y)
    }
}

extension FieldForm {
    /// A key for the open jump, or Ctrl-G opening it: true when the key was the jump's.
    mutating func handleFieldJump(_ key: Key) -> Bool {
        guard var jump = fieldJump else {
            guard key == .ctrl("g") else { return false }
            fieldJump = FieldJump()
            return true
        }
        let all = fields
        switch jump.handle(key, labels: all.map(label(of:))) {
        case .open: fieldJump = jump
        case .cancel: fieldJump = nil
        case .jump(let index):
            fieldJump = nil
            focusField(all[index])
        }
        return true
    }

    /// The open jump's prompt over the footer row.
    func drawFieldJump(into frame: inout Frame, area: Rect) {
        fieldJump?.draw(labels: fields.map(label(of:)), into: &frame, area: area)
    }
}
