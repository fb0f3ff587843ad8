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

    /// Why a file of `bytes` is too large: its size said so that it visibly differs from the limit. A file
    /// just over 20 MB is "20.0 MB" to one decimal, the limit's own figure, so there both are in bytes.
    public static func tooLargeText(_ bytes: Int64) -> String {
        let size = sizeText(bytes), limit = sizeText(maxSize)
        guard size == limit else { return "is \(size); attachments are at most 20 MB" }
        return "is \(groupedDigits(bytes)) bytes; attachments are at most 20 MB (\(groupedDigits(maxSize)) bytes)"
    }

    /// 20971521 as "20,971,521": a long byte count read at a glance.
    static func groupedDigits(_ number: Int64) -> String {
        let digits = Array(String(number))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    /// One line naming the file for text outputs: name, size and SHA-256.
    public var summary: String { "\(name) (\(sizeText), SHA-256 \(sha256))" }
}
