import Foundation
import Testing
import RigbookCore
import RigbookStore
import RigbookTestSupport

private func jsonObject(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
    guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
        Issue.record("not a JSON object: \(text.prefix(500))", sourceLocation: sourceLocation)
        return [:]
    }
    return object
}

/// A usage error: the arguments after `certificate`, and a piece of the one-line reason.
struct CertificateUsage: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let reason: String
    var testDescription: String { arguments.joined(separator: " ") }
}

let badCertificateUsages: [CertificateUsage] = [
    CertificateUsage(arguments: [], reason: "give a RECORD or TAG"),
    CertificateUsage(arguments: ["PASS-1", "--site", "Main site", "--from", "2026-11-20"], reason: "not both"),
    CertificateUsage(arguments: ["PASS-1", "--from", "2026-11-20"], reason: "--from and --to go with --site"),
    CertificateUsage(arguments: ["--site", "Main site"], reason: "--site needs --from"),
    CertificateUsage(arguments: ["--site", "Main site", "--from", "2026-11-20", "--to", "2026-11-19"],
                     reason: "before --from"),
    CertificateUsage(arguments: ["--site", "Main site", "--from", "2026-02-30"], reason: "--from must be a real date"),
    CertificateUsage(arguments: ["PASS-1", "--format", "svg"], reason: "--format must be one of html, pdf"),
    CertificateUsage(arguments: ["PASS-1", "REM-1"], reason: "unexpected argument"),
]

/// A usage error of `notices done`.
let badNoticeUsages: [CertificateUsage] = [
    CertificateUsage(arguments: ["#1"], reason: "missing --duty"),
    CertificateUsage(arguments: ["#1", "--duty", "phoned_the_boss"], reason: "--duty must be one of"),
    CertificateUsage(arguments: ["--duty", "report_to_employer"], reason: "missing the RECORD"),
    CertificateUsage(arguments: ["#1", "--duty", "report_to_employer", "--on", "yesterday"],
                     reason: "--on must be a real date"),
    CertificateUsage(arguments: ["#1", "--duty", "report_to_employer", "--on", "2026-12-01"],
                     reason: "The date 2026-12-01 is in the future."),
    CertificateUsage(arguments: ["#1", "--duty", "report_to_employer", "--on", "2026-11-01"],
                     reason: "is before the examination (2026-11-20)"),
    CertificateUsage(arguments: ["#2", "--duty", "employer_told"], reason: "Say who at the employer was told"),
]

extension RigbookCLITests {
    @Suite("Certificates: the command") struct CertificateCommand {
        @Test("a TAG, #ID, ID, report number and record uuid all name the same report; --out writes the file")
        func namesOneRecord() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let record = try home.record(ids.remedy)
            let reportNumber = try #require(record.reportNumber)
            let names = ["REM-1", "rem-1", "#\(ids.remedy)", "\(ids.remedy)", reportNumber, reportNumber.lowercased(),
                         record.recordUUID.uuidString.lowercased()]
            for name in names {
                let result = home.run(["certificate", name])
                #expect(result.status == 0, "\(name): \(result)")
                #expect(result.stdout.contains("id=\"record-\(record.recordUUID.uuidString.lowercased())\""), "\(name)")
                #expect(result.stdout.contains(reportNumber), "\(name)")
                #expect(certificateItems(result.stdout).first?.count == Certificate.items.count, "\(name)")
            }
            let out = home.sub("rem-1.html")
            let written = home.run(["certificate", "REM-1", "--out", out])
            #expect(written.status == 0, "\(written)")
            #expect(written.stdout.isEmpty)
            #expect(written.stderr == "rigbook: wrote \(out)\n")
            let html = try #require(readFile(out))
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            #expect(html.contains("@page { size: A4;"))
        }

        @Test("the certificate carries the record's own hash, never the register's head: a reissue is the same page")
        func hashAndHead() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let record = try home.record(ids.pass)
            let verify = home.run(["verify"])
            #expect(verify.status == 0, "\(verify)")
            let head = try #require(verify.stdout.split(separator: " ").last.map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            })
            let html = home.run(["certificate", "#\(ids.pass)"]).stdout
            #expect(html.contains("SHA-256 <code>\(try #require(record.recordHash))</code>"))
            #expect(html.contains("<code>rigbook verify</code>"))
            #expect(!html.contains(head))
            // Another record saved since moves the head, not the certificate.
            try home.addRecord("REM-1", CertificateValues.remedy(on: "2026-11-21", deadline: "2026-12-21"))
            #expect(home.run(["certificate", "#\(ids.pass)"]).stdout == html)
        }

        @Test("a TAG prints its latest thorough examination that still counts, not a later pre-use check")
        func tagTakesLatestThorough() throws {
            let home = CertificateHome()
            defer { home.remove() }
            home.addAsset("SL-1", "Sling")
            try home.recordParticulars()
            try home.addRecord("SL-1", CertificateValues.pass(on: "2026-05-20"))
            let latest = try home.addRecord("SL-1", CertificateValues.pass(on: "2026-11-20"))
            try home.addRecord("SL-1", CertificateValues.preUse(on: "2026-11-25"))
            let html = home.run(["certificate", "SL-1"]).stdout
            let uuid = try home.record(latest).recordUUID.uuidString.lowercased()
            #expect(html.contains("id=\"record-\(uuid)\""))
            // Item 4 names the examination before it.
            #expect(certificateItems(html).first?["4"]?.contains("2026-05-20") == true)
        }

        @Test("a record that is not a thorough examination, or none at all: one line, exit 1, nothing written")
        func refusals() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let cases: [([String], String)] = [
                (["#\(ids.preUse)"], "is a pre-use check, not a thorough examination"),
                (["PRE-1"], "PRE-1 has no thorough examination in the register"),
                (["#999"], "there is no record #999"),
                (["999"], "there is no record #999"),
                (["#x"], "#x is not a record id"),
                (["NOPE-1"], "no asset is tagged NOPE-1"),
                (["7F3A91C2-000999"], "no record has the report number 7F3A91C2-000999"),
                (["6b1c0f7e-2d1a-4c3b-9e8f-0a1b2c3d4e5f"], "there is no record 6b1c0f7e-2d1a-4c3b-9e8f-0a1b2c3d4e5f"),
            ]
            for (arguments, reason) in cases {
                let out = home.sub("refused.html")
                let result = home.run(["certificate"] + arguments + ["--out", out])
                #expect(result.status == 1, "\(arguments): \(result)")
                #expect(result.stderrIsOneLine && result.stderr.contains(reason), "\(arguments): \(result)")
                #expect(result.stdout.isEmpty)
                #expect(!fileExists(out), "\(arguments)")
            }
        }

        @Test("bad usage exits 64 with a one-line reason", arguments: badCertificateUsages)
        func badUsage(_ usage: CertificateUsage) throws {
            let home = CertificateHome()
            defer { home.remove() }
            makeEmptyRegister(home: home.path)
            let result = home.run(["certificate"] + usage.arguments)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderrIsOneLine && result.stderr.contains(usage.reason), "\(result)")
        }

        @Test("a visit: cover and schedule, defects first, then one page a record; the site by name or uuid")
        func visit() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let uuids = try [ids.fail, ids.remedy, ids.pass].map {
                try home.record($0).recordUUID.uuidString.lowercased()
            }
            for site in ["Main site", "  main SITE ", Particulars.mainSiteUUID.uuidString.lowercased()] {
                let result = home.run(["certificate", "--site", site, "--from", "2026-11-01", "--to", "2026-11-30"])
                #expect(result.status == 0, "\(site): \(result)")
                let html = result.stdout
                // Every record in the schedule and on its own page, in the same order: defects first.
                let scheduled = html.matches(of: /<tr data-record="([0-9a-f-]+)"/).map { String($0.output.1) }
                let pages = html.matches(of: /<h1 id="record-([0-9a-f-]+)" class="page">/).map { String($0.output.1) }
                #expect(scheduled == uuids, "\(site)")
                #expect(pages == uuids, "\(site)")
                #expect(html.contains("Test Quay Ltd"))
                #expect(html.contains("Jo Examiner (LEEA-1)"))
                #expect(html.contains("2026-11-01 to 2026-11-30"))
                #expect(!html.contains("PRE-1"), "a pre-use check is no report of thorough examination")
            }
            let oneDay = home.run(["certificate", "--site", "Main site", "--from", "2026-11-20"])
            #expect(oneDay.status == 0, "\(oneDay)")
        }

        @Test("a visit with nothing examined in its dates, or an unknown site: exit 1 and why")
        func emptyVisit() throws {
            let home = CertificateHome()
            defer { home.remove() }
            _ = try VisitRegister.make(home)
            let none = home.run(["certificate", "--site", "Main site", "--from", "2026-10-01", "--to", "2026-10-31"])
            #expect(none.status == 1, "\(none)")
            #expect(none.stderr.contains("no thorough examination at Main site from 2026-10-01 to 2026-10-31"))
            let unknown = home.run(["certificate", "--site", "Dock 9", "--from", "2026-11-01"])
            #expect(unknown.status == 64, "\(unknown)")
            #expect(unknown.stderr.contains("no site is named Dock 9; the register's sites: Main site"))
        }

        @Test("no certificate from a register whose chain does not verify")
        func tamperedRegister() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            // Behind Rigbook's back: asset rows have no triggers, and their hashes catch this.
            let db = try Database(path: home.registerPath)
            try db.run("UPDATE assets SET name = 'Not what was added' WHERE tag = 'PASS-1'")
            let result = home.run(["certificate", "#\(ids.pass)"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("the register does not verify"), "\(result)")
            #expect(result.stdout.isEmpty)
        }

        @Test("a home without a register: exit 1, nothing made")
        func missingRegister() {
            let home = CertificateHome()
            defer { home.remove() }
            let result = home.run(["certificate", "SL-1"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("there is no register"))
            #expect(!fileExists(home.registerPath))
        }

        @Test("help certificate and help notices say how to use them")
        func help() {
            let home = CertificateHome()
            defer { home.remove() }
            let certificate = home.run(["help", "certificate"])
            #expect(certificate.status == 0)
            #expect(certificate.stdout.contains("USAGE: rigbook certificate RECORD|TAG [--format html|pdf] [--out FILE.html|FILE.pdf]"))
            let notices = home.run(["help", "notices"])
            #expect(notices.status == 0)
            #expect(notices.stdout.contains("USAGE: rigbook notices [--format text|json|csv]"))
            #expect(notices.stdout.contains("done"), "the group's command is listed too")
            let done = home.run(["notices", "done", "--help"])
            #expect(done.status == 0)
            #expect(done.stdout.contains("USAGE: rigbook notices done RECORD --duty DUTY"))
        }
    }

    @Suite("Certificates: reg 10 notices") struct NoticesCommand {
        @Test("open duties are listed most urgent first, exit 3; done, they go, exit 0")
        func listAndDone() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let listed = home.run(["notices"])
            #expect(listed.status == 3, "\(listed)")
            let lines = listed.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("TAG") == true)
            // Two defects saved without answers (the employer not yet told), then three reports to send.
            let duties = lines.dropFirst().dropLast().map { line in
                NoticeDuty.allCases.first { line.contains($0.label) }
            }
            #expect(duties == [.employerTold, .employerTold, .reportToEmployer, .reportToEmployer, .reportToEmployer])
            #expect(lines.last == "5 reg 10 duties are not yet done as of 2026-11-30.")

            for (id, duty, to) in [(ids.remedy, "employer_told", "Sam at the quay office"),
                                   (ids.fail, "employer_told", "Sam at the quay office")] {
                let done = home.run(["notices", "done", "#\(id)", "--duty", duty, "--to", to])
                #expect(done.status == 0, "\(done)")
                #expect(done.stdout.contains("done on 2026-11-30, to Sam at the quay office."), "\(done)")
            }
            for id in [ids.pass, ids.remedy, ids.fail] {
                let report = try #require(try home.record(id).reportNumber)
                let done = home.run(["notices", "done", report, "--duty", "report_to_employer", "--on", "2026-11-21"])
                #expect(done.status == 0, "\(done)")
            }
            let after = home.run(["notices"])
            #expect(after.status == 0, "\(after)")
            #expect(after.stdout == "No reg 10 duty is open as of 2026-11-30.\n")
            // The certificate shows each duty where it stands.
            let html = home.run(["certificate", "#\(ids.fail)"]).stdout
            #expect(html.contains("<tr data-duty=\"employer_told\" data-done=\"true\">"))
            #expect(html.contains("<tr data-duty=\"report_to_employer\" data-done=\"true\">"))
            #expect(html.contains("Done on 2026-11-21"))
        }

        @Test("--format json and csv: documented columns, one item per open duty")
        func formats() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let json = home.run(["notices", "--format", "json"])
            #expect(json.status == 3, "\(json)")
            let document = jsonObject(json.stdout)
            #expect(document["schema_version"] as? Int == 1)
            #expect(document["as_of"] as? String == fixedToday)
            #expect(document["open"] as? Int == 5)
            let items = try #require(document["items"] as? [[String: Any]])
            #expect(items.count == 5)
            let first = try #require(items.first)
            #expect(first["duty"] as? String == "employer_told")
            #expect(first["record_id"] as? Int == Int(ids.remedy))
            #expect(first["since"] as? String == "2026-11-30")
            #expect(first["days_open"] as? Int == 0)
            #expect(first["report_number"] as? String == (try home.record(ids.remedy).reportNumber))
            #expect(first["recipient"] as? String == "")

            let csv = home.run(["notices", "--format", "csv"])
            #expect(csv.status == 3)
            let rows = try readCSV(csv.stdout)
            #expect(rows.first == ["tag", "asset_uuid", "record_id", "record_uuid", "report_number", "inspection_date",
                                   "result", "duty", "duty_label", "recipient", "since", "days_open", "notice_uuid"])
            #expect(rows.count == 6)
            #expect(rows.dropFirst().map { $0[7] }.filter { $0 == "report_to_employer" }.count == 3)
        }

        /// Notices entered on a day after the one the program is told it is (a clock set back, RIGBOOK_TODAY
        /// earlier than the saves): open no days, never a negative count that CSV would quote as a formula.
        @Test("a notice entered after today has been open 0 days, in json and csv")
        func daysOpenIsNeverNegative() throws {
            let home = CertificateHome()
            defer { home.remove() }
            _ = try VisitRegister.make(home)
            let earlier = ["RIGBOOK_TODAY": "2026-11-25"]
            let json = home.run(["notices", "--format", "json"], env: earlier)
            #expect(json.status == 3, "\(json)")
            let items = try #require(jsonObject(json.stdout)["items"] as? [[String: Any]])
            #expect(items.count == 5)
            #expect(items.allSatisfy { $0["days_open"] as? Int == 0 }, "\(json.stdout)")
            let csv = home.run(["notices", "--format", "csv"], env: earlier)
            let rows = try readCSV(csv.stdout)
            let daysOpen = try #require(rows.first?.firstIndex(of: "days_open"))
            #expect(rows.dropFirst().map { $0[daysOpen] } == Array(repeating: "0", count: 5), "\(csv.stdout)")
        }

        @Test("a register with nothing open: exit 0 in every format")
        func nothingOpen() throws {
            let home = CertificateHome()
            defer { home.remove() }
            makeEmptyRegister(home: home.path)
            #expect(home.run(["notices"]).status == 0)
            let json = home.run(["notices", "--format", "json"])
            #expect(json.status == 0)
            #expect(jsonObject(json.stdout)["items"] as? [Any] != nil)
            let csv = home.run(["notices", "--format", "csv"])
            #expect(csv.status == 0)
            #expect(try readCSV(csv.stdout).count == 1)
        }

        @Test("notices done: bad usage and refused values exit 64, nothing recorded", arguments: badNoticeUsages)
        func badDone(_ usage: CertificateUsage) throws {
            let home = CertificateHome()
            defer { home.remove() }
            _ = try VisitRegister.make(home)
            let before = home.run(["notices", "--format", "csv"]).stdout
            let result = home.run(["notices", "done"] + usage.arguments)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderrIsOneLine && result.stderr.contains(usage.reason), "\(result)")
            #expect(home.run(["notices", "--format", "csv"]).stdout == before)
        }

        @Test("notices done on a pre-use check, a tag or an unknown record: exit 1")
        func refusedDone() throws {
            let home = CertificateHome()
            defer { home.remove() }
            let ids = try VisitRegister.make(home)
            let cases: [(String, String)] = [
                ("#\(ids.preUse)", "not a thorough examination"),
                ("PASS-1", "PASS-1 is not a record: give #ID"),
                ("#77", "there is no record #77"),
            ]
            for (record, reason) in cases {
                let result = home.run(["notices", "done", record, "--duty", "report_to_employer"])
                #expect(result.status == 1, "\(record): \(result)")
                #expect(result.stderr.contains(reason), "\(record): \(result)")
            }
        }

        @Test("a home without a register: notices exits 1, never 0 for nothing open")
        func missingRegister() {
            let home = CertificateHome()
            defer { home.remove() }
            let result = home.run(["notices"])
            #expect(result.status == 1, "\(result)")
            let done = home.run(["notices", "done", "#1", "--duty", "report_to_employer"])
            #expect(done.status == 1, "\(done)")
            #expect(!fileExists(home.registerPath))
        }
    }
}
