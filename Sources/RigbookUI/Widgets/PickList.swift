import Foundation


/// A pop-up list of options to pick one from (a choice's, Enter on it); it scrolls, so a register with hundreds of
/// sites still fits a small terminal. It answers with the index picked, or with nothing.
struct PickList: Sendable {
    enum Answer: Sendable, Equatable { case cancelled, chosen(Int) }

    let title: String
    let labels: [String]
    private(set) var selection: Int

    init(title: String, labels: [String], selected: Int?) {
        self.title = title
        self.labels = labels
        selection = selected ?? 0
    }

    /// The same keys as a choice field's pop-up list.
    static let keymap = Keymap<ChoicePopup.Action>(title: "Option list", ChoicePopup.keymap.bindings)

    mutating func handle(_ key: Key) -> Answer? {
        guard !labels.isEmpty else { return .cancelled }
        switch ChoicePopup.moveSelection(&selection, labels: labels, key: key) {
        case .take?: return .chosen(selection)
        case .cancel?: return .cancelled
        default: return nil
        }
    }

    func draw(into frame: inout Frame, area: Rect) {
        // Frame, footer and a row of margin above and below: what is left shows options.
        let visible = max(1, min(labels.count, area.height - 5))
        let start = max(0, min(selection - visible / 2, labels.count - visible))
        let shown = labels.dropFirst(start).prefix(visible).enumerated().map { offset, label in
            let index = start + offset
            // More options above the first row shown, or below the last, say so where the row's mark goes.
            let mark = index == selection ? "› " : offset == 0 && index > 0 ? "↑ "
                : offset == visible - 1 && index < labels.count - 1 ? "↓ " : "  "
            return (mark + label, Style.plain)
        }
        let widest = max(title.displayWidth + 4, PickList.keymap.hint.displayWidth,
                         (labels.map(\.displayWidth).max() ?? 10) + 2)
        let inner = min(area.width - 4, widest)
        Box.draw(title: title, lines: shown, width: inner, highlight: selection - start, footer: PickList.keymap.hint,
                 in: area, into: &frame)
    }
}
