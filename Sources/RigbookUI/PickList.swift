import Foundation

public enum PickAction: Sendable { case previous, next, first, last, take, cancel, typeAhead }

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

    static let keymap = Keymap<PickAction>(title: "Option list", [
        KeyBinding([.up], label: "↑", help: "Previous option", footer: "choose", brief: "previous option",
                   action: .previous),
        KeyBinding([.down, .tab], label: "↓", help: "Next option", footer: "choose", brief: "next option",
                   action: .next),
        KeyBinding([.home], help: "First option", action: .first),
        KeyBinding([.end], help: "Last option", action: .last),
        KeyBinding([.enter, .char(" ")], label: "Enter", help: "Take the highlighted option", footer: "takes",
                   action: .take),
        KeyBinding([.escape, .ctrl("c")], label: "Esc", help: "Close the list, nothing changed", footer: "cancels",
                   action: .cancel),
        // Letters type ahead (no j and k here: they would take two letters away from the options).
        KeyBinding(TypeAhead.keys, label: TypeAhead.label,
                   help: "The next option starting with that letter (again: the one after it)",
                   brief: "jump to an option by its first letter", action: .typeAhead),
    ])

    mutating func handle(_ key: Key) -> Answer? {
        guard !options.isEmpty else { return .cancelled }
        switch PickList.keymap.action(for: key) {
        case .previous: selection = (selection + options.count - 1) % options.count
        case .next: selection = (selection + 1) % options.count
        case .first: selection = 0
        case .last: selection = options.count - 1
        case .take: return .chosen(options[selection].uuid)
        case .cancel: return .cancelled
        case .typeAhead:
            if let index = TypeAhead.index(after: selection, in: options.map(\.label), key: key) { selection = index }
        case nil: break
        }
        return nil
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
