import Foundation
import Testing
@testable import RigbookApp
@testable import RigbookUI

/// Keymaps are data: every situation of every screen binds a key once, a text field's situation
/// binds no printable key, and the README's key table is the one the keymaps generate.
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
