import Foundation
import Testing
import RigbookCore
@testable import RigbookStore

/// The journal's hand-written line must be exactly what `JSONEncoder` (sorted keys, slashes kept) writes, so
/// recovery reads it as before and the format in FORMATS.md stands.
@Suite struct DraftJournalLineTests {
    private func encoded(_ draft: DraftFile) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(draft))
    }

    private let awkward = ["", "plain", "a/b\\c \"quoted\"", "line\nbreak\ttab\r\u{8}\u{C}",
                           "\u{0}\u{1}\u{1F}\u{7F}", "王建国 é 👍🏽 \u{2028}\u{2029} \u{200B}",
                           String(repeating: "long notes ", count: 300)]

    @Test func writesTheBytesJSONEncoderWrites() throws {
        var random = SystemRandomNumberGenerator()
        for round in 0..<300 {
            func text() -> String { awkward[Int(random.next() % UInt64(awkward.count))] }
            func flag() -> Bool { random.next() % 2 == 0 }
            var values = InspectionValues(inspectionType: InspectionType.allCases.randomElement(using: &random)!,
                                          inspectorName: text(), certificationNumber: text())
            values.checkMarking = flag(); values.checkCuts = flag(); values.checkDeformation = flag()
            values.checkFittings = flag(); values.checkCorrosion = flag(); values.confirmed = flag()
            values.result = flag() ? nil : InspectionResult.allCases.randomElement(using: &random)
            values.notes = text(); values.schemeReference = text(); values.defectDescription = text()
            values.action = InspectionAction.allCases.randomElement(using: &random)!
            values.remedyDeadlineSet = flag(); values.remedyDeadline = text(); values.inspectionDate = text()
            values.amendmentReason = flag() ? "" : text()
            values.examinationBasis = flag() ? nil : ExaminationBasis.allCases.randomElement(using: &random)
            values.installedCorrectly = flag(); values.testParticulars = text(); values.repairParticulars = text()
            values.remedyParticulars = text(); values.nextExaminationBy = text()
            var draft = DraftFile(draftID: "inspection-\(UUID().uuidString.lowercased())", sessionID: text(),
                                  assetUUID: UUID().uuidString, assetTag: text(), amends: flag() ? nil : Int64(round),
                                  values: values, createdAt: text(), updatedAt: text(), operatorName: text(),
                                  osUser: text(), host: text(), pid: Int32(round * 977), revision: round,
                                  focusedField: flag() ? nil : text())
            draft.amendsUUID = flag() ? nil : UUID().uuidString.lowercased()
            let line = try #require(DraftJournalLine.bytes(draft))
            #expect(line == (try encoded(draft)), "round \(round):\n\(String(decoding: line, as: UTF8.self))")
            #expect(try JSONDecoder().decode(DraftFile.self, from: Data(line)) == draft)
        }
    }

    /// What the hand-written line does not write goes to the encoder, so a journal line never drops a field:
    /// reg 10's answers, attachments, a test's values.
    @Test func leavesWhatItDoesNotWriteToTheEncoder() {
        func draft() -> DraftFile {
            DraftFile(draftID: "inspection-x", sessionID: "s", assetUUID: "u", assetTag: "T", amends: nil,
                      values: InspectionValues(), createdAt: "c", updatedAt: "u", operatorName: "o", revision: 1)
        }
        #expect(DraftJournalLine.bytes(draft()) != nil)
        var answered = draft()
        answered.defectNotice = DefectNoticeAnswers(contact: "Dock foreman", toldOn: "2026-11-30")
        #expect(DraftJournalLine.bytes(answered) == nil)
        var attached = draft()
        attached.values.attachments = [Attachment(sha256: String(repeating: "a", count: 64), name: "p.jpg", size: 1)]
        #expect(DraftJournalLine.bytes(attached) == nil)
        var tested = draft()
        tested.testValues = TestValues()
        #expect(DraftJournalLine.bytes(tested) == nil)
    }
}
