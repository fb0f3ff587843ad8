import Foundation
import RigbookCore

/// Everything that happens to the program: keys, resizes, the clock, and the answers to effects.
public enum Event: Sendable {
    case key(Key)
    case resize(width: Int, height: Int)
    /// Time passed with no key (the loop's timeout): lets pending work come due.
    case tick
    /// Midnight passed (by the local calendar) while the program was open.
    case dayChanged(CalendarDate)
    /// The whole register, with the particulars that name each asset's site.
    /// The register's rows (draft marks from file names), its particulars and the batch drafts' ids.
    /// `large`: the register is read a window at a time whenever nothing needs every row (`ListState.largeRegister`).
    case registerLoaded([RegisterRow], Particulars, batchDrafts: Set<String> = [], large: Bool = false)
    /// A large register's counts and the window of rows around the selection.
    case registerWindowLoaded(ListWindowLoad)
    /// Rows the list's window asked for (`Effect.readListWindow`).
    case listWindowRead(ListWindowPage)
    /// One asset re-read after a change (a save, a draft kept or discarded).
    case assetRefreshed(RegisterRow)
    case sampleLoaded(count: Int)
    case historyLoaded(RegisterRow, [StoredInspection])
    case formReady(FormSeed)
    /// An electrical asset's test form may open: its draft's lock is held.
    case testFormReady(TestFormSeed)
    /// An asset's electrical tests, for its history screen (they arrive just after `historyLoaded`).
    case testsLoaded(assetUUID: UUID, [StoredTest])
    /// A batch inspection's form may open: its assets are locked.
    case batchReady(BatchSeed)
    /// An asset split off a batch has its own form ready, prefilled with the batch's values.
    case splitOffReady(FormSeed)
    /// The records of batch `visit` are in the register, all of them.
    case batchSaved(visit: UUID, assetUUIDs: [UUID])
    /// The record of form session `sessionID` is in the register; `thenNext`: the form was saved with Ctrl-N,
    /// and the list opens its next asset; `amends`: the record it amends, so the list says it saved an amendment.
    case saved(assetUUID: UUID, sessionID: String, thenNext: Bool = false, amends: Int64? = nil)
    case saveFailed(String)
    /// A save needs the passphrase of `examiner`'s key to sign: asked, then `retry` runs again. `reason`: why it is
    /// asked again (the one typed did not open the key).
    case keyLocked(examiner: String, retry: Effect, reason: String?)
    /// A batch's save was refused because these of its assets were retired since it opened (`saveFailed`
    /// follows, with why): the batch selects the first, for Ctrl-X to take it out.
    case retiredInBatch([UUID])
    /// Opening a form found a draft for it: ask Recover · Discard · Back.
    case draftFound(RecoveryState)
    case draftWritten(draftID: String, DraftFileMeta)
    case draftWriteFailed(draftID: String, reason: String)
    case draftDeleted(draftID: String)
    case draftsLoaded([DraftSummary])
    /// Something could not be done and needs explaining in full (e.g. a form open elsewhere).
    case explain(title: String, lines: [String])
    case assetAdded(tag: String)
    case assetNotAdded(String)
    /// The register's particulars, read for the Settings screen (`,`).
    case settingsLoaded(Particulars)
    /// The particulars, read for one asset's editor (`p`).
    case assetParticularsLoaded(RegisterRow, Particulars)
    /// A particular's new version is in the register (`kept` false: it said what the register said already);
    /// `particulars` are those in force now.
    /// The version recorded, whether it is new, the fields another terminal changed meanwhile too (kept as it
    /// saved them), and the particulars now.
    case particularsRecorded(ParticularsChange, kept: Bool, conflicts: [ParticularsConflict], particulars: Particulars)
    case particularsNotRecorded(String)
    /// The filter's index, made beside the loop after a load (`Effect.prepareSearchIndex`).
    case searchIndexPrepared(PreparedSearchIndex)
    /// A large register's filter index, made beside the loop (`Effect.prepareSearchIndex` on a window).
    case registerIndexPrepared(RegisterSearchIndex)
    /// Every version of one particular, oldest first, `changedAt` in local time.
    case particularsHistoryLoaded(title: String, [ParticularsVersion], particulars: Particulars)
    /// The asset editor may open (its draft's lock is held).
    case assetEditorReady(AssetEditorSeed)
    /// The editor session's changes are in the register (`summary`: what changed, in words).
    case assetChanged(assetUUID: UUID, sessionID: String, summary: String)
    case assetNotChanged(sessionID: String, reason: String)
    /// The labels of the last save were written (`L`): where, and how many.
    case labelsWritten(path: String, count: Int)
    /// The QR code of an asset's label, for its history screen (nil: the tag is too long for one).
    case labelCodeLoaded(assetUUID: UUID, QRMatrix?)
    /// An asset's changes, for its history screen.
    case assetChangesLoaded(assetUUID: UUID, [AssetChange])
    /// The folder a path prompt completes in, listed; `owner`: the draft id of the form asking.
    case pathListed(PathListing, owner: String)
    /// A file is in `Documents/Attachments/` for the form whose draft id is `owner`.
    case attached(Attachment, owner: String)
    /// The file was not attached: why, as the sentence the prompt shows.
    case attachRefused(String, owner: String)
    /// Write any unwritten draft now (a signal arrived, the terminal went away).
    case flush
    /// The register has a server: sync in the background now and every `intervalSeconds`.
    case syncEnabled(intervalSeconds: Double)
    /// A background sync ended (the worker's answer to `.sync`).
    case syncFinished(SyncOutcome)
    case info(String)
    case failure(String)
    /// The register can only be read, and why: the header says so for the whole session, not only until
    /// the first key.
    case registerReadOnly(String)
}

/// Work `update` asks the runtime to do: anything that touches files, the register or the process.
/// The runtime only runs effects and reports their results as events; what follows from a result is
/// decided in `update`.
///
/// Indirect: an effect is a reference to its case in a box of its own, so passing one along (into the effect list,
/// through `App.apply`, into the session's queue) retains a box, where copying the enum inline ran a copy routine
/// over every kind of payload (a few hundred bytes of `InspectionValues` among them) for each typed key.
public indirect enum Effect: Sendable {
    case reloadRegister
    /// Read rows for a large register's list window.
    case readListWindow(ListWindowRequest)
    /// Make the list's filter index on another thread once the loop is idle (a large register just loaded); it
    /// comes back as `searchIndexPrepared`.
    case prepareSearchIndex
    /// Ctrl-L: paint the whole terminal again (and read the register again).
    case redraw
    /// Re-read one asset (and whether it has a draft): cheap at any register size.
    case refreshAsset(assetUUID: UUID)
    case loadSample
    case openHistory(assetUUID: UUID)
    /// Open the inspection form for an asset; `amending` prefills from that record; `recover` takes an
    /// existing draft without asking (the person chose it on the Drafts screen).
    case openForm(assetUUID: UUID, amending: StoredInspection?, recover: Bool)
    case writeDraft(DraftSnapshot)
    /// Append the form's state to its keystroke journal after an edit; nil: nothing unsaved, empty it.
    case journalDraft(draftID: String, DraftSnapshot?)
    /// Lock the marked assets and open one form for all of them.
    case openBatch(assetUUIDs: [UUID])
    /// Open the batch whose draft is `draftID` with its assets and values (the Drafts screen's Enter).
    case openBatchDraft(draftID: String)
    case writeBatchDraft(BatchDraftSnapshot)
    /// Open one asset of a batch in its own form, prefilled with `values`; the batch's lock on it passes to it.
    case splitOff(assetUUID: UUID, values: InspectionValues)
    /// A batch's records, each from the gate, saved in one transaction under one visit id.
    case saveBatch([ValidatedInspection], visit: UUID, DefectNotices?)
    case deleteDraft(draftID: String)
    /// The form is closed: give its draft lock back.
    case releaseDraft(draftID: String)
    case openDrafts
    case addAsset(Asset)
    /// Read the particulars and open the Settings screen.
    case openSettings
    /// Read the particulars and open the editor of one asset's particulars.
    case openAssetParticulars(assetUUID: UUID)
    /// Keep a new version of one particular (the register checks it again under its write lock).
    /// A particular as an editor opened on `editedFrom` (nil: a new one) made it: saved field by field.
    case recordParticulars(ParticularsChange, editedFrom: ParticularsChange?)
    /// Several new versions in one transaction, all or none (the set-up screen's employer, site and examiner);
    /// answered as the last one's `particularsRecorded`.
    case recordParticularsTogether([ParticularsChange], editedFrom: [ParticularsChange?])
    /// Read the history of one particular (`subject`, as `ParticularsChange.subject`), titled `title`.
    case openParticularsHistory(subject: UUID, title: String)
    /// Open the asset editor: take its draft's lock, then open it or ask about its draft.
    case openAssetEditor(assetUUID: UUID, recover: Bool)
    /// Change an asset (the editor's Ctrl-S): one entry of the asset's history per field changed.
    case changeAsset(assetUUID: UUID, to: Asset, reason: String, sessionID: String)
    /// Write the labels of these assets into `Documents/Labels/`.
    case writeLabels(assetUUIDs: [UUID])
    /// Write a saved record's certificate as PDF into the home's `Documents/Certificates`.
    case printCertificate(PrintedRecord)
    /// List the folder of a typed path for Tab completion (`~` expanded); answered by `pathListed`.
    case listPath(String, owner: String)
    /// Copy the file at `path` into `Documents/Attachments/` under its SHA-256; answered by `attached` or
    /// `attachRefused`.
    case attachFile(path: String, owner: String)
    /// Ctrl-Z: drafts are flushed first, then the runtime gives the terminal back and stops.
    case suspend
    /// The only way a record reaches the register: a gate-validated record.
    /// A record, with a defect's reg 10 answers; `thenNext` travels back in `saved` (Ctrl-N).
    case save(ValidatedInspection, DefectNotices?, thenNext: Bool = false)
    /// The only way a test reaches the register: the test gate's value; answered with `saved` (`thenNext`: Ctrl-N).
    case saveTest(ValidatedTest, thenNext: Bool)
    /// Write a saved test's technician and instrument back to the test profile (`test-profile.json`).
    case rememberTechnician(TestValues)
    /// Sync with the server on a worker thread, its own connection to the register (answered by `syncFinished`).
    case sync
    /// The passphrase that opens the examiners' keys for the rest of the run.
    case unlockKey(passphrase: String)
    /// The save waiting for a key's passphrase is given up: answered with `saveFailed(reason)`.
    case refuseSave(String)
    /// Prefill the next form with this inspector (the profile).
    case rememberInspector(name: String, certificationNumber: String)
    case quit
}

/// A line at the bottom that reports what just happened, until the next key.
public struct Notice: Sendable, Equatable {
    public var text: String
    public var isError: Bool

    public static func info(_ text: String) -> Notice { Notice(text: text, isError: false) }
    public static func error(_ text: String) -> Notice { Notice(text: text, isError: true) }
}

/// A saved record whose certificate is printed: a thorough examination's report, or an electrical test's.
public enum PrintedRecord: Sendable, Hashable {
    case inspection(recordUUID: UUID)
    case test(testUUID: UUID)
    /// The records a batch saved under one visit: the visit's certificate.
    case visit(UUID)
}
