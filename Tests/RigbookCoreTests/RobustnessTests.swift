import Testing
@testable import RigbookCore

/// Status must be computable for every asset that `Asset.problems()` lets into the register: one
/// asset whose evaluation traps would bring down every list, export and `rigbook due`.
/// These run in a child process (exit tests) so a trap fails one test instead of the whole run.
@Suite("Robustness at the edges of the calendar")
struct RobustnessTests {
    @Test("an accepted asset commissioned in 9999 does not crash the status rules")
    func commissionedAtTheEndOfTheCalendar() async {
        await #expect(processExitsWith: .success) {
            let asset = Asset(tag: "SL-9999", name: "Far-future sling", type: .webSling, wllKg: 1000,
                              commissioned: CalendarDate(year: 9999, month: 12, day: 31), intervalMonths: 1)
            // Either the asset is refused, or its status can be computed.
            if asset.problems().isEmpty {
                _ = StatusRules.evaluate(asset: asset, history: [],
                                         today: CalendarDate(year: 2026, month: 1, day: 1)!)
            }
        }
    }

    @Test("an accepted asset with a 60-month interval commissioned in late 9995 does not crash")
    func sixtyMonthsPastTheCalendar() async {
        await #expect(processExitsWith: .success) {
            let asset = Asset(tag: "SL-9995", name: "Far-future hoist", type: .chainBlock, wllKg: 1000,
                              commissioned: CalendarDate(year: 9995, month: 6, day: 1), intervalMonths: 60)
            if asset.problems().isEmpty {
                _ = StatusRules.evaluate(asset: asset, history: [],
                                         today: CalendarDate(year: 2026, month: 1, day: 1)!)
            }
        }
    }

    @Test("ordinary far dates still work",
          arguments: [("9994-12-31", 60, "9999-12-31"), ("9999-07-31", 5, "9999-12-31")])
    func farButFine(_ anchor: String, _ months: Int, _ due: String) {
        #expect(day(anchor).addingMonths(months) == day(due))
    }
}
