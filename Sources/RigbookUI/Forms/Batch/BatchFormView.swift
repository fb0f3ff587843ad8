import RigbookCore

/// Draws a batch inspection: its title, the asset list with what each asset's record would hold, then the
/// single form's widgets for the shared values below it.
enum BatchFormView {
    static func draw(_ batch: BatchFormState, into frame: inout Frame, area: Rect) {
        if let child = batch.splitForm {
            child.draw(into: &frame, area: area)
            return
        }
        let form = batch.form
        let width = area.width
        // The single form draws the shared values in the area under the asset list.
        let context = ScreenContext(now: 0, today: batch.today, area: area)
        let inner = BatchFormState.formContext(context, assets: batch.rows.count).area
        FormView.draw(form, into: &frame, area: inner)

        let count = batch.rows.count
        form.drawTitle(" Batch inspection · \(count) asset\(count == 1 ? "" : "s"): \(batch.places) · one record each",
                       into: &frame, area: area)
        let thorough = form.values.inspectionType.isThorough
        let heading = thorough ? "  TAG          NEXT EXAM BY  BASIS (SCHEDULE 1)    REPORT NO."
            : "  TAG          (not a thorough examination: no report number or basis)"
        frame.put(heading, x: 0, y: 1, in: area, style: .bold)
        drawAssets(batch, besides: heading.displayWidth, into: &frame, area: area)

        // The form's own title line names its first asset: it says what the values below are instead.
        if inner.height > 3 {
            frame.fill(y: 0, in: inner, style: .reverse)
            frame.put(" The values below go into every record above", x: 0, y: 0, in: inner, style: .reverse)
        }
        let problems = form.problems.count
        let summary = problems == 0 ? "If saved: \(count) records in one transaction, linked by one visit."
            : "If saved: — \(problems) rule\(problems == 1 ? "" : "s") unmet (⚠ below)."
        // A failed save's reason, drawn by the form, holds the summary's and the footer's rows.
        guard form.saveError == nil else { return }
        frame.fill(y: area.height - 2, in: area, style: .plain)
        frame.put(summary.ellipsized(toWidth: width - 1), x: 1, y: area.height - 2, in: area, style: .bold)
        // A message the single form wrapped over two rows keeps them: it matters more than the summary.
        if let message = form.footerMessage {
            frame.putMessage(message.text, bottom: area.height - 1, maxRows: 2, in: area, style: message.style)
        } else if case .editing = form.mode {
            frame.fill(y: area.height - 1, in: area, style: .plain)
            frame.put(BatchFormState.footerKeymap.footer(width: width), x: 0, y: area.height - 1, in: area,
                      style: .dim)
        }
        form.drawFieldJump(into: &frame, area: area)
    }

    /// The asset rows around the selection, and which show (right of the `heading`'s width, never over it).
    static func drawAssets(_ batch: BatchFormState, besides heading: Int, into frame: inout Frame, area: Rect) {
        let visible = BatchFormState.listRows(assets: batch.rows.count, height: area.height)
        let first = max(0, min(batch.selection - visible / 2, batch.rows.count - visible))
        for offset in 0..<visible {
            let index = first + offset
            guard index < batch.rows.count else { break }
            let y = 2 + offset
            let row = batch.rows[index]
            // Only the rows on screen: a frame's cost does not grow with the batch.
            let outlook = BatchGate.outlook(batch.form.values, member: batch.member(row))
            var line = (index == batch.selection ? "▸ " : "  ") + row.asset.tag.padded(toWidth: 12) + " "
            if outlook.takesReportNumber {
                line += (outlook.nextExaminationBy?.iso ?? "—").padded(toWidth: 12) + "  "
                    + (outlook.basis?.label ?? "—").padded(toWidth: 20) + "  at save"
            } else {
                line += row.asset.name
            }
            frame.put(line, x: 0, y: y, in: area, style: index == batch.selection ? .bold : .plain)
            if outlook.problemCount > 0 {
                let mark = " ⚠ \(outlook.problemCount)"
                frame.put(mark, x: max(0, area.width - mark.displayWidth), y: y, in: area, style: Style(colour: .red))
            }
        }
        guard batch.rows.count > visible else { return }
        let range = "\(first + 1)–\(first + visible)"
        if let text = ["\(range) of \(batch.rows.count) (PgUp PgDn)", "\(range)/\(batch.rows.count)"]
            .first(where: { heading + 2 + $0.displayWidth <= area.width }) {
            frame.put(text, x: area.width - text.displayWidth, y: 1, in: area, style: .dim)
        }
    }
}

extension BatchFormState {
    /// The footer: the batch's keys, then the form's.
    static let footerKeymap = Keymap<FormAction>(
        title: keymap.title,
        [KeyBinding([.ctrl("s")], help: "Save every asset's record in one transaction", footer: "save all",
                    rank: .constant, action: .save),
         KeyBinding([.escape], label: "Esc", help: "Close the batch (asks first if you typed anything)",
                    footer: "close", rank: .often, action: .close),
         KeyBinding([.ctrl("x")], label: "Ctrl-X", help: "Take the selected asset out", footer: "take out",
                    rank: .sometimes, action: .next),
         KeyBinding([.ctrl("t")], label: "Ctrl-T", help: "Split off into its own form", footer: "split off",
                    rank: .sometimes, action: .next),
         KeyBinding([.char(" ")], label: "Space", help: "Tick", footer: "tick", rank: .constant, action: .toggle),
         KeyBinding([.tab], label: "Tab", help: "Next field", footer: "next", rank: .constant, action: .next),
         KeyBinding([.function(1)], label: "F1", help: "Help", footer: "help", rank: .sometimes, action: .help)])

    static var helpLines: [(keys: String, help: String)] {
        keymap.helpLines() + FormState.helpLines
    }

    public func draw(into frame: inout Frame, area: Rect) { BatchFormView.draw(self, into: &frame, area: area) }
}
