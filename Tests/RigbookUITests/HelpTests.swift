import Testing
@testable import RigbookApp
@testable import RigbookUI

/// `?` help and the footer are both generated from `ListState.keymap` (DESIGN: key bindings are data).
@Suite struct HelpTests {
    /// The screen's text with runs of whitespace collapsed, so help that wraps still counts as shown.
    private func collapsed(_ lines: [String]) -> String {
        lines.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Every line of the open help page, scrolled through with ↓ (the list's keys fill more than one page).
    private func wholePage(_ h: Harness) -> [String] {
        var lines = h.screen
        for _ in 0..<50 {
            let before = h.screen
            h.press(.down)
            if h.screen == before { break }
            lines += h.screen.dropFirst()
        }
        return lines
    }

    @Test(arguments: [(80, 24), (100, 30)])
    func helpShowsEveryBindingOfTheKeymap(width: Int, height: Int) throws {
        let h = try Harness(.sample(count: 20), width: width, height: height)
        h.press(.char("?"))
        #expect(h.screen[0].contains("Help"))
        #expect(h.screen[0].contains(ListState.keymap.title))
        let page = wholePage(h)
        let text = collapsed(page)
        for binding in ListState.keymap.bindings {
            #expect(page.contains { $0.hasPrefix(" " + binding.label + " ") },
                    "key label \(binding.label)\n\(h.dump)")
            let help = binding.help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(text.contains(help),
                    "help for \(binding.label) at \(width)×\(height): “\(binding.help)”\n\(h.dump)")
        }
    }

    @Test func helpLinesAreTheKeymapInOrder() throws {
        let h = try Harness(.sample(count: 20))
        h.press(.function(1))
        let page = wholePage(h)
        let labels = ListState.keymap.bindings.map(\.label)
        let rows = labels.map { label in page.firstIndex { $0.hasPrefix(" " + label + " ") } }
        #expect(!rows.contains(nil))
        #expect(rows.compactMap { $0 } == rows.compactMap { $0 }.sorted())
        #expect(ListState.keymap.helpLines().map(\.keys) == labels)
    }

    @Test(arguments: [(80, 24), (40, 12), (60, 20)])
    func footerIsBuiltFromTheKeymap(width: Int, height: Int) throws {
        let h = try Harness(.sample(count: 20), width: width, height: height)
        let footer = h.screen[height - 1]
        let trimmed = String(footer.reversed().drop { $0 == " " }.reversed())
        #expect(trimmed == ListState.keymap.footer(width: width))
        let items = trimmed.components(separatedBy: "  ")
        let keymapItems = ListState.keymap.bindings.compactMap { binding in
            binding.footer.map { binding.label + " " + $0 }
        }
        #expect(!items.isEmpty && items.allSatisfy { keymapItems.contains($0) }, "\(items)")
        // Most important first; the last item (help) is kept even when others are dropped.
        #expect(Array(keymapItems.prefix(items.count - 1)) + [keymapItems.last!] == items,
                "most important first, help last")
        #expect(items.contains("? F1 help") || width < 80, "the help key is in the footer at 80 columns")
        // Every footer item names keys that really do the thing.
        for binding in ListState.keymap.bindings where binding.footer != nil {
            for key in binding.keys {
                #expect(ListState.keymap.bindings.first { $0.keys.contains(key) }?.label == binding.label,
                        "\(key.name) is taken by an earlier binding")
            }
        }
    }

    @Test func everyKeyIsBoundOnce() {
        let keys = ListState.keymap.bindings.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
    }

    @Test(arguments: [Key.escape, .char("q"), .char("?"), .enter])
    func helpClosesAndTheListIsAsItWas(_ key: Key) throws {
        let h = try Harness(.sample(count: 200))
        h.press(.char("j"), .char("j"))
        let before = h.screen
        h.press(.char("?"))
        #expect(h.screen[0].contains("Help"))
        #expect(h.line(containing: "closes help") != nil)
        h.press(key)
        #expect(!h.session.isFinished, "closing help does not quit")
        #expect(h.screen == before)
        #expect(h.reversedListRows == [5])
    }

    @Test func helpScrollsWhenTheTerminalIsShort() throws {
        let h = try Harness(.sample(count: 20), width: 40, height: 12)
        h.press(.char("?"))
        #expect(h.screen[11].contains("↓ more"), "\(h.dump)")
        #expect(h.line(containing: "Quit") == nil)
        // Descriptions wrap at 40 columns, so scroll until the last binding shows (bounded).
        var presses = 0
        while h.screen[11].contains("↓ more") && presses < 200 { h.press(.char("j")); presses += 1 }
        #expect(presses > 0 && presses < 200)
        #expect(h.line(containing: "Quit") != nil, "\(h.dump)")
        #expect(!h.screen[11].contains("↓ more"))
        h.press(.char("j"))
        #expect(h.line(containing: "Quit") != nil, "no scrolling past the end")
        h.press(.up)
        #expect(h.screen[11].contains("↓ more"))
        for line in h.screen { #expect(line.displayWidth == 40) }
    }
}
