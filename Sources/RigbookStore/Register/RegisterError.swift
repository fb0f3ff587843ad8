import Foundation
import RigbookCore

/// Why the register could not be opened or written, as one line a person can act on.
public enum RegisterError: Error, CustomStringConvertible, Equatable {
    case notARegister(path: String, reason: String)
    case corrupt(path: String, detail: String)
    case newerVersion(path: String, unknownMigrations: [String])
    case locked(path: String)
    case cannotOpen(path: String, reason: String)
    /// Nothing at the path: only a command that adds data makes a register.
    case missing(path: String)
    /// A zero-byte file at the path: a truncated or never-written register, never taken for a new one.
    case emptyFile(path: String)
    case duplicateTag(String)
    /// A new tag that reads as one the register holds (`ЅL-0042`, a Cyrillic Ѕ, beside `SL-0042`).
    case lookAlikeTag(String, existing: String)
    case duplicateSession(String)
    case unknownAsset(String)
    case invalidAmendment(String)
    /// Assets retired since the form was opened (checked under the write lock): no fresh inspection or test of
    /// a retired asset is saved, and a batch holding one saves none of its records.
    case retired([RetiredAsset])
    /// One live amendment per record: `record` is already amended by `by`.
    case alreadyAmended(record: Int64, by: Int64)
    case writeFailed(String)
    case invalidAsset([String])
    case invalidParticulars([String])
    case invalidNotice([String])
    case ambiguousTag(String, matches: [String])
    /// An import with problems (each `line 37, wll_kg: …`): nothing was imported.
    case importRefused([String])
    /// A merge that cannot be made (tags clash, report numbers repeat, an entry differs): nothing was written.
    case mergeRefused([String])
    /// A backup that could not be made or checked; nothing was put at the target.
    case backupFailed(String)

    public var description: String {
        switch self {
        case .notARegister(let path, let reason):
            "\(path) is not a Rigbook register (\(reason)); it was left untouched."
        case .corrupt(let path, let detail):
            "\(path) is damaged (\(detail)); it was left untouched. Restore it from a backup."
        case .newerVersion(let path, let names):
            "\(path) was written by a newer Rigbook (unknown schema \(names.joined(separator: ", ")));"
                + " it was left untouched. Upgrade Rigbook to open it."
        case .locked(let path):
            "\(path) stayed locked by another program; nothing was written. Try again in a moment."
        case .cannotOpen(let path, let reason):
            "cannot open \(path): \(reason)"
        case .missing(let path):
            "there is no register at \(path); nothing was created"
        case .emptyFile(let path):
            "\(path) is empty (0 bytes) and holds no register; it was left untouched. Restore it from a backup,"
                + " or, to start afresh, move the empty file away (e.g. rename it register.sqlite.empty) and try again."
        case .duplicateTag(let tag):
            TagClash.same(tag).refusal(of: tag)
        case .lookAlikeTag(let tag, let existing):
            TagClash.lookAlike(existing).refusal(of: tag)
        case .duplicateSession(let id):
            "this form (draft \(id)) has already been saved; nothing was written twice"
        case .unknownAsset(let what):
            "no asset \(what) in the register"
        case .invalidAmendment(let reason):
            "cannot amend: \(reason)"
        case .retired(let assets) where assets.count == 1:
            "\(assets[0].tag) was retired (\(assets[0].how), \(assets[0].on.iso)); nothing was saved."
        case .retired(let assets):
            assets.map { "\($0.tag) (\($0.how), \($0.on.iso))" }.joined(separator: ", ")
                + " were retired; nothing was saved."
        case .alreadyAmended(let record, let by):
            "record #\(record) has already been amended by #\(by); nothing was saved. "
                + "Amend #\(by), the newest record of its chain, instead."
        case .writeFailed(let reason):
            "the register could not be written: \(reason)"
        case .invalidAsset(let problems), .invalidParticulars(let problems), .invalidNotice(let problems):
            problems.joined(separator: " ")
        case .importRefused(let problems):
            "nothing was imported: \(problems.count) problem\(problems.count == 1 ? "" : "s"),"
                + " the first: \(problems[0])"
        case .mergeRefused(let problems):
            "nothing was merged: \(problems.joined(separator: "; "))"
        case .backupFailed(let reason):
            "no backup was made: \(reason)"
        case .ambiguousTag(let tag, let matches):
            "\(matches.count) assets are tagged \(tag) when letter case is ignored"
                + " (\(matches.joined(separator: ", "))); give the tag exactly as it is registered"
        }
    }

    /// A new tag refused for the one another asset holds or looks like: the command line's usage error.
    public var refusesTag: Bool {
        switch self {
        case .duplicateTag, .lookAlikeTag: true
        default: false
        }
    }

    /// A retired asset, as a refused save names it.
    public struct RetiredAsset: Equatable, Sendable {
        public var uuid: UUID
        public var tag: String
        public var on: CalendarDate
        public var how: String

        init?(_ asset: Asset) {
            guard let retirement = asset.retirement else { return nil }
            (uuid, tag, on, how) = (asset.uuid, asset.tag, retirement.on, retirement.how)
        }
    }

    /// Turns a SQLite failure into the reason a person reads.
    static func from(_ error: DatabaseError, path: String) -> RegisterError {
        if error.isBusy { return .locked(path: path) }
        if error.isCorrupt { return .corrupt(path: path, detail: error.message) }
        if error.isFull { return .writeFailed("the disk is full") }
        if error.isReadOnly { return .writeFailed("the register file is read-only (\(error.message))") }
        return .writeFailed(error.message)
    }

    /// Turns a SQLite failure met while only reading into the reason a person reads (nothing was written).
    static func fromReading(_ error: DatabaseError, path: String) -> RegisterError {
        if error.isBusy { return .locked(path: path) }
        if error.isCorrupt { return .corrupt(path: path, detail: error.message) }
        return .cannotOpen(path: path, reason: error.message)
    }

    /// Any failure while opening `path` as one `RegisterError`: a SQLite one through `from` (or
    /// `fromReading`), a `RegisterError` as it is.
    static func opening(_ error: any Error, path: String, reading: Bool = false) -> RegisterError {
        if let error = error as? RegisterError { return error }
        if let error = error as? DatabaseError {
            return reading ? fromReading(error, path: path) : from(error, path: path)
        }
        return .cannotOpen(path: path, reason: "\(error)")
    }
}
