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

    /// A missing or unreadable profile is an empty one: it only prefills, it never blocks.
    public static func load(from path: String) -> Profile {
        guard let data = FileManager.default.contents(atPath: path),
              let profile = try? JSONDecoder().decode(Profile.self, from: data) else { return Profile() }
        return profile
    }

    public func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(self) + Data("\n".utf8), to: path)
    }
}

extension TestProfile {
    /// A missing or unreadable test profile is an empty one: it only prefills, it never blocks.
    public static func load(from path: String) -> TestProfile {
        guard let data = FileManager.default.contents(atPath: path),
              let profile = try? JSONDecoder().decode(TestProfile.self, from: data) else { return TestProfile() }
        return profile
    }

    public func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(self) + Data("\n".utf8), to: path)
    }
}
