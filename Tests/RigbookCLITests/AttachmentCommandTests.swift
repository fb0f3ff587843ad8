import Foundation
import Testing
import RigbookCore
import RigbookStore
import RigbookTestSupport

extension RigbookCLITests {
    /// Attachments on the built binary: history, export and the certificate name a record's attachments;
    /// backup and merge carry the files, checked by SHA-256.
    @Suite("Attachments: the commands") struct AttachmentCommands {
        /// A home with PASS-1 examined, its record naming a photo kept in the home's Attachments folder.
        static func home() throws -> (CertificateHome, RigbookCore.Attachment) {
            let home = CertificateHome()
            home.addAsset("PASS-1", "2 t web sling")
            try home.recordParticulars()
            let source = home.sub("hook crack.jpg")
            try Data([0xFF, 0xD8, 0xFF, 0xE0, 7, 7, 7]).write(to: URL(fileURLWithPath: source))
            let photo = try AttachmentStore(home: DataHome(root: home.path)).attach(source)
            var values = CertificateValues.pass(on: "2026-11-20")
            values.attachments = [photo]
            try home.addRecord("PASS-1", values)
            return (home, photo)
        }

        static func attachments(in json: Any?) -> [[String: Any]] { json as? [[String: Any]] ?? [] }

        @Test("history --format json, export json and csv, and the certificate name each file with its hash and size")
        func outward() throws {
            let (home, photo) = try Self.home()
            defer { home.remove() }
            let history = home.run(["history", "PASS-1", "--format", "json"])
            #expect(history.status == 0, "\(history)")
            let parsed = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8))
            let entries = try #require(parsed as? [[String: Any]])
            let listed = Self.attachments(in: entries.first?["attachments"])
            #expect(listed.first?["sha256"] as? String == photo.sha256)
            #expect(listed.first?["name"] as? String == "hook crack.jpg")
            #expect(listed.first?["size"] as? Int == 7)

            let json = home.run(["export", "--format", "json"])
            let named = "\"attachments\":[{\"sha256\":\"\(photo.sha256)\""
            #expect(json.status == 0 && json.stdout.contains(named), "\(json)")
            let csv = home.run(["export", "--format", "csv", "--table", "records"])
            let header = csv.stdout.split(separator: "\r\n").first.map(String.init) ?? ""
            #expect(header.contains(",record_hash,also_amends_uuids,attachments,outranked_by,outranked_by_uuid,kind,"),
                    "\(header)")
            #expect(csv.stdout.contains("\(photo.sha256) 7 hook crack.jpg"))

            let html = home.sub("cert.html")
            let certificate = home.run(["certificate", "PASS-1", "--out", html])
            #expect(certificate.status == 0, "\(certificate)")
            let page = readFile(html) ?? ""
            #expect(page.contains("<h2>Attachments</h2>") && page.contains(photo.sha256))
            #expect(page.contains("hook crack.jpg") && page.contains("7 bytes"))
        }

        @Test("backup copies the files beside FILE; the backup opened as a home finds them; merge copies them over")
        func carried() throws {
            let (home, photo) = try Self.home()
            defer { home.remove() }
            let restored = home.sub("restored")
            try FileManager.default.createDirectory(atPath: restored + "/Documents", withIntermediateDirectories: true)
            let backup = home.run(["backup", restored + "/Documents/register.sqlite"])
            #expect(backup.status == 0 && backup.stdout.contains("Attachments: 1 file copied"), "\(backup)")
            let kept = restored + "/Documents/Attachments/" + photo.sha256
            #expect(fileExists(kept))
            let verify = runRigbookResult(["verify"], home: restored)
            #expect(verify.status == 0, "\(verify)")
            // Opened as a home, the backup's record finds its file where the home keeps them.
            #expect(AttachmentStore(home: DataHome(root: restored)).contains(photo))

            let other = home.sub("other")
            makeEmptyRegister(home: other)
            let merge = runRigbookResult(["merge", restored + "/Documents/register.sqlite"], home: other)
            #expect(merge.status == 0 && merge.stdout.contains("Copied 1 attachment file"), "\(merge)")
            #expect(merge.stdout.contains("1 attachment from"), "\(merge)")
            let merged = DataHome(root: other).documents + "/Attachments/" + photo.sha256
            #expect(fileExists(merged))
            var info = stat()
            #expect(stat(merged, &info) == 0 && info.st_mode & 0o777 == 0o600)
            #expect(runRigbookResult(["verify"], home: other).status == 0)

            // A file that does not match its hash beside OTHER is not taken: a warning says so.
            let third = home.sub("third")
            makeEmptyRegister(home: third)
            try Data("tampered".utf8).write(to: URL(fileURLWithPath: kept))
            let refused = runRigbookResult(["merge", restored + "/Documents/register.sqlite"], home: third)
            #expect(refused.status == 0 && refused.stderr.contains("does not match its SHA-256"), "\(refused)")
            #expect(!fileExists(DataHome(root: third).documents + "/Attachments/" + photo.sha256))
        }
    }
}
