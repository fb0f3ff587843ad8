import Foundation
import RigbookCore

/// What the start-up pass over `Drafts/` did, for the one message the screen shows.
public struct DraftHousekeepingReport: Equatable, Sendable {
    /// Drafts whose session is already in the register (saved, then a crash before the file went).
    public var alreadySaved: [String] = []
    /// Drafts whose last edit is older than the retention.
    public var expired: [String] = []
    /// Files moved to `Corrupt/`, with why.
    public var setAside: [(file: String, reason: String)] = []
    /// Drafts whose journal held edits newer than the file (a `kill -9`), now written into the file.
    public var journalsFolded: [String] = []

    public static func == (a: Self, b: Self) -> Bool {
        a.alreadySaved == b.alreadySaved && a.expired == b.expired
            && a.setAside.map(\.file) == b.setAside.map(\.file) && a.setAside.map(\.reason) == b.setAside.map(\.reason)
    }

    public var isEmpty: Bool { alreadySaved.isEmpty && expired.isEmpty && setAside.isEmpty }

    /// One line for the screen, nil when there is nothing to say.
    public var summary: String? {
        var parts: [String] = []
        if !setAside.isEmpty {
            let first = setAside[0]
            let drafts = "\(setAside.count) unreadable draft\(setAside.count == 1 ? "" : "s")"
            let more = setAside.count > 1 ? ", …" : ""
            parts.append("Moved \(drafts) to Drafts/Corrupt/ (\(first.file): \(first.reason)\(more))")
        }
        if !alreadySaved.isEmpty {
            parts.append("removed \(alreadySaved.count) draft\(alreadySaved.count == 1 ? "" : "s") already saved")
        }
        if !expired.isEmpty {
            parts.append("purged \(expired.count) draft\(expired.count == 1 ? "" : "s") past retention")
        }
        guard !parts.isEmpty else { return nil }
        let text = parts.joined(separator: "; ")
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }
}

extension DraftStore {
    /// The start-up pass: removes drafts already saved, purges drafts past retention, sets aside anything
    /// unreadable or for an asset that is gone, and removes lock files nobody holds. A draft someone has
    /// open is left alone.
    public func housekeeping(register: Register, retentionDays: Int, now: Date = Date()) -> DraftHousekeepingReport {
        var report = DraftHousekeepingReport()
        // First the journals a `kill -9` left: each is folded into its draft file (or dropped when it is left
        // over from an earlier write), under the draft's lock, so what follows sees only draft files.
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in listed.sorted() where name.hasSuffix(".journal") {
            let id = String(name.dropLast(8))
            guard DraftStore.isDraftID(id), case .acquired(let held) = lock(id: id) else { continue }
            if foldJournal(id: id) { report.journalsFolded.append(id) }
            held.release()
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let cutoff = now.addingTimeInterval(-Double(retentionDays) * 86_400)
        for name in names.sorted() {
            // lstat: a symbolic link is looked at as the link (and set aside below), never followed.
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT != S_IFDIR,
                  !name.hasSuffix(".lock") else { continue }
            // A journal still here belongs to a form open in another session: its own to fold.
            if name.hasSuffix(".journal"), DraftStore.isDraftID(String(name.dropLast(8))) { continue }
            // A newer build's form kind (`<kind>-<uuid>.json`, its journal): its own, never set aside here.
            if DraftStore.isForeignKindName(name) { continue }
            if name.hasPrefix(".") {
                removeStaleTemp(name, now: now)
                continue
            }
            let id = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
            if name.hasSuffix(".json"), BatchIdentity.visit(ofDraftID: id) != nil {
                tidy(id: id, cutoff: cutoff, report: &report, read: readBatch(id:)) { standing(of: $0, in: register) }
                continue
            }
            guard name.hasSuffix(".json"), DraftStore.isDraftID(id) else {
                setAside(name, because: "not a Rigbook draft", noting: &report)
                continue
            }
            tidy(id: id, cutoff: cutoff, report: &report, read: read(id:)) { standing(of: $0, id: id, in: register) }
        }
        removeUnusedLockFiles()
        return report
    }

    /// What start-up makes of a draft it has read: saved already, not yet (kept until past retention), not to be
    /// told now (the register could not be read: that says nothing about the draft), or to be set aside, with why.
    private enum Standing { case saved, unsaved, unknown, misplaced(String) }

    /// One draft at start-up, of either kind, under its lock: a form opened meanwhile waits for it, and one open
    /// elsewhere (no lock taken) is left for next time. Set aside when unreadable or misplaced, removed once saved,
    /// purged past retention; a draft of a form kind this build does not know is left where it is.
    private func tidy<Draft: DraftDocument>(id: String, cutoff: Date, report: inout DraftHousekeepingReport,
                                            read: (String) throws(DraftStoreError) -> Draft?,
                                            standing: (Draft) -> Standing) {
        guard case .acquired(let held) = lock(id: id) else { return }
        defer { held.release() }
        let draft: Draft
        do {
            guard let read = try read(id) else { return }
            draft = read
        } catch DraftStoreError.unknownKind {
            return
        } catch {
            return setAside(id + ".json", because: error.description, noting: &report)
        }
        switch standing(draft) {
        case .unknown: return
        case .misplaced(let reason): setAside(id + ".json", because: reason, noting: &report)
        case .saved: if (try? delete(id: id)) != nil { report.alreadySaved.append(id) }
        case .unsaved:
            if let updated = Timestamp.parse(draft.updatedAt), updated < cutoff {
                if (try? delete(id: id)) != nil { report.expired.append(id) }
            }
        }
    }

    /// A single form's draft: misplaced when its contents do not match its name or its asset is gone, saved once
    /// its session (or its test's) is in the register.
    private func standing(of draft: DraftFile, id: String, in register: Register) -> Standing {
        guard draft.draftID == id, draft.isTest == id.hasPrefix("test-"),
              let uuid = UUID(uuidString: draft.assetUUID),
              DraftStore.assetUUID(ofDraftID: id) == uuid else {
            return .misplaced("its contents do not match its name")
        }
        let assetRow: RegisterRow?
        let saved: Bool
        do {
            assetRow = try register.asset(uuid: uuid)
            saved = draft.isTest ? try register.containsTestSession(id: draft.sessionID)
                : try register.containsSession(id: draft.sessionID)
        } catch {
            return .unknown
        }
        if assetRow == nil { return .misplaced("asset \(draft.assetTag) is no longer in the register") }
        return saved ? .saved : .unsaved
    }

    /// A batch draft: saved once its visit is in the register (saved, then a crash before the file went: the batch
    /// saves all or nothing, so any record of the visit means all). `readBatch` has already matched it to its name.
    private func standing(of draft: BatchDraftFile, in register: Register) -> Standing {
        guard let visit = draft.visit, let saved = try? !register.records(visit: visit).isEmpty else { return .unknown }
        return saved ? .saved : .unsaved
    }

    /// Moves `name` to `Corrupt/` and notes it in `report` with why; a file that could not be moved is not noted.
    private func setAside(_ name: String, because reason: String, noting report: inout DraftHousekeepingReport) {
        if (try? setAside(fileName: name)) != nil { report.setAside.append((name, reason)) }
    }

    /// A name a newer build's form kind would give its draft or journal: a lower-case word this build does not
    /// know, a dash, a UUID. Housekeeping leaves such files alone (they are not unreadable, only not ours yet).
    static func isForeignKindName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), [".json", ".journal"].contains(String(name[dot...])) else {
            return false
        }
        let id = String(name[..<dot])
        guard !isLockableID(id), id.count > 37 else { return false }
        let kind = id.dropLast(37)
        guard id.dropFirst(kind.count).first == "-", !kind.isEmpty,
              kind.allSatisfy({ $0.isASCII && $0.isLowercase }) else { return false }
        return UUID(uuidString: String(id.suffix(36))) != nil
    }

    /// Temp files from a write cut short by a crash; a minute's grace for a write in progress.
    private func removeStaleTemp(_ name: String, now: Date) {
        guard name.contains(".tmp-") else { return }
        let path = folder + "/" + name
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
           let modified = attributes[.modificationDate] as? Date, now.timeIntervalSince(modified) > 60 {
            unlink(path)
        }
    }

    /// Every readable draft (for the Drafts screen and `drafts list`), newest first. Unreadable ones
    /// are set aside and reported; one of a form kind this build does not know is left where it is.
    public func entries() -> (drafts: [DraftEntry], setAside: [(file: String, reason: String)]) {
        let listed = listing(ids(), read: read(id:), leaving: \.isUnknownKind)
        return (listed.drafts.sorted { $0.draft.updatedAt > $1.draft.updatedAt }, listed.setAside)
    }
}
