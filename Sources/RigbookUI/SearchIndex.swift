#if canImport(Glibc)
import Glibc
#endif

/// Finds `needle` in `count` bytes at `haystack`: `memchr` to the first byte, then compare the rest.
/// (glibc's `memmem` is hidden from Swift without _GNU_SOURCE.)
private func contains(_ haystack: UnsafePointer<UInt8>, _ count: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
    let first = Int32(needle[0])
    var offset = 0
    while count - offset >= needle.count {
        guard let found = memchr(haystack + offset, first, count - offset - needle.count + 1) else { return false }
        let at = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self))
        if memcmp(at, needle.baseAddress!, needle.count) == 0 { return true }
        offset = at - haystack + 1
    }
    return false
}

/// Lower-cased tag, name, type and location of every row in one byte buffer, so a filter keystroke
/// over 100,000 assets is a tight `memmem` scan instead of 100,000 string comparisons.
struct SearchIndex: Sendable {
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]

    init(_ texts: [String]) {
        bytes.reserveCapacity(texts.count * 48)
        starts.reserveCapacity(texts.count + 1)
        for text in texts {
            bytes.append(contentsOf: text.lowercased().utf8)
            starts.append(bytes.count)
        }
    }

    var count: Int { starts.count - 1 }

    /// Rows among `candidates` whose text contains `query` (already lower-cased).
    func matches(_ query: String, among candidates: [Int32]) -> [Int32] {
        let needle = Array(query.utf8)
        if needle.isEmpty { return candidates }
        var out: [Int32] = []
        bytes.withUnsafeBufferPointer { buffer in
            needle.withUnsafeBufferPointer { n in
                func test(_ row: Int32) {
                    let start = starts[Int(row)], end = starts[Int(row) + 1]
                    guard end - start >= n.count else { return }
                    if contains(buffer.baseAddress! + start, end - start, n) { out.append(row) }
                }
                for row in candidates { test(row) }
            }
        }
        return out
    }
}
