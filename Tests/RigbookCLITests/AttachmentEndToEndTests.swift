import Foundation
import Testing
import RigbookCore

// Attachments on the built binary in tmux: a photo attached by keys with Tab completion is in the draft at once,
// survives kill -9 (file and draft), comes back with the recovered draft and is saved with the record.
extension RigbookCLITests {
    @Suite(.serialized) struct AttachmentEndToEnd {
        @Test func attachByKeysKillNineRecoverSaveAndReadItBack() throws {
            let env = try E2EHome()
            defer { env.finish() }
            let tag = try env.tag(at: 3)
            let uuid = try env.uuid(of: tag)
            let photos = env.dir.sub("photos")
            try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
            let photoName = "défaut hook.jpg"
            try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4, 5]).write(to: URL(fileURLWithPath: photos + "/" + photoName))
            let attachments = env.home + "/Documents/Attachments"
            let name = "Siân O'Neill", certificate = "LEEA/INS 4471"

            let first = try env.launch("first")
            try first.waitForList()
            try first.openForm(tag)
            try first.tmux.sendLiteral(name)
            try first.tmux.sendKeys("Tab")
            try first.tmux.sendLiteral(certificate)
            try first.tmux.sendKeys("Tab")
            for _ in 0..<5 { try first.tmux.sendKeys("Space") }
            try first.tmux.sendKeys("Right")
            try first.tmux.waitFor("the checks ticked and Result Pass") { screen in
                e2eLines(screen).filter { $0.hasPrefix("  [x] ") }.count == 5 && screen.contains("‹ Pass ›")
            }

            // Ctrl-O, the folder by Tab (it gets its slash), then the photo by Tab.
            try first.tmux.sendKeys("C-o")
            try first.tmux.waitFor(text: "Attach a file")
            try first.tmux.sendLiteral(env.dir.path + "/pho")
            try first.tmux.sendKeys("Tab")
            try first.tmux.waitFor("the folder completed") { $0.contains("/photos/ ") || $0.contains("/photos/│") }
            try first.tmux.sendLiteral("d")
            try first.tmux.sendKeys("Tab")
            try first.tmux.waitFor("the photo's name completed") { $0.contains(photoName) }
            try first.tmux.sendKeys("Enter")
            try first.tmux.waitFor(text: "Attached \(photoName) (9 bytes).")

            // The copy and the draft naming it are on disk now, not after a debounce.
            let files = (try? FileManager.default.contentsOfDirectory(atPath: attachments)) ?? []
            try #require(files.count == 1, "Attachments/ holds \(files)")
            let draftPath = env.draftPath(uuid: uuid)
            #expect(poll(timeout: 2) { (readFile(draftPath) ?? "").contains(files[0]) },
                    "the draft does not name the file: \(readFile(draftPath) ?? "<none>")")

            let pid = try first.pid()
            try #require(kill(pid, SIGKILL) == 0, "kill -9 \(pid): errno \(errno)")
            #expect(try first.waitForExit() == "exit=137")

            let second = try env.launch("second")
            try second.waitForList()
            // The start-up sweep left the file: the draft names it.
            #expect(fileExists(attachments + "/" + files[0]))
            try second.filterTo(tag)
            try second.tmux.sendKeys("i")
            let question = try second.tmux.waitFor("the recovery question for \(tag)") { screen in
                screen.contains("Unsubmitted draft for \(tag)") && screen.contains("[ Recover ]")
            }
            #expect(question.contains(photoName), "the question does not list the attachment:\n\(question)")
            try second.tmux.sendKeys("r")
            try second.tmux.waitFor("the recovered form") { e2eTitle($0).contains("Inspection · \(tag) ·") }
            // Only the confirmation is unmet (it never comes back from a draft): Ctrl-S asks for it.
            try second.tmux.sendKeys("C-s")
            try second.tmux.waitFor(text: "Authenticate and save?")
            try second.tmux.sendKeys("y")
            try second.tmux.waitFor(text: "Saved inspection for \(tag)")

            let history = runRigbookResult(["history", tag, "--format", "json"], home: env.home)
            try #require(history.status == 0, "\(history)")
            let newest = try #require(e2eJSONArray(history.stdout).first)
            #expect(string(newest, "inspector_name") == name)
            let attached = try #require(newest["attachments"] as? [[String: Any]])
            #expect(attached.count == 1)
            #expect(string(attached[0], "name") == photoName)
            #expect(string(attached[0], "sha256") == files[0])
            #expect(attached[0]["size"] as? Int == 9)
            #expect(!fileExists(draftPath) && fileExists(attachments + "/" + files[0]))
            #expect(runRigbookResult(["verify"], home: env.home).status == 0)

            try second.tmux.sendKeys("q")
            #expect(try second.waitForExit() == "exit=0")
        }
    }
}
