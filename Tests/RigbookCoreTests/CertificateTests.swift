import Foundation
import Testing
@testable import RigbookCore

// MARK: - Fixture

private enum CertificateFixture {
    static let head = String(repeating: "ab", count: 32)
    static let printedAt = "2026-11-30T10:00:00.000Z"

    static func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }

    static func asset(_ n: Int, tag: String, name: String = "2 t web sling 3 m") -> Asset {
        Asset(uuid: uuid(n), tag: tag, name: name, type: .webSling, wllKg: 2000, lengthM: 3, location: "Bay 4",
              manufacturer: "Acme Lifting", serialNumber: "SN-\(n)", manufactured: day("2024-06-30"),
              commissioned: day("2025-01-10"), intervalMonths: 6)
    }

    static let particulars = ReportParticulars(
        employer: Employer(uuid: uuid(900), name: "Test Quay Ltd", address: "Quay Office\nHarbour Road\nTestport"),
        site: Site(uuid: uuid(901), employerUUID: uuid(900), name: "North Quay", address: "Harbour Road, Testport"),
        organisation: ExaminingOrganisation(name: "Test Examinations Ltd", address: "1 Test Street, Testby"),
        examiner: Examiner(uuid: uuid(902), name: "Jo Examiner", qualification: "LEEA-1"),
        asset: AssetParticulars(assetUUID: uuid(1), siteUUID: uuid(901), lessor: "Hire Co",
                                swlConfigurations: "2 legs at 45°: 2.8 t"),
        previousThoroughExamination: "2026-05-20")

    /// A thorough examination saved with its particulars: a defect to be remedied, fully recorded.
    static func remedyRecord(id: Int64 = 12, asset: Asset, date: String = "2026-11-20",
                             defect: String = "Stitching cut at the label") -> StoredInspection {
        let values = InspectionValues(
            inspectionType: .thoroughPeriodic, inspectorName: "Jo Examiner", certificationNumber: "LEEA-1",
            checkMarking: true, checkCuts: false, checkDeformation: true, checkFittings: true, checkCorrosion: true,
            result: .defectToBeRemedied, defectDescription: defect, action: .repair, remedyDeadlineSet: true,
            remedyDeadline: "2026-12-20", inspectionDate: date, confirmed: true, examinationBasis: .within6Months,
            testParticulars: "Proof load 2.5 t, certificate PL-77", repairParticulars: "Restitch the label panel",
            remedyParticulars: "Restitch by a competent person", nextExaminationBy: "2027-05-20")
        var particulars = particulars
        particulars.asset.assetUUID = asset.uuid
        return StoredInspection(id: id, recordUUID: uuid(Int(id) + 100), assetUUID: asset.uuid, sessionID: "s-\(id)",
                                amends: nil, values: values, savedAt: "2026-11-20T15:30:00.000Z", appVersion: "0.1.0",
                                operatorName: "jo", assetWLLKg: 2000, assetLocation: "Bay 4",
                                reportNumber: "7F3A91C2-0000\(id)", recordHash: String(repeating: "c", count: 64),
                                particulars: particulars)
    }

    static func record(id: Int64, asset: Asset, result: InspectionResult, date: String) -> StoredInspection {
        var record = remedyRecord(id: id, asset: asset, date: date)
        record.values.result = result
        switch result {
        case .pass, .passWithObservations:
            record.values.remedyDeadlineSet = false
            record.values.remedyDeadline = ""
            record.values.repairParticulars = ""
            record.values.remedyParticulars = ""
            record.values.action = .none
        case .failDangerous:
            record.values.remedyDeadlineSet = false
            record.values.remedyDeadline = ""
            record.values.remedyParticulars = ""
            record.values.action = .withdraw
        case .defectToBeRemedied: break
        }
        return record
    }

    /// A thorough examination saved before reports carried their particulars: the 17 fields only.
    static func oldRecord(asset: Asset) -> StoredInspection {
        let values = InspectionValues(
            inspectionType: .thoroughPeriodic, inspectorName: "Al Older", certificationNumber: "LEEA-0",
            checkMarking: true, checkCuts: true, checkDeformation: true, checkFittings: true, checkCorrosion: true,
            result: .pass, inspectionDate: "2025-06-01", confirmed: true)
        return StoredInspection(id: 3, recordUUID: uuid(103), assetUUID: asset.uuid, sessionID: "s-3", amends: nil,
                                values: values, savedAt: "2025-06-01T09:00:00.000Z", appVersion: "0.1.0",
                                operatorName: "al", assetWLLKg: 2000, assetLocation: "Bay 4",
                                recordHash: String(repeating: "d", count: 64))
    }

    static func notices(for record: StoredInspection) -> [Notice] {
        [Notice(recordUUID: record.recordUUID, duty: .reportToEmployer, recipient: "Test Quay Ltd", doneOn: nil,
                recordedAt: "2026-11-20T15:30:00.000Z"),
         Notice(recordUUID: record.recordUUID, duty: .employerTold, recipient: "Sam", doneOn: day("2026-11-20"),
                seriousRisk: false, recordedAt: "2026-11-20T15:30:00.000Z"),
         Notice(recordUUID: record.recordUUID, duty: .reportToEmployer, recipient: "Test Quay Ltd",
                doneOn: day("2026-11-22"), recordedAt: "2026-11-22T08:00:00.000Z")]
    }
}

/// The item blocks of a page's first report, by Schedule 1 item number.
private func items(_ html: String) -> [String: String] {
    var items: [String: String] = [:]
    for block in html.components(separatedBy: "<tr data-item=\"").dropFirst() {
        guard let quote = block.firstIndex(of: "\""), let end = block.range(of: "</tr>") else { continue }
        items[String(block[..<quote])] = String(block[block.index(after: quote)..<end.lowerBound])
    }
    return items
}

// MARK: - Tests

@Suite("Certificate: one report of thorough examination") struct CertificateTests {
    @Test("every Schedule 1 item, 1 to 11 with 8a-8f, in order, each with its number and heading")
    func everyItem() {
        let asset = CertificateFixture.asset(1, tag: "SL-1")
        let record = CertificateFixture.remedyRecord(asset: asset)
        let html = Certificate.render(Certificate.Entry(record: record, asset: asset))
        #expect(Certificate.items.map(\.number)
                == ["1", "2", "3", "4", "5", "6", "7", "8a", "8b", "8c", "8d", "8e", "8f", "9", "10", "11"])
        var position = html.startIndex
        for item in Certificate.items {
            let heading = "<tr data-item=\"\(item.number)\"><th>\(item.number)  \(HTMLReport.escape(item.heading))</th>"
            let found = html.range(of: heading, range: position..<html.endIndex)
            #expect(found != nil, "item \(item.number) missing or out of order")
            if let found { position = found.upperBound }
        }
        #expect(!html.contains(Certificate.notRecorded), "a record saved with its particulars lacks nothing")
    }

    @Test("each item says what the record holds")
    func values() throws {
        let asset = CertificateFixture.asset(1, tag: "SL-1")
        let record = CertificateFixture.remedyRecord(asset: asset)
        let entry = Certificate.Entry(record: record, asset: asset, notices: CertificateFixture.notices(for: record))
        let html = Certificate.render(entry)
        let item = items(html)
        #expect(item["1"]?.contains("Test Quay Ltd") == true)
        #expect(item["1"]?.contains("Quay Office, Harbour Road, Testport") == true, "an address on one line")
        #expect(item["2"]?.contains("North Quay") == true)
        #expect(item["3"]?.contains("SN-1") == true && item["3"]?.contains("2024-06-30") == true)
        #expect(item["4"]?.contains("2026-05-20") == true)
        #expect(item["5"]?.contains("2 t") == true && item["5"]?.contains("2 legs at 45°: 2.8 t") == true)
        #expect(item["6"]?.contains("(a) No") == true)
        #expect(item["7"]?.contains("Within 6 months") == true)
        #expect(item["7"]?.contains("Safe to operate until the defect is remedied, by 2026-12-20") == true)
        #expect(item["8a"]?.contains("Stitching cut at the label") == true)
        #expect(item["8b"]?.contains("Restitch the label panel") == true)
        #expect(item["8c"]?.contains("By 2026-12-20") == true && item["8c"]?.contains("competent person") == true)
        #expect(item["8d"]?.contains("2027-05-20") == true)
        #expect(item["8e"]?.contains("Proof load 2.5 t") == true)
        #expect(item["8f"]?.contains("2026-11-20") == true)
        #expect(item["9"]?.contains("Jo Examiner") == true && item["9"]?.contains("Test Examinations Ltd") == true)
        #expect(item["10"]?.contains("Authenticated by its author") == true)
        #expect(item["11"]?.contains("2026-11-20") == true)
        #expect(html.contains("7F3A91C2-000012"))
        // The record's own hash, and no register head or printing time: a reissue is the same page.
        #expect(html.contains("SHA-256 <code>\(String(repeating: "c", count: 64))</code>"))
        #expect(!html.contains(CertificateFixture.head) && !html.contains(CertificateFixture.printedAt))
        // Each duty where it stands: its newest notice.
        #expect(html.contains("<tr data-duty=\"employer_told\" data-done=\"true\">"))
        #expect(html.contains("<tr data-duty=\"report_to_employer\" data-done=\"true\">"))
        #expect(html.contains("Done on 2026-11-22"))
        #expect(!html.contains("data-duty=\"report_to_lessor\""))
    }

    @Test("item 3 gives the owner's client ref beside the serial number, only when the asset has one")
    func clientRef() {
        var asset = CertificateFixture.asset(1, tag: "SL-1")
        let record = CertificateFixture.remedyRecord(asset: asset)
        let without = items(Certificate.render(Certificate.Entry(record: record, asset: asset)))
        #expect(without["3"]?.contains("client ref") == false, "\(without["3"] ?? "")")
        asset.clientRef = "P-<4471>"
        let with = items(Certificate.render(Certificate.Entry(record: record, asset: asset)))
        #expect(with["3"]?.contains("serial number <bdi>SN-1</bdi>; client ref <bdi>P-&lt;4471&gt;</bdi>") == true,
                "\(with["3"] ?? "")")
    }

    @Test("a dangerous fail is not safe to operate; after installation, item 6 answers and 7 does not apply")
    func failAndInstallation() {
        let asset = CertificateFixture.asset(1, tag: "SL-1")
        let fail = CertificateFixture.record(id: 12, asset: asset, result: .failDangerous, date: "2026-11-20")
        let failed = items(Certificate.render(Certificate.Entry(record: fail, asset: asset)))
        #expect(failed["7"]?.contains("Not safe to operate") == true)
        #expect(failed["8c"]?.contains("Not applicable") == true)

        var installed = CertificateFixture.record(id: 13, asset: asset, result: .pass, date: "2026-11-20")
        installed.values.inspectionType = .thoroughAfterInstallation
        installed.values.examinationBasis = .afterInstallation
        installed.values.installedCorrectly = true
        let page = items(Certificate.render(Certificate.Entry(record: installed, asset: asset)))
        #expect(page["6"]?.contains("(a) Yes") == true && page["6"]?.contains("Installed correctly.") == true)
        #expect(page["7"]?.contains("Not applicable") == true)
        #expect(page["8a"]?.hasSuffix("<td>None.</td>") == true)
    }

    @Test("a record saved before the particulars reads “not recorded” for each item it lacks, and only those")
    func oldRecord() {
        let asset = CertificateFixture.asset(1, tag: "SL-1")
        let record = CertificateFixture.oldRecord(asset: asset)
        let html = Certificate.render(Certificate.Entry(record: record, asset: asset))
        let item = items(html)
        #expect(item.count == Certificate.items.count)
        for number in ["1", "2", "4", "5", "7", "8d", "8e", "9"] {
            #expect(item[number]?.contains(Certificate.notRecorded) == true, "item \(number)")
        }
        for number in ["3", "6", "8a", "8b", "8c", "8f", "10", "11"] {
            #expect(item[number]?.contains(Certificate.notRecorded) == false, "item \(number): \(item[number] ?? "")")
        }
        // What the 17 fields held is still printed.
        #expect(item["9"]?.contains("Al Older") == true && item["9"]?.contains("LEEA-0") == true)
        #expect(item["8f"]?.contains("2025-06-01") == true)
        #expect(item["2"]?.contains("Bay 4") == true, "the location it had, beside “not recorded”")
        #expect(html.contains("Saved before reports carried their particulars"))
        // No report number either, and no notices were kept then.
        #expect(html.contains("<th>Report number</th><td><span class=\"nr\">not recorded</span>"))
        #expect(html.contains("saved before notices were kept"))
    }

    @Test("hostile text is escaped and cannot reorder the page", arguments: [
        Text("<script>alert(1)</script>"), Text("</dd></dl><h1>Forged</h1>"), Text("EV-\u{202E}0011 & \"co\" 'x'"),
        Text("<img src=x onerror=alert(1)>\u{2066}\u{200B}"), Text("line\u{1B}[31m\u{0}\u{7F}\u{85}end"),
    ])
    func hostileText(_ hostile: Text) {
        var asset = CertificateFixture.asset(1, tag: "SL-1", name: hostile.value)
        asset.manufacturer = hostile.value
        var record = CertificateFixture.remedyRecord(asset: asset, defect: hostile.value)
        record.values.notes = hostile.value
        record.values.testParticulars = hostile.value
        record.particulars?.employer.name = hostile.value
        record.particulars?.site.address = hostile.value
        let notice = Notice(recordUUID: record.recordUUID, duty: .employerTold, recipient: hostile.value,
                            doneOn: day("2026-11-20"), recordedAt: "2026-11-20T00:00:00Z")
        let html = Certificate.render(Certificate.Entry(record: record, asset: asset, notices: [notice]))
        let markup = ["<script", "<img", "<h1>Forged", "</dd></dl><h1>"]
        for raw in markup where hostile.value.contains(raw) {
            #expect(!html.contains(raw), "\(raw) reached the page")
        }
        for scalar in html.unicodeScalars {
            #expect(!VisibleText.isHiddenFormat(scalar), "U+\(String(scalar.value, radix: 16)) reached the page")
            #expect(scalar.value >= 0x20 || scalar == "\n" || scalar == "\t", "a control character reached the page")
        }
        if hostile.value.contains("\u{202E}") { #expect(html.contains("EV-&lt;202e&gt;0011 &amp; &quot;co&quot;")) }
        // Escaping leaves the structure whole: one item block per item, the same tags opened as closed.
        #expect(items(html).count == Certificate.items.count)
        #expect(html.components(separatedBy: "<dd>").count == html.components(separatedBy: "</dd>").count)
        #expect(html.components(separatedBy: "<bdi").count == html.components(separatedBy: "</bdi>").count)
    }

    @Test("self-contained and printable: A4, nothing fetched, no script; the same input gives the same bytes")
    func selfContained() {
        let asset = CertificateFixture.asset(1, tag: "SL-1")
        let entry = Certificate.Entry(record: CertificateFixture.remedyRecord(asset: asset), asset: asset)
        let html = Certificate.render(entry)
        #expect(html.contains("@page { size: A4;"))
        for fetched in ["<script", "<link", "src=", "url(", "@import", "http://", "https://"] {
            #expect(!html.contains(fetched), "\(fetched)")
        }
        let again = Certificate.render(entry)
        #expect(html == again)
        #expect(!html.contains("class=\"page\""), "one report needs no page break")
    }
}

@Suite("Certificate: a visit") struct VisitCertificateTests {
    static let site = CertificateFixture.particulars.site

    static func entries() -> [Certificate.Entry] {
        let results: [(String, InspectionResult, String)] = [
            ("A-1", .pass, "2026-11-18"), ("B-1", .failDangerous, "2026-11-20"),
            ("C-1", .defectToBeRemedied, "2026-11-19"), ("D-1", .passWithObservations, "2026-11-17"),
            ("E-1", .failDangerous, "2026-11-18"), ("F-1", .defectToBeRemedied, "2026-11-19"),
        ]
        return results.enumerated().map { index, item in
            let asset = CertificateFixture.asset(index + 1, tag: item.0)
            return Certificate.Entry(record: CertificateFixture.record(id: Int64(20 + index), asset: asset,
                                                                       result: item.1, date: item.2),
                                     asset: asset)
        }
    }

    @Test("defects first: fail – dangerous, then defect to be remedied, then the rest; by date and tag within")
    func order() {
        #expect(Certificate.visitOrder(Self.entries()).map(\.asset.tag) == ["E-1", "B-1", "C-1", "F-1", "D-1", "A-1"])
    }

    @Test("a cover with the summary and the schedule, then a page per record, each page a CSS page break")
    func pages() {
        let visit = Certificate.Visit(site: Self.site, employer: CertificateFixture.particulars.employer,
                                      from: day("2026-11-17"), through: day("2026-11-20"))
        let html = Certificate.renderVisit(visit, entries: Self.entries())
        #expect(html.components(separatedBy: "<h1>Schedule of thorough examinations</h1>").count == 2)
        let scheduled = html.matches(of: /<tr data-record="[0-9a-f-]+" data-result="([a-z_]+)">/)
            .map { String($0.output.1) }
        #expect(scheduled == ["fail_dangerous", "fail_dangerous", "defect_to_be_remedied", "defect_to_be_remedied",
                              "pass_with_observations", "pass"])
        let pages = html.matches(of: /<h1 id="record-[0-9a-f-]+" class="page">Report of thorough examination<\/h1>/)
            .count
        #expect(pages == 6)
        #expect(html.contains(".page { page-break-before: always; break-before: page; }"))
        #expect(html.contains("Test Quay Ltd"))
        #expect(html.contains("North Quay"))
        #expect(html.contains("Jo Examiner (LEEA-1)"))
        #expect(html.contains("2026-11-17 to 2026-11-20"))
        #expect(html.contains("6: 2 fail – dangerous, 2 defect to be remedied, 2 without a defect"))
        // Every page carries every item.
        let articles = html.components(separatedBy: " class=\"page\">Report of").dropFirst()
        for article in articles { #expect(items(article).count == Certificate.items.count) }
    }

    @Test("older records on the cover: the register's employer stands in, and their items read not recorded")
    func oldRecords() {
        let asset = CertificateFixture.asset(1, tag: "OLD-1")
        let visit = Certificate.Visit(site: Self.site, employer: Employer(name: "Now Ltd", address: "Now Street"),
                                      from: day("2025-06-01"), through: day("2025-06-01"))
        let entry = Certificate.Entry(record: CertificateFixture.oldRecord(asset: asset), asset: asset)
        let html = Certificate.renderVisit(visit, entries: [entry])
        #expect(html.contains("Now Ltd"))
        #expect(html.contains("Al Older (LEEA-0)"))
        let page = items(html.components(separatedBy: " class=\"page\">Report of").last ?? "")
        #expect(page["8d"]?.contains(Certificate.notRecorded) == true)
    }
}
