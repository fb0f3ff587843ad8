import Foundation
import Testing
import RigbookCore
import RigbookPDF
import RigbookTestSupport

extension RigbookCLITests {
    /// Certificates of signed records: they say who signed, carry the signed record, and are checked without the
    /// register, by `verify --certificate` and by FORMATS.md's shell snippet with Debian's tools alone.
    @Suite("Certificates: signed") struct SignedCertificates {
        static let today = ["RIGBOOK_TODAY": "2026-11-30"]

        /// A sample register and the report number of a signed thorough examination in it.
        static func signedHome() throws -> (CertificateHome, String) {
            let home = CertificateHome()
            #expect(home.run(["sample", "--assets", "30"], env: today).status == 0)
            let history = home.run(["history", "RS-0001", "--format", "json"], env: today).stdout
            let number = try #require(history.firstMatch(of: /"report_number":"([0-9A-F]+-[0-9]+)"/)?.output.1)
            return (home, String(number))
        }

        @Test func aSignedCertificateSaysWhoSignedAndBothFormsVerifyWithoutTheRegister() throws {
            let (home, number) = try Self.signedHome()
            defer { home.remove() }
            for name in ["c.pdf", "c.html"] {
                let path = home.sub(name)
                #expect(home.run(["certificate", number, "--out", path], env: Self.today).status == 0)
                // Anywhere: another home, no register.
                let checked = runRigbookResult(["verify", "--certificate", path], home: home.sub("elsewhere"))
                #expect(checked.status == 0 && checked.stdout.contains("the signature holds"), "\(name): \(checked)")
            }
            let pdf = Array(try Data(contentsOf: URL(fileURLWithPath: home.sub("c.pdf"))))
            let text = try Poppler.run("pdftotext", [], pdf)
            let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains(", signed by "), "\(words)")
        }

        @Test func oneChangedCharacterOnThePageOrAChangedRecordInThePDFFails() throws {
            let (home, number) = try Self.signedHome()
            defer { home.remove() }
            let page = home.sub("c.html"), pdf = home.sub("c.pdf")
            #expect(home.run(["certificate", number, "--out", page], env: Self.today).status == 0)
            #expect(home.run(["certificate", number, "--out", pdf], env: Self.today).status == 0)
            // The printed date of examination moved a day.
            let html = try String(contentsOfFile: page, encoding: .utf8)
            let date = try #require(html.firstMatch(of: /<tr data-item="8f"><th>[^<]*<\/th><td>([0-9-]+)</)?.output.1)
            let moved = html.replacingOccurrences(of: "<td>\(date)</td>", with: "<td>\(date.dropLast())9</td>")
            try moved.write(toFile: home.sub("edited.html"), atomically: true, encoding: .utf8)
            let edited = runRigbookResult(["verify", "--certificate", home.sub("edited.html")], home: home.path)
            #expect(edited.status == 1 && edited.stderr.contains("the page was edited"), "\(edited)")
            // Any item the record decides: the examining organisation's name in item 9, one letter.
            let item9 = try #require(html.range(of: "<tr data-item=\"9\">"))
            let employedBy = try #require(html.range(of: "Employed by: <span class=\"strong\"><bdi>",
                                                      range: item9.upperBound..<html.endIndex))
            var renamed = html
            renamed.replaceSubrange(employedBy.upperBound..<html.index(after: employedBy.upperBound), with: "X")
            try renamed.write(toFile: home.sub("renamed.html"), atomically: true, encoding: .utf8)
            let other = runRigbookResult(["verify", "--certificate", home.sub("renamed.html")], home: home.path)
            #expect(other.status == 1 && other.stderr.contains("item 9"), "\(other)")
            // The record inside the PDF changed (a character of its canonical text): the signature fails.
            let carried = try EmbeddedFiles.files(in: Array(try Data(contentsOf: URL(fileURLWithPath: pdf))))
            let file = try #require(carried.first)
            var proof = try #require(RecordProof(json: String(decoding: file.bytes, as: UTF8.self)))
            proof.record[proof.record.count - 2] ^= 0x01
            proof.recordHash = try #require(sha256Hex(proof.record))
            let blank = try PDFRenderer.render(PrintedDocument(title: "T", created: "2026-11-30T00:00:00Z",
                                                               blocks: [.paragraph("A forged certificate", .plain)]))
            let forgedPDF = try EmbeddedFiles.embed([.init(name: file.name, bytes: Array(proof.json.utf8))], in: blank)
            try Data(forgedPDF).write(to: URL(fileURLWithPath: home.sub("forged.pdf")))
            let forged = runRigbookResult(["verify", "--certificate", home.sub("forged.pdf")], home: home.path)
            #expect(forged.status == 1 && forged.stderr.contains("the signature does not match"), "\(forged)")
        }

        @Test func aCertificateCarriesItsOwnKeySoTheKeyIsWeighedAndTheProofsNameAndPrintedHashBound() throws {
            let (home, number) = try Self.signedHome()
            defer { home.remove() }
            let page = home.sub("c.html")
            #expect(home.run(["certificate", number, "--out", page], env: Self.today).status == 0)
            let here = home.run(["verify", "--certificate", page])
            #expect(here.status == 0 && here.stdout.contains("a key of this register's"), "\(here)")
            let elsewhere = runRigbookResult(["verify", "--certificate", page], home: home.sub("elsewhere"))
            #expect(elsewhere.status == 0 && elsewhere.stdout.contains("compare its fingerprint"), "\(elsewhere)")
            // Another examiner's published key is not the one that signed.
            #expect(home.run(["keys", "new", "--examiner", "Tom Okafor"]).status == 0)
            let other = try #require(home.run(["keys", "list"]).stdout.split(separator: "\n")
                .first { $0.contains("Tom Okafor") && $0.contains("here") }.map { String($0.prefix(19)) })
            #expect(home.run(["keys", "export", other, "--out", home.sub("tom.pem")]).status == 0)
            let wrongKey = home.run(["verify", "--certificate", page, "--key", home.sub("tom.pem")])
            #expect(wrongKey.status == 1 && wrongKey.stderr.contains("not the key given"), "\(wrongKey)")
            let html = try String(contentsOfFile: page, encoding: .utf8)
            // The proof's own copy of the examiner's name is not signed: bound to the record's.
            let renamed = html.replacingOccurrences(of: #""examiner": ""#, with: #""examiner": "Someone Else "#)
            try renamed.write(toFile: home.sub("renamed.html"), atomically: true, encoding: .utf8)
            let named = home.run(["verify", "--certificate", home.sub("renamed.html")])
            #expect(named.status == 1 && named.stderr.contains("the proof was altered"), "\(named)")
            // The hash the page prints is the proof's.
            let hash = try #require(html.firstMatch(of: /"record_hash": "([0-9a-f]{64})"/)?.output.1)
            let printed = html.replacingOccurrences(of: "SHA-256 <code>\(hash)</code>",
                                                    with: "SHA-256 <code>\(String(hash.reversed()))</code>")
            try printed.write(toFile: home.sub("printed.html"), atomically: true, encoding: .utf8)
            let rehashed = home.run(["verify", "--certificate", home.sub("printed.html")])
            #expect(rehashed.status == 1 && rehashed.stderr.contains("another hash"), "\(rehashed)")
            // A proof that cannot be read is said to be damaged, not taken for a certificate from before keys.
            let broken = html.replacingOccurrences(of: #""signature_base64": ""#, with: #""signature_base64": "!!"#)
            try broken.write(toFile: home.sub("broken.html"), atomically: true, encoding: .utf8)
            let damaged = home.run(["verify", "--certificate", home.sub("broken.html")])
            #expect(damaged.status == 1 && damaged.stderr.contains("damaged or altered"), "\(damaged)")
        }

        /// An electrical test's certificate carries the signed test, and its page must print what the test says:
        /// a reading, the result or the technician edited on the page is found and named.
        @Test func aSignedTestsCertificateVerifiesAndAnEditedReadingResultOrTechnicianOnItsPageFails() throws {
            let home = CertificateHome()
            defer { home.remove() }
            home.addElectrical("EL-0001", "Makita drill")
            // Class II: earth continuity does not apply, so the page prints that in place of the reading typed.
            home.addElectrical("EL-0002", "Hedge trimmer", class: "class-2")
            #expect(home.run(["keys", "new", "--examiner", "Ana Reyes"]).status == 0)
            try home.addTest("EL-0001", ElectricalTests.classI("2026-11-20", notes: "Plug <ok> & cord"), signed: true)
            try home.addTest("EL-0002", ElectricalTests.classI("2026-11-21"), signed: true)
            for (tag, name) in [("EL-0001", "t.html"), ("EL-0001", "t.pdf"), ("EL-0002", "ii.html")] {
                #expect(home.run(["certificate", tag, "--out", home.sub(name)], env: Self.today).status == 0)
                let checked = runRigbookResult(["verify", "--certificate", home.sub(name)], home: home.sub("elsewhere"))
                #expect(checked.status == 0 && checked.stdout.contains("the signature holds"), "\(name): \(checked)")
            }
            let classII = try String(contentsOfFile: home.sub("ii.html"), encoding: .utf8)
            #expect(classII.contains("<td>Not applicable to Class II</td>"), "\(classII)")
            let html = try String(contentsOfFile: home.sub("t.html"), encoding: .utf8)
            // One cell changed a time, each found once on the page; the finding names the cell and both texts.
            let edits: [(from: String, to: String, named: String)] = [
                ("<th>11  Insulation resistance (MΩ)</th><td>50 MΩ</td>",
                 "<th>11  Insulation resistance (MΩ)</th><td>500 MΩ</td>",
                 "item 11 (Insulation resistance (MΩ)) as \u{201C}500 MΩ\u{201D} where the signed record says "
                    + "\u{201C}50 MΩ\u{201D}"),
                ("<td>Insulation (MΩ)</td><td>50 MΩ</td>", "<td>Insulation (MΩ)</td><td>5 MΩ</td>",
                 "the measured value of Insulation (MΩ) as \u{201C}5 MΩ\u{201D}"),
                ("<tr><th>Result</th><td><span class=\"res res-pass\">PASS</span>",
                 "<tr><th>Result</th><td><span class=\"res res-fail\">FAIL</span>",
                 "result as \u{201C}FAIL\u{201D} where the signed record says \u{201C}PASS\u{201D}"),
                ("<tr><th>Technician</th><td><bdi>Ana Reyes</bdi>", "<tr><th>Technician</th><td><bdi>Tom Okafor</bdi>",
                 "technician as \u{201C}Tom Okafor\u{201D} where the signed record says \u{201C}Ana Reyes\u{201D}"),
                ("<th>3  Technician</th><td><bdi>Ana Reyes</bdi>", "<th>3  Technician</th><td><bdi>Ana Reyez</bdi>",
                 "item 3 (Technician) as \u{201C}Ana Reyez\u{201D}"),
                ("<th>2  Test date</th><td>2026-11-20</td>", "<th>2  Test date</th><td>2026-11-29</td>",
                 "item 2 (Test date)"),
                ("<th>5  Instrument model</th><td><bdi>Seaward PrimeTest 250+</bdi>",
                 "<th>5  Instrument model</th><td><bdi>Seaward PrimeTest 350</bdi>", "item 5 (Instrument model)"),
                ("Plug &lt;ok&gt; &amp; cord", "Plug replaced",
                 "item 14 (Notes) as \u{201C}Plug replaced\u{201D} where the signed record says "
                    + "\u{201C}Plug <ok> & cord\u{201D}"),
            ]
            for edit in edits {
                #expect(html.components(separatedBy: edit.from).count == 2, "not once on the page: \(edit.from)")
                let path = home.sub("edited.html")
                try html.replacingOccurrences(of: edit.from, with: edit.to)
                    .write(toFile: path, atomically: true, encoding: .utf8)
                let edited = runRigbookResult(["verify", "--certificate", path], home: home.sub("elsewhere"))
                #expect(edited.status == 1 && edited.stderr.contains("the page prints \(edit.named)")
                        && edited.stderr.contains("the page was edited"), "\(edit.from): \(edited)")
            }
        }

        /// A visit's page prints a summary before the reports: the schedule's cells a record decides and the cover's
        /// count of items by result are bound to the signed records; the tag and equipment, the asset's, are not.
        @Test func aSignedVisitsPageVerifiesAndAnEditedScheduleOrCoverFails() throws {
            let home = CertificateHome()
            defer { home.remove() }
            home.addAsset("PASS-1", "2 t web sling 3 m")
            home.addAsset("REM-1", "1 t round sling", type: "round-sling")
            home.addAsset("FAIL-1", "5 t hook", type: "hook")
            try home.recordParticulars()
            try home.addRecord("PASS-1", CertificateValues.pass(on: "2026-11-20"), signed: true)
            let remedy = try home.record(try home.addRecord(
                "REM-1", CertificateValues.remedy(on: "2026-11-20", deadline: "2026-12-20"), signed: true))
            let fail = try home.record(try home.addRecord("FAIL-1", CertificateValues.fail(on: "2026-11-20"),
                                                          signed: true))
            let page = home.sub("visit.html")
            let printed = home.run(["certificate", "--site", "Main site", "--from", "2026-11-20", "--out", page],
                                   env: Self.today)
            #expect(printed.status == 0, "\(printed)")
            let genuine = runRigbookResult(["verify", "--certificate", page], home: home.sub("elsewhere"))
            #expect(genuine.status == 0 && genuine.stdout.components(separatedBy: "the signature holds").count == 4,
                    "\(genuine)")
            let html = try String(contentsOfFile: page, encoding: .utf8)
            func row(_ record: StoredInspection) throws -> String {
                let uuid = record.recordUUID.uuidString.lowercased()
                let start = try #require(html.range(of: "<tr data-record=\"\(uuid)\""))
                let end = try #require(html.range(of: "</tr>", range: start.upperBound..<html.endIndex))
                return String(html[start.lowerBound..<end.upperBound])
            }
            let remedyRow = try row(remedy), failRow = try row(fail)
            let remedyNumber = try #require(remedy.reportNumber), failNumber = try #require(fail.reportNumber)
            let edits: [(from: String, to: String, named: String)] = [
                (remedyRow, remedyRow.replacingOccurrences(
                    of: "<span class=\"res res-defect_to_be_remedied\">Defect to be remedied</span>",
                    with: "<span class=\"res res-pass\">Pass</span>"),
                 "the result of report \(remedyNumber) in its schedule as \u{201C}Pass\u{201D} where the signed "
                    + "record says \u{201C}Defect to be remedied\u{201D}"),
                (failRow, failRow.replacingOccurrences(of: "<td>2026-11-20</td>", with: "<td>2026-11-02</td>"),
                 "the date of examination of report \(failNumber) in its schedule as \u{201C}2026-11-02\u{201D}"),
                ("<td>3: 1 fail – dangerous, 1 defect to be remedied, 1 without a defect</td>",
                 "<td>3: 0 fail – dangerous, 1 defect to be remedied, 2 without a defect</td>",
                 "the cover's items examined as \u{201C}3: 0 fail – dangerous, 1 defect to be remedied, 2 without a "
                    + "defect\u{201D} where its signed records say \u{201C}3: 1 fail – dangerous"),
            ]
            for edit in edits {
                #expect(edit.from != edit.to, "no edit: \(edit.from)")
                let edited = try verifyEdited(html, edit.from, edit.to, home)
                #expect(edited.status == 1 && edited.stderr.contains("the page prints \(edit.named)")
                        && edited.stderr.contains("the page was edited"), "\(edit.from): \(edited)")
            }
            // The equipment is the asset's as the register holds it now: no record vouches for it.
            let hook = failRow.replacingOccurrences(of: "5 t hook", with: "5 t hook B")
            let renamed = try verifyEdited(html, failRow, hook, home)
            #expect(renamed.status == 0, "\(renamed)")
        }

        /// A failed test's page warns DANGER — DO NOT USE: the banner is there exactly when the signed test failed.
        @Test func aFailedTestsPageVerifiesAndItsDangerBannerIsBoundToTheResult() throws {
            let home = CertificateHome()
            defer { home.remove() }
            home.addElectrical("TT-FAIL", "Extension lead 15 m", class: "extension-set")
            home.addElectrical("TT-PASS", "Makita drill")
            #expect(home.run(["keys", "new", "--examiner", "Ana Reyes"]).status == 0)
            try home.addTest("TT-FAIL", ElectricalTests.lead("2026-11-21", polarity: .fail,
                                                             notes: ElectricalRegister.failNotes), signed: true)
            try home.addTest("TT-PASS", ElectricalTests.classI("2026-11-20"), signed: true)
            for name in ["TT-FAIL", "TT-PASS"] {
                #expect(home.run(["certificate", name, "--out", home.sub("\(name).html")], env: Self.today).status == 0)
                let checked = runRigbookResult(["verify", "--certificate", home.sub("\(name).html")],
                                               home: home.sub("elsewhere"))
                #expect(checked.status == 0 && checked.stdout.contains("the signature holds"), "\(name): \(checked)")
            }
            let banner = "<p class=\"banner\">DANGER — DO NOT USE: this item failed its test and is to be tagged out "
                + "of service until a passing retest.</p>\n"
            let failed = try String(contentsOfFile: home.sub("TT-FAIL.html"), encoding: .utf8)
            let removed = try verifyEdited(failed, banner, "", home)
            #expect(removed.status == 1 && removed.stderr.contains("the page leaves out the \u{201C}DANGER — DO NOT "
                                                                  + "USE\u{201D} banner, where the signed record says "
                                                                  + "\u{201C}DANGER — DO NOT USE: this item failed")
                    && removed.stderr.contains("the page was edited"), "\(removed)")
            let reworded = try verifyEdited(failed, banner, banner.replacingOccurrences(of: "until a passing retest",
                                                                                      with: "until repaired"), home)
            #expect(reworded.status == 1 && reworded.stderr.contains("banner as \u{201C}DANGER"), "\(reworded)")
            let retest = try verifyEdited(failed, "<td>Before use: the item failed</td>", "<td>2027-02-21</td>", home)
            #expect(retest.status == 1 && retest.stderr.contains("the retest as \u{201C}2027-02-21\u{201D}"),
                    "\(retest)")
            // A passed test's page with the banner put in.
            let passed = try String(contentsOfFile: home.sub("TT-PASS.html"), encoding: .utf8)
            let heading = "<h2>The test (AS/NZS 3760)</h2>"
            let added = try verifyEdited(passed, heading, banner + heading, home)
            #expect(added.status == 1 && added.stderr.contains("the page prints the \u{201C}DANGER — DO NOT "
                                                              + "USE\u{201D} banner where the signed record calls "
                                                              + "for none"), "\(added)")
            // A genuine part hidden (a comment, a template, a style) beside a forged one, or a part added that the
            // record does not have: the page is refused, not read past.
            let forgeries: [(from: String, to: String, says: String)] = [
                (banner, "<!-- \(banner) -->", "an HTML comment"),
                (banner, "<template>\(banner)</template>", "a template"),
                ("</style>", "p.banner { display: none }\n</style>", "style sheet is not the one Rigbook prints"),
                (banner, "<p style=\"display:none\">x</p>\(banner)", "an inline style"),
                (banner, banner + "<p class=\"banner\">RETESTED AND PASSED</p>\n",
                 "a banner the signed record does not"),
                (banner, banner + "<script>document.title = 'x'</script>", "a script beside its proofs"),
            ]
            for forgery in forgeries {
                let refused = try verifyEdited(failed, forgery.from, forgery.to, home)
                #expect(refused.status == 1 && refused.stderr.contains(forgery.says), "\(forgery.to): \(refused)")
            }
            let item = try #require(failed.firstMatch(of: /<tr data-item="15">.*?<\/tr>/)?.output)
            let twice = try verifyEdited(failed, String(item), String(item) + String(item), home)
            #expect(twice.status == 1 && twice.stderr.contains("twice"), "\(twice)")
            let extra = String(item).replacingOccurrences(of: "data-item=\"15\"", with: "data-item=\"17\"")
            let seventeen = try verifyEdited(failed, String(item), String(item) + extra, home)
            #expect(seventeen.status == 1 && seventeen.stderr.contains("an item 17 its report has not"), "\(seventeen)")
        }

        /// An amendment's page says what it amends and why: the banner is the signed record's, but for the number it
        /// gives the amended record, which is the register's.
        @Test func anAmendmentsPageVerifiesAndItsBannerIsBoundToTheRecord() throws {
            let home = CertificateHome()
            defer { home.remove() }
            home.addAsset("SL-1", "2 t web sling 3 m")
            try home.recordParticulars()
            let original = try home.record(try home.addRecord("SL-1", CertificateValues.pass(on: "2026-11-20"),
                                                              signed: true))
            var values = CertificateValues.pass(on: "2026-11-20", test: "Proof load 2.5 t")
            values.amendmentReason = "The proof load <test> was left out"
            let amendment = try home.record(try home.addRecord("SL-1", values, amending: original, signed: true))
            let page = home.sub("amendment.html")
            let number = try #require(amendment.reportNumber)
            #expect(home.run(["certificate", number, "--out", page], env: Self.today).status == 0)
            let genuine = runRigbookResult(["verify", "--certificate", page], home: home.sub("elsewhere"))
            #expect(genuine.status == 0, "\(genuine)")
            let html = try String(contentsOfFile: page, encoding: .utf8)
            let banner = "<p class=\"banner\">This report amends record #\(original.id): <bdi>The proof load "
                + "&lt;test&gt; was left out</bdi></p>\n"
            let removed = try verifyEdited(html, banner, "", home)
            #expect(removed.status == 1 && removed.stderr.contains("the page leaves out the \u{201C}This report "
                                                                  + "amends record #…\u{201D} banner"), "\(removed)")
            let wrong = banner.replacingOccurrences(of: "was left out", with: "was wrong")
            let reason = try verifyEdited(html, banner, wrong, home)
            #expect(reason.status == 1 && reason.stderr.contains("where the signed record says \u{201C}This "
                                                                + "report amends record #…: The proof load <test> "
                                                                + "was left out"), "\(reason)")
            let renumbered = try verifyEdited(html, banner, banner.replacingOccurrences(of: "#\(original.id):",
                                                                                      with: "#\(original.id + 40):"),
                                              home)
            #expect(renumbered.status == 0, "the number is the register's: \(renumbered)")
            // The amended record's page, checked where its register is, says the amendment stands.
            let first = home.sub("original.html")
            #expect(home.run(["certificate", try #require(original.reportNumber), "--out", first],
                             env: Self.today).status == 0)
            let here = home.run(["verify", "--certificate", first])
            #expect(here.status == 0 && here.stdout.contains("this register holds an amendment of record")
                    && here.stdout.contains("#\(amendment.id), report \(number), the report that stands"), "\(here)")
        }

        @Test func theFormatsSnippetChecksACertificateWithDebiansToolsAlone() throws {
            let (home, number) = try Self.signedHome()
            defer { home.remove() }
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let formats = try String(contentsOf: root.appendingPathComponent("docs/FORMATS.md"), encoding: .utf8)
            let heading = "### Checking a certificate with no Rigbook"
            let section = try #require(formats.components(separatedBy: heading).last)
            let snippet = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?
                .components(separatedBy: "```").first)
            for name in ["c.pdf", "c.html"] {
                #expect(home.run(["certificate", number, "--out", home.sub(name)], env: Self.today).status == 0)
            }
            for name in ["c.pdf", "c.html"] {
                let path = home.sub(name)
                let work = home.sub("check-" + name)
                try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
                let script = snippet.replacingOccurrences(of: "cert=certificate.pdf", with: "cert='\(path)'")
                let result = shell(script, in: work)
                #expect(result.status == 0 && result.output.contains("Signature Verified Successfully"),
                        "\(name): \(result.output)")
                let html = try String(contentsOfFile: home.sub("c.html"), encoding: .utf8)
                let hash = try #require(html.firstMatch(of: /"record_hash": "([0-9a-f]{64})"/)?.output.1)
                #expect(result.output.contains(String(hash)), "the printed hash: \(result.output)")
            }
        }

        /// `verify --certificate`, without the register, of `html` with `from` (found once on it) made `to`.
        func verifyEdited(_ html: String, _ from: String, _ to: String, _ home: CertificateHome,
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
            #expect(html.components(separatedBy: from).count == 2, "not once on the page: \(from)",
                    sourceLocation: sourceLocation)
            let path = home.sub("edited.html")
            try html.replacingOccurrences(of: from, with: to).write(toFile: path, atomically: true, encoding: .utf8)
            return runRigbookResult(["verify", "--certificate", path], home: home.sub("elsewhere"))
        }

        /// SHA-256 of `bytes` in hex, by coreutils' sha256sum.
        func sha256Hex(_ bytes: [UInt8]) -> String? {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sum-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("record.txt")
            guard (try? Data(bytes).write(to: file)) != nil else { return nil }
            return shell("sha256sum record.txt", in: folder.path).output.split(separator: " ").first.map(String.init)
        }

        /// `script` run by bash -e in `folder`: its status and everything it printed.
        func shell(_ script: String, in folder: String) -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-e", "-c", script]
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            do { try process.run() } catch { return (-1, "\(error)") }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }
}
