import Foundation
import RigbookCore

public enum DraftsAction: Sendable { case up, down, recover, discard, scan, back, help }

/// The answer to "Discard the draft for …?".
public enum DiscardChoice: Sendable, Equatable { case discard, keep }

/// All drafts on disk, to recover or discard (`D` from the list).
public struct DraftsState: Screen {
    public var drafts: [DraftSummary]
    public var selection = 0
    /// Asking "discard this draft?" for the selected one.
    var confirming: Question<DiscardChoice>?

    public init(drafts: [DraftSummary]) { self.drafts = drafts }

    public var selected: DraftSummary? { drafts.isEmpty ? nil : drafts[min(selection, drafts.count - 1)] }
    public var confirmingDiscard: Bool { confirming != nil }

    static let keymap = Keymap<DraftsAction>(title: "Drafts",
                                             KeyBinding.moves(up: .up, "Previous draft", down: .down, "Next draft") + [
        KeyBinding([.enter], help: "Recover: open the form with the draft's values", footer: "recover",
                   rank: .constant, action: .recover),
        KeyBinding([.char("x")], help: "Discard the draft (asks first)", footer: "discard", rank: .often,
                   action: .discard),
        .scan(.scan),
        .back(.back, to: "register"),
        .help(.help),
    ])

    static func discardQuestion(tag: String, holding differences: [String]) -> Question<DiscardChoice> {
        let lines: [(String, Style)] = [("It holds:", .bold)] + differences.map { ("  " + $0, .plain) }
        return Question(title: "Discard the draft for \(tag)?", lines: lines, options: [
            // The safe answer first, so Enter never throws work away.
            .init("Keep it", answer: .keep),
            .init("Discard it for good", answer: .discard, keys: [.char("d")], rank: .sometimes, hint: "discards"),
        ], cancel: (.keep, "keeps it"), otherKeys: ("Any other key keeps it.", .keep), minWidth: 56)
    }

    /// A fresh read of the drafts folder keeps the selection where it was. A draft deleted anywhere in this
    /// session (in a form recovered from here, too) goes at once; and whenever an asset is re-read (a form
    /// opened from here has closed, a discard was tried) the folder is read again, so coming back here never
    /// shows a draft as it was before.
    public mutating func receive(_ event: Event, context: ScreenContext) -> Outcome? {
        switch event {
        case .draftsLoaded(let fresh):
            show(fresh)
        case .draftDeleted(let id):
            show(drafts.filter { $0.draftID != id })
        case .assetRefreshed:
            return .effects([.openDrafts])
        default:
            return nil
        }
        return .stay
    }

    private mutating func show(_ fresh: [DraftSummary]) {
        drafts = fresh
        selection = min(selection, max(0, fresh.count - 1))
    }

    public mutating func handle(_ key: Key, context: ScreenContext) -> Outcome {
        if var question = confirming {
            guard let answer = question.handle(key, batch: context.batch) else {
                confirming = question
                return .stay
            }
            confirming = nil
            // A scan's `/` keeps the draft and opens the scan prompt, which takes the rest of the scan.
            if answer == .keep, key.startsScan { return handle(key, context: context) }
            guard answer == .discard, let draft = selected else { return .stay }
            if let holder = draft.lockedBy {
                return .notify(.error("The draft for \(draft.assetTag) is open in another session (\(holder)); "
                                      + "it was not discarded."))
            }
            // The asset's refresh brings a fresh read of the folder (below), whether or not the delete was allowed.
            return .notify(.info("Discarded the draft for \(draft.assetTag)."))
                + .effects([.deleteDraft(draftID: draft.draftID), .refreshAsset(assetUUID: draft.assetUUID)])
        }
        guard let action = DraftsState.keymap.action(for: key) else { return .stay }
        switch action {
        case .up: selection = max(0, selection - 1)
        case .down: selection = min(max(0, drafts.count - 1), selection + 1)
        case .recover:
            guard let draft = selected else { return .stay }
            if draft.kind == DraftSummary.assetEditKind {
                return .effects([.openAssetEditor(assetUUID: draft.assetUUID, recover: true)])
            }
            if draft.kind == "batch" { return .effects([.openBatchDraft(draftID: draft.draftID)]) }
            return .effects([.openForm(assetUUID: draft.assetUUID, amending: nil, recover: true)])
        case .discard:
            confirming = selected.map { draft in
                DraftsState.discardQuestion(tag: draft.assetTag,
                                            holding: Array(draft.differences.prefix(max(1, context.area.height - 9))))
                    .opened(in: context.batch)
            }
        case .scan: return .push(ScanScreen(opener: key))
        case .back: return .pop
        case .help: return .help(DraftsState.keymap)
        }
        return .stay
    }

    public func draw(into frame: inout Frame, area: Rect) {
        frame.putTitleBar(" Drafts · \(drafts.count) unsubmitted", state: nil, in: area)
        frame.put("  ASSET      KIND        AGE       OPERATOR          HOST", x: 0, y: 1, in: area, style: .bold)
        if drafts.isEmpty {
            frame.put("  No drafts. Everything typed has been saved or discarded.", x: 0, y: 2, in: area, style: .dim)
        }
        for (index, draft) in drafts.prefix(max(0, area.height - 3)).enumerated() {
            let y = 2 + index
            var line = "  " + draft.assetTag.padded(toWidth: 9) + "  " + draft.kind.padded(toWidth: 10) + "  "
                + draft.age.padded(toWidth: 8) + "  " + draft.operatorName.padded(toWidth: 16) + "  " + draft.host
            if let holder = draft.lockedBy { line += "  (open: \(holder))" }
            frame.put(line, x: 0, y: y, in: area)
            if index == selection { frame.restyle(y: y, in: area) { $0.reverse.toggle() } }
        }
        frame.put(DraftsState.keymap.footer(width: area.width), x: 0, y: area.height - 1, in: area, style: .dim)
        if let confirming {
            frame.cursor = nil
            confirming.draw(into: &frame, area: area)
        }
    }
}
