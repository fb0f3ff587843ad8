import Foundation
import Testing
@testable import RigbookCore

/// Tags that cannot pose as other tags, and asset dates that cannot be in the future.
@Suite("Tags and asset dates that cannot lie")
struct TagAndDateTests {
    static let today = CalendarDate(iso: "2026-11-30")!

    // MARK: Tags

    @Test("tags are one tag under full Unicode case folding, not ASCII-only case",
          arguments: [("SL-ß", "SL-SS"), ("SL-ß", "sl-ss"), ("SL-ẞ", "sl-ss"), ("ÉV-1", "év-1"),
                      ("ΣΛ-1", "σλ-1"), ("ﬁ-1", "FI-1"), ("\u{212A}-1", "k-1"), ("\u{212B}-1", "å-1")])
    func foldedTagsAreTheSameTag(_ a: String, _ b: String) {
        #expect(Tags.key(a) == Tags.key(b), "\(a) and \(b) must be one tag")
    }

    @Test("a tag and its decomposed spelling are one tag, and a tag is stored in NFC")
    func normalisation() {
        let composed = "\u{C9}V-1", decomposed = "E\u{301}V-1"
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        #expect(Tags.key(composed) == Tags.key(decomposed))
        #expect(Array(Tags.normalized(decomposed).utf8) == Array(composed.utf8))
        var asset = sampleAsset()
        asset.tag = decomposed
        #expect(asset.fieldProblems().contains { $0.field == .tag && $0.message.contains("NFC") })
        asset.tag = composed
        #expect(asset.problems().isEmpty)
    }

    @Test("different tags keep different keys", arguments: [("EV-1100", "EV-0011"), ("SL-1", "SL-l"),
                                                             ("EV-\u{202E}0011", "EV-1100"), ("SL-0042", "SL-0042 ")])
    func differentTags(_ a: String, _ b: String) {
        #expect(Tags.key(a) != Tags.key(b))
    }

    @Test("a tag of Cyrillic, Greek or fullwidth letters that look Latin folds to the Latin tag's skeleton",
          arguments: [("\u{405}L-0042", "SL-0042"), ("\u{FF33}\u{FF2C}-0002", "SL-0002"), ("\u{391}\u{392}-1", "ab-1"),
                      ("SL-\u{FF10}\u{FF10}42", "sl-0042"), ("\u{41D}\u{41A}-\u{417}", "HK-3"),
                      ("\u{430}\u{440}-1", "AP-1"), ("SL-0042", "sl-0042")])
    func lookAlikesShareASkeleton(_ a: String, _ b: String) {
        #expect(Tags.skeleton(a) == Tags.skeleton(b), "\(a) must look like \(b)")
    }

    @Test("tags that do not look alike keep different skeletons",
          arguments: [("SL-1", "SL-l"), ("\u{416}L-1", "SL-1"), ("\u{401}L-1", "EL-1"), ("\u{432}-1", "B-1"),
                      ("EV-1100", "EV-0011")])
    func differentLooks(_ a: String, _ b: String) {
        #expect(Tags.skeleton(a) != Tags.skeleton(b), "\(a) must not look like \(b)")
    }

    @Test("a look-alike is refused naming the tag held and the character that is not Latin; the same tag first")
    func lookAlikeRefusal() throws {
        let clash = try #require(Tags.clash("\u{405}L-0042", with: "SL-0042"))
        #expect(clash == .lookAlike("SL-0042"))
        #expect(clash.refusal(of: "\u{405}L-0042") == "\u{405}L-0042 looks like SL-0042, already in the register"
                + " (its \u{405} is U+0405 CYRILLIC CAPITAL LETTER DZE)")
        // The plain tag typed beside a look-alike held: the odd character is the held one's.
        #expect(Tags.clash("SL-0002", with: "\u{FF33}L-0002")?.refusal(of: "SL-0002")
                == "SL-0002 looks like \u{FF33}L-0002, already in the register"
                + " (whose \u{FF33} is U+FF33 FULLWIDTH LATIN CAPITAL LETTER S)")
        #expect(Tags.clash("sl-0042", with: "SL-0042") == .same("SL-0042"))
        #expect(Tags.clash("SL-0043", with: "SL-0042") == nil)
        var taken = TakenTags<Int>()
        taken.insert("SL-0042", holder: 2)
        taken.insert("\u{405}L-0042", holder: 3)
        #expect(taken.clash(with: "\u{FF33}L-0042")?.clash == .lookAlike("SL-0042"))
        #expect(taken.clash(with: "\u{FF33}L-0042")?.holder == 2, "the first holder keeps the tag")
        #expect(taken.clash(with: "sl-0042")?.clash == .same("SL-0042"))
        #expect(taken.clash(with: "SL-0043") == nil)
    }

    @Test("a spreadsheet with two rows whose tags look alike is refused on the second row")
    func lookAlikeRowsInOneFile() {
        let file = "tag,name,type,wll_kg\nSL-0002,a,web-sling,2000\n\u{FF33}\u{FF2C}-0002,b,web-sling,2000\n"
        guard case .failure(let problems) = AssetImport.parse(file, today: Self.today) else {
            Issue.record("accepted two look-alike tags"); return
        }
        #expect(problems.items.map(\.description) == ["line 3, tag: \u{FF33}\u{FF2C}-0002 looks like SL-0002, on line 2"
                                                      + " (its \u{FF33} is U+FF33 FULLWIDTH LATIN CAPITAL LETTER S)"])
    }

    static let invisible: [Text] = [
        "EV-\u{202E}0011", "EV-\u{202D}1", "EV-\u{2066}1\u{2069}", "SL-\u{200B}0042", "SL\u{200D}-0042",
        "SL\u{200C}-0042", "\u{FEFF}SL-0042", "SL-00\u{AD}42", "SL-\u{2060}1", "SL-\u{061C}1", "SL-\u{180E}1",
        "SL-\u{E0041}1", "SL-1\u{FE0F}", "SL-\u{3164}1", "SL\u{A0}0042", "SL\u{2007}0042", "SL\u{2028}0042",
        "EV-\u{2800}", // a blank Braille pattern: found by hostile testing
    ]

    @Test("invisible characters are refused in tags, naming the character", arguments: invisible)
    func invisibleRefused(_ tag: Text) {
        var asset = sampleAsset()
        asset.tag = tag.value
        let problems = asset.fieldProblems()
        #expect(problems.count == 1, "\(problems.map(\.message))")
        #expect(problems.first?.field == .tag)
        let message = problems.first?.message ?? ""
        #expect(message.hasPrefix("The tag holds "), "\(message)")
        #expect(message.contains("U+"), "\(message)")
    }

    @Test("a right-to-left override cannot make EV-0011 pose as EV-1100")
    func bidiOverride() throws {
        var asset = sampleAsset()
        asset.tag = "EV-\u{202E}0011"
        let message = try #require(asset.fieldProblems().first?.message)
        #expect(message.contains("U+202E RIGHT-TO-LEFT OVERRIDE"), "\(message)")
        // The add-asset screen refuses it the same way (the draft keeps the character: it is never silently
        // dropped, since the person must see what they typed was not a plain tag).
        var draft = TagAndDateTests.validDraft()
        draft.tag = "EV-\u{202E}0011"
        #expect(TagAndDateTests.refused(draft).map(\.0) == [.tag])
    }

    @Test("ordinary tags in any script are accepted", arguments: ["SL-0042", "吊-0042", "ΣΛ-1", "Ш-7", "SL 0042",
                                                                  "क्ष-1", "EV-1100"])
    func ordinaryTags(_ tag: String) {
        var asset = sampleAsset()
        asset.tag = Tags.normalized(tag)
        #expect(asset.problems().isEmpty, "\(asset.problems())")
    }

    @Test("the add-asset draft stores its tag in NFC")
    func draftNormalises() throws {
        var draft = TagAndDateTests.validDraft()
        draft.tag = " E\u{301}V-1 "
        let asset = try draft.validated(today: TagAndDateTests.today).get()
        #expect(Array(asset.tag.utf8) == Array("\u{C9}V-1".utf8))
    }

    // MARK: Dates

    /// What `validated(today:)` refuses in `draft`, empty when it is accepted.
    static func refused(_ draft: AssetDraft) -> [(AssetDraft.Field, String)] {
        if case .failure(let failure) = draft.validated(today: TagAndDateTests.today) { return failure.items }
        return []
    }

    static func validDraft() -> AssetDraft {
        var draft = AssetDraft()
        draft.tag = "SL-0042"
        draft.name = "2 t web sling"
        draft.wllKg = "2000"
        return draft
    }

    @Test("a commission date after today is refused, at the commission field",
          arguments: [("2026-12-01", false), ("2027-11-30", false), ("2026-11-30", true), ("2020-01-01", true)])
    func futureCommission(_ commissioned: String, _ accepted: Bool) {
        var draft = TagAndDateTests.validDraft()
        draft.commissioned = commissioned
        let problems = TagAndDateTests.refused(draft)
        #expect(problems.map(\.0) == (accepted ? [] : [.commissioned]), "\(commissioned): \(problems.map(\.1))")
        #expect(problems.allSatisfy { $0.1.contains("is in the future (today is 2026-11-30).") })
        let asset = sampleAsset(commissioned: commissioned)
        #expect(asset.problems(today: TagAndDateTests.today).isEmpty == accepted)
    }

    @Test("a date of manufacture after today is refused, at its field")
    func futureManufacture() {
        var draft = TagAndDateTests.validDraft()
        draft.manufactured = "2026-12-01"
        #expect(TagAndDateTests.refused(draft).map(\.0) == [.manufactured])
    }

    @Test("a date of manufacture after the commission date is refused, at the commission field")
    func manufacturedAfterCommissioned() {
        var draft = TagAndDateTests.validDraft()
        draft.manufactured = "2025-06-02"
        draft.commissioned = "2025-06-01"
        #expect(TagAndDateTests.refused(draft).map(\.0) == [.commissioned])
        draft.manufactured = "2025-06-01"
        #expect(TagAndDateTests.refused(draft).isEmpty, "the same day is fine")
    }
}
