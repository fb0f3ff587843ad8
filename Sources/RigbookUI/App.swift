import Foundation
import RigbookCore

/// Everything that happens to the program: keys, resizes, the clock, and the answers to effects.
public enum Event: Sendable {
    case key(Key)
    case resize(width: Int, height: Int)
    /// Time passed with no key (the loop's timeout): lets pending work come due.
    case tick
    case registerLoaded([RegisterRow])
    /// One asset re-read after a change (a save, a draft kept or discarded).
    case assetRefreshed(RegisterRow)
    case sampleLoaded(count: Int)
    case historyLoaded(RegisterRow, [StoredInspection])
    case formReady(FormSeed)
    case saved(assetUUID: UUID, tag: String)
    case saveFailed(String)
    /// Opening a form found a draft for it: ask Recover · Discard · Back.
    case draftFound(RecoveryState)
    case draftWritten(fileID: String)
    case draftWriteFailed(fileID: String, reason: String)
    case draftDeleted(fileID: String)
    case draftsLoaded([DraftSummary])
    /// Something could not be done and needs explaining in full (e.g. a form open elsewhere).
    case explain(title: String, lines: [String])
    case assetAdded(tag: String)
    case assetNotAdded(String)
    /// Write any unwritten draft now (a signal arrived, the terminal went away).
    case flush
    case info(String)
    case failure(String)
}

/// Work `update` asks the runtime to do: anything that touches files, the register or the process.
public enum Effect: Sendable {
    case reloadRegister
    /// Re-read one asset (and whether it has a draft): cheap at any register size.
    case refreshAsset(assetUUID: UUID)
    case loadSample
    case openHistory(assetUUID: UUID)
    /// Open the inspection form for an asset; `amending` prefills from that record; `recover` takes an
    /// existing draft without asking (the person chose it on the Drafts screen).
    case openForm(assetUUID: UUID, amending: StoredInspection?, recover: Bool)
    case writeDraft(DraftSnapshot)
    case deleteDraft(fileID: String)
    /// The form is closed: give its draft lock back.
    case releaseDraft(fileID: String)
    case openDrafts
    case addAsset(Asset)
    /// Ctrl-Z: drafts are flushed first, then the runtime gives the terminal back and stops.
    case suspend
    /// The only way a record reaches the register: a gate-validated record.
    case save(ValidatedInspection, inspectorName: String, certificationNumber: String)
    case quit
}

/// A line at the bottom that reports what just happened, until the next key.
public struct Notice: Sendable, Equatable {
    public var text: String
    public var isError: Bool

    public static func info(_ text: String) -> Notice { Notice(text: text, isError: false) }
    public static func error(_ text: String) -> Notice { Notice(text: text, isError: true) }
}

/// Screens above the register list; the last one has the keys.
public enum Screen: Sendable {
    case help(HelpState)
    case history(HistoryState)
    case record(RecordState)
    case form(FormState)
    case recovery(RecoveryState)
    case drafts(DraftsState)
    case dashboard(DashboardState)
    case newAsset(AssetFormState)
    /// A message that needs more than the footer line; any key closes it.
    case message(title: String, lines: [String])
}

public struct AppState: Sendable {
    public var today: CalendarDate
    public var width = 80
    public var height = 24
    public var list = ListState()
    public var screens: [Screen] = []
    public var notice: Notice?
    /// Where the register lives, for messages.
    public var registerPath: String
    public var sampleSize = 200
    /// After a save: the asset whose new status the list reports once reloaded.
    var savedAsset: (uuid: UUID, tag: String)?

    public init(today: CalendarDate, registerPath: String) {
        self.today = today
        self.registerPath = registerPath
    }

    /// Rows the list can show at once.
    var listPageSize: Int { max(1, height - ListView.chromeHeight) }

    /// The open form, if the top screen is one.
    public var form: FormState? {
        if case .form(let form)? = screens.last { return form }
        return nil
    }

    /// When the loop must wake up even without a key (seconds on the loop's clock), if ever.
    public var nextDeadline: Double? {
        var deadlines: [Double] = []
        for screen in screens {
            guard case .form(let form) = screen else { continue }
            if case .pending(let due) = form.preview { deadlines.append(due) }
            if let due = form.draftWrites.deadline { deadlines.append(due) }
        }
        return deadlines.min()
    }
}

public enum App {
    /// The one place state changes. Pure: time comes in as `now`, work goes out as effects.
    public static func update(_ state: inout AppState, _ event: Event, now: Double) -> [Effect] {
        let due = advanceTimers(&state, now: now)
        return due + handle(&state, event, now: now)
    }

    static func handle(_ state: inout AppState, _ event: Event, now: Double) -> [Effect] {
        switch event {
        case .tick:
            return []
        case .resize(let width, let height):
            state.width = width
            state.height = height
            state.list.scrollToSelection(pageSize: state.listPageSize)
            updateForm(&state) { $0.keepFocusVisible(width: width, height: height) }
            return []
        case .registerLoaded(let rows):
            state.list.load(rows, today: state.today, keepSelectionOn: state.savedAsset?.uuid)
            state.list.scrollToSelection(pageSize: state.listPageSize)
            reportSave(&state)
            return []
        case .assetRefreshed(let row):
            if !state.list.update(row, today: state.today) { return [.reloadRegister] }
            state.list.scrollToSelection(pageSize: state.listPageSize)
            reportSave(&state)
            return []
        case .sampleLoaded(let count):
            state.notice = .info("Loaded \(count) sample assets with their inspection history.")
            return [.reloadRegister]
        case .historyLoaded(let row, let records):
            state.screens.append(.history(HistoryState(row: row, records: records, today: state.today)))
            return []
        case .formReady(let seed):
            var form = FormState(seed: seed, today: state.today, now: now)
            form.keepFocusVisible(width: state.width, height: state.height)
            state.screens.append(.form(form))
            return []
        case .saved(let uuid, let tag):
            // The form closes and the list says what was saved, with the asset's new status.
            state.screens.removeAll()
            state.savedAsset = (uuid, tag)
            return [.refreshAsset(assetUUID: uuid)]
        case .saveFailed(let reason):
            updateForm(&state) { $0.saveFailed(reason, now: now) }
            return []
        case .draftFound(let recovery):
            state.screens.append(.recovery(recovery))
            return []
        case .draftWritten(let id):
            updateForm(&state, fileID: id) { $0.draftWritten() }
            return []
        case .draftWriteFailed(let id, let reason):
            updateForm(&state, fileID: id) { $0.draftWriteFailed(reason) }
            return []
        case .draftDeleted(let id):
            updateForm(&state, fileID: id) { $0.draftDeleted() }
            return []
        case .draftsLoaded(let drafts):
            var screen = DraftsState(drafts: drafts)
            if case .drafts(let old)? = state.screens.last {
                screen.selection = min(old.selection, max(0, drafts.count - 1))
                state.screens.removeLast()
            }
            state.screens.append(.drafts(screen))
            return []
        case .flush:
            // Every open form, not only the top screen: help may be open over the form.
            var effects: [Effect] = []
            for index in state.screens.indices {
                guard case .form(var form) = state.screens[index] else { continue }
                if let effect = form.flushDraftEffect() { effects.append(effect) }
                state.screens[index] = .form(form)
            }
            return effects
        case .info(let message):
            state.notice = .info(message)
            return []
        case .explain(let title, let lines):
            state.screens.append(.message(title: title, lines: lines))
            return []
        case .assetAdded(let tag):
            if case .newAsset? = state.screens.last { state.screens.removeLast() }
            state.notice = .info("Added \(tag) to the register.")
            return [.reloadRegister]
        case .assetNotAdded(let reason):
            if case .newAsset(var form)? = state.screens.last {
                form.error = "Not added: \(reason)"
                replaceTop(&state, .newAsset(form))
            }
            return []
        case .failure(let message):
            state.notice = .error(message)
            return []
        case .key(.ctrl("z")):
            // Suspend like any terminal program, but only after the draft is on disk.
            return handle(&state, .flush, now: now) + [.suspend]
        case .key(let key):
            state.notice = nil
            guard let top = state.screens.last else { return updateList(&state, key) }
            switch top {
            case .help(var help):
                if help.handle(key, pageSize: state.height - 2, width: state.width) { state.screens.removeLast() }
                else { replaceTop(&state, .help(help)) }
                return []
            case .history(var history):
                return updateHistory(&state, &history, key)
            case .record(var record):
                return updateRecord(&state, &record, key)
            case .form(var form):
                return updateForm(&state, &form, key, now: now)
            case .recovery(var recovery):
                return updateRecovery(&state, &recovery, key, now: now)
            case .drafts(var drafts):
                return updateDrafts(&state, &drafts, key)
            case .message:
                state.screens.removeLast()
                return []
            case .newAsset(var form):
                switch form.handle(key) {
                case .stay: replaceTop(&state, .newAsset(form))
                case .close: state.screens.removeLast()
                case .help:
                    replaceTop(&state, .newAsset(form))
                    showHelp(&state, AssetFormState.keymap)
                case .add(let asset):
                    replaceTop(&state, .newAsset(form))
                    return [.addAsset(asset)]
                }
                return []
            case .dashboard:
                let action = key == .ctrl("c") ? .back : DashboardState.keymap.action(for: key)
                if action == .back { state.screens.removeLast() }
                if action == .help { showHelp(&state, DashboardState.keymap) }
                return []
            }
        }
    }

    /// Lets pending work come due: the preview's quiet period, the draft's debounce.
    /// After a save: the list says what was saved and the asset's new status.
    static func reportSave(_ state: inout AppState) {
        guard let saved = state.savedAsset else { return }
        state.savedAsset = nil
        let status = state.list.rows.first { $0.asset.uuid == saved.uuid }?.status(on: state.today).status.label ?? "unknown"
        state.notice = .info("Saved inspection for \(saved.tag) · status now \(status)")
    }

    static func advanceTimers(_ state: inout AppState, now: Double) -> [Effect] {
        var effects: [Effect] = []
        for index in state.screens.indices {
            guard case .form(var form) = state.screens[index] else { continue }
            _ = form.advance(to: now)
            if let effect = form.dueDraftEffect(now: now) { effects.append(effect) }
            state.screens[index] = .form(form)
        }
        return effects
    }

    static func updateForm(_ state: inout AppState, fileID: String, _ change: (inout FormState) -> Void) {
        for index in state.screens.indices {
            if case .form(var form) = state.screens[index], form.draftFileID == fileID {
                change(&form)
                state.screens[index] = .form(form)
            }
        }
    }

    static func updateRecovery(_ state: inout AppState, _ recovery: inout RecoveryState, _ key: Key, now: Double) -> [Effect] {
        var choice: Int?
        switch key {
        case .left, .backTab, .up: recovery.selection = (recovery.selection + 2) % 3
        case .right, .tab, .down: recovery.selection = (recovery.selection + 1) % 3
        case .enter: choice = recovery.selection
        case .char("r"): choice = 0
        case .char("d"): choice = 1
        case .escape, .ctrl("c"), .char("b"): choice = 2
        default: break
        }
        guard let choice else {
            replaceTop(&state, .recovery(recovery))
            return []
        }
        state.screens.removeLast()
        switch choice {
        case 0:
            return handle(&state, .formReady(recovery.recovered), now: now)
        case 1:
            state.notice = .info("Discarded the draft for \(recovery.draft.assetTag).")
            return [.deleteDraft(fileID: recovery.draft.fileID)] + handle(&state, .formReady(recovery.seed), now: now)
        default:
            return [.releaseDraft(fileID: recovery.draft.fileID), .refreshAsset(assetUUID: recovery.draft.assetUUID)]
        }
    }

    static func updateDrafts(_ state: inout AppState, _ drafts: inout DraftsState, _ key: Key) -> [Effect] {
        if drafts.confirmingDiscard {
            drafts.confirmingDiscard = false
            replaceTop(&state, .drafts(drafts))
            guard key == .char("d") || key == .enter, let draft = drafts.selected else { return [] }
            if let holder = draft.lockedBy {
                state.notice = .error("The draft for \(draft.assetTag) is open in another session (\(holder)); it was not discarded.")
                return []
            }
            state.notice = .info("Discarded the draft for \(draft.assetTag).")
            return [.deleteDraft(fileID: draft.fileID), .openDrafts, .refreshAsset(assetUUID: draft.assetUUID)]
        }
        if key == .ctrl("c") { state.screens.removeLast(); return [] }
        guard let action = DraftsState.keymap.action(for: key) else { return [] }
        switch action {
        case .up: drafts.selection = max(0, drafts.selection - 1)
        case .down: drafts.selection = min(max(0, drafts.drafts.count - 1), drafts.selection + 1)
        case .recover:
            guard let draft = drafts.selected else { return [] }
            return [.openForm(assetUUID: draft.assetUUID, amending: nil, recover: true)]
        case .discard:
            drafts.confirmingDiscard = drafts.selected != nil
        case .back:
            state.screens.removeLast()
            return []
        case .help:
            showHelp(&state, DraftsState.keymap)
            return []
        }
        replaceTop(&state, .drafts(drafts))
        return []
    }

    static func replaceTop(_ state: inout AppState, _ screen: Screen) {
        state.screens[state.screens.count - 1] = screen
    }

    static func updateForm(_ state: inout AppState, _ change: (inout FormState) -> Void) {
        guard case .form(var form)? = state.screens.last else { return }
        change(&form)
        replaceTop(&state, .form(form))
    }

    static func showHelp<A>(_ state: inout AppState, _ keymap: Keymap<A>, extra: [(keys: String, help: String)] = []) {
        state.screens.append(.help(HelpState(keymap: keymap.helpLines() + extra, title: keymap.title)))
    }

    static func updateForm(_ state: inout AppState, _ form: inout FormState, _ key: Key, now: Double) -> [Effect] {
        let outcome = form.handle(key, now: now, width: state.width, keepDraftOffered: true)
        form.keepFocusVisible(width: state.width, height: state.height)
        replaceTop(&state, .form(form))
        let id = form.draftFileID
        let uuid = form.row.asset.uuid
        switch outcome {
        case .stay:
            return []
        case .close:
            // Nothing typed (or typed and undone): no draft may remain.
            state.screens.removeLast()
            form.draftWrites.cancel()
            return (form.draftOnDisk ? [.deleteDraft(fileID: id)] : []) + [.releaseDraft(fileID: id), .refreshAsset(assetUUID: uuid)]
        case .discard:
            state.screens.removeLast()
            form.draftWrites.cancel()
            state.notice = .info("Discarded the inspection of \(form.row.asset.tag).")
            return [.deleteDraft(fileID: id), .releaseDraft(fileID: id), .refreshAsset(assetUUID: uuid)]
        case .keepDraft:
            state.screens.removeLast()
            state.notice = .info("Kept the draft for \(form.row.asset.tag); open the asset again or press D to recover it.")
            return [form.flushDraftEffect() ?? .writeDraft(form.draftSnapshot), .releaseDraft(fileID: id), .refreshAsset(assetUUID: uuid)]
        case .help:
            showHelp(&state, FormState.keymap, extra: FormState.editingHelp)
            return []
        case .save(let record):
            return [.save(record, inspectorName: record.values.inspectorName,
                          certificationNumber: record.values.certificationNumber)]
        }
    }

    static func updateHistory(_ state: inout AppState, _ history: inout HistoryState, _ key: Key) -> [Effect] {
        if key == .ctrl("c") { state.screens.removeLast(); return [] }
        guard let action = HistoryState.keymap.action(for: key) else { return [] }
        switch action {
        case .up: history.move(by: -1, height: state.height)
        case .down: history.move(by: 1, height: state.height)
        case .open:
            if let record = history.selectedRecord {
                state.screens.append(.record(RecordState(row: history.row, record: record)))
                return []
            }
        case .inspect:
            return [.openForm(assetUUID: history.row.asset.uuid, amending: nil, recover: false)]
        case .amend:
            if let record = history.selectedRecord {
                return [.openForm(assetUUID: history.row.asset.uuid, amending: record, recover: false)]
            }
            state.notice = .error("There is no record to amend.")
        case .back:
            state.screens.removeLast()
            return []
        case .help:
            showHelp(&state, HistoryState.keymap)
            return []
        }
        replaceTop(&state, .history(history))
        return []
    }

    static func updateRecord(_ state: inout AppState, _ record: inout RecordState, _ key: Key) -> [Effect] {
        if key == .ctrl("c") { state.screens.removeLast(); return [] }
        guard let action = RecordState.keymap.action(for: key) else { return [] }
        switch action {
        case .up: record.top = max(0, record.top - 1)
        case .down: record.top = min(max(0, record.rows(width: state.width).count - (state.height - 2)), record.top + 1)
        case .amend: return [.openForm(assetUUID: record.row.asset.uuid, amending: record.record, recover: false)]
        case .back:
            state.screens.removeLast()
            return []
        case .help:
            showHelp(&state, RecordState.keymap)
            return []
        }
        replaceTop(&state, .record(record))
        return []
    }

    static func updateList(_ state: inout AppState, _ key: Key) -> [Effect] {
        let page = state.listPageSize
        if state.list.editingFilter {
            switch key {
            case .escape:
                state.list.editingFilter = false
                state.list.setQuery("")
            case .enter, .down, .up:
                state.list.editingFilter = false
                if key != .enter { return updateList(&state, key) }
            case .backspace:
                var query = state.list.query
                if !query.isEmpty { query.removeLast() }
                state.list.setQuery(query)
            case .ctrl("u"):
                state.list.setQuery("")
            case .char(let c) where !c.isControlCharacter:
                state.list.setQuery(state.list.query + String(c))
            case .ctrl("c"):
                return [.quit]
            default:
                break
            }
            return []
        }
        if key == .ctrl("c") { return [.quit] }
        guard let action = ListState.keymap.action(for: key) else { return [] }
        switch action {
        case .up: state.list.move(by: -1, pageSize: page)
        case .down: state.list.move(by: 1, pageSize: page)
        case .pageUp:
            state.list.top = max(0, state.list.top - page)
            state.list.move(by: -page, pageSize: page)
        case .pageDown:
            state.list.top = min(max(0, state.list.visibleCount - page), state.list.top + page)
            state.list.move(by: page, pageSize: page)
        case .top: state.list.move(by: -state.list.visibleCount, pageSize: page)
        case .bottom: state.list.move(by: state.list.visibleCount, pageSize: page)
        case .filter: state.list.editingFilter = true
        case .clearFilter: state.list.setQuery("")
        case .help: showHelp(&state, ListState.keymap)
        case .quit: return [.quit]
        case .loadSample:
            if state.list.rows.isEmpty { return [.loadSample] }
            state.notice = .error("Sample data only goes into an empty register; this one holds \(state.list.rows.count) assets.")
        case .openHistory, .inspect:
            guard let row = state.list.selectedRow else {
                state.notice = .error("There is no asset selected.")
                return []
            }
            return action == .inspect ? [.openForm(assetUUID: row.asset.uuid, amending: nil, recover: false)]
                : [.openHistory(assetUUID: row.asset.uuid)]
        case .drafts:
            return [.openDrafts]
        case .dashboard:
            state.screens.append(.dashboard(DashboardState(list: state.list, today: state.today)))
        case .addAsset:
            state.screens.append(.newAsset(AssetFormState()))
        }
        return []
    }

    public static func view(_ state: AppState) -> Frame {
        var frame = Frame(width: state.width, height: state.height)
        guard let top = state.screens.last else {
            ListView.draw(state, into: &frame)
            return frame
        }
        switch top {
        case .help(let help): help.draw(into: &frame)
        case .history(let history): history.draw(into: &frame)
        case .record(let record): record.draw(into: &frame)
        case .form(let form): FormView.draw(form, into: &frame)
        case .recovery(let recovery):
            ListView.draw(state, into: &frame)
            frame.cursor = nil
            recovery.draw(into: &frame)
        case .drafts(let drafts): drafts.draw(into: &frame)
        case .dashboard(let dashboard): dashboard.draw(into: &frame)
        case .newAsset(let form): form.draw(into: &frame)
        case .message(let title, let lines):
            var below = state
            below.screens.removeLast()
            frame = view(below)
            frame.cursor = nil
            Box.draw(title: title, lines: lines.map { ($0, Style.plain) } + [("", .plain), ("Any key closes this.", .dim)],
                     width: min(frame.width - 4, max(40, lines.map(\.displayWidth).max() ?? 0)), highlight: nil,
                     footer: nil, into: &frame)
        }
        if let notice = state.notice, frame.height > 1 {
            frame.fill(y: frame.height - 1, style: .plain)
            frame.put(notice.text, x: 0, y: frame.height - 1, style: notice.isError ? Style(colour: .red, bold: true) : .bold)
        }
        return frame
    }
}

extension Character {
    var isControlCharacter: Bool { unicodeScalars.contains { TextRules.isControl($0) } }
}
