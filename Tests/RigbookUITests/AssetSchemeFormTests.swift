import Foundation
import RigbookCore
import RigbookStore
import RigbookUI
import Testing

/// The add screen refuses an interval longer than LOLER reg 9(3) allows unless the asset names its
/// examination scheme, with a sentence naming the regulation read in full.
@Suite struct AssetSchemeFormTests {
    /// Tag, name, a web sling of 1000 kg, and an interval of `interval` months, typed by keys.
    static func typeSling(_ h: Harness, interval: String) {
        h.press(.char("a"))
        h.type("SL-0100")
        h.press(.tab)
        h.type("Web sling 1 t")
        h.press(.tab, .tab)                            // type stays Web sling
        h.type("1000")
        for _ in 0..<7 { h.press(.tab) }              // length … commissioned, to the interval
        h.type(interval)
    }

    @Test func aLongIntervalWithoutASchemeIsRefusedNamingTheRegulation() throws {
        let h = try Harness(.empty)
        Self.typeSling(h, interval: "12")
        h.press(.ctrl("s"))
        let screen = h.screen.joined(separator: "\n")
        #expect(h.line(containing: "Not added: 1 problem") != nil, "\(screen)")
        #expect(h.line(containing: "⚠ LOLER regulation 9(3) allows at most 6 months") != nil, "\(screen)")
        // The sentence wraps under the field and is read in full.
        let words = h.screen.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        let sentence = try #require(Asset(tag: "SL-0100", name: "Web sling 1 t", type: .webSling, wllKg: 1000,
                                          intervalMonths: 12).intervalProblem)
        #expect(words.contains("⚠ " + sentence), "\(screen)")
        #expect(try h.register.assetCount() == 0)
        // Focus went to the scheme field: typing the reference there lets the asset in.
        h.type("ES-2026-07")
        h.press(.ctrl("s"))
        #expect(h.line(containing: "Added SL-0100 to the register.") != nil, "\(h.screen.joined(separator: "\n"))")
        let row = try #require(try h.register.asset(tag: "SL-0100"))
        #expect(row.asset.intervalMonths == 12)
        #expect(row.asset.examinationScheme == "ES-2026-07")
    }

    @Test func theSchemeFieldSaysWhenItIsNeeded() throws {
        let h = try Harness(.empty)
        h.press(.char("a"))
        #expect(h.line(containing: "Examination scheme") != nil)
        #expect(h.line(containing: "only above 6 months (LOLER reg 9(3))") != nil,
                "\(h.screen.joined(separator: "\n"))")
    }
}
