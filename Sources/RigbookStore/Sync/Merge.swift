import Foundation
import RigbookCore

/// What `rigbook merge` brought in.
public struct MergeReport: Sendable, Equatable {
    public var otherIdentity = ""
    public var assets = 0
    public var records = 0
    public var assetChanges = 0
    public var particulars = 0
    public var notices = 0
    public var merges = 0
    /// Rows of the attachments table; the files themselves are copied by `AttachmentFiles`.
    public var attachments = 0
    /// Electrical tests.
    public var electricalTests = 0
    /// Examiners' keys, their retirements and records' signatures.
    public var signatures = 0
    /// Fields both registers changed, each saying which change holds now (the later one).
    public var fieldConflicts: [String] = []
    /// Tags of assets with a record that now has two amendments (made on two machines).
    public var conflictingAmendments: [String] = []

    public var entries: Int {
        assets + records + assetChanges + particulars + notices + merges + attachments + electricalTests + signatures
    }
}

extension Register {
    /// Opens another register (an inspector's laptop) to merge from, read-only. One of an earlier schema is
    /// refused rather than upgraded: it is not this register's file to change.
    public static func openForMerging(path: String) throws(RegisterError) -> Register {
        let headerID = try inspectFile(path: path)
        let walHoldsChanges = walHoldsChanges(path)
        if headerID != RegisterSchema.applicationID && !walHoldsChanges {
            throw .notARegister(path: path, reason: "an SQLite database of another application")
        }
        let (db, mode) = try connectForReading(path: path, walHoldsChanges: walHoldsChanges)
        if try needsUpgrade(db, path: path) {
            throw .cannotOpen(path: path, reason: "it was made by an earlier Rigbook and must be brought up to date"
                              + " first: open it once with this Rigbook (rigbook verify --home …), then merge again")
        }
        return Register(path: path, db: db, readMode: mode)
    }

    /// Brings in what `other` has and this register lacks: assets, particulars versions,
    /// records, notices, asset changes and earlier merges, by uuid, keeping their hashes and parents, in one
    /// transaction, with an entry (`kind merge`) naming the other register's head. Refused before anything is
    /// written when the same tag would be on two assets, the same report number on two records, or an entry
    /// is in both registers with different contents. Merging twice brings nothing the second time. An asset's
    /// fields are then what its changes say, the later `(changed_at, change uuid)` holding where both
    /// registers changed one field. `dryRun` makes every check and write, then keeps nothing.
    public func merge(from other: Register, stamp: SaveStamp = SaveStamp(),
                      dryRun: Bool = false) throws(RegisterError) -> MergeReport {
        var here = stat(), there = stat()
        if stat(path, &here) == 0, stat(other.path, &there) == 0, here.st_dev == there.st_dev,
           here.st_ino == there.st_ino {
            throw .mergeRefused(["\(other.path) is this register"])
        }
        // Checked first, so a damaged OTHER is named as such: a SQLite error met while reading it inside this
        // register's transaction would otherwise be reported against this register.
        let verdict: SQLValue?
        do { verdict = try other.db.scalar("PRAGMA quick_check") } catch {
            throw .corrupt(path: other.path, detail: "\(error)")
        }
        guard verdict == .text("ok") else { throw .corrupt(path: other.path, detail: "\(verdict ?? .null)") }
        do {
            return try perform {
                try db.transaction(rollingBack: dryRun) {
                    // One moment of the other register throughout, whatever its sessions do meanwhile.
                    try other.db.execute("BEGIN")
                    defer { try? other.db.execute("COMMIT") }
                    return try mergeLocked(other.db, stamp: stamp)
                }
            }
        } catch .mergeRefused(let problems) where problems.contains(where: Register.isReportNumberClash) {
            // The clashes alone do not say why: a copy of a register gives out the very report numbers the
            // register does, and the person needs to know that, and what to do instead.
            guard let identity = try sharedIdentity(with: other) else { throw .mergeRefused(problems) }
            let why = "\(other.path) is a copy of this register (same identity \(identity)): records saved on each"
                + " since it was copied carry the same report numbers, so they cannot be merged. A laptop needs a"
                + " register of its own: make one in a new home (`rigbook --home DIR merge \(path)`), and enter there"
                + " what was saved on the copy"
            throw .mergeRefused([why] + problems)
        }
    }

    /// The identity both registers carry (its first 8 hex digits, as report numbers show it) when `other` is a
    /// copy of this one; nil when each has its own.
    private func sharedIdentity(with other: Register) throws(RegisterError) -> String? {
        let query = "SELECT identity FROM register_chain"
        let mine = try perform { try db.scalar(query) }
        let theirs = try other.perform { try other.db.scalar(query) }
        guard case .text(let identity)? = mine, mine == theirs else { return nil }
        return String(identity.prefix(8)).uppercased()
    }

    private func mergeLocked(_ theirs: Database, stamp: SaveStamp) throws -> MergeReport {
        var report = MergeReport()
        guard try theirs.scalar("SELECT count(*) FROM register_chain") == .integer(1),
              case .text(let identity)? = try theirs.scalar("SELECT identity FROM register_chain") else {
            throw RegisterError.mergeRefused(["the other register has no chain row"])
        }
        report.otherIdentity = identity
        let otherHead = try theirs.scalar("SELECT head_hash FROM register_chain")
        var theirChangeUUIDs = Set<String>()
        let changes = try theirs.prepare("SELECT change_uuid FROM asset_changes")
        while try changes.step() { theirChangeUUIDs.insert(changes.text(0)) }
        report = try bringIn(theirs, report: report, hereOnly: { !theirChangeUUIDs.contains($0) })
        // Only the other side's merge entries new here: no entry of this merge, or merging back and forth would
        // add one each time and never settle.
        guard report.entries > report.merges else { return report }
        let entry: [SQLValue] = [.text(UUID().uuidString), .text(identity), otherHead ?? .null, .text(stamp.savedAt),
                                 .text(stamp.operatorName)]
        try HashChain.append(db, HashChain.merge, entry)
        return report
    }

    /// Copies the entries of `theirs` this register lacks by the merge rules, shared by `merge`
    /// and `sync` (whose `theirs` holds what the server sent): refused before anything is written when a tag
    /// would be on two assets, a report number on two records or an entry is in both with different contents;
    /// assets then refolded, summaries refreshed. `hereOnly` says which of this register's asset changes the
    /// other side has not seen (for the field conflicts reported).
    func bringIn(_ theirs: Database, report start: MergeReport,
                 hereOnly: (String) -> Bool) throws -> MergeReport {
        var report = start
        var problems: [String] = []
        var new: [String: Set<String>] = [:]
        for table in SyncJournal.tables {
            let (found, differing) = try newEntries(theirs, table)
            new[table.name] = found
            problems += differing
        }
        problems += try reportNumberClashes(theirs, newRecords: new["inspections"] ?? [])
        problems += try tagClashes(theirs, newAssets: new["assets"] ?? [], newChanges: new["asset_changes"] ?? [])
        guard problems.isEmpty else { throw RegisterError.mergeRefused(problems) }
        guard new.values.contains(where: { !$0.isEmpty }) else { return report }

        // Copy, in an order that keeps every reference whole: assets (their tag keys set once all are in),
        // particulars, records (each after the one it amends), notices, changes, merges.
        // Assets here whose changes arrive hold a stand-in tag until they are refolded: one may give up the tag
        // a new asset comes with (renamed on the other side), or two may swap tags. The tag checks above found no
        // two assets ending with one tag, so each then takes its own without meeting another.
        let changedAssets = try assetsOf(changes: new["asset_changes"] ?? [], in: theirs)
        let here = try db.prepare("SELECT 1 FROM assets WHERE uuid = ?")
        for uuid in changedAssets {
            try here.bind([.text(uuid.uuidString)])
            guard try here.step() else { continue }
            // An asset added here unchanged, whose first changes come from the other side, keeps what it was
            // added as before they apply (the other side may not send it: the server keeps additions only).
            try AssetChangeStore.keepAsAdded(db, assetUUID: uuid)
            try db.run("UPDATE assets SET tag = ?, tag_key = NULL WHERE uuid = ?",
                       [.text(Self.standInTag(uuid.uuidString)), .text(uuid.uuidString)])
        }
        let newAssets = new["assets"] ?? []
        report.assets = try copy(theirs, "assets", keys: newAssets, by: "uuid", order: "created_at, tag",
                                 adjust: ["tag_key": { _ in .null }])
        report.particulars = try copy(theirs, "particulars", keys: new["particulars"] ?? [], by: "entry_uuid",
                                      order: "id")
        let amendsID = try db.prepare("SELECT id FROM inspections WHERE record_uuid = ?")
        report.records = try copy(theirs, "inspections", keys: new["inspections"] ?? [], by: "record_uuid",
                                  order: "id", adjust: ["amends": { row in
            guard case .text(let amended) = row("amends_uuid") else { return .null }
            try amendsID.bind([.text(amended)])
            return try amendsID.step() ? amendsID.value(0) : .null
        }])
        report.electricalTests = try copy(theirs, "electrical_tests", keys: new["electrical_tests"] ?? [],
                                          by: "test_uuid", order: "id")
        report.notices = try copy(theirs, "notices", keys: new["notices"] ?? [], by: "notice_uuid", order: "id")
        report.assetChanges = try copy(theirs, "asset_changes", keys: new["asset_changes"] ?? [], by: "change_uuid",
                                       order: "id")
        report.merges = try copy(theirs, "merges", keys: new["merges"] ?? [], by: "merge_uuid", order: "id")
        report.attachments = try copy(theirs, "attachments", keys: new["attachments"] ?? [], by: "entry_uuid",
                                      order: "id")
        // Examiners' keys before their retirements and the signatures made with them.
        for table in ["examiner_keys", "key_retirements", "signatures"] {
            report.signatures += try copy(theirs, table, keys: new[table] ?? [], by: "entry_uuid", order: "id")
        }

        // What an asset was added as comes with its first change, on whichever register that was made.
        let asAdded = try theirs.prepare("SELECT uuid, as_added FROM assets WHERE as_added IS NOT NULL")
        let keepAsAdded = try db.prepare("UPDATE assets SET as_added = ? WHERE uuid = ? AND as_added IS NULL")
        while try asAdded.step() {
            try keepAsAdded.bind([asAdded.value(1), asAdded.value(0)])
            while try keepAsAdded.step() {}
        }
        var touched = Set(changedAssets).union(newAssets.compactMap(UUID.init(uuidString:)))
        // Prepared once: a sync brings pages of thousands of entries.
        let tagOf = try db.prepare("SELECT tag FROM assets WHERE uuid = ?")
        let setTagKey = try db.prepare("UPDATE assets SET tag_key = ? WHERE uuid = ?")
        for uuid in newAssets {
            try tagOf.bind([.text(uuid)])
            guard try tagOf.step() else { continue }
            try setTagKey.bind([.text(Tags.key(tagOf.text(0))), .text(uuid)])
            while try setTagKey.step() {}
        }
        for uuid in changedAssets {
            try AssetChangeStore.keepAsAdded(db, assetUUID: uuid)
            try refold(assetUUID: uuid)
        }
        let recordAssets = try db.prepare("SELECT asset_uuid FROM inspections WHERE record_uuid = ?")
        for uuid in new["inspections"] ?? [] {
            try recordAssets.bind([.text(uuid)])
            if try recordAssets.step(), let asset = recordAssets.uuid(0) { touched.insert(asset) }
        }
        let testAssets = try db.prepare("SELECT asset_uuid FROM electrical_tests WHERE test_uuid = ?")
        for uuid in new["electrical_tests"] ?? [] {
            try testAssets.bind([.text(uuid)])
            if try testAssets.step(), let asset = testAssets.uuid(0) { touched.insert(asset) }
        }
        let assetRow = try db.prepare("SELECT \(AssetColumns.select) FROM assets WHERE uuid = ?")
        for uuid in touched.sorted(by: { $0.uuidString < $1.uuidString }) {
            try assetRow.bind([.text(uuid.uuidString)])
            guard try assetRow.step() else { continue }
            let asset = AssetColumns.row(assetRow).asset
            try refreshSummary(asset: asset)
            if try hasConflictingAmendments(uuid) { report.conflictingAmendments.append(asset.tag) }
        }
        report.fieldConflicts = try fieldConflicts(changedAssets, hereOnly: hereOnly,
                                                   new: new["asset_changes"] ?? [])
        return report
    }

    /// The tag an asset holds for a moment inside a merge's transaction: no tag typed in can look like it.
    private static func standInTag(_ uuid: String) -> String { "\u{1}merging " + uuid }

    /// The keys of `theirs`' entries this register lacks, and a sentence for each entry both hold with
    /// different contents.
    private func newEntries(_ theirs: Database, _ table: SyncJournal.Table) throws -> (Set<String>, [String]) {
        let hash = table.kind.hashColumn
        let mine = try db.prepare("SELECT \(hash) FROM \(table.name) WHERE \(table.key) = ?")
        let statement = try theirs.prepare(
            "SELECT \(table.key), \(hash) FROM \(table.name) ORDER BY \(table.kind.order)")
        var found = Set<String>()
        var differing: [String] = []
        while try statement.step() {
            try mine.bind([statement.value(0)])
            if try mine.step() {
                if mine.value(0) != statement.value(1) {
                    differing.append("\(table.name) entry \(statement.text(0).lowercased()) is in both registers"
                                     + " with different contents (verify each register)")
                }
            } else {
                found.insert(statement.text(0))
            }
        }
        return (found, differing)
    }

    /// How a refusal for a report number on two records begins.
    private static let reportNumberClash = "report number "
    private static func isReportNumberClash(_ problem: String) -> Bool { problem.hasPrefix(reportNumberClash) }

    /// Report numbers of incoming records that this register has given to another record.
    private func reportNumberClashes(_ theirs: Database, newRecords: Set<String>) throws -> [String] {
        let mine = try db.prepare("SELECT id, record_uuid FROM inspections WHERE report_number = ?")
        let statement = try theirs.prepare(
            "SELECT record_uuid, report_number, id FROM inspections WHERE report_number IS NOT NULL ORDER BY id")
        var clashes: [String] = []
        while try statement.step() {
            guard newRecords.contains(statement.text(0)) else { continue }
            try mine.bind([statement.value(1)])
            if try mine.step() {
                clashes.append(Register.reportNumberClash + "\(statement.text(1)) is on record #\(mine.int64(0)) "
                               + "here (\(mine.text(1).lowercased())) and on record #\(statement.int64(2)) there "
                               + "(\(statement.text(0).lowercased()))")
            }
        }
        return clashes
    }

    /// Pairs of assets that would share a tag (once folded): each asset's tag as the merge leaves it, the
    /// latest tag change of both registers holding. Only the assets the incoming entries name are looked at
    /// (new ones, and those with a new tag change), against whatever holds their tags here: a sync applies
    /// many pages to a large register.
    private func tagClashes(_ theirs: Database, newAssets: Set<String>, newChanges: Set<String>) throws -> [String] {
        // The tag each such asset ends with, when it was given (`changed_at || change_uuid`, "" as added), and
        // whether the asset is here.
        var tags: [String: (tag: String, at: String, here: Bool)] = [:]
        var touched = Set<String>()
        let incoming = try theirs.prepare("SELECT uuid, tag FROM assets")
        while try incoming.step() {
            guard newAssets.contains(incoming.text(0)) else { continue }
            tags[incoming.text(0)] = (incoming.text(1), "", false)
            touched.insert(incoming.text(0))
        }
        let current = try db.prepare("SELECT tag FROM assets WHERE uuid = ?")
        let latestHere = try db.prepare("""
            SELECT new_value, changed_at || change_uuid FROM asset_changes WHERE asset_uuid = ? AND field = 'tag'
            ORDER BY changed_at || change_uuid DESC LIMIT 1
            """)
        let changes = try theirs.prepare(
            "SELECT asset_uuid, new_value, changed_at || change_uuid, change_uuid FROM asset_changes"
                + " WHERE field = 'tag'")
        while try changes.step() {
            guard newChanges.contains(changes.text(3)) else { continue }
            let uuid = changes.text(0)
            if tags[uuid] == nil {
                try current.bind([.text(uuid)])
                guard try current.step() else { continue }
                tags[uuid] = (current.text(0), "", true)
                try latestHere.bind([.text(uuid)])
                if try latestHere.step() { tags[uuid] = (latestHere.text(0), latestHere.text(1), true) }
            }
            guard let held = tags[uuid], changes.text(2) > held.at else { continue }
            tags[uuid] = (changes.text(1), changes.text(2), held.here)
            touched.insert(uuid)
        }
        // Assets here that nothing incoming renames keep their tags: those sharing a key with a touched asset.
        let holding = try db.prepare("SELECT uuid, tag FROM assets WHERE tag_key = ?")
        var byKey: [String: Set<String>] = [:]
        for uuid in touched {
            let key = Tags.key(tags[uuid]!.tag)
            byKey[key, default: []].insert(uuid)
            try holding.bind([.text(key)])
            while try holding.step() {
                guard tags[holding.text(0)] == nil else { continue }
                tags[holding.text(0)] = (holding.text(1), "", true)
                byKey[key, default: []].insert(holding.text(0))
            }
        }
        for (uuid, held) in tags where !touched.contains(uuid) {
            let key = Tags.key(held.tag)
            if byKey[key] != nil { byKey[key]!.insert(uuid) }
        }
        return byKey.values.filter { $0.count > 1 }
            .map { uuids in
                uuids.sorted().map { uuid in
                    "\(tags[uuid]!.tag) (asset \(uuid.lowercased())\(tags[uuid]!.here ? " here" : " there"))"
                }
                    .joined(separator: " and ")
            }
            .sorted().map { "the same tag would be on two assets: \($0)" }
    }

    /// Copies the rows of `theirs` whose `key` is in `keys`, every column this register has but `id`, with
    /// `adjust`ed values. Returns how many.
    private func copy(_ theirs: Database, _ table: String, keys: Set<String>, by key: String, order: String,
                      adjust: [String: ((String) -> SQLValue) throws -> SQLValue] = [:]) throws -> Int {
        guard !keys.isEmpty else { return 0 }
        let columns = try columnNames(db, table).filter { $0 != "id" }
        let missing = Set(columns).subtracting(try columnNames(theirs, table))
        if !missing.isEmpty {
            let lacking = missing.sorted().joined(separator: ", ")
            throw RegisterError.mergeRefused(["the other register's \(table) lacks \(lacking)"])
        }
        let insert = try db.prepare("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
                                    + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
        let read = try theirs.prepare("SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY \(order)")
        let keyIndex = Int32(columns.firstIndex(of: key)!)
        let kind = HashChain.kinds.first { $0.table == table }
        // One array of values reused for every row, found by name through one table of positions: a first pull
        // copies half a million rows, and a dictionary a row was a sixth of its time.
        let position = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
        let adjustments = adjust.compactMap { column, change in position[column].map { ($0, change) } }
        var values = [SQLValue](repeating: .null, count: columns.count)
        var count = 0
        while try read.step() {
            let rowKey = read.text(keyIndex)
            guard keys.contains(rowKey) else { continue }
            for index in columns.indices { values[index] = read.value(Int32(index)) }
            let row = values
            let column = { (name: String) in position[name].map { row[$0] } ?? .null }
            if let kind { try HashChain.checkIncoming(kind, key: rowKey, column) }
            for (index, change) in adjustments { values[index] = try change(column) }
            try insert.bind(values)
            while try insert.step() {}
            count += 1
        }
        return count
    }

    private func columnNames(_ database: Database, _ table: String) throws -> [String] {
        let info = try database.prepare("PRAGMA table_info(\(table))")
        var names: [String] = []
        while try info.step() { names.append(info.text(1)) }
        return names
    }

    private func assetsOf(changes: Set<String>, in theirs: Database) throws -> [UUID] {
        let statement = try theirs.prepare("SELECT asset_uuid FROM asset_changes WHERE change_uuid = ?")
        var assets = Set<UUID>()
        for uuid in changes {
            try statement.bind([.text(uuid)])
            if try statement.step(), let asset = statement.uuid(0) { assets.insert(asset) }
        }
        return assets.sorted { $0.uuidString < $1.uuidString }
    }

    /// Sets the asset's columns to what it was added as with its latest changes applied.
    private func refold(assetUUID: UUID) throws {
        let fields = AssetField.allCases.map(\.rawValue)
        let statement = try db.prepare(
            "SELECT as_added, tag, \(fields.joined(separator: ", ")) FROM assets WHERE uuid = ?")
        try statement.bind([.text(assetUUID.uuidString)])
        guard try statement.step() else { return }
        var current: [String: SQLValue] = [:]
        for (offset, field) in fields.enumerated() { current[field] = statement.value(Int32(2 + offset)) }
        let oldTag = statement.text(1)
        guard let expected = try AssetChangeStore.expectedColumns(db, assetUUID: assetUUID,
                                                                  asAdded: statement.optionalText(0),
                                                                  current: current) else {
            throw RegisterError.mergeRefused(
                ["asset \(oldTag) keeps what it was added as in a form that cannot be read"])
        }
        var values = fields.map { expected[$0] ?? .null }
        var assignments = fields.map { "\($0) = ?" }
        if case .text(let tag)? = expected["tag"], tag != oldTag {
            assignments.append("tag_key = ?")
            values.append(.text(Tags.key(tag)))
        }
        try db.run("UPDATE assets SET \(assignments.joined(separator: ", ")) WHERE uuid = ?",
                   values + [.text(assetUUID.uuidString)])
    }

    /// Fields of `assets` changed on both registers since they parted: which change holds now.
    private func fieldConflicts(_ assets: [UUID], hereOnly isHereOnly: (String) -> Bool,
                                new: Set<String>) throws -> [String] {
        var lines: [String] = []
        for uuid in assets {
            let changes = try assetChanges(assetUUID: uuid)
            let tag = try firstRow("WHERE uuid = ?", .text(uuid.uuidString))?.asset.tag ?? uuid.uuidString
            for field in AssetField.allCases {
                let ofField = changes.filter { $0.field == field }
                let hereOnly = ofField.filter { isHereOnly($0.changeUUID.uuidString) }
                let thereOnly = ofField.filter { new.contains($0.changeUUID.uuidString) }
                guard !hereOnly.isEmpty, !thereOnly.isEmpty, let holds = ofField.last else { continue }
                func describe(_ c: AssetChange) -> String {
                    "\(c.newValue.text ?? "—") (\(c.changedAt), \(c.operatorName))"
                }
                lines.append("\(tag) \(field.rawValue): here \(hereOnly.map(describe).joined(separator: ", ")),"
                             + " there \(thereOnly.map(describe).joined(separator: ", ")); "
                             + "\(holds.newValue.text ?? "—") holds (the later change)")
            }
        }
        return lines
    }
}

extension Register {
    /// Whether a chain of the asset's amendments has two live heads (amendments of one record made on two
    /// machines, brought together by a merge): the history shows them both, and the asset is flagged
    /// *conflicting amendments* until an amendment of either supersedes both.
    public func hasConflictingAmendments(_ assetUUID: UUID) throws(RegisterError) -> Bool {
        try perform {
            // Kept: a sync asks this of every asset a page touches.
            let links = try db.withKept("""
                SELECT record_uuid, amends_uuid, also_amends FROM inspections WHERE asset_uuid = ? ORDER BY id
                """, [.text(assetUUID.uuidString)]) { statement in
                var links: [AmendmentLink] = []
                while try statement.step() {
                    guard let uuid = statement.uuid(0) else { continue }
                    let also = InspectionColumns.alsoAmendsUUIDs(statement.optionalText(2))
                    links.append(AmendmentLink(record: uuid, amends: statement.uuid(1), alsoAmends: also))
                }
                return links
            }
            return !AmendmentChains.conflicts(links).isEmpty
        }
    }
}
