import Testing
import RigbookCore
@testable import RigbookUI

/// `Frame.putASCIIColumn` draws a list cell without building strings; it must draw exactly what the general
/// path (`VisibleText`, `truncated`, `put` where right alignment puts it) draws, cut and styles included, and
/// leave the column's other cells as they were (the list fills them with plain blanks first).
@Suite struct ASCIIColumnTests {
    private func general(_ text: String, x: Int, width: Int, area: Rect, alignRight: Bool, into frame: inout Frame) {
        let shown = VisibleText.make(text).truncated(toWidth: width)
        let indent = alignRight ? max(0, width - shown.displayWidth) : 0
        frame.put(shown, x: x + indent, y: 1, in: area, style: Style(colour: .red, bold: true),
                  maxWidth: width - indent)
    }

    @Test func drawsWhatTheGeneralPathDraws() {
        let texts = ["", "A", "SL-0001", "2 t web sling 3 m", "exactly10!", "a much longer name than any column"]
        let areas = [Rect(x: 0, y: 0, width: 30, height: 3), Rect(x: 4, y: 1, width: 20, height: 3)]
        for text in texts {
            for width in 0...12 {
                for x in [0, 3, 15, 19] {
                    for area in areas {
                        for alignRight in [false, true] {
                            var expected = Frame(width: 30, height: 5)
                            general(text, x: x, width: width, area: area, alignRight: alignRight, into: &expected)
                            var drawn = Frame(width: 30, height: 5)
                            let handled = drawn.putASCIIColumn(text, x: x, y: 1, in: area, width: width,
                                                               style: Style(colour: .red, bold: true),
                                                               alignRight: alignRight)
                            #expect(handled)
                            #expect(drawn.cells == expected.cells,
                                    "“\(text)” in \(width) at \(x), \(area), right \(alignRight)")
                        }
                    }
                }
            }
        }
    }

    @Test func leavesEverythingElseToTheGeneralPath() {
        var frame = Frame(width: 20, height: 3)
        for text in ["王建国", "café", "tab\there", "bell\u{7}", "del\u{7F}", "—"] {
            let handled = frame.putASCIIColumn(text, x: 0, y: 0, in: frame.bounds, width: 10, style: .plain,
                                               alignRight: false)
            #expect(!handled, "“\(text)”")
        }
        #expect(frame == Frame(width: 20, height: 3))
    }
}
