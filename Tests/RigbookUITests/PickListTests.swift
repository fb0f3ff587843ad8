import Testing
@testable import RigbookUI

/// The pop-up list of a choice with more options than fit: it scrolls with the selection and says what is above and
/// below.
@Suite("Pick list") struct PickListTests {
    static func screen(_ list: PickList, height: Int = 10) -> [String] {
        var frame = Frame(width: 40, height: height)
        list.draw(into: &frame, area: Rect(x: 0, y: 0, width: 40, height: height))
        return (0..<height).map { frame.line($0) }
    }

    @Test func moreAboveAndBelowAreMarked() {
        let labels = (1...30).map { "Site \($0)" }
        var list = PickList(title: "Site", labels: labels, selected: 0)
        var lines = Self.screen(list).joined(separator: "\n")
        #expect(lines.contains("› Site 1") && lines.contains("↓ Site 5") && !lines.contains("↑ Site"), "\(lines)")
        for _ in 0..<14 { _ = list.handle(.down) }
        lines = Self.screen(list).joined(separator: "\n")
        #expect(lines.contains("› Site 15") && lines.contains("↑ Site 13") && lines.contains("↓ Site 17"), "\(lines)")
        for _ in 0..<15 { _ = list.handle(.down) }
        lines = Self.screen(list).joined(separator: "\n")
        #expect(lines.contains("› Site 30") && lines.contains("↑ Site 26") && !lines.contains("↓ Site"), "\(lines)")
    }
}
