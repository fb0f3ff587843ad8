/// One JSON object written key by key into bytes, in the order given (the caller keeps keys sorted): the bytes
/// `JSONEncoder` writes with `.sortedKeys` and `.withoutEscapingSlashes` (tests compare them), in a fraction of its
/// time. The keystroke journal takes a line on every key, and the encoder was the largest part of a typed character.
public struct JSONObjectBytes {
    public var bytes: [UInt8] = []
    private var first = true

    public init() {}

    public mutating func key(_ name: StaticString) {
        name.withUTF8Buffer { key(quoted: $0) }
    }

    /// A key given as its UTF-8 bytes (a field list's).
    public mutating func key(quoted name: some Collection<UInt8>) {
        bytes.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    public mutating func string(_ text: String) { JSONObjectBytes.appendString(text, to: &bytes) }
    public mutating func optional(_ text: String?) {
        if let text { string(text) } else { literal("null") }
    }
    public mutating func number<N: BinaryInteger>(_ value: N) { bytes.append(contentsOf: String(value).utf8) }
    public mutating func bool(_ value: Bool) { literal(value ? "true" : "false") }
    mutating func literal(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
    /// A value already written as JSON.
    public mutating func raw(_ json: [UInt8]) { bytes.append(contentsOf: json) }

    /// The object's bytes, closed.
    public func closed() -> [UInt8] { first ? Array("{}".utf8) : bytes + [UInt8(ascii: "}")] }

    /// A JSON string as Foundation's encoder writes it: `"` and `\` escaped, the C0 controls as `\b \f \n \r \t`
    /// or `\u00XX`, everything else (DEL, `/`, non-ASCII) as its UTF-8 bytes.
    /// Whether a JSON string holds this byte of UTF-8 as it is, with no escape.
    @inline(__always) static func holdsAsIs(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Bytes that need no escape go in as whole runs: a line is mostly such text.
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard !holdsAsIs(byte) else { continue }
                if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(0x5C); out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C); out.append(0x5C)
                case 0x08: out.append(0x5C); out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(0x5C); out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
                case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
                default:
                    out.append(0x5C); out.append(UInt8(ascii: "u")); out.append(UInt8(ascii: "0"))
                    out.append(UInt8(ascii: "0")); out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xF)])
                }
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

/// A value a field list can write as JSON bytes without an encoder; false where it cannot (the caller then
/// goes through `JSONEncoder`, slower, never wrong), which is what a type conforming with no body says.
public protocol JSONBytesWritable {
    func appendJSON(to object: inout JSONObjectBytes) -> Bool
}

extension JSONBytesWritable {
    public func appendJSON(to object: inout JSONObjectBytes) -> Bool { false }
}

extension JSONBytesWritable where Self: RawRepresentable, RawValue == String {
    public func appendJSON(to object: inout JSONObjectBytes) -> Bool { rawValue.appendJSON(to: &object) }
}

extension JSONObjectBytes {
    /// Writes with `write`, and says it did.
    mutating func wrote(_ write: (inout JSONObjectBytes) -> Void) -> Bool {
        write(&self)
        return true
    }
}

extension String: JSONBytesWritable {
    public func appendJSON(to object: inout JSONObjectBytes) -> Bool { object.wrote { $0.string(self) } }
}

extension Bool: JSONBytesWritable {
    public func appendJSON(to object: inout JSONObjectBytes) -> Bool { object.wrote { $0.bool(self) } }
}

extension Int64: JSONBytesWritable {
    public func appendJSON(to object: inout JSONObjectBytes) -> Bool { object.wrote { $0.number(self) } }
}

extension Optional: JSONBytesWritable where Wrapped: JSONBytesWritable {
    public func appendJSON(to object: inout JSONObjectBytes) -> Bool {
        map { $0.appendJSON(to: &object) } ?? object.wrote { $0.literal("null") }
    }
}

/// A list is written by the encoder unless it is empty.
extension Array: JSONBytesWritable {
    public func appendJSON(to object: inout JSONObjectBytes) -> Bool { isEmpty && object.wrote { $0.literal("[]") } }
}

/// The choices of the records' field lists, written as their names; limits and reg 10's answers are objects, which
/// the encoder writes.
extension InspectionType: JSONBytesWritable {}
extension InspectionResult: JSONBytesWritable {}
extension InspectionAction: JSONBytesWritable {}
extension ExaminationBasis: JSONBytesWritable {}
extension TestType: JSONBytesWritable {}
extension PassFail: JSONBytesWritable {}
extension TestResultChoice: JSONBytesWritable {}
extension RCDType: JSONBytesWritable {}
extension EquipmentType: JSONBytesWritable {}
extension Disposition: JSONBytesWritable {}
extension AssetKind: JSONBytesWritable {}
extension ElectricalClass: JSONBytesWritable {}
extension ElectricalEnvironment: JSONBytesWritable {}
extension ElectricalRisk: JSONBytesWritable {}
extension ColourCodeScheme: JSONBytesWritable {}
extension TestLimits: JSONBytesWritable {}
extension DefectNoticeAnswers: JSONBytesWritable {}
