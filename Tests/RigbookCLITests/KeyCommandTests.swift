import Foundation
import Testing
import RigbookCore
import RigbookTestSupport

extension RigbookCLITests {
    /// `rigbook keys …` and the commands that sign without a terminal.
    @Suite("Keys: from a shell") struct KeyCommands {
        @Test func aKeyIsMadeListedExportedImportedElsewhereAndRetiredWithAReason() throws {
            let home = CertificateHome()
            defer { home.remove() }
            _ = try VisitRegister.make(home)
            let made = home.run(["keys", "new", "--examiner", "Jo Examiner"])
            #expect(made.status == 0, "\(made)")
            let fingerprint = try #require(made.stdout.firstMatch(of: /fingerprint ([0-9a-f]{64})/)?.output.1)
            let file = home.path + "/keys/\(fingerprint).pem"
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let listed = home.run(["keys", "list"])
            #expect(listed.stdout.contains("Jo Examiner") && listed.stdout.contains("here"), "\(listed)")

            // Only the public key leaves: to a file, and into another register.
            let exported = home.sub("jo.pem")
            #expect(home.run(["keys", "export", String(fingerprint.prefix(12)), "--out", exported]).status == 0)
            let pem = try String(contentsOfFile: exported, encoding: .utf8)
            #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----") && !pem.contains("PRIVATE"))
            let other = CertificateHome()
            defer { other.remove() }
            other.addAsset("X-1", "2 t sling")
            #expect(other.run(["keys", "import", exported, "--examiner", "Jo Examiner"]).status == 0)
            #expect(other.run(["keys", "list"]).stdout.contains("—"), "no private key there")
            let privateOne = other.run(["keys", "import", file, "--examiner", "Jo Examiner"])
            #expect(privateOne.status == 1 && privateOne.stderr.contains("private key"), "\(privateOne)")
            // A binary (DER) key is told apart from an unreadable file, with the way to make a PEM of it.
            let lines = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }
            let der = home.sub("jo.der")
            try #require(Data(base64Encoded: lines.joined())).write(to: URL(fileURLWithPath: der))
            let binary = other.run(["keys", "import", der, "--examiner", "Jo Examiner"])
            #expect(binary.status == 1 && binary.stderr.contains("openssl pkey -pubin -inform DER"), "\(binary)")

            #expect(home.run(["keys", "retire", String(fingerprint.prefix(8))]).status == 64, "a reason is needed")
            #expect(home.run(["keys", "retire", String(fingerprint.prefix(8)), "--reason", "laptop lost"]).status == 0)
            #expect(home.run(["keys", "list"]).stdout.contains("retired"))
            #expect(home.run(["keys", "export", "zz"]).status == 64)
            // A name that could drive a terminal is refused, and leaves no private key behind.
            let escaped = home.run(["keys", "new", "--examiner", "\u{1B}[31mRed"])
            #expect(escaped.status == 1 && escaped.stderr.contains("control"), "\(escaped)")
            let files = try FileManager.default.contentsOfDirectory(atPath: home.path + "/keys")
            #expect(files == ["\(fingerprint).pem"], "\(files)")
        }

        @Test func noticesDoneSignsAndAKeyUnderAPassphraseNeedsItsFileNeverAnArgument() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let passphrase = home.sub("passphrase")
            try "quay crane 7\n".write(toFile: passphrase, atomically: true, encoding: .utf8)
            // A passphrase file others can read is refused, like a key file.
            let open = home.run(["keys", "new", "--examiner", "Jo Examiner"],
                                env: ["RIGBOOK_KEY_PASSPHRASE_FILE": passphrase])
            #expect(open.status == 1 && open.stderr.contains("chmod 600"), "\(open)")
            chmod(passphrase, 0o600)
            let made = home.run(["keys", "new", "--examiner", "Jo Examiner"],
                                env: ["RIGBOOK_KEY_PASSPHRASE_FILE": passphrase])
            #expect(made.status == 0, "\(made)")
            let fingerprint = try #require(made.stdout.firstMatch(of: /fingerprint ([0-9a-f]{64})/)?.output.1)
            let file = try String(contentsOfFile: home.path + "/keys/\(fingerprint).pem", encoding: .utf8)
            #expect(file.contains("ENCRYPTED PRIVATE KEY"))

            let arguments = ["notices", "done", "#\(ids.remedy)", "--duty", "employer_told", "--to", "Sam"]
            let refused = home.run(arguments)
            #expect(refused.status == 1 && refused.stderr.contains("RIGBOOK_KEY_PASSPHRASE_FILE"), "\(refused)")
            #expect(home.run(["notices"], env: ["RIGBOOK_TODAY": "2026-11-30"]).stdout
                .contains("5 reg 10 duties are not yet done"), "nothing was recorded")
            let wrong = home.sub("wrong")
            try "quay crane 8\r\n".write(toFile: wrong, atomically: true, encoding: .utf8)
            chmod(wrong, 0o600)
            let mistaken = home.run(arguments, env: ["RIGBOOK_KEY_PASSPHRASE_FILE": wrong])
            #expect(mistaken.status == 1 && mistaken.stderr.contains("does not open"), "\(mistaken)")
            // The keys folder open to others is refused too.
            chmod(home.path + "/keys", 0o777)
            let folder = home.run(arguments, env: ["RIGBOOK_KEY_PASSPHRASE_FILE": passphrase])
            #expect(folder.status == 1 && folder.stderr.contains("chmod 700"), "\(folder)")
            chmod(home.path + "/keys", 0o700)
            let done = home.run(arguments, env: ["RIGBOOK_KEY_PASSPHRASE_FILE": passphrase])
            #expect(done.status == 0, "\(done)")
            let verified = home.run(["verify"])
            #expect(verified.status == 0 && verified.stdout.contains("1 signature checked"), "\(verified)")
        }

        @Test func aCorruptKeyFileIsAClearRefusalAndNothingIsRecorded() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let made = home.run(["keys", "new", "--examiner", "Jo Examiner"])
            let fingerprint = try #require(made.stdout.firstMatch(of: /fingerprint ([0-9a-f]{64})/)?.output.1)
            let file = home.path + "/keys/\(fingerprint).pem"
            try "-----BEGIN PRIVATE KEY-----\nnot a key at all\n-----END PRIVATE KEY-----\n"
                .write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o600)
            let done = home.run(["notices", "done", "#\(ids.remedy)", "--duty", "employer_told", "--to", "Sam"])
            #expect(done.status == 1 && done.stderr.contains("not an Ed25519 key")
                    && done.stderr.contains("nothing was saved"), "\(done)")
            #expect(!home.run(["verify"]).stdout.contains("signature"), "no signature was made")
        }
    }
}
