import Foundation
import RigbookCore

public enum ListAction: Sendable {
    case up, down, pageUp, pageDown, top, bottom, filter, clearFilter, help, quit, loadSample
    case openHistory, inspect, drafts, dashboard, addAsset, settings, assetParticulars
    case editAsset, toggleRetired
    case mark, markAll, inspectMarked
    case scan, labels, setUp, visitCertificate
}

/// What the keys do while a filter is typed after `/`.
public enum FilterAction: Sendable { case keep, keepAndMove, clear, deleteBack, deleteAll, quit }

/// The register list as a screen: the root under every other screen.
extension ListState: Screen {
    public static let keymap = Keymap<ListAction>(title: "Register list",
                                                  KeyBinding.moves(up: .up, "Move up", down: .down, "Move down") + [
        KeyBinding([.pageUp], help: "Page up", rank: .often, action: .pageUp),
        KeyBinding([.pageDown, .char(" ")], label: "PgDn Space", help: "Page down", rank: .often, action: .pageDown),
        KeyBinding([.home, .char("g")], label: "Home g", help: "First asset", rank: .sometimes, action: .top),
        KeyBinding([.end, .char("G")], label: "End G", help: "Last asset", rank: .sometimes, action: .bottom),
        KeyBinding([.char("/")], help: "Filter as you type, fuzzy, best match first; is:overdue by status "
                   + "(Enter keeps it, Esc clears)",
                   footer: "filter", rank: .constant, action: .filter),
        KeyBinding([.enter], help: "Asset details and inspection history", footer: "history", rank: .constant,
                   action: .openHistory),
        KeyBinding([.char("i")], help: "Record an inspection of the selected asset", footer: "inspect",
                   rank: .constant, action: .inspect),
        KeyBinding([.char("m")], help: "Mark or unmark the selected asset for a batch inspection, and move down",
                   brief: "mark and move", rank: .often, action: .mark),
        KeyBinding([.char("*")], help: "Mark every asset the list shows (the filter's); again: unmark them",
                   brief: "mark all shown", rank: .sometimes, action: .markAll),
        KeyBinding([.char("I")], help: "Inspect the marked assets together: one form, one record each (a batch)",
                   brief: "inspect the marked", rank: .often, action: .inspectMarked),
        KeyBinding([.char("#")], help: "Scan a label: a prompt that takes the scan and Enter, then jumps to the asset "
                   + "(Tab: mark each scan for a batch instead)", brief: "scan a label", rank: .often, action: .scan),
        KeyBinding([.char("L")], help: "Labels of what the last save or batch saved, written into Documents/Labels",
                   brief: "labels of the last save", rank: .sometimes, action: .labels),
        KeyBinding([.char("P")], help: "The certificate of the last batch saved (its visit) as PDF, written into "
                   + "Documents/Certificates", brief: "visit certificate of the last batch", rank: .sometimes,
                   action: .visitCertificate),
        KeyBinding([.char("a")], help: "Add an asset", footer: "add", rank: .often, action: .addAsset),
        KeyBinding([.char("e")], help: "Edit the selected asset: every change kept with its reason; retire it there",
                   brief: "edit", rank: .sometimes, action: .editAsset),
        KeyBinding([.char("R")], help: "Show or hide retired assets", brief: "retired assets", rank: .rarely,
                   action: .toggleRetired),
        KeyBinding([.char("D")], help: "Unsubmitted drafts", footer: "drafts", rank: .sometimes, action: .drafts),
        KeyBinding([.char("p")], help: "Particulars of the selected asset: its site, owner or lessor, SWL per"
                   + " configuration, declaration of conformity", brief: "asset particulars",
                   rank: .sometimes, action: .assetParticulars),
        KeyBinding([.char(",")], help: "Settings: the examining organisation, employers and their sites, examiners",
                   brief: "settings", rank: .rarely, action: .settings),
        KeyBinding([.char("u")], help: "Set up this register in one screen: the employer, the site and the examiner "
                   + "a report names", brief: "set up this register", rank: .rarely, action: .setUp),
        KeyBinding([.tab], help: "Dashboard: counts and what falls due in the next 12 weeks", brief: "dashboard",
                   rank: .sometimes, action: .dashboard),
        KeyBinding([.escape], help: "Clear the filter", brief: "clear the filter", rank: .often, action: .clearFilter),
        KeyBinding([.char("S")], help: "Load sample data (only into an empty register)", brief: "sample data",
                   rank: .rarely, action: .loadSample),
        KeyBinding([.char("q")], help: "Quit", footer: "quit", rank: .often, action: .quit),
        .help(.help),
        KeyBinding([.ctrl("c")], help: "Quit", brief: "quit", rank: .sometimes, action: .quit),
    ])

    /// The longest filter kept: longer than any tag, name or location the register holds.
    static let filterLimit = 200

    /// What the help page says about the filter's words, which are not keys.
    static let filterNotes: [(keys: String, help: String)] = [
        ("", ""), ("", "Filter words (each must match):"),
        ("ws0102", "Letters in order in a tag, name, type, site, location, serial or maker: finds WS-0102"),
        ("is:ok", "By status: " + FilterQuery.statusWords),
        ("at:\"Quay 2\"", "The location exactly (site:\"North Quay\" the site); quotes hold spaces"),
    ]

    public static let filterKeymap = Keymap<FilterAction>(title: "Filter", whileTyping: true, [
        KeyBinding([.enter], help: "Filter: keep it and go back to the list; a label's payload or a whole tag jumps "
                   + "to that asset", footer: "keeps", brief: "keep the filter", rank: .constant, action: .keep),
        KeyBinding([.escape], help: "Filter: clear it", footer: "clears", brief: "clear the filter", rank: .often,
                   action: .clear),
        KeyBinding([.up, .down], label: "↑ ↓", help: "Filter: keep it and move in the list",
                   brief: "keep the filter and move", rank: .often, action: .keepAndMove),
        KeyBinding([.backspace], help: "Filter: delete the last character", brief: "delete a filter character",
                   rank: .often, action: .deleteBack),
        KeyBinding([.ctrl("u")], help: "Filter: delete all of it", brief: "clear the typed filter",
                   rank: .sometimes, action: .deleteAll),
        KeyBinding([.ctrl("c")], help: "Quit", brief: "quit", rank: .sometimes, action: .quit),
    ])

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        if case .paste = key, scan != nil { return handleScan(key, context: context) }
        if case .paste(let text) = key {
            // Pasted text filters the list (a tag copied from a mail, say); it never acts as keys.
            let paste = Paste(text, multiline: false, room: max(0, ListState.filterLimit - query.count))
            editingFilter = true
            setQuery(query + String(paste.characters))
            return .stay
        }
        if scan != nil { return handleScan(key, context: context) }
        if editingFilter { return handleFilter(key, context: context) }
        guard let action = ListState.keymap.action(for: key) else { return .stay }
        return perform(action, context: context)
    }

    /// Does what a key of the list's keymap asks.
    mutating func perform(_ action: ListAction, context: ScreenContext) -> Outcome {
        let page = ListState.pageSize(context.area)
        if window != nil, [.markAll, .inspectMarked, .dashboard].contains(action) {
            // They need every row of a large register: read them, then do it (`registerLoaded`).
            pendingAll = action
            return .stay
        }
        switch action {
        case .up, .down:
            move(by: action == .up ? -1 : 1, pageSize: page)
        case .pageUp:
            top = max(0, top - page)
            move(by: -page, pageSize: page)
        case .pageDown:
            top = min(max(0, visibleCount - page), top + page)
            move(by: page, pageSize: page)
        case .top: move(by: -visibleCount, pageSize: page)
        case .bottom: move(by: visibleCount, pageSize: page)
        case .filter: editingFilter = true
        case .clearFilter: setQuery("")
        case .help:
            let lines = ListState.keymap.helpLines() + App.keymap.helpSection("Everywhere:") + ListState.filterNotes
                + ListState.filterKeymap.helpSection("While typing a filter:")
                + ListState.scanKeymap.helpSection("In the scan prompt (#):")
            return .help(title: ListState.keymap.title, lines)
        case .quit: return .effects([.quit])
        case .loadSample:
            if assetCount == 0 { return .effects([.loadSample]) }
            return .notify(.error("Sample data only goes into an empty register; this one holds \(assetCount) assets."))
        case .openHistory, .inspect:
            guard let row = selectedRow else { return .notify(.error("There is no asset selected.")) }
            return .effects([action == .inspect ? .openForm(assetUUID: row.asset.uuid, amending: nil, recover: false)
                             : .openHistory(assetUUID: row.asset.uuid)])
        case .drafts: return .effects([.openDrafts])
        case .dashboard: return .push(DashboardState(list: self, today: today))
        case .addAsset: return .push(AssetFormState())
        case .setUp: return .push(SetUpState(particulars: particulars))
        case .settings: return .effects([.openSettings])
        case .assetParticulars:
            guard let row = selectedRow else { return .notify(.error("There is no asset selected.")) }
            return .effects([.openAssetParticulars(assetUUID: row.asset.uuid)])
        case .editAsset:
            guard let row = selectedRow else { return .notify(.error("There is no asset selected.")) }
            return .effects([.openAssetEditor(assetUUID: row.asset.uuid, recover: false)])
        case .toggleRetired:
            showRetired.toggle()
            return .notify(.info(showRetired ? "Showing retired assets (RETIRED, last)." : "Retired assets hidden."))
                + .effects([.reloadRegister])
        case .mark, .markAll, .inspectMarked:
            return handleMarks(action, page: page)
        case .scan: openScan()
        case .labels: return labelsOfLastSave()
        case .visitCertificate:
            guard let visit = lastVisit else {
                return .notify(.error("P writes the certificate of the last batch saved: none was saved in this "
                                      + "session (a record's own certificate: P on its history)."))
            }
            return .effects([.printCertificate(.visit(visit))])
        }
        return .stay
    }

    private mutating func handleFilter(_ key: Key, context: ScreenContext) -> Outcome {
        if key.isPrintable, case .char(let c) = key {
            if query.count < ListState.filterLimit { setQuery(query + String(c)) }
            return .stay
        }
        switch ListState.filterKeymap.action(for: key) {
        case .keep:
            editingFilter = false
            if window != nil, case .payload = LabelPayload.read(query) {
                // A scan into a large register's filter: find its asset once every row is read.
                pendingJump = query
                return .stay
            }
            // A scanned payload or a tag typed whole: Enter goes to the asset.
            if case .some(.some(let notice)) = jumpFromFilter(page: ListState.pageSize(context.area)) {
                return .notify(notice)
            }
        case .keepAndMove:
            editingFilter = false
            return handle(key, context: context)
        case .clear:
            editingFilter = false
            setQuery("")
        case .deleteBack:
            var shorter = query
            if !shorter.isEmpty { shorter.removeLast() }
            setQuery(shorter)
        case .deleteAll: setQuery("")
        case .quit: return .effects([.quit])
        case nil: break
        }
        return .stay
    }

    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        switch event {
        case .registerLoaded(let rows, let particulars, let batchDrafts, let large):
            self.batchDrafts = batchDrafts
            largeRegister = large
            load(rows, today: context.today, particulars: particulars, keepSelectionOn: savedAsset)
            placeAfterSave()
            scrollToSelection(pageSize: ListState.pageSize(context.area))
            var outcome = reportSave()
            if let action = pendingAll {
                pendingAll = nil
                outcome = outcome + perform(action, context: context)
            }
            if pendingJump != nil {
                pendingJump = nil
                if case .some(.some(let notice)) = jumpFromFilter(page: ListState.pageSize(context.area)) {
                    outcome = outcome + .notify(notice)
                }
            }
            return wantsIndexAhead ? outcome + .effects([.prepareSearchIndex]) : outcome
        case .registerWindowLoaded(let load):
            loadWindow(load, today: context.today, pageSize: ListState.pageSize(context.area))
            placeAfterSave()
            scrollToSelection(pageSize: ListState.pageSize(context.area))
            let outcome = reportSave()
            return askForRegisterIndex().map { outcome + $0 } ?? outcome
        case .listWindowRead(let page):
            receiveWindow(page, pageSize: ListState.pageSize(context.area))
            return nil
        case .searchIndexPrepared(let prepared):
            adopt(prepared)
            return nil
        case .registerIndexPrepared(let index):
            adopt(index, pageSize: ListState.pageSize(context.area))
            // Made from a state the register has left since (a commit came meanwhile): another is made.
            return askForRegisterIndex()
        case .assetRefreshed(let row):
            if row.asset.isRetired && !showRetired { return .effects([.reloadRegister]) }
            if !update(row, today: context.today) { return .effects([.reloadRegister]) }
            placeAfterSave()
            scrollToSelection(pageSize: ListState.pageSize(context.area))
            return reportSave()
        case .particularsRecorded(_, _, _, let particulars):
            setParticulars(particulars)
            // A large register's filter index holds each asset's site name: a load brings another one.
            return window != nil ? .effects([.reloadRegister]) : nil
        case .labelsWritten(let path, let count):
            return .notify(.info("Labels for \(count) asset\(count == 1 ? "" : "s"): \(path)"))
        case .sampleLoaded(let count):
            return .notify(.info("Loaded \(count) sample assets, lifting and electrical, with their history."))
                + .effects([.reloadRegister])
        case .dayChanged(let day):
            // A window's rows and counts are of the day before: read again for the new day.
            if window != nil { return .effects([.reloadRegister]) }
            load(rows, today: day)
            scrollToSelection(pageSize: ListState.pageSize(context.area))
            return .stay
        case .draftWritten(let id, _) where id.hasPrefix(BatchIdentity.prefix):
            batchDrafts.insert(id)
            return nil
        case .draftDeleted(let id) where id.hasPrefix(BatchIdentity.prefix):
            batchDrafts.remove(id)
            return nil
        case .batchSaved(let visit, let saved):
            marks.unmark(saved)
            lastSaved = saved
            lastVisit = visit
            return .notify(.info("Saved \(saved.count) inspection\(saved.count == 1 ? "" : "s") in one batch. "
                                 + "P writes their visit certificate as PDF."))
        case .saved(let uuid, _, let thenNext, let amends):
            // Once the asset is re-read, the list says what was saved and its new status, and the selection moves
            // on to the asset that followed it: the worklist keeps its place. An amendment corrects what was done:
            // the selection stays on its asset. Inspected on its own (split off a batch), an asset is unmarked.
            (savedAsset, savedAmends, lastSaved) = (uuid, amends, [uuid])
            marks.unmark([uuid])
            openNextAfterSave = thenNext && amends == nil
            afterSave = nil
            if let position = visibleIndex(of: uuid), position == selection {
                afterSave = (amends == nil ? nextToDo(after: position) : uuid, position)
            }
            return .stay
        default:
            return nil
        }
    }

    public mutating func resized(context: ScreenContext) {
        scrollToSelection(pageSize: ListState.pageSize(context.area))
    }

    /// The first asset after `position` that has not had a thorough examination today: the next item to do.
    private func nextToDo(after position: Int) -> UUID? {
        ((position + 1)..<max(position + 1, visibleCount)).lazy.prefix { holdsRow(visible: $0) }
            .map { rows[rowIndex(visible: $0)] }
            .first { $0.summary.lastThoroughDate != today }?.asset.uuid
    }

    /// After a save of the selected asset: select the next item to do, or, when there is none, the same position.
    private mutating func placeAfterSave() {
        guard savedAsset != nil, let place = afterSave else { return }
        afterSave = nil
        nextAfterSave = place.next
        selection = place.next.flatMap { visibleIndex(of: $0) } ?? place.position
        clampSelection()
    }

    private mutating func reportSave() -> Outcome {
        guard let uuid = savedAsset else { return .stay }
        savedAsset = nil
        let row = rows.first { $0.asset.uuid == uuid }
        let status = row?.status(on: today).status.label ?? "unknown"
        let what = savedAmends.map { "an amendment of record #\($0)" }
            ?? (row?.asset.isElectrical == true ? "test" : "inspection")
        savedAmends = nil
        let saved = "Saved \(what) for \(row?.asset.tag ?? "the asset") · status now \(status)"
        guard openNextAfterSave else { return .notify(.info(saved)) }
        openNextAfterSave = false
        // Ctrl-N: on to the next item to do, unless the list has none after the saved one.
        guard let next = selectedRow, next.asset.uuid == nextAfterSave else {
            return .notify(.info(saved + " · nothing after it left to do"))
        }
        return .notify(.info(saved + " · next: \(next.asset.tag)"))
            + .effects([.openForm(assetUUID: next.asset.uuid, amending: nil, recover: false)])
    }

    public func draw(into frame: inout Frame, area: Rect) { ListView.draw(self, into: &frame, area: area) }
}
