import Foundation
import RigbookCore

/// The scan prompt (`#`) and jumping to a scanned or typed tag. A scanner types a label's payload
/// and Enter like a keyboard: in the prompt every printable key is text, so no character of a scan reaches a
/// list key. A payload starts with `/`, so a scan that arrives with no prompt open opens the filter, which
/// takes it and jumps on Enter too.
public struct ScanPrompt: Sendable, Equatable {
    /// What was typed (scanned) so far.
    public var text = ""
    /// Each scan marks an asset for a batch and the prompt stays open; otherwise a scan jumps to the asset and
    /// the prompt closes.
    public var marking: Bool
    /// What the last scan did, shown in the prompt while it stays open.
    public var result: Notice?

    public init(marking: Bool) { self.marking = marking }

    /// The longest scan kept: a payload of the longest tag the register allows, with every byte escaped.
    static let limit = 700

    /// Takes a key: text (typed, scanned or pasted) and deletions change the prompt here; any other key's
    /// action is returned for the screen holding the prompt to act on.
    mutating func edit(_ key: Key) -> ScanAction? {
        if case .paste(let pasted) = key {
            text += String(Paste(pasted, multiline: false, room: max(0, ScanPrompt.limit - text.count)).characters)
            return nil
        }
        if key.isPrintable, case .char(let c) = key {
            if text.count < ScanPrompt.limit { text.append(c) }
            return nil
        }
        let action = ListState.scanKeymap.action(for: key)
        switch action {
        case .deleteBack: if !text.isEmpty { text.removeLast() }
        case .deleteAll: text = ""
        default: return action
        }
        return nil
    }

    /// The prompt on row `y`: what the scanner typed so far, what the last scan did (while marking), and the
    /// keys that fit.
    func draw(into frame: inout Frame, area: Rect, y: Int, hint: String) {
        frame.fill(y: y, in: area, style: .plain)
        let prompt = (marking ? "# mark: " : "# scan: ") + VisibleText.make(text)
        let used = frame.put(prompt, x: 0, y: y, in: area, style: .bold)
        frame.cursor = (area.x + min(used, area.width - 1), area.y + y)
        var after = used
        if let result, text.isEmpty {
            after += frame.put("  " + result.text, x: used, y: y, in: area,
                               style: Style(colour: result.isError ? .red : .green, bold: result.isError))
        }
        if after + hint.displayWidth + 2 < area.width { frame.put("  " + hint, x: after, y: y, in: area, style: .dim) }
    }
}

public enum ScanAction: Sendable { case lookUp, close, switchMode, deleteBack, deleteAll, quit }

extension ListState {
    public static let scanKeymap = Keymap<ScanAction>(title: "Scan", whileTyping: true, [
        KeyBinding([.enter], help: "Scan: find the scanned label's asset (or a tag typed whole)", footer: "finds",
                   brief: "find the scanned asset", rank: .constant, action: .lookUp),
        KeyBinding([.tab], help: "Scan: switch between jumping to each scan and marking each for a batch",
                   footer: "jump / mark", brief: "jump or mark", rank: .sometimes, action: .switchMode),
        KeyBinding([.escape], help: "Scan: close the prompt", footer: "closes", brief: "close the scan prompt",
                   rank: .often, action: .close),
        KeyBinding([.backspace], help: "Scan: delete the last character", brief: "delete a scanned character",
                   rank: .sometimes, action: .deleteBack),
        KeyBinding([.ctrl("u")], help: "Scan: delete all of it", brief: "clear the scan", rank: .sometimes,
                   action: .deleteAll),
        KeyBinding([.ctrl("c")], help: "Quit", brief: "quit", rank: .sometimes, action: .quit),
    ])

    /// `#`: the prompt opens marking when assets are already marked (a batch is being gathered), else jumping.
    mutating func openScan() { scan = ScanPrompt(marking: !marks.isEmpty) }

    mutating func handleScan(_ key: Key, context: ScreenContext) -> Outcome {
        guard var prompt = scan else { return .stay }
        let action = prompt.edit(key)
        scan = prompt
        switch action {
        case .lookUp:
            let typed = prompt.text, page = ListState.pageSize(context.area)
            scan?.text = ""
            guard !typed.trimmingCharacters(in: .whitespaces).isEmpty else { return .stay }
            if prompt.marking {
                let result = markScanned(typed, page: page)
                scan?.result = result
                return .stay
            }
            scan = nil
            return .notify(jump(to: typed, page: page))
        case .switchMode:
            scan?.marking.toggle()
            scan?.result = nil
        case .close:
            scan = nil
        case .quit:
            return .effects([.quit])
        case .deleteBack, .deleteAll, nil:
            break
        }
        return .stay
    }

    /// The asset a scan or a typed text names: a label's payload, or an exact tag (compared as tags are).
    enum Found {
        case asset(Int)
        case problem(String)
        case notATag
    }

    func find(_ typed: String) -> Found {
        let tag: String
        switch LabelPayload.read(typed) {
        case .payload(let payload): tag = payload.tag
        case .unreadable(let why): return .problem(why)
        case .notAPayload: tag = typed.trimmingCharacters(in: .whitespaces)
        }
        let key = Tags.key(Tags.normalized(tag))
        if let index = rows.firstIndex(where: { Tags.key($0.asset.tag) == key }) { return .asset(index) }
        if case .payload = LabelPayload.read(typed) {
            return .problem("No asset is tagged \(VisibleText.make(tag)) in this register"
                            + (showRetired ? "." : " (R shows retired assets)."))
        }
        return .notATag
    }

    /// Selects the asset `typed` names, clearing a filter that hides it.
    mutating func jump(to typed: String, page: Int) -> Notice {
        switch find(typed) {
        case .asset(let index):
            let uuid = rows[index].asset.uuid
            if visibleIndex(of: uuid) == nil { setQuery("") }
            if let position = visibleIndex(of: uuid) { selection = position }
            clampSelection()
            scrollToSelection(pageSize: page)
            let row = rows[index]
            return .info("\(row.asset.tag) · \(row.asset.name) · \(reports[index].status.label)")
        case .problem(let why):
            return .error(why)
        case .notATag:
            return .error("No asset is tagged \(VisibleText.make(typed.trimmingCharacters(in: .whitespaces))) in this "
                          + "register" + (showRetired ? "." : " (R shows retired assets)."))
        }
    }

    /// Marks the asset a scan names for a batch (a second scan of it leaves it marked).
    mutating func markScanned(_ typed: String, page: Int) -> Notice {
        switch find(typed) {
        case .asset(let index):
            let row = rows[index]
            if let position = visibleIndex(of: row.asset.uuid) {
                selection = position
                scrollToSelection(pageSize: page)
            }
            if marks.contains(row.asset.uuid) {
                return .info("\(row.asset.tag) was already marked · \(marks.count) marked")
            }
            guard marks.toggle(row.asset.uuid) else { return ListState.batchFull }
            return .info("Marked \(row.asset.tag) · \(marks.count) marked")
        case .problem(let why):
            return .error(why)
        case .notATag:
            return .error("No asset is tagged \(VisibleText.make(typed.trimmingCharacters(in: .whitespaces))) in this "
                          + "register.")
        }
    }

    /// Enter on a filter that is a label's payload or an exact tag: select that asset. A payload (a scan) matches
    /// nothing as a filter, so the filter is cleared and the list says what it found; a tag typed whole keeps its
    /// filter, which shows the asset, and only the selection moves to it. Nil when the filter is neither (it is
    /// kept, as before).
    mutating func jumpFromFilter(page: Int) -> Notice?? {
        let scanned = if case .payload = LabelPayload.read(query) { true } else { false }
        switch find(query) {
        case .notATag: return nil
        case .problem(let why): return .some(.error(why))
        case .asset(let index):
            if !scanned, let position = visibleIndex(of: rows[index].asset.uuid) {
                selection = position
                scrollToSelection(pageSize: page)
                return .some(nil)
            }
            let typed = query
            setQuery("")
            return .some(jump(to: typed, page: page))
        }
    }

    /// `L`: the labels of what the last save or batch saved.
    func labelsOfLastSave() -> Outcome {
        guard !lastSaved.isEmpty else {
            return .notify(.error("Nothing saved yet in this session: L prints the labels of the last save or batch."))
        }
        return .effects([.writeLabels(assetUUIDs: lastSaved)])
    }
}
