import Foundation


/// A pop-up list of named things (employers, sites) to pick one from; it scrolls, so a register with
/// hundreds of sites still fits a small terminal. It answers with the uuid picked, or with nothing.
struct PickList: Sendable {
    enum Answer: Sendable, Equatable { case cancelled, chosen(UUID) }

    struct Option: Sendable, Equatable {
        var uuid: UUID
        var label: String
    }

    let title: String
    let options: [Option]
    private(set) var selection: Int

    init(title: String, options: [Option], selected: UUID?) {
        self.title = title
        self.options = options
        selection = selected.flatMap { uuid in options.firstIndex { $0.uuid == uuid } } ?? 0
    }

    /// The same keys as a choice field's pop-up list.
    static let keymap = Keymap<ChoicePopup.Action>(title: "Option list", ChoicePopup.keymap.bindings)

    mutating func handle(_ key: Key) -> Answer? {
        guard !options.isEmpty else { return .cancelled }
        switch ChoicePopup.moveSelection(&selection, labels: options.map(\.label), key: key) {
        case .take?: return .chosen(options[selection].uuid)
        case .cancel?: return .cancelled
        default: return nil
        }
    }

    func draw(into frame: inout Frame, area: Rect) {
        // Frame, footer and a row of margin above and below: what is left shows options.
        let visible = max(1, min(options.count, area.height - 5))
        let start = max(0, min(selection - visible / 2, options.count - visible))
        let shown = options.dropFirst(start).prefix(visible).enumerated().map { offset, option in
            ((start + offset == selection ? "› " : "  ") + option.label, Style.plain)
        }
        let widest = max(title.displayWidth + 4, PickList.keymap.hint.displayWidth,
                         (options.map(\.label.displayWidth).max() ?? 10) + 2)
        let inner = min(area.width - 4, widest)
        Box.draw(title: title, lines: shown, width: inner, highlight: selection - start, footer: PickList.keymap.hint,
                 in: area, into: &frame)
    }
}
