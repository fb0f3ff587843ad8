import Foundation
import RigbookCore
import RigbookStore
import Testing

/// The client ref (the owner's own plant number) on the built binary: added, edited with a reason, listed,
/// exported and imported again, for lifting and electrical assets.
extension RigbookCLITests {
    @Suite struct ClientRefCommandTests {
        @discardableResult
        private func run(_ arguments: [String], _ home: String,
                         sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
            let result = runRigbookResult(arguments, home: home)
            #expect(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
            return result
        }

        /// Each asset's client ref by tag, from JSON objects (nil for null).
        private func clientRefs(_ objects: [[String: Any]]) -> [String: String?] {
            Dictionary(uniqueKeysWithValues: objects.map { (string($0, "tag") ?? "?", string($0, "client_ref")) })
        }

        /// The CSV's rows (no quoted fields in these tests) by tag: the header's last column, the cell under it.
        private func csvClientRefs(_ text: String) -> (last: String?, refs: [String: String]) {
            let lines = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",",
                                                                              omittingEmptySubsequences: false) }
            guard let header = lines.first else { return (nil, [:]) }
            let refs = lines.dropFirst().map { (String($0[0]), String($0[header.count - 1])) }
            return (header.last.map(String.init), Dictionary(uniqueKeysWithValues: refs))
        }

        @Test func addEditListExportAndImportCarryIt() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            run(["asset", "add", "--tag", "SL-1", "--name", "2 t sling", "--type", "web-sling", "--wll", "2000",
                 "--client-ref", " P-4471 "], home)
            run(["asset", "add", "--kind", "electrical", "--tag", "TT-1", "--name", "Drill", "--class", "class-1",
                 "--environment", "factory", "--client-ref", "HIRE-0815"], home)
            run(["asset", "add", "--tag", "SL-2", "--name", "1 t sling", "--type", "web-sling", "--wll", "1000"], home)
            #expect(clientRefs(listAssets(home: home)) == ["SL-1": "P-4471", "SL-2": nil, "TT-1": "HIRE-0815"])

            let edit = run(["asset", "edit", "SL-2", "--client-ref", "P-9", "--reason", "owner's register"], home)
            #expect(edit.stdout.contains("Changed SL-2: client ref — → P-9."), "\(edit)")
            let cleared = run(["asset", "edit", "TT-1", "--client-ref", "", "--reason", "back to the hirer"], home)
            #expect(cleared.stdout.contains("client ref HIRE-0815 → —"), "\(cleared)")
            let expected: [String: String?] = ["SL-1": "P-4471", "SL-2": "P-9", "TT-1": nil]
            #expect(clientRefs(listAssets(home: home)) == expected)

            let list = csvClientRefs(run(["asset", "list", "--format", "csv"], home).stdout)
            #expect(list.last == "client_ref" && list.refs == ["SL-1": "P-4471", "SL-2": "P-9", "TT-1": ""])
            let exportCSV = run(["export", "--format", "csv"], home).stdout
            #expect(csvClientRefs(exportCSV).refs == list.refs)
            let exportJSON = run(["export", "--format", "json"], home).stdout
            let object = try #require(try JSONSerialization.jsonObject(with: Data(exportJSON.utf8)) as? [String: Any])
            #expect(clientRefs(try #require(object["assets"] as? [[String: Any]])) == expected)

            // The export imports as it is into another home, client refs and kinds and all.
            let file = dir.sub("export.csv")
            try Data(exportCSV.utf8).write(to: URL(fileURLWithPath: file))
            let other = dir.sub("other")
            run(["import", file], other)
            let imported = listAssets(home: other)
            #expect(clientRefs(imported) == expected)
            #expect(imported.first { string($0, "tag") == "TT-1" }.map { string($0, "kind") } == "electrical")
            run(["verify"], home)
            run(["verify"], other)
        }

        @Test func theHistoryKeepsEachEditOfItWithItsReason() throws {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            run(["asset", "add", "--tag", "SL-1", "--name", "2 t sling", "--type", "web-sling", "--wll", "2000"], home)
            run(["asset", "edit", "SL-1", "--client-ref", "P-4471", "--reason", "owner's register"], home)
            run(["asset", "edit", "SL-1", "--client-ref", "P-4472", "--reason", "misread"], home)
            let entries = parseAssetJSON(run(["history", "SL-1", "--format", "json"], home).stdout)
            #expect(entries.map { string($0, "field") } == ["client_ref", "client_ref"], "newest first")
            #expect(entries.map { string($0, "new_value") } == ["P-4472", "P-4471"])
            #expect(isNull(entries.last?["old_value"]) && string(entries[0], "reason") == "misread")
            let table = run(["history", "SL-1"], home).stdout
            #expect(table.contains("Changes of the asset") && table.contains("client_ref"), "\(table)")
            #expect(table.contains("P-4472") && table.contains("misread"), "\(table)")
        }

        @Test func helpAndBadValuesSayWhatItIs() {
            let dir = TempDir()
            defer { dir.remove() }
            let home = dir.sub("home")
            for command in [["asset", "add"], ["asset", "edit"]] {
                let help = run(["help"] + command, home)
                #expect(help.stdout.contains("[--client-ref TEXT]"), "\(command): \(help.stdout)")
            }
            let bad = runRigbookResult(["asset", "add", "--tag", "SL-1", "--name", "sling", "--type", "web-sling",
                                        "--wll", "2000", "--client-ref", "P-\u{7}1"], home: home)
            #expect(bad.status == 64 && bad.stderr.contains("The client ref holds control characters."), "\(bad)")
        }
    }
}
