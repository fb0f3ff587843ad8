import Foundation
import RigbookCore
import RigbookStore
import RigbookUI

/// A running Rigbook without a terminal: it feeds events to `App.update`, carries out the effects
/// against the register and the files, and renders frames. The curses loop and the test harness
/// both drive this, so what tests see is what the terminal gets.
public final class Session {
    public private(set) var state: AppState
    public let home: DataHome
    public let register: Register
    public private(set) var isFinished = false
    private var shownFrame: Frame?

    public init(home: DataHome, register: Register, today: CalendarDate, width: Int = 80, height: Int = 24) {
        self.home = home
        self.register = register
        state = AppState(today: today, registerPath: register.path)
        state.width = width
        state.height = height
    }

    /// Loads the register into the list. Call once before the first frame.
    public func start() {
        send(.resize(width: state.width, height: state.height))
        perform(.reloadRegister)
    }

    /// Runs one event through `update` and every effect it asks for.
    public func send(_ event: Event) {
        var pending = App.update(&state, event)
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            if let result = perform(effect) { pending += App.update(&state, result) }
        }
    }

    public func send(_ keys: [Key]) { for key in keys { send(.key(key)) } }

    @discardableResult
    private func perform(_ effect: Effect) -> Event? {
        switch effect {
        case .quit:
            isFinished = true
            return nil
        case .reloadRegister:
            do {
                let rows = try register.rows()
                let event = Event.registerLoaded(rows)
                _ = App.update(&state, event)
                return nil
            } catch {
                return .failure(error.description)
            }
        case .loadSample:
            do {
                try SampleData(count: state.sampleSize, seed: 42, today: state.today).load(into: register)
                return .sampleLoaded(count: state.sampleSize)
            } catch {
                return .failure(error.description)
            }
        }
    }

    /// The current screen.
    public func frame() -> Frame { App.view(state) }

    /// The runs that bring the terminal from the last shown frame to the current one.
    public func nextDraw() -> (frame: Frame, runs: [DrawRun]) {
        let frame = self.frame()
        let runs = FrameDiff.runs(from: shownFrame, to: frame)
        shownFrame = frame
        return (frame, runs)
    }

    /// Forget what the terminal shows (after a resize or a resume): the next draw repaints everything.
    public func invalidateScreen() { shownFrame = nil }
}
