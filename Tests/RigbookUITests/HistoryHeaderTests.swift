import Foundation
import Testing
@testable import RigbookUI
import RigbookCore

/// The history screen's header says why an asset is DO NOT USE and gives a withdrawn one no next due date,
/// from the same `StatusReport` as every other surface.
@Suite("History header: status rules that never hide danger")
struct HistoryHeaderTests {
    static func lines(_ history: [RecordFacts], today: String = "2026-11-30") -> [String] {
        let asset = Asset(tag: "SL-0042", name: "2 t web sling", type: .webSling, wllKg: 2000,
                          commissioned: CalendarDate(iso: "2025-01-01"), intervalMonths: 12)
        let row = RegisterRow(asset: asset, summary: HistorySummary(history: history))
        let state = HistoryState(row: row, records: [], today: CalendarDate(iso: today)!)
        var frame = Frame(width: 120, height: 12)
        state.draw(into: &frame, area: Rect(width: 120, height: 12))
        return frame.lines
    }

    static func fact(_ type: InspectionType, _ date: String, _ result: InspectionResult, _ action: InspectionAction,
                     deadline: String? = nil) -> RecordFacts {
        RecordFacts(id: 1, type: type, result: result, action: action,
                    remedyDeadline: deadline.flatMap { CalendarDate(iso: $0) },
                    inspectionDate: CalendarDate(iso: date)!)
    }

    @Test("DO NOT USE after a missed deadline says so, with no date still ahead")
    func missedDeadline() {
        let lines = Self.lines([Self.fact(.thoroughPeriodic, "2026-10-01", .defectToBeRemedied, .repair,
                                          deadline: "2026-11-15")])
        #expect(lines[0].contains("DO NOT USE"))
        #expect(lines[4].contains("Last thorough examination 2026-10-01 · remedy deadline 2026-11-15 passed"),
                "\(lines[4])")
        #expect(!lines[4].contains("2027-10-01"))
    }

    @Test("a withdrawn asset shows no next due date")
    func withdrawn() {
        let lines = Self.lines([Self.fact(.thoroughPeriodic, "2026-10-01", .passWithObservations, .withdraw)])
        #expect(lines[0].contains("WITHDRAWN"))
        #expect(lines[4].contains("withdrawn from service: no examination due"), "\(lines[4])")
        #expect(!lines.joined().contains("2027-10-01"))
    }
}
