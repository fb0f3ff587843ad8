import Foundation
import Testing
import RigbookCore
@testable import RigbookStore

/// Issue 13's batch save writes fewer pages: record and notice uuids that ascend, and the WAL copied into the
/// file when the program is idle rather than inside the save.
@Suite struct BatchPagesTests {
    @Test func timeOrderedUUIDsAreVersion7AndAscendAsText() {
        var previous = UUID.timeOrdered()
        for _ in 0..<5_000 {
            let next = UUID.timeOrdered()
            #expect(next.uuidString > previous.uuidString)
            #expect(next.uuidString.lowercased() > previous.uuidString.lowercased())
            let bytes = next.uuid
            #expect(bytes.6 >> 4 == 7, "version 7")
            #expect(bytes.8 >> 6 == 0b10, "RFC 9562 variant")
            previous = next
        }
        // The time is in the first 48 bits: within a minute of now.
        let uuid = UUID.timeOrdered().uuid
        let milliseconds = [uuid.0, uuid.1, uuid.2, uuid.3, uuid.4, uuid.5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(abs(Double(milliseconds) / 1000 - Date().timeIntervalSince1970) < 60)
    }
}
