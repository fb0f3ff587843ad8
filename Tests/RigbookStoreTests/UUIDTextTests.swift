import Foundation
import Testing
@testable import RigbookStore

@Suite("UUID text")
struct UUIDTextTests {
    @Test("a uuid's text written by hand is Foundation's, in upper and in lower case")
    func sameAsFoundation() {
        var random = SplitMix64(seed: 99)
        let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        let all = UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))
        for uuid in [UUID(), zero, all] + (0..<200).map({ _ in random.uuid() }) {
            #expect(uuid.text == uuid.uuidString)
            #expect(uuid.lowercasedText == uuid.uuidString.lowercased())
        }
    }
}
