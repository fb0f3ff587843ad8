import Foundation

/// A draft file as a newer Rigbook would write it: the same draft with a key this build does not know at its top
/// level and one under `values` (drafts gain keys without a new schema version), for the tests that check every
/// rewrite of a draft keeps them as they were.
public enum NewerDraftKeys {
    /// The newer top-level key and its value, in forms a round trip through numbers or strings would change.
    public static let topLevel = #""site_survey" : {"readings": [1, 2.50, -0.0, 1e2], "by": "Zo\u00eb", "ok": null}"#
    /// The newer key under `values`.
    public static let value = #""torque_nm" : 12.50"#

    /// Rewrites the draft file at `path` (as this build writes one: pretty printed) with both newer keys added.
    public static func add(at path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let values = #""values" : {"# + "\n"
        guard text.hasPrefix("{\n"), text.contains(values) else { throw Unexpected(text: text) }
        let newer = ("{\n  " + topLevel + ",\n" + text.dropFirst(2))
            .replacingOccurrences(of: values, with: values + "    " + value + ",\n")
        try Data(newer.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// What of the newer keys the file at `path` has lost or changed: empty when both are there as written.
    public static func missing(at path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return [topLevel, value].filter { !text.contains($0) }
    }

    /// A draft file not laid out as this build writes one.
    public struct Unexpected: Error, CustomStringConvertible {
        public var text: String
        public var description: String { "not a draft as this build writes one:\n\(text)" }
    }
}
