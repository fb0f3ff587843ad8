import Foundation
import RigbookCore

/// The sample's electrical items (TagWorks' test and tag, SPEC §12): every class, the environments of AS/NZS 3760
/// Table 4, and tests made through the test gate with readings a technician would take. The first four items show
/// each story a newcomer should meet (a failed test, one due soon, one overdue, one never tested); the rest are
/// drawn, mostly passing, some with a failed test put right by a retest.
extension SampleData {
    /// About one asset in five.
    public static func electricalCount(of count: Int) -> Int { count / 5 }

    /// Mixed into the seed for the electrical items' own generator.
    static let electricalSeed: UInt64 = 0x7E57_A11D_7A66_0001

    /// What an electrical item's history shows.
    enum TestStory: CaseIterable {
        case failedLast, dueSoon, overdue, neverTested, passing

        /// The stories of the first items, one each, so even a small sample holds them.
        static let shownFirst: [TestStory] = [.failedLast, .dueSoon, .overdue, .neverTested]
    }

    private static let prefixes: [ElectricalClass: String] = [
        .classI: "PT", .classII: "DI", .cordSet: "CD", .extensionSet: "EL", .portableRCD: "RC", .other: "EQ",
    ]
    private static let names: [ElectricalClass: [String]] = [
        .classI: ["Angle grinder 230 V", "Bench drill", "Pressure washer", "Heat gun", "Kettle", "Floor scrubber"],
        .classII: ["Cordless drill charger", "Jigsaw", "Laptop power supply", "Desk fan", "Hammer drill"],
        .cordSet: ["IEC power cord 2 m", "Kettle lead 1.8 m"],
        .extensionSet: ["Extension lead 10 m", "Cable reel 25 m", "Four-way power board"],
        .portableRCD: ["Portable RCD 30 mA", "RCD adaptor plug"],
        .other: ["Site transformer 110 V", "Battery charger 24 V"],
    ]
    /// Workshops and sites most, offices and kitchens some, as a lifting company's electrical gear is.
    private static let environments: [ElectricalEnvironment] = [
        .factory, .factory, .factory, .construction, .construction, .hostile, .hire, .cleaning, .healthCare,
        .nonHostile, .residential,
    ]
    private static let technicians: [(String, String)] = [
        ("Ana Reyes", "EW-284113"), ("Sam Whitford", "TT-40721"), ("李明", "EL-2021-0388"),
    ]
    /// The technicians, who sign their tests with sample keys.
    static var technicianNames: [String] { technicians.map(\.0) }
    private static let instruments: [(String, String)] = [("Seaward PrimeTest 250+", "PT250-1187"),
                                                          ("Megger PAT420", "PAT420-0934")]

    func makeElectricalItem(number: Int, index: Int, random: inout SplitMix64)
        -> (asset: Asset, records: [ValidatedInspection], tests: [ValidatedTest]) {
        let equipmentClass = ElectricalClass.allCases[index % ElectricalClass.allCases.count]
        let names = Self.names[equipmentClass]!
        let particulars = ElectricalParticulars(
            equipmentClass: equipmentClass, environment: Self.environments[random.below(Self.environments.count)],
            risk: random.chance(0.1) ? .high : .normal)
        let interval = particulars.tableIntervalMonths
        let story = index < TestStory.shownFirst.count ? TestStory.shownFirst[index] : drawnStory(&random)
        // The last test's day: what the story asks of the due date (month ends move it by three days at most).
        let window = StatusRules.dueSoonWindow(intervalMonths: interval)
        let lastTest: CalendarDate = switch story {
        case .dueSoon: today.addingDays(4 + random.below(max(1, window - 4))).addingMonths(-interval)
        case .overdue: today.addingDays(-5 - random.below(40)).addingMonths(-interval)
        case .failedLast: today.addingDays(-3 - random.below(40))
        case .passing, .neverTested: today.addingDays(-random.below(max(1, interval * 30 - 5)))
        }
        // Earlier tests an interval apart, anchored on the last (never chained): a few years of them at most.
        let earlier = random.below(max(1, min(4, 36 / interval)) + 1)
        let dates = (0...earlier).reversed().map { lastTest.addingMonths(-interval * $0) }
        let commissioned = story == .neverTested ? nil : dates[0]
        var asset = Asset.electrical(uuid: random.uuid(), tag: tag(Self.prefixes[equipmentClass]!, number),
                                     name: names[random.below(names.count)],
                                     site: Self.locations[random.below(Self.locations.count)],
                                     particulars: particulars, commissioned: commissioned)
        asset.serialNumber = "SN\(100_000 + random.below(900_000))"
        guard story != .neverTested else { return (asset, [], []) }
        // One earlier periodic test in ten failed and was put right: a retest some days later passed.
        let failedEarlier = dates.count > 2 && random.chance(0.1) ? 1 + random.below(dates.count - 2) : nil
        var tests: [ValidatedTest] = []
        for (position, date) in dates.enumerated() {
            let type: TestType = position == 0 ? .initial : .periodic
            let fails = position == failedEarlier || (story == .failedLast && position == dates.count - 1)
            if let test = makeTest(asset, type, on: date, fails: fails, &random) { tests.append(test) }
            if position == failedEarlier, let retest = makeTest(asset, random.chance(0.5) ? .afterRepair : .retest,
                                                                on: date.addingDays(2 + random.below(8)), fails: false,
                                                                &random) {
                tests.append(retest)
            }
        }
        return (asset, [], tests)
    }

    private func drawnStory(_ random: inout SplitMix64) -> TestStory {
        let roll = random.below(100)
        return roll < 5 ? .failedLast : roll < 12 ? .overdue : roll < 15 ? .neverTested : .passing
    }

    /// One test as a technician types it, judged by the test gate; a failing one with what failed and what was done.
    private func makeTest(_ asset: Asset, _ type: TestType, on date: CalendarDate, fails: Bool,
                          _ random: inout SplitMix64) -> ValidatedTest? {
        let equipmentClass = asset.electrical?.equipmentClass ?? .other
        let (technician, licence) = Self.technicians[random.below(Self.technicians.count)]
        let (model, serial) = Self.instruments[random.below(Self.instruments.count)]
        let profile = TestProfile(technician: technician, licenceNumber: licence, instrumentModel: model,
                                  instrumentSerial: serial, procedureReference: "AS/NZS 3760:2022",
                                  calibrationDate: date.addingDays(-random.below(330)).iso)
        var v = TestValues(prefill: profile, today: date, type: type)
        func reading(_ low: Double, _ high: Double) -> String {
            String(format: "%.2f", low + (high - low) * Double(random.below(1000)) / 1000)
        }
        v.visual = .pass
        if equipmentClass.needsEarthContinuity { v.earthContinuityOhm = reading(0.05, 0.6) }
        if !equipmentClass.isRCD { v.insulationMOhm = reading(20, 500) }
        if equipmentClass.needsPolarity { v.polarity = .pass }
        if equipmentClass == .classI || equipmentClass == .classII { v.loadCurrentA = reading(0.5, 9.5) }
        if equipmentClass.isRCD {
            v.rcdPushButton = .pass
            v.rcdTripTimeMs = reading(12, 38)
        }
        if fails {
            switch equipmentClass {
            case .classI, .cordSet, .extensionSet:
                v.earthContinuityOhm = reading(1.3, 3.5)
                v.notes = "Earth continuity high: earth pin loose in the plug. Tagged out of service (DANGER tag)."
            case .portableRCD:
                v.rcdTripTimeMs = reading(350, 600)
                v.notes = "Tripped too slowly at rated current. Withdrawn for replacement."
            case .classII, .other:
                v.visual = .fail
                v.notes = "Cord sheath cut near the plug, conductors visible. Tagged out of service (DANGER tag)."
            }
        }
        v.authenticated = true
        let context = TestGate.Context(
            assetUUID: asset.uuid, equipmentClass: equipmentClass, commissioned: asset.commissioned, today: today,
            sessionID: "sample-\(seed)-\(asset.uuid.lowercasedText)-test-\(type.rawValue)-\(date.iso)")
        return try? TestGate.validate(v, context).get()
    }
}
