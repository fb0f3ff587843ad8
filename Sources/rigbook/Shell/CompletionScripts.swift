/// The shells' completion scripts (`rigbook completions bash|zsh|fish`). Each only hands the words on the line to
/// `rigbook complete-words` and shows what it answers (`Completion`), so a command or an option added to the table
/// is completed without a new script, and the three shells complete alike.
enum CompletionScripts {
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": zsh
        case "fish": fish
        default: nil
        }
    }

    /// Words go over marked with a leading `:`, so that none reads as an option of rigbook's (`--help`, `--home`).
    static let bash = #"""
        # bash completion for rigbook: `source <(rigbook completions bash)`, or save it as
        # /usr/share/bash-completion/completions/rigbook. rigbook answers each Tab itself from its command table.
        _rigbook() {
            local cur=${COMP_WORDS[COMP_CWORD]} line word
            local -a marked=()
            for word in "${COMP_WORDS[@]}"; do marked+=(":$word"); done
            COMPREPLY=()
            while IFS= read -r line; do
                case $line in
                    :file)
                        compopt -o filenames 2>/dev/null
                        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur") ;;
                    :directory)
                        compopt -o filenames 2>/dev/null
                        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur") ;;
                    *) COMPREPLY+=("${line%%$'\t'*}") ;;
                esac
            done < <("$1" complete-words "$COMP_CWORD" "${marked[@]}" 2>/dev/null)
        }
        complete -F _rigbook rigbook
        """#

    static let zsh = #"""
        #compdef rigbook
        # zsh completion for rigbook: save it as _rigbook in a folder of $fpath, or `source <(rigbook completions
        # zsh)` after compinit. rigbook answers each Tab itself from its command table.
        _rigbook() {
            local line ret=1 width=0 i
            local -a found texts shown
            for line in "${(@f)$("${words[1]}" complete-words $((CURRENT - 1)) "${(@)words/#/:}" 2>/dev/null)}"; do
                case $line in
                    :file) [[ $PREFIX == --*=* ]] && compset -P '*='; _files && ret=0 ;;
                    :directory) [[ $PREFIX == --*=* ]] && compset -P '*='; _files -/ && ret=0 ;;
                    ?*)
                        found+=("${line%%$'\t'*}")
                        texts+=("${${line#${found[-1]}}#$'\t'}")
                        (( ${#found[-1]} > width )) && width=${#found[-1]} ;;
                esac
            done
            for (( i = 1; i <= ${#found}; i++ )); do
                shown+=("${(r:width:)found[i]}${texts[i]:+  -- ${texts[i]}}")
            done
            (( ${#found} )) && compadd -l -d shown -a found && ret=0
            return ret
        }
        if [[ $funcstack[1] == _rigbook ]]; then
            _rigbook "$@"
        else
            compdef _rigbook rigbook
        fi
        """#

    static let fish = #"""
        # fish completion for rigbook: save it as ~/.config/fish/completions/rigbook.fish.
        # rigbook answers each Tab itself from its command table.
        function __rigbook_complete
            set -l tokens (commandline -opc)
            set -l current (commandline -ct)
            set -q current[1]; or set current ''
            set -l marked
            for token in $tokens $current
                set -a marked ":$token"
            end
            for line in ($tokens[1] complete-words (count $tokens) $marked 2>/dev/null)
                switch $line
                    case :file
                        __fish_complete_path $current
                    case :directory
                        __fish_complete_directories $current
                    case '*'
                        echo $line
                end
            end
        end
        complete -c rigbook -f -a '(__rigbook_complete)'
        """#
}
