import Foundation
import Testing
import RigbookCore
import RigbookStore

// `verify` from the command line on a register edited behind Rigbook's back, and a register a newer build folded.

@Suite("verify names forged statuses and numbers; a newer fold is not written")
struct VerifyForgeryCommandTests {
    /// A sampled home: two hundred assets with years of records, some of them DO NOT USE.
    private func sampled() throws -> (TempDir, String) {
        let dir = TempDir("rigbook-verify")
        let home = dir.sub("home")
        let result = runRigbookResult(["sample"], home: home)
        try #require(result.status == 0, "\(result)")
        return (dir, home)
    }

    @Test("a DO NOT USE item forged to OK and two records renumbered: exit 1, each named")
    func forgeriesAreNamed() throws {
        let (dir, home) = try sampled()
        defer { dir.remove() }
        let path = DataHome(root: home).registerPath
        let raw = try Database(path: path, mode: .readWrite)
        guard case .text(let tag)? = try raw.scalar(
            "SELECT tag FROM assets WHERE out_of_service IS NOT NULL ORDER BY tag LIMIT 1") else {
            Issue.record("the sample has no item out of service")
            return
        }
        guard case .integer(let first)? = try raw.scalar("SELECT min(id) FROM inspections"),
              case .integer(let second)? = try raw.scalar("SELECT min(id) FROM inspections WHERE id > ?",
                                                          [.integer(first)]) else {
            Issue.record("the sample has fewer than two records")
            return
        }
        try raw.execute("""
            DROP TRIGGER assets_summaries_are_folded;
            UPDATE assets SET out_of_service = NULL, unresolved_fail = 0, latest_result = 'pass',
                last_thorough_result = 'pass', next_due = '2099-01-01'
            WHERE tag = '\(tag)';
            DROP TRIGGER inspections_are_never_updated;
            UPDATE inspections SET id = -1 WHERE id = \(first);
            UPDATE inspections SET id = \(first) WHERE id = \(second);
            UPDATE inspections SET id = \(second) WHERE id = -1;
            """)
        let result = runRigbookResult(["verify"], home: home)
        #expect(result.status == 1, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 3, "\(result)")
        #expect(lines.contains { $0.contains("asset \(tag) (") && $0.contains("changed behind Rigbook's back") },
                "\(result)")
        #expect(lines.contains { $0.contains("record #\(first) ") && $0.contains("came in as #\(second)") },
                "\(result)")
        #expect(lines.contains { $0.contains("record #\(second) ") && $0.contains("came in as #\(first)") },
                "\(result)")
    }

    @Test("a register folded by a newer build: asset add refuses and leaves it untouched; reading works")
    func newerFoldIsReadOnly() throws {
        let (dir, home) = try sampled()
        defer { dir.remove() }
        let path = DataHome(root: home).registerPath
        try Database(path: path, mode: .readWrite).execute("PRAGMA user_version = \(HistorySummary.foldVersion + 1)")
        let added = runRigbookResult(["asset", "add", "--tag", "NEW-1", "--name", "New sling", "--type", "web-sling",
                                      "--wll", "1000", "--commissioned", "2026-06-01"], home: home)
        #expect(added.status == 1, "\(added)")
        #expect(added.stderr.contains("written by a newer Rigbook") && added.stderr.contains("left untouched"),
                "\(added)")
        let listed = runRigbookResult(["asset", "list"], home: home)
        #expect(listed.status == 0 && !listed.stdout.contains("NEW-1"), "\(listed)")
        let verified = runRigbookResult(["verify"], home: home)
        #expect(verified.status == 1 && verified.stderr.contains("folded by a newer Rigbook"), "\(verified)")
    }
}
