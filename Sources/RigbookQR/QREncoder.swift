import CQRencode
import RigbookCore

/// Payload in, modules out: the only code that imports libqrencode (docs/DECISIONS.md, "Labels"). Error
/// correction M (15 % of the code may be lost: a scuffed label on a sling still reads); the smallest version
/// that holds the payload; libqrencode picks the modes, so an alphanumeric payload is encoded as such.
public enum QREncoder {
    public enum Correction: Sendable { case low, medium, quartile, high }

    /// The matrix of `payload`, or nil when libqrencode cannot encode it (longer than a QR code holds, or
    /// holding a NUL).
    public static func matrix(_ payload: String, correction: Correction = .medium) -> QRMatrix? {
        guard !payload.utf8.contains(0) else { return nil }
        let level: QRecLevel = switch correction {
        case .low: QR_ECLEVEL_L
        case .medium: QR_ECLEVEL_M
        case .quartile: QR_ECLEVEL_Q
        case .high: QR_ECLEVEL_H
        }
        guard let code = QRcode_encodeString(payload, 0, level, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // Each byte is one module; bit 0 says dark (libqrencode's documented layout).
        let data = UnsafeBufferPointer(start: code.pointee.data, count: size * size)
        return QRMatrix(size: size, modules: data.map { $0 & 1 == 1 })
    }
}
