import RigbookCore

/// A folder's entries as the runtime lists them for Tab completion (`Effect.listPath`): the prompt completes
/// from these, so its update never reads the file system.
public struct PathListing: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// A folder, or a link to one: completed with a `/`.
        public var isDirectory: Bool

        public init(name: String, isDirectory: Bool) {
            self.name = name
            self.isDirectory = isDirectory
        }
    }

    /// The prompt's text the listing answers (a listing for older text is not used).
    public var typed: String
    /// `typed` with a leading `~` expanded: what completion extends.
    public var expanded: String
    public var entries: [Entry]
    /// Why the folder could not be listed, as a sentence; nil when it was.
    public var failure: String?

    public init(typed: String, expanded: String, entries: [Entry], failure: String? = nil) {
        self.typed = typed
        self.expanded = expanded
        self.entries = entries
        self.failure = failure
    }
}

/// Tab completion of a path, as a shell does it: the longest common beginning of the names that fit; a folder
/// gets its `/`; names starting with `.` only when the typed part does. Pure: the runtime lists the folder.
public enum PathCompletion {
    public struct Result: Sendable, Equatable {
        public var text: String
        /// The names that fit, when asked to list them (folders with their `/`).
        public var candidates: [String]
        public var message: String?
    }

    /// `~` and `~/…` as the home folder; `~user` is left as typed.
    public static func expandingTilde(_ path: String, home: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), !home.isEmpty else { return path }
        let base = home.hasSuffix("/") && home.count > 1 ? String(home.dropLast()) : home
        return path == "~" ? base + "/" : base + path.dropFirst()
    }

    /// The folder part (up to and including the last `/`, empty for none) and the name begun after it.
    public static func split(_ path: String) -> (folder: String, prefix: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    /// The folder to list for `expanded` (the current folder when no `/` was typed).
    public static func folderToList(_ expanded: String) -> String {
        let folder = split(expanded).folder
        return folder.isEmpty ? "." : folder
    }

    public static func complete(_ listing: PathListing, listAll: Bool) -> Result {
        let text = listing.expanded
        if let failure = listing.failure { return Result(text: text, candidates: [], message: failure) }
        let (folder, prefix) = split(text)
        let matches = listing.entries
            .filter { $0.name.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.name.hasPrefix(".")) }
            .sorted { $0.name < $1.name }
        guard let first = matches.first else {
            let place = folder.isEmpty ? "the current folder" : folder
            let message = prefix.isEmpty ? "\(place) is empty." : "Nothing in \(place) starts with “\(prefix)”."
            return Result(text: text, candidates: [], message: message)
        }
        if matches.count == 1 {
            return Result(text: folder + first.name + (first.isDirectory ? "/" : ""), candidates: [], message: nil)
        }
        var common = Array(first.name)
        for match in matches.dropFirst() {
            let name = Array(match.name)
            var n = 0
            while n < common.count, n < name.count, common[n] == name[n] { n += 1 }
            common.removeSubrange(n...)
        }
        if common.count > prefix.count {
            return Result(text: folder + String(common), candidates: [], message: nil)
        }
        if listAll {
            return Result(text: text, candidates: matches.map { $0.name + ($0.isDirectory ? "/" : "") }, message: nil)
        }
        return Result(text: text, candidates: [], message: "\(matches.count) names fit: Tab again lists them.")
    }
}

public enum AttachAction: Sendable { case complete, attach, cancel }

/// The "Attach a file" prompt: a path with Tab completion, Enter to attach, Esc to cancel. A
/// component any form hosts: it keeps its own state, reads its own keys and draws into the host's area; what
/// it wants done comes back as an `Outcome` for the host to turn into effects (`listPath`, `attachFile`), and
/// their answers come back through `listed` and `refused`.
public struct AttachPrompt: Sendable, Equatable {
    public internal(set) var editor = EditableText("")
    /// The names a second Tab listed.
    public internal(set) var candidates: [String] = []
    /// A refusal of the last Enter, or what the last Tab found.
    public internal(set) var message: String?
    public internal(set) var messageIsRefusal = false
    /// Enter was pressed and the copy is under way: keys wait for its answer.
    public internal(set) var attaching = false
    /// The text a Tab completed no further: a Tab again at the same text lists the names.
    var tabbedAt: String?

    public init(text: String = "") { editor = EditableText(text) }

    public var text: String { editor.text }

    public enum Outcome: Sendable, Equatable {
        case cancel
        /// List the folder of this text (Tab).
        case list(String)
        /// Attach the file at this path (Enter).
        case attach(String)
    }

    /// Longest path taken (PATH_MAX).
    public static let maxPath = 4096

    public static let keymap = Keymap<AttachAction>(title: "Attach a file", whileTyping: true, [
        KeyBinding([.tab], label: "Tab", help: "Complete the file name (again: list the names that fit; ~ is home)",
                   footer: "complete", rank: .sometimes, action: .complete),
        KeyBinding([.enter], help: "Attach: the file is copied at once into Documents/Attachments/",
                   footer: "attach", rank: .sometimes, action: .attach),
        KeyBinding([.escape, .ctrl("c")], label: "Esc Ctrl-C", help: "Close the prompt: nothing is attached",
                   footer: "cancel", rank: .sometimes, action: .cancel),
    ])

    /// The path's editing keys: a text field's, less those of several lines (Enter attaches here).
    public static let editingKeymap = Keymap<TextEdit>(
        title: "Editing the path", whileTyping: true,
        EditableText.keymap.bindings.filter { binding in
            !binding.keys.contains { key in key == .enter || key == .up || key == .down }
        })

    public mutating func handle(_ key: Key) -> Outcome? {
        if attaching { return nil }
        if let action = AttachPrompt.keymap.action(for: key) {
            switch action {
            case .cancel: return .cancel
            case .complete: return .list(editor.text)
            case .attach:
                guard !editor.text.isEmpty else {
                    say("Type the path of a photo or PDF (Tab completes), or Esc.", refusal: true)
                    return nil
                }
                attaching = true
                candidates = []
                message = nil
                return .attach(editor.text)
            }
        }
        var edited = editor
        switch edited.apply(key, multiline: false, maxLength: AttachPrompt.maxPath) {
        case .changed, .pasted:
            editor = edited
            candidates = []
            message = nil
            tabbedAt = nil
        case .moved:
            editor = edited
        case .full:
            say("A path holds at most \(AttachPrompt.maxPath) characters.", refusal: true)
        case .ignored, .leaveUp, .leaveDown:
            break
        }
        return nil
    }

    /// The folder listed for a Tab: completes the text, or lists the names at a second Tab.
    public mutating func listed(_ listing: PathListing) {
        guard listing.typed == editor.text, !attaching else { return }
        let result = PathCompletion.complete(listing, listAll: tabbedAt == editor.text)
        if result.text != editor.text {
            editor = EditableText(result.text)
            tabbedAt = nil
        } else {
            tabbedAt = editor.text
        }
        candidates = result.candidates
        if let text = result.message { say(text, refusal: false) } else { message = nil }
    }

    /// The file was refused: the sentence stays under the path, which can be corrected.
    public mutating func refused(_ sentence: String) {
        attaching = false
        say(sentence, refusal: true)
    }

    private mutating func say(_ text: String, refusal: Bool) {
        message = text
        messageIsRefusal = refusal
    }

    // MARK: View

    /// Draws the prompt as a box near the bottom of `area`, with the terminal cursor in the path.
    public func draw(into frame: inout Frame, area: Rect) {
        let width = max(16, min(area.width - 4, 76))
        let inner = width - 4
        var lines: [(String, Style)] = [
            ("Path of a photo (JPEG, PNG, GIF, WebP, HEIC, TIFF) or a PDF, ≤ 20 MB:", .plain), ("", .plain)]
        let fieldRow = lines.count - 1
        if let message {
            lines += Box.wrapped([(message, messageIsRefusal ? Style(colour: .red, bold: true) : .bold)], width: inner)
        }
        if attaching { lines.append(("Copying…", .bold)) }
        if !candidates.isEmpty {
            let room = max(1, area.height - lines.count - 6)
            lines += AttachPrompt.columns(candidates, width: inner, rows: room).map { ($0, Style.plain) }
        }
        let box = Box.draw(title: "Attach a file", lines: lines, width: inner, footer: AttachPrompt.keymap.hint,
                           in: area, into: &frame)
        let field = Rect(x: box.x + 2, y: box.y + 1 + fieldRow, width: max(4, box.width - 4), height: 1)
        TextFieldView.draw(editor.characters, cursor: attaching ? nil : editor.cursor, in: field, into: &frame)
        if attaching { frame.cursor = nil }
    }

    /// Names in columns, at most `rows` rows; the last says how many more there are.
    static func columns(_ names: [String], width: Int, rows: Int) -> [String] {
        let cell = min(width, (names.map(\.displayWidth).max() ?? 1) + 2)
        let perRow = max(1, width / max(1, cell))
        var out: [String] = []
        var index = 0
        while index < names.count {
            if out.count == rows - 1, names.count - index > perRow {
                out.append("… and \(names.count - index) more: type more of the name.")
                break
            }
            let row = names[index..<min(names.count, index + perRow)]
            out.append(row.map { $0.truncated(toWidth: cell - 2).padded(toWidth: cell) }.joined())
            index += perRow
        }
        return out
    }
}
