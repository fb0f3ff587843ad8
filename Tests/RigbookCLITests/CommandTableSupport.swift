import Foundation
import Testing

/// The command table as the built binary's help shows it: every command the overview lists, with its usage and
/// the options of its OPTIONS section. The man page and completion tests check the pages and the scripts against
/// it, so a command or an option added to the table is a command or an option they look for.
struct HelpCommand: CustomTestStringConvertible, Sendable {
    let name: String
    let usage: String
    /// Every spelling of every option and flag (`-h` and `--help` both).
    let options: [String]
    var testDescription: String { name }

    /// The overview's COMMANDS, each read from `rigbook help NAME`.
    static func all() throws -> [HelpCommand] {
        let dir = TempDir(); defer { dir.remove() }
        let overview = runRigbookResult(["help"], home: dir.sub("home"))
        try #require(overview.status == 0, "\(overview)")
        return try section("COMMANDS", of: overview.stdout).compactMap(entryName).map { name in
            let help = runRigbookResult(["help"] + name.split(separator: " ").map(String.init), home: dir.sub("home"))
            try #require(help.status == 0, "\(name): \(help)")
            let usage = section("USAGE", of: help.stdout, inline: true).joined(separator: "\n")
            let options = section("OPTIONS", of: help.stdout).compactMap(entryName)
                .flatMap { $0.split(separator: " ")[0].split(separator: ",") }
                .map { String($0).trimmingCharacters(in: .whitespaces) }
            return HelpCommand(name: name, usage: usage, options: options)
        }
    }

    /// The lines under `TITLE:` up to the next blank line; `inline`: the section starts on the title's line.
    static func section(_ title: String, of text: String, inline: Bool = false) -> [String] {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix(title + ":") }) else { return [] }
        let first = inline ? [String(lines[start].dropFirst(title.count + 1)).trimmingCharacters(in: .whitespaces)] : []
        return first + lines[(start + 1)...].prefix { !$0.isEmpty }
    }

    /// The name an entry of a help's column starts with (`asset add`, `--format table|json`); nil for a line that
    /// goes on with the text above it.
    private static func entryName(_ line: String) -> String? {
        guard line.hasPrefix("  "), line.dropFirst(2).first != " " else { return nil }
        return line.dropFirst(2).components(separatedBy: "  ")[0]
    }

    /// The groups' words (`asset`, `drafts`) and their commands' second words.
    static func groups(_ commands: [HelpCommand]) -> [String: [String]] {
        var groups: [String: [String]] = [:]
        for command in commands {
            let words = command.name.split(separator: " ").map(String.init)
            if words.count == 2 { groups[words[0], default: []].append(words[1]) }
        }
        return groups
    }

    /// Whether the usage takes a TAG as a word of its own (`history TAG`, `labels TAG...`, `certificate
    /// RECORD|TAG`), not as an option's value (`--tag TAG`, `--asset TAG`).
    var takesATag: Bool {
        let words = usage.split(whereSeparator: \.isWhitespace).map(String.init)
        return words.indices.contains { index in
            let word = words[index].trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
            let isTag = word == "TAG" || word.hasSuffix("|TAG")
            return isTag && (index == 0 || !words[index - 1].trimmingCharacters(in: ["["]).hasPrefix("-"))
        }
    }
}

/// The package's Sources folder.
let sourcesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources")

/// Environment variables the program reads: `environment["NAME"]` (the environment passed down from `main`, or
/// ProcessInfo's) and `getenv("NAME")` in Sources/, the benchmark aside.
func environmentVariablesRead() throws -> Set<String> {
    var names = Set<String>()
    let files = try #require(FileManager.default.enumerator(atPath: sourcesFolder.path))
    for case let file as String in files where file.hasSuffix(".swift") && !file.hasPrefix("rigbook-bench") {
        let text = try String(contentsOfFile: sourcesFolder.appendingPathComponent(file).path, encoding: .utf8)
        for match in text.matches(of: /(?:environment\[|getenv\()"([A-Z_]+)"/) { names.insert(String(match.1)) }
    }
    return names
}

/// A program the tests need, or a failure naming it and the Debian package `.ci/run` installs it from: never a
/// test that passes having checked nothing.
func requiredProgram(_ name: String, package: String) throws -> String {
    guard let path = program([name]) else {
        throw PrintFailure("\(name) is not on PATH: .ci/run installs it; by hand: apt-get install \(package)")
    }
    return path
}
