import Foundation
import Testing
@testable import RigbookCore

/// Parses a `YYYY-MM-DD` literal used by a test table. A bad literal is reported as a test issue
/// rather than crashing the whole test process.
func day(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> CalendarDate {
    guard let date = CalendarDate(iso: text) else {
        Issue.record("test table holds a date that does not parse: \(text)", sourceLocation: sourceLocation)
        return CalendarDate(dayNumber: 0)
    }
    return date
}

func optionalDay(_ text: String?, sourceLocation: SourceLocation = #_sourceLocation) -> CalendarDate? {
    text.map { day($0, sourceLocation: sourceLocation) }
}

/// One saved inspection, as the status rules see it.
func record(_ id: Int64, _ type: InspectionType, on date: String,
            _ result: InspectionResult = .pass, action: InspectionAction = .none,
            deadline: String? = nil, amends: Int64? = nil,
            sourceLocation: SourceLocation = #_sourceLocation) -> RecordFacts {
    RecordFacts(id: id, type: type, result: result, action: action,
                remedyDeadline: optionalDay(deadline, sourceLocation: sourceLocation),
                inspectionDate: day(date, sourceLocation: sourceLocation), amends: amends)
}

/// A valid asset; tests change one field at a time.
func sampleAsset(commissioned: String? = nil, intervalMonths: Int = 12,
                 sourceLocation: SourceLocation = #_sourceLocation) -> Asset {
    Asset(uuid: UUID(uuidString: "00000000-0000-0000-0000-000000000042")!,
          tag: "SL-0042", name: "2 t web sling, 3 m", type: .webSling, wllKg: 2000, lengthM: 3,
          location: "Bay 4", manufacturer: "Acme", serialNumber: "WS-123",
          manufactured: nil,
          commissioned: optionalDay(commissioned, sourceLocation: sourceLocation),
          intervalMonths: intervalMonths, liftsPersons: false)
}

/// A string test argument that names itself with escapes, so control characters in a table never
/// reach the terminal that shows the test log.
struct Text: Sendable, Hashable, ExpressibleByStringLiteral, CustomTestStringConvertible {
    var value: String
    init(stringLiteral value: String) { self.value = value }
    init(_ value: String) { self.value = value }
    var testDescription: String { value.debugDescription }
}

/// The problems the asset form finds in a web sling with this WLL and length text (nil, recorded as an issue,
/// when it accepts them).
func assetDraftProblems(wll: String, length: String) -> AssetDraft.Problems? {
    var draft = AssetDraft()
    draft.tag = "SL-1"
    draft.name = "Web sling"
    draft.wllKg = wll
    draft.lengthM = length
    draft.intervalMonths = "6"
    guard case .failure(let problems) = draft.validated(today: CalendarDate(iso: "2026-11-30")!) else {
        Issue.record("\(wll) kg, \(length) m was accepted")
        return nil
    }
    return problems
}

/// A source that records how a streamed writer reads it: it must read every row once, then only the
/// rows it lists, again by uuid, in the order it lists them. A report's source also counts the examinations read.
final class RowReadRecorder<Base: RowSource>: RowSource {
    let base: Base
    private(set) var fullReads = 0
    private(set) var readsByUUID: [[UUID]] = []
    var examinationsRead: [UUID] = []

    init(_ base: Base) { self.base = base }

    func forEachRow(_ body: (RegisterRow) throws -> Void) throws {
        fullReads += 1
        try base.forEachRow(body)
    }

    func forEachRow(uuids: some Sequence<UUID>, _ body: (RegisterRow) throws -> Void) throws {
        let uuids = Array(uuids)
        readsByUUID.append(uuids)
        try base.forEachRow(uuids: uuids, body)
    }

    func rowCountBound() throws -> Int { try base.rowCountBound() }
}

extension RowReadRecorder: ReportSource where Base: ReportSource {
    func latestThoroughExamination(of asset: UUID) throws -> StoredInspection? {
        examinationsRead.append(asset)
        return try base.latestThoroughExamination(of: asset)
    }

    func hasLatestThoroughExamination(of asset: UUID) throws -> Bool {
        try base.hasLatestThoroughExamination(of: asset)
    }

    func latestTests(of assets: Set<UUID>) throws -> [UUID: StoredTest] { try base.latestTests(of: assets) }
}
