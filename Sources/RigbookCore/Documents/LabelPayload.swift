import Foundation

/// What a label's QR code holds (docs/FORMATS.md): `/RB1:<tag>:<due>`, e.g.
/// `/RB1:SL-0042:20270630`.
///
/// - `/` first: a scanner types like a keyboard, and a scan that reaches the register list with no prompt open
///   opens the filter with its first character, which then takes the rest and jumps on Enter. No character of
///   a payload can reach a list key.
/// - `RB1` names the format and its version; a reader refuses a version it does not know.
/// - the tag, with every character outside QR's alphanumeric set written as `%XX` (its UTF-8 bytes), and
///   `%`, `:` escaped likewise; `a`–`z` are written upper case, which names the same tag (tags compare
///   ignoring case). An ordinary tag (`SL-0042`) is unchanged, and the payload stays in the alphanumeric set
///   (no `;`, which tmux and shells treat specially), so the code is small.
/// - the due date as `YYYYMMDD`, empty when the asset has none (withdrawn, untested without commissioning).
public struct LabelPayload: Sendable, Hashable {
    public static let version = "RB1"
    public var tag: String
    public var due: CalendarDate?

    public init(tag: String, due: CalendarDate?) {
        self.tag = tag
        self.due = due
    }

    /// The text the QR code carries.
    public var text: String {
        let date = due.map { String(format: "%04d%02d%02d", $0.year, $0.month, $0.day) } ?? ""
        return "/\(LabelPayload.version):\(LabelPayload.escape(tag)):\(date)"
    }

    /// Characters of QR's alphanumeric set a tag keeps as they are (`%` and `:` are the format's own).
    static func keeps(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
        case UInt8(ascii: " "), UInt8(ascii: "$"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"),
             UInt8(ascii: "."), UInt8(ascii: "/"): true
        default: false
        }
    }

    static func escape(_ tag: String) -> String {
        var out = ""
        for byte in tag.utf8 {
            let upper = (0x61...0x7A).contains(byte) ? byte - 0x20 : byte
            if keeps(upper) {
                out.unicodeScalars.append(Unicode.Scalar(upper))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// What a scanned or typed text turned out to be.
    public enum Reading: Sendable, Hashable {
        case payload(LabelPayload)
        /// A Rigbook label of a format this build does not read (a newer version), as a sentence.
        case unreadable(String)
        /// Not a payload at all: perhaps a tag typed by hand.
        case notAPayload
    }

    /// Reads a scan. Spaces and line ends around it are ignored, the leading `/` is optional (it opened the
    /// filter, or was typed into a prompt), and the letters of `RB1` may come in either case (a scanner with
    /// Caps Lock on).
    public static func read(_ scanned: String) -> Reading {
        var text = Substring(scanned.trimmingCharacters(in: .whitespacesAndNewlines))
        if text.hasPrefix("/") { text = text.dropFirst() }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, let head = parts.first, head.count == 3, head.uppercased().hasPrefix("RB"),
              head.last?.isNumber == true else { return .notAPayload }
        guard head.uppercased() == version else {
            return .unreadable("That label is \(head.uppercased()), a format this Rigbook does not read (it reads "
                               + "\(version)); a newer Rigbook printed it.")
        }
        guard let tag = unescape(parts[1]), !tag.isEmpty else {
            return .unreadable("That label's tag is damaged (\(VisibleText.make(String(parts[1])))).")
        }
        var due: CalendarDate?
        if parts.count >= 3, !parts[2].isEmpty {
            let digits = parts[2]
            guard digits.count == 8, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                  let date = CalendarDate(year: Int(digits.prefix(4))!, month: Int(digits.dropFirst(4).prefix(2))!,
                                          day: Int(digits.suffix(2))!) else {
                return .unreadable("That label's due date is damaged (\(VisibleText.make(String(digits)))).")
            }
            due = date
        }
        return .payload(LabelPayload(tag: tag, due: due))
    }

    /// `%XX` back to bytes; nil when an escape is broken or the bytes are not UTF-8.
    static func unescape(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
