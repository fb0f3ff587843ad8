import Foundation
import Testing

// `rigbook labels` and the colour-code setting from a shell: what is chosen, what is refused.

extension RigbookCLITests {
    @Suite("labels command") struct LabelCommand {
        static func home() -> CertificateHome {
            let home = CertificateHome()
            for tag in ["SL-0001", "SL-0002", "SH-0003"] { home.addAsset(tag, "2 t web sling") }
            return home
        }

        @Test("tags in the order given; --due-before; standard output without --out")
        func selection() throws {
            let home = LabelCommand.home()
            defer { home.remove() }
            let page = home.run(["labels", "sh-0003", "SL-0001"])
            #expect(page.status == 0, "\(page)")
            let payloads = page.stdout.matches(of: /data-payload="([^"]*)"/).map { String($0.output.1) }
            #expect(payloads == ["/RB1:SH-0003:20250710", "/RB1:SL-0001:20250710"], "\(payloads)")
            let due = home.run(["labels", "--due-before", "2026-01-01", "--layout", "due", "--sheet", "2x4"])
            #expect(due.status == 0)
            #expect(due.stdout.matches(of: /<div class="label due"/).count == 3)
            #expect(due.stdout.contains("2x4"))
        }

        // A site the register does not have is a word --site does not take (exit 64, as on every command).
        @Test("usage and failures: exit 64 for bad usage, 1 for a tag or selection that finds nothing", arguments: [
            (["labels"], 64), (["labels", "SL-0001", "--site", "Main site"], 64),
            (["labels", "--layout", "big", "SL-0001"], 64), (["labels", "--sheet", "3x8", "SL-0001"], 64),
            (["labels", "--due-before", "2026-02-30"], 64), (["labels", "NOPE-1"], 1),
            (["labels", "--due-before", "2020-01-01"], 1), (["labels", "--site", "Nowhere"], 64),
        ])
        func refusals(arguments: [String], status: Int) {
            let home = LabelCommand.home()
            defer { home.remove() }
            let result = home.run(arguments)
            #expect(Int(result.status) == status, "\(result)")
            #expect(result.stdout.isEmpty, "nothing printed on a refusal")
        }

        @Test("the colour code is a setting of the examining organisation, with its words checked")
        func colourSetting() throws {
            let home = LabelCommand.home()
            defer { home.remove() }
            #expect(home.run(["settings", "set", "organisation.colour_code", "plaid"]).status == 64)
            #expect(home.run(["settings", "set", "organisation.colour_code", "AU-Quarters"]).status == 0)
            let got = home.run(["settings", "get", "organisation.colour_code"])
            #expect(got.stdout == "au-quarters\n", "\(got)")
            #expect(home.run(["asset", "list"]).status == 0)
            #expect(home.run(["labels", "SL-0001"]).status == 0)
        }
    }
}
