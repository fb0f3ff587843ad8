import Glibc
import RigbookApp
import RigbookUI

/// The full-screen program: the curses terminal driving a `Session`, with signals handled in the loop.
enum FullScreen {
    static func run(session: Session, environment: [String: String]) -> Int32 {
        if let refusal = CursesTerminal.refusal(environment: environment) {
            printError(refusal)
            return ExitCode.failure
        }
        Signals.install()
        let terminal = CursesTerminal(useColour: (environment["NO_COLOR"] ?? "").isEmpty)
        do { try terminal.start() } catch {
            printError("rigbook: cannot start the terminal (TERM=\(environment["TERM"] ?? "")).")
            return ExitCode.failure
        }
        session.start()
        session.send(.resize(width: Int(terminal.width), height: Int(terminal.height)))
        var exitCode = ExitCode.success
        loop: while !session.isFinished {
            let (frame, runs) = session.nextDraw()
            terminal.draw(runs, cursor: frame.cursor)
            // Handle every key already waiting before drawing again, so a paste costs one frame.
            // Wake for the next deadline (preview, draft write), else at least once a second.
            var input = terminal.read(timeoutMilliseconds: session.timeoutMilliseconds() ?? 1000)
            while true {
                if let signal = Signals.take() {
                    // The draft goes to disk before anything else happens to the terminal.
                    session.flushDrafts()
                    if signal == SIGTSTP {
                        suspend(terminal, session)
                        continue loop
                    }
                    exitCode = 128 + signal
                    break loop
                }
                switch input {
                case .key(let key):
                    session.send(.key(key))
                case .resize:
                    terminal.clearScreen()
                    session.invalidateScreen()
                    session.send(.resize(width: Int(terminal.width), height: Int(terminal.height)))
                case .hangup:
                    session.flushDrafts()
                    exitCode = 128 + SIGHUP
                    break loop
                case .timeout, .interrupted:
                    session.send(.tick)
                    continue loop
                }
                if session.isFinished { break loop }
                if session.suspendRequested {
                    session.suspendRequested = false
                    suspend(terminal, session)
                    continue loop
                }
                input = terminal.read(timeoutMilliseconds: 0)
                if case .timeout = input { continue loop }
            }
        }
        terminal.stop()
        return exitCode
    }

    /// Gives the terminal back, stops like any job (Ctrl-Z), and redraws everything on `fg`.
    static func suspend(_ terminal: CursesTerminal, _ session: Session) {
        terminal.stop()
        Signals.suspendSelf()
        terminal.resume()
        terminal.clearScreen()
        session.invalidateScreen()
        session.send(.resize(width: Int(terminal.width), height: Int(terminal.height)))
    }
}
