import Testing
import RigbookCore

/// Numbers typed or imported are plain decimals (hostile testing: `Double(String)` took `0x10` as 16, `0x1p10` as
/// 1024, `1e400` as infinity, and `inf` and `nan` as numbers).
@Suite struct NumberTextTests {
    @Test(arguments: [("12", 12.0), ("0.5", 0.5), (".5", 0.5), ("5.", 5.0), (" 1000 ", 1000.0), ("-3", -3.0),
                      ("007", 7.0), ("+500", 500.0)])
    func takesPlainDecimals(_ text: String, _ value: Double) {
        #expect(NumberText.decimal(text) == value)
    }

    @Test(arguments: ["0x10", "0x1p10", "0X1A", "1e3", "1E-2", "1e400", "inf", "-inf", "infinity", "nan", "NaN",
                      "+-5", "1.2.3", ".", "-", "", "1_000", "٣", "１２", "5-", "--5"])
    func refusesEverythingElse(_ text: String) {
        #expect(NumberText.decimal(text) == nil, "\(text) was taken as \(NumberText.decimal(text) ?? 0)")
    }

    @Test func sayWhatIsExpected() {
        #expect(NumberText.problem("0x10") == "“0x10” is not a number: write digits with “.” as the decimal point "
                + "(1000, 0.5).")
        #expect(NumberText.problem("0x1p10", what: "a reading").hasPrefix("“0x1p10” is not a reading: write digits"))
        #expect(NumberText.problem("1,5").contains("“,” is not part of a number"))
        #expect(NumberText.problem(String(repeating: "9", count: 400)).hasSuffix("is too large to be a number."))
    }

    @Test("the asset form and a CSV import refuse a hexadecimal WLL or length by name",
          arguments: [("0x10", "2"), ("1e3", "2"), ("inf", "2"), ("1000", "0x1p1"), ("1000", "nan")])
    func assetFields(wll: String, length: String) {
        guard let problems = assetDraftProblems(wll: wll, length: length) else { return }
        let field: AssetDraft.Field = NumberText.decimal(wll) == nil ? .wll : .length
        #expect(problems.items.contains { $0.0 == field && $0.1.contains("write digits with “.”") },
                "\(problems.items)")
    }

    @Test("a CSV import refuses a hexadecimal WLL with the line and column")
    func importRefusesHex() {
        let csv = "tag,name,type,wll_kg\r\nSL-1,Sling,web-sling,0x10\r\n"
        let result = AssetImport.parse(csv, today: CalendarDate(iso: "2026-11-30")!)
        guard case .failure(let problems) = result else {
            Issue.record("0x10 was imported: \(result)")
            return
        }
        #expect(problems.items.contains { $0.description.contains("“0x10” is not a number") }, "\(problems)")
    }

    @Test("limits in Settings are plain decimals too")
    func limits() {
        let limits = TestLimits.defaults.setting(.insulationMinMOhm, to: "0x1")
        #expect(limits.problems.contains { $0.field == .insulationMinMOhm }, "0x1 was taken as a limit")
    }
}

extension TestGateTests {
    @Test("a reading in hexadecimal, with an exponent, or inf is refused, never judged",
          arguments: ["0x10", "1e400", "inf", "nan", "0x1p-2"])
    func nonDecimalReadingsRefused(_ text: String) {
        var v = Self.passing()
        v.insulationMOhm = text
        let evaluation = TestGate.evaluate(v, Self.context(.classI))
        let problem = evaluation.problems.first { $0.field == .insulation }
        #expect(problem?.message.contains("is not a reading: write digits") == true, "\(evaluation.problems)")
        #expect(!evaluation.verdicts.contains { $0.field == .insulation && $0.outcome == .pass })
    }
}
