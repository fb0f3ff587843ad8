import Foundation
import RigbookTestSupport
import Testing

/// Sync end to end: two terminals on two replicas, each saving a different asset's inspection by keys
/// and syncing in the background, and a third replica syncing from the command line. Every record ends up
/// everywhere with the same statuses, and `verify` passes on the three and on the server.
extension RigbookCLITests {
    @Suite(.serialized) struct SyncEndToEnd {
        /// A passed periodic thorough examination of `tag`, typed into the form, saved with Ctrl-S.
        private func inspectAndSave(_ pane: E2EPane, _ tag: String, inspector: String) throws {
            try pane.openForm(tag)
            try pane.tmux.sendLiteral(inspector)
            try pane.tmux.sendKeys("Tab")
            try pane.tmux.sendLiteral("LEEA/INS 1")
            try pane.tmux.sendKeys("Tab")
            for _ in 0..<5 { try pane.tmux.sendKeys("Space") }
            try pane.tmux.sendKeys("Right")
            try pane.tmux.waitFor("the five checks ticked and Result Pass on \(tag)") { screen in
                e2eLines(screen).filter { $0.hasPrefix("  [x] ") }.count == 5 && screen.contains("‹ Pass ›")
            }
            for _ in 0..<12 { try pane.tmux.sendKeys("Tab") }
            try pane.tmux.waitFor("the confirmation focused") {
                $0.contains("▸ [ ] I, \(inspector), authenticate this report")
            }
            try pane.tmux.sendKeys("Space")
            try pane.tmux.waitFor("a preview of OK") { $0.contains("If saved: status OK") }
            try pane.tmux.sendKeys("C-s")
            try pane.tmux.waitFor("\"Saved inspection for \(tag)\" and OK on the list") { screen in
                screen.contains("Saved inspection for \(tag)") && (e2eRow(screen, tag: tag)?.hasSuffix(" OK") ?? false)
            }
        }

        /// The register as `export --format csv` lists it, lines sorted: assets, records and statuses.
        private func exported(_ home: String) -> [String] {
            let export = runRigbookResult(["export", "--format", "csv"], home: home)
            #expect(export.status == 0, "\(export)")
            return export.stdout.split(separator: "\n").map(String.init).sorted()
        }

        private func recordTags(_ home: String, _ tag: String) -> [String] {
            let history = runRigbookResult(["history", tag, "--format", "json"], home: home)
            return e2eJSONArray(history.stdout).compactMap { string($0, "inspector_name") }
        }

        @Test func twoTerminalsAndACommandLineConvergeThroughTheServer() throws {
            let url = try ThrowawayPostgres.shared().createDatabase()
            let site1 = try E2EHome()
            defer { site1.finish() }
            // Site 2 starts as an empty replica: the server's register comes to it by its first sync.
            let site2 = try E2EHome()
            defer { site2.finish() }
            try FileManager.default.removeItem(atPath: site2.home)
            let office = site1.dir.sub("office")
            for home in [site1.home, site2.home, office] {
                let sync = runRigbookResult(["sync", url], home: home)
                try #require(sync.status == 0, "\(sync)")
            }
            let overdue = site1.liftingAssets().filter { string($0, "status") == "overdue" }
                .compactMap { string($0, "tag") }
            try #require(overdue.count >= 2, "the sample has fewer than two overdue assets")
            let (tag1, tag2) = (overdue[0], overdue[1])
            #expect(exported(site2.home) == exported(site1.home), "the empty replica took the whole register")

            // Both terminals use the server their replica remembers, and sync every 2 s besides each save.
            let environment = ["RIGBOOK_SERVER": "", "RIGBOOK_SYNC_INTERVAL": "2"]
            let pane1 = try site1.launch("site1", environment: environment)
            let pane2 = try site2.launch("site2", environment: environment)
            for pane in [pane1, pane2] {
                try pane.waitForList()
                try pane.tmux.waitFor("the header to say it synced") { e2eTitle($0).contains("synced ") }
            }
            try inspectAndSave(pane1, tag1, inspector: "Ada Site-One")
            try inspectAndSave(pane2, tag2, inspector: "Bo Site-Two")

            // The office syncs from the command line until both records have reached it through the server.
            let bothInOffice = poll(timeout: 60) {
                _ = runRigbookResult(["sync"], home: office)
                return recordTags(office, tag1).contains("Ada Site-One")
                    && recordTags(office, tag2).contains("Bo Site-Two")
            }
            #expect(bothInOffice, "the office never received both records")

            // Each terminal's list shows the other's record when its background sync brings it in.
            try pane1.tmux.sendKeys("Escape")  // the saved asset's filter goes
            try pane1.tmux.waitFor("the whole list again") { !e2eTitle($0).contains("filter:") }
            try pane1.filterTo(tag2)
            try pane1.tmux.waitFor("\(tag2), saved on site 2, OK on site 1's list", timeout: 60) {
                e2eRow($0, tag: tag2)?.hasSuffix(" OK") ?? false
            }
            try pane2.tmux.sendKeys("Escape")  // the saved asset's filter goes
            try pane2.tmux.waitFor("the whole list again") { !e2eTitle($0).contains("filter:") }
            try pane2.filterTo(tag1)
            try pane2.tmux.waitFor("\(tag1), saved on site 1, OK on site 2's list", timeout: 60) {
                e2eRow($0, tag: tag1)?.hasSuffix(" OK") ?? false
            }
            for pane in [pane1, pane2] {
                #expect(!(try pane.tmux.capture()).contains("offline"), "a terminal went offline")
                try pane.tmux.sendKeys("Escape")
                try pane.tmux.sendKeys("q")
                #expect(try pane.waitForExit() == "exit=0")
            }

            // Once every side has synced after the last save, every record is everywhere, statuses identical.
            for home in [site1.home, site2.home, office] {
                let sync = runRigbookResult(["sync"], home: home)
                #expect(sync.status == 0, "\(sync)")
            }
            let everywhere = exported(office)
            #expect(everywhere.contains { $0.contains(tag1) } && everywhere.contains { $0.contains(tag2) })
            for home in [site1.home, site2.home] {
                #expect(exported(home) == everywhere, "\(home) differs from the office")
            }
            for home in [site1.home, site2.home, office] {
                #expect(recordTags(home, tag1).filter { $0 == "Ada Site-One" }.count == 1, "\(home): \(tag1)")
                #expect(recordTags(home, tag2).filter { $0 == "Bo Site-Two" }.count == 1, "\(home): \(tag2)")
                let status = runRigbookResult(["asset", "list", "--format", "json"], home: home)
                let statuses = e2eJSONArray(status.stdout).filter { [tag1, tag2].contains(string($0, "tag") ?? "") }
                #expect(statuses.count == 2 && statuses.allSatisfy { string($0, "status") == "ok" }, "\(home)")
                let verify = runRigbookResult(["verify"], home: home)
                #expect(verify.status == 0, "\(home): \(verify)")
            }
            let serverVerify = runRigbookResult(["--server", url, "verify"], home: office,
                                                env: ["RIGBOOK_SERVER_CACHE": "off"])
            #expect(serverVerify.status == 0 && serverVerify.stdout.hasPrefix("verified"), "\(serverVerify)")
        }
    }
}
