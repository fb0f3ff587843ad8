import Foundation
import RigbookCore

/// The register list at the bottom, the screens opened over it, and the line that reports what
/// just happened.
public struct AppState: Sendable {
    public var today: CalendarDate
    public var width = 80
    public var height = 24
    /// The register list: the root screen, always there under the stack.
    public var list: ListState
    /// Screens opened over the list; the last one has the keys.
    public var screens: [any Screen] = []
    public var notice: Notice?
    /// Where the register lives, for messages.
    public var registerPath: String
    /// The background sync with the organisation's server.
    public var sync = SyncState()

    public init(today: CalendarDate, registerPath: String) {
        self.today = today
        self.registerPath = registerPath
        list = ListState(today: today)
    }

    /// How many sample assets `S` loads.
    public var sampleSize: Int {
        get { list.sampleSize }
        set { list.sampleSize = newValue }
    }

    /// The open form, if the top screen is one.
    public var form: FormState? { screens.last as? FormState }

    /// True when a form whose draft is `draftID` is open.
    func hasForm(draftID: String) -> Bool {
        screens.contains { $0.draftIDs.contains(draftID) }
    }

    /// When the loop must wake up even without a key (seconds on the loop's clock), if ever.
    public var nextDeadline: Double? { (screens.compactMap(\.deadline) + [sync.nextAt].compactMap { $0 }).min() }

    func context(now: Double, batch: Int = 0) -> ScreenContext {
        ScreenContext(now: now, today: today, area: Rect(width: width, height: height), batch: batch)
    }
}

public enum GlobalAction: Sendable { case suspend, redraw }

/// The router: it hands each event to the screen it concerns and applies the outcome to the stack.
/// Pure: time comes in as `now`, work goes out as effects.
public enum App {
    /// Keys that mean the same on every screen.
    public static let keymap = Keymap<GlobalAction>(title: "Everywhere", whileTyping: true, [
        KeyBinding([.ctrl("z")], help: "Suspend like any terminal program (the draft is written first); fg resumes",
                   brief: "suspend", rank: .sometimes, action: .suspend),
        KeyBinding([.ctrl("l")], help: "Redraw the screen and read the register again", brief: "redraw",
                   rank: .rarely, action: .redraw),
    ])

    /// - Parameter batch: frames shown so far (see `ScreenContext.batch`).
    public static func update(_ state: inout AppState, _ event: Event, now: Double, batch: Int = 0) -> [Effect] {
        let context = state.context(now: now, batch: batch)
        var due: [Effect] = []
        for index in state.screens.indices { due += state.screens[index].advance(context: context) }
        var routed = route(&state, event, context)
        if state.list.largeRegister {
            routed += state.list.windowEffects(after: event, alongside: routed,
                                               pageSize: ListState.pageSize(Rect(width: state.width,
                                                                                 height: state.height)))
        }
        let syncBefore = state.sync.status
        let syncing = state.sync.follow(event, now: now)
        state.list.syncHeader = state.sync.header(now: now, today: state.today)
        if let notice = SyncState.notice(for: event, before: syncBefore) { state.notice = notice }
        // The usual key has only its screen's effects: returned as they are, not copied into a new array.
        if due.isEmpty && syncing.isEmpty { return routed }
        return due + routed + syncing
    }

    static func route(_ state: inout AppState, _ event: Event, _ context: ScreenContext) -> [Effect] {
        switch event {
        case .key(let key):
            state.notice = nil
            switch App.keymap.action(for: key) {
            case .suspend?: return deliver(.flush, &state, context) + [.suspend]
            case .redraw?: return [.redraw]
            case nil: break
            }
            guard let top = state.screens.indices.last else {
                return apply(state.list.handle(key, context: context), from: nil, &state, context)
            }
            return apply(state.screens[top].handle(key, context: context), from: top, &state, context)
        case .resize(let width, let height):
            state.width = width
            state.height = height
            let resized = state.context(now: context.now, batch: context.batch)
            state.list.resized(context: resized)
            for index in state.screens.indices { state.screens[index].resized(context: resized) }
            return []
        case .tick:
            return []
        case .dayChanged(let day):
            state.today = day
            state.notice = .info("It is \(day.iso) now: every status is worked out again for today.")
            return deliver(event, &state, state.context(now: context.now, batch: context.batch))
        case .info(let message):
            state.notice = .info(message)
            return []
        case .failure(let message):
            state.notice = .error(message)
            return []
        case .registerReadOnly(let reason):
            state.list.readOnly = true
            let notice = "Read only: \(reason); nothing can be saved."
            state.notice = .error(notice.displayWidth < state.width ? notice
                                  : "Read only: nothing can be saved in this session.")
            return []
        // Results that open a screen: one case each.
        case .historyLoaded(let row, let records):
            return present(HistoryState(row: row, records: records, today: state.today,
                                     site: state.list.siteName(of: row.asset)), &state, context)
        case .formReady(let seed): return present(FormState(seed: seed, context: context), &state, context)
        case .testFormReady(let seed): return present(TestFormState(seed: seed, context: context), &state, context)
        case .assetEditorReady(let seed):
            return present(AssetFormState(editing: seed, context: context), &state, context)
        case .batchReady(let seed): return present(BatchFormState(seed: seed, context: context), &state, context)
        case .draftFound(let recovery): return present(recovery, &state, context)
        case .explain(let title, let lines): return present(MessageScreen(title: title, lines: lines), &state, context)
        case .keyLocked(let examiner, let retry, let reason):
            return present(PassphraseScreen(examiner: examiner, retry: retry, reason: reason), &state, context)
        case .draftWriteFailed(let id, let reason) where !state.hasForm(draftID: id):
            // Its form has closed ("Close and keep draft"): the notice must not be left saying it was kept.
            state.notice = .error("Draft not written, so not kept: \(reason).")
            return []
        case .draftsLoaded(let drafts) where !state.screens.contains(where: { $0 is DraftsState }):
            return present(DraftsState(drafts: drafts), &state, context)
        case .settingsLoaded(let particulars) where !state.screens.contains(where: { $0 is SettingsState }):
            return present(SettingsState(particulars: particulars), &state, context)
        case .assetParticularsLoaded(let row, let particulars):
            return present(ParticularEditorState(asset: row, particulars: particulars), &state, context)
        case .particularsHistoryLoaded(let title, let versions, let particulars):
            return present(ParticularsHistoryState(title: title, versions: versions, particulars: particulars), &state,
                        context)
        default:
            return deliver(event, &state, context)
        }
    }

    static func present(_ screen: any Screen, _ state: inout AppState, _ context: ScreenContext) -> [Effect] {
        apply(.push(screen), from: nil, &state, context)
    }

    /// Offers an effect's result to every screen, top first, then the list; each takes what is its own.
    static func deliver(_ event: Event, _ state: inout AppState, _ context: ScreenContext) -> [Effect] {
        var effects: [Effect] = []
        for index in state.screens.indices.reversed() where index < state.screens.count {
            if let outcome = state.screens[index].receive(event, context: context) {
                effects += apply(outcome, from: index, &state, context)
            }
        }
        if let outcome = state.list.receive(event, context: context) {
            effects += apply(outcome, from: nil, &state, context)
        }
        return effects
    }

    /// The one place the stack changes. `index` is the screen the outcome came from (nil: the list).
    static func apply(_ outcome: Outcome, from index: Int?, _ state: inout AppState,
                      _ context: ScreenContext) -> [Effect] {
        switch outcome {
        case .stay: return []
        case .pop:
            if let index, index < state.screens.count { state.screens.removeSubrange(index...) }
            return []
        case .popAll:
            state.screens.removeAll()
            return []
        case .push(var screen):
            screen.opened(context: context)
            state.screens.append(screen)
            return []
        case .effects(let effects):
            return effects
        case .notify(let notice):
            state.notice = notice
            return []
        case .scanned(let typed):
            // Only screens without a form below them open the scan prompt: closing them all loses nothing.
            state.screens.removeAll()
            let notice = state.list.jump(to: typed, page: ListState.pageSize(context.area))
            state.notice = notice
            guard !notice.isError, let row = state.list.selectedRow else { return [] }
            return [.openHistory(assetUUID: row.asset.uuid)]
        case .passOn(let key):
            guard let top = state.screens.indices.last else {
                return apply(state.list.handle(key, context: context), from: nil, &state, context)
            }
            return apply(state.screens[top].handle(key, context: context), from: top, &state, context)
        case .all(let outcomes):
            return outcomes.flatMap { apply($0, from: index, &state, context) }
        }
    }

    /// The top screen that covers the whole terminal, the questions over it, and the notice line.
    public static func view(_ state: AppState) -> Frame {
        var frame = Frame(width: state.width, height: state.height)
        let area = frame.bounds
        let base = state.screens.lastIndex { !$0.isOverlay }
        if base == nil { state.list.draw(into: &frame, area: area) }
        for screen in state.screens[(base ?? 0)...] {
            if screen.isOverlay { frame.cursor = nil }
            screen.draw(into: &frame, area: area)
        }
        // A notice too long for the bottom row wraps upwards over the screen (two rows more at most) until the
        // next key clears it.
        if let notice = state.notice, frame.height > 1 {
            frame.putMessage(notice.text, bottom: frame.height - 1, maxRows: min(3, frame.height - 1), in: area,
                             style: notice.isError ? Style(colour: .red, bold: true) : .bold)
        }
        return frame
    }
}
