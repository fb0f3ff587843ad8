/// Every screen's keys, situation by situation: what the key walk test checks and what the README's
/// key table is generated from. A new screen adds its entry here.
public enum KeyCatalog {
    /// The keys live at one moment: a screen in one state (the form with a text field focused, say).
    public struct Situation: Sendable {
        public var name: String
        /// A text field has focus: printable keys are text.
        public var typing = false
        public var keymaps: [KeymapSummary]
    }

    public struct ScreenKeys: Sendable {
        /// The screen as the README's table names it.
        public var name: String
        public var situations: [Situation]

        /// The keymaps its line of the key table is made from: every situation's, less a shared one (`shared`)
        /// that comes with the screen's own.
        var lineKeymaps: [KeymapSummary] {
            situations.flatMap { situation in
                situation.keymaps.filter { situation.keymaps.count == 1 || !KeyCatalog.shared.contains($0.title) }
            }
        }

        /// A screen in one situation, with one keymap.
        static func one(_ name: String, _ situation: String, typing: Bool = false,
                        _ keymap: KeymapSummary) -> ScreenKeys {
            ScreenKeys(name: name, situations: [Situation(name: situation, typing: typing, keymaps: [keymap])])
        }
    }

    /// The leave question of a form with a draft, with the draft on disk and not.
    static func leaving(_ leave: LeaveQuestion) -> [Situation] {
        [Situation(name: "leave question", keymaps: [leave.keepingDraft.keymap.summary]),
         Situation(name: "leave question, draft not on disk",
                   keymaps: [leave.question(draftNotWritten: "").keymap.summary])]
    }

    /// A plain form's situations (`PlainForm`): a choice or a text field focused, its option list open.
    static func plainForm(_ keymap: Keymap<FormAction>) -> [Situation] {
        [Situation(name: "choice or yes / no focused", typing: false,
                   keymaps: [keymap.summary, PlainFormKeys.choices.summary]),
         Situation(name: "text field focused", typing: true, keymaps: [keymap.summary, EditableText.keymap.summary]),
         Situation(name: "option list open", keymaps: [PickList.keymap.summary])]
    }

    /// A drafted form's situations (`DraftedForm`): a choice or a text field focused, then the kind's `own`, the
    /// attachments line and the attach prompt, the leave question both ways and "Authenticate and save?", then
    /// `after`.
    static func draftedForm(keymap: Keymap<FormAction>, choices: Keymap<FormAction>, leave: LeaveQuestion,
                            authenticate: Question<AuthenticateChoice>, own: [Situation] = [],
                            after: [Situation] = []) -> [Situation] {
        [Situation(name: "choice or check box focused", keymaps: [keymap.summary, choices.summary]),
         Situation(name: "text field focused", typing: true, keymaps: [keymap.summary, EditableText.keymap.summary])]
            + own + [
                Situation(name: "attachments line focused", typing: false,
                          keymaps: [keymap.summary, FormState.attachmentKeymap.summary]),
                Situation(name: "attach a file prompt", typing: true,
                          keymaps: [AttachPrompt.keymap.summary, AttachPrompt.editingKeymap.summary]),
            ] + leaving(leave) + [
                Situation(name: "authenticate question", keymaps: [authenticate.keymap.summary]),
            ] + after
    }

    public static let screens: [ScreenKeys] = [
        ScreenKeys(name: "register list", situations: [
            Situation(name: "browsing", keymaps: [ListState.keymap.summary]),
            Situation(name: "typing a filter", typing: true, keymaps: [ListState.filterKeymap.summary]),
            Situation(name: "scan prompt", typing: true, keymaps: [ListState.scanKeymap.summary]),
        ]),
        ScreenKeys(name: "inspection form", situations: draftedForm(
            keymap: FormState.keymap, choices: FormState.choiceKeymap, leave: .inspection,
            authenticate: AuthenticateChoice.question(thorough: true, examiner: ""),
            own: [Situation(name: "choice list open", keymaps: [ChoicePopup.keymap.summary])],
            after: [
                Situation(name: "reg 10 notice, text question", typing: true,
                          keymaps: [DefectNoticeDialog.keymap.summary, EditableText.keymap.summary]),
                Situation(name: "reg 10 notice, risk question", typing: false,
                          keymaps: [DefectNoticeDialog.checkKeymap.summary, DefectNoticeDialog.keymap.summary]),
            ])),
        ScreenKeys(name: "batch inspection", situations: [
            Situation(name: "choice or check box focused", typing: false,
                      keymaps: [BatchFormState.keymap.summary, FormState.keymap.summary,
                                FormState.choiceKeymap.summary]),
            Situation(name: "text field focused", typing: true,
                      keymaps: [BatchFormState.keymap.summary, FormState.keymap.summary, EditableText.keymap.summary]),
        ]),
        ScreenKeys(name: "test form", situations: draftedForm(
            keymap: TestFormState.keymap, choices: TestFormState.choiceKeymap, leave: .test,
            authenticate: AuthenticateChoice.testQuestion(technician: ""))),
        .one("draft found", "question", RecoveryState.question(tag: "").keymap.summary),
        .one("history", "records", HistoryState.keymap.summary),
        .one("record", "fields", RecordState.keymap.summary),
        .one("test record", "fields", TestRecordState.keymap.summary),
        ScreenKeys(name: "drafts", situations: [
            Situation(name: "list", keymaps: [DraftsState.keymap.summary]),
            Situation(name: "discard question", typing: false,
                      keymaps: [DraftsState.discardQuestion(tag: "", holding: []).keymap.summary]),
        ]),
        ScreenKeys(name: "new asset", situations: plainForm(AssetFormState.keymap) + [
            Situation(name: "cancel question", keymaps: [AssetFormState.discardQuestion.keymap.summary]),
        ]),
        .one("settings", "particulars", SettingsState.keymap.summary),
        ScreenKeys(name: "particulars editor", situations: plainForm(ParticularEditorState.keymap) + [
            Situation(name: "leave question", keymaps: [ParticularEditorState.discardQuestion.keymap.summary]),
        ]),
        .one("particulars history", "versions", ParticularsHistoryState.keymap.summary),
        ScreenKeys(name: "asset editor", situations: plainForm(AssetFormState.editKeymap) + leaving(.assetEdit)),
        .one("dashboard", "chart", DashboardState.keymap.summary),
        .one("help", "page", HelpState.keymap.summary),
        .one("message", "box", MessageScreen(title: "", lines: []).box.keymap.summary),
        .one("any text field", "typing", typing: true, EditableText.keymap.summary),
        .one("everywhere", "any screen", typing: true, App.keymap.summary),
    ]

    /// Keymaps that several screens share get a row of their own rather than a place in each (the attach prompt's
    /// path is edited as any text field is: its keys are that row's).
    static let shared: Set<String> = [EditableText.keymap.title, AttachPrompt.editingKeymap.title, App.keymap.title]

    /// A line per screen: each key once, with everything it does there, most-used first (`KeyRank`), then what
    /// other keys do (keys empty). The README's key table and the man page's KEYS are made from it; the screens'
    /// help pages keep every binding apart, with its whole help text.
    public static func rows() -> [(screen: String, items: [(keys: String, does: String)])] {
        screens.map { screen in
            var entries: [Entry] = []
            var others: [String] = []
            for keymap in screen.lineKeymaps {
                for binding in keymap.bindings {
                    Entry(binding).merge(into: &entries) { $0.keys.contains(where: $1.keys.contains) }
                }
                if let other = keymap.otherKeys, !others.contains(other) { others.append(other) }
            }
            // Keys that do the same are one entry too ("q Ctrl-C quit"), ranked as the more used of them.
            var joined: [Entry] = []
            for entry in entries { entry.merge(into: &joined) { $0.does == $1.does } }
            let ranked = joined.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
            return (screen.name, ranked.map { ($0.element.keys.joined(separator: " "),
                                                $0.element.does.joined(separator: " / ")) }
                                 + others.map { ("", $0) })
        }
    }

    /// Some keys and what they do on one screen, as the key table shows them.
    struct Entry {
        /// The keys as the labels show them, each once ("Esc", "Ctrl-C").
        var keys: [String]
        /// A few words per thing the keys do, each once ("close", "cancel").
        var does: [String]
        /// The most used of the bindings it merges.
        var rank: KeyRank

        init(_ binding: KeymapSummary.Binding) {
            keys = binding.label.split(separator: " ").map(String.init)
            does = [binding.brief]
            rank = binding.rank
        }

        /// Adds this entry to `entries`: into the first entry `belongs` says it goes with, and every later such entry
        /// into that one as well (a binding whose keys two entries show makes them one), else at the end.
        func merge(into entries: inout [Entry], where belongs: (Entry, Entry) -> Bool) {
            let matches = entries.indices.filter { belongs(entries[$0], self) }
            guard let first = matches.first else { return entries.append(self) }
            for index in matches.dropFirst().reversed() { entries[first].absorb(entries.remove(at: index)) }
            entries[first].absorb(self)
        }

        private mutating func absorb(_ other: Entry) {
            keys += other.keys.filter { !keys.contains($0) }
            does += other.does.filter { !does.contains($0) }
            rank = min(rank, other.rank)
        }
    }

    /// The README's key table: a line per screen, each key once with what it does there, most-used first; the last
    /// row says where every key is explained in full.
    public static func markdownTable() -> String {
        let rows = rows().map { screen, items in
            let keys = items.map { $0.keys.isEmpty ? $0.does : "`\($0.keys)` \($0.does)" }.joined(separator: " · ")
            return "| \(screen) | \(keys.replacingOccurrences(of: "|", with: "\\|")) |"
        }
        return (["| where | keys, most-used first |", "|---|---|"] + rows + [fullList]).joined(separator: "\n")
    }

    /// The key table's last row: the table shows each key once, in a few words; the help page has them all.
    static let fullList = "| every key | `?` (`F1` in a form) opens the screen's help: all its keys, each with what"
        + " it does |"
}

extension String {
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
