import Foundation
import Testing
import RigbookCore

/// The gate's trimming without Foundation must cut exactly what Foundation's does.
@Suite("Trimming without Foundation")
struct FastTrimTests {
    static let samples = [
        "", " ", "\t\n", "plain", "  both ends  ", "\u{3000}全角\u{3000}", "\u{A0}nbsp\u{A0}", "\u{2028}sep\u{2029}",
        "\u{85}next\u{85}", "\r\nline\r\n", "\u{200B}zero width stays\u{200B}", "é\u{301} ", " 王小明 ",
        "\u{1680}\u{2000}\u{200A}\u{202F}\u{205F}x", "x\u{FEFF}", "\u{B}\u{C}vt ff", "   \n \t ",
    ]

    @Test(arguments: samples)
    func sameAsFoundation(_ text: String) {
        #expect(text.trimmingWhitespaceAndNewlines == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespaces))
    }

    @Test func countingStopsEarlyOnlyWhenTheBytesSaySo() {
        #expect(!"abc".hasMoreCharacters(than: 3))
        #expect("abcd".hasMoreCharacters(than: 3))
        #expect(!"王王王".hasMoreCharacters(than: 3))  // 9 bytes, 3 characters
        #expect(!"e\u{301}e\u{301}".hasMoreCharacters(than: 2))
    }

    @Test func controlCharactersFoundFromTheBytes() {
        #expect(TextRules.containsControlCharacters("a\u{1B}b"))
        #expect(TextRules.containsControlCharacters("a\u{85}b"))
        #expect(TextRules.containsControlCharacters("a\u{7F}"))
        #expect(!TextRules.containsControlCharacters("a\nb", allowingNewlines: true))
        #expect(TextRules.containsControlCharacters("a\nb"))
        #expect(!TextRules.containsControlCharacters("王 é \u{A0} \u{2028}"))
    }
}
