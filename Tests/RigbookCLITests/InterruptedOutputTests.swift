import Foundation
import Testing

extension RigbookCLITests {
    /// A command stopped part-way through writing a file a person named leaves nothing half-written: not under the
    /// name, and no temp file beside it.
    @Suite("Interrupted output") struct InterruptedOutput {
        @Test(arguments: [SIGTERM, SIGINT]) func aStoppedLabelsRunLeavesNoTempFile(signal: Int32) throws {
            let home = CertificateHome()
            defer { home.remove() }
            #expect(home.run(["sample", "--assets", "3000"]).status == 0)
            let folder = home.sub("out")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var environment = baseEnvironment(userHome: home.sub("user-home"))
            environment["RIGBOOK_TODAY"] = fixedToday
            // Spawned with no signal blocked: a test runner may block SIGINT and SIGTERM for what it starts.
            let pid = try spawn(try Binary.path(), ["--home", home.path, "labels", "--site", "Alexandra Dock",
                                                    "--out", folder + "/labels.html"], environment: environment)
            var status: Int32 = 0
            // Stopped once its temp file is there, part-way through the labels.
            let deadline = Date().addingTimeInterval(120)
            while waitpid(pid, &status, WNOHANG) == 0, Date() < deadline {
                if !((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty {
                    kill(pid, signal)
                    _ = waitpid(pid, &status, 0)
                    break
                }
                usleep(1_000) // poll interval; the deadline bounds the wait
            }
            let (ended, signalled) = waitStatus(status)
            let left = try FileManager.default.contentsOfDirectory(atPath: folder)
            if signalled {
                #expect(ended == 128 + signal, "ended as the signal ends it")
                #expect(left.isEmpty, "left behind: \(left)")
            } else {
                // It finished before the signal came: then only the whole file is there.
                #expect(ended == 0 && left == ["labels.html"], "\(ended): \(left)")
            }
        }
    }
}
