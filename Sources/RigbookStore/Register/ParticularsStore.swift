import Foundation
import RigbookCore

/// The register's particulars: each change is a new row of `particulars`, an entry of the hash
/// chain; the newest row of a subject is in force.
enum ParticularsStore {
    /// Appends `change` onto the chain. Only inside a write transaction.
    static func append(_ db: Database, _ change: ParticularsChange, stamp: SaveStamp) throws {
        let subject: [SQLValue] = [.text(change.kind), .text(change.subject.uuidString)]
        let changedAt = try AssetChangeStore.laterTime(
            db, "SELECT max(changed_at) FROM particulars WHERE subject_kind = ? AND subject_uuid = ?", subject,
            now: stamp.savedAt)
        try HashChain.append(db, HashChain.particular, [.text(UUID().uuidString)] + subject + [
            .text(try content(of: change)), .text(changedAt), .text(stamp.operatorName),
        ])
    }

    static func content(of change: ParticularsChange) throws -> String {
        switch change {
        case .organisation(let o): try ParticularsJSON.encode(o)
        case .employer(let e): try ParticularsJSON.encode(e)
        case .site(let s): try ParticularsJSON.encode(s)
        case .examiner(let e): try ParticularsJSON.encode(e)
        case .asset(let a): try ParticularsJSON.encode(a)
        }
    }

    /// The change a stored row holds; nil for a kind or content this build cannot read.
    static func change(kind: String, content: String) -> ParticularsChange? {
        switch kind {
        case "organisation": ParticularsJSON.decode(ExaminingOrganisation.self, from: content).map { .organisation($0) }
        case "employer": ParticularsJSON.decode(Employer.self, from: content).map { .employer($0) }
        case "site": ParticularsJSON.decode(Site.self, from: content).map { .site($0) }
        case "examiner": ParticularsJSON.decode(Examiner.self, from: content).map { .examiner($0) }
        case "asset": ParticularsJSON.decode(AssetParticulars.self, from: content).map { .asset($0) }
        default: nil
        }
    }

    /// The particulars in force: each subject's newest version by when it was changed, then by entry uuid
    /// (`append` keeps one register's versions of a subject apart in time; two registers' versions of the same
    /// instant are ordered alike on both). Not by row id: a merge appends another register's versions after
    /// this one's, and a laptop's blank "Main employer" made when its register was created must not replace
    /// the office's addresses typed since.
    static func current(_ db: Database) throws -> Particulars {
        let statement = try db.prepare("""
            SELECT subject_kind, content FROM particulars p
            WHERE NOT EXISTS (SELECT 1 FROM particulars q
                              WHERE q.subject_kind = p.subject_kind AND q.subject_uuid = p.subject_uuid
                                AND (q.changed_at > p.changed_at
                                     OR (q.changed_at = p.changed_at AND q.entry_uuid > p.entry_uuid)))
            ORDER BY changed_at, entry_uuid
            """)
        var particulars = Particulars()
        while try statement.step() {
            if let change = change(kind: statement.text(0), content: statement.text(1)) { particulars.apply(change) }
        }
        return particulars
    }
}

extension Register {
    /// The particulars in force.
    public func particulars() throws(RegisterError) -> Particulars {
        try perform { try ParticularsStore.current(db) }
    }

    /// What a report on this asset copies today.
    public func reportParticulars(assetUUID: UUID, examinerName: String) throws(RegisterError) -> ReportParticulars {
        try particulars().report(assetUUID: assetUUID, examinerName: examinerName)
    }

    /// Keeps a new version of one particular, checked under the write lock against the particulars in force.
    /// A version equal to the one in force is not kept again. Returns whether one was kept.
    @discardableResult
    public func record(_ change: ParticularsChange, stamp: SaveStamp = SaveStamp()) throws(RegisterError) -> Bool {
        try record(change, editedFrom: nil, stamp: stamp).kept
    }

    /// `change`, made by an editor opened on `base`, recorded field by field over the version in force (read in the
    /// same transaction): what it changed, on what another terminal saved meanwhile (`ParticularsChange.merged`).
    /// Returns the version recorded, whether it is new, and the fields both changed, which keep the register's.
    public func record(_ change: ParticularsChange, editedFrom base: ParticularsChange?, stamp: SaveStamp = SaveStamp())
        throws(RegisterError) -> (recorded: ParticularsChange, kept: Bool, conflicts: [ParticularsConflict]) {
        try perform { try db.transaction { try recordInTransaction(change, editedFrom: base, stamp: stamp) } }
    }

    /// Several particulars in one transaction, each checked against those before it and saved field by field
    /// over what another terminal saved meanwhile (`bases`: what the editor opened with, nil for a new one): all
    /// are kept, or none. Returns the fields both changed, which keep the register's values.
    public func record(together changes: [ParticularsChange], editedFrom bases: [ParticularsChange?],
                       stamp: SaveStamp = SaveStamp()) throws(RegisterError) -> [ParticularsConflict] {
        try perform {
            try db.transaction {
                try zip(changes, bases + Array(repeating: nil, count: max(0, changes.count - bases.count)))
                    .flatMap { try recordInTransaction($0, editedFrom: $1, stamp: stamp).conflicts }
            }
        }
    }

    /// One change, checked and appended inside the caller's transaction.
    private func recordInTransaction(_ change: ParticularsChange, editedFrom base: ParticularsChange?,
                                     stamp: SaveStamp) throws
        -> (recorded: ParticularsChange, kept: Bool, conflicts: [ParticularsConflict]) {
        let current = try ParticularsStore.current(db)
        var recorded = change, conflicts: [ParticularsConflict] = []
        if let base, let now = current.current(of: change) {
            (recorded, conflicts) = change.merged(from: base, onto: now)
        }
        let problems = recorded.problems(in: current)
        guard problems.isEmpty else { throw RegisterError.invalidParticulars(problems) }
        if current.applying(recorded) == current, isKept(recorded, in: current) { return (recorded, false, conflicts) }
        try ParticularsStore.append(db, recorded, stamp: stamp)
        return (recorded, true, conflicts)
    }

    /// Whether the subject already has a version (so an equal one adds nothing).
    private func isKept(_ change: ParticularsChange, in current: Particulars) -> Bool {
        switch change {
        case .organisation: true
        case .employer(let e): current.employers[e.uuid] != nil
        case .site(let s): current.sites[s.uuid] != nil
        case .examiner(let e): current.examiners[e.uuid] != nil
        case .asset(let a): current.assets[a.assetUUID] != nil
        }
    }

    /// Every version of one subject's particulars, oldest first.
    public func particularsHistory(subject: UUID) throws(RegisterError) -> [ParticularsVersion] {
        try perform {
            let statement = try db.prepare(
                "SELECT subject_kind, content, changed_at, operator FROM particulars WHERE subject_uuid = ?"
                    + " ORDER BY changed_at, entry_uuid")
            try statement.bind([.text(subject.uuidString)])
            var versions: [ParticularsVersion] = []
            while try statement.step() {
                guard let change = ParticularsStore.change(kind: statement.text(0), content: statement.text(1))
                else { continue }
                versions.append(ParticularsVersion(change: change, changedAt: statement.text(2),
                                                   operatorName: statement.text(3)))
            }
            return versions
        }
    }
}
