import Foundation
import RigbookCore

public enum RecordAction: Sendable { case up, down, amend, certificate, scan, back, help }

/// One kind of saved record as the record viewer shows it: its keys, its title and its rows of label and value.
/// The viewer does the rest (scrolling, wrapping, drawing), so every kind of record reads and scrolls alike.
public protocol RecordSheet: Sendable {
    associatedtype Record: Sendable
    /// The viewer's keys: `RecordKeys.keymap` with what this kind adds between scrolling and back.
    static var keymap: Keymap<RecordAction> { get }
    init(row: RegisterRow, record: Record)
    /// The top line, drawn reversed.
    var title: String { get }
    /// The fields in order, label and value; a value may hold line breaks and wraps under its label.
    var lines: [(String, String)] { get }
    /// How a display row's value is drawn; `index` counts wrapped rows from the first, scrolled or not.
    func valueStyle(_ value: String, index: Int) -> Style
    /// What A does where the keymap binds `.amend`.
    func amend() -> Outcome
    /// The record P prints the certificate of.
    var printed: PrintedRecord { get }
}

extension RecordSheet {
    public func valueStyle(_ value: String, index: Int) -> Style { .plain }
    /// A kind whose keymap binds no A is never asked.
    public func amend() -> Outcome { .stay }
}

enum RecordKeys {
    /// Scrolling first and back and help last on every kind of record, so the footer reads the same on each.
    static func keymap(title: String, _ kindKeys: [KeyBinding<RecordAction>] = []) -> Keymap<RecordAction> {
        Keymap(title: title, KeyBinding.moves(up: .up, "Scroll up", down: .down, "Scroll down", footer: "scroll")
               + kindKeys + [certificate(.certificate), .back(.back, to: "history"), .help(.help)])
    }

    /// P: the record's certificate as PDF, on the record and on the history list alike.
    static func certificate<Action>(_ action: Action) -> KeyBinding<Action> {
        KeyBinding([.char("P")], help: "Write this record's certificate as PDF into Documents/Certificates",
                   footer: "PDF", brief: "certificate as PDF", rank: .often, action: action)
    }
}

/// One saved inspection record in full.
public typealias RecordState = RecordViewer<InspectionRecordSheet>
/// One saved electrical test in full: every field, each reading with its verdict, who saved it.
public typealias TestRecordState = RecordViewer<TestRecordSheet>

/// One saved record in full, one field a row, scrolled with ↑ and ↓.
public struct RecordViewer<Sheet: RecordSheet>: Screen {
    let sheet: Sheet
    var top = 0

    init(row: RegisterRow, record: Sheet.Record) {
        sheet = Sheet(row: row, record: record)
    }

    static var keymap: Keymap<RecordAction> { Sheet.keymap }

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        guard let action = Sheet.keymap.action(for: key) else { return .stay }
        let area = context.area
        switch action {
        case .up: top = max(0, top - 1)
        case .down: top = min(max(0, rows(width: area.width).count - (area.height - 2)), top + 1)
        case .amend: return sheet.amend()
        case .certificate: return .effects([.printCertificate(sheet.printed)])
        case .scan: return .push(ScanScreen(opener: key))
        case .back: return .pop
        case .help: return .help(Sheet.keymap)
        }
        return .stay
    }

    /// The record's fields as display rows: long values wrap under their label.
    func rows(width: Int) -> [(label: String, value: String)] {
        let labelWidth = min(24, width / 2)
        let valueWidth = max(8, width - labelWidth - 2)
        var rows: [(String, String)] = []
        for (label, value) in sheet.lines {
            let paragraphs = value.split(separator: "\n", omittingEmptySubsequences: false)
            let wrapped = paragraphs.flatMap { paragraph -> [String] in
                let characters = Array(paragraph)
                return WrappedText.layout(characters, width: valueWidth).map { String(characters[$0.start..<$0.end]) }
            }
            for (index, part) in wrapped.enumerated() { rows.append((index == 0 ? label : "", part)) }
        }
        return rows
    }

    public func draw(into frame: inout Frame, area: Rect) {
        frame.fill(y: 0, in: area, style: .reverse)
        frame.put(sheet.title, x: 0, y: 0, in: area, style: .reverse)
        let labelWidth = min(24, area.width / 2)
        for (offset, row) in rows(width: area.width).dropFirst(top).prefix(area.height - 2).enumerated() {
            frame.put(" " + row.label, x: 0, y: 1 + offset, in: area, style: .bold, maxWidth: labelWidth)
            frame.put(row.value, x: labelWidth + 1, y: 1 + offset, in: area,
                      style: sheet.valueStyle(row.value, index: offset + top))
        }
        frame.put(Sheet.keymap.footer(width: area.width), x: 0, y: area.height - 1, in: area, style: .dim)
    }
}
