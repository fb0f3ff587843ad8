/// A file attached to a draft or a record: kept in `Documents/Attachments/` under its SHA-256.
public struct Attachment: Hashable, Sendable, Codable {
    /// Lower-case hex SHA-256 of the content: the file's name in the attachments folder.
    public var sha256: String
    /// The name the file had where it was attached from (shown, never used as a path).
    public var name: String
    public var size: Int64

    public init(sha256: String, name: String, size: Int64) {
        self.sha256 = sha256
        self.name = name
        self.size = size
    }

    /// Images and PDFs only, at most 20 MB.
    public static let maxSize: Int64 = 20 * 1024 * 1024
}
