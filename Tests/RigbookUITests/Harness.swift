import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookUI
@testable import RigbookApp
import RigbookStore
import RigbookCore

/// The fixed "today" every UI test runs on.
let harnessToday = CalendarDate(iso: "2026-11-30")!

/// A clock the tests move by hand, in whole milliseconds so virtual times never drift
/// (10.000 + 0.300 is exactly the 10.3 the form computes as its preview deadline).
final class HarnessClock {
    var milliseconds: Int

    init(milliseconds: Int = 10_000) { self.milliseconds = milliseconds }

    var seconds: Double { Double(milliseconds) / 1000 }
}

/// The one UI test harness: the program's own `Runtime` over an in-memory terminal, with a real `Session` (real
/// register in a temporary data home), driven by keys on a virtual clock. After every key, resize and tick the
/// runtime has drawn its frame; the harness expects the terminal to show exactly the session's frame, text and
/// styles, and the same frame reached by the plain runs of `FrameDiff.runs`.
final class Harness {
    let root: URL
    let home: DataHome
    let register: Register
    let clock: HarnessClock
    let runtime: Runtime
    let terminal: InMemoryTerminal
    var session: Session { runtime.session }
    /// The runs that bring the frame before the last step to the frame after it (what a terminal without a scroll
    /// region receives).
    private(set) var lastRuns: [DrawRun] = []
    /// A second terminal in memory that receives only those runs, and the frame it was last brought to.
    private var runsTerminal = InMemoryScreen(width: 0, height: 0)
    private var runsShown: Frame?
    /// Only the harness that made the home removes it.
    private let ownsHome: Bool

    enum Content {
        case empty
        case sample(count: Int)
        case assets([Asset])
    }

    /// - Parameter prepare: runs on the register before the session loads it.
    /// - Parameter calendar: today as the calendar says it now (nil: the harness's day throughout).
    /// - Parameter listWindowFrom: from how many assets the list is read a window at a time.
    init(_ content: Content = .empty, width: Int = 80, height: Int = 24, profile: Profile? = nil,
         prepare: (Register) throws -> Void = { _ in }, calendar: (@Sendable () -> CalendarDate)? = nil,
         listWindowFrom: Int = ListState.windowFrom, sourceLocation: SourceLocation = #_sourceLocation) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("rigbook-ui-\(UUID().uuidString)")
        home = DataHome(root: root.path)
        ownsHome = true
        register = try Register.open(path: home.registerPath)
        // Complete particulars, as a register in use has: a thorough examination's report needs them.
        for change in TestParticulars.changes { try register.record(change) }
        switch content {
        case .empty: break
        case .sample(let count): try SampleData(count: count, seed: 42, today: harnessToday).load(into: register)
        case .assets(let assets): for asset in assets { try register.addAsset(asset) }
        }
        try prepare(register)
        if let profile { try profile.save(to: home.profilePath) }
        (clock, runtime, terminal) = Harness.start(home: home, register: register, width: width, height: height,
                                                   calendar: calendar, listWindowFrom: listWindowFrom)
        verifyScreen(sourceLocation: sourceLocation)
    }

    /// A second session on the same home (another Register instance, its own clock), as a second
    /// terminal on the same machine would be. `readOnly`: its register opened only to read, as the program opens
    /// one it may not write.
    init(sharingHomeOf other: Harness, readOnly: Bool = false, listWindowFrom: Int = ListState.windowFrom,
         sourceLocation: SourceLocation = #_sourceLocation) throws {
        root = other.root
        home = other.home
        ownsHome = false
        register = readOnly ? try Register.openForReading(path: home.registerPath)
            : try Register.open(path: home.registerPath)
        (clock, runtime, terminal) = Harness.start(home: home, register: register, width: other.width,
                                                   height: other.height, listWindowFrom: listWindowFrom)
        verifyScreen(sourceLocation: sourceLocation)
    }

    private static func start(home: DataHome, register: Register, width: Int, height: Int,
                              calendar: (@Sendable () -> CalendarDate)? = nil, listWindowFrom: Int)
        -> (HarnessClock, Runtime, InMemoryTerminal) {
        let clock = HarnessClock()
        let session = Session(home: home, register: register, today: harnessToday, width: width, height: height,
                              clock: { clock.seconds }, calendar: calendar, listWindowFrom: listWindowFrom)
        let terminal = InMemoryTerminal(width: width, height: height)
        let runtime = Runtime(session: session, terminal: terminal)
        runtime.start()
        return (clock, runtime, terminal)
    }

    deinit { if ownsHome { try? FileManager.default.removeItem(at: root) } }

    // MARK: Driving

    func press(_ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation) {
        press(keys, sourceLocation: sourceLocation)
    }

    func press(_ keys: [Key], sourceLocation: SourceLocation = #_sourceLocation) {
        for key in keys {
            runtime.press(key)
            verifyScreen(sourceLocation: sourceLocation)
        }
    }

    /// Keys that reach the program together, before it draws again (typed ahead, or a paste in a
    /// terminal without bracketed paste); the screen is checked once, after the last.
    func burst(_ keys: [Key], sourceLocation: SourceLocation = #_sourceLocation) {
        runtime.press(keys)
        verifyScreen(sourceLocation: sourceLocation)
    }

    /// Types text one key per character.
    func type(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        press(Key.typing(text), sourceLocation: sourceLocation)
    }

    func resize(width: Int, height: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        terminal.resize(width: width, height: height)
        step(sourceLocation: sourceLocation)
    }

    /// Moves the virtual clock and lets the loop wake up (`.tick`).
    func advance(_ seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        clock.milliseconds += Int((seconds * 1000).rounded())
        step(sourceLocation: sourceLocation)
    }

    /// One turn of the runtime's loop on what the terminal holds (a tick when nothing), then its frame.
    private func step(sourceLocation: SourceLocation) {
        _ = runtime.handleInput(waitingMilliseconds: 0)
        runtime.drawFrame()
        runtime.afterFrame()
        verifyScreen(sourceLocation: sourceLocation)
    }

    /// Lets the filter's index that a load asked for be made beside the loop and taken, then draws the frame.
    func settleSearchIndex(sourceLocation: SourceLocation = #_sourceLocation) {
        session.settleSearchIndex()
        checkScreen(sourceLocation: sourceLocation)
    }

    /// After an event sent to the session directly: the runtime draws its frame, and the screen is checked.
    func checkScreen(sourceLocation: SourceLocation = #_sourceLocation) {
        runtime.drawFrame()
        verifyScreen(sourceLocation: sourceLocation)
    }

    /// Expects the terminal to show the session's frame, and the frame's plain runs to bring the runs-only terminal
    /// there too.
    private func verifyScreen(sourceLocation: SourceLocation) {
        let frame = session.frame()
        lastRuns = FrameDiff.runs(from: runsShown, to: frame)
        runsTerminal.apply(lastRuns, size: (frame.width, frame.height))
        runsShown = frame
        var cells = frame
        cells.cursor = nil  // a terminal in memory has no cursor
        #expect(runsTerminal.frame == cells, "the plain runs do not reproduce the frame", sourceLocation: sourceLocation)
        #expect(terminal.cursor.map { [$0.x, $0.y] } == frame.cursor.map { [$0.x, $0.y] },
                "the terminal's cursor is not the frame's", sourceLocation: sourceLocation)
        // The form's kept lines (`FormState.linesMemo`) are only ever what laying it out afresh gives.
        if let form = session.state.form {
            #expect(FormLayout.computed(form, width: frame.width).lines == FormLayout.lines(form, width: frame.width),
                    "the form's kept layout is stale", sourceLocation: sourceLocation)
            // The form's line memo only ever saves work: the form drawn with it is the form drawn from nothing.
            var memoised = Frame(width: frame.width, height: frame.height)
            FormView.draw(form, into: &memoised, area: memoised.bounds)
            var fresh = Frame(width: frame.width, height: frame.height)
            FormView.draw(form, into: &fresh, area: fresh.bounds, memoized: false)
            #expect(memoised == fresh && memoised.cells == fresh.cells, "the form's line memo drew a stale line",
                    sourceLocation: sourceLocation)
        }
        let shown = terminal.screen
        #expect(shown.lines == frame.lines, "the runtime's draws do not reproduce the frame",
                sourceLocation: sourceLocation)
        if shown.lines == frame.lines, let difference = firstDifference(shown.frame, frame) {
            Issue.record("the runtime's draws do not reproduce the frame's styles: cell \(difference)",
                         sourceLocation: sourceLocation)
        }
    }

    // MARK: Looking

    var frame: Frame { session.frame() }
    var screen: [String] { frame.lines }
    var state: AppState { session.state }
    var width: Int { session.state.width }
    var height: Int { session.state.height }

    /// The first line that contains `text`, with its row number.
    func line(containing text: String) -> (y: Int, text: String)? {
        screen.enumerated().first { $0.element.contains(text) }.map { ($0.offset, $0.element) }
    }

    func lines(containing text: String) -> [Int] {
        screen.enumerated().filter { $0.element.contains(text) }.map(\.offset)
    }

    /// The screen as one string, for failure messages.
    var dump: String {
        screen.enumerated().map { String(format: "%2d|", $0.offset) + $0.element + "|" }.joined(separator: "\n")
    }

    /// Rows of the list that are drawn reversed (the selection bar), judged by the first cell.
    var reversedListRows: [Int] {
        let f = frame
        return (3..<max(3, f.height - 1)).filter { f[0, $0].style.reverse }
    }

    /// The runs of a full repaint (what a real terminal receives after a resize or a resume).
    func fullRedrawRuns() -> [DrawRun] { FrameDiff.runs(from: nil, to: session.frame()) }
}

// MARK: Frame helpers

extension Frame {
    /// The display column where `text` starts on row `y`, counting wide characters as two columns.
    func column(of text: String, y: Int) -> Int? {
        let target = Array(text)
        var starts: [(x: Int, character: Character)] = []
        for x in 0..<width {
            let cell = self[x, y]
            if cell.width == 0 { continue }
            for c in cell.text { starts.append((x, c)) }
        }
        guard target.count <= starts.count else { return nil }
        for i in 0...(starts.count - target.count) where starts[i..<(i + target.count)].map(\.character) == target {
            return starts[i].x
        }
        return nil
    }

    /// True when some cell holds a C0/C1 control character or DEL.
    var containsControlCharacter: Bool {
        cells.contains { $0.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) } }
    }
}

/// A hand-made asset; tests change what they need.
func makeAsset(tag: String, name: String, type: EquipmentType = .webSling, wllKg: Double = 2000,
               location: String = "Bay A", commissioned: String? = "2026-06-01", intervalMonths: Int = 12) -> Asset {
    Asset(tag: tag, name: name, type: type, wllKg: wllKg, location: location,
          commissioned: commissioned.flatMap { CalendarDate(iso: $0) }, intervalMonths: intervalMonths)
}

/// The first cell where two frames differ, described briefly; nil when the cells are the same.
func firstDifference(_ a: Frame, _ b: Frame) -> String? {
    guard a.width == b.width, a.height == b.height else {
        return "size \(a.width)×\(a.height) vs \(b.width)×\(b.height)"
    }
    for y in 0..<a.height {
        for x in 0..<a.width where a[x, y] != b[x, y] {
            let describe = { (c: Cell) in
                let text = c.text.unicodeScalars.map {
                    $0.value < 0x7F && $0.value >= 0x20 ? String($0) : "U+\(String($0.value, radix: 16))"
                }.joined()
                return "\"\(text)\" w\(c.width) \(c.style)"
            }
            return "(\(x),\(y)): \(describe(a[x, y])) vs \(describe(b[x, y]))"
        }
    }
    return nil
}

// MARK: Expectations computed independently of ListState

/// One asset as the list should show it.
struct ExpectedRow {
    let tag: String
    let name: String
    let typeLabel: String
    let location: String
    let status: AssetStatus
}

/// A list row read back from the screen.
struct ShownRow {
    let y: Int
    let tag: String
    let status: AssetStatus?
}

extension Harness {
    /// The register's assets in attention order (status rank, then the register's tag order), keeping
    /// those the filter `query` finds: every word's characters in order, ignoring case, within one of tag,
    /// name, type, site, location, serial and manufacturer. Computed from the register and the status rules,
    /// not from `ListState` (which also ranks the matches best first).
    func expectedRows(matching query: String = "") throws -> [ExpectedRow] {
        let words = query.lowercased().split(separator: " ").map(String.init)
        let particulars = try register.particulars()
        func isSubsequence(_ word: String, of text: String) -> Bool {
            var rest = Substring(text.lowercased())
            for character in word {
                guard let found = rest.firstIndex(of: character) else { return false }
                rest = rest[rest.index(after: found)...]
            }
            return true
        }
        return try register.rows().enumerated()
            .map { (index: $0.offset, row: $0.element, status: $0.element.status(on: harnessToday).status) }
            .filter { item in
                let asset = item.row.asset
                let site = particulars.sites[particulars.asset(asset.uuid).siteUUID]?.name ?? ""
                // As the list's index: an electrical item by its class, its kind and its environment.
                let fields = [asset.tag, asset.name, asset.typeLabel, site, asset.location, asset.serialNumber,
                              asset.clientRef, asset.manufacturer,
                              asset.electrical.map { "electrical \($0.environment.label)" } ?? ""]
                return words.allSatisfy { word in fields.contains { isSubsequence(word, of: $0) } }
            }
            .sorted { ($0.status.attentionRank, $0.index) < ($1.status.attentionRank, $1.index) }
            .map { ExpectedRow(tag: $0.row.asset.tag, name: $0.row.asset.name, typeLabel: $0.row.asset.typeLabel,
                               location: $0.row.asset.location, status: $0.status) }
    }

    /// The list rows on screen: tag (first word) and the status word the row ends with.
    var shownRows: [ShownRow] {
        let lines = screen
        guard lines.count > 4 else { return [] }
        return (3..<(lines.count - 1)).compactMap { y in
            let line = lines[y]
            let trimmed = String(line.reversed().drop { $0 == " " }.reversed())
            guard !trimmed.isEmpty, !line.contains("No asset matches") else { return nil }
            let tag = String(line.prefix { $0 != " " })
            let status = AssetStatus.allCases.filter { trimmed.hasSuffix($0.label) }
                .max { $0.label.count < $1.label.count }
            return ShownRow(y: y, tag: tag, status: status)
        }
    }

    /// The text of row `y` in the columns [x, x + width), wide characters once.
    func field(y: Int, x: Int, width: Int) -> String {
        let f = frame
        return (x..<min(f.width, x + width)).map { f[$0, y].text }.joined()
    }

    /// Pages through the whole list with PgDn from where it is, collecting each row once, and
    /// reporting any row whose status word does not start under the STATUS heading.
    func walkWholeList(maxPages: Int = 1_000) -> (rows: [ShownRow], misaligned: [String]) {
        var seen = Set<String>()
        var rows: [ShownRow] = []
        var misaligned: [String] = []
        for _ in 0..<maxPages {
            let f = frame
            let statusColumn = f.column(of: "STATUS", y: 2)
            var added = false
            for row in shownRows where !seen.contains(row.tag) {
                seen.insert(row.tag)
                rows.append(row)
                added = true
                if let status = row.status, f.column(of: status.label, y: row.y) != statusColumn {
                    misaligned.append("\(row.tag): \(status.label) at \(f.column(of: status.label, y: row.y) ?? -1), "
                                      + "heading at \(statusColumn ?? -1)")
                }
            }
            if !added && !rows.isEmpty { break }
            press(.pageDown)
        }
        return (rows, misaligned)
    }
}

extension Harness {
    /// Opens the form with `i` and Tabs to the inspector's name (the form opens on the first field that needs
    /// the inspector).
    func openFormOnInspectorName(sourceLocation: SourceLocation = #_sourceLocation) {
        press(.char("i"), sourceLocation: sourceLocation)
        for _ in 0..<FormField.allCases.count where state.form.map({ $0.focus != .inspectorName }) ?? false {
            press(.tab, sourceLocation: sourceLocation)
        }
    }
}
