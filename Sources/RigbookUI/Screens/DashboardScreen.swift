import RigbookCore

public enum DashboardAction: Sendable { case back, help }

/// Counts per status and the next 12 weeks of due dates, drawn with block characters (Tab from the
/// list). Worked out once when opened, from the same status function as everything else.
public struct DashboardState: Screen {
    public let counts: [AssetStatus: Int]
    public let total: Int
    public let weeks: [Int]
    public let today: CalendarDate
    /// Electrical items among the assets, and how many of them need attention: their tests count
    /// in the statuses and the weeks like thorough examinations.
    public let electrical: Int
    public let electricalAttention: Int

    public init(list: ListState, today: CalendarDate) {
        counts = list.counts
        total = list.rows.count
        weeks = DueForecast.weeks(list.rows, today: today, count: 12)
        self.today = today
        var electrical = 0, attention = 0
        for (row, report) in zip(list.rows, list.reports) where row.asset.isElectrical {
            electrical += 1
            if report.status.needsAttention { attention += 1 }
        }
        self.electrical = electrical
        electricalAttention = attention
    }

    static let keymap = Keymap<DashboardAction>(title: "Dashboard", [
        KeyBinding([.tab, .escape, .char("q"), .ctrl("c")], label: "Tab Esc q",
                   help: "Back to the register (Ctrl-C too)", footer: "back", rank: .constant, action: .back),
        .help(.help),
    ])

    /// Eighths of a cell, for bars that grow smoothly.
    static let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        switch DashboardState.keymap.action(for: key) {
        case .back: .pop
        case .help: .help(DashboardState.keymap)
        case nil: .stay
        }
    }

    public func draw(into frame: inout Frame, area: Rect) {
        // The chart gets everything above the footer row, and is cut there on a short terminal.
        let chart = area.inset(bottom: 1)
        let kinds = electrical == 0 ? "" : " (\(total - electrical) lifting, \(electrical) electrical)"
        frame.putTitleBar(" Dashboard · \(total) assets\(kinds) · as of \(today.iso)", state: nil, in: chart)
        // Counts, with a horizontal bar scaled to the largest.
        let largest = max(1, counts.values.max() ?? 1)
        let barWidth = max(0, chart.width - 24)
        for (index, status) in AssetStatus.active.enumerated() {
            let y = 2 + index
            let count = counts[status] ?? 0
            frame.put(" " + status.label.padded(toWidth: 12), x: 0, y: y, in: chart, style: StatusStyle.of(status))
            frame.put(String(count).padded(toWidth: 7, alignRight: true), x: 13, y: y, in: chart)
            let eighths = count == 0 ? 0 : max(1, count * barWidth * 8 / largest)
            let partialBlock = eighths % 8 > 0 ? String(DashboardState.blocks[eighths % 8]) : ""
            let bar = String(repeating: "█", count: eighths / 8) + partialBlock
            frame.put(bar, x: 22, y: y, in: chart, style: Style(colour: StatusStyle.of(status).colour))
        }
        // Due per week: vertical bars, one column group per week.
        let top = 2 + AssetStatus.active.count + 1
        let what = electrical == 0 ? "" : " (examinations and tests)"
        frame.put(" Falling due per week, next 12 weeks\(what)", x: 0, y: top, in: chart, style: .bold)
        if electrical > 0 {
            let line = " Electrical: \(electricalAttention) of \(electrical) need attention"
            frame.put(line, x: 0, y: 2 + AssetStatus.active.count, in: chart, style: .dim)
        }
        let chartHeight = max(1, min(8, chart.height - top - 4))
        let column = max(2, min(6, (chart.width - 8) / 12))
        let peak = max(1, weeks.max() ?? 1)
        for (week, count) in weeks.enumerated() {
            let x = 6 + week * column
            guard x + column - 1 <= chart.width else { break }
            let eighths = count == 0 ? 0 : max(1, count * chartHeight * 8 / peak)
            for level in 0..<chartHeight {
                let filled = eighths - level * 8
                let block = filled >= 8 ? "█" : filled > 0 ? String(DashboardState.blocks[filled]) : " "
                frame.put(String(repeating: block, count: column - 1), x: x, y: top + chartHeight - level, in: chart)
            }
            frame.put(String(count).padded(toWidth: column - 1, alignRight: false),
                      x: x, y: top + chartHeight + 1, in: chart, style: .bold)
            let start = DueForecast.weekStart(week, today: today)
            let label = column >= 6 ? String(start.iso.dropFirst(5)) : String(start.day)
            frame.put(label, x: x, y: top + chartHeight + 2, in: chart, style: .dim, maxWidth: column - 1)
        }
        frame.put("wk", x: 1, y: top + chartHeight + 2, in: chart, style: .dim)
        frame.put(DashboardState.keymap.footer(width: area.width), x: 0, y: area.height - 1, in: area, style: .dim)
    }
}
