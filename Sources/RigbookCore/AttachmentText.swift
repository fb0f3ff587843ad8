import Foundation

extension Attachment {
    /// The size as people read it: bytes, KB or MB (1024s), one decimal from 10 KB down.
    public var sizeText: String { Attachment.sizeText(size) }

    public static func sizeText(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) byte\(bytes == 1 ? "" : "s")" }
        let kb = Double(bytes) / 1024
        if kb < 1024 { return kb < 10 ? String(format: "%.1f KB", kb) : "\(Int(kb.rounded())) KB" }
        return String(format: "%.1f MB", kb / 1024)
    }

    /// One line naming the file for text outputs: name, size and SHA-256.
    public var summary: String { "\(name) (\(sizeText), SHA-256 \(sha256))" }
}
