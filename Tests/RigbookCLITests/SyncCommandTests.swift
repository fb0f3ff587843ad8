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

        /// A home in `temp` holding one sling, SL-1.
        private func homeWithASling(_ temp: TempDir) -> String {
            let home = temp.sub("home")
            addSling(home, "SL-1")
            return home
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
            let home = homeWithASling(temp)
            let none = runRigbookResult(["sync"], home: home)
            #expect(none.status == 64 && none.stderr.contains("needs the server's URL"), "\(none)")
            let gone = runRigbookResult(["sync", "postgresql:///x?host=\(temp.path)&user=postgres"], home: home)
            #expect(gone.status == 75 && gone.stderrIsOneLine, "\(gone)")
            #expect(gone.stderr.contains("cannot reach the server") && gone.stderr.contains("sync again later"))
            let writing = runRigbookResult(["--server", "postgresql:///x", "asset", "add", "--tag", "X"], home: home)
            #expect(writing.status == 64 && writing.stderr.contains("--server is for reading"), "\(writing)")
        }

        @Test("a wrong password or a missing database exits 78 and says the fix, never 'later'")
        func refusalsNeedSomeoneToAct() throws {
            let cluster = try ThrowawayPostgres.shared()
            let name = try cluster.createDatabaseNamed()
            let temp = TempDir()
            defer { temp.remove() }
            let home = homeWithASling(temp)
            let password = runRigbookResult(["sync", cluster.url(database: name, role: ThrowawayPostgres.passwordRole,
                                                                 password: "hunter2")], home: home)
            #expect(password.status == 78 && password.stderrIsOneLine, "\(password)")
            #expect(password.stderr.contains("refused the password for role \"password_checked\""), "\(password)")
            #expect(password.stderr.contains("~/.pgpass") && !password.stderr.contains("hunter2"), "\(password)")
            #expect(!password.stderr.contains("later") && !password.stderr.contains("cannot reach"), "\(password)")
            let missing = runRigbookResult(["sync", cluster.url(database: "no_such_register")], home: home)
            #expect(missing.status == 78 && missing.stderrIsOneLine, "\(missing)")
            #expect(missing.stderr.contains("has no database \"no_such_register\"")
                    && missing.stderr.contains("createdb"), "\(missing)")
            #expect(!missing.stderr.contains("later"), "\(missing)")
            let reading = runRigbookResult(["due", "--server", cluster.url(database: "no_such_register")], home: home)
            #expect(reading.status == 78 && reading.stderr.contains("has no database"), "\(reading)")
            #expect(runRigbookResult(["sync"], home: home).status == 64, "a refused URL is not remembered")
        }

        @Test("a server not there, or one that accepts and never answers, exits 75 (sync again later), naming the wait")
        func unreachableServersAreForLater() throws {
            let temp = TempDir()
            defer { temp.remove() }
            let home = homeWithASling(temp)
            let port = try SilentListener.closedPort()
            let closed = runRigbookResult(["sync", "postgresql://127.0.0.1:\(port)/rigbook"], home: home)
            #expect(closed.status == 75 && closed.stderrIsOneLine, "\(closed)")
            #expect(closed.stderr.contains("cannot reach the server") && closed.stderr.contains("sync again later"))
            let listener = try SilentListener()
            let silent = runRigbookResult(["sync", listener.url(connectTimeout: 2)], home: home)
            #expect(silent.status == 75 && silent.stderrIsOneLine, "\(silent)")
            #expect(silent.stderr.contains("127.0.0.1 port \(listener.port) accepted the connection but did not answer"
                                           + " the login in 2 s (waiting for the server's reply"), "\(silent)")
            #expect(silent.stderr.contains("sync again later"), "\(silent)")
        }
    }
}
