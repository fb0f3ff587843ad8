import Foundation
import Testing
@testable import RigbookCore

/// In the core: the words every outward view takes for an electrical item, and the label it gets.
@Suite struct ElectricalOutwardTests {
    static let today = CalendarDate(iso: "2026-11-30")!

    static func row(failedOn failed: String? = nil, tested: String? = nil) -> RegisterRow {
        let asset = Asset.electrical(tag: "TT-1", name: "Drill", particulars:
                                        ElectricalParticulars(equipmentClass: .classI, environment: .construction),
                                     commissioned: CalendarDate(iso: "2026-01-10"))
        var history: [RecordFacts] = []
        if let tested { history.append(TestFacts.facts(id: 1, passed: true, date: CalendarDate(iso: tested)!)) }
        if let failed { history.append(TestFacts.facts(id: 2, passed: false, date: CalendarDate(iso: failed)!)) }
        return RegisterRow(asset: asset, summary: HistorySummary(history: history))
    }

    @Test("a failed test's reason and an electrical item's explanation speak of tests")
    func reasons() {
        let failed = Self.row(failedOn: "2026-11-21").status(on: Self.today)
        #expect(failed.status == .doNotUse && failed.kind == .electrical)
        #expect(failed.reason == "failed its test on 2026-11-21, no passing test since")
        let overdue = Self.row().status(on: Self.today)
        #expect(overdue.status == .overdue)
        #expect(overdue.explanation == "next test due 2026-04-10")
        let sling = StatusRules.evaluate(asset: Asset(tag: "S", name: "S", type: .webSling, wllKg: 1, location: "",
                                                      intervalMonths: 6),
                                         history: [TestFacts.facts(id: 1, passed: false, date: Self.today)],
                                         today: Self.today)
        #expect(sling.reason?.contains("not cleared by a thorough examination") == true, "lifting words unchanged")
    }

    @Test("due says what an item needs: retest, test, thorough examination")
    func needs() {
        let items = DueReport.items([Self.row(failedOn: "2026-11-21"), Self.row()], today: Self.today)
        #expect(items.map(DueReport.what) == ["retest", "test"])
    }

    @Test("the label layout: test tag, DANGER after a failed test, --layout danger for anything; lifting keeps its own")
    func layouts() {
        let particulars = Particulars()
        func item(_ row: RegisterRow, passed: Bool?) -> Labels.Item {
            let test = passed.map { passed in
                StoredTest(id: 1, testUUID: UUID(), assetUUID: row.asset.uuid, sessionID: "s", values: TestValues(),
                           passed: passed, verdicts: [], savedAt: "", appVersion: "", operatorName: "",
                           entryHash: nil)
            }
            return Labels.Item(row: row, particulars: particulars, today: Self.today, scheme: .none, lastTest: test)
        }
        let passed = item(Self.row(tested: "2026-11-20"), passed: true)
        let failed = item(Self.row(failedOn: "2026-11-21"), passed: false)
        let sling = item(RegisterRow(asset: Asset(tag: "S", name: "S", type: .webSling, wllKg: 1, location: "",
                                                  intervalMonths: 6), summary: .empty), passed: nil)
        #expect(Labels.Layout.resolved(nil, for: passed) == .tag)
        #expect(Labels.Layout.resolved(.card, for: passed) == .tag)
        #expect(Labels.Layout.resolved(nil, for: failed) == .danger)
        #expect(Labels.Layout.resolved(.danger, for: sling) == .danger)
        #expect(Labels.Layout.resolved(.tag, for: sling) == .card)
        #expect(Labels.Layout.resolved(.due, for: sling) == .due)
        #expect(passed.wll == "—" && passed.type == "Class I")
        #expect(failed.electricalTest?.failed == true && failed.electricalTest?.retest == nil)
        #expect(passed.electricalTest?.retest == CalendarDate(iso: "2027-02-20"))
    }

    @Test("the combined records export: inspection columns unchanged first, then kind, then the test's own")
    func exportColumns() {
        let columns = TestExport.combinedColumns
        #expect(Array(columns.prefix(RecordExport.columns.count)) == RecordExport.columns)
        #expect(columns[RecordExport.columns.count] == "kind")
        #expect(Set(columns).count == columns.count, "no column twice")
        #expect(columns.contains("earth_continuity_verdict") && columns.contains("test_result"))
    }
}
