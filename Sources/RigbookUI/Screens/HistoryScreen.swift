import Foundation
import RigbookCore

public enum HistoryAction: Sendable { case up, down, open, inspect, amend, certificate, code, scan, back, help }

/// An asset's fields and its inspection records, newest first.
public struct HistoryState: Screen {
    public let row: RegisterRow
    public let records: [StoredInspection]
    public private(set) var today: CalendarDate
    /// The asset's changes, shown among its records by date; they arrive just after the records.
    public private(set) var changes: [AssetChange] = []
    /// The QR code of the asset's label, once the session has made it.
    public private(set) var code: QRMatrix?
    /// An electrical asset's tests, newest first: its history's records, in place of inspections.
    public private(set) var tests: [StoredTest] = []
    /// `Q`: the QR code is shown in place of the records, large enough for a phone to read off the screen.
    public var showsCode = false
    public var selection = 0
    /// The first entry (record or change) on screen.
    var top = 0

    /// The name of the site the asset is on (`Particulars.site(ofAsset:)`, as its certificate names it); empty
    /// when the register does not have it.
    public let site: String

    public init(row: RegisterRow, records: [StoredInspection], today: CalendarDate, site: String = "") {
        self.row = row
        self.records = records
        self.today = today
        self.site = site
    }

    public var selectedRecord: StoredInspection? {
        isTesting || records.isEmpty ? nil : records[min(selection, records.count - 1)]
    }

    /// An electrical asset: its history lists tests, and `i` opens the test form.
    var isTesting: Bool { row.asset.isElectrical }

    public var selectedTest: StoredTest? {
        !isTesting || tests.isEmpty ? nil : tests[min(selection, tests.count - 1)]
    }

    /// How many rows of the table are records (or tests), and each one's date, for the changes among them.
    var recordDates: [String] { isTesting ? tests.map(\.values.testDate) : records.map(\.values.inspectionDate) }

    static let keymap = Keymap<HistoryAction>(title: "Asset history",
                                              KeyBinding.moves(up: .up, "Previous record",
                                                               down: .down, "Next record") + [
        KeyBinding([.enter], help: "Open the record: all 17 fields, when and by whom it was saved", footer: "open",
                   rank: .constant, action: .open),
        KeyBinding([.char("i")], help: "Record a new inspection of this asset", footer: "inspect", rank: .often,
                   action: .inspect),
        KeyBinding([.char("A")], help: "Amend the selected record, or the newest record amending it "
                   + "(a new record; the original stays as it is)", footer: "amend", rank: .sometimes, action: .amend),
        RecordKeys.certificate(.certificate),
        KeyBinding([.char("Q")], help: "Show the QR code of the asset's label, to read with a phone (again: the "
                   + "records)", footer: "QR", rank: .rarely, action: .code),
        .scan(.scan),
        .back(.back, to: "register"),
        .help(.help),
    ])

    /// An electrical asset's history: tests are not amended, so `A` is not offered (pressed, it says why).
    static let testKeymap = Keymap<HistoryAction>(title: "Asset history (electrical)",
                                                  keymap.bindings.filter { $0.action != .amend })

    /// The keys this history offers, in its footer and help.
    var offeredKeymap: Keymap<HistoryAction> { isTesting ? HistoryState.testKeymap : HistoryState.keymap }

    /// Lines above the record table.
    static let headerHeight = 7

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        let height = context.area.height
        guard let action = HistoryState.keymap.action(for: key) else { return .stay }
        switch action {
        case .up: move(by: -1, height: height)
        case .down: move(by: 1, height: height)
        case .open:
            if let test = selectedTest { return .push(TestRecordState(row: row, record: test)) }
            if let record = selectedRecord { return .push(RecordState(row: row, record: record)) }
        case .inspect:
            return .effects([.openForm(assetUUID: row.asset.uuid, amending: nil, recover: false)])
        case .amend where isTesting:
            return .notify(.error("A test is not amended: test the item again (i), a retest if it failed."))
        case .amend:
            guard let record = selectedRecord else { return .notify(.error("There is no record to amend.")) }
            return .effects([.openForm(assetUUID: row.asset.uuid, amending: record, recover: false)])
        case .certificate:
            if let test = selectedTest { return .effects([.printCertificate(.test(testUUID: test.testUUID))]) }
            guard let record = selectedRecord else { return .notify(.error("There is no record to print.")) }
            return .effects([.printCertificate(.inspection(recordUUID: record.recordUUID))])
        case .code:
            guard code != nil else { return .notify(.error("This tag is too long for a QR code.")) }
            showsCode.toggle()
        case .scan: return .push(ScanScreen(opener: key))
        case .back: return .pop
        case .help: return .help(offeredKeymap)
        }
        return .stay
    }

    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        switch event {
        case .dayChanged(let day): today = day
        case .assetChangesLoaded(let uuid, let loaded) where uuid == row.asset.uuid: changes = loaded
        case .labelCodeLoaded(let uuid, let matrix) where uuid == row.asset.uuid: code = matrix
        case .testsLoaded(let uuid, let loaded) where uuid == row.asset.uuid: tests = loaded
        default: return nil
        }
        return .stay
    }

    /// One line of the history: a record (by its index in `records`) or a change of the asset.
    enum Entry { case record(Int), change(AssetChange) }

    /// Records newest first, each change of the asset before the records of its day and older ones.
    var entries: [Entry] {
        var out: [Entry] = []
        var pending = changes.sorted(by: AssetChange.isNewer)[...]
        for (index, date) in recordDates.enumerated() {
            while let change = pending.first, String(change.changedAt.prefix(10)) >= date {
                out.append(.change(change))
                pending = pending.dropFirst()
            }
            out.append(.record(index))
        }
        return out + pending.map(Entry.change)
    }

    /// Chains of amendments with two live heads (amendments of one record made apart, then merged): the
    /// asset's *conflicting amendments*, until an amendment of either head supersedes both.
    var conflictingAmendments: [ConflictingAmendments] { ConflictingAmendments.among(records) }

    /// What the row says of the record's chain: the record that superseded it (it no longer counts), else
    /// the record it amends. `short`: the words shortened (under the AMENDMENT heading, "by #1046", "of #28")
    /// where the whole words would not fit; a record number is never cut.
    static func link(_ record: StoredInspection, short: Bool = false) -> String {
        if let newer = record.supersededBy { return (short ? "by #" : "amended by #") + "\(newer)" }
        // A conflicting amendment that does not stand: the other one, saved later, does.
        if let stands = record.standsInstead { return stands }
        return record.amends.map {
            (short ? "of " : "amends ")
                + ([$0] + record.alsoAmends).map { "#\($0)" }.joined(separator: short ? ", " : " and ")
        } ?? ""
    }

    /// The label's QR code in half blocks under the header, black on white, with the payload beside it.
    func drawCode(_ code: QRMatrix, into frame: inout Frame, area: Rect) {
        let payload = LabelPayload(tag: row.asset.tag, due: row.status(on: today).nextDue).text
        let lines = code.halfBlockLines(quiet: 2)
        let top = HistoryState.headerHeight - 1
        let room = area.height - top - 1
        guard lines.count <= room, (lines.first?.count ?? 0) <= area.width else {
            frame.put("  The QR code needs \(lines.first?.count ?? 0)×\(lines.count + top + 1) characters; this "
                      + "terminal is \(area.width)×\(area.height).", x: 0, y: top, in: area, style: .dim)
            frame.put(offeredKeymap.footer(width: area.width), x: 0, y: area.height - 1, in: area, style: .dim)
            return
        }
        for (offset, line) in lines.enumerated() {
            frame.put(line, x: 2, y: top + offset, in: area, style: Style(colour: .qr))
        }
        let x = 2 + (lines.first?.count ?? 0) + 2
        let notes = ["The label's QR code:", payload, "", "A phone's camera reads it;", "a scanner at # on the list",
                     "jumps here.", "", "Q again: the records."]
        for (offset, note) in notes.enumerated() where x < area.width {
            frame.put(note, x: x, y: top + offset, in: area, style: offset == 1 ? .bold : .plain,
                      maxWidth: area.width - x)
        }
        frame.put(offeredKeymap.footer(width: area.width), x: 0, y: area.height - 1, in: area, style: .dim)
    }

    mutating func move(by delta: Int, height: Int) {
        let count = recordDates.count
        guard count > 0 else { return }
        selection = max(0, min(count - 1, selection + delta))
        let page = max(1, height - HistoryState.headerHeight - 1)
        let shown = entries.firstIndex { if case .record(let i) = $0 { i == selection } else { false } } ?? selection
        if shown < top { top = shown }
        if shown >= top + page { top = shown - page + 1 }
    }

    public func draw(into frame: inout Frame, area: Rect) {
        let a = row.asset
        let report = row.status(on: today)
        frame.fill(y: 0, in: area, style: .reverse)
        frame.put(" \(a.tag) · \(a.name)", x: 0, y: 0, in: area, style: .reverse)
        let status = " \(report.status.label) "
        frame.put(status, x: max(0, area.width - status.count), y: 0, in: area, style: StatusStyle.of(report.status))
        let none = { (text: String) in text.isEmpty ? "—" : text }
        let clientRef = a.clientRef.isEmpty ? "" : " · Client ref \(a.clientRef)"
        // The environment has a line of its own: with the class and interval it passed 80 columns.
        let details = a.electrical.map { e in [
            "Electrical · \(e.equipmentClass.label) · Risk \(e.risk.rawValue) · Every \(a.intervalMonths) months"
                + (e.intervalReason.isEmpty ? "" : " (\(e.intervalReason))") + clientRef,
            "Environment \(e.environment.label)",
            "Site \(none(site)) · Location \(none(a.location)) · Commissioned \(a.commissioned?.iso ?? "—")",
            "Last test \(row.summary.lastThoroughDate?.iso ?? "none") · \(report.explanation)",
        ] } ?? [
            "Type \(a.type.label) · WLL \(Asset.wllText(a.wllKg))"
                + (a.lengthM.map { " · Length \($0.formatted()) m" } ?? "")
                + " · Every \(a.intervalMonths) months" + (a.intervalExceedsLOLER ? " (!)" : "")
                + (a.liftsPersons ? " · Lifts persons" : "")
                + (a.examinationScheme.isEmpty ? "" : " · Scheme \(a.examinationScheme)"),
            "Location \(none(a.location)) · Manufacturer \(none(a.manufacturer)) · Serial \(none(a.serialNumber))"
                + clientRef,
            "Made \(a.manufactured?.iso ?? "unknown") · Commissioned \(a.commissioned?.iso ?? "—")",
            // DO NOT USE says why; a withdrawn asset has no next due date.
            "Last thorough examination \(row.summary.lastThoroughDate?.iso ?? "none") · \(report.explanation)",
        ]
        // The header has a row a line: a line too long for it ends in "…" at a word, never cut mid-word.
        for (index, line) in details.enumerated() {
            frame.put(" " + line.ellipsized(toWidth: area.width - 1), x: 0, y: 1 + index, in: area)
        }
        // Two amendments of one record, made on two machines: the asset is flagged until one supersedes both.
        if let conflict = conflictingAmendments.first {
            frame.put(" " + conflict.warning, x: 0, y: 5, in: area, style: Style(colour: .yellow, bold: true))
        } else if let problem = a.intervalProblem {
        // An interval LOLER reg 9(3) does not allow without a scheme replaces the heading with why.
            frame.put(" ! " + problem, x: 0, y: 5, in: area, style: Style(colour: .yellow, bold: true))
        } else {
            let count = recordDates.count, noun = isTesting ? "test" : "record"
            frame.put(" \(count) \(noun)\(count == 1 ? "" : "s"), newest first", x: 0, y: 5, in: area, style: .bold)
        }
        if showsCode, let code {
            drawCode(code, into: &frame, area: area)
            return
        }
        if isTesting {
            drawTests(into: &frame, area: area)
            return
        }
        // Each record's id is on screen, so "amends #4" and "amended by #14" point at rows one can see.
        let idWidth = max(2, records.map { "#\($0.id)".count }.max() ?? 0)
        // The columns before AMENDMENT; its words shorten rather than its record numbers being cut.
        let before = 2 + idWidth + 2 + 10 + 2 + 19 + 2 + 22 + 2
        var links = records.map { HistoryState.link($0) }
        if before + (links.map(\.count).max() ?? 0) > area.width {
            links = records.map { HistoryState.link($0, short: true) }
        }
        let linkWidth = links.contains { !$0.isEmpty } ? max(9, links.map(\.count).max() ?? 0) : 0
        func line(_ id: String, _ date: String, _ type: String, _ result: String, _ link: String,
                  _ inspector: String) -> String {
            var text = "  " + id.padded(toWidth: idWidth) + "  " + date.padded(toWidth: 10)
            text += "  " + type.padded(toWidth: 19) + "  " + result.padded(toWidth: 22) + "  "
            if linkWidth > 0 { text += link.padded(toWidth: linkWidth) + "  " }
            return text + inspector
        }
        frame.put(line("ID", "DATE", "TYPE", "RESULT", "AMENDMENT", "INSPECTOR"), x: 0, y: 6, in: area, style: .bold)
        if records.isEmpty {
            frame.put("  No inspection recorded yet. Press i to record one.", x: 0, y: 7, in: area, style: .dim)
        }
        let page = max(1, area.height - HistoryState.headerHeight - 1)
        for (offset, entry) in entries.dropFirst(top).prefix(page).enumerated() {
            let y = HistoryState.headerHeight + offset + (records.isEmpty ? 1 : 0)
            guard case .record(let index) = entry else {
                // A change of the asset: who changed what, and why.
                if case .change(let change) = entry {
                    let text = "  " + "·".padded(toWidth: idWidth) + "  " + String(change.changedAt.prefix(10))
                        + "  changed " + change.summary + " — " + change.reason + " (\(change.operatorName))"
                    frame.put(text, x: 0, y: y, in: area, style: Style(colour: .cyan))
                }
                continue
            }
            let record = records[index]
            let v = record.values
            let typeText = v.inspectionType.label.replacingOccurrences(of: "Thorough examination", with: "Thorough")
            let text = line("#\(record.id)", v.inspectionDate, typeText, v.result?.label ?? "—", links[index],
                            v.inspectorName)
            // A superseded or outranked record is dimmed: the record that stands speaks for it.
            frame.put(text, x: 0, y: y, in: area, style: record.counts ? .plain : .dim)
            if index == selection { frame.restyle(y: y, in: area) { $0.reverse.toggle() } }
        }
        frame.put(offeredKeymap.footer(width: area.width), x: 0, y: area.height - 1, in: area, style: .dim)
    }
}

extension HistoryState {
    /// An electrical asset's tests in the table (and its changes among them): Enter opens one in full.
    func drawTests(into frame: inout Frame, area: Rect) {
        let idWidth = max(2, tests.map { "#\($0.id)".count }.max() ?? 0)
        func line(_ id: String, _ date: String, _ type: String, _ result: String, _ technician: String) -> String {
            "  " + id.padded(toWidth: idWidth) + "  " + date.padded(toWidth: 10) + "  " + type.padded(toWidth: 23)
                + "  " + result.padded(toWidth: 6) + "  " + technician
        }
        frame.put(line("ID", "DATE", "TYPE", "RESULT", "TECHNICIAN"), x: 0, y: 6, in: area, style: .bold)
        if tests.isEmpty {
            frame.put("  No test recorded yet. Press i to test it.", x: 0, y: 7, in: area, style: .dim)
        }
        let page = max(1, area.height - HistoryState.headerHeight - 1)
        for (offset, entry) in entries.dropFirst(top).prefix(page).enumerated() {
            let y = HistoryState.headerHeight + offset + (tests.isEmpty ? 1 : 0)
            switch entry {
            case .change(let change):
                let text = "  " + "·".padded(toWidth: idWidth) + "  " + String(change.changedAt.prefix(10))
                    + "  changed " + change.summary + " — " + change.reason + " (\(change.operatorName))"
                frame.put(text, x: 0, y: y, in: area, style: Style(colour: .cyan))
            case .record(let index):
                let test = tests[index]
                frame.put(line("#\(test.id)", test.values.testDate, test.values.testType.label,
                               test.passed ? "PASS" : "FAIL", test.values.technician), x: 0, y: y, in: area,
                          style: test.passed ? .plain : Style(colour: .red))
                if index == selection { frame.restyle(y: y, in: area) { $0.reverse.toggle() } }
            }
        }
        frame.put(offeredKeymap.footer(width: area.width), x: 0, y: area.height - 1, in: area, style: .dim)
    }
}
