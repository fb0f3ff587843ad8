import Foundation

extension UUID {
    /// `uuidString` (upper-case hex, 8-4-4-4-12), written by hand: Foundation's formats each byte with `snprintf`,
    /// and a bulk load writes a record's uuid and its asset's for every record.
    var text: String { hexText(upper: true) }

    /// `uuidString.lowercased()`, written as `text` is.
    var lowercasedText: String { hexText(upper: false) }

    private func hexText(upper: Bool) -> String {
        let digits: StaticString = upper ? "0123456789ABCDEF" : "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    out[position] = digits.utf8Start[Int(byte >> 4)]
                    out[position + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }
}
