import Testing
import RigbookCore

@Suite struct ElapsedTests {
    @Test(arguments: [
        (0.0, "0 s"), (-5, "0 s"), (59.9, "59 s"), (60, "1 min"), (3599, "59 min"), (3600, "1 h"),
        (86_399, "23 h"), (86_400, "1 day"), (2 * 86_400 + 5, "2 days"),
    ] as [(Double, String)])
    func readsAsAPersonWouldSayIt(_ seconds: Double, _ expected: String) {
        #expect(Elapsed.text(seconds) == expected)
    }
}
