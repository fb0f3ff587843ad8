import CNcurses
import Glibc
import RigbookApp
import RigbookUI

/// The curses backend: the only code that talks to ncurses. It turns `get_wch` into `Key`s and
/// writes the frame diff's runs. The `Terminal` the program's `Runtime` runs over.
final class CursesTerminal: Terminal {
    private(set) var width = 80
    private(set) var height = 24
    private let useColour: Bool
    /// Colour pairs are set up (colour is wanted and the terminal has colours).
    private var coloursOn = false
    private var active = false
    /// The wide characters of the run being drawn.
    private var wide: [wchar_t] = []

    typealias Input = TerminalInput

    /// Why the full-screen mode cannot start here, if it cannot.
    static func refusal(environment: [String: String]) -> String? {
        if isatty(STDOUT_FILENO) == 0 || isatty(STDIN_FILENO) == 0 {
            return "rigbook: the full-screen register needs a terminal (stdin and stdout are not both a tty)."
                + " Use a subcommand such as `rigbook asset list` in scripts."
        }
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" {
            let shown = term.isEmpty ? "unset" : term
            return "rigbook: this terminal (TERM=\(shown)) cannot show the full-screen register."
                + " Set TERM (e.g. xterm-256color) or use a subcommand such as `rigbook asset list`."
        }
        return nil
    }

    /// A message (a refusal, a notice) as stderr gets it: on a terminal, broken at spaces to the terminal's width
    /// (80 when it does not say), so the terminal never breaks a word; into a file or a pipe, the one line a log
    /// is searched for.
    static func forStandardError(_ message: String) -> String {
        guard isatty(STDERR_FILENO) != 0 else { return message }
        var size = winsize()
        let width = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
        return message.wrapped(toWidth: width).joined(separator: "\n")
    }

    /// Writes frames itself (`DirectOutput`) rather than through curses' screen update.
    private let drawDirectly: Bool
    private var output: DirectOutput?

    init(useColour: Bool, drawDirectly: Bool = true) {
        self.useColour = useColour
        self.drawDirectly = drawDirectly
    }

    var canScroll: Bool { output?.canScroll ?? false }

    /// Enters curses mode: UTF-8 locale, raw keys (so Ctrl-S and Ctrl-C arrive as keys), no echo.
    func start() throws {
        setlocale(LC_ALL, "")
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" {
            // Without a UTF-8 locale, wide characters cannot be shown at all.
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        set_escdelay(25)
        guard initscr() != nil else { throw TerminalError.cannotStart }
        active = true
        // Bracketed paste: the terminal wraps pasted text in ESC [ 200 ~ … ESC [ 201 ~, which curses then
        // reports as these two key codes, so a paste arrives as text and never as keys.
        define_key("\u{1B}[200~", CursesTerminal.pasteStart)
        define_key("\u{1B}[201~", CursesTerminal.pasteEnd)
        // Home and End as the terminals in use send them, whatever TERM says: inside tmux or screen with TERM left
        // at xterm (common over SSH) End comes as ESC [ 4 ~, which xterm's terminfo does not name, and curses would
        // hand over a lone Esc (the form's "Leave this inspection?") and then "[4~".
        for (sequence, code) in [("\u{1B}[1~", KEY_HOME), ("\u{1B}[4~", KEY_END), ("\u{1B}[7~", KEY_HOME),
                                 ("\u{1B}[8~", KEY_END), ("\u{1B}[H", KEY_HOME), ("\u{1B}[F", KEY_END),
                                 ("\u{1B}OH", KEY_HOME), ("\u{1B}OF", KEY_END), ("\u{1B}[3~", KEY_DC)] {
            define_key(sequence, code)
        }
        setBracketedPaste(true)
        raw()
        noecho()
        nonl()
        keypad(rb_stdscr(), true)
        intrflush(rb_stdscr(), false)
        // No look for typed-ahead keys while updating: the loop has read every waiting key before it draws, and
        // curses' look is a poll(2) per changed line, each flushing what it has written so far (a ↓ went out in
        // four writes, the first of them a lone cursor move).
        typeahead(-1)
        if useColour && has_colors() {
            start_color()
            use_default_colors()
            for colour in Colour.allCases where colour != .normal && colour != .qr {
                init_pair(Int16(colour.rawValue), Int16(DirectOutput.cursesColour(colour)), -1)
            }
            // A QR code on screen is black on white whatever the terminal's own colours.
            init_pair(Int16(Colour.qr.rawValue), Int16(COLOR_BLACK), Int16(COLOR_WHITE))
            coloursOn = true
        }
        updateSize()
        if drawDirectly, let direct = DirectOutput(colours: coloursOn) {
            // Curses paints its empty screen now (entering the full-screen mode) and never again: nothing is drawn
            // into its window, so reading keys does not refresh it, and it leaves the cursor where it is.
            leaveok(rb_stdscr(), true)
            refresh()
            direct.forget(clear: false)
            output = direct
        }
    }

    func draw(_ update: ScreenUpdate, cursor: (x: Int, y: Int)?) {
        guard let output else { return draw(update.runs, cursor: cursor) }
        output.draw(update, cursor: cursor, width: width, height: height)
    }

    /// Leaves curses mode and gives the terminal back as it was. Safe to call twice.
    func stop() {
        guard active else { return }
        active = false
        setBracketedPaste(false)
        if let output {
            // Curses gives the terminal back from where it believes the cursor and attributes are: make it so.
            output.leave(height: height)
            mvcur(-1, -1, Int32(height) - 1, 0)
        }
        curs_set(1)
        endwin()
    }

    /// Back into curses mode after a suspend.
    func resume() {
        guard !active else { return }
        active = true
        refresh()
        setBracketedPaste(true)
        updateSize()
        output?.forget(clear: true)
    }

    func updateSize() {
        height = Int(getmaxy(rb_stdscr()))
        width = Int(getmaxx(rb_stdscr()))
    }

    func draw(_ runs: [DrawRun], cursor: (x: Int, y: Int)?) {
        for run in runs {
            attrset(Int32(bitPattern: attributes(run.style)))
            // One buffer for every run: no array made per run.
            wide.removeAll(keepingCapacity: true)
            for scalar in run.scalars { wide.append(wchar_t(bitPattern: scalar)) }
            wide.append(0)
            // The bottom-right cell makes addwstr report an error after drawing; nothing is lost.
            _ = mvaddwstr(Int32(run.y), Int32(run.x), wide)
        }
        attrset(Int32(bitPattern: rb_a_normal()))
        if let cursor {
            curs_set(1)
            move(Int32(cursor.y), Int32(cursor.x))
        } else {
            curs_set(0)
        }
        refresh()
    }

    /// Clears the physical screen so the next draw starts from nothing.
    func clear() {
        if let output { output.forget(clear: true) } else { clearok(rb_stdscr(), true) }
    }

    /// Gives the terminal back, stops like any job (Ctrl-Z), and takes it again on `fg`.
    func suspend() {
        stop()
        Signals.suspendSelf()
        resume()
    }

    func takeSignal() -> TerminalSignal? {
        Signals.take().map { $0 == SIGTSTP ? .suspend : .end(number: $0) }
    }

    private func attributes(_ style: Style) -> UInt32 {
        var bits = rb_a_normal()
        if style.bold { bits |= rb_a_bold() }
        if style.reverse { bits |= rb_a_reverse() }
        if style.dim { bits |= rb_a_dim() }
        if style.underline { bits |= rb_a_underline() }
        if useColour && style.colour != .normal {
            bits |= UInt32(bitPattern: rb_color_pair(Int32(style.colour.rawValue)))
        }
        // Without colours a QR code is drawn in reverse video: dark modules dark on a dark-background terminal.
        if style.colour == .qr && !coloursOn { bits |= rb_a_reverse() }
        return bits
    }

    static let pasteStart = KEY_MAX + 1
    static let pasteEnd = KEY_MAX + 2
    /// A paste longer than this is cut (and the rest read and dropped): no field holds more.
    static let pasteLimit = 1 << 20

    /// Asks the terminal to mark pastes (DECSET 2004), or to stop. Terminals that do not know the mode
    /// ignore it.
    private func setBracketedPaste(_ on: Bool) {
        let sequence = on ? "\u{1B}[?2004h" : "\u{1B}[?2004l"
        fflush(nil)
        _ = sequence.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
    }

    /// Reads the text of a paste up to its end marker, straight from the terminal in large reads (curses
    /// reads a byte per system call, which made a 1 MB paste take many seconds). Bytes after the marker
    /// are handed back to curses. The end is also assumed if the terminal sends nothing for a second (a
    /// lost marker must not swallow what is typed next).
    private func readPaste() -> Input {
        let end = Array("\u{1B}[201~".utf8)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var found: Int?
        while found == nil {
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 1000) > 0 else { break }
            let count = Glibc.read(STDIN_FILENO, &chunk, chunk.count)
            guard count > 0 else { break }
            let searchFrom = max(0, bytes.count - end.count + 1)
            bytes.append(contentsOf: chunk[0..<count])
            found = bytes[searchFrom...].firstRange(of: end)?.lowerBound
            if found == nil && bytes.count > CursesTerminal.pasteLimit * 4 {
                // Far more than any field holds: keep the head, keep only the tail for the marker search.
                bytes.removeSubrange(CursesTerminal.pasteLimit..<(bytes.count - end.count))
            }
        }
        if let found {
            for byte in bytes[(found + end.count)...].reversed() { ungetch(Int32(byte)) }
            bytes.removeSubrange(found...)
        }
        return .key(.paste(String(decoding: bytes.prefix(CursesTerminal.pasteLimit * 4), as: UTF8.self)))
    }

    /// Waits up to `timeoutMilliseconds` (negative: forever) for a key.
    /// `peeking`: only looking for keys already waiting, right before a wait for the next key.
    func read(timeoutMilliseconds: Int32, peeking: Bool) -> Input {
        timeout(timeoutMilliseconds)
        var character: wint_t = 0
        let result = get_wch(&character)
        if result == ERR {
            if pendingSignal.load(ordering: .relaxed) != 0 { return .interrupted }
            // A look for keys already waiting costs no second system call: a terminal that is gone is found by
            // the waiting read that follows it.
            if !peeking, terminalIsGone() { return .hangup }
            return .timeout
        }
        if result == KEY_CODE_YES {
            if Int32(character) == CursesTerminal.pasteStart { return readPaste() }
            return translate(keyCode: Int32(character))
        }
        return translate(character: UInt32(character))
    }

    private func terminalIsGone() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, 0)
        return ready < 0 || descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    private func translate(keyCode: Int32) -> Input {
        switch keyCode {
        case KEY_RESIZE:
            updateSize()
            if let output {
                // Curses repaints its resized (empty) window at once, not over the next frame at the next read.
                refresh()
                output.forget(clear: true)
            }
            return .resize
        default:
            if let key = CursesTerminal.keys[keyCode] { return .key(key) }
            for n in 1...12 where keyCode == rb_key_f(Int32(n)) { return .key(.function(n)) }
            return .unknown
        }
    }

    private static let keys: [Int32: Key] = [
        KEY_UP: .up, KEY_DOWN: .down, KEY_LEFT: .left, KEY_RIGHT: .right, KEY_HOME: .home, KEY_END: .end,
        KEY_PPAGE: .pageUp, KEY_NPAGE: .pageDown, KEY_BACKSPACE: .backspace, KEY_DC: .delete, KEY_BTAB: .backTab,
        KEY_ENTER: .enter,
    ]

    private func translate(character: UInt32) -> Input {
        switch character {
        case 13, 10: return .key(.enter)
        case 9: return .key(.tab)
        case 27: return .key(.escape)
        case 127, 8: return .key(.backspace)
        case 1...26: return .key(.ctrl(Character(Unicode.Scalar(character + 96)!)))
        case 0, 28...31: return .unknown
        default:
            guard let scalar = Unicode.Scalar(character) else { return .unknown }
            return .key(.char(Character(scalar)))
        }
    }
}

enum TerminalError: Error { case cannotStart }
