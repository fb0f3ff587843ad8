/// What a terminal writing in one style is sent to write in another: only the attributes that are added and the
/// colour that changes, or, when an attribute goes (terminfo has no "bold off"), everything off (`sgr0`) and the
/// new style from nothing. Every change from `sgr0` up was most of the bytes of a ↓ in the list: a run
/// in bold red after plain text cost 23 bytes, now 9. Pure, for the curses backend's writer (`DirectOutput`),
/// which turns each step into its terminfo string.
public enum StyleChange {
    /// A style as the terminal shows it: without colours a QR code is reverse video and nothing has a colour (as
    /// `CursesTerminal.attributes` draws it).
    public struct Attributes: Equatable, Sendable {
        public var bold: Bool
        public var dim: Bool
        public var underline: Bool
        public var reverse: Bool
        public var colour: Colour

        public init(_ style: Style, colours: Bool) {
            bold = style.bold
            dim = style.dim
            underline = style.underline
            reverse = style.reverse || (!colours && style.colour == .qr)
            colour = colours ? style.colour : .normal
        }
    }

    /// What to send, in this order: `sgr0`, `op` (the terminal's own colours), the attributes to add, the colour.
    public struct Steps: Equatable, Sendable {
        public var plain = false
        public var defaultColours = false
        public var bold = false
        public var dim = false
        public var underline = false
        public var reverse = false
        /// `setaf` of this colour (`setaf` and `setab` for the QR code's black on white).
        public var colour: Colour?
    }

    /// From `from` (nil: not known) to `to`. `plainResetsColours`: `sgr0` also gives back the terminal's colours.
    public static func between(_ from: Attributes?, _ to: Attributes, plainResetsColours: Bool) -> Steps {
        var steps = Steps()
        guard from != to else { return steps }
        // What stays of `from`: nothing when it is not known or an attribute goes, and all is first turned off.
        let kept = from.flatMap { from in
            from.bold && !to.bold || from.dim && !to.dim || from.underline && !to.underline
                || from.reverse && !to.reverse ? nil : from
        }
        steps.bold = to.bold && kept?.bold != true
        steps.dim = to.dim && kept?.dim != true
        steps.underline = to.underline && kept?.underline != true
        steps.reverse = to.reverse && kept?.reverse != true
        guard let kept else {
            steps.plain = true
            steps.defaultColours = !plainResetsColours
            steps.colour = to.colour == .normal ? nil : to.colour
            return steps
        }
        if to.colour != kept.colour {
            // `setaf` sets the foreground only: leaving the QR code's white background needs `op` first.
            steps.defaultColours = to.colour == .normal || kept.colour == .qr
            steps.colour = to.colour == .normal ? nil : to.colour
        }
        return steps
    }

    /// Appends `sequences` to `buffer`, the SGR among them (ECMA-48's `ESC [ params m`, as terminfo gives `bold`,
    /// `rev`, `setaf` and the end of `sgr0`) sent as one: `ESC [ 1 m ESC [ 7 m ESC [ 31 m` as `ESC [ 1;7;31 m`,
    /// 13 bytes as 9. Anything else in them (`sgr0`'s `ESC ( B`) goes out as it is, in its place.
    public static func append(_ sequences: [[UInt8]], to buffer: inout [UInt8]) {
        var pending: [ArraySlice<UInt8>] = []
        func flush() {
            guard !pending.isEmpty else { return }
            buffer += [0x1B, 0x5B]
            for (index, parameters) in pending.enumerated() {
                if index > 0 { buffer.append(0x3B) }
                // Alone, `ESC [ m` stays as it is; among others its empty parameter is written as the 0 it means.
                buffer += parameters.isEmpty && pending.count > 1 ? [0x30] : parameters
            }
            buffer.append(0x6D)
            pending.removeAll()
        }
        for sequence in sequences where !sequence.isEmpty {
            guard let (prefix, parameters) = splitSGR(sequence) else {
                flush()
                buffer += sequence
                continue
            }
            if !prefix.isEmpty {
                flush()
                buffer += prefix
            }
            pending.append(parameters)
        }
        flush()
    }

    /// A sequence that ends with an SGR, as what comes before it and the SGR's parameters (digits and `;`); nil when
    /// it does not end with one.
    static func splitSGR(_ sequence: [UInt8]) -> (prefix: ArraySlice<UInt8>, parameters: ArraySlice<UInt8>)? {
        guard sequence.last == 0x6D else { return nil }
        var start = sequence.count - 1
        while start > 0, sequence[start - 1] == 0x3B || (0x30...0x39).contains(sequence[start - 1]) { start -= 1 }
        guard start >= 2, sequence[start - 1] == 0x5B, sequence[start - 2] == 0x1B else { return nil }
        return (sequence[..<(start - 2)], sequence[start..<(sequence.count - 1)])
    }

    /// Whether a terminal's `sgr0` is ECMA-48's SGR 0 (`ESC [ m` or `ESC [ 0 m`), the default rendition, which
    /// every terminal that has it takes to include the default colours.
    public static func resetsColours(_ plain: [UInt8]) -> Bool {
        let forms: [[UInt8]] = [[0x1B, 0x5B, 0x6D], [0x1B, 0x5B, 0x30, 0x6D]]
        return forms.contains { plain.firstRange(of: $0) != nil }
    }
}
