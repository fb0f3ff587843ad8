import Testing
@testable import RigbookUI
import RigbookCore

/// Column widths of single graphemes and strings (SPEC §9: UTF-8 throughout, CJK at double width).
@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("张", 2), ("王", 2), ("\u{E9}", 1), ("e\u{301}", 1), ("😀", 2), ("A", 1), ("~", 1), (" ", 1),
        ("한", 2), ("Ａ", 2), ("仓", 2),
    ] as [(String, Int)])
    func characterWidth(_ text: String, _ expected: Int) {
        #expect(text.count == 1, "the case must be one grapheme")
        #expect(DisplayWidth.of(Character(text)) == expected)
        #expect(text.displayWidth == expected)
    }

    @Test func loneCombiningMarkTakesNoColumn() {
        let mark: Unicode.Scalar = "\u{301}"
        #expect(DisplayWidth.of(mark) == 0)
        #expect(DisplayWidth.of(Character(String(mark))) == 0)
        #expect(String(mark).displayWidth == 0)
    }

    @Test func precomposedAndDecomposedAccentsMeasureTheSame() {
        #expect("caf\u{E9}".displayWidth == 4)
        #expect("cafe\u{301}".displayWidth == 4)
    }

    @Test func stringsAddUpTheirCharacters() {
        #expect("SL-0042".displayWidth == 7)
        #expect("王建国的吊带".displayWidth == 12)
        #expect("仓库 2".displayWidth == 6)
        #expect("SL-0042 张三 😀 é".displayWidth == 17) // 7 + 1 + 4 + 1 + 2 + 1 + 1
        #expect("".displayWidth == 0)
    }
}

@Suite struct TruncateAndPadTests {
    @Test func asciiFitsOrGetsAnEllipsis() {
        #expect("shackle".truncated(toWidth: 7) == "shackle")
        #expect("shackles".truncated(toWidth: 7) == "shackl…")
        #expect("abc".truncated(toWidth: 0) == "")
        #expect("abc".padded(toWidth: 5) == "abc  ")
        #expect("abc".padded(toWidth: 5, alignRight: true) == "  abc")
    }

    @Test func cjkIsCutOnWholeCharacters() {
        let name = "王建国的吊带"
        #expect(name.truncated(toWidth: 12) == name)
        #expect(name.truncated(toWidth: 11) == "王建国的吊…")
        #expect(name.truncated(toWidth: 7) == "王建国…")
        #expect(name.truncated(toWidth: 6) == "王建…")
        #expect(name.truncated(toWidth: 1) == "…")
        for width in 1...14 {
            #expect(name.truncated(toWidth: width).displayWidth <= width, "truncated to \(width)")
            #expect(name.padded(toWidth: width).displayWidth == width, "padded to \(width)")
            #expect(name.padded(toWidth: width, alignRight: true).displayWidth == width, "right-aligned to \(width)")
        }
        #expect(name.padded(toWidth: 6) == "王建… ")
        #expect(name.padded(toWidth: 6, alignRight: true) == " 王建…")
        #expect("吊带".padded(toWidth: 7) == "吊带   ")
        #expect("a王b".padded(toWidth: 4) == "a王b")
        #expect("a王b".padded(toWidth: 3) == "a… ")
    }
}

/// The cell buffer: wide characters, the right edge, overwriting, control characters.
@Suite struct FrameTests {
    @Test func wideCharactersTakeACellAndAContinuation() {
        var frame = Frame(width: 20, height: 3)
        #expect(frame.put("张三 AB", x: 0, y: 0) == 7)
        #expect(frame.put("abcd AB", x: 0, y: 1) == 7)
        #expect(frame.put("a王b AB", x: 1, y: 2) == 7)
        #expect(frame[0, 0].text == "张" && frame[0, 0].width == 2)
        #expect(frame[1, 0].text == "" && frame[1, 0].width == 0)
        #expect(frame[2, 0].text == "三" && frame[3, 0].width == 0)
        #expect(frame[5, 0].text == "A")
        #expect(frame[5, 1].text == "A")
        #expect(frame[6, 2].text == "A")
        #expect(frame.column(of: "AB", y: 0) == 5)
        #expect(frame.column(of: "AB", y: 1) == 5)
        #expect(frame.column(of: "AB", y: 2) == 6)
        #expect(frame.lines[0] == "张三 AB" + String(repeating: " ", count: 13))
        #expect(frame.lines[2] == " a王b AB" + String(repeating: " ", count: 12))
        for line in frame.lines { #expect(line.displayWidth == 20) }
        for y in 0..<3 {
            #expect((0..<20).reduce(0) { $0 + Int(frame[$1, y].width) } == 20, "row \(y) holds exactly 20 columns")
        }
    }

    @Test func aWideCharacterThatDoesNotFitBecomesASpace() {
        var frame = Frame(width: 5, height: 2)
        #expect(frame.put("abcd张", x: 0, y: 0) == 5)
        #expect(frame.lines[0] == "abcd ")
        #expect(frame[4, 0].text == " " && frame[4, 0].width == 1)
        // The same at a column limit inside the row: the cell after the limit is left alone.
        frame.put("xxxxx", x: 0, y: 1)
        #expect(frame.put("ab张", x: 0, y: 1, maxWidth: 3) == 3)
        #expect(frame.lines[1] == "ab xx")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var right = Frame(width: 6, height: 1)
        right.put("张", x: 0, y: 0)
        right.put("x", x: 1, y: 0)
        #expect(right.lines == [" x    "])
        #expect(right[0, 0].width == 1)

        var left = Frame(width: 6, height: 1)
        left.put("张", x: 0, y: 0)
        left.put("y", x: 0, y: 0)
        #expect(left.lines == ["y     "])
        #expect(left[1, 0].width == 1)

        var shifted = Frame(width: 6, height: 1)
        shifted.put("张王", x: 0, y: 0)
        shifted.put("李", x: 1, y: 0)
        #expect(shifted.lines == [" 李   "])
        #expect((0..<6).reduce(0) { $0 + Int(shifted[$1, 0].width) } == 6)
    }

    @Test(arguments: [
        ("a\u{1B}[31mb", "a^[[31mb"),
        ("bell\u{7}", "bell^G"),
        ("del\u{7F}", "del^?"),
        ("nul\u{0}", "nul^@"),
        ("tab\there", "tab^Ihere"),
        ("line\r\nnext", "line^M^Jnext"),
    ] as [(String, String)])
    func controlCharactersAreDrawnInCaretNotation(_ data: String, _ shown: String) {
        #expect(VisibleText.make(data) == shown)
        var frame = Frame(width: 20, height: 1)
        frame.put(data, x: 0, y: 0)
        #expect(frame.lines[0] == shown.padded(toWidth: 20))
        #expect(!frame.containsControlCharacter)
    }

    @Test func c1ControlsAreMadeVisibleToo() {
        var frame = Frame(width: 20, height: 1)
        frame.put("a\u{9B}31mb\u{85}", x: 0, y: 0) // CSI and NEL as single C1 characters
        #expect(!frame.containsControlCharacter)
        #expect(frame.lines[0].hasPrefix("a"))
        #expect(frame.lines[0].contains("31mb"))
    }

    @Test func putClipsAtMaxWidthAndTheRightEdge() {
        var frame = Frame(width: 10, height: 1)
        #expect(frame.put("abcdefgh", x: 2, y: 0, maxWidth: 3) == 3)
        #expect(frame.lines[0] == "  abc     ")
        #expect(frame.put("0123456789", x: 7, y: 0) == 3)
        #expect(frame.lines[0] == "  abc  012")
        #expect(frame.put("zz", x: 10, y: 0) == 0)
        #expect(frame.put("zz", x: 0, y: 1) == 0)
    }
}
