import Foundation
import Testing

private let validAdd = ["asset", "add", "--tag", "SH-1", "--name", "Shackle", "--type", "shackle", "--wll", "100"]

extension RigbookCLITests {
    @Suite("Hardening: command line") struct HardeningCommandLine {
        @Test func exportWithoutFormatWritesCSV() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            try #require(runRigbookResult(validAdd, home: home).status == 0)
            let plain = runRigbookResult(["export"], home: home)
            #expect(plain.status == 0, "\(plain)")
            let csv = runRigbookResult(["export", "--format", "csv"], home: home)
            #expect(plain.stdout == csv.stdout && plain.stdout.contains("SH-1"), "\(plain)")
            let records = runRigbookResult(["export", "--table", "records"], home: home)
            #expect(records.status == 0 && records.stdout.hasPrefix("id,"), "\(records)")
        }
    }
}
