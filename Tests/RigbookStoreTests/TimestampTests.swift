import Foundation
import Testing
@testable import RigbookStore

/// `Timestamp.now()` writes the clock by hand: it must read back, and be written again, as Foundation's
/// ISO 8601 style writes a timestamp.
@Suite struct TimestampTests {
    @Test func nowIsWhatFoundationWouldWrite() throws {
        for _ in 0..<50 {
            let before = Date()
            let now = Timestamp.now()
            let after = Date()
            #expect(now.utf8.count == 24, "\(now)")
            let parsed = try #require(Timestamp.parse(now), "\(now) does not parse")
            // Foundation's own round trip may come back a millisecond early (its dates are binary fractions).
            let again = Timestamp.string(parsed)
            #expect(again == now || Timestamp.string(parsed.addingTimeInterval(0.0005)) == now, "\(again) \(now)")
            #expect(now.hasSuffix("Z") && Array(now.utf8)[10] == UInt8(ascii: "T"), "\(now)")
            // Milliseconds are cut, never rounded up.
            #expect(parsed >= before.addingTimeInterval(-0.001) && parsed <= after, "\(now)")
            #expect(Timestamp.string(before).prefix(10) <= now.prefix(10))
        }
    }
}
