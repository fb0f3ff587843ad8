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
    /// Seconds on a monotonic clock; tests pass a virtual one.
    private let clock: () -> Double

    public init(home: DataHome, register: Register, today: CalendarDate, width: Int = 80, height: Int = 24,
                clock: @escaping () -> Double = Session.monotonicSeconds) {
        self.home = home
        self.register = register
        self.clock = clock
        state = AppState(today: today, registerPath: register.path)
        state.width = width
        state.height = height
    }

    public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Loads the register into the list. Call once before the first frame.
    public func start() {
        send(.resize(width: state.width, height: state.height))
        run([.reloadRegister])
    }

    /// Runs one event through `update` and every effect it asks for.
    public func send(_ event: Event) {
        run(App.update(&state, event, now: clock()))
    }

    public func send(_ keys: [Key]) { for key in keys { send(.key(key)) } }

    private func run(_ effects: [Effect]) {
        var pending = effects
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            if let result = perform(effect) { pending += App.update(&state, result, now: clock()) }
        }
    }

    /// How long the loop may wait for a key before something comes due (nil: no deadline).
    public func timeoutMilliseconds() -> Int32? {
        guard let deadline = state.nextDeadline else { return nil }
        return Int32(max(0, min(60_000, ((deadline - clock()) * 1000).rounded(.up))))
    }

    private func perform(_ effect: Effect) -> Event? {
        do {
            switch effect {
            case .quit:
                isFinished = true
                return nil
            case .reloadRegister:
                return .registerLoaded(try register.rows())
            case .loadSample:
                try SampleData(count: state.sampleSize, seed: 42, today: state.today).load(into: register)
                return .sampleLoaded(count: state.sampleSize)
            case .openHistory(let uuid):
                guard let row = try register.asset(uuid: uuid) else { return .failure("That asset is no longer in the register.") }
                return .historyLoaded(row, try register.history(assetUUID: uuid))
            case .openForm(let uuid, let amending):
                guard let row = try register.asset(uuid: uuid) else { return .failure("That asset is no longer in the register.") }
                return .formReady(try formSeed(row: row, amending: amending))
            case .save(let record, let name, let certificate):
                do {
                    try register.insert(record, saved: SaveStamp())
                } catch {
                    return .saveFailed(error.description)
                }
                // The record is committed; the profile only prefills the next form.
                try? Profile(inspectorName: name, certificationNumber: certificate).save(to: home.profilePath)
                let tag = (try? register.asset(uuid: record.assetUUID))??.asset.tag ?? "the asset"
                return .saved(assetUUID: record.assetUUID, tag: tag)
            }
        } catch let error as RegisterError {
            return .failure(error.description)
        } catch {
            return .failure("\(error)")
        }
    }

    /// The prefilled form: the profile's name and number, today, a periodic thorough examination.
    /// An amendment starts from the amended record's values, with the confirmation to give again.
    private func formSeed(row: RegisterRow, amending: StoredInspection?) throws -> FormSeed {
        let history = try register.history(assetUUID: row.asset.uuid).map(\.facts)
        let profile = Profile.load(from: home.profilePath)
        var baseline = InspectionValues.blank(inspectorName: profile.inspectorName,
                                              certificationNumber: profile.certificationNumber, today: state.today)
        if let amending {
            baseline = amending.values
            baseline.confirmed = false
        }
        return FormSeed(row: row, history: history, baseline: baseline,
                        draftID: DraftIdentity.sessionID(assetUUID: row.asset.uuid), amends: amending?.id)
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
