/// What rigbook gives the shell around it: its manual pages, written by the installed binary from its own command
/// table (so a package takes them from the program they describe).
enum ShellCommands {
    static let all = [man]

    struct ManOptions: OptionTable {
        let page = Operand("PAGE", missing: "the PAGE (rigbook.1 or rigbook-formats.5)",
                           kind: .choices(ManPages.names))
    }

    static let man = CommandSpec(
        name: "man", abstract: "Print a manual page as roff: rigbook.1 or rigbook-formats.5.",
        usage: "rigbook man rigbook.1|rigbook-formats.5",
        discussion: """
            The pages are made from rigbook's own command table, keymaps and formats, so they describe this
            rigbook: `rigbook man rigbook.1 > rigbook.1; man ./rigbook.1`.
            """,
        options: ManOptions.self
    ) { arguments, _ in
        let name = try arguments.operand(\.page)
        try arguments.finish()
        guard let page = ManPages.page(name) else {
            throw UsageError("man takes \(ManPages.names.joined(separator: " or ")), not \(name)")
        }
        try Output.line(page)
        return ExitCode.success
    }
}
