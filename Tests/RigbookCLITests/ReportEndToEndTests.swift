import Foundation
import Testing

extension E2EPane {
    /// Tabs until the focus marker (▸) stands on the line with `label`, waiting for each step to show: robust
    /// to fields that appear and disappear with the values. `exact`: the label is the field's whole label
    /// ("Remedy deadline", not "Remedy deadline set").
    func tabTo(_ label: String, exact: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws {
        func focused(_ line: String) -> Bool {
            guard line.hasPrefix("▸") else { return false }
            guard exact else { return line.contains(label) }
            let rest = line.dropFirst(2)
            return rest.hasPrefix(label) && (rest.count == label.count || rest.dropFirst(label.count).hasPrefix("  "))
        }
        for _ in 0..<40 {
            let screen = try tmux.capture()
            if e2eLines(screen).contains(where: focused) { return }
            try tmux.sendKeys("Tab")
            _ = try tmux.waitFor("the focus to move from \(label)", sourceLocation: sourceLocation) { $0 != screen }
        }
        Issue.record("Tab never reached \(label)", sourceLocation: sourceLocation)
    }
}

extension RigbookCLITests {
    /// End to end: a record whose Schedule 1 particulars were typed by keys prints on a certificate
    /// with every item.
    @Suite(.serialized) struct ReportEndToEnd {
        @Test func schedule1ByKeysPrintsOnTheCertificate() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try #require(string(try env.firstAsset(status: "ok"), "tag"))
            let pane = try env.launch("report")
            try pane.waitForList()
            try pane.openForm(tag)
            let name = "Siân O'Neill", certificate = "LEEA/INS 4471"

            try pane.tabTo("Inspector name")
            try pane.tmux.sendLiteral(name)
            try pane.tabTo("Certification no.")
            try pane.tmux.sendLiteral(certificate)
            for check in ["ID tag and WLL", "No cuts", "No deformation", "Hooks, safety", "No corrosion"] {
                try pane.tabTo(check)
                try pane.tmux.sendKeys("Space")
                _ = try pane.tmux.waitFor("\(check) ticked") { screen in
                    e2eLines(screen).contains { $0.hasPrefix("▸ [x]") && $0.contains(check) }
                        || e2eLines(screen).contains { $0.contains("[x]") && $0.contains(check) }
                }
            }
            try pane.tabTo("Result")
            try pane.tmux.sendKeys("Right", "Right", "Right") // Pass, with observations, defect to be remedied
            _ = try pane.tmux.waitFor("Defect to be remedied") { $0.contains("‹ Defect to be remedied ›") }
            try pane.tabTo("Defect (part, defect)")
            try pane.tmux.sendLiteral("Latch spring weak on the top hook")
            try pane.tabTo("Action")
            try pane.tmux.sendKeys("Right", "Right") // monitor, repair
            _ = try pane.tmux.waitFor("Repair chosen") { $0.contains("‹ Repair / renew / alter ›") }
            try pane.tabTo("Remedy deadline set")
            try pane.tmux.sendKeys("Space")
            try pane.tabTo("Remedy deadline", exact: true)
            try pane.tmux.sendLiteral("2026-12-20")
            try pane.tabTo("Test particulars")
            try pane.tmux.sendLiteral("Proof load 625 kg (1.25 x WLL), certificate PL-77")
            try pane.tabTo("Repair required")
            try pane.tmux.sendLiteral("Renew the latch spring")
            try pane.tabTo("Remedy required")
            try pane.tmux.sendLiteral("Spring renewed by a competent person")
            try pane.tabTo("Next exam. by")
            try pane.tmux.sendLiteral("2027-03-31")
            try pane.tabTo("authenticate this report")
            _ = try pane.tmux.waitFor("the examiner named") { $0.contains("I, \(name), authenticate this report") }
            try pane.tmux.sendKeys("Space")
            _ = try pane.tmux.waitFor("authenticated") { $0.contains("[x] I, \(name), authenticate this report") }
            try pane.tmux.sendKeys("C-s")
            _ = try pane.tmux.waitFor("reg 10's questions") { $0.contains("Reg 10 notice") }
            try pane.tmux.sendLiteral("Dock foreman")
            _ = try pane.tmux.waitFor("the contact typed") { $0.contains("Dock foreman") }
            try pane.tmux.sendKeys("C-s")
            _ = try pane.tmux.waitFor("saved") { $0.contains("Saved inspection for \(tag)") }
            try pane.tmux.sendKeys("q")
            #expect(try pane.waitForExit() == "exit=0")

            // Beside the data home: its own folders hold only Rigbook's files.
            let out = (env.home as NSString).deletingLastPathComponent + "/certificate.html"
            let printed = runRigbookResult(["certificate", tag, "--out", out], home: env.home)
            try #require(printed.status == 0, "\(printed)")
            let html = try String(contentsOfFile: out, encoding: .utf8)
            for item in ["1", "2", "3", "4", "5", "6", "7", "8a", "8b", "8c", "8d", "8e", "8f", "9", "10", "11"] {
                #expect(html.contains("<tr data-item=\"\(item)\"><th>\(item)  "), "item \(item) has no numbered heading")
            }
            for typed in ["Latch spring weak on the top hook", "Renew the latch spring",
                          "Spring renewed by a competent person", "2026-12-20", "2027-03-31",
                          "Proof load 625 kg (1.25 x WLL), certificate PL-77", "Dock foreman",
                          "Mersey Quay Services Ltd", "Alexandra Dock", "Northgate Lifting Examinations Ltd",
                          "LEEA/INS 4471", "Siân O&#39;Neill"] {
                #expect(html.contains(typed) || html.contains(typed.replacingOccurrences(of: "'", with: "&#39;")),
                        "the certificate lacks \(typed)")
            }
            #expect(!html.contains("not recorded"), "a record typed today has every particular")
            let verified = runRigbookResult(["verify"], home: env.home)
            #expect(verified.status == 0 && html.contains("SHA-256 <code>")
                    && html.contains("<code>rigbook verify</code>"), "the record's hash, for verify: \(verified)")
        }
    }
}
