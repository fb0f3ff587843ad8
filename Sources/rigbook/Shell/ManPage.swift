import RigbookCore
import RigbookStore
import RigbookUI

/// The manual pages, made by the program they describe (`rigbook man PAGE`): every command with its usage and its
/// table's options, the exit codes, the environment and the keys come from the same declarations as the help, the
/// completions and the screens' own help, so the pages cannot drift from the program.
enum ManPages {
    static let names = ["rigbook.1", "rigbook-formats.5"]

    static func page(_ name: String) -> String? {
        switch name {
        case "rigbook.1": rigbook
        case "rigbook-formats.5": FormatsPage.text
        default: nil
        }
    }

    /// rigbook(1).
    static var rigbook: String {
        var page = Roff(title: "RIGBOOK", section: 1, version: RigbookVersion.current)
        page.section("NAME")
        page.line("rigbook - an offline register of lifting equipment and its inspections")
        page.section("SYNOPSIS")
        page.verbatim("rigbook [--home DIR] [COMMAND [OPTIONS]]")
        page.section("DESCRIPTION")
        page.paragraph("""
            Rigbook keeps a register of lifting equipment (slings, shackles, chain blocks, hoists, eyebolts) and of
            electrical items tested and tagged, with their inspections and tests: complete, confirmed records that
            are never edited, chained by hash so that any change is found. With no command, rigbook opens the
            register full-screen (its keys are under KEYS below); a form being typed is kept as a draft, written to
            disk as it is typed and offered back after a crash. The commands below read and write the same register
            from a shell or a script.
            """)
        page.section("OPTIONS")
        page.paragraph("Options of rigbook itself, given before or after the command.")
        for declared in Commands.GlobalOptions.declared { page.option(declared) }
        page.section("COMMANDS")
        for spec in Commands.all { page.command(spec) }
        page.section("KEYS")
        page.paragraph("The full-screen register's keys, screen by screen: each key once with what it does there, the"
                       + " most used first. Each screen's help (? or, in a form, F1) lists every key in full.")
        for (screen, items) in KeyCatalog.rows() {
            page.subsection(screen)
            page.list(items.filter { !$0.keys.isEmpty }.map { (Roff.bold($0.keys), $0.does) }, indent: 14)
            // What other keys do is a sentence of its own ("Any other key keeps it.").
            for (keys, does) in items where keys.isEmpty { page.paragraph(does) }
        }
        page.section("EXIT STATUS")
        page.list(ExitCode.meanings.map { (Roff.bold("\($0.status)"), $0.meaning) }, indent: 6)
        page.section("ENVIRONMENT")
        for (name, text) in Commands.environment { page.item(Roff.bold(name), text) }
        page.section("FILES")
        page.paragraph("DATA is the data home: --home DIR, else $RIGBOOK_HOME, else $XDG_DATA_HOME/rigbook, else"
                       + " ~/.local/share/rigbook.")
        let home = DataHome(root: "DATA")
        for (path, text) in [
            (home.registerPath, "The register: an SQLite database of the assets, records, particulars and keys."),
            (home.draftsFolder, "The drafts of forms being typed (<draft_id>.json), their keystroke journals and"
                + " locks; unreadable ones are moved to Corrupt/ below it. See rigbook-formats(5)."),
            (AttachmentStore(home: home).folder, "Files attached to records, named by their SHA-256."),
            (home.keysFolder, "This machine's examiners' private signing keys (FINGERPRINT.pem, 0600)."),
            (home.profilePath, "Who was last typing on this machine, to prefill the next inspection."),
            (home.testProfilePath, "The same for the electrical test form."),
            ("$XDG_CACHE_HOME/rigbook/", "The replicas --server reads the organisation's server through (else"
                + " ~/.cache/rigbook/)."),
        ] {
            page.item(Roff.bold(path), text)
        }
        page.section("SEE ALSO")
        page.line("`rigbook-formats`(5)")
        return page.text
    }
}

private extension Roff {
    /// A command: its name, what it does, its usage, its discussion, then each option its table declares.
    mutating func command(_ spec: CommandSpec) {
        subsection("rigbook " + spec.name)
        paragraph(spec.abstract + (spec.hidden ? " (Called by the completion scripts; not listed by the help.)" : ""))
        verbatim(spec.usage)
        if !spec.discussion.isEmpty { paragraph(spec.discussion) }
        for declared in spec.options { option(declared) }
    }

    mutating func option(_ declared: Declared) {
        switch declared {
        case .option(let option): item(Roff.bold(option.name) + " " + Roff.italic(option.value), option.help)
        case .flag(let flag): item(Roff.bold(flag.spelling), flag.help)
        case .operand: break
        }
    }
}
