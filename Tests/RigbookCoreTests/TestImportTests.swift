import Foundation
import Testing
@testable import RigbookCore
import RigbookTestSupport

/// Reading a PAT tester's export: fixed columns by name, Test/Result/Unit/Status groups by position.
@Suite("Test import: reading a tester's export") struct TestImportTests {
    static func parse(_ text: String, _ configure: (inout TestImport.Options) -> Void = { _ in }) -> TestImport.Parsed {
        var options = TestImport.Options()
        configure(&options)
        return TestImport.parse(text, options: options)
    }

    static func problems(_ text: String) -> [String] { parse(text).problems.map(\.description) }

    @Test func datesAreReadInTheFormatGiven() {
        #expect(TestImport.DateFormat.dayFirst.iso("14/07/2026") == "2026-07-14")
        #expect(TestImport.DateFormat.monthFirst.iso("07/14/2026 10:32") == "2026-07-14")
        #expect(TestImport.DateFormat.dayFirst.iso("31/02/2026") == nil)
        #expect(TestImport.DateFormat.iso.iso("2026-07-14T10:00") == "2026-07-14")
        #expect(TestImport.DateFormat.iso.iso("2026-07-14 10:00:59") == "2026-07-14")
        #expect(TestImport.DateFormat.iso.iso("2026-07-14 25:99") == nil)
        #expect(TestImport.DateFormat.iso.iso("2026-07-14 garbage") == nil)
        #expect(TestImport.DateFormat.dayFirst.iso("1/7/26") == nil)
        #expect(TestImport.DateFormat.dayFirst.problem("29/02/2025") == "'29/02/2025' is not a real date")
        #expect(TestImport.DateFormat.iso.problem("01/02/2026").hasSuffix(
            "if the export writes DD/MM/YYYY or MM/DD/YYYY, pass --date-format with it"))
    }

    @Test func groupsAreReadByPositionAndStatusOutsideOneIsTheResult() throws {
        let text = """
            ASSET ID,test date,Status,Person,Test,Result,Unit,Status,Test,Result,Unit,Status
            T-1,2026-11-20,F,Ana Reyes,Visual,,,F,Insulation,0.4,MOhm,Fail

            """
        let parsed = Self.parse(text)
        let row = try #require(parsed.rows.first)
        // The group's Status is not the row's: the row's Status (F) is its Pass/Fail.
        #expect(row.values.result == .fail && row.values.visual == .fail && row.values.insulationMOhm == "0.4")
        #expect(row.values.authenticated && row.line == 2)
        #expect(row.testerSaid[.insulation] == .fail)
    }

    @Test func aDataRowIsNeverTakenForASecondHeader() {
        let parsed = Self.parse("""
            Asset Id,Test Date,Pass/Fail,Person,Comments
            Asset No,date,P,A,moved
            Asset Id,Test Date,Pass/Fail,Person
            T-2,2026-11-20,P,A

            """)
        #expect(parsed.problems.contains { $0.description.hasPrefix("line 2, Test Date:") }, "\(parsed.problems)")
        #expect(parsed.rows.map(\.assetTag) == ["T-2"])
    }

    @Test func aBrokenGroupAnUnknownColumnAndAMissingOneAreNamed() {
        let broken = Self.problems("Asset Id,Test Date,Pass/Fail,Person,Test,Result,Status\nT-1,2026-11-20,P,A,V,P,P\n")
        #expect(broken.contains { $0.contains("column 5 starts a Test group") }, "\(broken)")
        let unknown = Self.problems("Asset Id,Test Date,Pass/Fail,Person,Colour\nT-1,2026-11-20,P,A,red\n")
        #expect(unknown.contains { $0.contains("unknown column 'Colour'") }, "\(unknown)")
        let missing = Self.problems("Asset Id,Test Date,Person\nT-1,2026-11-20,A\n")
        #expect(missing.contains { $0.contains("missing column 'Pass/Fail'") }, "\(missing)")
    }

    @Test func anInformationRowAValueUnderNoNameAndAWrongDateAreRefusedByLine() {
        let found = Self.problems("""
            Asset Id,Test Date,Pass/Fail,Person,,
            T-1,2026-11-20,I,A,,
            T-2,20/11/2026,P,A,,
            T-3,2026-11-20,P,A,,oops

            """)
        #expect(found.contains("line 2, Pass/Fail: an Information row records no test; leave it out of the file"),
                "\(found)")
        #expect(found.contains { $0.hasPrefix("line 3, Test Date:") && $0.contains("DD/MM/YYYY, pass --date-format") },
                "\(found)")
        #expect(found.contains("line 4, column 6: a value under a column with no name in the header"), "\(found)")
    }

    @Test func testNamesAndUnitsAreReadAsTestersWriteThem() {
        #expect(TesterReading.named("Earth Bond")?.field == .earthContinuity)
        #expect(TesterReading.named("INSULATION-RESISTANCE")?.field == .insulation)
        #expect(TesterReading.named("Touch current")?.field == .leakage)
        #expect(TesterReading.named("RCD (x1)")?.field == .rcdTripTime)
        #expect(TesterReading.named("Flash") == nil)
        #expect(TesterReading.named("RCD Push Button")?.field == .rcdPushButton)
        #expect(TesterReading.unit(" \u{2126} ") == "Ω")
    }

    @Test func anOverRangeInsulationIsALowerBound() {
        #expect(TestGate.overRange(">99") == 99 && TestGate.overRange("> 299") == 299)
        #expect(TestGate.overRange("99") == nil && TestGate.overRange(">x") == nil)
        var v = TestValues.classI(insulation: ">99")
        let context = TestGate.Context(assetUUID: UUID(), equipmentClass: .classI,
                                       today: CalendarDate(iso: "2026-11-30")!, sessionID: "s")
        let passed = TestGate.evaluate(v, context)
        #expect(passed.problems.isEmpty && passed.result == .pass)
        #expect(passed.verdicts.contains { $0.text == "over 99 within ≥ 1 MΩ" })
        v.insulationMOhm = ">0.5"
        #expect(TestGate.evaluate(v, context).problems.contains { $0.field == .insulation })
        v.insulationMOhm = "50"
        v.earthContinuityOhm = ">1"
        #expect(TestGate.evaluate(v, context).problems.contains {
            $0.field == .earthContinuity && $0.message.contains("Only an insulation reading")
        })
    }
}
