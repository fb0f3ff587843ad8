import Glibc
import RigbookApp
import RigbookStore
import RigbookUI

/// The full-screen program: the curses terminal driving a `Session`, with signals handled in the loop.
enum FullScreen {
    /// The caller has checked `CursesTerminal.refusal` before opening anything.
    static func run(session: Session, environment: [String: String]) -> Int32 {
        Signals.install()
        // RIGBOOK_CURSES_DRAW=1: curses draws the frames, as before `DirectOutput` (for comparison, and for a terminal
        // where the direct writer would go wrong).
        let terminal = CursesTerminal(useColour: (environment["NO_COLOR"] ?? "").isEmpty,
                                      drawDirectly: environment["RIGBOOK_CURSES_DRAW"] != "1")
        do { try terminal.start() } catch {
            printError("rigbook: cannot start the terminal (TERM=\(environment["TERM"] ?? "")).")
            return ExitCode.failure
        }
        session.start()
        session.send(.resize(width: Int(terminal.width), height: Int(terminal.height)))
        // A turn's journal line is stored just before what its keys show goes to the terminal: nothing is on the
        // screen that a `kill -9` could lose (DECISIONS.md: the journal line before the screen).
        session.journalLinesWait = true
        // The once-a-second looks at the calendar, the sync and the register wait for the frame too.
        session.looksAroundAfterFrame = true
        var exitCode = ExitCode.success
        // The key's echo, if it has one, after its journal line.
        func showEcho() {
            guard let echo = session.echo(scrolling: terminal.canScroll) else { return }
            session.writeJournals()
            terminal.draw(echo.update, cursor: echo.cursor)
            FullScreen.letTheTerminalRun()
        }
        loop: while !session.isFinished {
            if terminal.drawsDirectly {
                // What a key shows is on the screen before the frame is made (`TypedEcho`, `SelectionEcho`): written
                // as the key is handled, else here (the key came after a tick or a resize of the same batch).
                showEcho()
                let (frame, update) = session.nextUpdate(scrolling: terminal.canScroll)
                session.writeJournals()
                terminal.draw(update, cursor: frame.cursor)
            } else {
                let (frame, runs) = session.nextDraw()
                session.writeJournals()
                terminal.draw(runs, cursor: frame.cursor)
            }
            // What another process committed (or midnight, or a sync) is drawn before the wait for the next key.
            if session.lookAround() { continue loop }
            session.prepareNextKey()
            // The echoes of ↓ and ↑, and of a character typed into a form, made and turned into bytes while the loop
            // waits (`EchoAhead`, `TypedEchoAhead`).
            let echoesAhead = terminal.drawsDirectly ? session.echoesAheadOfNextKey(scrolling: terminal.canScroll)
                .compactMap { echo in
                    terminal.prepare(echo.update, cursor: echo.cursor.map { ($0.x, $0.y) }).map { (echo, $0) }
                } : []
            let typingAhead = terminal.drawsDirectly ? session.typingAheadOfNextKey().flatMap { ahead in
                terminal.prepare(ahead.echo).map { (ahead, $0) }
            } : nil
            // A key whose echo was made ahead: on the screen before anything else is done with it (a typed
            // character's journal line first).
            func writeEchoAhead(of key: Key) {
                if let (echo, bytes) = echoesAhead.first(where: { $0.0.keys.contains(key) }),
                   session.isCurrent(echo), terminal.writeAhead(bytes) {
                    session.wroteEchoAhead(echo)
                    FullScreen.letTheTerminalRun()
                } else if let (ahead, bytes) = typingAhead, let character = ahead.echo.character(of: key),
                          session.isCurrent(ahead), session.journalAhead(ahead, typing: character),
                          terminal.writeAhead(bytes, typing: character) {
                    session.wroteEchoAhead(ahead, typing: character)
                    FullScreen.letTheTerminalRun()
                }
            }
            // Wake for the next deadline (preview, draft write), else at least once a second.
            var input = terminal.read(timeoutMilliseconds: session.timeoutMilliseconds() ?? 1000)
            var peeked = false
            // Handle every key already waiting before drawing again, so a paste costs one frame.
            while true {
                switch input {
                case .key(let key):
                    if !peeked { writeEchoAhead(of: key) }
                    session.send(.key(key))
                    // What the first key shows goes out before the look for more: the frame draws what they change.
                    if !peeked, terminal.drawsDirectly { showEcho() }
                case .resize:
                    terminal.clearScreen()
                    session.invalidateScreen()
                    session.send(.resize(width: Int(terminal.width), height: Int(terminal.height)))
                case .hangup:
                    exitCode = 128 + SIGHUP
                    break loop
                case .timeout, .interrupted:
                    session.send(.tick)
                case .unknown: break  // a key rigbook does not know: ignored, no tick; the next input is read
                }
                if let signal = Signals.take() {
                    // Keys that reached the terminal before the signal are part of what was typed.
                    takeWaitingKeys(terminal, session)
                    if signal == SIGTSTP {
                        session.flushDrafts()
                        suspend(terminal, session)
                        continue loop
                    }
                    exitCode = 128 + signal
                    break loop
                }
                if session.isFinished { break loop }
                if session.redrawRequested {
                    // Ctrl-L: whatever else wrote to the terminal is painted over.
                    session.redrawRequested = false
                    terminal.clearScreen()
                    session.invalidateScreen()
                }
                if session.suspendRequested {
                    session.suspendRequested = false
                    suspend(terminal, session)
                    continue loop
                }
                guard case .key = input else { continue loop }
                input = terminal.read(timeoutMilliseconds: 0, peeking: true)
                peeked = true
                if case .timeout = input { continue loop }
            }
        }
        // Leaving for any reason: the draft goes to disk before the terminal is given back.
        session.flushDrafts()
        terminal.stop()
        return exitCode
    }

    /// Waits up to 300 µs after an echo, or until a key comes: the terminal (tmux, an SSH client, a terminal emulator)
    /// was woken by the echo's `write(2)` and must parse it and send it on, and on a machine of few cores it is often
    /// put on this one, behind the key's update, its frame and the echoes made ahead (~250 µs of work): a
    /// key's tail was that wait (PERFORMANCE.md, ninth pass: p99 952 → 719 µs for ↓, 912 → 742 µs typed, vim 834 and
    /// 784 in the same turns). `select(2)`: `poll(2)` counts in milliseconds.
    static func letTheTerminalRun() {
        var input = fd_set()
        input.__fds_bits.0 = 1 << STDIN_FILENO
        var wait = timeval(tv_sec: 0, tv_usec: 300)
        _ = select(STDIN_FILENO + 1, &input, nil, nil, &wait)
    }

    /// The background sync when the register has a server: $RIGBOOK_SERVER, else the one it last
    /// synced with. $RIGBOOK_SYNC_INTERVAL: seconds between periodic syncs (default 180).
    static func backgroundSync(_ register: Register, _ environment: [String: String]) -> BackgroundSyncWorker? {
        let given = environment["RIGBOOK_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
        guard let url = given ?? (try? register.rememberedServer()) ?? nil else { return nil }
        let interval = environment["RIGBOOK_SYNC_INTERVAL"].flatMap(Double.init).flatMap { $0 >= 1 ? $0 : nil }
        return BackgroundSyncWorker(url: url, registerPath: register.path, interval: interval ?? 180)
    }

    /// Feeds the keys already waiting in the terminal to the session (bounded, never blocking).
    static func takeWaitingKeys(_ terminal: CursesTerminal, _ session: Session) {
        for _ in 0..<100_000 {
            switch terminal.read(timeoutMilliseconds: 0) {
            case .key(let key): session.send(.key(key))
            case .unknown: continue
            default: return
            }
        }
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
