import Foundation
import RigbookCore

public enum SettingsAction: Sendable {
    case up, down, pageUp, pageDown, top, bottom, edit, addEmployer, addSite, addExaminer, history, back, help, setUp
}

/// The register's particulars (`,` from the list): the examining organisation, the employers with their
/// sites, and the examiners. Each is edited in its own editor; every change is a new version in the register.
public struct SettingsState: Screen {
    public enum Row: Sendable, Equatable {
        case organisation
        /// The electrical test limits: kept in the organisation's particulars, shown in a section of their own.
        case testLimits
        case employer(UUID)
        case site(UUID)
        case addSite(employer: UUID)
        case addEmployer
        case examiner(UUID)
        case addExaminer
    }

    /// One line of the page: a section heading or a row.
    enum Line: Equatable {
        case heading(String)
        case row(Row)
    }

    public private(set) var particulars: Particulars
    /// Index into `rows`.
    public private(set) var selection = 0
    /// First line shown.
    var top = 0

    public init(particulars: Particulars) { self.particulars = particulars }

    /// The footer leaves moving out (↑ ↓ are obvious) so that adding each kind fits at 80 columns.
    static let keymap = Keymap<SettingsAction>(title: "Settings", [
        KeyBinding([.up, .char("k")], label: "↑ k", help: "Previous item", brief: "move", rank: .constant,
                   action: .up),
        KeyBinding([.down, .char("j")], label: "↓ j", help: "Next item", brief: "move", rank: .constant, action: .down),
        KeyBinding([.pageUp], help: "Page up", rank: .sometimes, action: .pageUp),
        KeyBinding([.pageDown, .char(" ")], label: "PgDn Space", help: "Page down", rank: .sometimes,
                   action: .pageDown),
        KeyBinding([.home, .char("g")], label: "Home g", help: "First item", rank: .sometimes, action: .top),
        KeyBinding([.end, .char("G")], label: "End G", help: "Last item", rank: .sometimes, action: .bottom),
        KeyBinding([.enter], help: "Edit the selected item (on a + line: add one)", footer: "edit", rank: .constant,
                   action: .edit),
        KeyBinding([.char("e")], help: "Add an employer (a client the examinations are made for)",
                   footer: "+employer", brief: "add an employer", rank: .often, action: .addEmployer),
        KeyBinding([.char("s")], help: "Add a site (premises) to the selected employer", footer: "+site",
                   brief: "add a site", rank: .often, action: .addSite),
        KeyBinding([.char("x")], help: "Add an examiner (a competent person who makes reports)", footer: "+examiner",
                   brief: "add an examiner", rank: .often, action: .addExaminer),
        KeyBinding([.char("h")], help: "History of the selected item: every version, when and by whom",
                   footer: "history", rank: .sometimes, action: .history),
        KeyBinding([.char("u")], help: "Set up the register in one screen: the main employer, its site, an examiner",
                   brief: "set up this register", rank: .sometimes, action: .setUp),
        .back(.back, to: "register"),
        .help(.help),
    ])

    // MARK: Rows

    /// Sites of `employer`, by name.
    func sites(of employer: UUID) -> [Site] { particulars.siteList.filter { $0.employerUUID == employer } }

    var lines: [Line] {
        var lines: [Line] = [.heading("Examining organisation"), .row(.organisation),
                             .heading("Employers and their sites")]
        for employer in particulars.employerList {
            lines.append(.row(.employer(employer.uuid)))
            lines += sites(of: employer.uuid).map { .row(.site($0.uuid)) }
            lines.append(.row(.addSite(employer: employer.uuid)))
        }
        // A merged or damaged register could hold a site whose employer it lacks: shown, never hidden.
        lines += particulars.siteList.filter { particulars.employers[$0.employerUUID] == nil }
            .map { .row(.site($0.uuid)) }
        lines += [.row(.addEmployer), .heading("Electrical test limits (AS/NZS 3760)"), .row(.testLimits),
                  .heading("Examiners")]
        return lines + particulars.examinerList.map { .row(.examiner($0.uuid)) } + [.row(.addExaminer)]
    }

    var rows: [Row] { lines.compactMap { if case .row(let row) = $0 { row } else { nil } } }

    public var selectedRow: Row { let rows = rows; return rows[min(selection, rows.count - 1)] }

    /// The version in force of what `row` shows, if it shows one.
    func change(for row: Row) -> ParticularsChange? {
        switch row {
        case .organisation, .testLimits: .organisation(particulars.organisation)
        case .employer(let uuid): particulars.employers[uuid].map(ParticularsChange.employer)
        case .site(let uuid): particulars.sites[uuid].map(ParticularsChange.site)
        case .examiner(let uuid): particulars.examiners[uuid].map(ParticularsChange.examiner)
        case .addSite, .addEmployer, .addExaminer: nil
        }
    }

    /// The employer a new site goes to: the selected employer, or the employer of the selected site, else
    /// the first.
    var employerForNewSite: UUID? {
        switch selectedRow {
        case .employer(let uuid), .addSite(let uuid): return uuid
        case .site(let uuid): return particulars.sites[uuid]?.employerUUID
        default:
            let main = Particulars.mainEmployerUUID
            return particulars.employers[main] != nil ? main : particulars.employerList.first?.uuid
        }
    }

    // MARK: Keys

    /// Rows of the details of the selected item, above the footer, when the terminal has room for them.
    static func detailsHeight(_ area: Rect) -> Int { area.height >= 16 ? 7 : 0 }

    /// Rows of the page between the title and the details (or the footer).
    static func pageSize(_ area: Rect) -> Int { max(1, area.height - 2 - detailsHeight(area)) }

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        guard let action = SettingsState.keymap.action(for: key) else { return .stay }
        let page = SettingsState.pageSize(context.area)
        let count = rows.count
        switch action {
        case .up: selection = max(0, selection - 1)
        case .down: selection = min(count - 1, selection + 1)
        case .pageUp: selection = max(0, selection - page)
        case .pageDown: selection = min(count - 1, selection + page)
        case .top: selection = 0
        case .bottom: selection = count - 1
        case .edit: return edit(selectedRow)
        case .addEmployer: return edit(.addEmployer)
        case .addSite:
            guard let employer = employerForNewSite else { return .notify(.error("Add an employer first.")) }
            return edit(.addSite(employer: employer))
        case .addExaminer: return edit(.addExaminer)
        case .setUp: return .push(SetUpState(particulars: particulars))
        case .history:
            guard let change = change(for: selectedRow) else {
                return .notify(.error("Select an organisation, employer, site or examiner to see its history."))
            }
            let title = selectedRow == .testLimits ? "Electrical test limits (in the organisation's history)"
                : ParticularsText.title(of: change, in: particulars)
            return .effects([.openParticularsHistory(subject: change.subject, title: title)])
        case .back: return .pop
        case .help: return .help(SettingsState.keymap)
        }
        scrollToSelection(page: page)
        return .stay
    }

    /// Opens the editor of the row's particular, or of a new one for a + row.
    func edit(_ row: Row) -> Outcome {
        let change: ParticularsChange
        switch row {
        case .addEmployer: change = .employer(Employer(name: ""))
        case .addSite(let employer): change = .site(Site(employerUUID: employer, name: ""))
        case .addExaminer: change = .examiner(Examiner(name: ""))
        case .testLimits: return .push(ParticularEditorState(limitsOf: particulars))
        default:
            guard let current = self.change(for: row) else { return .stay }
            change = current
        }
        let isNew = self.change(for: row) == nil
        return .push(ParticularEditorState(editing: change, isNew: isNew, particulars: particulars))
    }

    mutating func scrollToSelection(page: Int) {
        let lines = lines
        let selected = selectedRow
        guard let line = lines.firstIndex(of: .row(selected)) else { return }
        // Keep a section's heading in view with its first row.
        let first = line > 0 && isHeading(lines[line - 1]) ? line - 1 : line
        if first < top { top = first }
        if line >= top + page { top = line - page + 1 }
        top = max(0, min(top, max(0, lines.count - page)))
    }

    private func isHeading(_ line: Line) -> Bool { if case .heading = line { true } else { false } }

    // MARK: Results

    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        switch event {
        case .settingsLoaded(let fresh):
            particulars = fresh
        case .particularsRecorded(let change, _, _, let fresh):
            particulars = fresh
            // The selection follows what was just saved (a new employer lands wherever its name sorts); the
            // organisation's two rows (its name, its test limits) are one subject, so the selected one stays.
            if self.change(for: selectedRow)?.subject != change.subject,
               let index = rows.firstIndex(where: { self.change(for: $0)?.subject == change.subject }) {
                selection = index
            }
        default:
            return nil
        }
        selection = min(selection, rows.count - 1)
        scrollToSelection(page: SettingsState.pageSize(context.area))
        return .stay
    }

    public mutating func resized(context: ScreenContext) {
        scrollToSelection(page: SettingsState.pageSize(context.area))
    }

    // MARK: Drawing

    public func draw(into frame: inout Frame, area: Rect) {
        let title = area.width >= 60 ? " Settings · the register's particulars (LOLER Schedule 1)" : " Settings"
        frame.putTitleBar(title, state: nil, in: area)
        let lines = lines
        let page = SettingsState.pageSize(area)
        // Drawing never trusts a stale scroll position (the terminal may have shrunk since).
        var start = min(top, max(0, lines.count - page))
        if let selected = lines.firstIndex(of: .row(selectedRow)) {
            start = min(start, selected)
            if selected >= start + page { start = selected - page + 1 }
        }
        for (offset, line) in lines.dropFirst(start).prefix(page).enumerated() {
            let y = 1 + offset
            switch line {
            case .heading(let text):
                frame.put(" " + text.uppercased(), x: 0, y: y, in: area, style: Style(bold: true, underline: true))
            case .row(let row):
                drawRow(row, y: y, into: &frame, area: area)
                if row == selectedRow { frame.restyle(y: y, in: area) { $0.reverse.toggle() } }
            }
        }
        if lines.count - start > page { frame.put("↓", x: area.width - 1, y: page, in: area, style: .dim) }
        if start > 0 { frame.put("↑", x: area.width - 1, y: 1, in: area, style: .dim) }
        let detailsHeight = SettingsState.detailsHeight(area)
        if detailsHeight > 0 {
            let top = area.height - 1 - detailsHeight
            frame.put(String(repeating: "─", count: area.width), x: 0, y: top, in: area, style: .dim)
            for (offset, line) in details(width: area.width).prefix(detailsHeight - 1).enumerated() {
                frame.put(line.0, x: 0, y: top + 1 + offset, in: area, style: line.1)
            }
        }
        if area.height > 1 {
            frame.put(SettingsState.keymap.footer(width: area.width), x: 0, y: area.height - 1, in: area, style: .dim)
        }
    }

    /// The selected item in full (addresses line by line) and what a report still needs of it.
    func details(width: Int) -> [(String, Style)] {
        var lines: [(String, Style)] = []
        let missing = Style(colour: .yellow)
        func field(_ label: String, _ text: String, needed: Bool = false) {
            let parts = text.trimmed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if text.trimmed.isEmpty {
                lines.append((" \(label): " + (needed ? "not set; a thorough examination needs it" : "—"),
                              needed ? missing : .plain))
                return
            }
            for (index, part) in parts.enumerated() {
                lines.append(((index == 0 ? " \(label): " : String(repeating: " ", count: label.count + 3)) + part,
                              .plain))
            }
        }
        switch selectedRow {
        case .organisation:
            lines.append((" The examiners' employer, named on every report (Schedule 1 item 9)", .bold))
            field("Name", particulars.organisation.name)
            field("Address", particulars.organisation.address)
        case .testLimits:
            let limits = particulars.organisation.testLimits
            lines.append((" What an electrical test's readings are judged by; a saved test keeps its own", .bold))
            field("Earth continuity", "≤ \(limits.text(of: .earthContinuityMaxOhm)) Ω · insulation resistance ≥ "
                  + "\(limits.text(of: .insulationMinMOhm)) MΩ")
            field("Leakage current", "≤ \(limits.text(of: .leakageMaxMAClassI)) mA Class I, ≤ "
                  + "\(limits.text(of: .leakageMaxMAOther)) mA other classes")
            field("RCD trip time", "≤ \(limits.text(of: .rcdTripMaxMsTypeII)) ms Type II (30 mA), ≤ "
                  + "\(limits.text(of: .rcdTripMaxMsTypeI)) ms Type I (10 mA)")
            field("Calibration", "warns \(limits.calibrationWarningMonths) months after the instrument's calibration")
            if limits == .defaults { lines.append((" These are the defaults (SPEC §12).", .dim)) }
        case .employer(let uuid):
            guard let e = particulars.employers[uuid] else { break }
            lines.append((" Employer: whom examinations are made for (Schedule 1 item 1)", .bold))
            field("Name", e.name, needed: true)
            field("Address", e.address, needed: true)
            let names = sites(of: uuid).map { ParticularsText.oneLine($0.name) }
            field("Sites", names.isEmpty ? "none yet (s adds one)" : names.joined(separator: ", "))
        case .site(let uuid):
            guard let s = particulars.sites[uuid] else { break }
            lines.append((" Site: the premises where examinations are made (Schedule 1 item 2)", .bold))
            field("Name", s.name)
            field("Employer", particulars.employers[s.employerUUID]?.name ?? "(not in the register)")
            field("Address", s.address, needed: true)
        case .examiner(let uuid):
            guard let e = particulars.examiners[uuid] else { break }
            lines.append((" Examiner: a competent person who makes reports (Schedule 1 item 9)", .bold))
            field("Name", e.name)
            field("Qualification", e.qualification)
            field("Employment", e.selfEmployed ? "self-employed" : "employed by the examining organisation")
            if e.selfEmployed { field("Address", e.address) }
        case .addSite(let employer):
            lines.append((" Enter adds a site (premises with a postal address) for "
                          + ParticularsText.oneLine(particulars.employers[employer]?.name ?? "the employer") + ".",
                          .plain))
        case .addEmployer:
            lines.append((" Enter adds an employer: a client the examinations are made for, with its sites.", .plain))
        case .addExaminer:
            lines.append((" Enter adds an examiner: the form finds the examiner by the inspector name typed.",
                          .plain))
        }
        return Box.wrapped(lines, width: max(1, width))
    }

    /// A row: what it is, its name and address on one line, and what a report still needs from it.
    private func drawRow(_ row: Row, y: Int, into frame: inout Frame, area: Rect) {
        let missing = Style(colour: .yellow)
        var x = 0
        // A row is one line: the part that reaches the edge ends in "…" at a word, and nothing follows it.
        func put(_ text: String, _ style: Style = .plain) {
            guard x < area.width else { return }
            x += frame.put(text.ellipsized(toWidth: area.width - x), x: x, y: y, in: area, style: style)
        }
        func nameAndAddress(_ name: String, _ address: String, main: Bool, addressNeeded: Bool) {
            put(name.isEmpty ? "(no name)" : ParticularsText.oneLine(name), name.isEmpty ? missing : .bold)
            if main { put(" (main)", .dim) }
            if !address.trimmed.isEmpty { put(" — " + ParticularsText.oneLine(address)) }
            else if addressNeeded { put(" — no address: a thorough examination needs one", missing) }
        }
        switch row {
        case .organisation:
            let o = particulars.organisation
            put("  ")
            if o.name.trimmed.isEmpty && o.address.trimmed.isEmpty {
                put("not set: press Enter to give its name and address", missing)
            } else {
                nameAndAddress(o.name, o.address, main: false, addressNeeded: false)
            }
        case .employer(let uuid):
            guard let e = particulars.employers[uuid] else { return }
            put("  ")
            nameAndAddress(e.name, e.address, main: uuid == Particulars.mainEmployerUUID, addressNeeded: true)
        case .site(let uuid):
            guard let s = particulars.sites[uuid] else { return }
            put("    ")
            if particulars.employers[s.employerUUID] == nil { put("(employer not in the register) ", missing) }
            nameAndAddress(s.name, s.address, main: uuid == Particulars.mainSiteUUID, addressNeeded: true)
        case .addSite(let employer):
            put("    + add a site for \(ParticularsText.oneLine(particulars.employers[employer]?.name ?? ""))", .dim)
        case .addEmployer:
            put("  + add an employer", .dim)
        case .examiner(let uuid):
            guard let e = particulars.examiners[uuid] else { return }
            put("  ")
            put(ParticularsText.oneLine(e.name), .bold)
            let qualification = ParticularsText.oneLine(e.qualification)
            put(" — " + (qualification.isEmpty ? "no qualification given" : qualification),
                qualification.isEmpty ? missing : .plain)
            put(e.selfEmployed ? " · self-employed" : " · employed")
            if e.selfEmployed && !e.address.trimmed.isEmpty { put(", " + ParticularsText.oneLine(e.address)) }
        case .addExaminer:
            put("  + add an examiner", .dim)
        case .testLimits:
            let limits = particulars.organisation.testLimits
            put("  ")
            put("earth ≤ \(limits.text(of: .earthContinuityMaxOhm)) Ω · insulation ≥ "
                + "\(limits.text(of: .insulationMinMOhm)) MΩ · leakage ≤ \(limits.text(of: .leakageMaxMAClassI))/"
                + "\(limits.text(of: .leakageMaxMAOther)) mA · RCD ≤ \(limits.text(of: .rcdTripMaxMsTypeII))/"
                + "\(limits.text(of: .rcdTripMaxMsTypeI)) ms", limits == .defaults ? .plain : .bold)
            // The calibration warning is in the details below: the line fits 80 columns without it.
        }
    }
}

/// How particulars read on screen.
enum ParticularsText {
    /// Text of several lines on one line ("Quay Office, Harbour Road"), for lists.
    static func oneLine(_ text: String) -> String {
        text.trimmed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// What a particular is called: "Employer Test Quay Ltd", "Site Main site (Test Quay Ltd)".
    static func title(of change: ParticularsChange, in particulars: Particulars) -> String {
        switch change {
        case .organisation: "Examining organisation"
        case .employer(let e): "Employer " + oneLine(e.name)
        case .site(let s): "Site " + siteName(s.uuid, in: particulars, fallback: s)
        case .examiner(let e): "Examiner " + oneLine(e.name)
        case .asset: "Asset particulars"
        }
    }

    /// A site with its employer, as a choice shows it: "Main site (Test Quay Ltd)".
    static func siteName(_ uuid: UUID, in particulars: Particulars, fallback: Site? = nil) -> String {
        guard let site = particulars.sites[uuid] ?? fallback else { return "(a site not in the register)" }
        let employer = particulars.employers[site.employerUUID].map { " (\(oneLine($0.name)))" } ?? ""
        return oneLine(site.name) + employer
    }

    /// A field's value as a person reads it: a choice by its name, yes or no, text on one line.
    static func value(_ field: ParticularField, of change: ParticularsChange, in particulars: Particulars) -> String {
        let raw = change[field]
        switch field {
        case .employer:
            return UUID(uuidString: raw).flatMap { particulars.employers[$0] }.map { oneLine($0.name) }
                ?? "(an employer not in the register)"
        case .site:
            return UUID(uuidString: raw).map { siteName($0, in: particulars) } ?? raw
        default:
            return oneLine(raw)
        }
    }
}

extension String {
    /// Without spaces and line breaks at either end.
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
