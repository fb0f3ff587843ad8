/// The last rows of a form when a save failed: why, in full, wrapped at word boundaries (a reason such as
/// a read-only register's was cut at 80 columns on the one footer line). It takes the footer's row and the
/// *If saved* preview's above it, and rows of the body beyond those when it needs more: the body is that much
/// shorter meanwhile, so the focused field stays in view. A change of the values clears it, as before.
enum FormFooter {
    /// The reason's rows at `width` columns (none when no save failed).
    static func saveFailureRows(_ reason: String?, width: Int) -> [String] {
        guard let reason else { return [] }
        return ("Not saved: " + reason).wrapped(toWidth: max(8, width))
    }

    /// Rows the reason takes from the body: those beyond the preview's and the footer's.
    static func bodyRowsTaken(_ reason: String?, width: Int) -> Int {
        max(0, saveFailureRows(reason, width: width).count - 2)
    }

    /// Draws the reason over the last rows of `area`; false (nothing drawn) when no save failed.
    static func drawSaveFailure(_ reason: String?, in area: Rect, into frame: inout Frame) -> Bool {
        let rows = saveFailureRows(reason, width: area.width)
        guard !rows.isEmpty else { return false }
        let top = max(1, area.height - max(2, rows.count))
        for (offset, row) in rows.suffix(area.height - top).enumerated() {
            frame.fill(y: top + offset, in: area, style: .plain)
            frame.put(row, x: 0, y: top + offset, in: area, style: Style(colour: .red, bold: true))
        }
        return true
    }
}
