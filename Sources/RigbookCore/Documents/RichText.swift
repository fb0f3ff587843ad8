/// A printed value made once for every renderer: as HTML (data escaped and isolated in `<bdi>`, line breaks as
/// `<br>`) and as plain text (what a PDF sets), side by side. Written as a string whose literal parts are the
/// document's own wording and whose interpolations say what they hold:
/// `"\(data: asset.tag): \(data: asset.name)\(RichText.lineBreak)Date of manufacture: \(date)"`.
public struct RichText: Sendable, Hashable, ExpressibleByStringInterpolation {
    public private(set) var html: String
    public private(set) var plain: String

    public init(html: String, plain: String) {
        self.html = html
        self.plain = plain
    }

    public init(stringLiteral value: String) {
        html = Certificate.text(value)
        plain = VisibleText.keepingLineEnds(value)
    }

    public init(stringInterpolation: Interpolation) {
        html = stringInterpolation.text.html
        plain = stringInterpolation.text.plain
    }

    public static let lineBreak = RichText(html: "<br>", plain: "\n")
    /// A value a record saved before the report particulars does not have.
    public static let notRecorded = RichText(html: Certificate.notRecordedHTML, plain: Certificate.notRecorded)

    /// Text from data, kept apart from the text around it in both directions.
    public static func data(_ value: String) -> RichText {
        RichText(html: Certificate.bidi(value), plain: VisibleText.keepingLineEnds(value))
    }

    /// Text from data alone in its table cell, which already keeps it apart: escaped, with no isolation of its own.
    public static func cell(_ value: String) -> RichText { RichText(stringLiteral: value) }

    /// Text from data that may hold line breaks, which stay line breaks.
    public static func lines(_ value: String) -> RichText {
        RichText(html: Certificate.multiline(value), plain: VisibleText.keepingLineEnds(value))
    }

    /// Data, or a dash for none.
    public static func orNone(_ value: String) -> RichText { value.isEmpty ? "—" : data(value) }

    /// Set apart: bold on the page.
    public static func strong(_ text: RichText, tag: String = "span class=\"strong\"") -> RichText {
        let close = tag.split(separator: " ").first.map(String.init) ?? tag
        return RichText(html: "<\(tag)>\(text.html)</\(close)>", plain: text.plain)
    }

    /// Smaller and quieter: what a value says about itself.
    public static func aside(_ text: RichText) -> RichText {
        RichText(html: "<span class=\"sub\">\(text.html)</span>", plain: text.plain)
    }

    public static func + (a: RichText, b: RichText) -> RichText {
        RichText(html: a.html + b.html, plain: a.plain + b.plain)
    }

    public static func += (a: inout RichText, b: RichText) { a = a + b }

    public struct Interpolation: StringInterpolationProtocol {
        var text = RichText(html: "", plain: "")

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { text += RichText(stringLiteral: literal) }
        public mutating func appendInterpolation(_ value: RichText) { text += value }
        /// Fixed wording made at print time (a number, a date): escaped, as a literal is.
        public mutating func appendInterpolation(_ value: String) { text += RichText(stringLiteral: value) }
        public mutating func appendInterpolation<Number: BinaryInteger>(_ value: Number) {
            text += RichText(stringLiteral: String(value))
        }
        public mutating func appendInterpolation(data value: String) { text += .data(value) }
        public mutating func appendInterpolation(lines value: String) { text += .lines(value) }
    }
}
