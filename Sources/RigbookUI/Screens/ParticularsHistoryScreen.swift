import RigbookCore

public enum ParticularsHistoryAction: Sendable { case up, down, pageUp, pageDown, back, help }

/// Every version of one particular, newest first: when, by whom, and what it changed.
public struct ParticularsHistoryState: Screen {
    public let title: String
    /// Oldest first, as the register keeps them; `changedAt` in local time ("" for the register's start).
    public let versions: [ParticularsVersion]
    /// The particulars in force, to name employers and sites.
    let particulars: Particulars
    var top = 0

    public init(title: String, versions: [ParticularsVersion], particulars: Particulars) {
        self.title = title
        self.versions = versions
        self.particulars = particulars
    }

    static let keymap = Keymap<ParticularsHistoryAction>(title: "Particulars history", [
        KeyBinding([.up, .char("k")], label: "↑ k", help: "Scroll up", brief: "scroll", rank: .constant,
                   action: .up),
        KeyBinding([.down, .char("j")], label: "↓ j", help: "Scroll down", footer: "scroll", rank: .constant,
                   action: .down),
        KeyBinding([.pageUp], help: "Page up", rank: .often, action: .pageUp),
        KeyBinding([.pageDown, .char(" ")], label: "PgDn Space", help: "Page down", rank: .often, action: .pageDown),
        .back(.back, to: "particulars"),
        .help(.help),
    ])

    /// Each version as a heading and the changes it made: every value for the first, then what differs.
    func entries() -> [(heading: String, changes: [String])] {
        versions.indices.reversed().map { index in
            let version = versions[index]
            let when = version.changedAt.isEmpty ? "When the register was made" : version.changedAt
            let heading = when + " · " + version.operatorName
            let previous = index > 0 ? versions[index - 1].change : nil
            var changes: [String] = []
            for field in version.change.historyFields {
                let label = ParticularEditorState.label(field, of: version.change)
                let new = shown(field, of: version.change)
                if let previous {
                    let old = shown(field, of: previous)
                    if old != new { changes.append("\(label): \(old) → \(new)") }
                } else {
                    changes.append("\(label): \(new)")
                }
            }
            return (heading, changes.isEmpty ? ["(the same as the version before)"] : changes)
        }
    }

    private func shown(_ field: ParticularField, of change: ParticularsChange) -> String {
        let text = ParticularsText.value(field, of: change, in: particulars)
        return text.isEmpty ? "(empty)" : text
    }

    /// The page as screen rows, wrapped at `width`.
    func rows(width: Int) -> [(String, Style)] {
        var rows: [(String, Style)] = []
        if versions.isEmpty { return [(" No version recorded yet: nothing here has been changed.", .dim)] }
        for entry in entries() {
            rows += Box.wrapped([(" " + entry.heading, .bold)], width: max(1, width))
            for change in entry.changes {
                let characters = Array(change)
                for (n, row) in WrappedText.layout(characters, width: max(1, width - 5)).enumerated() {
                    rows.append(((n == 0 ? "   " : "     ") + String(characters[row.start..<row.end]), .plain))
                }
            }
            rows.append(("", .plain))
        }
        return rows
    }

    static func pageSize(_ area: Rect) -> Int { max(1, area.height - 2) }

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        guard let action = ParticularsHistoryState.keymap.action(for: key) else { return .stay }
        let page = ParticularsHistoryState.pageSize(context.area)
        let last = max(0, rows(width: context.area.width).count - page)
        switch action {
        case .up: top = max(0, top - 1)
        case .down: top = min(last, top + 1)
        case .pageUp: top = max(0, top - page)
        case .pageDown: top = min(last, top + page)
        case .back: return .pop
        case .help: return .help(ParticularsHistoryState.keymap)
        }
        return .stay
    }

    public func draw(into frame: inout Frame, area: Rect) {
        let count = "\(versions.count) version\(versions.count == 1 ? "" : "s")"
        frame.putTitleBar(" History · \(title) · \(count), newest first", state: nil, in: area)
        let page = ParticularsHistoryState.pageSize(area)
        let rows = rows(width: area.width)
        let start = min(top, max(0, rows.count - page))
        for (offset, row) in rows.dropFirst(start).prefix(page).enumerated() {
            frame.put(row.0, x: 0, y: 1 + offset, in: area, style: row.1)
        }
        if area.height > 1 {
            let more = start + page < rows.count ? "↓ more  " : ""
            frame.put(more + ParticularsHistoryState.keymap.footer(width: area.width - more.count), x: 0,
                      y: area.height - 1, in: area, style: .dim)
        }
    }
}
