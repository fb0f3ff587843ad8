import Foundation
import Testing
import RigbookCore
import RigbookStore
import RigbookTestSupport

// Electrical items on the command line: every outward view treats electrical items and their tests as
// what they are (a test, not a thorough examination; no WLL), on the register `ElectricalRegister` makes.

extension RigbookCLITests {
    @Suite("Electrical items in the outward commands") struct ElectricalOutward {
        @Test("due: electrical items listed with what they need (test, retest), and the reason speaks of a test")
        func due() throws {
            let home = CertificateHome(); defer { home.remove() }
            _ = try ElectricalRegister.make(home)
            let text = home.run(["due"])
            #expect(text.status == 3, "\(text)")
            let lines = text.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.contains("NEEDS") == true, "\(text.stdout)")
            let failed = try #require(lines.first { $0.contains("TT-FAIL") }, "\(text.stdout)")
            #expect(failed.contains("DO NOT USE") && failed.contains("retest"), "\(failed)")
            #expect(failed.contains("failed its test on 2026-11-21"), "\(failed)")
            #expect(!failed.contains("thorough"), "\(failed)")
            let overdue = try #require(lines.first { $0.contains("TT-OVER") }, "\(text.stdout)")
            #expect(overdue.contains("OVERDUE") && overdue.contains(" test "), "\(overdue)")
            let shackle = try #require(lines.first { $0.contains("PRE-1") }, "\(text.stdout)")
            #expect(shackle.contains("thorough examination"), "\(shackle)")

            let json = home.run(["due", "--format", "json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let items = try #require(object["items"] as? [[String: Any]])
            let byTag = Dictionary(uniqueKeysWithValues: items.map { (string($0, "tag") ?? "", $0) })
            #expect(byTag["TT-FAIL"].flatMap { string($0, "needs") } == "retest")
            #expect(byTag["TT-FAIL"].flatMap { string($0, "kind") } == "electrical")
            #expect(byTag["TT-OVER"].flatMap { string($0, "needs") } == "test")
            #expect(byTag["PRE-1"].flatMap { string($0, "needs") } == "thorough examination")
            #expect(byTag["REM-1"].flatMap { string($0, "needs") } == "remedy")
            #expect(byTag["TT-PASS"] == nil, "a passed item is not due")
        }

        @Test("calendar: an electrical item's event is a test and tag, with its class and environment, never 0 kg")
        func calendar() throws {
            let home = CertificateHome(); defer { home.remove() }
            _ = try ElectricalRegister.make(home)
            let feed = home.run(["calendar"])
            #expect(feed.status == 0, "\(feed)")
            // Unfolded: continuation lines start with one space.
            let unfolded = feed.stdout.replacingOccurrences(of: "\r\n ", with: "")
            let events = unfolded.components(separatedBy: "BEGIN:VEVENT").dropFirst()
            let drill = try #require(events.first { $0.contains("SUMMARY:Test and tag due: TT-PASS") }, "\(unfolded)")
            #expect(drill.contains("Test and tag due: 2027-02-20"), "\(drill)")
            #expect(drill.contains("Last test: 2026-11-20"), "\(drill)")
            #expect(drill.contains("Type: Class I"), "\(drill)")
            #expect(drill.contains("Environment: Building"), "\(drill)")
            #expect(!drill.contains("WLL") && !drill.contains("0 kg") && !drill.contains("Thorough"), "\(drill)")
            let sling = try #require(events.first { $0.contains("PASS-1") }, "\(unfolded)")
            #expect(sling.contains("SUMMARY:Thorough examination due: PASS-1") && sling.contains("WLL: 2 t"),
                    "\(sling)")
            let digest = home.run(["calendar", "--digest"]).stdout.replacingOccurrences(of: "\r\n ", with: "")
            #expect(digest.contains("due for test and tag"), "\(digest)")
        }

        @Test("export csv: one records table of both kinds with a kind column; a test's readings and verdicts")
        func exportCSV() throws {
            let home = CertificateHome(); defer { home.remove() }
            let ids = try ElectricalRegister.make(home)
            let result = home.run(["export", "--format", "csv", "--table", "records"])
            #expect(result.status == 0, "\(result)")
            let table = try readCSV(result.stdout)
            let header = try #require(table.first)
            let column = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
            #expect(Array(header.prefix(RecordExport.columns.count)) == RecordExport.columns,
                    "inspection columns first")
            for name in ["kind", "test_type", "test_date", "technician", "licence_number", "earth_continuity_ohm",
                         "earth_continuity_verdict", "insulation_mohm", "insulation_verdict", "polarity",
                         "rcd_trip_time_ms", "rcd_trip_time_verdict", "test_result", "test_uuid"] {
                #expect(column[name] != nil, "no column \(name)")
            }
            let rows = table.dropFirst()
            #expect(rows.allSatisfy { $0.count == header.count })
            func cell(_ row: [String], _ name: String) -> String { column[name].map { row[$0] } ?? "?" }
            #expect(rows.filter { cell($0, "kind") == "inspection" }.count == 4)
            let tests = rows.filter { cell($0, "kind") == "electrical_test" }
            #expect(tests.count == 3)
            let failed = try #require(tests.first { cell($0, "asset_tag") == "TT-FAIL" })
            #expect(cell(failed, "id") == String(ids.fail))
            #expect(cell(failed, "test_result") == "fail" && cell(failed, "polarity") == "fail")
            #expect(cell(failed, "notes") == ElectricalRegister.failNotes)
            #expect(cell(failed, "earth_continuity_ohm") == "0.3" && cell(failed, "earth_continuity_verdict") == "pass")
            #expect(cell(failed, "technician") == "Ana Reyes" && cell(failed, "licence_number") == "EL-204518")
            #expect(cell(failed, "record_hash").count == 64, "the test's chain hash")
            #expect(cell(failed, "asset_wll_kg").isEmpty && cell(failed, "inspection_type").isEmpty)
            let rcd = try #require(tests.first { cell($0, "asset_tag") == "TT-RCD" })
            #expect(cell(rcd, "rcd_trip_time_ms") == "22" && cell(rcd, "rcd_trip_time_verdict") == "pass")
            #expect(cell(rcd, "earth_continuity_verdict").isEmpty, "not judged on an RCD")
        }

        @Test("export json: tests among the records with kind electrical_test, readings as numbers")
        func exportJSON() throws {
            let home = CertificateHome(); defer { home.remove() }
            _ = try ElectricalRegister.make(home)
            let result = home.run(["export", "--format", "json"])
            #expect(result.status == 0, "\(result)")
            let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            let object = try #require(parsed as? [String: Any])
            let records = try #require(object["records"] as? [[String: Any]])
            let tests = records.filter { string($0, "kind") == "electrical_test" }
            #expect(tests.count == 3 && records.count == 7)
            let pass = try #require(tests.first { string($0, "asset_tag") == "TT-PASS" })
            #expect(pass["earth_continuity_ohm"] as? Double == 0.3)
            #expect(string(pass, "earth_continuity_verdict") == "pass" && string(pass, "test_result") == "pass")
            #expect(isNull(pass["polarity"]) && isNull(pass["rcd_trip_time_verdict"]))
            let assets = try #require(object["assets"] as? [[String: Any]])
            let drill = try #require(assets.first { string($0, "tag") == "TT-PASS" })
            #expect(isNull(drill["wll_kg"]) && string(drill, "kind") == "electrical")
        }

        @Test("report: electrical items counted, charted and listed; a failed test in the attention list and findings")
        func report() throws {
            let home = CertificateHome(); defer { home.remove() }
            let ids = try ElectricalRegister.make(home)
            // A second item fails and then passes its retest: only the report's findings keep its failure in view.
            home.addElectrical("TT-RETEST", "Kettle", class: "class-1", environment: "health-care")
            try home.addTest("TT-RETEST", ElectricalTests.classI("2026-11-02", earth: "2.5", notes: "earth open"))
            try home.addTest("TT-RETEST", ElectricalTests.classI("2026-11-25"))
            let result = home.run(["report"])
            #expect(result.status == 0, "\(result)")
            let page = result.stdout
            #expect(page.contains("AS/NZS 3760 test intervals"))
            let summary = try #require(page.components(separatedBy: "<section id=\"summary\">").last?
                .components(separatedBy: "</section>").first)
            #expect(summary.contains("<th class=\"num\">Electrical</th>"), "\(summary)")
            #expect(summary.contains("data-status=\"total\" data-count=\"9\" data-electrical=\"5\""), "\(summary)")
            #expect(summary.contains("data-status=\"do_not_use\" data-count=\"1\" data-electrical=\"1\""), "\(summary)")
            #expect(page.contains("Thorough examinations and electrical tests falling due"))
            let attention = try #require(page.components(separatedBy: "<section id=\"attention\">").last?
                .components(separatedBy: "</section>").first)
            let failedRow = "<td>TT-FAIL</td><td>Extension lead 15 m</td><td>North Quay</td><td>retest</td>"
            #expect(attention.contains(failedRow),
                    "\(attention)")
            #expect(attention.contains("failed its test on 2026-11-21, no passing test since"), "\(attention)")
            #expect(attention.contains("1 dangerous finding and 2 failed tests from 2026-10-31"), "\(attention)")
            #expect(attention.components(separatedBy: "TT-FAIL").count == 2, "listed once, by its DO NOT USE")
            let found = attention.components(separatedBy: "<tr data-finding=\"true\"").dropFirst()
            let retest = try #require(found.first { $0.contains("TT-RETEST") }, "\(attention)")
            #expect(retest.contains("failed its test on 2026-11-02 · test #"), "\(retest)")
            #expect(retest.contains("data-status=\"ok\""), "passed its retest since: \(retest)")
            let failed = try #require(page.components(separatedBy: "<section id=\"failed-tests\">").last?
                .components(separatedBy: "</section>").first)
            #expect(failed.contains("data-test=\"\(ids.fail)\"") && failed.contains("Polarity: Fail"), "\(failed)")
            #expect(!page.contains("0 kg"))
            #expect(!page.contains("<h2>Intervals longer than LOLER"),
                    "a 60-month electrical interval is no LOLER matter")

            let electrical = home.run(["report", "--kind", "electrical", "--all-particulars"]).stdout
            #expect(electrical.contains("Electrical (test and tag)"))
            #expect(!electrical.contains("PASS-1") && electrical.contains("TT-PASS"))
            let locations = try #require(electrical.components(separatedBy: "<section id=\"locations\">").last)
            #expect(locations.contains("<td>Class I</td><td class=\"num\">—</td>"), "\(locations)")
            let hooks = home.run(["report", "--type", "other"]).stdout
            #expect(!hooks.contains("TT-PASS"), "an electrical item is not lifting equipment of type other")
            #expect(home.run(["report", "--kind", "gas"]).status == 64)
        }

        @Test("notices: a failed test is no reg 10 notice, and notices done refuses one with the reason")
        func notices() throws {
            let home = CertificateHome(); defer { home.remove() }
            _ = try ElectricalRegister.make(home)
            let json = home.run(["notices", "--format", "json"])
            #expect(!json.stdout.contains("TT-"), "\(json.stdout)")
            let done = home.run(["notices", "done", "TT-FAIL", "--duty", "employer_told", "--to", "Bob"])
            #expect(done.status == 1 && done.stderr.contains("electrical item") && done.stderr.contains("AS/NZS 3760"),
                    "\(done)")
            let register = try Register.openForReading(path: home.registerPath)
            let uuid = try #require(try register.asset(tag: "TT-FAIL")).asset.uuid
            let test = try #require(try register.tests(assetUUID: uuid).first)
            let byUUID = home.run(["notices", "done", test.testUUID.uuidString, "--duty", "employer_told", "--to", "B"])
            #expect(byUUID.status == 1 && byUUID.stderr.contains("is an electrical test"), "\(byUUID)")
            #expect(home.run(["certificate", test.testUUID.uuidString]).status == 1, "no LOLER report of a test")
        }

        @Test("certificate: a test certificate by --test ID or the item's TAG: the 16 fields, readings and limits")
        func certificate() throws {
            let home = CertificateHome(); defer { home.remove() }
            let ids = try ElectricalRegister.make(home)
            let byID = home.run(["certificate", "--test", String(ids.fail)])
            #expect(byID.status == 0, "\(byID)")
            let byTag = home.run(["certificate", "TT-FAIL"])
            #expect(byTag.status == 0, "\(byTag)")
            let page = byID.stdout
            #expect(page.contains("<h1>Electrical test certificate</h1>"))
            for number in 1...16 { #expect(page.contains("data-item=\"\(number)\""), "field \(number)") }
            #expect(page.contains("DANGER — DO NOT USE"))
            #expect(page.contains("<tr data-outcome=\"fail\"><td>Polarity</td>"), "\(page)")
            #expect(page.contains("<td>0.3 Ω</td><td>≤ 1 Ω</td>"), "\(page)")
            #expect(page.contains("Ana Reyes") && page.contains("EL-204518") && page.contains("Test Quay Ltd"))
            #expect(page.contains("Not applicable") == false || page.contains("Extension set"))
            #expect(page.contains("<code>rigbook verify</code>"))
            let rcd = home.run(["certificate", "--test", "#\(ids.rcd)"]).stdout
            #expect(rcd.contains("<td>RCD trip time (ms)</td><td>22 ms</td><td>≤ 300 ms</td>"), "\(rcd)")
            #expect(rcd.contains("Not applicable to Portable RCD"), "\(rcd)")
            #expect(home.run(["certificate", "TT-OVER"]).stderr.contains("has not been tested yet"))
            #expect(home.run(["certificate", "--test", "999"]).status == 1)
            #expect(home.run(["certificate", "--test", "1", "PASS-1"]).status == 64)
            // A lifting asset's certificate is as before.
            #expect(home.run(["certificate", "PASS-1"]).stdout.contains("Report of thorough examination"))
        }

        @Test("labels: test tags and DANGER tags chosen by the last test, --layout danger, --kind")
        func labels() throws {
            let home = CertificateHome(); defer { home.remove() }
            _ = try ElectricalRegister.make(home)
            let result = home.run(["labels", "TT-PASS", "TT-FAIL", "TT-OVER", "PASS-1", "--layout", "due"])
            #expect(result.status == 0, "\(result)")
            let layouts = result.stdout.matches(of: /<div class="label ([a-z]+)" data-tag="([^"]+)"/)
                .map { "\($0.output.2)=\($0.output.1)" }
            #expect(layouts == ["TT-PASS=tag", "TT-FAIL=danger", "TT-OVER=tag", "PASS-1=due"], "\(layouts)")
            let page = result.stdout
            #expect(page.contains("RETEST DATE") && page.contains("20 FEB 2027"))
            #expect(page.contains("Tested 2026-11-20 by <bdi>Ana Reyes</bdi> · Lic. <bdi>EL-204518</bdi>"))
            #expect(page.contains("DANGER — DO NOT USE") && page.contains("Polarity reversed"))
            #expect(!page.contains("WLL 0") && !page.contains("0 kg"))
            let danger = home.run(["labels", "PASS-1", "--layout", "danger"]).stdout
            #expect(danger.contains("class=\"label danger\"") && danger.contains("DANGER — DO NOT USE"))
            let electrical = home.run(["labels", "--kind", "electrical"])
            #expect(electrical.status == 0, "\(electrical)")
            #expect(electrical.stdout.components(separatedBy: "<div class=\"label ").count == 5)
            #expect(home.run(["labels", "--kind", "electrical", "--due-before", "2026-01-01"]).status == 1)
            #expect(home.run(["labels", "TT-PASS", "--kind", "electrical"]).status == 64)
        }
    }
}
