import Foundation
import Testing
@testable import RigbookStore

/// `Timestamp.now()` writes the clock by hand (issue 17): it must read back, and be written again, exactly as
/// Foundation's ISO 8601 style writes a timestamp.
@Suite struct TimestampTests {
    @Test func nowIsWhatFoundationWouldWrite() throws {
        for _ in 0..<50 {
            let before = Date()
            let now = Timestamp.now()
            let after = Date()
            #expect(now.utf8.count == 24, "\(now)")
            let parsed = try #require(Timestamp.parse(now), "\(now) does not parse")
            #expect(Timestamp.string(parsed) == now)
            // Milliseconds are cut, never rounded up.
            #expect(parsed >= before.addingTimeInterval(-0.001) && parsed <= after, "\(now)")
        }
    }
}
