import Testing
import RigbookTestSupport
@testable import RigbookUI

/// Applies `runs(from: old, to: new)` to a terminal that shows `old` and returns what it then shows.
private func applyDiff(from old: Frame, to new: Frame) -> InMemoryScreen {
    var screen = InMemoryScreen(width: old.width, height: old.height)
    screen.apply(FrameDiff.runs(from: nil, to: old), size: (old.width, old.height))
    screen.apply(FrameDiff.runs(from: old, to: new), size: (new.width, new.height))
    return screen
}

@Suite struct FrameDiffTests {
    private func sampleFrame() -> Frame {
        var frame = Frame(width: 30, height: 6)
        frame.put(" Rigbook  3 assets", x: 0, y: 0, style: .reverse)
        frame.put("SL-0001 王建国的吊带 OK", x: 0, y: 2)
        frame.put("SL-0002 sling é OVERDUE", x: 0, y: 3, style: Style(colour: .red, bold: true))
        return frame
    }

    @Test func identicalFramesGiveNoRuns() {
        let frame = sampleFrame()
        #expect(FrameDiff.runs(from: frame, to: frame).isEmpty)
        #expect(FrameDiff.runs(from: Frame(width: 80, height: 24), to: Frame(width: 80, height: 24)).isEmpty)
    }

    @Test func oneChangedCellGivesOneRunThere() {
        let old = sampleFrame()
        var new = old
        new.put("Z", x: 25, y: 4)
        let runs = FrameDiff.runs(from: old, to: new)
        #expect(runs.count == 1)
        #expect(runs.first.map { ($0.x, $0.y, $0.text, $0.width) } ?? (-1, -1, "", 0) == (25, 4, "Z", 1))
        #expect(runs.first?.style == .plain)
        #expect(firstDifference(applyDiff(from: old, to: new).frame, new) == nil)
    }

    @Test func aChangedWideCharacterIsOneRunOfTwoColumns() {
        var old = Frame(width: 10, height: 2)
        old.put("ab王cd", x: 0, y: 1)
        var new = old
        new.put("张", x: 2, y: 1)
        let runs = FrameDiff.runs(from: old, to: new)
        #expect(runs.count == 1)
        #expect(runs.first?.x == 2)
        #expect(runs.first?.y == 1)
        #expect(runs.first?.text == "张")
        #expect(runs.first?.width == 2)
        #expect(applyDiff(from: old, to: new).lines == new.lines)
    }

    @Test func aStyleOnlyChangeIsARun() {
        let old = sampleFrame()
        var new = old
        new.restyle(y: 2) { $0.reverse.toggle() }
        #expect(new.lines == old.lines)
        let runs = FrameDiff.runs(from: old, to: new)
        #expect(!runs.isEmpty)
        #expect(runs.allSatisfy { $0.y == 2 && $0.style.reverse })
        #expect(runs.reduce(0) { $0 + $1.width } == 30, "the whole restyled row is redrawn")
        let screen = applyDiff(from: old, to: new)
        #expect(firstDifference(screen.frame, new) == nil)

        var bold = old
        bold.restyle(y: 3, x: 8, count: 1) { $0.underline = true }
        let one = FrameDiff.runs(from: old, to: bold)
        #expect(one.count == 1)
        #expect(one.first?.x == 8 && one.first?.y == 3 && one.first?.style.underline == true)
    }

    @Test func aSizeChangeOrNoPreviousFrameRedrawsEverything() {
        var big = Frame(width: 80, height: 24)
        big.put("hello", x: 0, y: 0)
        var small = Frame(width: 40, height: 12)
        small.put("hello", x: 0, y: 0)
        for runs in [FrameDiff.runs(from: big, to: small), FrameDiff.runs(from: nil, to: small)] {
            for y in 0..<12 {
                #expect(runs.filter { $0.y == y }.reduce(0) { $0 + $1.width } == 40, "row \(y) fully redrawn")
            }
            #expect(!runs.contains { $0.y >= 12 })
        }
        var screen = InMemoryScreen(width: 80, height: 24)
        screen.apply(FrameDiff.runs(from: nil, to: big), size: (80, 24))
        screen.apply(FrameDiff.runs(from: big, to: small), size: (40, 12))
        #expect(screen.frame.width == 40 && screen.frame.height == 12)
        #expect(screen.lines == small.lines)
    }

    @Test func wideReplacedByNarrowAndNarrowByWide() {
        var wide = Frame(width: 12, height: 3)
        wide.put("张张张张张张", x: 0, y: 0)
        wide.put("王建国的吊带", x: 0, y: 1)
        wide.put("abcdefghijkl", x: 0, y: 2)
        var mixed = wide
        mixed.put("abcdef", x: 0, y: 0)      // narrow over wide, aligned
        mixed.put("x", x: 3, y: 1)           // narrow over the second half of a wide character
        mixed.put("李", x: 5, y: 1)           // wide straddling two wide characters
        mixed.put("张", x: 1, y: 2)           // wide over narrow
        mixed.put("王", x: 11, y: 2)          // wide at the right edge: a space
        #expect(firstDifference(applyDiff(from: wide, to: mixed).frame, mixed) == nil)
        #expect(firstDifference(applyDiff(from: mixed, to: wide).frame, wide) == nil)
        #expect(applyDiff(from: mixed, to: wide).lines == wide.lines)
    }

    /// Many frames built from random puts, fills and restyles; the diff between any two consecutive
    /// frames, applied to a screen showing the first, must give exactly the second.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomFramesRoundTrip(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let pieces = ["a", "b", "Z", " ", "-", "0", "张", "王", "吊带", "😀", "é", "e\u{301}", "…", "✎",
                      "仓库 2", "OK", "^"]
        let styles: [Style] = [.plain, .bold, .reverse, .dim, Style(colour: .red, bold: true),
                               Style(colour: .yellow, reverse: true)]
        let width = 9 + random.below(30), height = 2 + random.below(8)
        var previous = Frame(width: width, height: height)
        var screen = InMemoryScreen(width: width, height: height)
        for step in 0..<60 {
            var next = previous
            for _ in 0..<(1 + random.below(6)) {
                let y = random.below(height)
                switch random.below(10) {
                case 0:
                    next.fill(x: random.below(width), y: y, count: random.below(width), style: random.pick(styles))
                case 1:
                    next.restyle(y: y) { $0.reverse.toggle() }
                default:
                    let text = (0..<(1 + random.below(6))).map { _ in random.pick(pieces) }.joined()
                    let maxWidth: Int? = random.below(3) == 0 ? random.below(width) : nil
                    next.put(text, x: random.below(width), y: y, style: random.pick(styles), maxWidth: maxWidth)
                }
            }
            screen.apply(FrameDiff.runs(from: previous, to: next), size: (width, height))
            #expect(screen.lines == next.lines, "seed \(seed) step \(step): lines")
            let difference = firstDifference(screen.frame, next)
            #expect(difference == nil, "seed \(seed) step \(step): cells")
            if difference != nil { return }
            previous = next
        }
    }

    /// A zero-width format character (ZWSP, BOM, LRM: common in text pasted from the web) right
    /// after a wide character ends up in the continuation cell, which the diff never sends.
    @Test(arguments: ["\u{200B}", "\u{FEFF}", "\u{200E}"])
    func zeroWidthFormatCharacterAfterAWideCharacterSurvivesTheDiff(_ format: String) {
        let old = Frame(width: 10, height: 1)
        var new = old
        new.put("王" + format + "a", x: 0, y: 0)
        #expect(new[1, 0].width == 0)
        let screen = applyDiff(from: old, to: new)
        #expect(screen.lines == new.lines)
        #expect(firstDifference(screen.frame, new) == nil)
    }

    /// A list scrolled by a row: the terminal scrolls the rows between the headings and the footer, and only the
    /// rows whose selection changed and the row that came in are drawn.
    @Test func aListScrolledByARowIsAScrollAndTwoRows() {
        func list(top: Int, selected: Int) -> Frame {
            var frame = Frame(width: 40, height: 24)
            frame.put(" Rigbook  100 assets", x: 0, y: 0, style: .reverse)
            frame.put("TAG      NAME", x: 0, y: 2, style: .bold)
            for y in 3..<23 {
                frame.put("SL-\(top + y - 3)  a sling — 2 t", x: 0, y: y)
                if top + y - 3 == selected { frame.restyle(y: y) { $0.reverse = true } }
            }
            frame.put("q quit  ↓ next", x: 0, y: 23, style: .dim)
            return frame
        }
        let old = list(top: 0, selected: 19), new = list(top: 1, selected: 20)
        let update = FrameDiff.update(from: old, to: new)
        #expect(update.scroll == ScrollMove(top: 3, bottom: 21, by: 1))
        #expect(Set(update.runs.map(\.y)) == [21, 22])
        var screen = InMemoryScreen(width: 40, height: 24)
        screen.apply(FrameDiff.runs(from: nil, to: old), size: (40, 24))
        screen.apply(update, size: (40, 24))
        #expect(screen.frame == new)
        let back = FrameDiff.update(from: new, to: old)
        #expect(back.scroll?.by == -1)
        screen.apply(back, size: (40, 24))
        #expect(screen.frame == old)
    }

    /// The same list with the selection bar on the tag alone: the scroll takes the row the bar leaves along (it
    /// differs from its scrolled copy in the tag), so that row gets its tag redrawn, not all its text.
    @Test func aScrollTakesTheRowTheBarLeftAlong() {
        func list(top: Int, selected: Int) -> Frame {
            var frame = Frame(width: 40, height: 24)
            frame.put(" Rigbook  100 assets", x: 0, y: 0, style: .reverse)
            for y in 3..<23 {
                // Rows as unlike as the register's: another name, place and date on each.
                let n = top + y - 3, names = ["web sling", "chain block", "shackle", "eyebolt", "beam clamp"]
                frame.put("SL-\(100 + n)  \(names[n % 5]) · Quay \(n % 3) · 2026-0\(n % 9 + 1)-1\(n % 7)", x: 0, y: y)
                if n == selected { frame.restyle(y: y, count: 6) { $0.reverse = true } }
            }
            frame.put("q quit  ↓ next", x: 0, y: 23, style: .dim)
            return frame
        }
        let old = list(top: 0, selected: 19), new = list(top: 1, selected: 20)
        let update = FrameDiff.update(from: old, to: new)
        #expect(update.scroll == ScrollMove(top: 3, bottom: 22, by: 1))
        #expect(update.runs.filter { $0.y == 21 }.map(\.width).reduce(0, +) == 6, "\(update.runs)")
        var screen = InMemoryScreen(width: 40, height: 24)
        screen.apply(FrameDiff.runs(from: nil, to: old), size: (40, 24))
        screen.apply(update, size: (40, 24))
        #expect(screen.frame == new)
        let back = FrameDiff.update(from: new, to: old)
        #expect(back.scroll == ScrollMove(top: 3, bottom: 22, by: -1))
        screen.apply(back, size: (40, 24))
        #expect(screen.frame == old)
    }

    /// Frames whose rows move up and down by one to four rows between random edits: the update with its scroll,
    /// applied to a terminal showing the first, gives exactly the second.
    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func randomScrollsRoundTrip(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let styles: [Style] = [.plain, .bold, .reverse, Style(colour: .red, bold: true)]
        let width = 10 + random.below(30), height = 6 + random.below(20)
        var previous = Frame(width: width, height: height)
        for y in 0..<height { previous.put("row \(y) 张 …", x: random.below(3), y: y, style: random.pick(styles)) }
        var screen = InMemoryScreen(width: width, height: height)
        screen.apply(FrameDiff.runs(from: nil, to: previous), size: (width, height))
        for step in 0..<60 {
            var next = previous
            let top = random.below(height - 2), bottom = top + 1 + random.below(height - top - 1)
            let by = [1, -1, 2, -2, 3, 4].randomElement(using: &random)!
            next.scroll(ScrollMove(top: top, bottom: bottom, by: by))
            for _ in 0..<random.below(3) {
                next.put("new \(step) 王", x: random.below(width), y: random.below(height), style: random.pick(styles))
            }
            if random.below(4) == 0 { next.put("e\u{301}", x: 0, y: random.below(height)) }
            screen.apply(FrameDiff.update(from: previous, to: next), size: (width, height))
            let difference = firstDifference(screen.frame, next)
            #expect(difference == nil, "seed \(seed) step \(step): cells")
            #expect(screen.lines == next.lines, "seed \(seed) step \(step): lines")
            if difference != nil { return }
            previous = next
        }
    }

    /// The runs of an update with a scroll are diffed against the old rows where the scroll puts them, without a
    /// scrolled copy of the frame: exactly the runs from that copy.
    @Test(arguments: [21, 22, 23, 24] as [UInt64])
    func runsAfterAScrollAreTheRunsFromTheScrolledFrame(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let styles: [Style] = [.plain, .bold, .reverse, Style(colour: .green)]
        let width = 20 + random.below(60), height = 8 + random.below(20)
        var previous = Frame(width: width, height: height)
        for y in 0..<height { previous.put("row \(y) of the list — \(y * 7)", x: random.below(3), y: y) }
        for step in 0..<60 {
            var next = previous
            let top = random.below(height - 5), bottom = top + 4 + random.below(height - top - 4)
            let by = [1, -1, 2, -2, 3, -3].randomElement(using: &random)!
            next.scroll(ScrollMove(top: top, bottom: bottom, by: by))
            for _ in 0..<random.below(3) {
                next.put("new \(step)", x: random.below(width), y: random.below(height), style: random.pick(styles))
            }
            if random.below(3) == 0 { next.restyle(y: random.below(height)) { $0.reverse.toggle() } }
            let update = FrameDiff.update(from: previous, to: next)
            var moved = previous
            if let scroll = update.scroll { moved.scroll(scroll) }
            #expect(update.runs == FrameDiff.runs(from: moved, to: next), "seed \(seed) step \(step)")
            previous = next
        }
    }

    /// Words separated by a space or two, drawn where the terminal shows blanks: one run across the short gaps
    /// (a byte a cell) instead of a cursor move for each word, but not across a longer gap, after a character
    /// that is not ASCII (the writer moves the cursor there anyway) or through cells of a third style.
    @Test func shortGapsOfUnchangedCellsAreDrawnOver() {
        var old = Frame(width: 40, height: 3)
        old.put(" ", x: 1, y: 2, style: .dim)
        var new = old
        new.put("SB-0781", x: 0, y: 0)
        new.put("500", x: 9, y: 0)
        new.put("kg", x: 13, y: 0)
        new.put("Platfor…", x: 16, y: 0)
        new.put("x", x: 25, y: 0)
        new.put("far", x: 31, y: 0)
        new.put("a", x: 0, y: 1)
        new.put("!", x: 2, y: 1, style: Style(colour: .red, bold: true))
        new.put("b", x: 4, y: 1)
        new.put("c", x: 0, y: 2)
        new.put("d", x: 2, y: 2, style: .bold)
        let runs = FrameDiff.runs(from: old, to: new)
        #expect(runs.filter { $0.y == 0 }.map(\.text) == ["SB-0781  500 kg Platfor… x", "far"])
        #expect(runs.filter { $0.y == 1 }.map(\.text) == ["a ", "!", " b"])
        #expect(runs.filter { $0.y == 2 }.map(\.text) == ["c", "d"])
        #expect(firstDifference(applyDiff(from: old, to: new).frame, new) == nil)
    }

    /// `fill` writes a row's cells at once: the same frame as a space put cell by cell, wide characters cut at
    /// either end of the range included.
    @Test(arguments: [31, 32, 33] as [UInt64])
    func fillIsASpacePutCellByCell(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let pieces = ["a", "张", "王吊", "e\u{301}", "…", " ", "OK"]
        let styles: [Style] = [.plain, .bold, .reverse, Style(underline: true)]
        for _ in 0..<200 {
            var frame = Frame(width: 12, height: 2)
            for _ in 0..<6 {
                frame.put(random.pick(pieces), x: random.below(12), y: random.below(2), style: random.pick(styles))
            }
            let x = random.below(14) - 1, count = random.below(14), y = random.below(2), style = random.pick(styles)
            var filled = frame, put = frame
            filled.fill(x: x, y: y, count: count, style: style)
            for column in max(0, x)..<max(max(0, x), min(12, x + count)) { put.put(" ", x: column, y: y, style: style) }
            #expect(filled == put, "fill x \(x) count \(count) over \(frame.lines)")
        }
    }

    /// A cell is one word that holds every scalar, cluster index, width and style as given.
    @Test func aCellIsOneWordThatKeepsWhatItIsGiven() {
        #expect(MemoryLayout<PackedCell>.stride == 8)
        #expect(PackedCell.comparesAsBytes)
        #expect(Colour.allCases.count <= 8, "a colour has three bits")
        for colour in Colour.allCases {
            for bits in 0..<16 {
                let style = Style(colour: colour, bold: bits & 1 != 0, reverse: bits & 2 != 0, dim: bits & 4 != 0,
                                  underline: bits & 8 != 0)
                for (scalar, width) in [(0x10FFFF, 1), (0x5F20, 2), (0, 0), (0x20, 1)] as [(UInt32, UInt8)] {
                    var cell = PackedCell(scalar: scalar, cluster: -1, width: width, style: style)
                    #expect(cell.scalar == scalar && cell.cluster == -1 && cell.width == width && cell.style == style)
                    cell.style = .plain
                    #expect(cell.scalar == scalar && cell.width == width && cell.style == .plain)
                    cell.cluster = 7
                    #expect(cell.cluster == 7 && cell.scalar == 0 && cell.width == width)
                }
                let clustered = PackedCell(scalar: 0, cluster: 123_456, width: 2, style: style)
                #expect(clustered.cluster == 123_456 && clustered.width == 2 && clustered.style == style)
            }
        }
    }
}

