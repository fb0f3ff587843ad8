import Foundation
import RigbookStore

/// What the word under the cursor may become, from the command table: the one reading of a half-typed command line
/// behind the bash, zsh and fish scripts (`CompletionScripts`), which only hand over their words and show the
/// answers. Written once here rather than three times in three shells' languages, it completes exactly what the
/// commands take: a command, an option or a flag of that command, an option's value (formats, layouts, sheets,
/// files, the data home) and an operand (a TAG from the register, a settings KEY, a file).
enum Completion {
    /// A word and what it is; or a request that the shell complete a file or a folder name itself.
    enum Answer: Equatable {
        case word(String, String)
        case file
        case directory
    }

    /// The answers for `words[index]`, `words[0]` being the program. `environment` finds the data home when the
    /// line names none (`--home DIR` typed on it wins, as it would for the command).
    static func answers(words: [String], index: Int, environment: [String: String]) -> [Answer] {
        let typed = Array(words.prefix(index).dropFirst()) + [index < words.count ? words[index] : ""]
        // bash splits `--format=json` into `--format`, `=` and `json`, and completes the part after the `=`: the
        // three are one word again here, and the answers for that word are its value alone.
        var joined: [String] = []
        var waiting = false, valueAfterSplit = false
        for (position, word) in typed.enumerated() {
            let isCurrent = position == typed.count - 1
            if waiting {
                joined[joined.count - 1] += word
                waiting = false
                valueAfterSplit = isCurrent
            } else if word == "=", let last = joined.last, last.hasPrefix("--"), !last.contains("=") {
                joined[joined.count - 1] += word
                waiting = true
                valueAfterSplit = isCurrent
            } else {
                joined.append(word)
            }
        }
        let current = joined.removeLast()
        var line = Line()
        for word in joined {
            guard line.read(word) else { return [] }
        }
        if let option = line.pending { return values(option.kind, current, line: line, environment: environment) }
        if current.hasPrefix("-") {
            if let equals = current.firstIndex(of: "="), let option = line.option(String(current[..<equals])) {
                let value = String(current[current.index(after: equals)...])
                return values(option.kind, value, line: line, environment: environment,
                              prefix: valueAfterSplit ? "" : String(current[...equals]))
            }
            return (line.command?.options ?? Commands.GlobalOptions.declared.filter { !$0.names.isEmpty })
                .flatMap { declared in declared.names.map { Answer.word($0, declared.helpRow?.text ?? "") } }
                .filter { $0.begins(current) }
        }
        guard let command = line.command else { return commandWords(after: line.group).filter { $0.begins(current) } }
        // A command that heads a group (`notices`) may still become one of the group's (`notices done`).
        let subcommands = line.operands.isEmpty ? commandWords(after: command.name) : []
        let operands = command.operands
        let operand = line.operands.count < operands.count ? operands[line.operands.count]
            : operands.last.flatMap { $0.repeats ? $0 : nil }
        guard let operand else { return subcommands.filter { $0.begins(current) } }
        if operand.kind == .command {
            // `help asset ` goes on with the group's commands; `help history ` is whole.
            let words = switch line.operands.count {
            case 0: commandWords(after: nil)
            case 1: commandWords(after: line.operands[0])
            default: [Answer]()
            }
            return words.filter { $0.begins(current) }
        }
        return subcommands.filter { $0.begins(current) }
            + values(operand.kind, current, line: line, environment: environment)
    }

    /// The next word of a command's name: the first words of every command, or those of `group`'s commands.
    private static func commandWords(after group: String?) -> [Answer] {
        var seen = Set<String>()
        return Commands.all.filter { !$0.hidden }.compactMap { spec in
            let words = spec.name.split(separator: " ").map(String.init)
            let word: String
            if let group {
                guard words.count == 2, words[0] == group else { return nil }
                word = words[1]
            } else {
                word = words[0]
            }
            guard seen.insert(word).inserted else { return nil }
            let text = words.count == 1 || group != nil ? spec.abstract
                : "Commands: " + Commands.group(word).map { $0.name.dropFirst(word.count + 1) }.joined(separator: ", ")
            return .word(word, text)
        }
    }

    /// What a value of this kind may be, each word after `prefix` (what the shell keeps of the word: `--format=`).
    private static func values(_ kind: ValueKind, _ typed: String, line: Line, environment: [String: String],
                               prefix: String = "") -> [Answer] {
        switch kind {
        case .text: return []
        case .file: return [.file]
        case .directory: return [.directory]
        case .command: return commandWords(after: nil).filter { $0.begins(typed) }
        case .choices(let words):
            return words.filter { $0.hasPrefix(typed) }.map { .word(prefix + $0, "") }
        case .tag:
            let home = DataHome.resolve(option: line.home.map { expandingTilde($0, environment) },
                                        environment: environment)
            return Register.tags(startingWith: typed, inRegisterAt: home.registerPath).map { .word(prefix + $0, "") }
        }
    }

    /// `~/x` as the shell would have made it: the words of a line being typed are not expanded yet.
    private static func expandingTilde(_ path: String, _ environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] else { return path }
        return home + path.dropFirst()
    }

    /// The words before the cursor, read as `runMain` and `Arguments` would read them.
    private struct Line {
        var command: CommandSpec?
        /// A group's word (`asset`) still waiting for its command's.
        var group: String?
        var operands: [String] = []
        /// The option whose value comes next.
        var pending: Option?
        /// `--home DIR` as typed.
        var home: String?

        /// The option `name` names for the command read so far, or of rigbook itself.
        func option(_ name: String) -> Option? {
            for declared in (command?.declared ?? []) + Commands.GlobalOptions.declared {
                if case .option(let option) = declared, option.name == name { return option }
            }
            return nil
        }

        /// Takes in one word; false when the line names no command rigbook has (nothing then to complete).
        mutating func read(_ word: String) -> Bool {
            if let option = pending {
                if option.name == "--home" { home = word }
                pending = nil
            } else if word.hasPrefix("-") {
                if let equals = word.firstIndex(of: "=") {
                    if word[..<equals] == "--home" { home = String(word[word.index(after: equals)...]) }
                } else {
                    pending = option(word)
                }
            } else if let command {
                if operands.isEmpty, !command.name.contains(" "),
                   let (spec, used) = Commands.find([command.name, word]), used == 2 {
                    self.command = spec
                } else {
                    operands.append(word)
                }
            } else if let group {
                guard let (spec, used) = Commands.find([group, word]), used == 2 else { return false }
                command = spec
                self.group = nil
            } else if let (spec, _) = Commands.find([word]) {
                command = spec
            } else if !Commands.group(word).isEmpty {
                group = word
            } else {
                return false
            }
            return true
        }
    }
}

private extension Completion.Answer {
    func begins(_ typed: String) -> Bool {
        if case .word(let word, _) = self { word.hasPrefix(typed) } else { true }
    }
}
