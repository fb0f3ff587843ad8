import Foundation

/// Asset tags as people read them: stored in Unicode NFC, compared by a key that
/// ignores letter case with full Unicode case folding, and free of characters that cannot be seen,
/// so no tag can pose as another.
public enum Tags {
    /// The tag as it is stored: Unicode normal form C (an accent typed as a separate mark is composed).
    public static func normalized(_ tag: String) -> String {
        isASCII(tag) ? tag : tag.precomposedStringWithCanonicalMapping
    }

    /// ASCII is its own NFC, folds by lower-casing A–Z and holds no invisible character: the fast path that
    /// keeps an import of 100,000 tags in seconds gives exactly what the general path gives.
    static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    /// The comparison key: full Unicode case folding (ß and ẞ fold to ss, K KELVIN SIGN to k) of the
    /// decomposed tag, composed again. Two tags are the same tag when their keys are equal.
    public static func key(_ tag: String) -> String {
        if isASCII(tag) {
            return String(decoding: tag.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        return tag.decomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCanonicalMapping
    }

    /// Why the tag may not be used because of a character nobody can see or tell apart from a plain
    /// one, as a sentence naming it (nil when there is none): format characters (Unicode category Cf:
    /// bidi overrides and isolates, zero-width spaces and joiners, soft hyphen, byte order mark), other
    /// default-ignorable code points (variation selectors, fillers), and separators other than the
    /// ordinary space. `EV-<U+202E>0011` would show as `EV-1100`.
    /// `what` names the text in the sentence ("tag", "employer name"): names people pick by are held to it too.
    public static func invisibleCharacterProblem(_ tag: String, what: String = "tag") -> String? {
        if isASCII(tag) { return nil }
        for scalar in tag.unicodeScalars where !TextRules.isControl(scalar) {
            let properties = scalar.properties
            let name = "\(codePoint(scalar)) \(properties.name ?? properties.nameAlias ?? "")"
                .trimmingCharacters(in: .whitespaces)
            if properties.generalCategory == .format || properties.isDefaultIgnorableCodePoint {
                return "The \(what) holds \(name), an invisible character that could make it read as another \(what)."
            }
            // U+2800 BRAILLE PATTERN BLANK is a symbol, not a space, but shows as nothing.
            if scalar != " " && ([.spaceSeparator, .lineSeparator, .paragraphSeparator]
                .contains(properties.generalCategory) || scalar.value == 0x2800) {
                return "The \(what) holds \(name), which looks like a space but is not one; use an ordinary space."
            }
        }
        return nil
    }

    /// "U+202E": how a character is named in messages.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
