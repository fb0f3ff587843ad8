import Foundation
import Testing
@testable import RigbookCore

/// Electrical assets, their AS/NZS 3760 interval table and its override.
@Suite("Electrical assets")
struct ElectricalAssetTests {
    static let today = CalendarDate(year: 2026, month: 11, day: 30)!

    /// AS/NZS 3760 Table 4 as SPEC §12 lists it, row by row: environment, months, months at high risk.
    static let table: [(ElectricalEnvironment, Int, Int)] = [
        (.construction, 3, 1),
        (.hire, 3, 1),
        (.factory, 6, 3),
        (.cleaning, 6, 3),
        (.hostile, 12, 6),
        (.healthCare, 12, 6),
        (.residential, 24, 12),
        (.nonHostile, 60, 30),
    ]

    @Test("the interval table, row by row, and high risk halving it (never below a month)",
          arguments: table)
    func intervalRow(_ row: (ElectricalEnvironment, Int, Int)) {
        let (environment, normal, high) = row
        #expect(environment.intervalMonths == normal)
        #expect(ElectricalParticulars.intervalMonths(environment, .normal) == normal)
        #expect(ElectricalParticulars.intervalMonths(environment, .high) == high)
        let asset = Asset.electrical(tag: "TT-1", name: "Drill",
                                     particulars: ElectricalParticulars(equipmentClass: .classI,
                                                                        environment: environment))
        #expect(asset.intervalMonths == normal, "a new asset takes the table's interval")
        #expect(asset.admissionProblems(today: Self.today).isEmpty)
    }

    @Test("every environment is in the table once")
    func tableIsComplete() {
        #expect(Self.table.map(\.0) == ElectricalEnvironment.allCases)
    }

    @Test("readings by class: earth for Class I, cord and extension sets; polarity for the sets; RCD tests",
          arguments: [
            (ElectricalClass.classI, true, false, false),
            (.classII, false, false, false),
            (.cordSet, true, true, false),
            (.extensionSet, true, true, false),
            (.portableRCD, false, false, true),
            (.other, false, false, false),
          ])
    func readingsByClass(_ row: (ElectricalClass, Bool, Bool, Bool)) {
        #expect(row.0.needsEarthContinuity == row.1)
        #expect(row.0.needsPolarity == row.2)
        #expect(row.0.isRCD == row.3)
    }

    @Test("another interval than the table's needs a reason")
    func overrideNeedsReason() {
        var particulars = ElectricalParticulars(equipmentClass: .extensionSet, environment: .factory)
        var asset = Asset.electrical(tag: "TT-2", name: "Lead", particulars: particulars, intervalMonths: 3)
        let problems = asset.admissionProblems(today: Self.today)
        #expect(problems.map(\.field) == [.intervalReason])
        #expect(problems.first?.message.contains("AS/NZS 3760 gives 6 months") == true)
        particulars.intervalReason = "client's policy: quarterly"
        asset.electrical = particulars
        #expect(asset.admissionProblems(today: Self.today).isEmpty)
    }

    @Test("an electrical asset has no WLL; LOLER's interval rule does not apply to it")
    func noWLL() {
        var asset = Asset.electrical(tag: "TT-3", name: "Office PC",
                                     particulars: ElectricalParticulars(equipmentClass: .classI,
                                                                        environment: .nonHostile))
        #expect(asset.intervalMonths == 60 && !asset.intervalExceedsLOLER && asset.intervalProblem == nil)
        #expect(asset.problems().isEmpty)
        asset.wllKg = 500
        #expect(asset.fieldProblems().map(\.field) == [.wll])
        #expect(asset.typeLabel == "Class I" && asset.kind == .electrical)
    }

    @Test("the add screen's draft makes an electrical asset; an empty interval is the table's")
    func draftMakesElectricalAsset() throws {
        var draft = AssetDraft(kind: .electrical)
        draft.tag = "TT-4"
        draft.name = "Kettle"
        draft.location = "Site office"
        draft.equipmentClass = .classI
        draft.environment = .healthCare
        draft.risk = .high
        let asset = try draft.validated(today: Self.today).get()
        #expect(asset.intervalMonths == 6 && asset.location == "Site office")
        #expect(asset.electrical == ElectricalParticulars(equipmentClass: .classI, environment: .healthCare,
                                                          risk: .high))
        // The draft file round-trips the electrical fields; a lifting draft writes none of them.
        let data = try JSONEncoder().encode(draft)
        #expect(try JSONDecoder().decode(AssetDraft.self, from: data) == draft)
        let lifting = String(decoding: try JSONEncoder().encode(AssetDraft()), as: UTF8.self)
        #expect(!lifting.contains("equipment_class"))
    }

    @Test("an edit may not change the kind; an edit of the environment with another interval needs a reason")
    func editRules() {
        let original = Asset.electrical(tag: "TT-5", name: "Grinder",
                                        particulars: ElectricalParticulars(equipmentClass: .classI,
                                                                           environment: .construction))
        var edited = original
        edited.electrical?.environment = .factory
        #expect(edited.editProblems(from: original, today: Self.today).map(\.field) == [.intervalReason])
        edited.intervalMonths = 6
        #expect(edited.editProblems(from: original, today: Self.today).isEmpty)
        var lifting = edited
        lifting.electrical = nil
        lifting.wllKg = 100
        #expect(lifting.editProblems(from: original, today: Self.today).map(\.field).contains(.kind))
        #expect(AssetField.differences(from: original, to: edited) == [.intervalMonths, .environment])
    }

    @Test("import: a kind column brings electrical rows, checked as asset add checks them")
    func importsElectricalRows() throws {
        let text = "tag,name,kind,equipment_class,environment,risk,interval_months,interval_reason,location\n"
            + "TT-6,Drill,electrical,Class I,construction,,,,Quay\n"
            + "TT-7,Lead,electrical,extension-set,factory,high,,,\n"
            + "TT-8,Heater,electrical,class-2,hostile,,6,cold store,\n"
        let rows = try AssetImport.parse(text, today: Self.today).get()
        #expect(rows.map(\.asset.intervalMonths) == [3, 3, 6])
        #expect(rows.map { $0.asset.electrical?.equipmentClass } == [.classI, .extensionSet, .classII])
        #expect(rows[0].asset.location == "Quay")
        let bad = "tag,name,kind,equipment_class,environment,interval_months\nTT-9,x,electrical,toaster,office,2\n"
        guard case .failure(let problems) = AssetImport.parse(bad, today: Self.today) else {
            Issue.record("accepted a bad row"); return
        }
        #expect(problems.items.map(\.column) == ["equipment_class", "environment", "interval_reason"])
    }
}
