import Foundation
import RigbookStore
import Testing

/// The environment a shell completes in: the tests' own, `rigbook` on PATH being the built binary.
private func shellEnvironment(_ home: String, _ extra: [String: String] = [:]) throws -> [String: String] {
    let binary = try Binary.path()
    var environment = baseEnvironment(userHome: home + "-user")
    let folder = (binary as NSString).deletingLastPathComponent
    environment["PATH"] = folder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    for (key, value) in extra { environment[key] = value }
    return environment
}

/// What bash completes the last of `words` with, through the script `rigbook completions bash` prints: the
/// words set as bash sets them for a Tab (COMP_WORDS, COMP_CWORD), the function `complete -p` names called.
private func bashCompletes(_ words: [String], home: String, in folder: String? = nil,
                           environment extra: [String: String] = [:]) throws -> [String] {
    let bash = try requiredProgram("bash", package: "bash")
    let script = """
        \(folder.map { "cd '\($0)' || exit 9" } ?? "")
        source <(rigbook completions bash) || exit 9
        function=$(complete -p rigbook | sed -n 's/^complete -F \\([^ ]*\\) rigbook$/\\1/p')
        [ -n "$function" ] || exit 8
        COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=()
        "$function" rigbook
        printf '%s\\n' "${COMPREPLY[@]}"
        """
    let result = try runProcess(bash, ["-c", script, "bash"] + words, environment: try shellEnvironment(home, extra))
    try #require(result.status == 0 && result.stderr.isEmpty, "bash completing \(words): \(result)")
    return result.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
}

/// A register holding SL-0001, SL-0002 and SH-0001.
private func homeWithTags(_ dir: TempDir) -> String {
    let home = dir.sub("home")
    for tag in ["SL-0001", "SL-0002", "SH-0001"] {
        let added = runRigbookResult(["asset", "add", "--tag", tag, "--name", "Sling", "--type", "web-sling",
                                      "--wll", "1000"], home: home)
        #expect(added.status == 0, "\(added)")
    }
    return home
}

extension RigbookCLITests {
    @Suite("Completions: from the command table") struct Completions {
        @Test(arguments: ["bash", "zsh", "fish"])
        func eachScriptIsSoundForItsShell(_ shell: String) throws {
            let program = try requiredProgram(shell, package: shell)
            let dir = TempDir(); defer { dir.remove() }
            let script = runRigbookResult(["completions", shell], home: dir.sub("home"))
            try #require(script.status == 0 && script.stderr.isEmpty && !script.stdout.isEmpty, "\(script)")
            try script.stdout.write(toFile: dir.sub("script"), atomically: true, encoding: .utf8)
            let result = try runProcess(program, ["-n", dir.sub("script")],
                                        environment: ProcessInfo.processInfo.environment)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(shell) -n: \(result)")
            #expect(!fileExists(dir.sub("home")))
        }

        /// Where a package puts it: bash-completion loads `completions/rigbook` the first time rigbook is completed.
        @Test func bashCompletionLoadsTheScriptFromItsFolder() throws {
            let bash = try requiredProgram("bash", package: "bash")
            let loader = "/usr/share/bash-completion/bash_completion"
            guard FileManager.default.fileExists(atPath: loader) else {
                throw PrintFailure("\(loader) is missing: .ci/run installs it; by hand: apt-get install bash-completion")
            }
            let dir = TempDir(); defer { dir.remove() }
            try FileManager.default.createDirectory(atPath: dir.sub("completions"), withIntermediateDirectories: true)
            let script = runRigbookResult(["completions", "bash"], home: dir.sub("home"))
            try script.stdout.write(toFile: dir.sub("completions/rigbook"), atomically: true, encoding: .utf8)
            let result = try runProcess(bash, ["-c", """
                source \(loader)
                _completion_loader rigbook
                complete -p rigbook
                COMP_WORDS=(rigbook hist); COMP_CWORD=1; COMPREPLY=()
                _rigbook rigbook
                printf '%s\\n' "${COMPREPLY[@]}"
                """], environment: try shellEnvironment(dir.sub("home"), ["BASH_COMPLETION_USER_DIR": dir.path]))
            #expect(result.status == 0 && result.stdout == "complete -F _rigbook rigbook\nhistory\n", "\(result)")
        }

        @Test func bashOffersEveryCommandAndEveryGroupsCommands() throws {
            let dir = TempDir(); defer { dir.remove() }
            let table = try HelpCommand.all()
            let firstWords = Set(table.map { String($0.name.split(separator: " ")[0]) })
            #expect(Set(try bashCompletes(["rigbook", ""], home: dir.sub("home"))) == firstWords)
            #expect(try bashCompletes(["rigbook", "hi"], home: dir.sub("home")) == ["history"])
            for (group, commands) in HelpCommand.groups(table) {
                #expect(Set(try bashCompletes(["rigbook", group, ""], home: dir.sub("home"))) == Set(commands),
                        "\(group)")
            }
            #expect(try bashCompletes(["rigbook", "help", "dr"], home: dir.sub("home")) == ["drafts"])
            #expect(Set(try bashCompletes(["rigbook", "help", "keys", ""], home: dir.sub("home")))
                    == Set(HelpCommand.groups(table)["keys"] ?? []))
            #expect(!fileExists(dir.sub("home")), "completing made the data home")
        }

        @Test func bashOffersEveryOptionOfEveryCommand() throws {
            let dir = TempDir(); defer { dir.remove() }
            for command in try HelpCommand.all() {
                let words = ["rigbook"] + command.name.split(separator: " ").map(String.init) + ["--"]
                let offered = Set(try bashCompletes(words, home: dir.sub("home")))
                #expect(offered == Set(command.options.filter { $0.hasPrefix("--") }), "\(command.name)")
            }
            #expect(Set(try bashCompletes(["rigbook", "--"], home: dir.sub("home")))
                    == ["--home", "--server", "--version", "--help"])
        }

        @Test func bashOffersAnOptionsValues() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            let cases: [([String], [String])] = [
                (["rigbook", "history", "--format", ""], ["table", "json"]),
                (["rigbook", "asset", "list", "--format", "j"], ["json"]),
                (["rigbook", "labels", "--layout", ""], ["card", "due", "tag", "danger"]),
                (["rigbook", "labels", "SL-1", "--sheet", ""], ["2x7", "2x4"]),
                (["rigbook", "report", "--format", ""], ["html", "pdf"]),
                (["rigbook", "asset", "add", "--type", "chain-"], ["chain-sling", "chain-block"]),
                (["rigbook", "notices", "done", "--duty", "report_to_"], ["report_to_employer", "report_to_lessor"]),
                (["rigbook", "settings", "set", "organisation.c"], ["organisation.colour_code"]),
                (["rigbook", "completions", ""], ["bash", "zsh", "fish"]),
                (["rigbook", "man", ""], ["rigbook.1", "rigbook-formats.5"]),
                (["rigbook", "notices", ""], ["done"]),
                // bash hands `--format=j` over as `--format`, `=`, `j`, and completes the word after the `=`.
                (["rigbook", "history", "--format", "=", "j"], ["json"]),
                (["rigbook", "history", "--format", "="], ["table", "json"]),
                // Free text has nothing to offer.
                (["rigbook", "asset", "add", "--name", ""], []),
            ]
            for (words, expected) in cases {
                #expect(try bashCompletes(words, home: home) == expected, "\(words)")
            }
        }

        @Test func bashOffersFilesAndFoldersWhereTheyGo() throws {
            let dir = TempDir(); defer { dir.remove() }
            try Data().write(to: URL(fileURLWithPath: dir.sub("assets.csv")))
            try FileManager.default.createDirectory(atPath: dir.sub("archive"), withIntermediateDirectories: false)
            let home = dir.sub("home")
            #expect(try bashCompletes(["rigbook", "import", "ass"], home: home, in: dir.path) == ["assets.csv"])
            #expect(try bashCompletes(["rigbook", "export", "--out", "arc"], home: home, in: dir.path) == ["archive"])
            #expect(try bashCompletes(["rigbook", "--home", "a"], home: home, in: dir.path) == ["archive"])
        }

        @Test func bashOffersTheRegistersTagsWhereverAUsageTakesATag() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithTags(dir)
            let taking = try HelpCommand.all().filter(\.takesATag)
            #expect(Set(taking.map(\.name)).isSuperset(of: ["history", "asset edit", "asset retire", "certificate",
                                                            "labels", "record"]), "\(taking.map(\.name))")
            for command in taking {
                let words = command.name.split(separator: " ").map(String.init)
                #expect(try bashCompletes(["rigbook", "--home", home] + words + ["SL-"], home: home)
                        == ["SL-0001", "SL-0002"], "\(command.name)")
            }
            // Letter case as tags ignore it, every TAG of labels, --home=, $RIGBOOK_HOME, an option taking a TAG.
            #expect(try bashCompletes(["rigbook", "--home", home, "history", "sl-000"], home: home)
                    == ["SL-0001", "SL-0002"])
            #expect(try bashCompletes(["rigbook", "--home", home, "labels", "SL-0001", "S"], home: home)
                    == ["SH-0001", "SL-0001", "SL-0002"])
            #expect(try bashCompletes(["rigbook", "--home", "=", home, "history", "SH"], home: home) == ["SH-0001"])
            #expect(try bashCompletes(["rigbook", "history", "SH"], home: dir.sub("elsewhere"),
                                      environment: ["RIGBOOK_HOME": home]) == ["SH-0001"])
            #expect(try bashCompletes(["rigbook", "settings", "get", "--asset", "SH"], home: home,
                                      environment: ["RIGBOOK_HOME": home]) == ["SH-0001"])
            // A new tag is not one of the register's.
            #expect(try bashCompletes(["rigbook", "--home", home, "asset", "add", "--tag", "SL"], home: home) == [])
        }

        @Test func completingATagOnAHomeWithoutARegisterMakesNothing() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = dir.sub("home")
            #expect(try bashCompletes(["rigbook", "--home", home, "history", ""], home: home) == [])
            #expect(try bashCompletes(["rigbook", "history", ""], home: home, environment: ["RIGBOOK_HOME": home])
                    == [])
            let tags = runRigbookResult(["complete-tags", "S"], home: home)
            #expect(tags.status == 0 && tags.stdout.isEmpty && tags.stderr.isEmpty, "\(tags)")
            #expect(!fileExists(home), "completing a tag made the data home")
        }

        @Test func completeTagsReadsTheTagIndexByPrefix() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithTags(dir)
            let register = DataHome(root: home).registerPath
            let before = try FileManager.default.attributesOfItem(atPath: register)[.modificationDate] as? Date
            let tags = runRigbookResult(["complete-tags", "sl-"], home: home)
            #expect(tags.status == 0 && tags.stdout == "SL-0001\nSL-0002\n", "\(tags)")
            #expect(runRigbookResult(["complete-tags"], home: home).stdout == "SH-0001\nSL-0001\nSL-0002\n")
            let after = try FileManager.default.attributesOfItem(atPath: register)[.modificationDate] as? Date
            #expect(before == after, "completing a tag wrote the register")
        }

        /// zsh's completion system cannot run without a terminal; its two calls the script makes are stood in for,
        /// so what the script hands them is what is checked.
        @Test func zshHandsTheAnswersToCompadd() throws {
            let zsh = try requiredProgram("zsh", package: "zsh")
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithTags(dir)
            let script = """
                compdef() { : }
                source <(rigbook completions zsh) || exit 9
                compadd() { local a; for a; do :; done; print -rl -- "${(@P)a}"; }
                _files() { print -r -- ":files $*" }
                words=("$@"); CURRENT=$#words
                _rigbook
                """
            for (words, expected) in [(["rigbook", "asset", ""], "add\nlist\nedit\nretire\n"),
                                      (["rigbook", "--home", home, "history", "SL-"], "SL-0001\nSL-0002\n"),
                                      (["rigbook", "history", "--format=j"], "--format=json\n"),
                                      (["rigbook", "import", ""], ":files \n")] {
                let result = try runProcess(zsh, ["-f", "-c", script, "zsh"] + words,
                                            environment: try shellEnvironment(home))
                #expect(result.status == 0 && result.stdout == expected && result.stderr.isEmpty, "\(words): \(result)")
            }
        }

        @Test func fishCompletesTheLine() throws {
            let fish = try requiredProgram("fish", package: "fish")
            let dir = TempDir(); defer { dir.remove() }
            let home = homeWithTags(dir)
            for (line, expected) in [("rigbook hist", "history\tPrint an asset's inspection records, newest first.\n"),
                                     ("rigbook history --format ", "json\ntable\n"),
                                     ("rigbook --home \(home) history SL-", "SL-0001\nSL-0002\n")] {
                let result = try runProcess(fish, ["--no-config", "-c", "rigbook completions fish | source; "
                                                   + "complete -C '\(line)'"],
                                            environment: try shellEnvironment(home))
                #expect(result.status == 0 && result.stdout == expected && result.stderr.isEmpty, "\(line): \(result)")
            }
        }
    }
}
