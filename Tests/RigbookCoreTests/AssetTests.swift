import Foundation
import Testing
@testable import RigbookCore

@Suite("Asset.problems()")
struct AssetProblemsTests {
    @Test("the sample asset is valid")
    func valid() {
        #expect(sampleAsset().problems().isEmpty)
        #expect(sampleAsset(commissioned: "2025-01-01", intervalMonths: 6).problems().isEmpty)
    }

    @Test("working load limit must be more than 0 kg",
          arguments: [0.0, -0.0, -1, -0.001, -2000, .nan, .infinity, -.infinity])
    func wllRefused(_ wll: Double) {
        var asset = sampleAsset()
        asset.wllKg = wll
        let problems = asset.problems()
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.contains { $0.contains("working load limit") })
    }

    @Test("working load limits from 10 g to 100,000 t are accepted", arguments: [0.01, 1, 500, 2000, 50_000, 1e8])
    func wllAccepted(_ wll: Double) {
        var asset = sampleAsset()
        asset.wllKg = wll
        #expect(asset.problems().isEmpty)
    }

    @Test("a working load limit outside 10 g to 100,000 t is refused, and shown without trapping",
          arguments: [0.001, 1e-7, 1.0000001e8, 1e22, 1e308])
    func wllOutOfRange(_ wll: Double) {
        var asset = sampleAsset()
        asset.wllKg = wll
        let problems = asset.problems()
        #expect(problems.count == 1 && problems[0].contains("between 0.01 kg and 100000 t"), "\(problems)")
        #expect(Asset.wllText(wll).hasSuffix(" kg") || Asset.wllText(wll).hasSuffix(" t"))
    }

    @Test("interval outside 1–60 months is refused", arguments: [0, 61, -1, -6, 120, Int.max, Int.min])
    func intervalRefused(_ months: Int) {
        let problems = sampleAsset(intervalMonths: months).problems()
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.contains { $0.contains("interval") })
    }

    @Test("interval 1–60 months is accepted", arguments: [1, 2, 6, 12, 24, 59, 60])
    func intervalAccepted(_ months: Int) {
        #expect(sampleAsset(intervalMonths: months).problems().isEmpty)
    }

    enum Field: String, CaseIterable, Sendable { case tag, name, location, manufacturer, serialNumber }

    static func setting(_ field: Field, to text: String) -> Asset {
        var asset = sampleAsset()
        switch field {
        case .tag: asset.tag = text
        case .name: asset.name = text
        case .location: asset.location = text
        case .manufacturer: asset.manufacturer = text
        case .serialNumber: asset.serialNumber = text
        }
        return asset
    }

    static let controlTexts: [Text] = ["SL\u{1B}[31m-1", "a\nb", "a\rb", "tab\there", "\u{00}", "x\u{07}", "x\u{7F}",
                               "x\u{85}", "x\u{9B}31m", "x\u{9F}"]

    @Test("control characters are refused in every text field", arguments: Field.allCases, controlTexts)
    func controlRefused(_ field: Field, _ text: Text) {
        let problems = Self.setting(field, to: text.value).problems()
        #expect(!problems.isEmpty)
        #expect(problems.contains { $0.contains("control characters") }, "\(field): \(problems)")
    }

    @Test("ordinary Unicode text is accepted in every text field",
          arguments: Field.allCases, ["SL-0042", "Grue à chaîne", "吊带 2t", "Ø 16 mm — 3×", "🙂", "a b"])
    func unicodeAccepted(_ field: Field, _ text: String) {
        #expect(Self.setting(field, to: text).problems().isEmpty)
    }

    @Test("empty optional text fields are accepted", arguments: [Field.location, .manufacturer, .serialNumber])
    func emptyOptionalAccepted(_ field: Field) {
        #expect(Self.setting(field, to: "").problems().isEmpty)
    }

    @Test("empty or blank tag is refused", arguments: ["", " ", "   ", "\u{3000}"])
    func emptyTagRefused(_ tag: String) {
        let problems = Self.setting(.tag, to: tag).problems()
        #expect(problems.contains { $0.contains("tag must not be empty") }, "\(problems)")
    }

    @Test("a tag with spaces at the ends is refused", arguments: [" SL-1", "SL-1 ", " SL-1 "])
    func paddedTagRefused(_ tag: String) {
        let problems = Self.setting(.tag, to: tag).problems()
        #expect(problems.count == 1, "\(problems)")
    }

    @Test("empty or blank name is refused", arguments: ["", " ", "    "])
    func emptyNameRefused(_ name: String) {
        let problems = Self.setting(.name, to: name).problems()
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.contains { $0.contains("name must not be empty") })
    }

    @Test("text is bounded at 200 characters", arguments: Field.allCases)
    func lengthBound(_ field: Field) {
        #expect(Self.setting(field, to: String(repeating: "x", count: 200)).problems().isEmpty)
        #expect(Self.setting(field, to: String(repeating: "吊", count: 200)).problems().isEmpty)
        let long = Self.setting(field, to: String(repeating: "x", count: 201)).problems()
        #expect(long.count == 1, "\(long)")
        #expect(long.contains { $0.contains("longer than 200") })
    }

    @Test("length, when given, must be more than 0 m",
          arguments: [(nil, true), (0.5, true), (3, true), (0, false),
                      (-1, false), (.nan, false), (.infinity, false)] as [(Double?, Bool)])
    func length(_ length: Double?, _ accepted: Bool) {
        var asset = sampleAsset()
        asset.lengthM = length
        #expect(asset.problems().isEmpty == accepted)
    }

    @Test("commission date may not be before the date of manufacture",
          arguments: [("2025-01-01", "2024-12-31", false), ("2025-01-01", "2025-01-01", true),
                      ("2025-01-01", "2025-01-02", true), ("2025-01-01", nil, true)] as [(String, String?, Bool)])
    func commissionAfterManufacture(_ made: String, _ commissioned: String?, _ accepted: Bool) {
        var asset = sampleAsset(commissioned: commissioned)
        asset.manufactured = day(made)
        #expect(asset.problems().isEmpty == accepted)
    }

    @Test("several problems are all reported")
    func allProblems() {
        var asset = sampleAsset(intervalMonths: 0)
        asset.tag = ""
        asset.name = ""
        asset.wllKg = 0
        #expect(asset.problems().count == 4)
    }
}

@Suite("EquipmentType")
struct EquipmentTypeTests {
    static let expectedIntervals: [(EquipmentType, Int)] = [
        (.webSling, 6), (.roundSling, 6), (.chainSling, 6), (.wireRopeSling, 6), (.shackle, 6), (.eyebolt, 6),
        (.hook, 6), (.spreaderBeam, 6), (.chainBlock, 12), (.leverHoist, 12), (.beamClamp, 12), (.other, 12),
    ]

    @Test("the twelve types of SPEC §3")
    func twelveTypes() {
        #expect(EquipmentType.allCases.count == 12)
        #expect(Set(Self.expectedIntervals.map(\.0)) == Set(EquipmentType.allCases))
    }

    @Test("default interval: 6 months for accessories, 12 otherwise", arguments: expectedIntervals)
    func defaultInterval(_ type: EquipmentType, _ months: Int) {
        #expect(type.defaultIntervalMonths(liftsPersons: false) == months)
        #expect(type.isAccessory == (months == 6))
    }

    @Test("default interval: 6 months for anything that lifts persons", arguments: EquipmentType.allCases)
    func liftsPersons(_ type: EquipmentType) {
        #expect(type.defaultIntervalMonths(liftsPersons: true) == 6)
        #expect(Asset.intervalRange.contains(type.defaultIntervalMonths(liftsPersons: false)))
    }

    @Test("raw values are the command-line spellings", arguments: [
        (EquipmentType.webSling, "web-sling"), (.wireRopeSling, "wire-rope-sling"), (.shackle, "shackle"),
        (.chainBlock, "chain-block"), (.spreaderBeam, "spreader-beam"), (.other, "other"),
    ])
    func rawValues(_ type: EquipmentType, _ raw: String) {
        #expect(type.rawValue == raw)
        #expect(EquipmentType(rawValue: raw) == type)
    }
}

@Suite("TextRules")
struct TextRulesTests {
    @Test("control characters are removed; newlines only kept when asked", arguments: [
        ("plain", "plain", "plain"),
        ("", "", ""),
        ("a\nb", "ab", "a\nb"),
        ("a\r\nb", "ab", "a\nb"),
        ("\u{1B}[31mred\u{1B}[0m", "[31mred[0m", "[31mred[0m"),
        ("tab\tstop", "tabstop", "tabstop"),
        ("bell\u{07}\u{00}\u{7F}", "bell", "bell"),
        ("c1\u{85}\u{9B}\u{9F}", "c1", "c1"),
        ("line1\nline2\n", "line1line2", "line1\nline2\n"),
        ("é 吊带 🙂 \u{A0}", "é 吊带 🙂 \u{A0}", "é 吊带 🙂 \u{A0}"),
    ] as [(Text, Text, Text)])
    func removing(_ inputText: Text, _ withoutNewlines: Text, _ withNewlines: Text) {
        let input = inputText.value, withoutNewlines = withoutNewlines.value, withNewlines = withNewlines.value
        #expect(TextRules.removingControlCharacters(input) == withoutNewlines)
        #expect(TextRules.removingControlCharacters(input, keepingNewlines: false) == withoutNewlines)
        #expect(TextRules.removingControlCharacters(input, keepingNewlines: true) == withNewlines)
        // What is left holds no control character.
        #expect(!TextRules.containsControlCharacters(TextRules.removingControlCharacters(input)))
        #expect(!TextRules.containsControlCharacters(TextRules.removingControlCharacters(input, keepingNewlines: true),
                                                     allowingNewlines: true))
    }

    @Test("detecting control characters", arguments: [
        ("plain", false, false),
        ("", false, false),
        ("a\nb", true, false),
        ("a\r\nb", true, true),
        ("a\rb", true, true),
        ("\u{1B}", true, true),
        ("\u{7F}", true, true),
        ("\u{9F}", true, true),
        ("\u{A0}", false, false),
        ("é 吊带 🙂", false, false),
    ] as [(Text, Bool, Bool)])
    func detecting(_ inputText: Text, _ contains: Bool, _ containsAllowingNewlines: Bool) {
        let input = inputText.value
        #expect(TextRules.containsControlCharacters(input) == contains)
        #expect(TextRules.containsControlCharacters(input, allowingNewlines: true) == containsAllowingNewlines)
    }

    @Test("C0, DEL and C1 are control; their neighbours are not",
          arguments: [(0x00, true), (0x0A, true), (0x1F, true), (0x20, false), (0x7E, false), (0x7F, true),
                      (0x80, true), (0x9F, true), (0xA0, false), (0x3000, false)])
    func isControl(_ value: UInt32, _ control: Bool) {
        #expect(TextRules.isControl(Unicode.Scalar(value)!) == control)
    }
}

/// LOLER reg 9(3): at most 6 months between thorough examinations for lifting accessories and anything
/// that lifts persons, 12 for other lifting equipment, unless an examination scheme sets the interval.
@Suite("Asset: intervals longer than LOLER reg 9(3) allows")
struct LOLERIntervalTests {
    static func asset(_ type: EquipmentType, _ months: Int, liftsPersons: Bool = false,
                      scheme: String = "") -> Asset {
        Asset(tag: "T-1", name: "Thing", type: type, wllKg: 1000, intervalMonths: months, liftsPersons: liftsPersons,
              examinationScheme: scheme)
    }

    @Test("the maximum without a scheme", arguments: [
        (EquipmentType.webSling, false, 6), (.shackle, false, 6), (.spreaderBeam, false, 6), (.chainBlock, false, 12),
        (.leverHoist, false, 12), (.beamClamp, false, 12), (.other, false, 12), (.chainBlock, true, 6),
        (.other, true, 6),
    ])
    func maximum(_ type: EquipmentType, _ liftsPersons: Bool, _ months: Int) {
        #expect(Self.asset(type, 1, liftsPersons: liftsPersons).lolerMaximumIntervalMonths == months)
    }

    @Test("a longer interval without a scheme is flagged, and a new asset is refused naming the regulation",
          arguments: [(EquipmentType.webSling, 7, false), (.hook, 12, false), (.chainBlock, 13, false),
                      (.chainBlock, 7, true), (.other, 24, false)])
    func exceeds(_ type: EquipmentType, _ months: Int, _ liftsPersons: Bool) throws {
        let asset = Self.asset(type, months, liftsPersons: liftsPersons)
        #expect(asset.intervalExceedsLOLER)
        #expect(asset.problems().isEmpty, "data the register may hold: flagged, not invalid")
        let refusal = try #require(asset.admissionProblems().first)
        #expect(refusal.field == .examinationScheme)
        #expect(refusal.message.contains("LOLER regulation 9(3)"), "\(refusal.message)")
        #expect(refusal.message.contains("\(asset.lolerMaximumIntervalMonths) months"), "\(refusal.message)")
        #expect(asset.admissionProblems().count == 1)
    }

    @Test("the sentence names what the limit is for")
    func sentence() {
        #expect(Self.asset(.webSling, 12).intervalProblem == "LOLER regulation 9(3) allows at most 6 months "
                + "between thorough examinations of a lifting accessory unless an examination scheme sets the "
                + "interval: enter the scheme reference, or an interval of 6 months or less (not 12).")
        #expect(Self.asset(.chainBlock, 12, liftsPersons: true).intervalProblem?
                    .contains("at most 6 months between thorough examinations of equipment that lifts persons") == true)
        #expect(Self.asset(.chainBlock, 18).intervalProblem?
                    .contains("at most 12 months between thorough examinations of other lifting equipment") == true)
    }

    @Test("an examination scheme reference makes the longer interval lawful")
    func withScheme() {
        let asset = Self.asset(.webSling, 12, scheme: "ES-2026-07 (Acme Inspection)")
        #expect(!asset.intervalExceedsLOLER)
        #expect(asset.intervalProblem == nil)
        #expect(asset.admissionProblems().isEmpty)
        #expect(Self.asset(.webSling, 12, scheme: "   ").intervalExceedsLOLER, "blank is no scheme")
    }

    @Test("intervals within the limit need no scheme", arguments: [(EquipmentType.webSling, 6), (.chainBlock, 12),
                                                                    (.hook, 1), (.leverHoist, 3)])
    func within(_ type: EquipmentType, _ months: Int) {
        #expect(!Self.asset(type, months).intervalExceedsLOLER)
        #expect(Self.asset(type, months).admissionProblems().isEmpty)
    }

    @Test("the scheme reference is text like the others: no control characters, at most 200 characters")
    func schemeText() {
        #expect(Self.asset(.webSling, 12, scheme: "ES\u{1B}[31m").problems() == [
            "The examination scheme reference holds control characters."])
        #expect(Self.asset(.webSling, 6, scheme: String(repeating: "s", count: 201)).problems() == [
            "The examination scheme reference is longer than 200 characters."])
    }

    @Test("the add screen's draft refuses the same, under the scheme field, and carries the scheme")
    func draft() throws {
        var draft = AssetDraft()
        draft.tag = "SL-1"
        draft.name = "Web sling"
        draft.wllKg = "1000"
        draft.intervalMonths = "12"
        guard case .failure(let problems) = draft.validated(today: CalendarDate(iso: "2026-11-30")!) else {
            Issue.record("a 12-month sling without a scheme was accepted")
            return
        }
        #expect(problems.items.map(\.0) == [.examinationScheme])
        #expect(problems.items.first?.1.contains("LOLER regulation 9(3)") == true)
        draft.examinationScheme = " ES-7 "
        let asset = try draft.validated(today: CalendarDate(iso: "2026-11-30")!).get()
        #expect(asset.examinationScheme == "ES-7")
        #expect(asset.intervalMonths == 12)
    }

    @Test("a comma or a space in the working load limit or length is refused by name, never read as another number",
          arguments: [("1,5", "6"), ("1 000", "6"), ("1000", "1,5"), ("1000", "2 5")])
    func separatorsInNumbers(wll: String, length: String) {
        guard let problems = assetDraftProblems(wll: wll, length: length) else { return }
        let field: AssetDraft.Field = wll.contains(where: { $0 == "," || $0 == " " }) ? .wll : .length
        #expect(problems.items.contains { $0.0 == field && $0.1.contains("decimal point as “.”") },
                "\(problems.items)")
    }
}
