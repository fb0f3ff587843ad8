import RigbookCore

/// What LOLER reg 10 asks at the save of a thorough examination that found a defect: who at the employer
/// was told and when (reg 10(1)(a)), whether the defect is an existing or imminent risk of serious personal
/// injury, and if so when a copy went to the enforcing authority (reg 10(1)(c)), which may be not yet. It
/// answers with the notices, or with going back to the form; nothing is saved until it answers.
public struct DefectNoticeDialog: Sendable {
    public enum Field: Int, CaseIterable, Sendable { case contact, toldOn, seriousRisk, authoritySentOn }

    public enum Action: Sendable { case next, previous, save, back, toggle }

    public enum Answer: Sendable, Equatable {
        case back
        case answered(DefectNotices)
    }

    public private(set) var focus: Field = .contact
    public private(set) var contact = EditableText("")
    public private(set) var toldOn: EditableText
    public private(set) var seriousRisk = false
    public private(set) var authoritySentOn = EditableText("")
    /// Why the last attempt was refused, as sentences.
    public private(set) var problems: [String] = []
    let employer: String
    let examinationDate: CalendarDate
    let today: CalendarDate
    /// Keys typed together with the Ctrl-S that opened the dialog must not answer it.
    var opened: SeenInBatch

    /// `answers`: what was typed before (an Esc back to the form, a recovered draft); else today's date only.
    init(employer: String, examinationDate: CalendarDate, today: CalendarDate, batch: Int,
         answers: DefectNoticeAnswers? = nil) {
        self.employer = employer
        self.examinationDate = examinationDate
        self.today = today
        contact = EditableText(answers?.contact ?? "")
        toldOn = EditableText(answers?.toldOn ?? today.iso)
        seriousRisk = answers?.seriousRisk ?? false
        authoritySentOn = EditableText(answers?.authoritySentOn ?? "")
        opened = SeenInBatch(batch)
    }

    /// The answers as typed so far, for the draft.
    public var answers: DefectNoticeAnswers {
        DefectNoticeAnswers(contact: contact.text, toldOn: toldOn.text, seriousRisk: seriousRisk,
                            authoritySentOn: authoritySentOn.text)
    }

    /// The enforcing authority's date is asked only with a serious risk.
    var fields: [Field] { seriousRisk ? Field.allCases : [.contact, .toldOn, .seriousRisk] }

    var isTyping: Bool { focus != .seriousRisk }

    static let keymap = Keymap<Action>(title: "Reg 10 notice", whileTyping: true, [
        KeyBinding([.tab], label: "Tab", help: "Next question (also ↓ and Enter)", footer: "next",
                   brief: "next question", rank: .sometimes, action: .next),
        KeyBinding([.backTab], label: "Shift-Tab", help: "Previous question (also ↑)", brief: "previous question",
                   rank: .sometimes, action: .previous),
        KeyBinding([.ctrl("s")], help: "Save the record with these notices", footer: "save", rank: .sometimes,
                   action: .save),
        KeyBinding([.escape, .ctrl("c")], label: "Esc", help: "Back to the form: nothing is saved",
                   footer: "back", rank: .sometimes, action: .back),
    ])

    /// On the risk question, which is a check box and not text.
    static let checkKeymap = Keymap<Action>(title: "Reg 10 notice: the risk question", [
        KeyBinding([.char(" ")], label: "Space", help: "Tick or untick: an existing or imminent risk of serious injury",
                   footer: "tick", rank: .sometimes, action: .toggle),
        KeyBinding([.down, .enter], label: "↓", help: "Next question (also Enter)", brief: "next question",
                   rank: .sometimes, action: .next),
        KeyBinding([.up], label: "↑", help: "Previous question", brief: "previous question", rank: .sometimes,
                   action: .previous),
    ])

    public mutating func handle(_ key: Key, batch: Int) -> Answer? {
        let action = (isTyping ? nil : DefectNoticeDialog.checkKeymap.action(for: key))
            ?? DefectNoticeDialog.keymap.action(for: key)
        guard let action else {
            if isTyping { edit(key) }
            return nil
        }
        switch action {
        case .next: move(by: 1)
        case .previous: move(by: -1)
        case .toggle:
            seriousRisk.toggle()
        case .back:
            return .back
        case .save:
            guard opened.isSeen(by: batch) else {
                problems = ["That key came with the keys that opened this question: not taken. Press it again."]
                return nil
            }
            return answerAsGiven()
        }
        return nil
    }

    private mutating func move(by step: Int) {
        expandRelativeDate()
        let all = fields
        let index = all.firstIndex(of: focus) ?? 0
        focus = all[(index + step + all.count) % all.count]
    }

    /// A date typed the quick way (`today`, `-1`, as in the form's date fields) written out as `YYYY-MM-DD` as
    /// its field is left; text that means no date stays as typed, for the save to explain.
    private mutating func expandRelativeDate() {
        func expanded(_ text: EditableText) -> EditableText {
            RelativeDate.isRelative(text.text) ? resolved(text.text).map { EditableText($0.iso) } ?? text : text
        }
        switch focus {
        case .toldOn: toldOn = expanded(toldOn)
        case .authoritySentOn: authoritySentOn = expanded(authoritySentOn)
        case .contact, .seriousRisk: break
        }
    }

    /// The date `text` stands for: `YYYY-MM-DD`, or a relative date counted from today.
    private func resolved(_ text: String) -> CalendarDate? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return RelativeDate.isRelative(trimmed) ? RelativeDate.resolve(trimmed, from: today, today: today)
            : CalendarDate(iso: trimmed)
    }

    private mutating func edit(_ key: Key) {
        let limit = focus == .contact ? Asset.maxTextLength : 10
        let allowed: ((Character) -> Bool)? = focus == .contact ? nil : { RelativeDate.isAllowed($0) }
        if focus != .contact, case .char(let c) = key, !RelativeDate.isAllowed(c) { return }
        let outcome: EditableText.Outcome
        switch focus {
        case .contact: outcome = contact.apply(key, multiline: false, maxLength: limit, allowed: allowed)
        case .toldOn: outcome = toldOn.apply(key, multiline: false, maxLength: limit, allowed: allowed)
        case .authoritySentOn:
            outcome = authoritySentOn.apply(key, multiline: false, maxLength: limit, allowed: allowed)
        case .seriousRisk: return
        }
        // ↑, ↓ and Enter leave a one-line field as they do in the form.
        if outcome == .leaveUp { move(by: -1) }
        if outcome == .leaveDown { move(by: 1) }
    }

    /// The notices, or the reasons they cannot be kept (then shown, and the focus goes to the first).
    mutating func answerAsGiven() -> Answer? {
        var found: [(Field, String)] = []
        let name = contact.text.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { found.append((.contact, "Say who at \(employer) was told of the defect.")) }
        if TextRules.containsControlCharacters(name) {
            found.append((.contact, "Who was told holds control characters."))
        }
        if let hidden = Tags.invisibleCharacterProblem(name, what: "name of who was told") {
            found.append((.contact, hidden))
        }
        func date(_ text: EditableText, _ field: Field, _ what: String) -> CalendarDate? {
            guard let date = resolved(text.text) else {
                found.append((field, RelativeDate.outOfRange(text.text, from: today, today: today)
                                      ?? "Enter \(what) as \(RelativeDate.pastExpected)."))
                return nil
            }
            if date > today { found.append((field, "\(date.iso) is in the future.")) }
            if date < examinationDate {
                found.append((field, "\(date.iso) is before the examination (\(examinationDate.iso))."))
            }
            return date
        }
        let told = date(toldOn, .toldOn, "when the employer was told")
        var sent: CalendarDate?
        if seriousRisk && !authoritySentOn.text.trimmingCharacters(in: .whitespaces).isEmpty {
            sent = date(authoritySentOn, .authoritySentOn, "when the copy went to the enforcing authority")
        }
        problems = found.map(\.1)
        if let first = found.first {
            focus = first.0
            return nil
        }
        guard let told else { return nil }
        return .answered(DefectNotices(employerContact: name, employerToldOn: told, seriousRisk: seriousRisk,
                                       authoritySentOn: seriousRisk ? sent : nil))
    }

    func label(_ field: Field) -> String {
        switch field {
        case .contact: "Who at \(employer) was told"
        case .toldOn: "When (YYYY-MM-DD, today, -1)"
        case .seriousRisk: "Existing or imminent risk of serious personal injury"
        case .authoritySentOn: "Copy to the enforcing authority on"
        }
    }

    var footer: String {
        (isTyping ? DefectNoticeDialog.keymap : Keymap(title: "", DefectNoticeDialog.checkKeymap.bindings
            + DefectNoticeDialog.keymap.bindings)).footer(width: 200)
    }

    func draw(into frame: inout Frame, area: Rect) {
        let width = min(max(20, area.width - 4), 66)
        var lines: [(String, Style)] = Box.wrapped([
            ("A defect: LOLER reg 10 asks who at the employer was told (reg 10(1)(a)) and, with a serious "
             + "risk, when a copy went to the enforcing authority (reg 10(1)(c)).", .plain),
        ], width: width)
        // Each text question is a label line with its field on the line below.
        var fieldRows: [Field: Int] = [:]
        for field in fields {
            let style: Style = field == focus ? .bold : .plain
            let marker = field == focus ? "▸ " : "  "
            if field == .seriousRisk {
                lines += Box.wrapped([(marker + (seriousRisk ? "[x] " : "[ ] ") + label(field), style)], width: width)
            } else {
                lines += Box.wrapped([(marker + label(field), style)], width: width)
                fieldRows[field] = lines.count
                lines.append(("", .plain))
            }
        }
        for problem in problems {
            lines += Box.wrapped([("⚠ " + problem, Style(colour: .red, bold: true))], width: width)
        }
        let box = Box.draw(title: "Reg 10 notice", lines: lines, width: width, footer: footer, in: area, into: &frame)
        for (field, row) in fieldRows where row + 1 < box.height - 1 {
            let text = field == .contact ? contact : field == .toldOn ? toldOn : authoritySentOn
            TextFieldView.draw(text.characters, cursor: field == focus ? text.cursor : nil,
                               placeholder: field == .authoritySentOn ? "empty: not yet sent" : nil,
                               in: Rect(x: box.x + 4, y: box.y + row + 1, width: max(4, box.width - 6), height: 1),
                               into: &frame)
        }
    }
}
