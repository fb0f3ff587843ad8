import Foundation
import Testing

extension RigbookCLITests {
    /// docs/ARCHITECTURE.md's module diagram is drawn from Package.swift by docs/diagram/make-module-diagram, so a
    /// target added or a dependency changed without running the script fails here rather than leaving the picture
    /// wrong.
    @Suite("Module diagram: made from the package") struct ModuleDiagram {
        static let docs = sourcesFolder.deletingLastPathComponent().appendingPathComponent("docs")

        @Test func theCheckedInDotIsWhatThePackageMakes() throws {
            let script = ModuleDiagram.docs.appendingPathComponent("diagram/make-module-diagram").path
            // The script asks `swift package dump-package`, which compiles the manifest: more than a second.
            let made = try runProcess(script, ["--print"], environment: ProcessInfo.processInfo.environment,
                                      timeout: 120)
            try #require(made.status == 0, "\(made)")
            let checkedIn = try String(contentsOf: ModuleDiagram.docs.appendingPathComponent("modules.dot"),
                                       encoding: .utf8)
            #expect(made.stdout == checkedIn,
                    "docs/modules.dot is not the package's (make-module-diagram writes it):\n\(made.stdout)")
            #expect(checkedIn.contains("\"RigbookApp\" -> \"RigbookUI\";"), "\(checkedIn)")
        }

        /// The picture is rendered from the .dot (by `dot`, which this test does not need): every module of the .dot
        /// is a node of the SVG, so a .dot changed without rendering again is found.
        @Test func theSVGShowsEveryModuleOfTheDot() throws {
            let dot = try String(contentsOf: ModuleDiagram.docs.appendingPathComponent("modules.dot"), encoding: .utf8)
            let svg = try String(contentsOf: ModuleDiagram.docs.appendingPathComponent("modules.svg"), encoding: .utf8)
            let modules = Set(dot.matches(of: /^    "([^"]+)"[ ;]/.anchorsMatchLineEndings()).map { String($0.1) })
            let drawn = Set(svg.matches(of: /<g id="node\d+" class="node">\n<title>([^<]+)<\/title>/)
                .map { unescaped($0.1) })
            #expect(modules.count >= 15 && modules == drawn,
                    "in the .dot: \(modules.sorted()); drawn: \(drawn.sorted())")
            let architecture = try String(contentsOf: ModuleDiagram.docs.appendingPathComponent("ARCHITECTURE.md"),
                                          encoding: .utf8)
            #expect(architecture.contains("![modules](modules.svg)"))
        }
    }
}

/// A title as Graphviz writes it into SVG, its numeric character references read ("rigbook&#45;bench").
private func unescaped(_ text: Substring) -> String {
    String(text.replacing(/&#(\d+);/) { match -> String in
        guard let code = UInt32(match.1), let scalar = Unicode.Scalar(code) else { return String(match.0) }
        return String(Character(scalar))
    })
}
