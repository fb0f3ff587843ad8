import Foundation
import RigbookTestSupport
import Testing

/// Sync on the built binary: `rigbook sync` between replicas and a throwaway PostgreSQL server, and
/// `--server URL` on the reading commands.
extension RigbookCLITests {
    @Suite struct SyncCommandTests {
        private func addSling(_ home: String, _ tag: String) {
            let add = runRigbookResult(["asset", "add", "--tag", tag, "--name", "2 t sling", "--type", "web-sling",
                                        "--wll", "2000", "--commissioned", "2025-01-10"], home: home)
            #expect(add.status == 0, "\(add)")
        }

        private func listed(_ home: String, server: String? = nil) -> [String] {
            let due = runRigbookResult((server.map { ["--server", $0] } ?? []) + ["export", "--format", "csv"],
                                       home: home)
            #expect(due.status == 0, "\(due)")
            return due.stdout.split(separator: "\n").map(String.init).sorted()
        }

        @Test("three replicas sync through one server: every asset everywhere, statuses identical, verify passes")
        func threeReplicasConverge() throws {
            let url = try ThrowawayPostgres.shared().createDatabase()
            let temp = TempDir()
            defer { temp.remove() }
            let homes = ["a", "b", "c"].map { temp.sub($0) }
            addSling(homes[0], "SL-A")
            addSling(homes[1], "SL-B")
            makeEmptyRegister(home: homes[2])
            let first = runRigbookResult(["sync", url], home: homes[0])
            #expect(first.status == 0, "\(first)")
            #expect(first.stdout.contains("sent 1 assets"), "\(first)")
            // The URL is remembered; RIGBOOK_SERVER serves a replica that never gave one.
            let second = runRigbookResult(["sync"], home: homes[1], env: ["RIGBOOK_SERVER": url])
            #expect(second.status == 0 && second.stdout.contains("received 1 assets"), "\(second)")
            for home in homes {
                let again = runRigbookResult(["sync"], home: home, env: ["RIGBOOK_SERVER": url])
                #expect(again.status == 0, "\(again)")
            }
            let everywhere = listed(homes[0])
            #expect(everywhere.contains { $0.contains("SL-A") } && everywhere.contains { $0.contains("SL-B") })
            for home in homes {
                #expect(listed(home) == everywhere)
                let verify = runRigbookResult(["verify"], home: home)
                #expect(verify.status == 0, "\(verify)")
            }
            #expect(listed(homes[2], server: url) == everywhere, "--server reads the same register")
            let serverVerify = runRigbookResult(["--server", url, "verify"], home: homes[2])
            #expect(serverVerify.status == 0 && serverVerify.stdout.hasPrefix("verified"), "\(serverVerify)")
            let due = runRigbookResult(["due", "--server", url], home: temp.sub("nowhere"))
            #expect(due.stdout.contains("SL-A") || due.stdout.contains("Nothing"), "\(due)")
            // Once caught up, a sync changes nothing (c's own particulars came after a's last sync).
            #expect(runRigbookResult(["sync"], home: homes[0]).status == 0)
            let quiet = runRigbookResult(["sync"], home: homes[0])
            #expect(quiet.stdout.hasPrefix("sent nothing\nreceived nothing\n"), "\(quiet)")
        }

        @Test("no URL anywhere, an unreachable server and --server on a writing command are one sentence each")
        func refusals() throws {
            let temp = TempDir()
            defer { temp.remove() }
            let home = temp.sub("home")
            addSling(home, "SL-1")
            let none = runRigbookResult(["sync"], home: home)
            #expect(none.status == 64 && none.stderr.contains("needs the server's URL"), "\(none)")
            let gone = runRigbookResult(["sync", "postgresql:///x?host=\(temp.path)&user=postgres"], home: home)
            #expect(gone.status == 1 && gone.stderrIsOneLine, "\(gone)")
            #expect(gone.stderr.contains("cannot reach the server") && gone.stderr.contains("sync again later"))
            let writing = runRigbookResult(["--server", "postgresql:///x", "asset", "add", "--tag", "X"], home: home)
            #expect(writing.status == 64 && writing.stderr.contains("--server is for reading"), "\(writing)")
        }
    }
}
