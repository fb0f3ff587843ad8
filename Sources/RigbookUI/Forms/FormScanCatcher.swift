import RigbookCore

/// A label scanned into a form: the scanner types `/RB1:TAG:YYYYMMDD` and Enter into whatever field has the
/// focus. A reading took its digits (`120270301`, a pass), a choice its letters. The form holds back a `/` and
/// what follows while it may still be a payload's `/RB<n>:`; once it is, the rest of the scan up to Enter is
/// swallowed and the form says what happened. Anything else (`AS/NZS`, `/` then a digit) is let through as
/// typed, a key late.
struct FormScanCatcher: Sendable, Equatable {
    static let message = "That is a label scan: close the form (Esc) to go to that asset."

    /// A `/` and the keys after it, held while they may still start a payload.
    private(set) var held: [Key] = []
    /// A payload's start was seen: its other characters, and the Enter ending it, are swallowed.
    private(set) var inScan = false
    /// The form is handing on a released key: it is not caught again.
    var replaying = false

    enum Verdict: Equatable {
        /// Not a scan: the key acts as usual.
        case pass
        /// Held or swallowed: nothing happens yet.
        case held
        /// A scan was recognised (or ended): the form says so; the field is unchanged.
        case scan
        /// Held keys that were not a scan after all, to act in order.
        case release([Key])
    }

    mutating func take(_ key: Key) -> Verdict {
        if inScan {
            if key == .enter {
                inScan = false
                return .scan
            }
            if case .char(let c) = key, FormScanCatcher.isPayloadCharacter(c) { return .held }
            inScan = false
            return .pass
        }
        if case .paste(let text) = key, held.isEmpty {
            return FormScanCatcher.startsPayload(text) ? .scan : .pass
        }
        guard case .char(let c) = key, held.isEmpty ? c == "/" : true else {
            guard !held.isEmpty else { return .pass }
            defer { held = [] }
            return .release(held + [key])
        }
        held.append(key)
        let text = String(held.compactMap { key -> Character? in if case .char(let c) = key { c } else { nil } })
        if FormScanCatcher.mayStartPayload(text) { return .held }
        if FormScanCatcher.startsPayload(text) {
            held = []
            inScan = true
            return .scan
        }
        defer { held = [] }
        return .release(held)
    }

    /// `/`, `/R`, `/RB`, `/RB1`: a payload's start, not yet whole.
    static func mayStartPayload(_ text: String) -> Bool {
        let chars = Array(text)
        guard chars.first == "/" else { return false }
        for (index, c) in chars.enumerated().dropFirst() {
            switch index {
            case 1: if c != "R" { return false }
            case 2: if c != "B" { return false }
            default: if !(c.isASCII && c.isNumber) { return false }
            }
        }
        return true
    }

    /// Starts with `/RB<digits>:`, as every label's payload does (this version's and a newer one's).
    static func startsPayload(_ text: String) -> Bool {
        guard text.hasPrefix("/RB"), let colon = text.dropFirst(3).firstIndex(of: ":") else { return false }
        let version = text[text.index(text.startIndex, offsetBy: 3)..<colon]
        return !version.isEmpty && version.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// QR's alphanumeric set, which a payload never leaves (LabelPayload).
    static func isPayloadCharacter(_ c: Character) -> Bool {
        guard c.isASCII else { return false }
        return c.isNumber || ("A"..."Z").contains(c) || " $%*+-./:".contains(c)
    }
}

extension DraftedForm {
    /// Nil: `key` acts as usual. Otherwise the keys to act on now, in order (none while held or swallowed).
    mutating func catchingScan(_ key: Key) -> [Key]? {
        guard !scanCatcher.replaying else { return nil }
        switch scanCatcher.take(key) {
        case .pass: return nil
        case .held: return []
        case .scan:
            note(FormScanCatcher.message)
            return []
        case .release(let keys): return keys
        }
    }
}
