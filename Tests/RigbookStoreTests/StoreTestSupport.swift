import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

#if canImport(Glibc)
import Glibc
#endif

// MARK: Temporary folders

/// Runs `body` with a fresh folder under the system temporary directory and removes it afterwards,
/// whatever happens. Every test that touches the disk uses its own.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("rigbook-store-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// Runs `body` with a new register in a temporary folder, holding `asset`.
func withRegister<T>(holding asset: Asset, _ body: (Register, Asset) throws -> T) throws -> T {
    try withTemporaryDirectory { folder in
        let register = try Register.open(path: registerPath(in: folder))
        try register.addAsset(asset)
        return try body(register, asset)
    }
}

/// A register path the way the program builds it: `<home>/Documents/register.sqlite`.
func registerPath(in folder: URL) -> String {
    DataHome(root: folder.appendingPathComponent("home").path).registerPath
}

// MARK: Fixed days and fixtures

/// "Today" for every test: fixed, so statuses do not drift with the calendar.
let testToday = CalendarDate(year: 2026, month: 3, day: 15)!

func day(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> CalendarDate {
    guard let date = CalendarDate(iso: text) else {
        Issue.record("test holds a date that does not parse: \(text)", sourceLocation: sourceLocation)
        return CalendarDate(dayNumber: 0)
    }
    return date
}

/// A valid asset; tests change what they need.
func makeAsset(tag: String = "SL-0042", commissioned: String? = "2024-01-10", intervalMonths: Int = 12,
               wllKg: Double = 2000, location: String = "Bay 4") -> Asset {
    Asset(tag: tag, name: "2 t web sling, 3 m", type: .webSling, wllKg: wllKg, lengthM: 3,
          location: location, manufacturer: "Acme", serialNumber: "WS-123",
          manufactured: nil, commissioned: commissioned.map { day($0) },
          intervalMonths: intervalMonths, liftsPersons: false)
}

/// A complete passing inspection as an inspector would type it.
func passingValues(_ type: InspectionType = .thoroughPeriodic, on date: String) -> InspectionValues {
    InspectionValues(inspectionType: type, inspectorName: "Alan Hughes", certificationNumber: "LEEA-104233",
                     checkMarking: true, checkCuts: true, checkDeformation: true, checkFittings: true,
                     checkCorrosion: true, result: .pass, inspectionDate: date, confirmed: true)
}

/// A complete *Fail – dangerous* record.
func failingValues(_ type: InspectionType = .thoroughPeriodic, on date: String,
                   action: InspectionAction = .quarantine) -> InspectionValues {
    var values = passingValues(type, on: date)
    values.result = .failDangerous
    values.checkDeformation = false
    values.action = action
    values.defectDescription = "Link elongated beyond 5 %"
    values.repairParticulars = "Replace the sling"
    return values
}

/// A *Defect to be remedied* record with its deadline.
func remedyValues(on date: String, deadline: String) -> InspectionValues {
    var values = passingValues(on: date)
    values.result = .defectToBeRemedied
    values.checkCuts = false
    values.action = .repair
    values.defectDescription = "Stitching cut at the label"
    values.remedyDeadlineSet = true
    values.remedyDeadline = deadline
    values.repairParticulars = "Restitch the label end"
    values.remedyParticulars = "Repair by the maker, then re-examine"
    return values
}

/// Passes `values` through the save gate: the only way to get a record the register accepts. An
/// amendment of `amending` gets a reason unless `values` carry one.
func validated(_ values: InspectionValues, for asset: Asset, sessionID: String? = nil,
               amending: StoredInspection? = nil, today: CalendarDate = testToday,
               sourceLocation: SourceLocation = #_sourceLocation) throws -> ValidatedInspection {
    let sessionID = sessionID ?? "inspection-\(asset.uuid.uuidString.lowercased())-\(UUID().uuidString)"
    let context = SaveGate.Context(asset: asset, today: today, sessionID: sessionID, amending: amending,
                                   particulars: TestParticulars.report(for: asset.uuid))
    var values = values
    if amending != nil && values.amendmentReason.isEmpty { values.amendmentReason = "Corrected in a test" }
    switch SaveGate.validate(values, context: context) {
    case .success(let record): return record
    case .failure(let failure):
        Issue.record("the save gate refused a test record: \(failure.problems.map(\.message))",
                     sourceLocation: sourceLocation)
        throw failure
    }
}

let testStamp = SaveStamp(savedAt: "2026-03-15T10:00:00.000Z", appVersion: "0.1.0-test", operatorName: "tester")

// MARK: Checks shared by several suites

/// The asset's stored summary (row and next_due column) equals the fold of its stored history.
func expectSummaryFollowsHistory(_ register: Register, _ uuid: UUID,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
    let row = try #require(try register.asset(uuid: uuid), sourceLocation: sourceLocation)
    let history = try register.history(assetUUID: uuid)
    // An electrical item's tests are its history.
    let folded = HistorySummary(history: history.map(\.facts) + (try register.tests(assetUUID: uuid)).map(\.facts))
    #expect(row.summary == folded, "stored summary of \(row.asset.tag) differs from its history",
            sourceLocation: sourceLocation)
    let listed = try register.rows().first { $0.asset.uuid == uuid }
    #expect(listed?.summary == folded, sourceLocation: sourceLocation)
    let due = StatusRules.nextDue(intervalMonths: row.asset.intervalMonths, commissioned: row.asset.commissioned,
                                  summary: folded)
    let storedDue = try register.db.scalar("SELECT next_due FROM assets WHERE uuid = ?", [.text(uuid.uuidString)])
    #expect(storedDue == (due.map { SQLValue.text($0.iso) } ?? .null), "next_due column",
            sourceLocation: sourceLocation)
}

/// Every stored column of one inspection row, rendered by SQLite's own `quote()`, so two dumps are
/// equal only if the row is byte-identical.
func rawInspectionRow(_ db: Database, id: Int64) throws -> [String] {
    try rawRows(db, table: "inspections", where: "id = ?", [.integer(id)]).first ?? []
}

/// Every stored column of a table's rows (those `condition` picks), in id order, as `rawInspectionRow` renders one.
func rawRows(_ db: Database, table: String, where condition: String = "1", _ arguments: [SQLValue] = [])
    throws -> [[String]] {
    let info = try db.prepare("PRAGMA table_info(\(table))")
    var columns: [String] = []
    while try info.step() { columns.append(info.text(1)) }
    let statement = try db.prepare("SELECT " + columns.map { "quote(\($0))" }.joined(separator: ", ")
                                   + " FROM \(table) WHERE \(condition) ORDER BY id")
    try statement.bind(arguments)
    var rows: [[String]] = []
    while try statement.step() { rows.append(columns.indices.map { statement.text(Int32($0)) }) }
    return rows
}

// MARK: Files

/// What "untouched" means for a file: same bytes, same size, same modification time to the nanosecond.
struct FileState: Equatable, CustomStringConvertible {
    var bytes: Data
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    var mode: UInt32

    init(path: String) throws {
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var info = stat()
        guard stat(path, &info) == 0 else { throw CocoaError(.fileReadNoSuchFile) }
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        mode = UInt32(info.st_mode) & 0o7777
    }

    var description: String {
        "\(bytes.count) bytes, mtime \(modifiedSeconds).\(modifiedNanoseconds), mode \(String(mode, radix: 8))"
    }
}

func permissions(_ path: String) -> UInt32? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return UInt32(info.st_mode) & 0o7777
}

/// Backdates a file so a rewrite within the same clock tick cannot hide behind an equal mtime.
func backdate(_ path: String) throws {
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)],
                                          ofItemAtPath: path)
}

func folderListing(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// Polls `condition` until it holds or `timeout` passes; true if it held.
func poll(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(2_000) // poll interval; the deadline above bounds the wait
    }
    return condition()
}
