import Foundation
import RigbookCore

public enum HistoryAction: Sendable { case up, down, open, inspect, amend, back, help }

/// An asset's fields and its inspection records, newest first.
public struct HistoryState: Sendable {
    public let row: RegisterRow
    public let records: [StoredInspection]
    public let today: CalendarDate
    public var selection = 0
    var top = 0

    public init(row: RegisterRow, records: [StoredInspection], today: CalendarDate) {
        self.row = row
        self.records = records
        self.today = today
    }

    public var selectedRecord: StoredInspection? { records.isEmpty ? nil : records[min(selection, records.count - 1)] }

    static let keymap = Keymap<HistoryAction>(title: "Asset history", [
        KeyBinding([.up, .char("k")], label: "↑ k", help: "Previous record", action: .up),
        KeyBinding([.down, .char("j")], label: "↓ j", help: "Next record", footer: "move", action: .down),
        KeyBinding([.enter], help: "Open the record: all 17 fields, when and by whom it was saved", footer: "open", action: .open),
        KeyBinding([.char("i")], help: "Record a new inspection of this asset", footer: "inspect", action: .inspect),
        KeyBinding([.char("A")], help: "Amend the selected record (a new record; the original stays as it is)", footer: "amend", action: .amend),
        KeyBinding([.escape, .char("q")], label: "Esc q", help: "Back to the register", footer: "back", action: .back),
        KeyBinding([.char("?"), .function(1)], label: "? F1", help: "This help", footer: "help", action: .help),
    ])

    /// Lines above the record table.
    static let headerHeight = 7

    mutating func move(by delta: Int, height: Int) {
        guard !records.isEmpty else { return }
        selection = max(0, min(records.count - 1, selection + delta))
        let page = max(1, height - HistoryState.headerHeight - 1)
        if selection < top { top = selection }
        if selection >= top + page { top = selection - page + 1 }
    }

    func draw(into frame: inout Frame) {
        let a = row.asset
        let report = row.status(on: today)
        frame.fill(y: 0, style: .reverse)
        frame.put(" \(a.tag) · \(a.name)", x: 0, y: 0, style: .reverse)
        let status = " \(report.status.label) "
        frame.put(status, x: max(0, frame.width - status.count), y: 0, style: StatusStyle.of(report.status))
        let details = [
            "Type \(a.type.label) · WLL \(Asset.wllText(a.wllKg))" + (a.lengthM.map { " · Length \($0.formatted()) m" } ?? "")
                + " · Every \(a.intervalMonths) months" + (a.liftsPersons ? " · Lifts persons" : ""),
            "Location \(a.location.isEmpty ? "—" : a.location) · Manufacturer \(a.manufacturer.isEmpty ? "—" : a.manufacturer) · Serial \(a.serialNumber.isEmpty ? "—" : a.serialNumber)",
            "Made \(a.manufactured?.iso ?? "unknown") · Commissioned \(a.commissioned?.iso ?? "—")",
            "Last thorough examination \(row.summary.lastThoroughDate?.iso ?? "none") · Next due \(report.nextDue?.iso ?? "—")"
                + (report.remedyDeadline.map { " · Remedy by \($0.iso)" } ?? ""),
        ]
        for (index, line) in details.enumerated() { frame.put(" " + line, x: 0, y: 1 + index) }
        let heading = " \(records.count) record\(records.count == 1 ? "" : "s"), newest first"
        frame.put(heading, x: 0, y: 5, style: .bold)
        let columns = "  DATE        TYPE                 RESULT                  INSPECTOR"
        frame.put(columns, x: 0, y: 6, style: .bold)
        if records.isEmpty {
            frame.put("  No inspection recorded yet. Press i to record one.", x: 0, y: 7, style: .dim)
        }
        let page = max(1, frame.height - HistoryState.headerHeight - 1)
        for (offset, record) in records.dropFirst(top).prefix(page).enumerated() {
            let y = HistoryState.headerHeight + offset
            let v = record.values
            let typeText = v.inspectionType.label.replacingOccurrences(of: "Thorough examination", with: "Thorough")
            var line = "  " + v.inspectionDate.padded(toWidth: 10) + "  " + typeText.padded(toWidth: 19) + "  "
                + (v.result?.label ?? "—").padded(toWidth: 22) + "  " + v.inspectorName
            if let amends = record.amends { line += "  (amends #\(amends))" }
            frame.put(line, x: 0, y: y)
            if top + offset == selection { frame.restyle(y: y) { $0.reverse.toggle() } }
        }
        frame.put(HistoryState.keymap.footer(width: frame.width), x: 0, y: frame.height - 1, style: .dim)
    }
}

public enum RecordAction: Sendable { case up, down, amend, back, help }

/// One saved record in full.
public struct RecordState: Sendable {
    public let row: RegisterRow
    public let record: StoredInspection
    var top = 0

    static let keymap = Keymap<RecordAction>(title: "Inspection record", [
        KeyBinding([.up, .char("k")], label: "↑ k", help: "Scroll up", action: .up),
        KeyBinding([.down, .char("j")], label: "↓ j", help: "Scroll down", footer: "scroll", action: .down),
        KeyBinding([.char("A")], help: "Amend this record (a new record; this one stays as it is)", footer: "amend", action: .amend),
        KeyBinding([.escape, .char("q")], label: "Esc q", help: "Back to the history", footer: "back", action: .back),
        KeyBinding([.char("?"), .function(1)], label: "? F1", help: "This help", footer: "help", action: .help),
    ])

    var lines: [(String, String)] {
        let v = record.values
        func tick(_ flag: Bool) -> String { flag ? "yes" : "no" }
        return [
            (FormField.inspectionType.shortLabel, v.inspectionType.label),
            (FormField.inspectorName.shortLabel, v.inspectorName),
            (FormField.certificationNumber.shortLabel, v.certificationNumber),
            (FormField.checkMarking.briefLabel, tick(v.checkMarking)),
            (FormField.checkCuts.briefLabel, tick(v.checkCuts)),
            (FormField.checkDeformation.briefLabel, tick(v.checkDeformation)),
            (FormField.checkFittings.briefLabel, tick(v.checkFittings)),
            (FormField.checkCorrosion.briefLabel, tick(v.checkCorrosion)),
            (FormField.result.shortLabel, v.result?.label ?? "—"),
            (FormField.notes.shortLabel, v.notes.isEmpty ? "—" : v.notes),
            (FormField.schemeReference.shortLabel, v.schemeReference.isEmpty ? "—" : v.schemeReference),
            (FormField.defectDescription.shortLabel, v.defectDescription.isEmpty ? "—" : v.defectDescription),
            (FormField.action.shortLabel, v.action.label),
            (FormField.remedyDeadlineSet.shortLabel, tick(v.remedyDeadlineSet)),
            (FormField.remedyDeadline.shortLabel, v.remedyDeadline.isEmpty ? "—" : v.remedyDeadline),
            (FormField.inspectionDate.shortLabel, v.inspectionDate),
            (FormField.confirmed.briefLabel, tick(v.confirmed)),
            ("Saved at", record.savedAt),
            ("Saved by (operator)", record.operatorName),
            ("Rigbook version", record.appVersion),
            ("WLL and location then", "\(Asset.wllText(record.assetWLLKg)) · \(record.assetLocation.isEmpty ? "—" : record.assetLocation)"),
            ("Draft id", record.draftID),
        ] + (record.amends.map { [("Amends record", "#\($0)")] } ?? [])
    }

    /// The record's fields as display rows: long values wrap under their label.
    func rows(width: Int) -> [(label: String, value: String)] {
        let labelWidth = min(24, width / 2)
        let valueWidth = max(8, width - labelWidth - 2)
        var rows: [(String, String)] = []
        for (label, value) in lines {
            let wrapped = value.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph -> [String] in
                let characters = Array(paragraph)
                return WrappedText.layout(characters, width: valueWidth).map { String(characters[$0.start..<$0.end]) }
            }
            for (index, part) in wrapped.enumerated() { rows.append((index == 0 ? label : "", part)) }
        }
        return rows
    }

    func draw(into frame: inout Frame) {
        frame.fill(y: 0, style: .reverse)
        frame.put(" Record #\(record.id) · \(row.asset.tag) · \(record.values.inspectionDate)", x: 0, y: 0, style: .reverse)
        let labelWidth = min(24, frame.width / 2)
        for (offset, row) in rows(width: frame.width).dropFirst(top).prefix(frame.height - 2).enumerated() {
            frame.put(" " + row.label, x: 0, y: 1 + offset, style: .bold, maxWidth: labelWidth)
            frame.put(row.value, x: labelWidth + 1, y: 1 + offset)
        }
        frame.put(RecordState.keymap.footer(width: frame.width), x: 0, y: frame.height - 1, style: .dim)
    }
}
