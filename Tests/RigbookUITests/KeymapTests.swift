import Foundation
import Testing
@testable import RigbookApp
@testable import RigbookUI

/// Keymaps are data: every situation of every screen binds a key once, a text field's situation
/// binds no printable key, and the README's key table is the one the keymaps generate: a line per screen with
/// each key once, all it does there, most-used first.
@Suite struct KeymapTests {
    static let situations = KeyCatalog.screens.flatMap { screen in screen.situations.map { (screen.name, $0) } }

    @Test(arguments: situations.map { "\($0.0): \($0.1.name)" })
    func noKeyIsBoundTwice(_ name: String) throws {
        let situation = try #require(KeymapTests.situations.first { "\($0.0): \($0.1.name)" == name }?.1)
        // The global keys are live everywhere, so they count in every situation.
        let keymaps = situation.keymaps
            + (situation.keymaps.contains { $0.title == App.keymap.title } ? [] : [App.keymap.summary])
        var owner: [Key: String] = [:]
        for keymap in keymaps {
            for binding in keymap.bindings {
                for key in binding.keys {
                    #expect(owner[key] == nil,
                            "\(key.name) is bound by \(owner[key] ?? "") and \(keymap.title): \(binding.label)")
                    owner[key] = "\(keymap.title): \(binding.label)"
                }
            }
        }
    }

    @Test(arguments: situations.filter { $0.1.typing }.map { "\($0.0): \($0.1.name)" })
    func noPrintableKeyIsAnActionWhileTyping(_ name: String) throws {
        let situation = try #require(KeymapTests.situations.first { "\($0.0): \($0.1.name)" == name }?.1)
        for keymap in situation.keymaps {
            #expect(keymap.whileTyping, "\(keymap.title) is not meant to be live while typing")
            for binding in keymap.bindings {
                #expect(!binding.keys.contains { $0.isPrintable },
                        "\(keymap.title): \(binding.label) would eat typed text")
            }
        }
    }

    @Test func everyBindingHasHelpAndAShortName() {
        for (screen, situation) in KeymapTests.situations {
            for keymap in situation.keymaps {
                for binding in keymap.bindings {
                    #expect(!binding.help.isEmpty, "\(screen) \(keymap.title) \(binding.label)")
                    #expect(!binding.keys.isEmpty && !binding.label.isEmpty, "\(screen) \(keymap.title)")
                }
            }
        }
    }

    @Test func everyLabelNamesOnlyKeysItsBindingHas() {
        // The key table merges bindings by the words of their labels: a word must be the key's own name.
        for (screen, situation) in KeymapTests.situations {
            for keymap in situation.keymaps {
                for binding in keymap.bindings where binding.label != TypeAhead.label {
                    let names = Set(binding.keys.map(\.name))
                    for word in binding.label.split(separator: " ") {
                        #expect(names.contains(String(word)), "\(screen) \(keymap.title): \(binding.label)")
                    }
                }
            }
        }
    }

    @Test(arguments: KeyCatalog.rows().map(\.screen))
    func aScreensLineNamesEachKeyOnceWithAllItDoes(_ name: String) throws {
        let screen = try #require(KeyCatalog.screens.first { $0.name == name })
        let items = try #require(KeyCatalog.rows().first { $0.screen == name }).items.filter { !$0.keys.isEmpty }
        let words = items.map { $0.keys.split(separator: " ").map(String.init) }
        let all = words.flatMap { $0 }
        #expect(Set(all).count == all.count, "a key twice on the \(name) line: \(all)")
        var ranks = Array(repeating: KeyRank.rarely, count: items.count)
        for binding in screen.lineKeymaps.flatMap(\.bindings) {
            let shown = binding.label.split(separator: " ").map(String.init)
            // The binding's keys are all in one entry, which says what the binding does.
            let entries = words.indices.filter { words[$0].contains(where: shown.contains) }
            #expect(entries.count == 1, "\(name): \(binding.label) is in \(entries.count) entries")
            guard let entry = entries.first else { continue }
            #expect(Set(shown).isSubset(of: words[entry]), "\(name): \(binding.label) is split")
            #expect(items[entry].does.components(separatedBy: " / ").contains(binding.brief),
                    "\(name): \(items[entry].keys) does not say \(binding.brief)")
            ranks[entry] = min(ranks[entry], binding.rank)
        }
        // Most used first: an entry ranks as the most used binding in it.
        #expect(ranks == ranks.sorted(), "\(name): \(zip(items.map(\.keys), ranks).map { "\($0) \($1)" })")
    }

    @Test func theKeyTableEndsWithWhereEveryKeyIsExplained() throws {
        let last = try #require(KeyCatalog.markdownTable().split(separator: "\n").last)
        #expect(last.contains("`?`") && last.contains("`F1`"), "\(last)")
    }

    @Test func theReadmeKeyTableIsTheOneTheKeymapsMake() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let start = try #require(text.range(of: "<!-- keys: generated from the keymaps"))
        let end = try #require(text.range(of: "<!-- /keys -->"))
        let table = text[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .dropFirst().joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        if table != KeyCatalog.markdownTable(), ProcessInfo.processInfo.environment["RIGBOOK_WRITE_KEY_TABLE"] == "1" {
            // A developer's shortcut after changing a keymap: the test writes the table it wants, then fails once.
            let fresh = text[..<start.upperBound] + text[start.upperBound...].prefix { $0 != "\n" } + "\n"
                + KeyCatalog.markdownTable() + "\n" + text[end.lowerBound...]
            try fresh.write(to: readme, atomically: true, encoding: .utf8)
        }
        #expect(
            table == KeyCatalog.markdownTable(),
            "README.md's key table should read (RIGBOOK_WRITE_KEY_TABLE=1 writes it):\n\(KeyCatalog.markdownTable())"
        )
    }
}

/// A key that is not in a screen's keymap does nothing there: no change on screen, no quitting.
@Suite struct UnboundKeyTests {
    static let universe: [Key] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 /?!.,-"
        .map { .char($0) }
        + "abcdefghijklmnopqrstuvwxyz".map { .ctrl($0) }
        + [.enter, .escape, .tab, .backTab, .backspace, .delete, .up, .down, .left, .right, .home, .end,
           .pageUp, .pageDown]
        + (1...12).map { .function($0) }

    /// Opens a screen by keys from the list, then presses every key its keymaps leave unbound.
    @Test(arguments: [
        ("register list", [Key]()), ("history", [.enter]), ("record", [.enter, .enter]), ("drafts", [.char("D")]),
        ("dashboard", [.tab]), ("help", [.char("?")]),
    ] as [(String, [Key])])
    func unboundKeysDoNothing(_ name: String, _ opening: [Key]) throws {
        let screen = try #require(KeyCatalog.screens.first { $0.name == name })
        let bound = Set(screen.situations[0].keymaps.flatMap { $0.bindings.flatMap(\.keys) }
                        + App.keymap.bindings.flatMap(\.keys))
        let h = try Harness(.sample(count: 30))
        h.press(opening)
        let before = h.screen
        for key in UnboundKeyTests.universe where !bound.contains(key) {
            h.press(key)
            #expect(h.screen == before, "\(key.name) changed the \(name) screen")
            #expect(!h.session.isFinished, "\(key.name) quit from the \(name) screen")
        }
    }
}
