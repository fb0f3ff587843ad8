import Foundation
import RigbookCore

/// The inspector's name and certification number, used to prefill forms (`profile.json`).
public struct Profile: Codable, Equatable, Sendable {
    public var inspectorName: String
    public var certificationNumber: String

    public init(inspectorName: String = "", certificationNumber: String = "") {
        self.inspectorName = inspectorName
        self.certificationNumber = certificationNumber
    }

    enum CodingKeys: String, CodingKey {
        case inspectorName = "inspector_name"
        case certificationNumber = "certification_number"
    }

    public static func load(from path: String) -> Profile { loadProfile(path, or: Profile()) }
    public func save(to path: String) throws { try saveProfile(self, to: path) }
}

extension TestProfile {
    public static func load(from path: String) -> TestProfile { loadProfile(path, or: TestProfile()) }
    public func save(to path: String) throws { try saveProfile(self, to: path) }
}

/// A profile only prefills a form: a missing or unreadable one is `empty`, it never blocks.
private func loadProfile<T: Decodable>(_ path: String, or empty: T) -> T {
    FileManager.default.contents(atPath: path).flatMap { try? JSONDecoder().decode(T.self, from: $0) } ?? empty
}

private func saveProfile(_ profile: some Encodable, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try AtomicFile.write(try encoder.encode(profile) + Data("\n".utf8), to: path)
}
