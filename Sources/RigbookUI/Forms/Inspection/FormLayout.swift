import RigbookCore
import Synchronization

/// The form's body as lines, computed the same way for scrolling (in update) and drawing (in view).
enum FormLayout {
    enum Line: Hashable, Sendable, FormBodyLine {
        case heading(String)
        /// Row `row` of a field's widget (multi-line text has several).
        case field(FormField, row: Int)
        /// A rule or date message under a field; `continued` for its wrapped rows after the first.
        case message(FormField, String, note: FieldNote, continued: Bool)
        /// A field's label on its own row (narrow screens).
        case label(FormField)
        /// A row of the warning above the form (an asset out of use).
        case banner(String)
        /// A line of information under a field (which record an amendment amends).
        case info(FormField, String)

        var isHeading: Bool { if case .heading = self { true } else { false } }

        /// The field a line belongs to (nil for a heading).
        var field: FormField? {
            switch self {
            case .heading, .banner: nil
            case .field(let field, _), .message(let field, _, _, _), .label(let field), .info(let field, _): field
            }
        }
    }

    /// Below this width a label gets a row of its own above its widget, so neither is cut short.
    static let narrowWidth = 60

    static func isNarrow(_ width: Int) -> Bool { width < narrowWidth }

    /// Columns before a widget: the label column, or a small indent when labels sit above widgets.
    /// From 60 columns the labels' full 22 (a third of the width would cut "Earth continuity (Ω)" at 60).
    static func labelWidth(screenWidth: Int) -> Int {
        isNarrow(screenWidth) ? 2 : min(22, max(8, (screenWidth - 16) / 2))
    }

    /// Columns of a text widget (the value column, less one for the cursor at the end).
    static func textWidth(screenWidth: Int) -> Int {
        max(4, screenWidth - labelWidth(screenWidth: screenWidth) - 3)
    }

    /// Multi-line fields wrapped at the widget's width, computed once per frame.
    typealias Wraps = [FormField: (characters: [Character], rows: [WrappedText.Row])]

    static func wraps(_ form: FormState, width: Int) -> Wraps {
        var wraps: Wraps = [:]
        let columns = textWidth(screenWidth: width)
        for field in form.multilineFields {
            if field == form.focus {
                // The field being typed into changes with every key: wrapped anew (its editor holds characters).
                let characters = form.editor?.characters ?? []
                wraps[field] = (characters, WrappedText.layout(characters, width: columns))
            } else {
                wraps[field] = form.memos.wraps.wrapped(form.values[text: field], width: columns)
            }
        }
        return wraps
    }

    /// A layout kept by reference (`FormState.layoutMemo`). Not generic: a generic class's type is looked up in
    /// the runtime's metadata caches each time one is made.
    final class KeptLayout: Sendable {
        let value: Computed
        init(_ value: Computed) { self.value = value }
    }

    /// Lines and what they were made from, kept by reference (`FormState.linesMemo`).
    final class KeptLines: Sendable {
        let key: LinesKey
        let lines: [Line]
        init(key: LinesKey, lines: [Line]) {
            self.key = key
            self.lines = lines
        }
    }

    /// The wraps and lines of one state at one width: what scrolling and drawing both need.
    struct Computed: Sendable {
        var width: Int
        var wraps: Wraps
        var lines: [Line]
        var key: LinesKey
    }

    /// The layout at `width`: the one `keepFocusVisible` kept when nothing it depends on changed since (a
    /// keystroke used to lay the form out twice, once to scroll and once to draw), else computed now.
    static func computed(_ form: FormState, width: Int) -> Computed {
        if let kept = form.layoutMemo?.value, kept.width == width { return kept }
        let wraps = self.wraps(form, width: width)
        let key = LinesKey(form, width: width, wraps: wraps)
        if let kept = form.linesMemo, kept.key == key {
            return Computed(width: width, wraps: wraps, lines: kept.lines, key: key)
        }
        return Computed(width: width, wraps: wraps, lines: lines(form, width: width, wraps: wraps), key: key)
    }

    /// Everything `lines` reads of a form: two states with equal keys have the same lines. A typed character
    /// changes the text of a field but seldom its rows or the rules it breaks, so the lines (with every message
    /// wrapped again) are kept from the key before (`FormState.linesMemo`) rather than made anew.
    struct LinesKey: Equatable, Sendable {
        var width: Int
        var openingWarning: String?
        var problems: [GateProblem]
        var fieldMessages: [FormField: String]
        var warnings: [String]
        var setUpOffered: Bool
        var focus: FormField
        var relativeDateHint: String?
        /// What decides which fields apply (`FormField.applies(to:)`), and the attachments' rows.
        var inspectionType: InspectionType
        var result: InspectionResult?
        var attachments: Int
        /// Rows of each multi-line field, in form order.
        var multilineRows: [Int]

        /// Borrows the form, like `FormGroupsMemo.Key`.
        init(_ form: borrowing FormState, width: Int, wraps: Wraps) {
            self.width = width
            openingWarning = form.openingWarning
            problems = form.problems
            fieldMessages = form.fieldMessages
            warnings = form.fields.flatMap(form.warnings(for:))
            setUpOffered = form.offersSetUp
            focus = form.focus
            relativeDateHint = form.relativeDateHint
            inspectionType = form.values.inspectionType
            result = form.values.result
            attachments = form.values.attachments.count
            multilineRows = FormField.multilineCases.compactMap { wraps[$0]?.rows.count }
        }
    }

    static func lines(_ form: FormState, width: Int, wraps: Wraps? = nil) -> [Line] {
        let wraps = wraps ?? self.wraps(form, width: width)
        var lines: [Line] = []
        if let warning = form.openingWarning {
            let characters = Array(warning)
            for row in WrappedText.layout(characters, width: max(8, width - 2)) {
                lines.append(.banner(String(characters[row.start..<row.end])))
            }
        }
        let problems = Dictionary(grouping: form.problems, by: \.field)
        for group in form.groups {
            lines.append(.heading(group.title))
            for field in group.fields {
                var rows = 1
                if let wrapped = wraps[field] { rows = max(2, wrapped.rows.count) }
                if field == .attachments { rows = max(1, form.values.attachments.count) }
                if isNarrow(width) && field.kind != .check { lines.append(.label(field)) }
                for row in 0..<rows { lines.append(.field(field, row: row)) }
                // Messages wrap under the widget, so every rule reads in full at 80 columns; the last column
                // is left to the scroll marks (↑ ↓).
                let messageWidth = max(8, width - labelWidth(screenWidth: width) - 5)
                func wrapped(_ text: String) -> [(text: String, continued: Bool)] {
                    let characters = Array(text)
                    return WrappedText.layout(characters, width: messageWidth).enumerated().map {
                        (String(characters[$1.start..<$1.end]), $0 > 0)
                    }
                }
                func add(_ text: String, _ note: FieldNote) {
                    for row in wrapped(text) {
                        lines.append(.message(field, row.text, note: note, continued: row.continued))
                    }
                }
                if field == .amendmentReason {
                    for note in form.amendmentNotes {
                        lines += wrapped(note).map { .info(field, $0.text) }
                    }
                }
                if field == form.focus, let hint = form.relativeDateHint {
                    lines += wrapped(hint).map { .info(field, $0.text) }
                }
                if field == .attachments, field == form.focus {
                    lines += wrapped(FormState.attachmentHint).map { .info(field, $0.text) }
                }
                if let message = form.fieldMessages[field] { add(message, .typing) }
                for warning in form.warnings(for: field) { add(warning, .warning) }
                for problem in problems[field] ?? [] { add(problem.message, .problem) }
                if field == .inspectionType, form.offersSetUp {
                    lines += wrapped(FormState.setUpOffer).map { .info(field, $0.text) }
                }
            }
        }
        return lines
    }

    /// The body line that must be visible for the focus (the cursor's row in multi-line text).
    static func focusLine(_ form: FormState, in lines: [Line], wraps: Wraps) -> Int {
        var row = 0
        if let editor = form.editor, let wrapped = wraps[form.focus] {
            row = WrappedText.row(of: editor.cursor, in: wrapped.rows)
        }
        if form.focus == .attachments { row = form.attachmentSelection }
        return lines.firstIndex(of: .field(form.focus, row: row)) ?? 0
    }
}

extension FormState {
    /// Rows of the body: everything but the title, the preview and the footer.
    static func bodyHeight(screenHeight: Int) -> Int { max(1, screenHeight - 3) }

    /// Scrolls as little as possible to keep the focused field (and its messages) on screen.
    mutating func keepFocusVisible(width: Int, height: Int) {
        let layout = FormLayout.computed(self, width: width)
        layoutMemo = FormLayout.KeptLayout(layout)
        linesMemo = FormLayout.KeptLines(key: layout.key, lines: layout.lines)
        let wraps = layout.wraps, lines = layout.lines
        var line = FormLayout.focusLine(self, in: lines, wraps: wraps)
        // On a narrow screen the label above the first row belongs in view too.
        if line > 0, case .label(let f) = lines[line - 1], f == focus,
           line == lines.firstIndex(of: .field(focus, row: 0)) { line -= 1 }
        scroll(toFocusAt: line, in: lines, body: bodyRows(width: width, height: height))
    }
}

extension FormLayout {
    /// A form's scroll moved as little as possible to keep lines `line...last` (the focused field, its rows and
    /// the messages under it) in a body of `body` rows out of `lines`: as much of the field as fits, its first row
    /// always, and a group's heading with its first field.
    static func scroll(_ scroll: Int, keeping line: Int, through last: Int, headingAbove: Bool, lines: Int,
                       body: Int) -> Int {
        var scroll = scroll
        let last = min(last, line + body - 1)
        if last >= scroll + body { scroll = last - body + 1 }
        if line < scroll { scroll = line }
        if scroll == line, line > 0, headingAbove { scroll = line - 1 }
        scroll = max(0, min(scroll, max(0, lines - body)))
        return min(scroll, line)
    }
}

/// Multi-line texts as last wrapped, by their text and width: the fields not being typed into keep their text
/// from key to key, and splitting each into characters and wrapping it again was most of the form's layout
/// per typed key. A pure memo: a text is reused only when the text and the width are equal.
final class WrapMemo: Sendable {
    private struct Kept: Sendable {
        var text: String
        var width: Int
        var characters: [Character]
        var rows: [WrappedText.Row]
    }

    private let kept = Mutex<[Kept]>([])

    func wrapped(_ text: String, width: Int) -> (characters: [Character], rows: [WrappedText.Row]) {
        if let hit = kept.withLock({ $0.first { $0.width == width && $0.text == text } }) {
            return (hit.characters, hit.rows)
        }
        let characters = Array(text)
        let rows = WrappedText.layout(characters, width: width)
        kept.withLock { kept in
            // A form's multi-line fields, and a few more: the oldest goes.
            if kept.count >= 16 { kept.removeFirst() }
            kept.append(Kept(text: text, width: width, characters: characters, rows: rows))
        }
        return (characters, rows)
    }
}
