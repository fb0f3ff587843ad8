import Foundation
import Testing

extension RigbookCLITests {
    @Suite("rigbook-bench --help") struct BenchHelp {
        /// `--help` prints every option the bench reads and measures nothing (it used to start the whole bench, an
        /// hour of work: the watchdog would end this test long before).
        @Test(arguments: ["--help", "-h"])
        func helpListsEveryOptionAndRunsNothing(_ flag: String) throws {
            let bench = ((try Binary.path()) as NSString).deletingLastPathComponent + "/rigbook-bench"
            try #require(FileManager.default.isExecutableFile(atPath: bench),
                         "no \(bench): `swift build --build-tests` builds it")
            let result = try runProcess(bench, [flag], environment: ProcessInfo.processInfo.environment, timeout: 20)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            let files = try FileManager.default.contentsOfDirectory(atPath: sourcesFolder.path + "/rigbook-bench")
            var read = Set<String>()
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: sourcesFolder.path + "/rigbook-bench/" + file, encoding: .utf8)
                for match in text.matches(of: /(?:value\(after:|contains\(|firstIndex\(of:) ?"(--[a-z-]+)"/) {
                    read.insert(String(match.1))
                }
            }
            #expect(read.count >= 20, "\(read)")
            for option in read { #expect(result.stdout.contains(option), "--help does not list \(option)") }
        }
    }
}
