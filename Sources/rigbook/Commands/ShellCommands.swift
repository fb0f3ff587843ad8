import RigbookStore

/// What rigbook gives the shell around it: its completion scripts and manual pages, written by the installed binary
/// from its own command table (so a package takes them from the program they describe), and the plumbing the
/// completion scripts call on each Tab.
enum ShellCommands {
    static let all = [completions, man, completeWords, completeTags]

    struct CompletionsOptions: OptionTable {
        let shell = Operand("bash|zsh|fish", missing: "the shell (bash, zsh or fish)",
                            kind: .choices(CompletionScripts.shells))
    }

    static let completions = CommandSpec(
        name: "completions", abstract: "Print the completion script for bash, zsh or fish.",
        usage: "rigbook completions bash|zsh|fish",
        discussion: """
            bash: `source <(rigbook completions bash)` in ~/.bashrc, or save it as
            /usr/share/bash-completion/completions/rigbook. zsh: save it as _rigbook in a folder of $fpath. fish:
            save it as ~/.config/fish/completions/rigbook.fish. The script asks rigbook on each Tab, so it completes
            commands, options, their values and the register's tags as this rigbook takes them.
            """,
        options: CompletionsOptions.self
    ) { arguments, _ in
        let shell = try arguments.operand(\.shell)
        try arguments.finish()
        guard let script = CompletionScripts.script(for: shell) else {
            throw UsageError("completions takes bash, zsh or fish, not \(shell)")
        }
        try Output.line(script)
        return ExitCode.success
    }

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

    struct CompleteWordsOptions: OptionTable {
        let index = Operand("INDEX", missing: "the INDEX of the word to complete")
        let words = Operand(":WORD", missing: "the words", repeats: true)
    }

    static let completeWords = CommandSpec(
        name: "complete-words", abstract: "Print what the word at INDEX may become: the completion scripts' answer.",
        usage: "rigbook complete-words INDEX :WORD...",
        discussion: """
            The WORDs are the command line being typed, the program first, each after a `:` (so none reads as an
            option). A line an answer, a word and its description after a tab; `:file` or `:directory` asks the
            shell to complete a name itself. Tags come from the register of the data home the line names, read
            only; nothing is ever written.
            """,
        options: CompleteWordsOptions.self, hidden: true
    ) { arguments, context in
        let index = try arguments.operand(\.index)
        var words: [String] = []
        while let word = arguments.nextOperand(\.words) { words.append(String(word.dropFirst())) }
        try arguments.finish()
        guard let at = Int(index), at >= 0 else {
            throw UsageError("complete-words needs the INDEX of a word, not \(index)")
        }
        var out = Output()
        for answer in Completion.answers(words: words, index: at, environment: context.environment) {
            switch answer {
            case .word(let word, let text): try out.write(word + (text.isEmpty ? "" : "\t" + text) + "\n")
            case .file: try out.write(":file\n")
            case .directory: try out.write(":directory\n")
            }
        }
        try out.flush()
        return ExitCode.success
    }

    struct CompleteTagsOptions: OptionTable {
        let prefix = Operand("PREFIX", missing: "the PREFIX")
    }

    static let completeTags = CommandSpec(
        name: "complete-tags", abstract: "Print the register's tags that begin with PREFIX, a line each.",
        usage: "rigbook complete-tags [PREFIX]",
        discussion: """
            Letter case is ignored, as tags ignore it. The register is only read, through its tags' index; a home
            without one prints nothing and makes nothing.
            """,
        options: CompleteTagsOptions.self, hidden: true
    ) { arguments, context in
        let prefix = arguments.nextOperand(\.prefix) ?? ""
        try arguments.finish()
        var out = Output()
        for tag in Register.tags(startingWith: prefix, inRegisterAt: context.home.registerPath) {
            try out.write(tag + "\n")
        }
        try out.flush()
        return ExitCode.success
    }
}
