import Foundation

/// Poppler's tools (Debian poppler-utils), to read a PDF back as a person's viewer would: its text, its fonts,
/// its page size and metadata.
public enum Poppler {
    /// Runs `tool` (`pdftotext`, `pdfinfo`, `pdffonts`) on `bytes` and returns what it printed.
    public static func run(_ tool: String, _ arguments: [String] = [], _ bytes: [UInt8]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("d.pdf")
        try Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments + [file.path] + (tool == "pdftotext" ? ["-"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    /// pdfinfo's lines as key and value (`Pages` → `1`, `Page size` → `595.276 x 841.89 pts (A4)`).
    public static func info(_ bytes: [UInt8]) throws -> [String: String] {
        var info: [String: String] = [:]
        for line in try run("pdfinfo", [], bytes).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            info[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return info
    }

    /// pdffonts' rows, each whether it is embedded and a subset.
    public static func fonts(_ bytes: [UInt8]) throws -> [(name: String, embeddedSubset: Bool)] {
        try run("pdffonts", [], bytes).split(separator: "\n").dropFirst(2).map { row in
            // name, type, encoding, emb, sub, uni, object ID, generation.
            let columns = row.split(separator: " ", omittingEmptySubsequences: true)
            let embedded = columns.count >= 7 && columns[columns.count - 5] == "yes"
                && columns[columns.count - 4] == "yes"
            return (String(columns.first ?? ""), embedded)
        }
    }
}
