import Glibc
import RigbookApp
import RigbookStore
import RigbookUI

/// The full-screen program: the `Runtime` over the curses terminal, with signals caught for the loop to act on.
enum FullScreen {
    /// The caller has checked `CursesTerminal.refusal` before opening anything.
    static func run(session: Session, environment: [String: String]) -> Int32 {
        Signals.install()
        // RIGBOOK_CURSES_DRAW=1: curses draws the frames, as before the direct writer (for comparison, and for a
        // terminal where the direct writer would go wrong).
        let terminal = CursesTerminal(useColour: (environment["NO_COLOR"] ?? "").isEmpty,
                                      drawDirectly: environment["RIGBOOK_CURSES_DRAW"] != "1")
        do { try terminal.start() } catch {
            printError("rigbook: cannot start the terminal (TERM=\(environment["TERM"] ?? "")).")
            return ExitCode.failure
        }
        let status = Runtime(session: session, terminal: terminal).run()
        terminal.stop()
        return status
    }

    /// The background sync when the register has a server: $RIGBOOK_SERVER, else the one it last
    /// synced with. $RIGBOOK_SYNC_INTERVAL: seconds between periodic syncs (default 180).
    static func backgroundSync(_ register: Register, _ environment: [String: String]) -> BackgroundSyncWorker? {
        let given = environment["RIGBOOK_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
        guard let url = given ?? (try? register.rememberedServer()) ?? nil else { return nil }
        let interval = environment["RIGBOOK_SYNC_INTERVAL"].flatMap(Double.init).flatMap { $0 >= 1 ? $0 : nil }
        return BackgroundSyncWorker(url: url, registerPath: register.path, interval: interval ?? 180)
    }
}
