import Foundation
import Testing
@testable import RigbookStore

/// `Timestamp.string` writes the register's and drafts' timestamps without Foundation's format style for
/// 1970–9999: the text must be Foundation's, to the millisecond.
@Suite struct TimestampTests {
    @Test func theFastTextIsFoundations() throws {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var random = SystemRandomNumberGenerator()
        var dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 0.9995), Date(),
                     Date(timeIntervalSince1970: 951_782_400.001), Date(timeIntervalSince1970: 253_402_300_799.999)]
        for _ in 0..<20_000 {
            dates.append(Date(timeIntervalSince1970: Double(random.next() % 4_102_444_800_000) / 1000))
            dates.append(Date(timeIntervalSince1970: Double(random.next() % 4_102_444_800) + Double.random(in: 0..<1)))
        }
        for date in dates {
            let fast = try #require(Timestamp.fastString(date))
            #expect(fast == date.formatted(style), "\(date.timeIntervalSince1970)")
        }
        #expect(Timestamp.fastString(Date(timeIntervalSince1970: -1)) == nil)
    }
}
