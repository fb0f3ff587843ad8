import Foundation
import RigbookCore
import RigbookStore
import RigbookUI

/// A running Rigbook without a terminal: it feeds events to `App.update`, carries out the effects
/// against the register and the files, and renders frames. The curses loop and the test harness
/// both drive this, so what tests see is what the terminal gets.
public final class Session {
    public private(set) var state: AppState
    public let home: DataHome
    public let register: Register
    private(set) var isFinished = false
    /// The passphrase typed this run (`PassphraseScreen`): it opens the examiners' keys until Rigbook quits.
    var keyPassphrase: String?
    /// Set by Ctrl-Z once the draft is flushed; the terminal loop suspends and clears it.
    var suspendRequested = false
    /// Set by Ctrl-L: the terminal loop clears the terminal (whatever else wrote to it) and clears this.
    var redrawRequested = false
    let drafts: DraftStore
    let draftRetentionDays: Int
    /// Locks of the forms open in this session, by draft id.
    var locks: [String: DraftLock] = [:]
    /// A keystroke journal open in this session and what it stands for: the snapshot of its last line, or the
    /// one written to the draft file when a write emptied it; a typed edit is written against it
    /// (`DraftJournalEdit`). One record per form, so a key's line looks its draft up once.
    final class OpenJournal {
        let file: DraftJournal
        var base: DraftSnapshot?
        init(_ file: DraftJournal) { self.file = file }
    }
    /// The keystroke journals of the forms open in this session, by draft id (opened at their first edit).
    var journals: [String: OpenJournal] = [:]
    /// The draft file this session last wrote for each draft: the one a journal line extends. A key's snapshot
    /// may have been made before a write its turn also ran (a timer falling due with the key), and then names
    /// the file before; recovery would take such a line for an older file's and drop it.
    private var written: [String: DraftFileMeta] = [:]
    /// A turn's journal lines wait, the last per draft, for the runtime's `writeJournals` just before the frame
    /// that shows them (DECISIONS.md, "The journal line before the screen"): keys read in one turn give one line.
    private var waitingJournals: [(draftID: String, snapshot: DraftSnapshot?)] = []
    private var shownFrame: Frame?
    private var uuidTextKept: (uuid: UUID, text: String)?
    /// Frames handed to the terminal so far: keys sent after the same frame are one input batch.
    private var framesShown = 0
    /// Seconds on a monotonic clock; tests pass a virtual one.
    private let clock: () -> Double
    /// Today by the calendar, asked at most once a second; nil keeps the first day for the whole session.
    private let calendar: (() -> CalendarDate)?
    private var calendarAskedAt = -Double.infinity
    /// The register's `data_version` when last looked at, and when: other processes' commits show within a second.
    private var registerVersion: Int64?
    private var registerAskedAt = -Double.infinity
    /// How many times looking at the calendar, the sync or the register changed the state (`lookAround`).
    var lookedAroundChanges = 0
    /// Syncs with the organisation's server in the background, when the register has one.
    let backgroundSync: BackgroundSyncWorker?
    /// Makes the filter's index of a large list beside the loop.
    let searchIndexWorker = SearchIndexWorker()
    /// A loaded list asked for its index to be made ahead: started at the loop's next idle moment, so the frame
    /// of the load is drawn first.
    var searchIndexWanted = false
    /// Why the register can only be read (nil: it can be written): said from the start, and a save is refused
    /// with it rather than failing inside SQLite.
    let readOnly: String?
    /// From how many assets the list is read a window at a time (`ListWindow`).
    let listWindowFrom: Int

    public init(home: DataHome, register: Register, today: CalendarDate, width: Int = 80, height: Int = 24,
                draftRetentionDays: Int = 30, clock: @escaping () -> Double = Session.monotonicSeconds,
                calendar: (() -> CalendarDate)? = nil, backgroundSync: BackgroundSyncWorker? = nil,
                readOnly: String? = nil, listWindowFrom: Int = ListState.windowFrom) {
        self.home = home
        self.listWindowFrom = listWindowFrom
        self.backgroundSync = backgroundSync
        self.register = register
        // The caller's reason (why opening to write failed), else what the connection itself says.
        self.readOnly = readOnly ?? register.readOnlyReason
        self.clock = clock
        self.calendar = calendar
        self.drafts = DraftStore(home: home)
        self.draftRetentionDays = draftRetentionDays
        state = AppState(today: today, registerPath: register.path)
        state.width = width
        state.height = height
    }

    public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Tidies the drafts folder, then loads the register into the list. Call once before the first frame.
    func start() {
        let report = drafts.housekeeping(register: register, retentionDays: draftRetentionDays)
        // After the drafts are tidied: files nothing names any more, an hour old, go.
        AttachmentHousekeeping.sweep(home: home, register: register)
        // Before any event: the load below is what this version stands for (else it would load twice).
        registerVersion = try? register.dataVersion()
        registerAskedAt = clock()
        send(.resize(width: state.width, height: state.height))
        run([.reloadRegister])
        if let summary = report.summary { send(.info(summary)) }
        if let readOnly { send(.registerReadOnly(readOnly)) }
        if let backgroundSync { send(.syncEnabled(intervalSeconds: backgroundSync.interval)) }
    }

    /// Writes any unwritten draft at once: a signal arrived or the terminal went away.
    func flushDrafts() {
        writeJournals()
        send(.flush)
        writeJournals()
    }

    /// Runs one event through `update` and every effect it asks for.
    func send(_ event: Event) {
        // Nobody is waiting: what a batch's save left in the WAL is copied into the register now.
        if case .tick = event {
            register.checkpointIfDeferred()
            if searchIndexWanted {
                searchIndexWanted = false
                searchIndexWorker.start(state.list, registerPath: register.path)
            }
        }
        followTheSearchIndex(before: event)
        // The runtime looks at the calendar, the sync and the register after a key's frame (`lookAround`): the key
        // goes to `update` at once, and the look at the register (a query, once a second) is not its wait.
        if case .key = event {} else { _ = lookAround() }
        run(App.update(&state, event, now: clock(), batch: framesShown))
    }

    /// Looks at the calendar, the background sync and the register (each at most as often as it says): what `send`
    /// does before any event but a key, and the runtime after each frame. True when that changed what is shown.
    func lookAround() -> Bool {
        let before = lookedAroundChanges
        followTheCalendar()
        followTheSync()
        followTheRegister()
        return lookedAroundChanges != before
    }

    func send(_ keys: [Key]) { for key in keys { send(.key(key)) } }

    /// A session left open past midnight moves to the new day: statuses and new forms follow it.
    private func followTheCalendar() {
        guard let calendar, clock() - calendarAskedAt >= 1 else { return }
        calendarAskedAt = clock()
        let day = calendar()
        guard day != state.today else { return }
        lookedAroundChanges += 1
        run(App.update(&state, .dayChanged(day), now: clock(), batch: framesShown))
    }

    /// Another process committed (a second terminal saved, `asset add` ran): read the register again, at most once
    /// a second. The list keeps its selection and its filter.
    private func followTheRegister() {
        guard registerVersion != nil, clock() - registerAskedAt >= 1 else { return }
        registerAskedAt = clock()
        guard let version = try? register.dataVersion(), version != registerVersion else { return }
        registerVersion = version
        lookedAroundChanges += 1
        run([.reloadRegister])
    }

    /// Runs one event through `update` without looking at the calendar, the register or the sync first.
    func update(with event: Event) { run(App.update(&state, event, now: clock(), batch: framesShown)) }
    func lookAtTheRegisterNow() { registerAskedAt = -Double.infinity }

    private func run(_ effects: [Effect]) {
        // A slice: taking the first effect moves its start, where the array's `removeFirst` would copy the caller's
        // (shared) array. Taking an effect out is a retain (`Effect` is indirect).
        var pending = effects[...]
        while let effect = pending.popFirst() {
            if case .journalDraft(let draftID, let snapshot) = effect {
                // A later line holds everything an earlier one of the same turn did: only the last is written.
                waitingJournals.removeAll { $0.draftID == draftID }
                waitingJournals.append((draftID, snapshot))
                continue
            }
            // Any other effect (a draft write truncates the journal, a close removes it) comes after the lines
            // that were waiting, as it did when they were written at once.
            writeJournals()
            for result in perform(effect) { pending += App.update(&state, result, now: clock(), batch: framesShown) }
        }
    }

    /// Stores the journal lines waiting since the last were stored.
    func writeJournals() {
        guard !waitingJournals.isEmpty else { return }
        let waiting = waitingJournals
        waitingJournals.removeAll(keepingCapacity: true)
        for (draftID, snapshot) in waiting { journal(draftID, snapshot) }
    }

    /// Work for the next key, once the frame is on the terminal (`App.prepareNextKey`).
    func prepareNextKey() {
        readListWindowAhead()
        withUnsafePointer(to: &state) { App.prepareNextKey($0.pointee) }
    }

    /// How long the loop may wait for a key before something comes due (nil: no deadline).
    func timeoutMilliseconds() -> Int32? {
        // The frame is drawn: the index a load asked for can be started at once (on the tick this brings).
        if searchIndexWanted { return 0 }
        // An index being made beside the loop: a filter typed before it was ready runs as soon as it comes.
        if searchIndexWorker.isRunning { return min(timeoutUntilDeadline() ?? 100, 100) }
        // A sync running on the worker: look for its outcome often (the loop never waits for it).
        if backgroundSync?.isRunning == true { return min(timeoutUntilDeadline() ?? 200, 200) }
        return timeoutUntilDeadline()
    }

    private func timeoutUntilDeadline() -> Int32? {
        guard let deadline = state.nextDeadline else { return nil }
        return Int32(max(0, min(60_000, ((deadline - clock()) * 1000).rounded(.up))))
    }

    private func perform(_ effect: Effect) -> [Event] {
        do {
            switch effect {
            case .quit:
                isFinished = true
                return []
            case .suspend:
                suspendRequested = true
                return []
            case .sync:
                backgroundSync?.start()
                return []
            case .prepareSearchIndex:
                searchIndexWanted = true
                return []
            case .redraw:
                redrawRequested = true
                invalidateScreen()
                return perform(.reloadRegister)
            case .reloadRegister:
                return try loadForList()
            case .readListWindow(let request):
                return try readListWindow(request)
            case .refreshAsset(let uuid):
                guard var row = try register.asset(uuid: uuid) else { return perform(.reloadRegister) }
                row.hasDraft = [DraftIdentity.draftID(assetUUID: uuid), DraftIdentity.assetDraftID(assetUUID: uuid),
                                DraftIdentity.testDraftID(assetUUID: uuid)]
                    .contains { FileManager.default.fileExists(atPath: drafts.path(for: $0)) }
                return [.assetRefreshed(row)]
            case .loadSample:
                try SampleData(count: state.sampleSize, seed: 42, today: state.today).load(into: register)
                return [.sampleLoaded(count: state.sampleSize)]
            case .openHistory(let uuid):
                guard let row = try register.asset(uuid: uuid) else {
                    return [.failure("That asset is no longer in the register.")]
                }
                return [.historyLoaded(row, try register.history(assetUUID: uuid)),
                        .testsLoaded(assetUUID: uuid,
                                     row.asset.isElectrical ? try register.tests(assetUUID: uuid) : []),
                        .assetChangesLoaded(assetUUID: uuid, try register.assetChanges(assetUUID: uuid)),
                        .labelCodeLoaded(assetUUID: uuid, LabelPrinting.screenCode(row, today: state.today))]
            case .writeLabels(let uuids):
                var rows: [RegisterRow] = []
                for uuid in uuids { if let row = try register.asset(uuid: uuid) { rows.append(row) } }
                guard !rows.isEmpty else { return [.failure("Those assets are no longer in the register.")] }
                do {
                    let particulars = try register.particulars()
                    // An electrical item's test tag needs its last test (a DANGER tag when it failed).
                    let path = try LabelPrinting.write(rows, particulars: particulars, today: state.today, home: home,
                                                       lastTests: try LabelPrinting.lastTests(rows, in: register))
                    return [.labelsWritten(path: path, count: rows.count)]
                } catch {
                    return [.failure("The labels could not be written into \(LabelPrinting.folder(home)): "
                                     + DataHome.reason(error))]
                }
            case .printCertificate(let printed):
                do {
                    let paths = try CertificatePrinting.write(printed, register: register, home: home)
                    return [.info(paths.count == 1 ? "Wrote the certificate: \(paths[0])"
                                  : "Wrote \(paths.count) certificates, one a site: "
                                    + paths.joined(separator: ", "))]
                } catch let refusal as CertificatePrinting.Refusal {
                    return [.failure(refusal.description)]
                } catch {
                    return [.failure("The certificate could not be written into \(CertificatePrinting.folder(home)): "
                                     + DataHome.reason(error))]
                }
            case .openForm(let uuid, let amending, let recover):
                guard let row = try register.asset(uuid: uuid) else {
                    return [.failure("That asset is no longer in the register.")]
                }
                // One way in for every `i` (list, history, Ctrl-N, Drafts): an electrical asset is tested.
                if row.asset.isElectrical { return try openTestForm(row: row, recover: recover) }
                return try openForm(row: row, amending: amending, recover: recover)
            case .save(let record, let notices, let thenNext):
                if let refusal = readOnlyRefusal { return [.saveFailed(refusal)] }
                if let missing = missingAttachment([record]) { return [.saveFailed(missing)] }
                do {
                    let signer = try signer(for: record.values.inspectorName)
                    // The notices it opens are dated by the day the session compares them with.
                    try register.signing(with: signer) {
                        try register.insert(record, saved: SaveStamp(today: state.today), defectNotices: notices)
                    }
                } catch {
                    return locked(error, retry: effect) ?? [.saveFailed(Session.refusal(error, form: "inspection"))]
                }
                // Committed. What follows (the draft goes, the lock is released) is decided in `update`; a
                // crash before the draft goes leaves a draft whose session is in the register, which the
                // next start recognises and removes.
                return [.saved(assetUUID: record.assetUUID, sessionID: record.sessionID, thenNext: thenNext,
                               amends: record.amendsID)]
            case .saveTest(let test, let thenNext):
                if let refusal = readOnlyRefusal { return [.saveFailed(refusal)] }
                if let missing = missingAttachment(in: test.values.attachments) { return [.saveFailed(missing)] }
                do {
                    let signer = try signer(for: test.values.technician)
                    try register.signing(with: signer) { try register.insert(test: test, saved: SaveStamp()) }
                } catch {
                    return locked(error, retry: effect) ?? [.saveFailed(Session.refusal(error, form: "test"))]
                }
                // Committed; as for an inspection, a crash before the draft goes is recognised at the next start.
                return [.saved(assetUUID: test.assetUUID, sessionID: test.sessionID, thenNext: thenNext)]
            case .unlockKey(let passphrase):
                keyPassphrase = passphrase
                return []
            case .refuseSave(let reason):
                return [.saveFailed(reason)]
            case .rememberTechnician(let values):
                // Only prefills the next test: failing to write it loses nothing typed.
                try? TestProfile.load(from: home.testProfilePath).writingBack(values).save(to: home.testProfilePath)
                return []
            case .rememberInspector(let name, let certificate):
                // The profile only prefills the next form: failing to write it loses nothing typed.
                try? Profile(inspectorName: name, certificationNumber: certificate).save(to: home.profilePath)
                return []
            case .writeDraft(let snapshot):
                return [writeDraft(snapshot)]
            case .journalDraft(let draftID, let snapshot):
                journal(draftID, snapshot)
                return []
            case .listPath(let text, let owner):
                return [.pathListed(listPath(text), owner: owner)]
            case .attachFile(let path, let owner):
                return [attachFile(path, owner: owner)]
            case .openBatch(let uuids):
                return try openBatch(assetUUIDs: uuids, visit: UUID(), draft: nil)
            case .openBatchDraft(let id):
                return try openBatchDraft(id: id)
            case .writeBatchDraft(let snapshot):
                return [writeBatchDraft(snapshot)]
            case .splitOff(let uuid, let values):
                return try splitOff(assetUUID: uuid, values: values)
            case .saveBatch(let records, let visit, let notices):
                if let refusal = readOnlyRefusal { return [.saveFailed(refusal)] }
                if let missing = missingAttachment(records) { return [.saveFailed(missing)] }
                do {
                    // One examiner makes a batch's reports.
                    let examiner = records.first?.values.inspectorName
                    try register.signing(with: try examiner.map { try signer(for: $0) }) {
                        try register.insert(batch: records, visit: visit, saved: SaveStamp(today: state.today),
                                            defectNotices: notices)
                    }
                } catch RegisterError.retired(let assets) {
                    // The batch selects the first, so that Ctrl-X takes it out; the rest can then be saved.
                    let tags = assets.map(\.tag).joined(separator: ", ")
                    return [.retiredInBatch(assets.map(\.uuid)),
                            .saveFailed(RegisterError.retired(assets).description + " What you typed is kept: take "
                                        + "\(tags) out of the batch (Ctrl-X) and save the rest.")]
                } catch {
                    return locked(error, retry: effect) ?? [.saveFailed(Session.refusal(error, form: "batch"))]
                }
                return [.batchSaved(visit: visit, assetUUIDs: records.map(\.assetUUID))]
            case .deleteDraft(let draftID):
                return [deleteDraft(draftID)]
            case .addAsset(let asset):
                do { try register.addAsset(asset) } catch { return [.assetNotAdded(error.description)] }
                return [.assetAdded(tag: asset.tag)]
            case .openSettings:
                return [.settingsLoaded(try register.particulars())]
            case .openAssetParticulars(let uuid):
                guard let row = try register.asset(uuid: uuid) else {
                    return [.failure("That asset is no longer in the register.")]
                }
                return [.assetParticularsLoaded(row, try register.particulars())]
            case .recordParticulars(let change, let base):
                let saved: (recorded: ParticularsChange, kept: Bool, conflicts: [ParticularsConflict])
                do { saved = try register.record(change, editedFrom: base, stamp: SaveStamp()) } catch {
                    return [.particularsNotRecorded(error.description)]
                }
                return [.particularsRecorded(saved.recorded, kept: saved.kept, conflicts: saved.conflicts,
                                             particulars: try register.particulars())]
            case .recordParticularsTogether(let changes, let bases):
                guard let last = changes.last else { return [] }
                let conflicts: [ParticularsConflict]
                do { conflicts = try register.record(together: changes, editedFrom: bases, stamp: SaveStamp()) } catch {
                    return [.particularsNotRecorded(error.description)]
                }
                return [.particularsRecorded(last, kept: true, conflicts: conflicts,
                                             particulars: try register.particulars())]
            case .openParticularsHistory(let subject, let title):
                let versions = try register.particularsHistory(subject: subject).map { version in
                    var shown = version
                    // What migration 006 made carries the epoch: "when the register was made", not a date.
                    shown.changedAt = version.changedAt.hasPrefix("1970-01-01T00:00:00") ? ""
                        : Timestamp.parse(version.changedAt).map(Session.localTime) ?? version.changedAt
                    return shown
                }
                return [.particularsHistoryLoaded(title: title, versions, particulars: try register.particulars())]
            case .openAssetEditor(let uuid, let recover):
                guard let row = try register.asset(uuid: uuid) else {
                    return [.failure("That asset is no longer in the register.")]
                }
                return try openAssetEditor(row: row, recover: recover)
            case .changeAsset(let uuid, let asset, let reason, let sessionID):
                let changes: [AssetChange]
                do { changes = try register.change(assetUUID: uuid, to: asset, reason: reason, sessionID: sessionID) }
                catch { return [.assetNotChanged(sessionID: sessionID, reason: error.description)] }
                let summary = changes.isEmpty ? "nothing changed."
                    : changes.map(\.summary).joined(separator: "; ") + "."
                return [.assetChanged(assetUUID: uuid, sessionID: sessionID, summary: summary)]
            case .releaseDraft(let draftID):
                release(draftID)
                return []
            case .openDrafts:
                let (entries, setAside) = drafts.entries()
                let batches = drafts.batchIDs().compactMap { try? drafts.readBatch(id: $0) }.map(batchSummary)
                // Batch drafts first: a whole day's work matters more than any one form.
                let all = batches + entries.map(summary)
                var events: [Event] = [.draftsLoaded(all)]
                if !setAside.isEmpty {
                    events.append(.info("Moved \(setAside.count) unreadable draft(s) to Drafts/Corrupt/ "
                                        + "(\(setAside[0].file): \(setAside[0].reason))."))
                }
                return events
            }
        } catch let error as RegisterError {
            return [.failure(error.description)]
        } catch {
            return [.failure("\(error)")]
        }
    }

    /// A save that needs the passphrase of a key: asked (`PassphraseScreen`), then the save tried again.
    struct KeyLocked: Error {
        let examiner: String
        let reason: String?
    }

    /// Who signs what `examiner` saves: their key on this machine, made and added to the register the first time they
    /// save here. A key under a passphrase is opened with the one in the file RIGBOOK_KEY_PASSPHRASE_FILE names, else
    /// with the one typed this run, else the person is asked; a new key is written under the file's passphrase when
    /// it is set, plain otherwise.
    func signer(for examiner: String) throws -> RecordSigner {
        let typed = keyPassphrase
        do {
            return try KeyRing(home: home).signer(for: examiner, register: register) { newKey in
                try KeyRing.passphrase(newKey: newKey, environment: ProcessInfo.processInfo.environment) {
                    guard let typed else { throw KeyLocked(examiner: examiner, reason: nil) }
                    return typed
                }
            }
        } catch let error as KeyError where typed != nil && error.description.contains("passphrase does not open") {
            keyPassphrase = nil
            throw KeyLocked(examiner: examiner, reason: "That passphrase does not open the key of \(examiner).")
        }
    }

    /// A save stopped for a key's passphrase: asked for, over the form that waits for its save, with the save to try
    /// again (or, on Esc, `refuseSave` says it was not saved).
    private func locked(_ error: Error, retry: Effect) -> [Event]? {
        guard let locked = error as? KeyLocked else { return nil }
        return [.keyLocked(examiner: locked.examiner, retry: retry, reason: locked.reason)]
    }

    /// A form's save in a session on a register it can only read: why, in full, and that nothing typed is lost.
    var readOnlyRefusal: String? {
        readOnly.map {
            "\(register.path) can only be read (\($0)), so nothing can be saved in this session. "
                + "What you typed stays in this form and in its draft (unless the title says DRAFT NOT ON DISK): "
                + "once the register can be written, recover the draft (D) and save it."
        }
    }

    /// Why the register refused a form's save, with what to do about it where the register's own sentence cannot
    /// know (it knows no form): an asset retired since the form opened keeps the draft, which waits for the asset
    /// to be put back into service, or to be discarded.
    static func refusal(_ error: Error, form: String) -> String {
        if let key = error as? KeyError {
            return "The \(form) was not saved: it could not be signed (\(key.description)). What you typed is kept in "
                + "the draft; save again once the key is right."
        }
        guard let error = error as? RegisterError else { return "\(error)" }
        guard case .retired(let assets) = error, let asset = assets.first else { return error.description }
        return error.description + " What you typed is kept in the draft: to save this \(form), put \(asset.tag)"
            + " back into service in the asset editor (R shows retired assets, e edits); or discard the draft."
    }

    /// Lets one lock go as a process that dies would (tests of a crash).
    func releaseLock(_ draftID: String) { release(draftID, asIfKilled: true) }

    /// A form closing lets its lock go. The journal it wrote goes too: whatever the close was (kept: the draft
    /// file was just written; saved; discarded; nothing typed), it holds nothing the files do not. Only a process
    /// that dies (`asIfKilled`, for tests) leaves it, for the next start to fold in. A journal this session did
    /// not write (another's, read with its draft) is not touched.
    func release(_ draftID: String, asIfKilled: Bool = false) {
        let wroteJournal = journals[draftID] != nil
        journals.removeValue(forKey: draftID)?.file.close()
        written[draftID] = nil
        if !asIfKilled, wroteJournal, locks[draftID] != nil { unlink(drafts.journalPath(for: draftID)) }
        locks[draftID]?.release()
        locks[draftID] = nil
    }

    /// How a drafted form kind opens: its draft's id, what a lock held elsewhere says, its seed, the kind's values
    /// in a draft file (nil: not this kind's), what else a recovered draft brings, and the events that open it or
    /// ask about a draft found.
    struct DraftedOpening<Values: Sendable, Field: Sendable, Own: Sendable> {
        typealias Seed = DraftedFormSeed<Values, Field, Own>
        let draftID: String
        let heldTitle: String
        let heldUntil: String
        let seed: () throws -> Seed
        let values: (DraftFile) -> Values?
        let focus: (String) -> Field?
        var recovering: (inout Seed, DraftFile) -> Void = { _, _ in }
        let ready: (Seed) -> Event
        let found: (_ seed: Seed, _ draft: DraftSummary, _ recovered: Seed) -> RecoveryState
    }

    /// Takes the form's draft lock, then opens the form, or asks about the draft it finds: one way for every
    /// drafted form. A drafts folder that cannot be used must not keep anyone from typing: the form opens with a
    /// lasting warning and keeps the values in memory.
    func open<Values: Sendable, Field: Sendable, Own: Sendable>(_ opening: DraftedOpening<Values, Field, Own>,
                                                                tag: String, recover: Bool) throws -> [Event] {
        var lockProblem: String?
        switch holdFormLock(opening.draftID, tag: tag, title: opening.heldTitle, until: opening.heldUntil) {
        case .held: break
        case .elsewhere(let explained): return [explained]
        case .failed(let reason): lockProblem = reason
        }
        let seed = try opening.seed()
        if let lockProblem {
            return [opening.ready(seed),
                    .draftWriteFailed(draftID: opening.draftID, reason: "drafts cannot be kept: \(lockProblem)")]
        }
        let draft: DraftFile?
        do {
            draft = try drafts.read(id: opening.draftID)
        } catch DraftStoreError.unknownKind(let kind) {
            // Not ours to read, nor to set aside: the form opens fresh and its first write will say so.
            return [opening.ready(seed), .info("A draft of another kind (\(kind)) is in its place; left as it is.")]
        } catch {
            let moved = (try? drafts.setAside(fileName: opening.draftID + ".json")) != nil
            return [opening.ready(seed), .info("The draft for \(tag) was \(error.description)"
                                               + (moved ? "; it was moved to Drafts/Corrupt/." : "."))]
        }
        guard let draft, let values = opening.values(draft) else { return [opening.ready(seed)] }
        var recovered = seed.recovering(values, from: draft, focus: opening.focus)
        opening.recovering(&recovered, draft)
        if recover { return [opening.ready(recovered)] }
        return [.draftFound(opening.found(seed, summary(DraftEntry(draft: draft, lockedBy: nil)), recovered))]
    }

    /// The inspection form of `row`, fresh or amending a record.
    private func openForm(row: RegisterRow, amending: StoredInspection?, recover: Bool) throws -> [Event] {
        var records: [StoredInspection] = []
        let opening = DraftedOpening(
            draftID: DraftIdentity.draftID(assetUUID: row.asset.uuid), heldTitle: "is open in another session",
            heldUntil: "It cannot be edited here until that form is closed.",
            seed: {
                records = try self.register.history(assetUUID: row.asset.uuid)
                return self.formSeed(row: row, records: records, amending: amending,
                                     particulars: try self.register.particulars())
            },
            values: { $0.formKind == DraftFile.formKind ? $0.values : nil }, focus: FormField.init(key:),
            recovering: { recovered, draft in
                recovered.own.noticeAnswers = draft.defectNotice
                // The draft names the record it amends by uuid (by id if written before records had uuids).
                let amended = draft.amendsUUID.flatMap(UUID.init(uuidString:)).flatMap { uuid in
                    records.first { $0.recordUUID == uuid }
                } ?? draft.amends.flatMap { id in records.first { $0.id == id } }
                (recovered.own.amending, recovered.own.supersededChoice) = FormSeed.target(amending: amended,
                                                                                           in: records)
            },
            ready: Event.formReady, found: RecoveryState.init(seed:draft:recovered:))
        return try open(opening, tag: row.asset.tag, recover: recover)
    }

    /// The asset editor of `row`, for `Drafts/asset-<uuid>.json`.
    private func openAssetEditor(row: RegisterRow, recover: Bool) throws -> [Event] {
        let opening = DraftedOpening(
            draftID: DraftIdentity.assetDraftID(assetUUID: row.asset.uuid),
            heldTitle: "is being edited in another session", heldUntil: "It cannot be edited here until that closes.",
            seed: { AssetEditorSeed(row: row, sessionID: DraftIdentity.assetSessionID(assetUUID: row.asset.uuid)) },
            values: \.assetValues, focus: Asset.Field.init(key:),
            ready: Event.assetEditorReady, found: RecoveryState.init(assetSeed:draft:recovered:))
        return try open(opening, tag: row.asset.tag, recover: recover)
    }

    enum FormLock {
        case held
        /// Another session has the form open: what to tell the person.
        case elsewhere(Event)
        /// The drafts folder cannot be used: the form opens anyway, keeping its values in memory.
        case failed(String)
    }

    /// Takes (or already holds) the lock of the form's draft `draftID` for this session.
    func holdFormLock(_ draftID: String, tag: String, title: String, until: String) -> FormLock {
        guard locks[draftID] == nil else { return .held }
        switch drafts.lock(id: draftID) {
        case .acquired(let lock):
            locks[draftID] = lock
            return .held
        case .heldBy(let holder):
            return .elsewhere(.explain(title: "\(tag) \(title)", lines: Session.heldElsewhere(holder) + [until]))
        case .failed(let reason):
            return .failed(reason)
        }
    }

    /// A draft is deleted only under its lock: the form's own, or one taken for the moment (the Drafts
    /// screen), so a draft whose form another session opened since the list was read stays.
    private func deleteDraft(_ draftID: String) -> Event {
        var borrowed: DraftLock?
        defer { borrowed?.release() }
        if locks[draftID] == nil {
            switch drafts.lock(id: draftID) {
            case .acquired(let lock): borrowed = lock
            case .heldBy(let holder):
                return .failure("The draft is open in another session\(holder.map { " (\($0.description))" } ?? ""); "
                                + "it was not discarded.")
            case .failed(let reason): return .failure("The draft could not be deleted: \(reason)")
            }
        }
        // Read before it goes: the files only this draft named go with it.
        let named = AttachmentHousekeeping.hashes(ofDraft: draftID, in: drafts)
        do { try drafts.delete(id: draftID) } catch {
            return .failure("The draft could not be deleted: \(error.description)")
        }
        AttachmentHousekeeping.release(named, home: home, register: register)
        journals.removeValue(forKey: draftID)?.file.close()
        written[draftID] = nil
        return .draftDeleted(draftID: draftID)
    }

    /// Why this session may not write the form's draft, nil when it holds the draft's lock. A form opened
    /// while no lock could be taken (the folder was unusable) takes it at its next write, unless another
    /// session has the form open, or the file on disk is another session's draft, which this form was not
    /// offered: that one is left for whoever opens the form next, never overwritten.
    private func lockForWriting(_ snapshot: DraftSnapshot) -> String? {
        let draftID = snapshot.draftID
        if locks[draftID] != nil { return nil }
        switch drafts.lock(id: draftID) {
        case .acquired(let lock):
            let onDisk: DraftFile?
            do { onDisk = try drafts.read(id: draftID) } catch {
                // Unreadable: set aside as opening the form would have; kept if that fails.
                guard (try? drafts.setAside(fileName: draftID + ".json")) != nil else {
                    return "an unreadable draft of \(snapshot.assetTag) is in the way: \(error.description)"
                }
                onDisk = nil
            }
            if let onDisk, onDisk.sessionID != snapshot.sessionID {
                lock.release()
                // Short enough for the footer at 80 columns; the guide says what to do.
                return "an earlier draft is on disk; reopen the form to see it"
            }
            locks[draftID] = lock
            return nil
        case .heldBy(let holder):
            return "\(snapshot.assetTag) is open in another session"
                + (holder.map { ": \($0.user) on \($0.host), pid \($0.pid)" } ?? "")
        case .failed(let reason):
            return "drafts cannot be kept: \(reason)"
        }
    }

    private func writeDraft(_ snapshot: DraftSnapshot) -> Event {
        // Never without the lock: two sessions would write over each other's draft.
        if let refusal = lockForWriting(snapshot) {
            return .draftWriteFailed(draftID: snapshot.draftID, reason: refusal)
        }
        let now = Timestamp.now()
        let meta = DraftFileMeta.write(after: snapshot.written, at: now)
        do {
            try drafts.write(draftFile(snapshot.contents, meta: meta, updatedAt: now))
        } catch {
            return .draftWriteFailed(draftID: snapshot.draftID, reason: "\(error)")
        }
        written[snapshot.draftID] = meta
        // The durable file now holds every edit: the journal starts again from it.
        if let open = journals[snapshot.draftID] {
            open.file.truncate()
            open.base = snapshot
        }
        return .draftWritten(draftID: snapshot.draftID, meta)
    }

    /// The draft file a snapshot makes, as of revision `meta.revision`.
    private func draftFile(_ snapshot: DraftSnapshot.Contents, meta: DraftFileMeta, updatedAt: String) -> DraftFile {
        // A test's draft is signed by its technician, an inspection's by its inspector; an asset edit's, and one
        // with no name typed yet, by the system's user.
        let name = (snapshot.testValues?.technician ?? (snapshot.assetValues == nil ? snapshot.values.inspectorName
            : "")).trimmingWhitespace
        var draft = DraftFile(draftID: snapshot.draftID, sessionID: snapshot.sessionID,
                              assetUUID: uuidText(snapshot.assetUUID), assetTag: snapshot.assetTag,
                              amends: snapshot.amends, values: snapshot.values, createdAt: meta.createdAt,
                              updatedAt: updatedAt, operatorName: name.isEmpty ? SystemIdentity.userName : name,
                              revision: meta.revision,
                              focusedField: snapshot.testFocus ?? snapshot.assetFocus ?? snapshot.focus.key)
        if let values = snapshot.testValues {
            draft = draft.holding(values)
        } else if let values = snapshot.assetValues {
            draft = draft.holding(values)
        } else {
            draft.amendsUUID = snapshot.amendsUUID?.uuidString.lowercased()
            draft.defectNotice = snapshot.noticeAnswers
        }
        draft.unknownKeys = meta.unknownKeys
        return draft
    }

    /// A uuid as drafts write it (lower case), kept for the form's asset: each typed key's journal line needs it.
    private func uuidText(_ uuid: UUID) -> String {
        if let kept = uuidTextKept, kept.uuid == uuid { return kept.text }
        let text = uuid.uuidString.lowercased()
        uuidTextKept = (uuid, text)
        return text
    }

    /// Adds an edit to the form's keystroke journal, no fsync: the field typed into when that is all
    /// that changed since the journal's last line, else the whole draft. Only under the draft's lock, like every
    /// write of the draft; a journal that cannot be written costs nothing but itself (the debounced draft write
    /// still runs and reports its own failures).
    private func journal(_ draftID: String, _ snapshot: DraftSnapshot?) {
        guard locks[draftID] != nil else { return }
        var open = journals[draftID]
        guard let snapshot else {
            open?.file.truncate()
            open?.base = nil
            return
        }
        if open == nil, let file = try? drafts.openJournal(id: draftID) {
            open = OpenJournal(file)
            journals[draftID] = open
        }
        guard let open else { return }
        let extends = written[draftID] ?? snapshot.contents.written
        if let base = open.base, let edit = snapshot.typedEdit(since: base) {
            do {
                try open.file.appendEdit(field: edit.field.key, text: edit.text, sessionID: edit.sessionID,
                                         revision: extends?.revision ?? 0)
                open.base = snapshot
                return
            } catch {
                // Not stored (the file was cut short under it, say): a whole draft needs no line before it.
            }
        }
        let contents = snapshot.contents
        do {
            // The revision of the file it extends (0: none yet), so recovery can tell whether it belongs to it.
            let meta = extends ?? DraftFileMeta(createdAt: Timestamp.now(), revision: 0)
            try open.file.append(draftFile(contents, meta: meta, updatedAt: Timestamp.now()))
            open.base = snapshot
        } catch {
            open.base = nil
        }
    }

    /// A draft as the recovery question and the Drafts screen describe it.
    func summary(_ entry: DraftEntry) -> DraftSummary {
        let draft = entry.draft
        if let values = draft.testValues { return testSummary(entry, values: values) }
        let lockedBy = entry.lockedBy?.description
        if let values = draft.assetValues {
            let current = (try? register.asset(uuid: UUID(uuidString: draft.assetUUID) ?? UUID()))?.map {
                AssetDraft(asset: $0.asset)
            }
            return summary(draft.header, asset: draft.assetUUID, tag: draft.assetTag, kind: DraftSummary.assetEditKind,
                           writer: "", lockedBy: lockedBy,
                           differences: DraftSummary.differences(values, from: current ?? AssetDraft()))
        }
        let blank = blankInspection
        // What Recover would bring back: the confirmation is never among it (a person gives it again).
        var recoverable = draft.values
        recoverable.confirmed = false
        return summary(draft.header, asset: draft.assetUUID, tag: draft.assetTag,
                       kind: draft.isAmendment ? "amendment" : "inspection", writer: blank.inspectorName,
                       lockedBy: lockedBy, differences: DraftSummary.differences(recoverable, from: blank))
    }

    /// A draft of any kind as the screens tell of it, its times written out. It is another operator's when another
    /// OS account wrote it, or (on a shared account) a name other than `writer`, this machine's inspector or
    /// technician (empty: the OS account alone decides).
    func summary(_ header: DraftHeader, asset: String, tag: String, kind: String, writer: String, lockedBy: String?,
                 differences: [String]) -> DraftSummary {
        let another = header.osUser != SystemIdentity.userName
            || (!writer.isEmpty && header.operatorName != writer && header.operatorName != SystemIdentity.userName)
        let updated = Timestamp.parse(header.updatedAt)
        return DraftSummary(draftID: header.draftID, assetUUID: UUID(uuidString: asset) ?? UUID(), assetTag: tag,
                            kind: kind, lastEdited: updated.map(Session.localTime) ?? header.updatedAt,
                            age: updated.map { Elapsed.text(Date().timeIntervalSince($0)) } ?? "?",
                            operatorName: header.operatorName, host: header.host, byAnotherOperator: another,
                            differences: differences, lockedBy: lockedBy)
    }

    /// A fresh inspection's values: today, and this machine's inspector and certificate number.
    var blankInspection: InspectionValues {
        let profile = Profile.load(from: home.profilePath)
        return .blank(inspectorName: profile.inspectorName, certificationNumber: profile.certificationNumber,
                      today: state.today)
    }

    /// Who holds a draft's lock elsewhere, in the lines a refusal shows.
    static func heldElsewhere(_ holder: LockHolder?) -> [String] {
        guard let holder else { return ["Its form is open in another session."] }
        let since = Timestamp.parse(holder.since).map(Session.localTime) ?? holder.since
        return ["Open in another session: \(holder.user) on \(holder.host),", "pid \(holder.pid), since \(since)."]
    }

    static func localTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// The prefilled form: the profile's name and number, today, a periodic thorough examination.
    /// An amendment amends the newest record of the chosen record's chain, and starts from its values, with
    /// the confirmation to give again and a reason of its own to write.
    func formSeed(row: RegisterRow, records: [StoredInspection], amending: StoredInspection?,
                          particulars: Particulars) -> FormSeed {
        let (target, chosen) = FormSeed.target(amending: amending, in: records)
        var baseline = blankInspection
        if let target {
            baseline = target.values
            baseline.confirmed = false
            baseline.amendmentReason = ""
        }
        // Unread notices only cost the prefill: the questions are then asked afresh.
        let notices = target.flatMap { try? register.notices(recordUUID: $0.recordUUID) }
        return FormSeed(row: row, history: records.map(\.facts), baseline: baseline,
                        sessionID: DraftIdentity.sessionID(assetUUID: row.asset.uuid),
                        own: InspectionOpening(amending: target, supersededChoice: chosen,
                                               amendedNotices: notices.flatMap(DefectNoticeAnswers.init(notices:)),
                                               particulars: particulars))
    }

    /// The current screen, drawn from the state where it lies. `App.view(state)` would copy the state out of the
    /// session first (every array and string of the list and the screens retained, then released): the
    /// compiler cannot keep the property's access open over a call into another module, so it copies.
    func frame() -> Frame {
        withUnsafePointer(to: &state) { App.view($0.pointee) }
    }

    /// What brings the terminal from the last shown frame to the current one; on a terminal that can scroll a
    /// region (`scrolling`), rows that moved are scrolled, not drawn again.
    func nextUpdate(scrolling: Bool) -> (frame: Frame, update: ScreenUpdate) {
        let frame = self.frame()
        let update = scrolling ? FrameDiff.update(from: shownFrame, to: frame)
            : ScreenUpdate(scroll: nil, runs: FrameDiff.runs(from: shownFrame, to: frame))
        shownFrame = frame
        framesShown += 1
        return (frame, update)
    }

    /// Forget what the terminal shows (after a resize or a resume): the next draw repaints everything.
    func invalidateScreen() { shownFrame = nil }
}

extension DraftFileMeta {
    /// The facts of a draft file as read, which its form carries to every write of it.
    init(of draft: some DraftDocument) {
        self.init(createdAt: draft.createdAt, revision: draft.revision, unknownKeys: draft.unknownKeys)
    }

    /// The facts of the write after `written` (nil: the first write), made at `now`: the next revision, the rest
    /// as they were.
    static func write(after written: DraftFileMeta?, at now: String) -> DraftFileMeta {
        var meta = written ?? DraftFileMeta(createdAt: now, revision: 0)
        meta.revision += 1
        return meta
    }
}
