import Foundation
import RigbookCore

/// Everything that happens to the program: keys, resizes and the answers to effects.
public enum Event: Sendable {
    case key(Key)
    case resize(width: Int, height: Int)
    case registerLoaded([RegisterRow])
    case sampleLoaded(count: Int)
    case failure(String)
}

/// Work `update` asks the runtime to do: anything that touches files, the register or the process.
public enum Effect: Sendable, Equatable {
    case reloadRegister
    case loadSample
    case quit
}

/// A line at the bottom that reports what just happened, until the next key.
public struct Notice: Sendable, Equatable {
    public var text: String
    public var isError: Bool

    public static func info(_ text: String) -> Notice { Notice(text: text, isError: false) }
    public static func error(_ text: String) -> Notice { Notice(text: text, isError: true) }
}

/// Screens shown over the register list, top of the stack last.
public enum Overlay: Sendable {
    case help(HelpState)
}

public struct AppState: Sendable {
    public var today: CalendarDate
    public var width = 80
    public var height = 24
    public var list = ListState()
    public var overlays: [Overlay] = []
    public var notice: Notice?
    /// Where the register lives, for the welcome screen and errors.
    public var registerPath: String
    public var sampleSize = 200

    public init(today: CalendarDate, registerPath: String) {
        self.today = today
        self.registerPath = registerPath
    }

    /// Rows the list can show at once.
    var listPageSize: Int { max(1, height - ListView.chromeHeight) }
}

public enum App {
    /// The one place state changes. Pure: no clock, no files, no terminal.
    public static func update(_ state: inout AppState, _ event: Event) -> [Effect] {
        switch event {
        case .resize(let width, let height):
            state.width = width
            state.height = height
            state.list.scrollToSelection(pageSize: state.listPageSize)
            return []
        case .registerLoaded(let rows):
            state.list.load(rows, today: state.today)
            state.list.scrollToSelection(pageSize: state.listPageSize)
            return []
        case .sampleLoaded(let count):
            state.notice = .info("Loaded \(count) sample assets with their inspection history.")
            return [.reloadRegister]
        case .failure(let message):
            state.notice = .error(message)
            return []
        case .key(let key):
            state.notice = nil
            if let top = state.overlays.last {
                switch top {
                case .help(var help):
                    if help.handle(key, pageSize: state.height - 2) { state.overlays.removeLast() }
                    else { state.overlays[state.overlays.count - 1] = .help(help) }
                }
                return []
            }
            return updateList(&state, key)
        }
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
        case .help: state.overlays.append(.help(HelpState(keymap: ListState.keymap.helpLines(), title: ListState.keymap.title)))
        case .quit: return [.quit]
        case .loadSample:
            if state.list.rows.isEmpty { return [.loadSample] }
            state.notice = .error("Sample data only goes into an empty register; this one holds \(state.list.rows.count) assets.")
        case .openHistory, .inspect, .drafts:
            if state.list.selectedRow == nil && action != .drafts {
                state.notice = .error("There is no asset selected.")
            } else {
                state.notice = .info("Not available yet.")
            }
        }
        return []
    }

    public static func view(_ state: AppState) -> Frame {
        var frame = Frame(width: state.width, height: state.height)
        if let top = state.overlays.last {
            switch top {
            case .help(let help): help.draw(into: &frame)
            }
            return frame
        }
        ListView.draw(state, into: &frame)
        return frame
    }
}

extension Character {
    var isControlCharacter: Bool { unicodeScalars.contains { TextRules.isControl($0) } }
}
