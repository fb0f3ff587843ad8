import Testing
@testable import RigbookUI

/// `EditableText` keeps its text as characters and as a string side by side (a character typed at the end is
/// appended to both): whatever the keys, the string is always the characters joined.
@Suite struct EditableTextTests {
    @Test func theStringIsAlwaysTheCharactersJoined() {
        let keys: [Key] = [.char("a"), .char("é"), .char("王"), .char("\n"), .char(" "), .char("👩‍🔧"),
                           .char("\u{301}"), .left, .right, .home, .end, .backspace, .delete, .up, .down,
                           .ctrl("k"), .ctrl("u"), .ctrl("w"), .paste("two\nlines and\ta tab"), .enter]
        var generator = SystemRandomNumberGenerator()
        for multiline in [true, false] {
            var editor = EditableText("start of a note", cursor: 5)
            for step in 0..<3_000 {
                let key = keys.randomElement(using: &generator)!
                _ = editor.apply(key, multiline: multiline, maxLength: 120, width: 12)
                #expect(editor.text == String(editor.characters), "step \(step), \(key)")
                #expect(editor.text.utf8.elementsEqual(String(editor.characters).utf8), "step \(step), \(key)")
                #expect(editor.cursor >= 0 && editor.cursor <= editor.characters.count)
            }
        }
    }

    @Test func typingAtTheEndAndInTheMiddle() {
        var editor = EditableText("ac")
        _ = editor.apply(.char("d"), multiline: false, maxLength: 10)
        #expect(editor.text == "acd")
        editor.cursor = 1
        _ = editor.apply(.char("b"), multiline: false, maxLength: 10)
        #expect(editor.text == "abcd" && editor.cursor == 2)
        #expect(editor.apply(.char("x"), multiline: false, maxLength: 4) == .full)
        #expect(editor.text == "abcd")
    }
}
