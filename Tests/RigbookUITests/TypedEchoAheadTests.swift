import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookUI
import RigbookApp
import RigbookCore
import RigbookStore

/// Issue 17, key to screen: a character typed at the end of a form's text field has its journal line stored and its
/// echo written before its key reaches `update` (`TypedEchoAhead`). The harness does as the loop does whenever an
/// echo was made ahead (`Harness.writeEchoAhead`), so every other test types through it too; these say that it is
/// the echo and the line the key itself makes, when there is none, and that nothing typed is lost or invented.
@Suite("The typed character's echo made ahead")
struct TypedEchoAheadTests {
    /// The inspection form open on `field`.
    private func form(on field: FormField = .notes, typesAhead: Bool = true) throws -> FormHarness {
        let h = try FormHarness(profile: TypedEchoTests.profile)
        h.harness.typesAhead = typesAhead
        h.press(.char("i"))
        h.focus(field)
        return h
    }

    private func journal(_ h: FormHarness) -> [String] {
        KeystrokeJournalTests.content(DraftStore(home: h.home).journalPath(for: h.draftID))
    }

    /// The journal's typed edits: field and text.
    private func edits(_ h: FormHarness) -> [String] {
        journal(h).compactMap { line in
            (try? JSONDecoder().decode(DraftJournalEdit.self, from: Data(line.utf8))).map { "\($0.edit)=\($0.text)" }
        }
    }

    /// The draft as recovery would read it now.
    private func replayed(_ h: FormHarness) throws -> DraftFile? { try DraftStore(home: h.home).read(id: h.draftID) }

    @Test("each character's echo and journal line made ahead are those its key makes")
    func theSameAsTheKeyMakes() throws {
        let ahead = try form(), after = try form(typesAhead: false)
        let text = "Hook latch worn; 3 links (T-07) <ok> & 100% a/b"
        for h in [ahead, after] { h.type("x") }  // the journal opens with the first edit
        let counted = ahead.harness.typedAheadCount
        for character in text {
            for h in [ahead, after] { h.press(.char(character)) }
            guard character != "/" else {  // held back: a label scan may start with it
                #expect(ahead.harness.lastEcho == nil && after.harness.lastEcho == nil)
                continue
            }
            let echo = try #require(ahead.harness.lastEcho, "no echo for \(character)")
            let own = try #require(after.harness.lastEcho, "no echo of its own for \(character)")
            #expect(echo.update.runs == own.update.runs && echo.update.scroll == nil && own.update.scroll == nil
                && echo.cursor?.x == own.cursor?.x && echo.cursor?.y == own.cursor?.y,
                    "the echo of \(character) made ahead is not the key's own")
            #expect(ahead.harness.lastRuns == after.harness.lastRuns)
        }
        // All but `/` (a scan may start with it), and the key after it.
        #expect(ahead.harness.typedAheadCount - counted >= text.count - 2, "\(ahead.harness.typedAheadCount)")
        #expect(after.harness.typedAheadCount == 0)
        #expect(ahead.form?.values.notes == "x" + text && ahead.frame == after.frame)
        // Line for line the same journal, and not one line more: the key's own line was not stored again.
        #expect(edits(ahead) == edits(after) && edits(ahead).last == "notes=x" + text)
        #expect(journal(ahead).count == journal(after).count)
    }

    @Test("nothing is made ahead where a character is not simply added by itself")
    func noneWhereTheKeyIsNotPlain() throws {
        let h = try form()
        #expect(h.harness.typingAhead == nil, "no journal yet: the first key's line is a whole draft")
        h.type("ab")
        #expect(h.harness.typedAheadCount == 1)
        let ahead = try #require(h.harness.typingAhead)
        for key in [Key.char("/"), .char("\""), .char("\\"), .char("é"), .char("王"), .char("\u{301}"), .tab,
                    .enter, .backspace, .left, .escape, .ctrl("s")] {
            #expect(ahead.echo.character(of: key) == nil, "\(key)")
        }
        #expect(ahead.echo.character(of: .char("~")) == UInt8(ascii: "~"))
        // Not at the end of the text: the row moves.
        h.press(.left)
        #expect(h.harness.typingAhead == nil)
        h.press(.end)
        #expect(h.harness.typingAhead != nil)
        // At the end of a row the frame wraps the text: no echo to make ahead.
        let width = FormLayout.textWidth(screenWidth: h.harness.width)
        var typed = 0
        while h.harness.typingAhead != nil, typed <= width {
            h.press(.char("c"))
            typed += 1
        }
        #expect(typed < width, "\(h.harness.dump)")
        h.press(.char("d"))
        #expect(h.form?.values.notes == "ab" + String(repeating: "c", count: typed) + "d")
        // The list: nothing typed.
        #expect(try FormHarness().harness.typingAhead == nil)
    }

    @Test("a date field takes ahead only what a date is written with")
    func aDateFieldsLetters() throws {
        let h = try form(on: .inspectionDate)
        h.press(.end)
        for _ in 0..<10 { h.press(.backspace) }
        h.type("2026-12-0")
        let ahead = try #require(h.harness.typingAhead, "\(h.harness.dump) \(h.harness.lastEcho.debugDescription)")
        #expect(ahead.echo.character(of: .char("3")) == UInt8(ascii: "3"))
        #expect(ahead.echo.character(of: .char("-")) == UInt8(ascii: "-"))
        #expect(ahead.echo.character(of: .char("q")) == nil)
        let before = h.form?.values.inspectionDate
        h.press(.char("q"))  // refused, with a message, and not journaled
        #expect(h.form?.values.inspectionDate == before)
        #expect(journal(h).last.map { $0.contains(#""text":"\#(before ?? "")""#) } == true, "\(journal(h))")
    }

    @Test("an echo made ahead is stale once anything else has happened")
    func staleAfterAnythingElse() throws {
        let h = try form()
        h.type("ab")
        let ahead = try #require(h.harness.typingAhead)
        #expect(h.session.isCurrent(ahead))
        h.session.send(.tick)
        #expect(!h.session.isCurrent(ahead))
        h.harness.checkScreen()
        let again = try #require(h.harness.typingAhead)
        h.session.send(.resize(width: 100, height: 30))
        #expect(!h.session.isCurrent(again))
        h.harness.checkScreen()
        h.press(.char("c"))
        #expect(h.form?.values.notes == "abc")
        // Written once: not again for a second key of the same frame.
        let third = try #require(h.harness.typingAhead)
        #expect(h.session.journalAhead(third, typing: UInt8(ascii: "d")))
        h.session.wroteEchoAhead(third, typing: UInt8(ascii: "d"))
        #expect(!h.session.isCurrent(third))
        h.session.send(.key(.char("d")))
        #expect(h.session.echo() == nil, "the echo written ahead is not written again")
        #expect(h.form?.values.notes == "abcd")
    }

    @Test("a line stored ahead of a key that did something else is put right at once")
    func aLineAheadOfAnotherKeyIsCorrected() throws {
        let h = try form()
        h.type("ab")
        // Stored for `c`, but the key is `x`: the journal's last line is the form's.
        var ahead = try #require(h.harness.typingAhead)
        #expect(h.session.journalAhead(ahead, typing: UInt8(ascii: "c")))
        h.session.send(.key(.char("x")))
        h.harness.checkScreen()
        #expect(try replayed(h)?.values.notes == "abx")
        // Stored for `c`, but the key is Tab: nothing typed, and the journal says so.
        ahead = try #require(h.harness.typingAhead)
        #expect(h.session.journalAhead(ahead, typing: UInt8(ascii: "c")))
        h.session.send(.key(.tab))
        h.harness.checkScreen()
        #expect(try replayed(h)?.values.notes == "abx", "\(journal(h).joined(separator: "\n"))")
        // Stored for `c`, but the key opens a question: no line of its own, so one for the form is stored.
        h.focus(.notes)
        h.press(.end)
        ahead = try #require(h.harness.typingAhead)
        #expect(h.session.journalAhead(ahead, typing: UInt8(ascii: "c")))
        h.session.send(.key(.escape))
        h.harness.checkScreen()
        #expect(try replayed(h)?.values.notes == "abx", "\(journal(h).joined(separator: "\n"))")
    }

    @Test("killed between the echo written ahead and its key's update, the character is recovered")
    func killedAfterTheEchoBeforeTheUpdate() throws {
        let h = try form()
        h.type("Sling worn")
        h.advance(0.6)  // the draft file holds it; the journal starts again
        h.type(" at")
        let ahead = try #require(h.harness.typingAhead)
        #expect(h.session.journalAhead(ahead, typing: UInt8(ascii: "!")))
        h.session.wroteEchoAhead(ahead, typing: UInt8(ascii: "!"))
        // The process dies here: the `!` is on the screen, and its key never reached `update`.
        h.session.releaseLock(h.draftID)
        let later = try FormHarness(sharingHomeOf: h)
        later.press(.char("i"))
        #expect(later.shows("Recover"), "\(later.harness.dump)")
        later.press(.char("r"))
        #expect(later.form?.values.notes == "Sling worn at!", "\(later.harness.dump)")
    }
}
