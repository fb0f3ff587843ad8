import Testing
import Foundation
@testable import RigbookUI
import RigbookCore
import RigbookStore

/// SPEC §9: text from data is drawn with control characters made visible; CJK at double width.
@Suite struct HostileDataTests {
    /// Writes text that `Asset.problems()` would refuse straight into the register file, as a damaged
    /// or foreign-written register could hold it.
    private func rawUpdate(_ register: Register, _ sql: String, _ arguments: [SQLValue]) throws {
        let db = try Database(path: register.path)
        try db.run(sql, arguments)
    }

    private func hostileHarness(width: Int = 80, height: Int = 24) throws -> Harness {
        try Harness(.assets([
            makeAsset(tag: "SL-0001", name: "Good sling"),
            makeAsset(tag: "SL-0002", name: "placeholder"),
            makeAsset(tag: "SL-0003", name: "Tag with escape"),
        ]), width: width, height: height) { register in
            try rawUpdate(register, "UPDATE assets SET name = ? WHERE tag = ?",
                          [.text("Bad\u{1B}[2Jname"), .text("SL-0002")])
            try rawUpdate(register, "UPDATE assets SET tag = ? WHERE tag = ?",
                          [.text("X\u{1B}]0;pwn\u{7}"), .text("SL-0003")])
        }
    }

    @Test func escapeSequencesInNamesAndTagsAreDrawnInCaretNotation() throws {
        let h = try hostileHarness()
        #expect(try h.register.rows().contains { $0.asset.name.contains("\u{1B}") }, "the raw ESC is in the register")
        #expect(!h.frame.containsControlCharacter, "\(h.dump)")
        #expect(h.line(containing: "Bad^[[2J") != nil, "\(h.dump)")
        #expect(h.screen.contains { $0.hasPrefix("X^[]0;pwn") }, "\(h.dump)")
        // What goes to the terminal: a full repaint and every diff carry no control character.
        let runs = h.fullRedrawRuns()
        #expect(!runs.isEmpty)
        #expect(!runs.contains {
            $0.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
        })
        // Selecting the rows (reverse video) and filtering to them changes nothing about that.
        h.press(.char("j"), .char("j"))
        #expect(!h.frame.containsControlCharacter)
        h.press(.char("/"))
        h.type("pwn")
        #expect(h.screen[0].contains("filter: 1 shown"), "\(h.screen[0])")
        #expect(h.screen[3].hasPrefix("X^[]0;pwn"))
        #expect(!h.frame.containsControlCharacter)
        h.press(.escape)
        // The status column stays where its heading is on every row.
        let statusColumn = h.frame.column(of: "STATUS", y: 2)
        for row in h.shownRows {
            #expect(row.status == .ok)
            #expect(h.frame.column(of: "OK", y: row.y) == statusColumn, "\(row.tag)\n\(h.dump)")
        }
    }

    @Test func escapeSequencesAt40Columns() throws {
        let h = try hostileHarness(width: 40, height: 12)
        #expect(!h.frame.containsControlCharacter)
        #expect(h.line(containing: "Bad^[[2Jname") != nil, "\(h.dump)")
        for line in h.screen { #expect(line.displayWidth == 40) }
    }

    /// Text too long for its column is cut with “…”. Made-visible control characters take columns
    /// too (ESC is drawn as two), so text holding them must be cut the same way, never silently.
    @Test func textWithControlCharactersIsCutWithAnEllipsisLikeOtherText() throws {
        let longName = "Sling\u{1B}[31mRED\u{1B}[0m with a long name"
        let escTag = "X\u{1B}]0;pwn\u{7}"
        let h = try Harness(.assets([
            makeAsset(tag: "SL-0001", name: "A plain name that is far too long for the column"),
            makeAsset(tag: "SL-0002", name: "placeholder"),
            makeAsset(tag: "SL-0003", name: "placeholder"),
            makeAsset(tag: "SL-0004", name: "placeholder"),
        ])) { register in
            try rawUpdate(register, "UPDATE assets SET name = ? WHERE tag = ?", [.text(longName), .text("SL-0002")])
            try rawUpdate(register, "UPDATE assets SET name = ? WHERE tag = ?",
                          [.text("Bad\u{1B}[2Jname"), .text("SL-0003")])
            try rawUpdate(register, "UPDATE assets SET tag = ? WHERE tag = ?", [.text(escTag), .text("SL-0004")])
        }
        let f = h.frame
        let nameX = try #require(f.column(of: "NAME", y: 2))
        let typeX = try #require(f.column(of: "TYPE", y: 2))
        let byTag = Dictionary(uniqueKeysWithValues: try h.register.rows().map { ($0.asset.tag, $0.asset.name) })
        #expect(h.shownRows.count == 4)
        func trimmed(_ text: String) -> String { String(text.reversed().drop { $0 == " " }.reversed()) }
        for (index, tag) in ["SL-0001", "SL-0002", "SL-0003", escTag].enumerated() {
            let y = 3 + index
            let visibleTag = VisibleText.make(tag)
            let tagField = trimmed(h.field(y: y, x: 0, width: nameX - 2))
            #expect(tagField == visibleTag || tagField.hasSuffix("…"),
                    "tag column shows “\(tagField)” for “\(visibleTag)”\n\(h.dump)")
            let visibleName = VisibleText.make(byTag[tag] ?? "")
            let nameField = trimmed(h.field(y: y, x: nameX, width: typeX - 1 - nameX))
            #expect(nameField == visibleName || nameField.hasSuffix("…"),
                    "name column shows “\(nameField)” for “\(visibleName)”\n\(h.dump)")
        }
        #expect(h.line(containing: "Sling^[[3") != nil, "\(h.dump)")
        #expect(!f.containsControlCharacter)
    }

    @Test(arguments: [(80, 24), (40, 12), (60, 16)])
    func cjkNamesLineUp(width: Int, height: Int) throws {
        let names = ["王建国的吊带", "吊带", "王建国的吊带王建国的吊带", "a王建国的吊带",
                     "Plain name", "é😀 sling", "三吨圆形吊带 3 m", "x"]
        let assets = names.enumerated().map { index, name in
            makeAsset(tag: index == 2 ? "吊-0003" : "SL-000\(index)", name: name,
                      location: index.isMultiple(of: 2) ? "仓库 2" : "Quay 1")
        } + [makeAsset(tag: "OV-0001", name: "王建国的旧吊带", commissioned: "2024-01-01"),
             makeAsset(tag: "UT-0001", name: "未检测吊带", commissioned: nil)]
        let h = try Harness(.assets(assets), width: width, height: height)
        let f = h.frame
        let statusX = try #require(f.column(of: "STATUS", y: 2))
        let nameX = try #require(f.column(of: "NAME", y: 2))
        let rows = h.shownRows
        #expect(rows.count == min(assets.count, height - 4))
        for row in rows {
            let status = try #require(row.status, "row \(row.y): \(h.screen[row.y])")
            #expect(f.column(of: status.label, y: row.y) == statusX, "row \(row.y) of\n\(h.dump)")
            #expect(h.screen[row.y].displayWidth == width)
            #expect((0..<width).reduce(0) { $0 + Int(f[$1, row.y].width) } == width)
            #expect(!f[nameX, row.y].text.isEmpty, "the name starts on a cell of its own at row \(row.y)")
        }
        if let typeX = f.column(of: "TYPE", y: 2) {
            for row in rows { #expect(h.field(y: row.y, x: typeX, width: 3) == "Web", "row \(row.y)\n\(h.dump)") }
        }
        let statuses = Set(rows.compactMap(\.status))
        #expect(statuses.contains(.overdue) && statuses.contains(.untested), "\(h.dump)")
        #expect(h.line(containing: "王建国的") != nil)
        // The selection bar covers the tag of a CJK row cell for cell, and nothing of its name.
        let cjkRow = try #require(rows.first { h.screen[$0.y].contains("王建国的旧") }, "\(h.dump)")
        let up = rows.firstIndex { $0.y == cjkRow.y }!
        h.press(Array(repeating: .down, count: up))
        #expect(h.reversedListRows == [cjkRow.y])
        let tagWidth = h.state.list.tagWidth
        #expect((0..<tagWidth).allSatisfy { h.frame[$0, cjkRow.y].style.reverse }, "\(h.dump)")
        #expect(!(tagWidth + 2..<width / 2).contains { h.frame[$0, cjkRow.y].style.reverse }, "\(h.dump)")
        // The last page, with the CJK tag, lines up too.
        h.press(.end)
        #expect(h.line(containing: "吊-0003") != nil, "\(h.dump)")
        for row in h.shownRows {
            let status = try #require(row.status)
            #expect(h.frame.column(of: status.label, y: row.y) == statusX, "row \(row.y) of\n\(h.dump)")
        }
    }

    @Test func cjkAndEmojiQueryInTheFilterLine() throws {
        let h = try Harness(.assets([makeAsset(tag: "SL-0001", name: "王建国的吊带"),
                                     makeAsset(tag: "SL-0002", name: "Plain")]))
        h.press(.char("/"))
        h.type("建国")
        #expect(h.screen[23].hasPrefix("/建国"))
        #expect(h.frame.cursor.map { [$0.x, $0.y] } == [5, 23], "the cursor sits after two wide characters")
        #expect(h.screen[0].contains("filter: 1 shown"))
        #expect(h.screen[3].hasPrefix("SL-0001"))
    }
}

/// Hostile testing: control characters in a draft's operator name pushed the Drafts screen's HOST column right
/// (padded by their width, 0, but drawn in caret notation, ^[ taking 2).
extension HostileDataTests {
    @Test func controlCharactersInAnOperatorNameKeepTheDraftsColumnsInLine() throws {
        let asset = makeAsset(tag: "SL-0001", name: "Good sling")
        let h = try Harness(.assets([asset]))
        let values = InspectionValues.blank(inspectorName: "Bo", certificationNumber: "C-7", today: harnessToday)
        let draft = DraftFile(draftID: DraftIdentity.draftID(assetUUID: asset.uuid),
                              sessionID: DraftIdentity.sessionID(assetUUID: asset.uuid),
                              assetUUID: asset.uuid.uuidString.lowercased(), assetTag: asset.tag, amends: nil,
                              values: values, createdAt: Timestamp.now(), updatedAt: Timestamp.now(),
                              operatorName: "Bo\u{1B}\u{1B}Berg", host: "depot-laptop", revision: 1)
        try DraftStore(home: h.home).write(draft)
        h.press(.char("D"))
        let row = try #require(h.line(containing: "SL-0001"), "\(h.dump)")
        #expect(row.text.contains("Bo^[^[Berg "), "\(h.dump)")
        #expect(h.frame.column(of: "depot-laptop", y: row.y) == h.frame.column(of: "HOST", y: 1), "\(h.dump)")
        #expect(!h.frame.containsControlCharacter)
    }
}
