import Testing
@testable import RigbookUI

/// A terminal's rendition as ECMA-48 keeps it: the attributes and the two colours (nil: the terminal's own).
private struct Rendition: Equatable {
    var bold = false, dim = false, underline = false, reverse = false
    var foreground: Colour?
    var background: Colour?

    /// What a terminal shows after being sent `steps` (`sgr0` leaves the colours unless it resets them).
    mutating func apply(_ steps: StyleChange.Steps, plainResetsColours: Bool) {
        if steps.plain {
            let colours = (foreground, background)
            self = Rendition()
            if !plainResetsColours { (foreground, background) = colours }
        }
        if steps.defaultColours { foreground = nil; background = nil }
        if steps.bold { bold = true }
        if steps.dim { dim = true }
        if steps.underline { underline = true }
        if steps.reverse { reverse = true }
        if let colour = steps.colour {
            foreground = colour
            if colour == .qr { background = .qr }
        }
    }

    init() {}

    /// What a terminal must show to write in `attributes`.
    init(_ attributes: StyleChange.Attributes) {
        bold = attributes.bold
        dim = attributes.dim
        underline = attributes.underline
        reverse = attributes.reverse
        foreground = attributes.colour == .normal ? nil : attributes.colour
        background = attributes.colour == .qr ? .qr : nil
    }
}

@Suite struct StyleChangeTests {
    static let styles: [Style] = Colour.allCases.flatMap { colour in
        (0..<16).map { bits in
            Style(colour: colour, bold: bits & 1 != 0, reverse: bits & 2 != 0, dim: bits & 4 != 0,
                  underline: bits & 8 != 0)
        }
    }

    /// From every style (and from not knowing) to every style, with and without colours, whatever `sgr0` does to
    /// the colours: the terminal ends up showing exactly the new style.
    @Test(arguments: [false, true], [false, true])
    func everyChangeEndsInTheNewStyle(colours: Bool, plainResetsColours: Bool) {
        let attributes = Self.styles.map { StyleChange.Attributes($0, colours: colours) }
        // Not knowing: the terminal may show anything; say a QR code in bold and reverse.
        var unknown = Rendition()
        unknown.bold = true
        unknown.reverse = true
        unknown.foreground = .qr
        unknown.background = .qr
        for to in attributes {
            var terminal = unknown
            terminal.apply(StyleChange.between(nil, to, plainResetsColours: plainResetsColours),
                           plainResetsColours: plainResetsColours)
            #expect(terminal == Rendition(to), "from nothing to \(to)")
            for from in attributes {
                var terminal = Rendition(from)
                terminal.apply(StyleChange.between(from, to, plainResetsColours: plainResetsColours),
                               plainResetsColours: plainResetsColours)
                #expect(terminal == Rendition(to), "\(from) to \(to)")
                if terminal != Rendition(to) { return }
            }
        }
    }

    /// Adding to what is shown sends only what is added; taking anything away starts from nothing.
    @Test func onlyWhatChangesIsSent() {
        let plain = StyleChange.Attributes(.plain, colours: true)
        let boldRed = StyleChange.Attributes(Style(colour: .red, bold: true), colours: true)
        let reverse = StyleChange.Attributes(.reverse, colours: true)
        var added = StyleChange.Steps()
        added.bold = true
        added.colour = .red
        #expect(StyleChange.between(plain, boldRed, plainResetsColours: true) == added)
        var fromNothing = StyleChange.Steps()
        fromNothing.plain = true
        #expect(StyleChange.between(boldRed, plain, plainResetsColours: true) == fromNothing)
        fromNothing.defaultColours = true
        #expect(StyleChange.between(boldRed, plain, plainResetsColours: false) == fromNothing)
        #expect(StyleChange.between(reverse, reverse, plainResetsColours: true) == StyleChange.Steps())
        var redOnly = StyleChange.Steps()
        redOnly.colour = .red
        #expect(StyleChange.between(plain, StyleChange.Attributes(Style(colour: .red), colours: true),
                                    plainResetsColours: true) == redOnly)
    }

    @Test func ecma48PlainResetsColours() {
        #expect(StyleChange.resetsColours(Array("\u{1B}(B\u{1B}[m".utf8)))   // xterm, tmux
        #expect(StyleChange.resetsColours(Array("\u{1B}[0m\u{0F}".utf8)))
        #expect(!StyleChange.resetsColours(Array("\u{1B}[27m".utf8)))
        #expect(!StyleChange.resetsColours([]))
    }

    /// The SGR a change sends go out as one sequence; anything else in place (a ↓'s bytes).
    @Test func sgrSequencesAreJoined() {
        func joined(_ sequences: [String]) -> String {
            var buffer: [UInt8] = []
            StyleChange.append(sequences.map { Array($0.utf8) }, to: &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
        let esc = "\u{1B}"
        #expect(joined(["\(esc)[1m", "\(esc)[7m", "\(esc)[31m"]) == "\(esc)[1;7;31m")
        #expect(joined(["\(esc)(B\(esc)[m", "\(esc)[7m"]) == "\(esc)(B\(esc)[0;7m")  // xterm's sgr0, then rev
        #expect(joined(["\(esc)(B\(esc)[m", "\(esc)[39;49m", "\(esc)[38;5;196m"]) == "\(esc)(B\(esc)[0;39;49;38;5;196m")
        #expect(joined(["\(esc)[m\u{0F}", "\(esc)[1m"]) == "\(esc)[m\u{0F}\(esc)[1m")  // linux's sgr0 ends otherwise
        #expect(joined(["\(esc)[1m", "\u{0E}", "\(esc)[4m"]) == "\(esc)[1m\u{0E}\(esc)[4m")
        #expect(joined(["\(esc)[1m", ""]) == "\(esc)[1m")
        #expect(joined(["\(esc)(B\(esc)[m"]) == "\(esc)(B\(esc)[m")  // alone, as it is
        #expect(joined([]) == "")
        #expect(joined(["m", "[7m"]) == "m[7m")
    }
}
