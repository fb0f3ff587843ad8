import Foundation
import Synchronization

extension UUID {
    /// A version 7 UUID (RFC 9562): the milliseconds since 1970 in its first 48 bits, then a counter that
    /// keeps the UUIDs of one process ascending within a millisecond, then random bits. As text they sort in
    /// the order they were made, so a new record's or notice's uuid goes to the end of its unique index
    /// instead of to a random leaf page: a batch of 300 records dirties a few index pages, not 300.
    /// Still 122 bits of a UUID's 128 that are unique per entry (74 of them random), so registers merge as before.
    public static func timeOrdered() -> UUID {
        var milliseconds = UInt64(Date().timeIntervalSince1970 * 1000)
        var counter: UInt16 = 0
        TimeOrderedState.last.withLock { last in
            if milliseconds <= last.milliseconds {
                // Same millisecond (or the clock stepped back): one more than the last, never a smaller UUID.
                if last.counter < 0x0FFF {
                    milliseconds = last.milliseconds
                    counter = last.counter + 1
                } else {
                    milliseconds = last.milliseconds + 1
                    counter = 0
                }
            }
            last = (milliseconds, counter)
        }
        var random = SystemRandomNumberGenerator()
        let tail = random.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
        bytes[6] = 0x70 | UInt8(counter >> 8)
        bytes[7] = UInt8(truncatingIfNeeded: counter)
        for index in 8..<16 { bytes[index] = UInt8(truncatingIfNeeded: tail >> (8 * (15 - index))) }
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

/// The last time-ordered UUID's millisecond and counter, shared by the process.
private enum TimeOrderedState {
    static let last = Mutex<(milliseconds: UInt64, counter: UInt16)>((0, 0))
}
