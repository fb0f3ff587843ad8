import Foundation

/// Tags that read as another: `ЅL-0042` (a Cyrillic Ѕ) beside `SL-0042`, `ＳＬ-0002` (fullwidth) beside `SL-0002`.
/// A new tag is refused when it folds to a tag the register holds (docs/DECISIONS.md, "Look-alike tags").
extension Tags {
    /// What a tag looks like: its compatibility form (NFKC: fullwidth and other variant forms become the plain
    /// letters and digits), every Cyrillic or Greek letter that looks like a Latin one replaced by it, then the
    /// comparison key. Two tags that look alike have the same skeleton; an ASCII tag's skeleton is its key.
    public static func skeleton(_ tag: String) -> String {
        if isASCII(tag) { return key(tag) }
        var latin = String.UnicodeScalarView()
        for scalar in tag.precomposedStringWithCompatibilityMapping.unicodeScalars {
            if let lookAlike = latinLookAlikes[scalar.value] {
                latin.append(lookAlike)
            } else {
                latin.append(scalar)
            }
        }
        return key(String(latin))
    }

    /// Why `tag` cannot go in beside `existing`, a tag already held: the same tag (`.same`), one that looks
    /// like it (`.lookAlike`), or nil.
    public static func clash(_ tag: String, with existing: String) -> TagClash? {
        if key(tag) == key(existing) { return .same(existing) }
        return skeleton(tag) == skeleton(existing) ? .lookAlike(existing) : nil
    }

    /// The first character of `tag` that reads as another one (a fullwidth or Cyrillic letter), if any.
    static func lookAlikeCharacter(in tag: String) -> Unicode.Scalar? {
        if isASCII(tag) { return nil }
        return tag.unicodeScalars.first { scalar in
            latinLookAlikes[scalar.value] != nil
                || String(scalar).precomposedStringWithCompatibilityMapping != String(scalar)
        }
    }

    /// Cyrillic and Greek letters that look like a Latin letter or digit, by code point, each with its look-alike
    /// (Unicode's confusables for these scripts, the letters alone: enough for tags, which are codes like SL-0042).
    /// A capital maps to the Latin capital it looks like, a small letter to the small one; the key then folds
    /// case, as tags are compared. Fullwidth forms need no entry: NFKC makes them plain.
    static let latinLookAlikes: [UInt32: Unicode.Scalar] = {
        let pairs: [(UInt32, Unicode.Scalar)] = [
            // Cyrillic capitals, then small letters.
            (0x0410, "A"), (0x0412, "B"), (0x0415, "E"), (0x041A, "K"), (0x041C, "M"), (0x041D, "H"), (0x041E, "O"),
            (0x0420, "P"), (0x0421, "C"), (0x0422, "T"), (0x0423, "Y"), (0x0425, "X"), (0x042C, "b"), (0x04AE, "Y"),
            (0x0405, "S"), (0x0406, "I"), (0x0408, "J"), (0x04C0, "I"), (0x051A, "Q"), (0x051C, "W"), (0x0417, "3"),
            (0x04E0, "3"),
            (0x0430, "a"), (0x0435, "e"), (0x043E, "o"), (0x0440, "p"), (0x0441, "c"), (0x0443, "y"), (0x0445, "x"),
            (0x044C, "b"), (0x0455, "s"), (0x0456, "i"), (0x0458, "j"), (0x0501, "d"), (0x04BB, "h"), (0x051B, "q"),
            (0x051D, "w"), (0x04CF, "l"), (0x04AF, "y"),
            // Greek capitals, then small letters.
            (0x0391, "A"), (0x0392, "B"), (0x0395, "E"), (0x0396, "Z"), (0x0397, "H"), (0x0399, "I"), (0x039A, "K"),
            (0x039C, "M"), (0x039D, "N"), (0x039F, "O"), (0x03A1, "P"), (0x03A4, "T"), (0x03A5, "Y"), (0x03A7, "X"),
            (0x03F9, "C"), (0x037F, "J"),
            (0x03B1, "a"), (0x03B3, "y"), (0x03B9, "i"), (0x03BA, "k"), (0x03BD, "v"), (0x03BF, "o"), (0x03C1, "p"),
            (0x03C5, "u"), (0x03C7, "x"), (0x03F2, "c"), (0x03F3, "j"),
        ]
        return Dictionary(uniqueKeysWithValues: pairs)
    }()
}

/// Why a new tag cannot go in beside one already held (`Tags.clash`).
public enum TagClash: Hashable, Sendable {
    /// The same tag, letter case and Unicode form aside.
    case same(String)
    /// A tag that reads as the other one: fullwidth, Cyrillic or Greek letters in place of Latin ones.
    case lookAlike(String)

    /// The tag already held.
    public var existing: String {
        switch self {
        case .same(let tag), .lookAlike(let tag): tag
        }
    }

    /// The sentence that refuses `tag`, with `place` saying where the other one is: "ЅL-0042 looks like
    /// SL-0042, already in the register (its Ѕ is U+0405 CYRILLIC CAPITAL LETTER DZE)".
    public func refusal(of tag: String, place: String = "already in the register") -> String {
        switch self {
        case .same(let existing):
            return "an asset tagged \(existing) is \(place)"
        case .lookAlike(let existing):
            // Which character is not what it seems: in the new tag, else in the one held.
            let (scalar, whose) = Tags.lookAlikeCharacter(in: tag).map { ($0, "its") }
                ?? (Tags.lookAlikeCharacter(in: existing).map { ($0, "whose") } ?? (nil, ""))
            let which = scalar.map { " (\(whose) \(String($0)) is \(Tags.codePoint($0)) \($0.properties.name ?? ""))" }
            return "\(tag) looks like \(existing), \(place)" + (which ?? "")
        }
    }
}

/// Tags already taken, each with what holds it (an asset's tag, a spreadsheet's line), found again by key or by
/// look: the one check an import runs over its rows and the register's tags.
public struct TakenTags<Holder> {
    private var byKey: [String: (tag: String, holder: Holder)] = [:]
    private var bySkeleton: [String: (tag: String, holder: Holder)] = [:]

    public init() {}

    /// Takes `tag` for `holder`; a tag taken already keeps its first holder.
    public mutating func insert(_ tag: String, holder: Holder) {
        let key = Tags.key(tag)
        if byKey[key] == nil { byKey[key] = (tag, holder) }
        let skeleton = Tags.skeleton(tag)
        if bySkeleton[skeleton] == nil { bySkeleton[skeleton] = (tag, holder) }
    }

    /// The tag `tag` clashes with, and its holder: the same tag first, else one that looks like it.
    public func clash(with tag: String) -> (clash: TagClash, holder: Holder)? {
        if let held = byKey[Tags.key(tag)] { return (.same(held.tag), held.holder) }
        if let held = bySkeleton[Tags.skeleton(tag)] { return (.lookAlike(held.tag), held.holder) }
        return nil
    }
}
