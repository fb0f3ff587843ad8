import CNcurses
import Glibc
import RigbookUI

/// The curses backend's writer of frames: the frame diff's runs (and scroll) written with the terminal's own
/// sequences from terminfo, in one `write(2)` a frame. Curses' screen update compared every changed line again,
/// worked out the cheapest cursor moves and formatted them, and found a scroll by hashing every line: about half
/// the CPU of a ↓ in the list, and most of the time from key to screen. Curses still sets the terminal
/// up, reads the keys and gives the terminal back; it never draws (see `CursesTerminal`).
final class DirectOutput {
    private struct Capabilities {
        var moveTo: String
        var plain: [UInt8]
        var bold: [UInt8]
        var dim: [UInt8]
        var reverse: [UInt8]
        var underline: [UInt8]
        var foreground: String?
        var background: String?
        var defaultColours: [UInt8]
        var hideCursor: [UInt8]
        var showCursor: [UInt8]
        var clear: [UInt8]
        var scrollRegion: String?
        var index: [UInt8]
        var reverseIndex: [UInt8]
        /// Writing the bottom-right cell scrolls the screen (automatic margins without the xterm "newline glitch").
        var lastCellScrolls: Bool
        /// `sgr0` is ECMA-48's SGR 0 (`ESC [ m` or `ESC [ 0 m`), which also puts the colours back to the
        /// terminal's own: `op` after it would repeat that.
        var plainResetsColours: Bool
        /// Each colour's `setaf` (for the QR code's, `setaf` and `setab`) by `Colour.rawValue`, made once: empty
        /// without colours.
        var colourSequences: [[UInt8]] = []
    }

    private let capabilities: Capabilities
    private let colours: Bool
    /// The frame being written and what is known of the terminal. Kept in one value and taken out of the object
    /// while a frame is written: every append to a property of a class is an exclusivity check at run time, a
    /// third of the writer's work on a ↓.
    private var writer = Writer()
    private var clearFirst = false

    fileprivate struct Writer {
        var buffer: [UInt8] = []
        /// Where the terminal's cursor is, when known.
        var at: (y: Int, x: Int)?
        /// The attributes the terminal is writing with, when known.
        var style: Style?
        var cursorShown: Bool?
        /// `cup` by row and column (`y * columns + x`), made once each: empty until needed.
        var moves: [[UInt8]] = []
        var columns = 0
        /// `csr` by its rows (`top << 16 | bottom`): a list scrolls the same region key after key.
        var regions: [Int: [UInt8]] = [:]
        /// The terminal's scroll region (`top << 16 | bottom`), when known.
        var region: Int?
    }

    /// Nil when the terminal lacks what is needed to position the cursor: curses draws then.
    init?(colours: Bool) {
        func string(_ name: String) -> String? { rb_tigetstr(name).map { String(cString: $0) } }
        func bytes(_ name: String) -> [UInt8] { Array((string(name) ?? "").utf8) }
        guard let moveTo = string("cup"), let plain = string("sgr0") else { return nil }
        let scrolls = string("csr") != nil && string("ind") != nil && string("ri") != nil
        var capabilities = Capabilities(
            moveTo: moveTo, plain: Array(plain.utf8), bold: bytes("bold"), dim: bytes("dim"), reverse: bytes("rev"),
            underline: bytes("smul"), foreground: string("setaf"), background: string("setab"),
            defaultColours: bytes("op"), hideCursor: bytes("civis"), showCursor: bytes("cnorm"), clear: bytes("clear"),
            scrollRegion: scrolls ? string("csr") : nil, index: bytes("ind"), reverseIndex: bytes("ri"),
            lastCellScrolls: rb_tigetflag("am") != 0 && rb_tigetflag("xenl") == 0,
            plainResetsColours: StyleChange.resetsColours(Array(plain.utf8)))
        self.colours = colours && capabilities.foreground != nil
        if self.colours, let foreground = capabilities.foreground {
            func parameter(_ format: String, _ value: Int32) -> [UInt8] {
                rb_tiparm1(format, value).map { Array(String(cString: $0).utf8) } ?? []
            }
            capabilities.colourSequences = Colour.allCases.map { colour in
                switch colour {
                case .normal: []
                case .qr: parameter(foreground, Int32(COLOR_BLACK))
                    + (capabilities.background.map { parameter($0, Int32(COLOR_WHITE)) } ?? [])
                default: parameter(foreground, DirectOutput.cursesColour(colour))
                }
            }
        }
        self.capabilities = capabilities
        writer.buffer.reserveCapacity(8192)
    }

    /// Whether a scroll can be written (the terminal has a scroll region and index commands).
    var canScroll: Bool { capabilities.scrollRegion != nil }

    /// Nothing about the terminal is known any more (after curses wrote to it, or a resume): the next frame
    /// starts by clearing it.
    func forget(clear: Bool) {
        writer.at = nil
        writer.style = nil
        writer.cursorShown = nil
        writer.region = nil
        if clear { clearFirst = true }
    }

    func draw(_ update: ScreenUpdate, cursor: (x: Int, y: Int)?, width: Int, height: Int) {
        var w = Writer()
        swap(&w, &writer)
        defer { swap(&w, &writer) }
        encode(update, cursor: cursor, width: width, height: height, clearing: clearFirst, &w)
        clearFirst = false
        DirectOutput.flush(w.buffer)
    }

    /// Puts in `w.buffer` what brings the terminal to `update` and the cursor, from what `w` knows of it
    /// (`clearing`: from a cleared screen).
    private func encode(_ update: ScreenUpdate, cursor: (x: Int, y: Int)?, width: Int, height: Int,
                        clearing: Bool, _ w: inout Writer) {
        w.buffer.removeAll(keepingCapacity: true)
        if w.columns != width || w.moves.count != width * height {
            w.moves = Array(repeating: [], count: max(0, width * height))
            w.columns = width
        }
        if clearing {
            setStyle(.plain, &w)
            w.buffer += capabilities.clear
            w.at = nil
        }
        if let scroll = update.scroll, let region = capabilities.scrollRegion {
            // Blank rows come in with the attributes in force: none.
            setStyle(.plain, &w)
            // The region is left set after the scroll: a list scrolled key after key sets it once, and each key's
            // scroll is a move and an index (only `ind` and `ri` depend on it; every other write is placed with
            // `cup`). Not where writing a row's last cell wraps at once (`am` without `xenl`): at the region's bottom
            // that would scroll it.
            setRegion(region, top: scroll.top, bottom: scroll.bottom, &w)
            if scroll.by > 0 {
                moveTo(y: scroll.bottom, x: 0, &w)
                for _ in 0..<scroll.by { w.buffer += capabilities.index }
            } else {
                moveTo(y: scroll.top, x: 0, &w)
                for _ in 0..<(-scroll.by) { w.buffer += capabilities.reverseIndex }
            }
            if capabilities.lastCellScrolls { setRegion(region, top: 0, bottom: height - 1, &w) }
        }
        for run in update.runs {
            var scalars = run.scalars[...]
            if capabilities.lastCellScrolls, run.y == height - 1, run.x + run.width >= width {
                // The last cell would scroll the whole screen up: left as it is.
                if scalars.count == 1 && run.width > 1 { continue }
                scalars = scalars.dropLast()
            }
            if scalars.isEmpty { continue }
            setStyle(run.style, &w)
            moveTo(y: run.y, x: run.x, &w)
            var narrow = true
            for value in scalars {
                if value < 0x80 { w.buffer.append(UInt8(value)); continue }
                guard let scalar = Unicode.Scalar(value) else { continue }  // never: runs hold scalars
                if narrow, DisplayWidth.of(scalar) != 1 { narrow = false }
                UTF8.encode(scalar) { w.buffer.append($0) }
            }
            // After a wide or combining character the terminal may measure otherwise, and at the right edge it waits
            // to wrap: the next run is placed explicitly. After characters of one column each it goes on from where
            // the run ends, as each of the run's own characters went on from the one before (an ellipsis ending a
            // list column cost a cursor move after it).
            w.at = narrow && run.x + run.width < width ? (run.y, run.x + run.width) : nil
        }
        setStyle(.plain, &w)
        if let cursor {
            moveTo(y: cursor.y, x: cursor.x, &w)
            if w.cursorShown != true { w.buffer += capabilities.showCursor; w.cursorShown = true }
        } else if w.cursorShown != false {
            w.buffer += capabilities.hideCursor
            w.cursorShown = false
        }
    }

    /// Before curses gives the terminal back: plain attributes, the cursor shown, at the start of the last row.
    func leave(height: Int) {
        var w = Writer()
        swap(&w, &writer)
        defer { swap(&w, &writer) }
        w.buffer.removeAll(keepingCapacity: true)
        w.style = nil
        setStyle(.plain, &w)
        // The whole screen scrolls again, whatever region a list's scroll left set (or may have: when unknown).
        if let region = capabilities.scrollRegion, w.region != DirectOutput.regionKey(top: 0, bottom: height - 1) {
            setRegion(region, top: 0, bottom: height - 1, &w)
        }
        // The terminal's own colours whatever `sgr0` does to them: the shell gets the terminal back.
        if capabilities.plainResetsColours { w.buffer += capabilities.defaultColours }
        w.buffer += capabilities.showCursor
        moveTo(y: max(0, height - 1), x: 0, force: true, &w)
        DirectOutput.flush(w.buffer)
        w.at = nil
        w.style = nil
        w.cursorShown = nil
    }

    private func moveTo(y: Int, x: Int, force: Bool = false, _ w: inout Writer) {
        if !force, let at = w.at, at.y == y, at.x == x { return }
        let key = y * w.columns + x
        if x >= 0, x < w.columns, key >= 0, key < w.moves.count, !w.moves[key].isEmpty {
            w.buffer += w.moves[key]
        } else if let text = rb_tiparm2(capabilities.moveTo, Int32(y), Int32(x)) {
            let bytes = Array(String(cString: text).utf8)
            if x >= 0, x < w.columns, key >= 0, key < w.moves.count { w.moves[key] = bytes }
            w.buffer += bytes
        }
        w.at = (y, x)
    }

    private static func regionKey(top: Int, bottom: Int) -> Int { top << 16 | bottom }

    /// Sets the terminal's scroll region to rows `top...bottom` unless it is known to be that already. Setting it
    /// homes the cursor on some terminals.
    private func setRegion(_ format: String, top: Int, bottom: Int, _ w: inout Writer) {
        let key = DirectOutput.regionKey(top: top, bottom: bottom)
        if w.region == key { return }
        if let kept = w.regions[key] {
            w.buffer += kept
        } else {
            var bytes: [UInt8] = []
            if let text = rb_tiparm2(format, Int32(top), Int32(bottom)) { bytes = Array(String(cString: text).utf8) }
            if w.regions.count < 64 { w.regions[key] = bytes }
            w.buffer += bytes
        }
        w.region = key
        w.at = nil
    }

    /// Brings the terminal from the style it writes with to `new`, with only what changes when it can
    /// (`StyleChange`): an attribute added, a colour set. Every style from `sgr0` up was most of a ↓'s bytes.
    private func setStyle(_ new: Style, _ w: inout Writer) {
        let to = StyleChange.Attributes(new, colours: colours)
        let from = w.style.map { StyleChange.Attributes($0, colours: colours) }
        if from == to { return w.style = new }
        let change = StyleChange.between(from, to, plainResetsColours: capabilities.plainResetsColours)
        var sequences: [[UInt8]] = []
        if change.plain { sequences.append(capabilities.plain) }
        if change.defaultColours { sequences.append(capabilities.defaultColours) }
        if change.bold { sequences.append(capabilities.bold) }
        if change.dim { sequences.append(capabilities.dim) }
        if change.underline { sequences.append(capabilities.underline) }
        if change.reverse { sequences.append(capabilities.reverse) }
        if let colour = change.colour { sequences.append(capabilities.colourSequences[Int(colour.rawValue)]) }
        StyleChange.append(sequences, to: &w.buffer)
        w.style = new
    }

    static func cursesColour(_ colour: Colour) -> Int32 {
        switch colour {
        case .red: Int32(COLOR_RED)
        case .green: Int32(COLOR_GREEN)
        case .yellow: Int32(COLOR_YELLOW)
        case .blue: Int32(COLOR_BLUE)
        case .magenta: Int32(COLOR_MAGENTA)
        case .cyan: Int32(COLOR_CYAN)
        case .normal, .qr: Int32(COLOR_WHITE)
        }
    }

    /// One `write(2)` for the frame (more only when the terminal takes part of it).
    private static func flush(_ buffer: [UInt8]) {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 { offset += written; continue }
                if written < 0 && (errno == EINTR || errno == EAGAIN) {
                    if errno == EAGAIN {
                        var descriptor = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&descriptor, 1, 100)
                    }
                    continue
                }
                // The terminal is gone: the loop finds that out at its next read.
                break
            }
        }
    }
}
