import Foundation
import Testing
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// The history and the forms at 80 columns with what a register grows into: record numbers of four digits,
/// conflicting amendments, an electrical asset, a file named to deceive.
@Suite("History and attachments at 80 columns")
struct HistoryAt80Tests {
    static let asset = Asset(tag: "SL-0042", name: "2 t web sling", type: .webSling, wllKg: 2000,
                             commissioned: CalendarDate(iso: "2025-01-01"), intervalMonths: 12)

    static func record(_ id: Int64, amends: (Int64, UUID)? = nil, supersededBy: Int64? = nil,
                       uuid: UUID = UUID()) -> StoredInspection {
        StoredInspection(id: id, recordUUID: uuid, assetUUID: asset.uuid, sessionID: "s-\(id)", amends: amends?.0,
                         amendsUUID: amends?.1, supersededBy: supersededBy,
                         values: FormHarness.passValues(name: "Ann Smith"), savedAt: "2026-11-30T10:00:00.000Z",
                         appVersion: "0.1.0", operatorName: "ann", assetWLLKg: 2000, assetLocation: "")
    }

    static func lines(_ records: [StoredInspection]) -> [String] {
        let state = HistoryState(row: RegisterRow(asset: asset, summary: HistorySummary(history: [])),
                                 records: records, today: harnessToday)
        var frame = Frame(width: 80, height: 24)
        state.draw(into: &frame, area: Rect(width: 80, height: 24))
        return frame.lines
    }

    @Test("the conflict banner fits 80 columns whole, its record numbers first")
    func conflictBanner() throws {
        let original = UUID()
        let lines = Self.lines([Self.record(1045, amends: (28, original)), Self.record(1044, amends: (28, original)),
                                Self.record(28, uuid: original)])
        let banner = try #require(lines.first { $0.contains("⚠") }, "\(lines)")
        #expect(banner.trimmingCharacters(in: .whitespaces)
                == "⚠ #1044 and #1045 both amend #28: A on one supersedes both", "\(banner)")
    }

    @Test("the AMENDMENT column never cuts a record number: its words shorten instead")
    func amendmentNumbersWhole() throws {
        let ten = UUID()
        let lines = Self.lines([Self.record(1046, amends: (10, ten)), Self.record(10, supersededBy: 1046, uuid: ten)])
        let superseded = try #require(lines.first { $0.hasPrefix("  #10 ") }, "\(lines.joined(separator: "\n"))")
        let amendment = try #require(lines.first { $0.hasPrefix("  #1046") })
        #expect(superseded.contains("by #1046 "), "\(superseded)")
        #expect(amendment.contains("of #10 "), "\(amendment)")
        // Where the whole words fit, they are kept.
        let small = Self.lines([Self.record(2, amends: (1, ten)), Self.record(1, supersededBy: 2, uuid: ten)])
        #expect(small.contains { $0.contains("amended by #2") } && small.contains { $0.contains("amends #1") })
    }

    @Test("an electrical asset's history does not offer A (amend); pressed, it says why")
    func electricalFooterHasNoAmend() throws {
        let h = try TestFormTests.TestHarness()
        h.press(.enter)
        #expect(h.harness.state.screens.last is HistoryState, "\(h.harness.dump)")
        let footer = try #require(h.harness.screen.last)
        #expect(!footer.contains("amend") && footer.contains("inspect"), "\(footer)")
        h.press(.char("A"))
        #expect(h.flat.contains("A test is not amended"))
        // A lifting asset's still does.
        let lifting = try FormHarness(records: [FormHarness.passValues()])
        lifting.press(.enter)
        #expect(lifting.screen.last?.contains("A amend") == true, "\(lifting.harness.dump)")
    }

    @Test("an attachment named with U+202E shows whole, escaped, with its extension and size after it")
    func deceivingFileName() throws {
        let h = try TestFormTests.TestHarness()
        let name = "rtl\u{202E}gnp.exe"
        let path = h.harness.home.root + "/" + name
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 7, 7]).write(to: URL(fileURLWithPath: path))
        h.openAndFill(earth: "0.4")
        h.press(.ctrl("o"))
        h.type(path)
        h.press(.enter)
        #expect(h.form?.values.attachments.map(\.name) == [name], "\(h.harness.dump)")
        h.focus(.attachments)
        #expect(h.flat.contains("rtl<202e>gnp.exe · 6 bytes"), "\(h.harness.dump)")
    }

    @Test("a long file name is cut in the middle, keeping its extension", arguments: [12, 16, 20, 30])
    func cutInTheMiddle(width: Int) {
        let shown = "invoice-2026-11-30-final-version\u{202E}gnp.exe".fileNameFitting(width: width)
        #expect(shown.displayWidth <= width, "\(shown)")
        #expect(shown.hasSuffix(".exe") && shown.contains("…"), "\(shown)")
        #expect("short.pdf".fileNameFitting(width: width) == "short.pdf")
    }
}
