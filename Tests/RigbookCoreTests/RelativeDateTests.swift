import Testing
import RigbookCore

/// Dates typed the quick way: `today`, `+14`, `+2w`, `+6m`, `+1y`, and their minus forms.
@Suite struct RelativeDateTests {
    static let base = CalendarDate(iso: "2026-08-31")!
    static let today = CalendarDate(iso: "2026-11-30")!

    @Test(arguments: [
        ("today", "2026-11-30"), ("TODAY", "2026-11-30"), (" today ", "2026-11-30"),
        ("+14", "2026-09-14"), ("+14d", "2026-09-14"), ("+0", "2026-08-31"), ("-1", "2026-08-30"),
        ("+2w", "2026-09-14"),
        // Months and years from the anchor, clamped to the month's end (31 Aug + 6 months = 28 Feb).
        ("+6m", "2027-02-28"), ("+1y", "2027-08-31"), ("+18M", "2028-02-29"), ("-6m", "2026-02-28"),
    ])
    func resolves(_ text: String, _ expected: String) {
        #expect(RelativeDate.resolve(text, from: RelativeDateTests.base, today: RelativeDateTests.today)?.iso
                == expected)
    }

    @Test(arguments: ["", "+", "-", "+6q", "+m", "6m", "2026-12-01", "+12345", "++1", "+1.5", "tomorrow"])
    func refuses(_ text: String) {
        #expect(RelativeDate.resolve(text, from: RelativeDateTests.base, today: RelativeDateTests.today) == nil)
    }

    @Test func whatCountsAsRelative() {
        #expect(RelativeDate.isRelative("+14") && RelativeDate.isRelative("today") && RelativeDate.isRelative("-1"))
        // A date being typed is not relative, nor is a lone minus.
        #expect(!RelativeDate.isRelative("2026-11") && !RelativeDate.isRelative("-") && !RelativeDate.isRelative(""))
    }

    @Test func theFieldTakesWhatItNeedsAndNothingElse() {
        for character in "0123456789-+todaywmyTODAYWMY" { #expect(RelativeDate.isAllowed(character)) }
        for character in "xq /.,:bé日" { #expect(!RelativeDate.isAllowed(character)) }
    }
}

/// Hostile testing: `+99999d` was called "not a real date", and `+9999y` became 9999-12-31 without a word.
extension RelativeDateTests {
    @Test(arguments: ["+99999d", "+99999", "-123456w", "+9999y", "-9999y", "+10000m"])
    func tooFarIsSaidToBeOutOfRange(_ text: String) {
        #expect(RelativeDate.resolve(text, from: Self.base, today: Self.today) == nil)
        let problem = RelativeDate.outOfRange(text, from: Self.base, today: Self.today)
        #expect(problem?.hasPrefix("“\(text)” is out of range") == true, "\(problem ?? "nil")")
    }

    @Test(arguments: ["+6q", "tomorrow", "2026-02-30", "+", "+14", "today"])
    func onlyTooFarIsOutOfRange(_ text: String) {
        #expect(RelativeDate.outOfRange(text, from: Self.base, today: Self.today) == nil)
    }

    @Test func theSaveGatesSayOutOfRange() {
        var draft = AssetDraft()
        draft.tag = "SL-1"
        draft.name = "Web sling"
        draft.wllKg = "1000"
        draft.intervalMonths = "6"
        draft.commissioned = "-99999d"
        guard case .failure(let problems) = draft.validated(today: Self.today) else {
            Issue.record("-99999d was taken as a commission date")
            return
        }
        #expect(problems.items.contains { $0.0 == .commissioned && $0.1.contains("is out of range") },
                "\(problems.items)")
    }
}
